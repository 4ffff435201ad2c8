"""One page of the deck drawn: the fronts or backs of a sheet's cards, or a board's tiles.

:func:`draw_side` draws a sheet's cards in slot order, each front at its slot or each back
behind its own front (mirrored for the duplex ``flip`` edge, see
:mod:`cardforge.render.sheet`), then the crop marks and the 100 % scale check;
:func:`draw_board` tiles a card larger than the paper (see :mod:`cardforge.render.tiles`);
:func:`version_mark` prints the build's version mark small and grey on a front. Lengths
in pt, the PDF's origin at the page's lower-left corner.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.layout import LayoutSet
    from cardforge.model import Card, Game
    from cardforge.render import tiles
    from cardforge.render.deck import DeckOptions
    from cardforge.render.icons import IconStamp
    from cardforge.render.sheet import Sheet
    from cardforge.resolve.face import Contexts


def draw_board(canvas: Canvas, tiling: "tiles.Tiling", card: Card, game: Game, layouts: LayoutSet, stamp: IconStamp,
           options: DeckOptions, contexts: Contexts) -> int:
    """A board's front, then its back, each tiled across pages; returns the pages drawn."""
    from cardforge.render import card as card_render
    from cardforge.render import tiles
    from cardforge.resolve.face import back_face
    from cardforge.resolve.marks import face_marks

    layout = layouts.for_card(card)
    pages = 0
    for side, face, ctx in (("front", layout.front, contexts.get(card, back=False)),
                            ("back", back_face(card, game, layouts), contexts.get(card, back=True))):
        if face is None or options.sides not in ("both", side + "s"):
            continue

        marks = face_marks(layout, ctx, game) if side == "front" else []

        def draw(x: float, y: float, face=face, ctx=ctx, marks=marks) -> None:
            card_render.draw_face(canvas, face, ctx, game, x, y, layout.size, stamp, bleed=0.0,
                                  shape=layout.shape, ink_saver=options.ink_saver, marks=marks)

        pages += tiles.draw_tiles(canvas, tiling, draw, f"{game.title} · {card.name} · {side}")
    return pages


def draw_side(canvas: Canvas, sheet: Sheet, batch: list[Card], game: Game, layouts: LayoutSet,
          stamp: IconStamp, options: DeckOptions, contexts: Contexts, front: bool, label: str) -> None:
    """One page: the fronts of ``batch`` in slot order, or their backs behind them (the
    caller ends the page)."""
    from cardforge.render import card as card_render
    from cardforge.resolve.face import back_face
    from cardforge.resolve.marks import face_marks
    from cardforge.render.sheet import crop_marks, cut_guide, scale_check

    shape = "rect"
    for i, card in enumerate(batch):
        layout = layouts.for_card(card)
        shape = layout.shape
        bleed = sheet.bleeds(i, back=not front, flip=options.flip)
        if front:
            x, y = sheet.slot(i)
            face, ctx = layout.front, contexts.get(card, back=False)
        else:
            x, y = sheet.back_slot(i, options.flip, options.shift)
            face, ctx = back_face(card, game, layouts), contexts.get(card, back=True)
        marks = face_marks(layout, ctx, game) if front else []
        if front:
            card_render.draw_face(canvas, face, ctx, game, x, y, layout.size, stamp, bleed=bleed,
                                  shape=layout.shape, ink_saver=options.ink_saver, marks=marks)
        else:
            card_render.draw_back(canvas, face, ctx, game, x, y, layout, stamp, bleed, contexts.card_free(face),
                                  ink_saver=options.ink_saver)
        if front and options.version_mark:
            version_mark(canvas, layout, x, y, options.version_mark, ctx, game, avoid=tuple(m.box for m in marks))
        if front and (options.cut_guides or layout.shape == "circle"):
            cut_guide(canvas, x, y, layout.size, layout.shape, layout.corner)
    if shape != "circle" and (front or options.sides == "backs"):  # a backs-only print is cut from its own marks
        crop_marks(canvas, sheet)
    scale_check(canvas, sheet, label)


MARK_COLOR = "#8c8c8c"  # the version mark's grey


def version_mark(canvas: Canvas, layout, x: float, y: float, text: str, ctx: dict, game: Game,
                 avoid: tuple = ()) -> None:
    """Print ``text`` small and grey where :func:`cardforge.resolve.versionmark.place` puts
    it on the front (of the card of ``ctx``) whose trim's lower-left corner is at (x, y),
    clear of the boxes ``avoid`` (the designed marks, pt from the trim's top-left corner)."""
    from cardforge.render import fonts
    from cardforge.render.colors import HexColor
    from cardforge.resolve import versionmark

    bx, by, _, bh = versionmark.place(layout, ctx, game, text, avoid=avoid)
    canvas.saveState()
    canvas.setFillColor(HexColor(MARK_COLOR))
    canvas.setFont(fonts.pdf_name(versionmark.FACE), versionmark.SIZE)
    canvas.drawString(x + bx, y + layout.size[1] - by - bh + 0.2 * versionmark.SIZE, text)
    canvas.restoreState()
