"""Repeated elements: one layout element drawn once per item of a list or a range.

An element with ``repeat:`` is expanded, per card, into copies: ``over`` is a jinja2
expression giving a list (or an integer n, meaning 0..n-1); copy ``i`` sees ``item``,
``index`` (0-based), ``row`` and ``col`` in its sandbox. Copies are placed ``step``
[dx, dy] apart along a row; a new row starts every ``columns`` items (a flat list), or for
each inner list when ``nested`` is true (a list of rows), ``row_step`` [dx, dy] below the
last. Every copy must lie inside ``within`` ([x, y, w, h]; default the card's trim):
data that does not fit is a ``layout-overflow`` error, never silently dropped. All
lengths in pt, boxes from the card's top-left trim corner.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jinja2 import Undefined

from cardforge import sandbox
from cardforge.elements.specs import Repeat  # noqa: F401  (part of this module's API: repeat.Repeat)


@dataclass(frozen=True)
class Copy:
    """One copy of a repeated element: its box (pt) and the template context it sees."""

    box: tuple[float, float, float, float]
    ctx: dict[str, Any]
    index: int


MAX_ITEMS = 1000  # copies of one repeated element on one card


def _listed(value: Any, what: str) -> list:
    """``value`` (a list, or a count n meaning 0..n-1) as a list, or :class:`TemplateFailure`."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value > MAX_ITEMS:
            raise sandbox.TemplateFailure(f"{what} gives {value:,} items; a card repeats an element at most {MAX_ITEMS:,} times")
        return list(range(value))
    if isinstance(value, (list, tuple, str, dict)) and len(value) <= MAX_ITEMS:
        return list(value)
    raise sandbox.TemplateFailure(f"{what} gives {type(value).__name__} {str(value)[:40]!r}, not a list or a number"
                                    if not isinstance(value, (list, tuple, str, dict)) else
                                    f"{what} gives {len(value):,} items; a card repeats an element at most {MAX_ITEMS:,} times")


def items(rep: Repeat, ctx: dict[str, Any]) -> list[tuple[int, int, Any]]:
    """(row, col, item) for every item ``rep.over`` gives on this card.

    Raises :class:`~cardforge.sandbox.TemplateFailure` when it gives neither a list nor a
    count (a card field of the wrong shape) or more than :data:`MAX_ITEMS`, and what
    evaluating ``over`` raises."""
    value = sandbox.expression(rep.over)(**ctx)
    if value is None or isinstance(value, Undefined):  # a card without the field: nothing to repeat
        return []
    value = _listed(value, f"`{rep.over}`")
    if rep.nested:
        return [(r, c, item) for r, row in enumerate(value)
                for c, item in enumerate(_listed(row or [], f"row {r + 1} of `{rep.over}`"))]
    if rep.columns:
        return [(i // rep.columns, i % rep.columns, item) for i, item in enumerate(value)]
    return [(0, i, item) for i, item in enumerate(value)]


def copies(box: tuple[float, float, float, float], rep: Repeat | None, ctx: dict[str, Any]) -> list[Copy]:
    """The copies of an element on one card (a single copy when it does not repeat)."""
    if rep is None:
        return [Copy(box, ctx, 0)]
    x, y, w, h = box
    out = []
    for i, (row, col, item) in enumerate(items(rep, ctx)):
        dx = col * rep.step[0] + row * rep.row_step[0]
        dy = col * rep.step[1] + row * rep.row_step[1]
        sub = dict(ctx)
        sub.update({rep.alias: item, "index": i, "row": row, "col": col})
        out.append(Copy((x + dx, y + dy, w, h), sub, i))
    return out


def outside(copy: Copy, area: tuple[float, float, float, float]) -> bool:
    """Whether ``copy``'s box leaves ``area`` (x, y, w, h pt), with 0.01 pt of slack."""
    x, y, w, h = copy.box
    ax, ay, aw, ah = area
    return x < ax - 0.01 or y < ay - 0.01 or x + w > ax + aw + 0.01 or y + h > ay + ah + 0.01
