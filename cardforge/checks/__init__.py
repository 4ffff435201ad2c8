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
from cardforge.diagnostics import Diagnostic, diag
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


# families that judge the set of cards as a whole: with a card file unread they would only
# report its missing cards again (count-mismatch, rule-failed, icon-unused, ...)
WHOLE_SET = ("references", "counts", "stacks", "components", "icons", "glossary", "rules", "rules-source",
             "charts", "rules-numbers")


def run_checks(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    """Run every check family on ``game``; returns all findings.

    When a card file was refused whole (``game.unread``), the :data:`WHOLE_SET` families do
    not run; one ``checks-skipped`` info says which and why, so the file's own error stands
    alone.
    """
    found: list[Diagnostic] = []
    skipped: tuple[str, ...] = ()
    if game.unread:
        skipped = WHOLE_SET
        found.append(diag("checks-skipped", f"{', '.join(skipped)} checks not run: "
                          f"{', '.join(game.unread)} could not be read, so its cards are missing",
                          file=game.unread[0], line=1, hint="fix the error reported for that file first"))
    insane = values.insane_layouts(layouts)
    sane = layouts
    if insane:  # measuring a zero-size card or a 10,000 pt font is pointless (and slow)
        sane = dataclasses.replace(layouts, by_type={t: lay for t, lay in layouts.by_type.items() if t not in insane})
    with common.shared_contexts(), facecache.kept(game):
        for name, check in FAMILIES.items():
            if name in skipped:
                continue
            found += check(game, layouts if name == "values" else sane)
    return found
