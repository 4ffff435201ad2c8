"""The shape elements: ``rect``, ``ellipse``, ``circle``, ``line`` and ``polygon``, filled
and/or stroked (drawn by :mod:`cardforge.render.shapes`).

A ``line`` or ``polygon`` given by ``points`` needs no ``box``: its points are then measured
from the card's top-left trim corner, and its box is the one they span.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardforge.elements import (DASH, FILL, OPACITY, RADIUS, STROKE, STROKE_WIDTH, Element, Key, Kind, corners,
                                register)
from cardforge.util.units import parse_length

POINTS = Key("points", {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/pair"}}, (),
             "the corners [x, y], from the box's top-left corner (or the card's, with no `box`)",
             "list of [x, y] lengths", convert=corners, shown_default="none")
INNER = Key("inner", {"type": "number", "minimum": 0.05, "maximum": 1}, 0.5,
            "a star's inner radius as a share of the outer", "number, 0.05 to 1", convert=float)


@dataclass(frozen=True)
class Line(Element):
    """A line element: :class:`Element` with the ``points`` it runs through (pt from its box's
    top-left corner; none: the box's diagonal)."""

    points: tuple[tuple[float, float], ...] = ()


@dataclass(frozen=True)
class Polygon(Line):
    """A polygon or star element: a regular polygon of ``sides`` corners (a star of ``sides``
    points when ``star``, its inner corners at ``inner`` of the radius), or the ``points`` given."""

    sides: int = 0
    star: bool = False
    inner: float = 0.0


def _drawer(outline: str):
    def draw(c, el: Element, copy, at) -> None:
        at.draw_shape(c, el, copy, outline)
    return draw


def _by_points(raw: dict[str, Any]) -> bool:
    return "box" in raw or "points" not in raw


def _place(raw: dict[str, Any]) -> dict[str, Any]:
    """The box, and the points from its top-left corner: a box without one is the points' span."""
    if "box" in raw:
        return {"box": tuple(parse_length(v) for v in raw["box"])}
    pts = corners(raw["points"])
    x, y = min(p[0] for p in pts), min(p[1] for p in pts)
    return {"box": (x, y, max(p[0] for p in pts) - x, max(p[1] for p in pts) - y),
            "points": tuple((px - x, py - y) for px, py in pts)}


PAINT = (FILL, STROKE, STROKE_WIDTH)
register(Kind("rect", "a rectangle (`fill`, `stroke`, `radius`), for panels, art frames and stripes; a fill reaching "
                      "the trim runs on into the bleed",
              keys=PAINT + (RADIUS, DASH, OPACITY), draw=_drawer("rect"), ground=lambda el: el.fill,
              badge=lambda el: el.radius > 0))

register(Kind(
    "line", "from the box's top-left to its bottom-right corner (a 0 height draws a rule, a 0 width a vertical one), "
            "or through `points`; black unless `stroke` says otherwise",
    keys=(STROKE, STROKE_WIDTH, DASH, OPACITY, POINTS), draw=_drawer("line"), needs_box=_by_points, place=_place,
    allows_flat=True, element=Line))

register(Kind("ellipse", "an ellipse filling the box", keys=PAINT + (DASH, OPACITY), draw=_drawer("ellipse")))

register(Kind("circle", "the largest circle centred in the box", keys=PAINT + (DASH, OPACITY), draw=_drawer("circle")))

register(Kind(
    "polygon", "a regular polygon of `sides` (or a star, `star: true`) inscribed in the box's ellipse with a point "
               "upwards, or the `points` given",
    keys=PAINT + (DASH, OPACITY,
                  Key("sides", {"type": "integer", "minimum": 3, "maximum": 64}, 6,
                      "number of corners (5 with `star`: a five-pointed star)", "integer, 3 to 64"),
                  Key("star", {"type": "boolean"}, False, "draw a star of `sides` points", "true or false"),
                  INNER, POINTS),
    draw=_drawer("polygon"), needs_box=_by_points, place=_place, element=Polygon))
