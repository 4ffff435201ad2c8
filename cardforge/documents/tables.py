"""Rules tables sized by their content.

A Markdown table of a rules source becomes a :class:`TableModel`: header and body cells as
ReportLab paragraphs, and column widths (pt) measured from the text, the way a browser's
automatic table layout does it:

* a column is never narrower than its longest word plus padding (so "10" never prints as
  "1" over "0"); when that cannot be had, words of more than 10 characters may break, but
  a word or number of up to 10 characters never does;
* what width is left is shared out in proportion to how much each column's text would
  need to sit on one line.

A table whose unbreakable words alone are wider than the column raises
:class:`TableTooWide`; the rules compiler turns it into a ``rules-table-too-wide``
diagnostic naming the table and its source line, and nothing is printed.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Table, TableStyle

from cardforge.render import backend
from cardforge.documents.readers import Paragraph

UNBREAKABLE = 10  # characters: a word this long or shorter never breaks
IMG = re.compile(r'<img\b[^>]*?width="([\d.]+)"[^>]*/>')
TAG = re.compile(r"<[^>]+>")
RULE = colors.HexColor("#bdbdbd")


class TableTooWide(ValueError):
    """The table's words cannot fit ``available`` pt; ``needed`` is their narrowest width."""

    def __init__(self, name: str, needed: float, available: float):
        super().__init__(f"table {name!r} needs {needed / 72 * 25.4:.1f} mm for its unbreakable words; "
                         f"the column is {available / 72 * 25.4:.1f} mm wide")
        self.name, self.needed, self.available = name, needed, available


@dataclass
class TableModel:
    """A rules table: ``header`` cells (or None), body ``rows``, ``widths`` in pt, its ``name``."""

    name: str
    header: list[Paragraph] | None
    rows: list[list[Paragraph]]
    widths: list[float]
    pad: float
    space_after: float
    row_heights: list[float] = field(default_factory=list)
    header_height: float = 0.0

    def table(self, first: int = 0, last: int | None = None) -> Table:
        """A ReportLab table of body rows ``first``..``last`` (exclusive), under the header."""
        body = self.rows[first:last]
        data = ([self.header] if self.header else []) + body
        head = 1 if self.header else 0
        # split by a frame (the rulebook, the helper sheet): between rows, the header repeated,
        # never the header alone at a column's foot
        table = Table(data, colWidths=self.widths, hAlign="LEFT", repeatRows=head, splitByRow=1)
        from cardforge.render import fonts

        style = [("VALIGN", (0, 0), (-1, -1), "TOP"),
                 ("FONTNAME", (0, 0), (-1, -1), fonts.pdf_name("sans")),  # empty cells too: no base-14 font
                 ("LEFTPADDING", (0, 0), (-1, -1), self.pad), ("RIGHTPADDING", (0, 0), (-1, -1), self.pad),
                 ("TOPPADDING", (0, 0), (-1, -1), self.pad * 0.6), ("BOTTOMPADDING", (0, 0), (-1, -1), self.pad * 0.6)]
        if head:
            style.append(("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.HexColor("#5d4037")))
        if len(data) > head:
            style.append(("LINEBELOW", (0, head), (-1, -1), 0.25, RULE))
        table.setStyle(TableStyle(style))
        table.spaceAfter = self.space_after
        return table

    def measure(self) -> None:
        """Fill ``header_height`` and ``row_heights`` (pt) for the model's widths."""
        whole = self.table()
        whole.wrap(sum(self.widths), 10_000)
        heights = backend.table_row_heights(whole)
        if self.header:
            self.header_height = heights.pop(0)
        self.row_heights = heights


def words(markup: str, font: str, bold: str, size: float) -> tuple[list[tuple[str, float]], float]:
    """The words of a cell's paragraph markup with their widths (pt), and the one-line width."""
    font_for = bold if "<b>" in markup else font
    text = IMG.sub(lambda m: f"\x00{m.group(1)}\x00", markup)
    text = html.unescape(TAG.sub("", text.replace("<br/>", " ")))
    space = stringWidth(" ", font_for, size)
    out = []
    carry = 0.0  # an inline icon does not break from the word after it
    for word in text.split():
        width = sum(float(img) for img in re.findall(r"\x00([\d.]+)\x00", word))
        plain = re.sub(r"\x00[\d.]+\x00", "", word)
        if not plain:
            carry += width + space
            continue
        out.append((plain, carry + width + stringWidth(plain, font_for, size)))
        carry = 0.0
    if carry:
        out.append(("", carry - space))
    line = sum(w for _, w in out) + space * max(0, len(out) - 1)
    return out, line


def column_widths(columns: list[list[Paragraph]], width: float, pad: float, name: str) -> list[list[float]]:
    """Candidate widths (pt), each summing to ``width``, for ``columns`` (lists of cell paragraphs).

    Raises :class:`TableTooWide` when even breaking the words longer than
    :data:`UNBREAKABLE` characters leaves the table wider than ``width``.
    """
    whole, strict, natural = [], [], []
    for cells in columns:
        longest = shortest_safe = line = 0.0
        for p in cells:
            style = p.style
            found, one = words(p.text, style.fontName, _bold(style.fontName), style.fontSize)
            line = max(line, one)
            for word, w in found:
                longest = max(longest, w)
                if len(word) <= UNBREAKABLE:
                    shortest_safe = max(shortest_safe, w)
        extra = 2 * pad + 0.6  # padding and a hair for rounding
        whole.append(longest + extra)
        strict.append(shortest_safe + extra)
        natural.append(max(line, longest) + extra)
    for floor in (whole, strict):
        if sum(floor) <= width:
            return shares(floor, natural, width)
    raise TableTooWide(name, sum(strict), width)


def shares(floor: list[float], natural: list[float], width: float) -> list[list[float]]:
    """Candidate widths: the spare room shared by need, and by the square root of need
    (the caller keeps whichever makes the table shortest)."""
    return [_share(floor, natural, width, p) for p in (1.0, 0.5)]


def _share(floor: list[float], natural: list[float], width: float, power: float = 1.0) -> list[float]:
    if sum(natural) <= width:  # everything fits on one line: spread the spare room evenly by need
        spare = width - sum(natural)
        return [n + spare * n / sum(natural) for n in natural]
    want = [max(0.0, n - f) ** power for n, f in zip(natural, floor)]
    spare = width - sum(floor)
    total = sum(want) or 1.0
    return [f + spare * w / total for f, w in zip(floor, want)]


def _bold(font: str) -> str:
    from cardforge.render import fonts

    return fonts.pdf_name("sans-bold")
