"""Rules sources: rulebook.md and sheet.md render against the game's data.

Codes: ``rules-template`` (error) for a jinja2 or data error, with the source line;
``rules-missing`` (warning) for a pack without a rules source. Whether the sheet fits its
sixteen cells is measured when it is built (``rules-overflow``, see
:mod:`cardforge.documents.sheet`).
"""
from __future__ import annotations

from cardforge.checks import common
from cardforge.util.diagnostics import Diagnostic
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.documents.source import SOURCES


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found = []
    for kind in SOURCES:
        _, problems = common.rules_source(game, kind)
        found += problems
    return found
