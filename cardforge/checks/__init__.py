"""Stage 3, check: rule-consistency checks over a whole game pack.

Each check family is a function ``(game, layouts) -> list[Diagnostic]`` registered in
:data:`FAMILIES`; checks say what is wrong about a card or a path and place it with the
line map kept by loading. Checks never draw: the text-fit family asks the layout engine to
measure. See each module for its codes.
"""
from __future__ import annotations

from collections.abc import Callable

from cardforge.diagnostics import Diagnostic
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.checks import (charts, components, counts, glossary, icons, markup, packfiles, playertext, references,
                              rulenumbers, rules, rulesource, stacks, textfit)

Check = Callable[[Game, LayoutSet | None], list[Diagnostic]]

# family -> check; the schema family runs before these (cardforge.validate)
FAMILIES: dict[str, Check] = {
    "references": references.check,
    "counts": counts.check,
    "stacks": stacks.check,
    "components": components.check,
    "icons": icons.check,
    "markup": markup.check,
    "glossary": glossary.check,
    "text-fit": textfit.check,
    "rules": rules.check,
    "rules-source": rulesource.check,
    "player-text": playertext.check,
    "charts": charts.check,
    "rules-numbers": rulenumbers.check,
    "pack-files": packfiles.check,
}


def run_checks(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    """Run every check family on ``game``; returns all findings."""
    found: list[Diagnostic] = []
    for check in FAMILIES.values():
        found += check(game, layouts)
    return found
