"""The ``table`` element: rows from card data, columns sized by their content.

``rows`` is a jinja2 expression giving a list; each of ``columns`` gives a ``cell``
template (seeing ``row`` and ``index``), an optional ``header`` and ``align``/``color``.
Column widths come from the content: every column gets at least its widest unbreakable
word (a number or a short word is never broken), and the rest of the box is shared in
proportion to how much more each column's longest cell would like. Rows share the box's
height; the type shrinks from ``size`` to ``min_size`` (0.25 pt steps) until the table
fits, or the check reports ``layout-overflow``: :func:`fit` works that out (for the checks
and the renderer alike), :func:`cardforge.render.table.draw` draws it. Lengths in pt.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from cardforge import sandbox
from cardforge.model import Icon
from cardforge.resolve import text
from cardforge.model.typefaces import styled

PAD = 1.5  # pt of space inside each cell, on every side


@dataclass
class TableFit:
    """A table set at ``size`` pt: column widths, row heights (header first), cell blocks."""

    size: float
    widths: list[float]
    heights: list[float]
    cells: list[list[tuple[str, text.Block, text.TextStyle]]] = field(default_factory=list)
    fits: bool = True
    rows: int = 0


def _styles(el, size: float) -> tuple[list[text.TextStyle], list[text.TextStyle]]:
    body, head = [], []
    for col in el.columns:
        base = replace(el.style, size=size, min_size=size, align=col.get("align", "center"), valign="middle",
                       color=col.get("color", el.style.color))
        body.append(base)
        head_size = min(el.header_size, size) if el.header_size else size
        head.append(replace(base, font=el.header_font or styled(el.style.font, True, False), size=head_size,
                            min_size=head_size, color=el.style.color))
    return body, head


def contents(el, ctx: dict[str, Any]) -> tuple[list[str] | None, list[list[str]]]:
    """(header texts or None, body rows of cell texts) of table ``el`` on one card.

    Raises :class:`~cardforge.sandbox.TemplateFailure` when ``rows`` gives no list (a card
    field of the wrong shape), and what its templates raise."""
    rows = sandbox.expression(el.rows)(**ctx) or []
    if not isinstance(rows, (list, tuple)):
        raise sandbox.TemplateFailure(f"`{el.rows}` gives {type(rows).__name__} {str(rows)[:40]!r}, not a list of rows")
    header = None
    if any("header" in col for col in el.columns):
        header = [sandbox.render(col.get("header", ""), ctx).strip() for col in el.columns]
    body = []
    for i, row in enumerate(rows):
        sub = dict(ctx, row=row, index=i)
        body.append([sandbox.render(col["cell"], sub).strip() for col in el.columns])
    return header, body


def _widest_word(cell: str, style: text.TextStyle, icons: dict[str, Icon]) -> float:
    block = text.fit(cell, style, 1e-3, 1e9, icons)  # one word a line: the widest word's width
    return block.width


def _natural(cell: str, style: text.TextStyle, icons: dict[str, Icon]) -> float:
    return text.fit(cell, style, 1e9, 1e9, icons).width


def fit(el, ctx: dict[str, Any], box_w: float, box_h: float, icons: dict[str, Icon]) -> TableFit:
    """Set table ``el`` for one card in a ``box_w`` x ``box_h`` pt box, shrinking to fit."""
    header, body = contents(el, ctx)
    grid = ([header] if header else []) + body
    size = el.style.size
    while True:
        styles, head_styles = _styles(el, size)
        row_styles = [head_styles] * (1 if header else 0) + [styles] * len(body)
        n = len(el.columns)
        least = [max((_widest_word(r[c], row_styles[i][c], icons) for i, r in enumerate(grid)), default=0) + 2 * PAD
                 for c in range(n)]
        want = [max((_natural(r[c], row_styles[i][c], icons) for i, r in enumerate(grid)), default=0) + 2 * PAD
                for c in range(n)]
        widths = _share(least, want, box_w)
        cells, heights = [], []
        for i, r in enumerate(grid):
            line = []
            for c in range(n):
                block = text.fit(r[c], row_styles[i][c], max(1e-3, widths[c] - 2 * PAD), 1e9, icons)
                line.append((r[c], block, row_styles[i][c]))
            cells.append(line)
            heights.append(max((b.height for _, b, _ in line), default=0) + 2 * PAD)
        fits = sum(least) <= box_w + 0.01 and sum(heights) <= box_h + 0.01
        if fits or size - text.STEP < el.style.min_size - 1e-9:
            spare = max(0.0, box_h - sum(heights))
            if heights:  # rows share the rest of the box's height
                heights = [h + spare / len(heights) for h in heights]
            return TableFit(size, widths, heights, cells, fits, len(body))
        size = round(size - text.STEP, 4)


def _share(least: list[float], want: list[float], total: float) -> list[float]:
    """Column widths: each at least ``least``; the rest shared by how much more each wants,
    then (when all are content) evenly."""
    widths = list(least)
    spare = total - sum(widths)
    if spare <= 0:
        return widths
    extra = [max(0.0, w - l) for w, l in zip(want, least)]
    if sum(extra) > spare:
        return [l + spare * e / sum(extra) for l, e in zip(least, extra)]
    widths = [l + e for l, e in zip(least, extra)]
    rest = (total - sum(widths)) / len(widths)
    return [w + rest for w in widths]
