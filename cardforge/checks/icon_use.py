"""Which icons the layouts draw for the cards of the game, and in which colours.

A layout may choose an icon with a template (``icon: "stage-{{ card.stage }}"``, or a text
``template:`` giving ``{stage-3}``): the icon it draws depends on the card. :func:`drawn`
renders every templated icon name and text of every face for every card (fronts with the
card's context, backs with the back's), so an icon counts as used when it is drawn for
some card, never because its name looks like a fragment of the template. Also returns the
icons drawn in a colour a layout asks for (``icon_color``), for the currentColor check.
"""
from __future__ import annotations

from jinja2 import TemplateError

from cardforge.checks import common
from cardforge.elements import kind_of
from cardforge.layout import Face, LayoutSet
from cardforge.sandbox.budget import BudgetExceeded
from cardforge.sandbox import TemplateFailure
from cardforge.model import Game
from cardforge.sandbox import context as memo
from cardforge.sandbox.choice import back_of


def _face_icons(face: Face, ctx: dict, used: set[str], coloured: set[str]) -> None:
    for el in face.elements:
        kind = kind_of(el)
        if not kind.icons_vary(el):
            continue  # static names and card fields are counted by checks.icons directly
        try:
            if not memo.holds(el.when, ctx):
                continue
            names = kind.icons(el, ctx)
        except (TemplateError, TemplateFailure, BudgetExceeded, TypeError, ValueError, KeyError, AttributeError):
            continue  # reported by the checks that render templates
        used.update(names)
        if el.style.icon_color:
            coloured.update(names)


def drawn(game: Game, layouts: LayoutSet | None) -> tuple[set[str], set[str]]:
    """``(used, coloured)``: icon names the layouts draw for some card, and those of them
    drawn with a layout's ``icon_color``."""
    used: set[str] = set()
    coloured: set[str] = set()
    if layouts is None:
        return used, coloured
    for card in game.cards:
        layout = layouts.by_type.get(card.type)
        if layout is None:
            continue
        _face_icons(layout.front, common.front(card, game), used, coloured)
        back_id = back_of(card, game)
        back = layout.back if back_id == "own" else layouts.back(back_id)
        if back is not None:
            _face_icons(back, common.back(card, game), used, coloured)
    return used, coloured
