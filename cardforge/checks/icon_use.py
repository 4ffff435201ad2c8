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

from cardforge import templates
from cardforge.checks import common
from cardforge.layout import Element, Face, LayoutSet
from cardforge.markup import icons_in
from cardforge.budget import BudgetExceeded
from cardforge.templates import TemplateFailure
from cardforge.model import Game
from cardforge.render import memo


def _needs_rendering(el: Element) -> bool:
    """Whether the icons an element draws depend on the card (or take a layout colour)."""
    if el.style.icon_color:
        return el.kind in ("text", "icon")
    if el.kind == "icon":
        return "{{" in (el.icon or "") or "{%" in (el.icon or "")
    return el.kind == "text" and bool(el.template) and ("{{" in el.template or "{%" in el.template)


def _face_icons(face: Face, ctx: dict, used: set[str], coloured: set[str]) -> None:
    for el in face.elements:
        if not _needs_rendering(el):
            continue  # static names and card fields are counted by checks.icons directly
        try:
            if not memo.holds(el.when, ctx):
                continue
            names = _element_icons(el, ctx)
        except (TemplateError, TemplateFailure, BudgetExceeded, TypeError, ValueError, KeyError, AttributeError):
            continue  # reported by the checks that render templates
        used.update(names)
        if el.style.icon_color:
            coloured.update(names)


def _element_icons(el: Element, ctx: dict) -> set[str]:
    if el.kind == "icon" and el.icon:
        return {memo.rendered(el.icon, ctx)}
    if el.kind != "text":
        return set()
    if el.field:
        value = ctx["card"].get(el.field)
        text = "" if value is None else str(value)
    else:
        text = memo.rendered(el.template, ctx)
    return {name for name, _ in icons_in(text)}


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
        back = layout.back if game.card_types[card.type].back == "own" else layouts.backs.get(game.card_types[card.type].back)
        if back is not None:
            _face_icons(back, common.back(card, game), used, coloured)
    return used, coloured
