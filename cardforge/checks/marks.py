"""Designed values carry their mark in the rules too (docs/marks.md): a value a card lists as
``provisional`` (designed or restored for this edition) that the rendered rules sheet or
rulebook prints must carry the dagger (†) right after it, as ``mark()`` writes it.

The card faces, the almanac, the rulebook's appendix and the components list mark their
values by code (:mod:`cardforge.resolve.marks`, :func:`cardforge.almanac.display.marked`);
the rules are written by hand, so this check reads what they print.

Code:

``mark-missing`` (warning, in the rules source: at the line that writes the value, or at
its first line when a template prints it)
    a designed card value (a text value of four characters or more, on one line, that no
    other card shares in that field) that the rendered rules print, as a whole word, without
    the † after it (emphasis marks between the value and the † are allowed), on a line that
    does not mark the card's name either (a table row "ability | Smoketown†").
"""
from __future__ import annotations

import re

from cardforge.util.diagnostics import MARK_MISSING, Diagnostic, diag
from cardforge.util.paths import InputFileError, read_limited
from cardforge.layout import LayoutSet
from cardforge.sources.load import display_path
from cardforge.model import DESIGNED_MARK, Game
from cardforge.checks import common
from cardforge.documents.source import SOURCES, source_path

MIN_LENGTH = 4  # shorter values ("1", "fire") are too common as words to find reliably
COMMENT = re.compile(r"<!--.*?-->", re.S)
MARKED = re.compile(rf"(?:'s)?[*_]*(?:{DESIGNED_MARK}|\{{\{{\s*mark\()")  # "Folk Hero's†", or mark() in the source


def _read(path) -> str | None:
    try:
        return read_limited(path, display=display_path(path)).decode("utf-8")
    except (OSError, UnicodeDecodeError, InputFileError):
        return None


def designed_values(game: Game) -> list[tuple[str, str, str]]:
    """(value, card name, field) of each designed text value the check looks for: a card's
    ``provisional`` field whose value is one line of text, without markup, of at least
    :data:`MIN_LENGTH` characters, and that no other card shares in that field (a shared
    value is a category, such as a spell or an ability type, not this card's own)."""
    out = []
    shared: dict[tuple[str, str], int] = {}
    for card in game.cards:
        for field, value in card.data.items():
            if isinstance(value, str):
                shared[(field, value)] = shared.get((field, value), 0) + 1
    for card in game.cards:
        for field in card.provisional:
            value = card.data.get(str(field))
            if (isinstance(value, str) and len(value) >= MIN_LENGTH and "\n" not in value and "{" not in value
                    and shared.get((str(field), value), 0) == 1):
                out.append((value, card.name, str(field)))
    return out


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    values = designed_values(game)
    if not values:
        return []
    found = []
    for kind in SOURCES:
        markdown, _ = common.rules_source(game, kind)
        if not markdown:
            continue
        markdown = COMMENT.sub("", markdown)
        path = source_path(game, kind)
        source = _read(path) or ""
        reported = set()
        for value, name, field in values:
            if value not in markdown:  # most designed values are not in the rules: no pattern to run
                continue
            pattern = re.compile(rf"(?<![\w'{{]){re.escape(value)}(?![\w}}])")
            for match in pattern.finditer(markdown):
                if MARKED.match(markdown, match.end()):
                    continue
                start = markdown.rfind("\n", 0, match.start()) + 1
                end = markdown.find("\n", match.end())
                if re.search(rf"{re.escape(name)}[*_]*{DESIGNED_MARK}", markdown[start:end if end >= 0 else None]):
                    continue  # the line marks the card itself ("Smoketown†" beside its ability in a table row)
                if (value, kind) in reported:
                    break
                reported.add((value, kind))
                bare = [m for m in pattern.finditer(source) if not MARKED.match(source, m.end())]
                line = source.count("\n", 0, bare[0].start()) + 1 if bare else 1
                found.append(diag(MARK_MISSING, f"{kind}.md prints {value!r} ({field} of {name!r}, designed for "
                                  f"this edition) without its {DESIGNED_MARK}",
                                  hint=f"write {{{{ mark(card, '{field}') }}}} right after the value, as docs/marks.md says",
                                  file=display_path(path), line=line))
    return found
