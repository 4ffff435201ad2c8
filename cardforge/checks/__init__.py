"""Stage 3, check: rule-consistency checks over a whole game pack.

Each check family is a function ``(game, layouts) -> list[Diagnostic]`` registered in
:data:`FAMILIES`; checks say what is wrong about a card or a path and place it with the
line map kept by loading. Checks never draw: the text-fit family asks the layout engine to
measure. See each module for its codes.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

from cardforge import facecache
from cardforge.diagnostics import Diagnostic
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.checks import (charts, common, components, counts, faces, glossary, icons, images, layoutfit, markup, packfiles,
                              playertext, references, rulenumbers, rules, rulesource, stacks, text, textfit, values)

Check = Callable[[Game, LayoutSet | None], list[Diagnostic]]

# family -> check; the schema family runs before these (cardforge.validate)
FAMILIES: dict[str, Check] = {
    "values": values.check,  # first: later families skip layouts with senseless values
    "references": references.check,
    "counts": counts.check,
    "stacks": stacks.check,
    "components": components.check,
    "icons": icons.check,
    "markup": markup.check,
    "glossary": glossary.check,
    "text": text.check,
    "faces": faces.check,
    "text-fit": textfit.check,
    "layout-fit": layoutfit.check,
    "images": images.check,
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
    insane = values.insane_layouts(layouts)
    sane = layouts
    if insane:  # measuring a zero-size card or a 10,000 pt font is pointless (and slow)
        sane = dataclasses.replace(layouts, by_type={t: lay for t, lay in layouts.by_type.items() if t not in insane})
    with common.shared_contexts(), facecache.kept(game):
        for name, check in FAMILIES.items():
            found += check(game, layouts if name == "values" else sane)
    return found
