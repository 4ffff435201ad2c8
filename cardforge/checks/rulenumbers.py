"""Numbers in the rules come from the data: every number that rulebook.md or sheet.md prints
is written somewhere in the pack's YAML data or is a count of its cards.

Code: ``rules-number`` (warning, at the line of the rules source where the number is
written). A number typed into the prose ("draw 5 cards") does not change when the data
does, so the rules and the cards can disagree; give it a name under game.yaml ``numbers:``
and write ``{{ n('hand_size') }}``. Numbered-list markers are the compiler's, not numbers;
a ruling's citation ("[R3]", :mod:`cardforge.checks.rulings`) is a label, not a number.
"""
from __future__ import annotations

import re

from cardforge.util.paths import InputFileError, read_limited
from cardforge.checks import common
from cardforge.util.diagnostics import RULES_NUMBER, Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.sources.load import display_path
from cardforge.model import Game
from cardforge.documents.playertext import CITATION
from cardforge.documents.source import SOURCES, source_path

_NUMBER = re.compile(r"\d+")
_LIST_MARK = re.compile(r"^\s*\d+\.\s", re.M)


def data_numbers(game: Game) -> set[str]:
    """Every number written in the pack's YAML files, and the card counts derived from the data."""
    found: set[str] = set()
    for path in game.root.glob("*.yaml"):
        try:
            found |= set(_NUMBER.findall(read_limited(path).decode("utf-8", "replace")))
        except (OSError, InputFileError):  # the loader reports it; a FIFO is never opened
            continue
    for card in game.cards:  # cards read from CSV files
        found |= set(_NUMBER.findall(" ".join(str(v) for v in card.data.values())))
    found |= {str(game.total(t)) for t in game.card_types} | {str(game.total())}
    found |= {str(len(game.cards_of(t))) for t in game.card_types}
    return found


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    known = None
    found = []
    for kind in SOURCES:
        if not source_path(game, kind).is_file():
            continue
        markdown, _ = common.rules_source(game, kind)  # template errors: rules-template
        if not markdown:
            continue
        known = data_numbers(game) if known is None else known
        prose = CITATION.sub(" ", _LIST_MARK.sub(" ", markdown))
        unsourced = sorted(set(_NUMBER.findall(prose)) - known, key=int)
        if not unsourced:
            continue
        path = source_path(game, kind)
        try:
            raw = read_limited(path).decode("utf-8", "replace").splitlines()
        except (OSError, InputFileError):
            raw = []
        for number in unsourced:
            pattern = re.compile(rf"(?<!\d){number}(?!\d)")
            line = next((i for i, text in enumerate(raw, 1) if pattern.search(text)), 0)
            col = pattern.search(raw[line - 1]).start() + 1 if line else 0
            found.append(diag(RULES_NUMBER, f"{path.name} prints the number {number}, which no data of the pack holds",
                              file=display_path(path), line=line, column=col,
                              hint="name it in game.yaml (`numbers: {name: {value: " + number + "}}`) and write "
                                   "{{ n('name') }}, or write it as a word if it is not a game value"))
    return found
