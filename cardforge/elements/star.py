"""The ``star`` element: a star polygon of ``points`` points drawn in its box (inscribed in
the box's ellipse, a point upwards), its inner corners at ``inner`` of the radius."""
from __future__ import annotations

from cardforge.elements import DASH, OPACITY, Key, Kind, register
from cardforge.elements.shapes import INNER, PAINT, Polygon, _drawer

register(Kind(
    "star", "a star of `points` points in the box, a point upwards, its inner corners at `inner` of the radius",
    keys=PAINT + (DASH, OPACITY,
                  Key("points", {"type": "integer", "minimum": 3, "maximum": 64}, 5, "how many points the star has",
                      "integer, 3 to 64", attr="sides"),
                  INNER),
    draw=_drawer("polygon"), build=lambda raw, fonts: {"star": True}, element=Polygon))
