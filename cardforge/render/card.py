"""Drawing one card face (front or back) from a resolved layout.

Coordinates: a face is drawn with its trim's lower-left corner at (x, y) pt on the page;
layout boxes are measured from the trim's top-left corner, so a box (bx, by, bw, bh) has its
lower-left corner at (x + bx, y + h - by - bh). ``bleed`` pt of background is drawn beyond
the trim on every side.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from cardforge.layout import Element, Face
from cardforge.model import Card, Game
from cardforge.render import image, memo, repeat, shapes, table, text
from cardforge.render.bleed import bleed_area, draw_ground
from cardforge.render.icons import IconStamp


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
    if el.field:
        value = ctx["card"].get(el.field)
        return "" if value is None else str(value)
    return memo.rendered(el.template, ctx)


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
        if el.kind != "text":
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
    for el in face.elements:
        for copy in copies(el, ctx):
            if el.kind == "image":
                _draw_image(c, el, copy, game, x, y, size, shape, stamp)
                continue
            if el.kind == "table":
                _draw_table(c, el, copy, game, x, y, h, stamp)
                continue
            _draw_element(c, el, copy, fits.get((el.name, copy.index)), game, x, y, size, None if ink_saver else area, stamp)
    c.restoreState()
    return list(fits.values())


def _draw_image(c: Canvas, el: Element, copy: repeat.Copy, game: Game, x: float, y: float,
                size: tuple[float, float], shape: str, stamp: IconStamp) -> None:
    """One copy of an image element; ``clip`` also clips it to the trim's shape."""
    w, h = size
    bx, by, bw, bh = copy.box
    c.saveState()
    if el.clip:
        trim = c.beginPath()
        if shape == "circle":
            trim.ellipse(x, y, w, h)
        else:
            trim.rect(x, y, w, h)
        c.clipPath(trim, stroke=0, fill=0)
    image.draw(c, el, copy.ctx, game.root, (x + bx, y + h - by - bh, bw, bh), stamp)
    c.restoreState()


def _draw_table(c: Canvas, el: Element, copy: repeat.Copy, game: Game, x: float, y: float, h: float,
                stamp: IconStamp) -> None:
    if not memo.holds(el.when, copy.ctx):
        return
    bx, by, bw, bh = copy.box
    fitted = memo.remembered(copy.ctx, ("table", el.name, id(el)), lambda: table.fit(el, copy.ctx, bw, bh, game.icons))
    table.draw(c, el, fitted, copy.ctx, x + bx, y + h - by - bh, bw, bh, stamp)


def _draw_element(c: Canvas, el: Element, copy: repeat.Copy, fitted: Fitted | None, game: Game,
                  x: float, y: float, size: tuple[float, float], area: tuple[float, float, float, float] | None,
                  stamp: IconStamp) -> None:
    """Draw one copy of ``el`` on a face whose trim's lower-left corner is (x, y) and size
    (w, h) pt; a rect fill reaching the trim runs on to the bleed ``area`` (x, y, w, h) pt
    when one is given (see :func:`cardforge.render.shapes.draw`)."""
    ctx = copy.ctx
    h = size[1]
    bx, by, bwid, bht = copy.box
    ex, ey = x + bx, y + h - by - bht
    if el.kind in shapes.SHAPES:
        if not memo.holds(el.when, ctx):
            return
        shapes.draw(c, el, ctx, ex, ey, bwid, bht, trim=(x, y, size, area) if area else None)
    elif el.kind == "icon":
        if not memo.holds(el.when, ctx):
            return
        icon = game.icons.get(memo.rendered(el.icon, ctx))
        if icon is not None:
            side = min(bwid, bht)
            color = memo.rendered(el.style.icon_color, ctx)
            stamp.draw(icon, ex + (bwid - side) / 2, ey + (bht - side) / 2, side, color or None)
    elif el.kind == "text":
        if (el.fill or el.stroke) and memo.holds(el.when, ctx):
            shapes.draw(c, replace(el, kind="rect"), ctx, ex, ey, bwid, bht,  # the colour band, even under no text
                        trim=(x, y, size, area) if area else None)
        if fitted is None:
            return
        tx, ty, tw, th = text_box(el, copy.box)
        ex, ey, bwid, bht = x + tx, y + h - ty - th, tw, th
        style = memo.remembered(ctx, ("style", el.name, id(el)), lambda: _style(el, ctx))
        c.saveState()
        if el.rotate:
            c.translate(ex + bwid / 2, ey + bht / 2)
            c.rotate(el.rotate)
            tw, th = (bht, bwid) if el.rotate in (90, 270) else (bwid, bht)
            text.draw(c, fitted.block, style, -tw / 2, -th / 2, tw, th, stamp)
        else:
            text.draw(c, fitted.block, style, ex, ey, bwid, bht, stamp)
        c.restoreState()


def _style(el: Element, ctx: dict[str, Any]) -> text.TextStyle:
    """``el``'s text style with its templated colours worked out for the card of ``ctx``."""
    style = el.style
    if "{" in style.color:
        style = replace(style, color=memo.rendered(style.color, ctx))
    if style.icon_color and "{" in style.icon_color:
        style = replace(style, icon_color=memo.rendered(style.icon_color, ctx) or None)
    return style
