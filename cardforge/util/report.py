"""Printing diagnostics like a compiler: grouped by file, coloured on a terminal."""
from __future__ import annotations

from rich.console import Console
from rich.text import Text

from cardforge.util.diagnostics import Diagnostic, Severity, sort_key

STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold cyan"}


def print_diagnostics(console: Console, diagnostics: list[Diagnostic]) -> None:
    """Each diagnostic as ``file:line:col: severity[code]: message`` (+ hint), by file;
    printed as one styled text (a pack's hundreds of untranslated entries print at once)."""
    out = Text()
    for d in sorted(diagnostics, key=sort_key):
        out.append(d.location, style="bold")
        out.append(": ")
        out.append(f"{d.severity}[{d.code}]", style=STYLE[d.severity])
        out.append(f": {d.message}\n")
        if d.hint:
            out.append("    ")
            out.append("hint:", style="dim")
            out.append(f" {d.hint}\n")
    if out:
        console.print(out, highlight=False, soft_wrap=True, emoji=False, end="")


def summary(diagnostics: list[Diagnostic]) -> str:
    counts = {s: sum(1 for d in diagnostics if d.severity is s) for s in Severity}
    parts = [f"{counts[s]} {s}{'s' if counts[s] != 1 else ''}" for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)]
    return ", ".join(parts)
