"""Fitting and drawing marked-up text with inline icons in a fixed box.

:func:`fit` measures: it wraps the text greedily and steps the type size down from the
layout's size to its minimum (in 0.25 pt steps) until the text fits its box; the result
says whether it fits and by how much it overflows at the minimum size. :func:`draw` draws a
fitted block. The checker's text-fit check and the renderer call the same :func:`fit`,
so what is reported is what is printed. All lengths are in points.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.markup import Run, parse
from cardforge.model import Icon
from cardforge.render import fonts
from cardforge.render.icons import IconStamp

STEP = 0.25  # pt, the type-size step when shrinking to fit
ASCENT = 0.76  # of the type size: DejaVu's cap height plus a little, for the first baseline
DESCENT = 0.24
ICON_DROP = 0.2  # share of an inline icon below the baseline


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


@dataclass
class Piece:
    kind: str  # "text" or "icon"
    value: str
    face: str
    width: float
    icon: Icon | None = None


@dataclass
class Line:
    pieces: list[Piece] = field(default_factory=list)
    width: float = 0.0

    def extents(self, size: float, icon_scale: float) -> tuple[float, float]:
        """(above, below) the baseline in pt: type ascent/descent, or an inline icon's."""
        above, below = size * ASCENT, size * DESCENT
        if any(p.kind == "icon" for p in self.pieces):
            icon_h = size * icon_scale
            above, below = max(above, icon_h * (1 - ICON_DROP)), max(below, icon_h * ICON_DROP)
        return above, below


def baselines(lines: list[Line], size: float, style: "TextStyle") -> tuple[list[float], float]:
    """Offsets (pt, downwards from the block's top) of each line's baseline, and the block height.

    Lines are ``style.leading`` apart, or further where inline icons would otherwise touch.
    """
    offsets, y, prev_below = [], 0.0, 0.0
    for i, line in enumerate(lines):
        above, below = line.extents(size, style.icon_scale)
        if i == 0:
            y = above
        else:
            y += max(size * style.leading, prev_below + above + size * 0.12)
        offsets.append(y)
        prev_below = below
    return offsets, (y + prev_below if lines else 0.0)


@dataclass
class Block:
    """Text set at ``size`` pt: its lines, total ``height`` (pt), and how it fits."""

    lines: list[Line]
    size: float
    height: float
    width: float
    fits: bool
    overflow_h: float = 0.0  # pt of height beyond the box at the final size
    overflow_w: float = 0.0  # pt of the widest unbreakable word beyond the box width
    unknown_icons: tuple[str, ...] = ()


def _words(runs: list[Run]) -> list[list[Run] | None]:
    """Runs regrouped into words (lists of runs with no space between); None is a hard break."""
    words: list[list[Run] | None] = []
    current: list[Run] = []
    for run in runs:
        if run.kind == "break":
            if current:
                words.append(current)
                current = []
            words.append(None)
        elif run.kind == "icon":
            current.append(run)
        else:
            parts = run.value.split(" ")
            for i, part in enumerate(parts):
                if i > 0 and current:
                    words.append(current)
                    current = []
                if part:
                    current.append(Run("text", part, run.bold, run.italic, run.offset))
    if current:
        words.append(current)
    return words


def _pieces(word: list[Run], style: TextStyle, size: float, icons: dict[str, Icon], unknown: set[str]) -> list[Piece]:
    pieces = []
    for run in word:
        if run.kind == "icon":
            icon = icons.get(run.value)
            if icon is None:
                unknown.add(run.value)
                text = "{" + run.value + "}"
                face = fonts.styled(style.font, run.bold, run.italic)
                pieces.append(Piece("text", text, face, fonts.width(text, face, size)))
            elif icon.text is not None:
                face = fonts.styled(style.font, True, False)
                pieces.append(Piece("text", icon.text, face, fonts.width(icon.text, face, size), icon))
            else:
                pieces.append(Piece("icon", icon.name, "", size * style.icon_scale * 1.05, icon))
        else:
            face = fonts.styled(style.font, run.bold, run.italic)
            pieces.append(Piece("text", run.value, face, fonts.width(run.value, face, size)))
    return pieces


