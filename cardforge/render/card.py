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

from cardforge.elements import Element, kind_of
from cardforge.elements.text import markup
from cardforge.layout import Face
from cardforge.model import Card, Game
from cardforge.render import image, memo, repeat, shapes, table, text
from cardforge.render.bleed import bleed_area, draw_ground
from cardforge.render.icons import IconStamp

if TYPE_CHECKING:  # ReportLab is imported to draw: the checks, which only measure, never load it
    from reportlab.pdfgen.canvas import Canvas


def context(card: Card | None, game: Game) -> dict[str, Any]:
    """What layout templates see: ``card`` (its fields, with quantity), ``game`` (game.yaml)."""
    data = dict(card.data) if card else {}
    if card:
        data.setdefault("quantity", card.quantity)
    return memo.Context(card=data, game=game.data, back=None)


def element_text(el: Element, ctx: dict[str, Any]) -> str:
    """The card markup an element shows ('' when it has nothing to show)."""
    if not memo.holds(el.when, ctx):
        return ""
    return markup(el, ctx)


@dataclass
class Fitted:
    """A text element's fit on one card: the element, its text and the fitted block.

    ``box`` is the box it was fitted in (pt; a repeated element's copy ``index`` has its own).
    """

    element: Element
    text: str
    block: text.Block
    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    index: int = 0
    ctx: dict[str, Any] | None = None


def text_box(el: Element, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The box the text of ``el`` is set in: ``box`` less the element's padding (pt)."""
    x, y, w, h = box
    p = el.padding
    return x + p, y + p, max(0.0, w - 2 * p), max(0.0, h - 2 * p)


def role(el: Element) -> str:
    """An element's place in the type hierarchy: ``title``, ``body`` or ``other``.

    Declared with ``role:``; by default a text element showing the card's ``name`` field is
    the title and one showing its ``text`` field is the body.
    """
    if el.role:
        return el.role
    return {"name": "title", "text": "body"}.get(el.field or "", "other")


def fit_face(face: Face, ctx: dict[str, Any], game: Game) -> list[Fitted]:
    """Fit every text element of ``face`` for one card (measuring only, no drawing).

    The title is never set smaller than the body: when the title had to shrink below the
    body's size, the body is refitted at most at the title's size (never below its own
    ``min_size``; the check reports ``layout-hierarchy`` when that is not enough).
    Remembered in a :class:`~cardforge.render.memo.Context` (every copy of a card fits alike).
    """
    return memo.remembered(ctx, ("fit", id(face)), lambda: _fit_face(face, ctx, game))


def _fit_face(face: Face, ctx: dict[str, Any], game: Game) -> list[Fitted]:
    fitted = []
    for el in face.elements:
        if not kind_of(el).sets_text:
            continue
        for copy in copies(el, ctx):
            content = element_text(el, copy.ctx)
            if not content:
                continue
            _, _, bw, bh = text_box(el, copy.box)
            if el.rotate in (90, 270):
                bw, bh = bh, bw
            fitted.append(Fitted(el, content, text.fit(content, el.style, bw, bh, game.icons), copy.box,
                                 copy.index, copy.ctx))
    titles = [f.block.size for f in fitted if role(f.element) == "title"]
    if titles:
        cap = min(titles)
        for f in fitted:
            style = f.element.style
            if role(f.element) == "body" and f.block.size > cap + 1e-9:
                _, _, bw, bh = text_box(f.element, f.box)
                if f.element.rotate in (90, 270):
                    bw, bh = bh, bw
                capped = replace(style, size=max(cap, style.min_size), min_size=min(style.min_size, max(cap, style.min_size)))
                f.block = text.fit(f.text, capped, bw, bh, game.icons)
    return fitted


def copies(el: Element, ctx: dict[str, Any]) -> list[repeat.Copy]:
    """The copies of ``el`` on the card of ``ctx`` (see :func:`cardforge.render.repeat.copies`),
    remembered with their own contexts so that their templates are worked out once."""
    if el.repeat is None:
        return [repeat.Copy(el.box, ctx, 0)]

    def make() -> list[repeat.Copy]:
        return [replace(c, ctx=memo.Context(c.ctx)) for c in repeat.copies(el.box, el.repeat, ctx)]
    return memo.remembered(ctx, ("copies", el.name, id(el)), make)


def _color(value: str, ctx: dict[str, Any]) -> HexColor:
    return memo.color(memo.rendered(value, ctx))


INK_SAVER_FRAME = 0.75  # pt: the frame's width in ink-saving mode


def draw_face(canvas: Canvas, face: Face, ctx: dict[str, Any], game: Game, x: float, y: float,
              size: tuple[float, float], stamp: IconStamp, bleed: float | tuple[float, float, float, float] = 0.0,
              shape: str = "rect", ink_saver: bool = False) -> list[Fitted]:
    """Draw ``face`` with its trim's lower-left corner at (x, y); returns the text fits.

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
    c.restoreState()
    return list(fits.values())


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
    if not memo.holds(el.when, copy.ctx):
        return
    bx, by, bw, bh = copy.box
    fitted = memo.remembered(copy.ctx, ("table", el.name, id(el)),
                             lambda: table.fit(el, copy.ctx, bw, bh, at.game.icons))
    table.draw(c, el, fitted, copy.ctx, at.x + bx, at.y + at.size[1] - by - bh, bw, bh, at.stamp)


def draw_shape(c: Canvas, el: Element, copy: repeat.Copy, at: At, outline) -> None:
    """One copy of a shape element traced by ``outline`` (a function of
    :mod:`cardforge.render.shapes`); a rect fill reaching the trim runs on to the bleed."""
    if not memo.holds(el.when, copy.ctx):
        return
    ex, ey = at.corner(copy.box)
    shapes.draw(c, el, copy.ctx, ex, ey, copy.box[2], copy.box[3], trim=at.trim, outline=outline)


def draw_icon(c: Canvas, el: Element, copy: repeat.Copy, at: At) -> None:
    """One copy of an icon element: the icon as large as its box allows, centred in it."""
    ctx = copy.ctx
    if not memo.holds(el.when, ctx):
        return
    icon = at.game.icons.get(memo.rendered(el.icon, ctx))
    if icon is not None:
        ex, ey = at.corner(copy.box)
        bwid, bht = copy.box[2], copy.box[3]
        side = min(bwid, bht)
        color = memo.rendered(el.style.icon_color, ctx)
        at.stamp.draw(icon, ex + (bwid - side) / 2, ey + (bht - side) / 2, side, color or None)


def draw_text(c: Canvas, el: Element, copy: repeat.Copy, at: At) -> None:
    """One copy of a text element: its colour band (``fill``/``stroke``, drawn as a rect even
    under no text), then the text fitted for it, turned by ``rotate``."""
    ctx = copy.ctx
    h = at.size[1]
    if (el.fill or el.stroke) and memo.holds(el.when, ctx):
        ex, ey = at.corner(copy.box)
        shapes.draw(c, el, ctx, ex, ey, copy.box[2], copy.box[3], trim=at.trim, outline=shapes.rect)
    fitted = at.fits.get((el.name, copy.index))
    if fitted is None:
        return
    tx, ty, tw, th = text_box(el, copy.box)
    ex, ey, bwid, bht = at.x + tx, at.y + h - ty - th, tw, th
    style = memo.remembered(ctx, ("style", el.name, id(el)), lambda: _style(el, ctx))
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
        style = replace(style, color=memo.rendered(style.color, ctx))
    if style.icon_color and "{" in style.icon_color:
        style = replace(style, icon_color=memo.rendered(style.icon_color, ctx) or None)
    return style
