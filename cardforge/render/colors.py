"""ReportLab colours for the drawing modules, with ReportLab imported when the first is made.

The checks import the render modules to fit text and read layouts, and draw nothing;
ReportLab (and PIL, which it imports) is loaded by the first colour a drawing asks for,
so ``cardforge check`` never loads it.
"""
from __future__ import annotations

from typing import Any

from cardforge.cache.registry import COLOURS


def HexColor(value: Any, *args: Any, **kwargs: Any):  # noqa: N802 - ReportLab's name, ReportLab's signature
    """``reportlab.lib.colors.HexColor(value, ...)``: a ``#rrggbb`` string (or number) as a
    ReportLab colour. Raises ``ValueError`` for a bad colour, as ReportLab does."""
    from reportlab.lib.colors import HexColor as make

    return make(value, *args, **kwargs)


@COLOURS.function
def color(value: str):
    """The ReportLab colour of ``#rrggbb`` (parsed once per process). Raises ``ValueError``."""
    return HexColor(value)
