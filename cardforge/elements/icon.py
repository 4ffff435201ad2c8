"""The ``icon`` element: one icon of the game's legend, as large as its box allows: an SVG icon
as vectors, a text icon (game.yaml ``text:``) as its text in the bold face of ``font``."""
from __future__ import annotations

from typing import Any

from cardforge.elements import FONT, ICON_COLOR, Element, Key, Kind, register


def _draw(c, el: Element, copy, at) -> None:
    at.draw_icon(c, el, copy)


def _icons(el: Element, ctx: dict[str, Any]) -> set[str]:
    from cardforge.sandbox import context as memo

    return {memo.rendered(el.icon, ctx)} if el.icon else set()


def _shows(el: Element) -> set[str]:
    """The card fields its ``icon:`` template names (the icon a card's value picks)."""
    from cardforge.elements.text import CARD_FIELD

    return {a or b for a, b in CARD_FIELD.findall(el.icon or "")}


def _icons_vary(el: Element) -> bool:
    return bool(el.style.icon_color) or "{{" in (el.icon or "") or "{%" in (el.icon or "")


KIND = register(Kind(
    "icon", "one icon of the game's legend (`icon:`), drawn as large as the box allows",
    keys=(Key("icon", {"type": "string"}, None, "the icon to draw", "an icon name (template allowed)", holds="icon"),
          ICON_COLOR,
          Key("font", FONT.schema, FONT.default, "the typeface of a text icon (its bold face prints it)", FONT.unit,
              attr=None)),
    draw=_draw, icons=_icons, icons_vary=_icons_vary, covers=True, shows=_shows, badge=lambda el: True,
    whole_icons=True))
