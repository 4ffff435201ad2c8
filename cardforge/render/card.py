"""Drawing one card face (front or back) from a resolved layout.

Coordinates: a face is drawn with its trim's lower-left corner at (x, y) pt on the page;
layout boxes are measured from the trim's top-left corner, so a box (bx, by, bw, bh) has its
lower-left corner at (x + bx, y + h - by - bh). ``bleed`` pt of background is drawn beyond
the trim on every side.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from cardforge.render.colors import HexColor

from cardforge.sandbox import context as cardcontext
from cardforge.elements import Element, kind_of
from cardforge.layout import Face
from cardforge.model import Game
from cardforge.render import colors, image, shapes, table, text
from cardforge.resolve import repeat
from cardforge.resolve import table as table_fit
from cardforge.resolve.face import Fitted, copies, fit_face, text_box
from cardforge.resolve.marks import Mark
from cardforge.render.bleed import bleed_area, draw_ground
from cardforge.render.icons import IconStamp

if TYPE_CHECKING:  # ReportLab is imported to draw: the checks, which only measure, never load it
    from reportlab.pdfgen.canvas import Canvas


def _color(value: str, ctx: dict[str, Any]) -> HexColor:
    return colors.color(cardcontext.rendered(value, ctx))


INK_SAVER_FRAME = 0.75  # pt: the frame's width in ink-saving mode


def draw_face(canvas: Canvas, face: Face, ctx: dict[str, Any], game: Game, x: float, y: float,
              size: tuple[float, float], stamp: IconStamp, bleed: float | tuple[float, float, float, float] = 0.0,
              shape: str = "rect", ink_saver: bool = False, marks: tuple[Mark, ...] | list[Mark] = ()) -> list[Fitted]:
    """Draw ``face`` with its trim's lower-left corner at (x, y); returns the text fits.

    ``marks`` are the designed marks the face prints (:func:`cardforge.resolve.marks.face_marks`
    of a front), drawn last.

    ``bleed`` is pt printed beyond the trim: one value for every side, or (left, bottom,
    right, top). Everything is clipped to the trim grown by the bleed (a circle for
    ``shape="circle"``), so neighbouring cards never overprint each other. What touches the
    trim continues into the bleed (see :mod:`cardforge.render.bleed`): the background, the
    frame (filled out to the bleed edge, its rounded corners only on its inner edge) and
    any rect element that reaches the trim. ``ink_saver`` leaves the background unprinted
    and draws the frame as a thin line.
    """
    w, h = size
    c = canvas
    c.saveState()
    area = bleed_area(x, y, size, bleed)
    clip = c.beginPath()
    if shape == "circle":
        clip.ellipse(*area)
    else:
        clip.rect(*area)
    c.clipPath(clip, stroke=0, fill=0)
    if ink_saver:
        if face.border_width:
            c.setStrokeColor(_color(face.border_color, ctx))
            c.setLineWidth(INK_SAVER_FRAME)
            if shape == "circle":
                c.ellipse(x + INK_SAVER_FRAME / 2, y + INK_SAVER_FRAME / 2, x + w - INK_SAVER_FRAME / 2,
                          y + h - INK_SAVER_FRAME / 2, stroke=1, fill=0)
            else:
                c.roundRect(x + INK_SAVER_FRAME / 2, y + INK_SAVER_FRAME / 2, w - INK_SAVER_FRAME, h - INK_SAVER_FRAME,
                            face.border_radius, stroke=1, fill=0)
    else:
        draw_ground(c, area, x, y, size, shape, _color(face.background, ctx),
                    _color(face.border_color, ctx) if face.border_width else None,
                    face.border_width, face.border_radius)
    fits = {(f.element.name, f.index): f for f in fit_face(face, ctx, game)}
    at = At(game, x, y, size, shape, None if ink_saver else area, stamp, fits)
    for el in face.elements:
        draw = kind_of(el).draw
        for copy in copies(el, ctx):
            draw(c, el, copy, at)
    draw_marks(c, marks, x, y + h)
    c.restoreState()
    return list(fits.values())


def draw_back(canvas: Canvas, face: Face, ctx: dict[str, Any], game: Game, x: float, y: float, layout, stamp: IconStamp,
              bleed: float | tuple[float, float, float, float], free: bool, ink_saver: bool = False) -> None:
    """Draw the back ``face`` of ``layout`` (its size and shape) as :func:`draw_face` does.
    A back that prints the same on every card (``free``: see
    :func:`cardforge.resolve.face.card_free`) is drawn once per bleed on the canvas and its
    operators replayed at every other place (:meth:`~cardforge.render.icons.IconStamp.replay`)."""
    if not free:
        draw_face(canvas, face, ctx, game, x, y, layout.size, stamp, bleed=bleed, shape=layout.shape,
                  ink_saver=ink_saver)
        return
    stamp.replay(back_key(face, ctx, layout, bleed, ink_saver), face, x, y,
                 lambda: draw_face(canvas, face, ctx, game, 0.0, 0.0, layout.size, stamp, bleed=bleed,
                                   shape=layout.shape, ink_saver=ink_saver))


def back_key(face: Face, ctx: dict[str, Any], layout, bleed: float | tuple[float, float, float, float],
             ink_saver: bool = False) -> tuple:
    """What a back that prints the same on every card (see :func:`draw_back`) looks like,
    as a hashable value: two cards whose backs give the same key print the same back."""
    return ("back", id(face), repr(ctx["back"]), layout.size, layout.shape, bleed, ink_saver)


def draw_marks(c: Canvas, marks, left: float, top: float) -> None:
    """Draw each :class:`~cardforge.resolve.marks.Mark` of ``marks`` on a face whose trim's
    top-left corner is at (left, top) pt on the page."""
    from cardforge.model import DESIGNED_MARK
    from cardforge.render import fonts
    from cardforge.resolve.marks import FACE

    for mark in marks:
        c.setFillColor(colors.color(mark.color))
        c.setFont(fonts.pdf_name(FACE), mark.size)
        c.drawString(left + mark.x, top - mark.y - 0.8 * mark.size, DESIGNED_MARK)


@dataclass(frozen=True)
class At:
    """Where a face is drawn, for its elements' ``draw`` (see :mod:`cardforge.elements`): the
    trim's lower-left corner (x, y) and ``size`` (w, h) pt on the page, the card's ``shape``,
    the bleed ``area`` (x, y, w, h) pt a rect's fill reaching the trim runs on to (None in
    ink-saving mode), and the face's text fits by (element name, copy index)."""

    game: Game
    x: float
    y: float
    size: tuple[float, float]
    shape: str
    area: tuple[float, float, float, float] | None
    stamp: IconStamp
    fits: dict[tuple[str, int], Fitted]

    def corner(self, box: tuple[float, float, float, float]) -> tuple[float, float]:
        """The page position (pt) of the lower-left corner of ``box`` (from the top-left trim corner)."""
        bx, by, _, bh = box
        return self.x + bx, self.y + self.size[1] - by - bh

    @property
    def trim(self) -> tuple | None:
        return (self.x, self.y, self.size, self.area) if self.area else None

    # What an element kind's ``draw(canvas, el, copy, at)`` draws with: the renderer is
    # handed to the kind here, so no kind imports it.
    def draw_text(self, c: Canvas, el: Element, copy: repeat.Copy) -> None:
        """Card markup, fitted into the copy's box (see :func:`draw_text`)."""
        draw_text(c, el, copy, self)

    def draw_icon(self, c: Canvas, el: Element, copy: repeat.Copy) -> None:
        """One icon as large as the copy's box allows (see :func:`draw_icon`)."""
        draw_icon(c, el, copy, self)

    def draw_image(self, c: Canvas, el: Element, copy: repeat.Copy) -> None:
        """Per-card art in the copy's box (see :func:`draw_image`)."""
        draw_image(c, el, copy, self)

    def draw_table(self, c: Canvas, el: Element, copy: repeat.Copy) -> None:
        """A table fitted for its card (see :func:`draw_table`)."""
        draw_table(c, el, copy, self)

    def draw_shape(self, c: Canvas, el: Element, copy: repeat.Copy, outline: str) -> None:
        """A shape traced by the function ``outline`` of :mod:`cardforge.render.shapes`
        (``"rect"``, ``"line"``, ``"ellipse"``, ``"circle"``, ``"polygon"``; see :func:`draw_shape`)."""
        draw_shape(c, el, copy, self, getattr(shapes, outline))


