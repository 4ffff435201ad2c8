"""Lengths: one internal unit (PostScript points), converted in one place.

Every length in a game pack or layout is written with its unit (``"63.5mm"``,
``"2.5in"``, ``"9pt"``, ``"1.2cm"``); :func:`parse_length` turns it into points with exact
factors (1 in = 72 pt = 25.4 mm). A bare number is an error: a layout never guesses.
"""
from __future__ import annotations

import re

INCH = 72.0
MM = INCH / 25.4
CM = 10 * MM
PT = 1.0

FACTORS = {"pt": PT, "mm": MM, "cm": CM, "in": INCH}

_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(pt|mm|cm|in)\s*$")


class UnitError(ValueError):
    """A length that is not a number followed by pt, mm, cm or in."""


def parse_length(value: str | int | float) -> float:
    """Return the length ``value`` in points.

    ``value`` is a string such as ``"63.5mm"``, ``"0.125in"``, ``"3 mm"`` or ``"9pt"``;
    a number of points is accepted only as an int or float from code, never from YAML
    text. Raises :class:`UnitError` for a missing or unknown unit.
    """
    if isinstance(value, bool):
        raise UnitError(f"{value!r} is not a length")
    if isinstance(value, (int, float)):
        return float(value)
    match = _LENGTH.match(str(value))
    if not match:
        raise UnitError(f"{value!r} is not a length: write a number and a unit (mm, cm, in or pt)")
    return float(match.group(1)) * FACTORS[match.group(2)]


def to_mm(points: float) -> float:
    """Points to millimetres."""
    return points / MM