def _wrap(words, style: TextStyle, size: float, box_w: float, icons, unknown) -> tuple[list[Line], float]:
    space = fonts.width(" ", style.font, size)
    lines = [Line()]
    widest_word = 0.0
    for word in words:
        if word is None:
            lines.append(Line())
            continue
        pieces = _pieces(word, style, size, icons, unknown)
        w = sum(p.width for p in pieces)
        widest_word = max(widest_word, w)
        line = lines[-1]
        needed = w + (space if line.pieces else 0)
        if line.pieces and line.width + needed > box_w:
            line = Line()
            lines.append(line)
            needed = w
        if line.pieces:
            line.pieces.append(Piece("text", " ", style.font, space))
        line.pieces.extend(pieces)
        line.width += needed
    return lines, widest_word


def fit(text: str, style: TextStyle, box_w: float, box_h: float, icons: dict[str, Icon]) -> Block:
    """Set ``text`` (card markup) in a ``box_w`` x ``box_h`` pt box, shrinking to fit.

    Tries ``style.size`` down to ``style.min_size``; returns the first size that fits, or
    the minimum size with ``fits=False`` and the overflow in pt.
    """
    words = _words(parse(text))
    unknown: set[str] = set()
    size = style.size
    while True:
        lines, widest = _wrap(words, style, size, box_w, icons, unknown)
        lines = _trim_empty_edges(lines)
        _, height = baselines(lines, size, style)
        width = max((ln.width for ln in lines), default=0.0)
        fits = height <= box_h + 0.01 and widest <= box_w + 0.01
        if fits or size - STEP < style.min_size - 1e-9:
            return Block(lines, size, height, width, fits, max(0.0, height - box_h), max(0.0, widest - box_w),
                         tuple(sorted(unknown)))
        size = round(size - STEP, 4)


def _trim_empty_edges(lines: list[Line]) -> list[Line]:
    while lines and not lines[-1].pieces:
        lines.pop()
    while lines and not lines[0].pieces:
        lines.pop(0)
    return lines


def _ink(piece: Piece, default: HexColor) -> HexColor:
    """Text is drawn in the style's colour; a text icon ("<") in its own colour when it has one."""
    if piece.icon is not None and piece.icon.color != "#000000":
        return HexColor(piece.icon.color)
    return default


def draw(canvas: Canvas, block: Block, style: TextStyle, x: float, y: float, box_w: float, box_h: float,
         stamp: IconStamp) -> None:
    """Draw ``block`` in the box whose lower-left corner is (x, y) pt."""
    size = block.size
    top = y + box_h
    if style.valign == "middle":
        top -= max(0.0, (box_h - block.height) / 2)
    elif style.valign == "bottom":
        top -= max(0.0, box_h - block.height)
    offsets, _ = baselines(block.lines, size, style)
    color = HexColor(style.color)
    icon_h = size * style.icon_scale
    for line, offset in zip(block.lines, offsets):
        baseline = top - offset
        if style.align == "center":
            cx = x + (box_w - line.width) / 2
        elif style.align == "right":
            cx = x + box_w - line.width
        else:
            cx = x
        run: list[Piece] = []  # consecutive text of one face and colour, drawn as one string
        run_x = cx
        for piece in line.pieces + [Piece("end", "", "", 0.0)]:
            if run and (piece.kind != "text" or (piece.face, _ink(piece, color)) != (run[0].face, _ink(run[0], color))):
                if run[-1].value == " ":
                    run.pop()
                canvas.setFillColor(_ink(run[0], color))
                canvas.setFont(fonts.pdf_name(run[0].face), size)
                canvas.drawString(run_x, baseline, "".join(p.value for p in run))
                run = []
            if piece.kind == "icon" and piece.icon is not None:
                stamp.draw(piece.icon, cx + size * style.icon_scale * 0.025, baseline - icon_h * ICON_DROP, icon_h,
                           style.icon_color)  # a template colour is rendered by the caller
            elif piece.kind == "text" and (run or piece.value != " "):
                if not run:
                    run_x = cx
                run.append(piece)
            cx += piece.width
