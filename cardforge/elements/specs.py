"""The typed settings elements carry: how a text box sets its type (:class:`TextStyle`)
and how an element repeats over data (:class:`Repeat`). Plain, frozen and hashable (cache
keys hold their ``repr``); the layout stage makes them, the render stage reads them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TextStyle:
    """How a text box sets its type: ``size``/``min_size`` in pt, ``leading`` as a ratio."""

    font: str = "sans"
    size: float = 9.0
    min_size: float = 6.0
    leading: float = 1.2
    color: str = "#000000"
    align: str = "center"  # left | center | right
    valign: str = "top"  # top | middle | bottom
    icon_scale: float = 1.3  # inline icon height, in ems
    icon_color: str | None = None  # draw every inline icon in this colour instead of its own


@dataclass(frozen=True)
class Repeat:
    """A resolved ``repeat:``: ``step``/``row_step`` (dx, dy) pt, ``within`` (x, y, w, h) pt or None."""

    over: str
    alias: str = "item"
    step: tuple[float, float] = (0.0, 0.0)
    columns: int | None = None
    row_step: tuple[float, float] = (0.0, 0.0)
    nested: bool = False
    within: tuple[float, float, float, float] | None = None
