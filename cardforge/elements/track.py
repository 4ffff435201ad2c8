"""The ``track`` element: a row of ``count`` boxes, the first ``value`` of them filled (a
progress or Fearamid track, hit points, a level), spread across its box with ``gap``
between them.

``value`` is a template giving a whole number (``"{{ card.level }}"``); a value below 0
fills none, above ``count`` fills all. A box filled is painted ``fill``, an empty one
``empty``; both are outlined with ``stroke``. Lengths in pt once parsed.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cardforge.elements import (DASH, OPACITY, RADIUS, STROKE, STROKE_WIDTH, Element, Key, Kind, colour, length,
                                register)


@dataclass(frozen=True)
class Track(Element):
    """A track element: :class:`Element` with the keys only a track has."""

    count: int = 5
    value: str | None = None
    empty: str | None = None
    gap: float = 0.0


def boxes(el: Track, box: tuple[float, float, float, float]) -> list[tuple[float, float, float, float]]:
    """The ``count`` boxes (x, y, w, h) of a track drawn in ``box`` (pt from the card's top-left
    trim corner), left to right, ``gap`` apart."""
    x, y, w, h = box
    side = max(0.0, (w - el.gap * (el.count - 1)) / el.count)
    return [(x + i * (side + el.gap), y, side, h) for i in range(el.count)]


def filled(el: Track, ctx: dict[str, Any]) -> int:
    """How many boxes the card of ``ctx`` fills: its ``value``, kept between 0 and ``count``
    (a value that is not a whole number fills none; the faces check reports a failing template)."""
    from cardforge.sandbox import context as memo

    try:
        n = int(str(memo.rendered(el.value, ctx)).strip())
    except ValueError:
        return 0
    return max(0, min(el.count, n))


def _draw(c, el: Track, copy, at) -> None:
    n = filled(el, copy.ctx)
    for i, box in enumerate(boxes(el, copy.box)):
        paint = el.fill if i < n else el.empty
        at.draw_shape(c, replace(el, fill=paint), replace(copy, box=box), "rect")


KIND = register(Kind(
    "track", "a row of `count` boxes, the first `value` of them filled (a progress track, a level)",
    keys=(Key("count", {"type": "integer", "minimum": 1, "maximum": 40}, 5, "how many boxes", "integer, 1 to 40",
              convert=int),
          Key("value", {"type": "string"}, None, "a template giving how many boxes are filled (card fields as "
              "`card.FIELD`)", "jinja2 template", holds="template"),
          colour("fill", "colour of a filled box", "#000000"),
          colour("empty", "colour of an empty box", None),
          STROKE, STROKE_WIDTH, RADIUS, DASH, OPACITY,
          length("gap", "1mm", "space between two boxes")),
    draw=_draw, element=Track,
    require=lambda raw: None if raw.get("value") else "needs `value:`"))
