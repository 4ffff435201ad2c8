"""Player-facing text of the rules: ``rules-internal-text`` and ``rules-markdown-hazard``.

``rules-internal-text`` (warning): a word meant for the pack's maintainers (the seed,
ERRATA.md, "provisional", a raw field name; see :mod:`cardforge.documents.playertext`) in a
rules source (sheet.md, rulebook.md) or in a game.yaml string that the rules print (setup,
turn, end, tables, glossary, icon labels, component names), on its line and column.

``rules-markdown-hazard`` (error): a line of a rules source that continues a paragraph but
starts like a list item ("- ", "+ ", "* ", "1. ", "1) "), a heading ("# ") or a quote
("> "), written or made by a number or macro result ("{{ n('x') }}. ..."). Markdown would
print it as a new list item or heading ("1 + 1" over "• 2 + 2 Gold").
"""
from __future__ import annotations

import re

from cardforge.util.diagnostics import RULES_INTERNAL_TEXT, RULES_MARKDOWN_HAZARD, Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.sources.load import display_path
from cardforge.model import Game
from cardforge.util.paths import InputFileError, read_limited
from cardforge.documents.playertext import allowed_words, internal_words, printed_strings
from cardforge.documents.source import SOURCES, source_path

MARKER = re.compile(r"^\s{0,3}(?:[-+*]\s|\d{1,9}[.)](?:\s|$)|#{1,6}(?:\s|$)|>)")
MADE = re.compile(r"^\s{0,3}\{\{[^}]*\}\}(?:[.)](?:\s|$))")
BLOCK = re.compile(r"^\s{0,3}(?:[-+*]\s|\d{1,9}[.)]\s|#{1,6}\s|>|\||<!--|```)")
JINJA_ONLY = re.compile(r"^\s*(?:\{%.*%\}|\{#.*#\}|\{\{.*\}\})\s*$")


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    allowed = allowed_words(game)
    for kind in SOURCES:
        path = source_path(game, kind)
        try:  # the loader's limits: a FIFO is never opened, a huge file never read
            lines = read_limited(path, display=display_path(path)).decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError, InputFileError):
            continue  # rules-missing / rules-template say so
        name = display_path(path)
        found += _internal(lines, name, allowed)
        found += _hazards(lines, name)
    for where, text in printed_strings(game):
        for offset, word, why in internal_words(text, allowed):
            line, col = game.source.lines.in_string(where, text, offset)
            found.append(diag(RULES_INTERNAL_TEXT, f"{word!r} is printed for players ({why})",
                              file=game.source.file, line=line, column=col,
                              hint="say it in the game's words, or keep it in a `note:` or ERRATA.md"))
    return found


def _internal(lines: list[str], name: str, allowed: set[str]) -> list[Diagnostic]:
    out = []
    text = "\n".join(lines)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for offset, word, why in internal_words(text, allowed):
        n = max(i for i, s in enumerate(starts) if s <= offset)
        out.append(diag(RULES_INTERNAL_TEXT, f"{word!r} is printed for players ({why})", file=name, line=n + 1,
                        column=offset - starts[n] + 1,
                        hint="say it in the game's words, or keep it in a {# jinja comment #}"))
    return out


def _hazards(lines: list[str], name: str) -> list[Diagnostic]:
    out = []
    block = None  # what the current block is: "para" (plain text), "list", "other", or None
    previous = ""
    for n, line in enumerate(lines, 1):
        if not line.strip():
            block = None
            continue
        if JINJA_ONLY.match(line) and not line.strip().startswith("{{"):
            continue  # {% for %} and friends print nothing of their own
        marker = MARKER.match(line) or MADE.match(line)
        if block == "para" and marker and not previous.rstrip().endswith(":"):
            out.append(diag(RULES_MARKDOWN_HAZARD,
                            f"this line continues a paragraph but Markdown reads it as a new "
                            f"{_what(line)}: {line.strip()[:40]!r}", file=name, line=n,
                            column=len(line) - len(line.lstrip()) + 1,
                            hint="move the line break, or escape the mark (\\+, 1\\.)"))
        if block is None or marker:
            if re.match(r"^\s{0,3}(?:[-+*]\s|\d{1,9}[.)]\s)", line):
                block = "list"
            elif BLOCK.match(line) or JINJA_ONLY.match(line):
                block = "other"
            else:
                block = "para"
        previous = line
    return out


def _what(line: str) -> str:
    s = line.lstrip()
    if s.startswith("#"):
        return "heading"
    if s.startswith(">"):
        return "quote"
    return "list item"
