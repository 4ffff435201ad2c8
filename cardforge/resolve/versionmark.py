"""Where the version mark (``--version-mark``) prints on a card front, without drawing.

The mark is a short text set :data:`SIZE` pt in a corner of the card's safe area: the first
of bottom right, bottom left, top right and top left (on a round card: the bottom, then the
top of its safe circle) that nothing printed on this card's front covers, then any other
place along the safe area's bottom or top edge (1 pt clear of everything, else touching
nothing, else covered least). "Covered" means: inside the ink of a
fitted text (its lines as set, not its whole box), inside an icon or a table element that
prints on this card. Art and backgrounds may lie under the mark; text does only when every
place is covered (on no card of the shipped packs). Boxes in
pt from the trim's top-left corner.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardforge.elements import kind_of
from cardforge.model.fontmetrics import width as text_width
from cardforge.resolve.face import fit_face, text_box
from cardforge.sandbox import context as cardcontext

if TYPE_CHECKING:
    from cardforge.layout import Layout
    from cardforge.model import Game

Box = tuple[float, float, float, float]
SIZE = 5.0  # pt: the mark's type size
FACE = "sans"
CLEAR = 1.0  # pt kept between the mark and anything printed
STEP = 2.0  # pt between the places tried along an edge


def ink(fitted) -> Box:
    """The rectangle the lines of a fitted text cover (its box when rotated)."""
    x, y, w, h = text_box(fitted.element, fitted.box)
    if fitted.element.rotate in (90, 270) or not fitted.block.lines:
        return fitted.box
    style, block = fitted.element.style, fitted.block
    used_w = min(w, max(line.width for line in block.lines))
    used_h = min(h, block.height)
    top = {"middle": (h - used_h) / 2, "bottom": h - used_h}.get(style.valign, 0.0)
    left = {"center": (w - used_w) / 2, "right": w - used_w}.get(style.align, 0.0)
    return x + left, y + max(0.0, top), used_w, used_h


def covered(layout: Layout, ctx: dict[str, Any], game: Game) -> list[Box]:
    """What prints on the front of ``layout`` for the card of ``ctx`` that the mark must not
    lie over: the ink of each fitted text, and the box of each icon and table element."""
    boxes = [ink(f) for f in fit_face(layout.front, ctx, game)]
    for el in layout.front.elements:
        if not kind_of(el).covers:
            continue
        if cardcontext.holds(el.when, ctx):
            boxes.append(el.box)
    return boxes


def candidates(layout: Layout, tw: float, th: float) -> list[tuple[float, float]]:
    """Top-left corners the mark may take, best first (see the module's docstring)."""
    w, h = layout.size
    s = layout.safe
    if layout.shape == "circle":
        r = min(w, h) / 2 - s
        reach = max(r * r - (tw / 2) ** 2, 0.0) ** 0.5
        return [((w - tw) / 2, h / 2 + reach - th), ((w - tw) / 2, h / 2 - reach)]
    right, left, bottom, top = w - s - tw, s, h - s - th, s
    places = [(right, bottom), (left, bottom), (right, top), (left, top)]
    xs = [left + i * STEP for i in range(int((right - left) / STEP) + 1)]
    for y in (bottom, top):
        places += sorted(((x, y) for x in xs), key=lambda p: -p[0])
    return places


def place(layout: Layout, ctx: dict[str, Any], game: Game, text: str, size: float = SIZE,
          avoid: tuple[Box, ...] = ()) -> Box:
    """Where ``text`` prints, ``size`` pt, as the version mark (or any small mark) on the
    front of the card of ``ctx`` (x, y, w, h pt from the trim's top-left corner): the first
    of :func:`candidates` no :func:`covered` box (nor any box of ``avoid``) comes within
    :data:`CLEAR` of, else the first none touches; when every place is covered, the one
    covered least."""
    tw, th = text_width(text, FACE, size), size
    busy = covered(layout, ctx, game) + list(avoid)

    def overlap(x: float, y: float, clear: float = CLEAR) -> float:
        total = 0.0
        for bx, by, bw, bh in busy:
            dx = min(x + tw + clear, bx + bw) - max(x - clear, bx)
            dy = min(y + th + clear, by + bh) - max(y - clear, by)
            if dx > 0 and dy > 0:
                total += dx * dy
        return total

    places = candidates(layout, tw, th)
    best = next((p for p in places if overlap(*p) <= 0), None)
    if best is None:  # nowhere with room to spare: nowhere touching, else covered least
        best = next((p for p in places if overlap(*p, clear=0.0) <= 0), None)
    if best is None:
        best = min(places, key=lambda p: overlap(*p))
    return best[0], best[1], tw, th
