"""Drawing fitted text (:func:`cardforge.resolve.text.fit`) with inline icons in its box.

:func:`draw` draws a :class:`~cardforge.resolve.text.Block` in the style's colour and
fonts, each inline icon through the deck's :class:`~cardforge.render.icons.IconStamp`.
All lengths are in points.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from cardforge.render import fonts
from cardforge.render import colors
from cardforge.render.colors import HexColor
from cardforge.render.icons import IconStamp
from cardforge.resolve.text import ICON_DROP, Block, Piece, baselines
from cardforge.elements.specs import TextStyle
from cardforge.model import Icon, fontmetrics
from cardforge.model.typefaces import styled

if TYPE_CHECKING:  # ReportLab is imported to draw
    from reportlab.pdfgen.canvas import Canvas


def _ink(piece: Piece, default: HexColor) -> HexColor:
    """Text is drawn in the style's colour; a text icon ("<") in its own colour when it has one."""
    if piece.icon is not None and piece.icon.color != "#000000":
        return colors.color(piece.icon.color)
    return default


def draw(canvas: Canvas, block: Block, style: TextStyle, x: float, y: float, box_w: float, box_h: float,
         stamp: IconStamp) -> None:
    """Draw ``block`` in the box whose lower-left corner is (x, y) pt.

    Drawn once per canvas and block (every copy of a card fits its text to the same block)
    and replayed elsewhere (:meth:`~cardforge.render.icons.IconStamp.replay`)."""
    stamp.replay(("text", id(block), style, box_w, box_h), block, x, y,
                 lambda: _draw(canvas, block, style, 0.0, 0.0, box_w, box_h, stamp))


def _draw(canvas: Canvas, block: Block, style: TextStyle, x: float, y: float, box_w: float, box_h: float,
          stamp: IconStamp) -> None:
    size = block.size
    top = y + box_h
    if style.valign == "middle":
        top -= max(0.0, (box_h - block.height) / 2)
    elif style.valign == "bottom":
        top -= max(0.0, box_h - block.height)
    offsets, _ = baselines(block.lines, size, style)
    color = colors.color(style.color)
    icon_h = size * style.icon_scale
    for line, offset in zip(block.lines, offsets):
        baseline = top - offset
        if style.align == "center":
            cx = x + (box_w - line.width) / 2
        elif style.align == "right":
            cx = x + box_w - line.width
        else:
            cx = x
        run: list[str] = []  # consecutive text of one face, colour and scale, drawn as one string
        run_key = None  # that face, colour and scale
        run_x = cx
        for piece in line.pieces:
            kind = piece.kind
            key = (piece.face, _ink(piece, color), piece.scale) if kind == "text" else None
            if run and key != run_key:
                _draw_run(canvas, run, run_key, size, run_x, baseline)
                run = []
            if kind == "icon" and piece.icon is not None:
                ih = icon_h * piece.scale
                stamp.draw(piece.icon, cx + size * piece.scale * style.icon_scale * 0.025, baseline - ih * ICON_DROP, ih,
                           style.icon_color)  # a template colour is rendered by the caller
            elif kind == "text" and (run or piece.value != " "):
                if not run:
                    run_x, run_key = cx, key
                run.append(piece.value)
            cx += piece.width
        if run:
            _draw_run(canvas, run, run_key, size, run_x, baseline)


def _draw_run(canvas: Canvas, run: list[str], key: tuple, size: float, x: float, baseline: float) -> None:
    """One string of consecutive text pieces (``key``: their face, colour and scale), without
    a trailing space, its baseline's left end at (x, baseline) pt."""
    if run[-1] == " ":
        run.pop()
    face, ink, scale = key
    canvas.setFillColor(ink)
    canvas.setFont(fonts.pdf_name(face), size * scale)
    canvas.drawString(x, baseline, "".join(run))


ICON_TEXT_MIDDLE = 0.36  # ems above the baseline of a text icon's middle (DejaVu's cap height halved)


def draw_icon_text(canvas: Canvas, icon: Icon, font: str, x: float, y: float, box_w: float, box_h: float,
                   color: str | None = None) -> None:
    """An icon drawn as text (game.yaml ``text:``) by an ``icon`` element: its text in the
    bold face of ``font``, in ``color`` (else the icon's colour), as large as the box whose
    lower-left corner is (x, y) pt allows, centred in it: what inline card text prints
    for ``{name}``, at the element's size."""
    face = styled(font, True, False)
    em = fontmetrics.width(icon.text, face, 1.0)
    size = min(box_h, box_w / em) if em > 0 else box_h
    canvas.saveState()
    canvas.setFillColor(colors.color(color or icon.color))
    canvas.setFont(fonts.pdf_name(face), size)
    canvas.drawCentredString(x + box_w / 2, y + box_h / 2 - size * ICON_TEXT_MIDDLE, icon.text)
    canvas.restoreState()