def draw_image(c: Canvas, el: Element, copy: repeat.Copy, at: At) -> None:
    """One copy of an image element; ``clip`` also clips it to the trim's shape."""
    w, h = at.size
    x, y = at.x, at.y
    bx, by, bw, bh = copy.box
    c.saveState()
    if el.clip:
        trim = c.beginPath()
        if at.shape == "circle":
            trim.ellipse(x, y, w, h)
        else:
            trim.rect(x, y, w, h)
        c.clipPath(trim, stroke=0, fill=0)
    image.draw(c, el, copy.ctx, at.game.root, (x + bx, y + h - by - bh, bw, bh), at.stamp)
    c.restoreState()


def draw_table(c: Canvas, el: Element, copy: repeat.Copy, at: At) -> None:
    """One copy of a table element, fitted for its card (remembered) and drawn."""
    if not cardcontext.holds(el.when, copy.ctx):
        return
    bx, by, bw, bh = copy.box
    fitted = cardcontext.remembered(copy.ctx, ("table", el.name, id(el)),
                             lambda: table_fit.fit(el, copy.ctx, bw, bh, at.game.icons))
    table.draw(c, el, fitted, copy.ctx, at.x + bx, at.y + at.size[1] - by - bh, bw, bh, at.stamp)


def draw_shape(c: Canvas, el: Element, copy: repeat.Copy, at: At, outline) -> None:
    """One copy of a shape element traced by ``outline`` (a function of
    :mod:`cardforge.render.shapes`); a rect fill reaching the trim runs on to the bleed."""
    if not cardcontext.holds(el.when, copy.ctx):
        return
    ex, ey = at.corner(copy.box)
    shapes.draw(c, el, copy.ctx, ex, ey, copy.box[2], copy.box[3], trim=at.trim, outline=outline)


