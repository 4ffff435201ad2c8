"""The ``text`` element: card markup from a card field or a template, fitted into its box
(the type shrinks from ``size`` to ``min_size``); ``fill``/``stroke`` put it on a colour band."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cardforge.cache.registry import TEMPLATES_COMPILED
from cardforge.elements import (ALIGN, COLOR, DASH, FIELD, FILL, FONT, ICON_COLOR, ICON_SCALE, LEADING, MIN_SIZE,
                                OPACITY, RADIUS, SIZE, STROKE, STROKE_WIDTH, TEMPLATE, VALIGN, Element, Kind, enum,
                                length, register)


@dataclass(frozen=True)
class Text(Element):
    """A text element: :class:`Element` with the keys only text has: ``rotate`` (degrees),
    ``role`` (title, body, other; None: by its field) and ``padding`` (pt). A kind that sets
    text (``Kind(sets_text=True)``) gives its elements this class or a subclass of it."""

    rotate: int = 0
    role: str | None = None
    padding: float = 0.0


def _draw(c, el: Element, copy, at) -> None:
    at.draw_text(c, el, copy)


PRINTED = re.compile(r"\{\{(.*?)\}\}", re.S)
CARD_FIELD = re.compile(r"\bcard\.([A-Za-z_]\w*)|\bcard\[\s*['\"]([^'\"]+)['\"]\s*\]")


def printed_fields(el: Element) -> set[str]:
    """The card fields whose values ``el`` prints: its ``field``, or every ``card.FIELD`` a
    ``{{ ... }}`` of its template names (a field read only by ``{% if %}`` prints nothing)."""
    return {el.field} if el.field else set(_template_fields(el.template or ""))


@TEMPLATES_COMPILED.function
def _template_fields(template: str) -> frozenset[str]:
    """The ``card.FIELD`` names the ``{{ ... }}`` of ``template`` print (read once per template)."""
    return frozenset(a or b for expression in PRINTED.findall(template)
                     for a, b in CARD_FIELD.findall(expression))


def markup(el: Element, ctx: dict[str, Any]) -> str:
    """The card markup ``el`` shows on the card of ``ctx`` ('' when nothing), ``when:`` aside.

    A designed value (a field the card lists under ``provisional:``) prints as it is: the
    designed mark (†) is placed apart, small, by :mod:`cardforge.resolve.marks`."""
    from cardforge.sandbox import context as memo

    if el.field:
        value = ctx["card"].get(el.field)
        return "" if value is None else str(value)
    return memo.rendered(el.template, ctx)


def _icons(el: Element, ctx: dict[str, Any]) -> set[str]:
    from cardforge.util.markup import icons_in

    return {name for name, _ in icons_in(markup(el, ctx))}


def _icons_vary(el: Element) -> bool:
    return bool(el.style.icon_color) or bool(el.template) and ("{{" in el.template or "{%" in el.template)


KIND = register(Kind(
    "text", "card markup (see [markup.md](markup.md)) from `field` or `template`, fitted into the box: the type "
            "shrinks from `size` to `min_size`, and `text-overflow` reports what still does not fit; a value the card "
            "lists as `provisional` (its `field`, or a `card.FIELD` the template prints) is marked † as "
            "[marks.md](marks.md) describes",
    keys=(FIELD, TEMPLATE, FONT, SIZE, MIN_SIZE, LEADING, COLOR, ALIGN, VALIGN, ICON_SCALE, ICON_COLOR,
          enum("rotate", [0, 90, 180, 270], 0, "turn the text, in degrees"),
          enum("role", ["title", "body", "other"], None,
               "its place in the type hierarchy: the title is never set smaller than the body",
               shown_default="title for `field: name`, body for `field: text`"),
          length("padding", "0pt", "space kept between the box (its colour band) and the text"),
          FILL, STROKE, STROKE_WIDTH, RADIUS, DASH, OPACITY),
    draw=_draw,
    require=lambda raw: None if raw.get("field") or raw.get("template") else "needs `field:` or `template:`",
    icons=_icons, icons_vary=_icons_vary, sets_text=True, keeps_safe=True, element=Text))
