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

from cardforge import templates
from cardforge.layout import Element, Face
from cardforge.model import Card, Game
from cardforge.render import text
from cardforge.render.bleed import bleed_area, draw_ground, to_bleed
from cardforge.render.icons import IconStamp


def context(card: Card | None, game: Game) -> dict[str, Any]:
    """What layout templates see: ``card`` (its fields, with quantity), ``game`` (game.yaml)."""
    data = dict(card.data) if card else {}
    if card:
        data.setdefault("quantity", card.quantity)
    return {"card": data, "game": game.data, "back": None}


def element_text(el: Element, ctx: dict[str, Any]) -> str:
    """The card markup an element shows ('' when it has nothing to show)."""
    if el.when and not templates.expression(el.when)(**ctx):
        return ""
    if el.field:
        value = ctx["card"].get(el.field)
        return "" if value is None else str(value)
    return templates.render(el.template or "", ctx).strip()


@dataclass
class Fitted:
    """A text element's fit on one card: the element, its text and the fitted block."""

    element: Element
    text: str
    block: text.Block


def fit_face(face: Face, ctx: dict[str, Any], game: Game) -> list[Fitted]:
    """Fit every text element of ``face`` for one card (measuring only, no drawing)."""
    fitted = []
    for el in face.elements:
        if el.kind != "text":
            continue
        content = element_text(el, ctx)
        if not content:
            continue
        _, _, bw, bh = el.box
        if el.rotate in (90, 270):
            bw, bh = bh, bw
        fitted.append(Fitted(el, content, text.fit(content, el.style, bw, bh, game.icons)))
    return fitted


def _color(value: str, ctx: dict[str, Any]) -> HexColor:
    return HexColor(templates.render(value, ctx).strip())


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
    fits = {f.element.name: f for f in fit_face(face, ctx, game)}
    for el in face.elements:
        bx, by, bwid, bht = el.box
        ex, ey = x + bx, y + h - by - bht
        if el.kind == "rect":
            if el.when and not templates.expression(el.when)(**ctx):
                continue
            if el.fill and not ink_saver:  # a fill reaching the trim runs on into the bleed
                c.setFillColor(_color(el.fill, ctx))
                c.roundRect(*to_bleed((ex, ey, bwid, bht), el.radius, (x, y), size, area), stroke=0, fill=1)
            elif el.fill:
                c.setFillColor(_color(el.fill, ctx))
                c.roundRect(ex, ey, bwid, bht, el.radius, stroke=0, fill=1)
            if el.stroke:  # an outline stays where the layout puts it
                c.setStrokeColor(_color(el.stroke, ctx))
                c.setLineWidth(el.stroke_width)
                c.roundRect(ex, ey, bwid, bht, el.radius, stroke=1, fill=0)
        elif el.kind == "icon":
            if el.when and not templates.expression(el.when)(**ctx):
                continue
            name = templates.render(el.icon or "", ctx).strip()
            icon = game.icons.get(name)
            if icon is not None:
                side = min(bwid, bht)
                color = templates.render(el.style.icon_color, ctx).strip() if el.style.icon_color else None
                stamp.draw(icon, ex + (bwid - side) / 2, ey + (bht - side) / 2, side, color or None)
        elif el.kind == "text" and el.name in fits:
            fitted = fits[el.name]
            style = el.style
            if "{" in style.color:
                style = replace(style, color=templates.render(style.color, ctx).strip())
            if style.icon_color and "{" in style.icon_color:
                style = replace(style, icon_color=templates.render(style.icon_color, ctx).strip() or None)
            c.saveState()
            if el.rotate:
                c.translate(ex + bwid / 2, ey + bht / 2)
                c.rotate(el.rotate)
                tw, th = (bht, bwid) if el.rotate in (90, 270) else (bwid, bht)
                text.draw(c, fitted.block, style, -tw / 2, -th / 2, tw, th, stamp)
            else:
                text.draw(c, fitted.block, style, ex, ey, bwid, bht, stamp)
            c.restoreState()
    c.restoreState()
    return list(fits.values())
