"""Card text markup: every ``*``/``**`` is closed and every ``{`` opens an icon token.

Code: ``markup-unmatched`` (warning, at the character's line and column). An unmatched
emphasis mark would set the rest of the text in italic or bold; a ``{`` that is not an icon
token (``{Wood}``, ``{ 3 }``) prints as a brace. Escaped characters (``\\*``, ``\\{``) and
jinja2 syntax (``{{ ... }}``, ``{% ... %}``) are not reported.
"""
from __future__ import annotations

import re

from cardforge.checks.common import card_texts
from cardforge.util.diagnostics import MARKUP_UNMATCHED, Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.util.markup import TOKEN
from cardforge.model import Game

_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_BRACE = re.compile(r"\{[^}\n]{0,40}\}?")


def problems_in(text: str) -> list[tuple[int, str, str]]:
    """``(offset, message, hint)`` for each markup problem of ``text``."""
    hidden = _JINJA.sub(lambda m: " " * len(m.group(0)), text)
    found = []
    open_at: dict[str, int | None] = {"**": None, "*": None}
    tokens = set()
    for match in TOKEN.finditer(hidden):
        icon, emphasis, _newline, _escaped = match.groups()
        if icon or _escaped:
            tokens.update(range(match.start(), match.end()))
        if emphasis:
            open_at[emphasis] = match.start() if open_at[emphasis] is None else None
    for mark, word in (("**", "bold"), ("*", "italic")):
        if open_at[mark] is not None:
            found.append((open_at[mark], f"'{mark}' starts {word} text that is never closed",
                          f"close it with another '{mark}', or write \\{mark[0]} for a literal asterisk"))
    for match in _BRACE.finditer(hidden):
        if match.start() in tokens:
            continue
        brace = match.group(0)
        lower = brace.lower().replace(" ", "-")
        suggestion = lower if TOKEN.fullmatch(lower) else None
        found.append((match.start(), f"{brace!r} is not an icon token",
                      (f"icon names are lowercase: write {suggestion}" if suggestion else
                       "write {icon} with the icon's name from game.yaml, or \\{ for a literal brace")))
    return sorted(found)


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found = []
    for card in game.cards:
        for field in card_texts(card):
            if "*" not in field.text and "{" not in field.text:
                continue
            for offset, message, hint in problems_in(field.text):
                line, col = field.position(offset)
                found.append(diag(MARKUP_UNMATCHED, f"{card.label}: {message}",
                                  file=card.source.file, line=line, column=col, hint=hint, card=card.name))
    return found
