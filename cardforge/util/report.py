"""Printing diagnostics like a compiler: grouped by file, coloured on a terminal."""
from __future__ import annotations

from itertools import groupby

from rich.console import Console
from rich.markup import escape

from cardforge.util.diagnostics import Diagnostic, Severity, sort_key

STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold cyan"}


def print_diagnostics(console: Console, diagnostics: list[Diagnostic]) -> None:
    """Each diagnostic as ``file:line:col: severity[code]: message`` (+ hint), by file."""
    ordered = sorted(diagnostics, key=sort_key)
    for _, group in groupby(ordered, key=lambda d: d.file):
        for d in group:
            console.print(f"[bold]{escape(d.location)}[/]: [{STYLE[d.severity]}]{d.severity}\\[{escape(d.code)}][/]: "
                          f"{escape(d.message)}", highlight=False, soft_wrap=True, emoji=False)
            if d.hint:
                console.print(f"    [dim]hint:[/] {escape(d.hint)}", highlight=False, soft_wrap=True, emoji=False)


def summary(diagnostics: list[Diagnostic]) -> str:
    counts = {s: sum(1 for d in diagnostics if d.severity is s) for s in Severity}
    parts = [f"{counts[s]} {s}{'s' if counts[s] != 1 else ''}" for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)]
    return ", ".join(parts)