def draw_icon(c: Canvas, el: Element, copy: repeat.Copy, at: At) -> None:
    """One copy of an icon element: the icon as large as its box allows, centred in it."""
    ctx = copy.ctx
    if not cardcontext.holds(el.when, ctx):
        return
    icon = at.game.icons.get(cardcontext.rendered(el.icon, ctx))
    if icon is not None:
        ex, ey = at.corner(copy.box)
        bwid, bht = copy.box[2], copy.box[3]
        color = cardcontext.rendered(el.style.icon_color, ctx)
        if icon.svg is None and icon.text:
            text.draw_icon_text(c, icon, el.style.font, ex, ey, bwid, bht, color or None)
            return
        side = min(bwid, bht)
        at.stamp.draw(icon, ex + (bwid - side) / 2, ey + (bht - side) / 2, side, color or None)


def draw_text(c: Canvas, el: Element, copy: repeat.Copy, at: At) -> None:
    """One copy of a text element: its colour band (``fill``/``stroke``, drawn as a rect even
    under no text), then the text fitted for it, turned by ``rotate``."""
    ctx = copy.ctx
    h = at.size[1]
    if (el.fill or el.stroke) and cardcontext.holds(el.when, ctx):
        ex, ey = at.corner(copy.box)
        shapes.draw(c, el, ctx, ex, ey, copy.box[2], copy.box[3], trim=at.trim, outline=shapes.rect)
    fitted = at.fits.get((el.name, copy.index))
    if fitted is None:
        return
    tx, ty, tw, th = text_box(el, copy.box)
    ex, ey, bwid, bht = at.x + tx, at.y + h - ty - th, tw, th
    style = cardcontext.remembered(ctx, ("style", el.name, id(el)), lambda: _style(el, ctx))
    c.saveState()
    if el.rotate:
        c.translate(ex + bwid / 2, ey + bht / 2)
        c.rotate(el.rotate)
        tw, th = (bht, bwid) if el.rotate in (90, 270) else (bwid, bht)
        text.draw(c, fitted.block, style, -tw / 2, -th / 2, tw, th, at.stamp)
    else:
        text.draw(c, fitted.block, style, ex, ey, bwid, bht, at.stamp)
    c.restoreState()


def _style(el: Element, ctx: dict[str, Any]) -> text.TextStyle:
    """``el``'s text style with its templated colours worked out for the card of ``ctx``."""
    style = el.style
    if "{" in style.color:
        style = replace(style, color=cardcontext.rendered(style.color, ctx))
    if style.icon_color and "{" in style.icon_color:
        style = replace(style, icon_color=cardcontext.rendered(style.icon_color, ctx) or None)
    return style
