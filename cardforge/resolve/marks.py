"""Where a card front prints the designed mark (†), without drawing: the one rule of
provenance marks, for card faces, the almanac and the rulebook alike (see docs/marks.md).

A card's *printed values* are the card fields its front shows: the field of every text
element that prints (or each ``card.FIELD`` its template prints), and each field an icon
element's ``icon:`` names. Its *designed* values are the fields it lists as
``provisional:`` (values the source does not give, designed for this edition). Then
(:func:`provenance`):

* ``"all"``: every printed value is designed. The card carries **one** mark, a † of
  :data:`CORNER_SIZE` pt in a corner of its safe area that nothing printed covers (found
  as the version mark's place is, :func:`cardforge.resolve.versionmark.place`).
* ``"mixed"``: some printed values are designed, some are not. Each designed value is
  marked once, by a † of :data:`VALUE_SIZE` pt (never larger, whatever the value's size)
  set after the value's last line; when the value sits in a *badge* (a rect element with
  rounded corners or an icon element whose box holds the text's centre, smaller than
  :data:`BADGE_SHARE` of the card), the † goes outside the badge's box instead. A value a
  face prints twice (a number repeated upside down for the opponent) is marked on its
  upright copy only. A designed field that chooses the border's colour (``card.terrain``
  in the border's colour template) is a printed value too; its † sits on the border band
  at the bottom edge, left of the bottom-right rounding (:func:`border_fields`).
* ``"none"``: nothing designed prints; no mark.

The mark's ink is dark or white, whichever stands out from the ground under it (the last
filled rect under it, else the card's background). Lengths in pt, boxes (x, y, w, h) from
the trim's top-left corner.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardforge.elements import kind_of
from cardforge.elements.text import CARD_FIELD, printed_fields
from cardforge.model import DESIGNED_MARK
from cardforge.model.fontmetrics import width as text_width
from cardforge.resolve.face import Fitted, fit_face, text_box
from cardforge.resolve.versionmark import ink as ink_box
from cardforge.resolve.versionmark import place
from cardforge.sandbox import context as cardcontext

if TYPE_CHECKING:
    from cardforge.layout import Face, Layout
    from cardforge.model import Game

Box = tuple[float, float, float, float]
CORNER_SIZE = 6.0  # pt: the one mark of a card whose printed values are all designed
VALUE_SIZE = 6.0  # pt: a mark after one designed value on a card that mixes seed and designed values
FACE = "sans"
GAP = 0.6  # pt between a value (or its badge) and its mark
BADGE_SHARE = 0.2  # a rounded rect or icon under a value is a badge when smaller than this share of the card
DARK, LIGHT = "#212121", "#ffffff"


@dataclass(frozen=True)
class Mark:
    """One † on a face: its left edge ``x`` and the top ``y`` of its ``size`` pt line (pt
    from the trim's top-left corner), its ink, and the field it marks (None: the card)."""

    x: float
    y: float
    size: float
    color: str
    field: str | None = None

    @property
    def box(self) -> Box:
        return self.x, self.y, text_width(DESIGNED_MARK, FACE, self.size), self.size


def designed_fields(card: dict[str, Any]) -> set[str]:
    """The fields ``card`` (a card's data) lists as ``provisional:`` (designed)."""
    value = card.get("provisional") if isinstance(card, dict) else None
    return {str(v) for v in value} if isinstance(value, list) else set()


def provenance(printed: set[str], designed: set[str]) -> str:
    """``"all"``, ``"mixed"`` or ``"none"``: how many of the ``printed`` values are ``designed``."""
    shown = printed & designed
    if not shown:
        return "none"
    return "all" if shown == printed else "mixed"


def printed_values(face: Face, ctx: dict[str, Any], game: Game) -> set[str]:
    """The card fields the front ``face`` prints for the card of ``ctx`` (fields it has)."""
    card = ctx.get("card") or {}
    fields = {name for f in fit_face(face, ctx, game) for name in printed_fields(f.element)}
    for el in face.elements:
        shown = kind_of(el).shows(el)
        if shown and cardcontext.holds(el.when, ctx):
            fields |= shown
    return {name for name in fields if card.get(name) not in (None, "")}


def may_mark(card_data: dict[str, Any], layout: Layout) -> bool:
    """Whether the front of ``layout`` may print a designed mark for a card with the fields
    ``card_data``: a field it lists as designed is one a text or icon element of the front
    prints (``when:`` aside; a quick test for the sheets that explain the mark)."""
    designed = designed_fields(card_data)
    if not designed or layout.front is None:
        return False
    for el in layout.front.elements:
        if kind_of(el).sets_text and printed_fields(el) & designed:
            return True
        if kind_of(el).shows(el) & designed:
            return True
    return bool(border_fields(layout.front, {"card": card_data}) & designed)


def _luminance(color: str) -> float | None:
    value = color.strip().lstrip("#")
    if len(value) == 3:
        value = "".join(ch * 2 for ch in value)
    if len(value) < 6:
        return None
    try:
        r, g, b = (int(value[i:i + 2], 16) / 255 for i in (0, 2, 4))
    except ValueError:
        return None
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _ink(face: Face, ctx: dict[str, Any], box: Box) -> str:
    """Dark or white, whichever stands out from the ground under the centre of ``box``."""
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    ground = face.background
    for el in face.elements:
        fill = kind_of(el).ground(el)
        if fill and cardcontext.holds(el.when, ctx):
            x, y, w, h = el.box
            if x <= cx <= x + w and y <= cy <= y + h:
                ground = fill
    try:
        shade = _luminance(cardcontext.rendered(ground, ctx)) if ground else None
    except Exception:  # a colour template that fails is reported by the checks; the mark stays dark
        shade = None
    return LIGHT if shade is not None and shade < 0.45 else DARK


def _badge(face: Face, ctx: dict[str, Any], fitted: Fitted, area: float) -> Box | None:
    """The badge a fitted value sits in (see the module's docstring), or None."""
    x, y, w, h = text_box(fitted.element, fitted.box)
    cx, cy = x + w / 2, y + h / 2
    best = None
    if fitted.element.radius > 0 and fitted.element.fill and w * h < BADGE_SHARE * area:
        best = fitted.box
    for el in face.elements:
        if el.name == fitted.element.name or not kind_of(el).badge(el) or not cardcontext.holds(el.when, ctx):
            continue
        bx, by, bw, bh = el.box
        if bw * bh < BADGE_SHARE * area and bx <= cx <= bx + bw and by <= cy <= by + bh:
            if best is None or bw * bh > best[2] * best[3]:
                best = el.box
    return best


def _after_value(face: Face, ctx: dict[str, Any], fitted: Fitted, layout: Layout,
                 badge: Box | None) -> tuple[float, float]:
    """Where a value's mark goes: after its first line, or beside its ``badge``."""
    w, _ = layout.size
    mw = text_width(DESIGNED_MARK, FACE, VALUE_SIZE)
    if badge is not None:
        bx, by, bw, _ = badge
        x = bx + bw + GAP
        if x + mw > w - layout.safe / 2:  # no room on its right: on its left
            x = bx - GAP - mw
        return x, by
    x, y, iw, ih = ink_box(fitted)
    lines = fitted.block.lines
    if fitted.element.rotate or not lines:
        return min(x + iw + GAP, w - layout.safe / 2 - mw), y
    last = lines[-1].width
    left = {"center": (iw - last) / 2, "right": iw - last}.get(fitted.element.style.align, 0.0)
    top = y + ih - ih / len(lines)  # the top of the last line
    return min(x + left + last + GAP, w - layout.safe / 2 - mw), top


def face_marks(layout: Layout, ctx: dict[str, Any], game: Game) -> list[Mark]:
    """The designed marks the front of ``layout`` prints for the card of ``ctx`` (see the
    module's docstring): [] for a card with no designed value printed, one corner mark
    when all are designed, one mark per designed value when it mixes."""
    face = layout.front
    if face is None:
        return []
    designed = designed_fields(ctx.get("card") or {})
    if not designed:
        return []
    return cardcontext.remembered(ctx, ("designed-marks", id(layout)),
                                  lambda: _face_marks(layout, ctx, game, designed))


def border_fields(face: Face, ctx: dict[str, Any]) -> set[str]:
    """The card fields the border colour of ``face`` is chosen by (``card.terrain`` in its
    template), among the fields the card of ``ctx`` has: a designed one is a printed value
    too, marked on the border (see :func:`_border_mark`)."""
    card = ctx.get("card") or {}
    if face.border_width <= 0:
        return set()
    return {a or b for a, b in CARD_FIELD.findall(face.border_color or "")} & {k for k, v in card.items() if v not in (None, "")}


def _border_mark(layout: Layout, ctx: dict[str, Any], field: str) -> Mark | None:
    """The mark of a designed border colour: on the border band at the bottom edge, left of
    the bottom-right rounding, in the ink that stands out from the border; None when the
    band is narrower than the mark."""
    face = layout.front
    band = face.border_width
    if band < VALUE_SIZE * 0.8:
        return None
    w, h = layout.size
    mw = text_width(DESIGNED_MARK, FACE, VALUE_SIZE)
    x = w - max(face.border_radius, band) - mw - GAP
    y = h - band / 2 - VALUE_SIZE / 2
    try:
        shade = _luminance(cardcontext.rendered(face.border_color, ctx))
    except Exception:  # a colour template that fails is reported by the checks
        shade = None
    return Mark(x, y, VALUE_SIZE, LIGHT if shade is not None and shade < 0.45 else DARK, field)


def _face_marks(layout: Layout, ctx: dict[str, Any], game: Game, designed: set[str]) -> list[Mark]:
    face = layout.front
    printed = printed_values(face, ctx, game)
    border = border_fields(face, ctx) - printed  # a field the face also prints as text is marked there
    kind = provenance(printed | border, designed)
    if kind == "none":
        return []
    if kind == "all":
        x, y, mw, mh = place(layout, ctx, game, DESIGNED_MARK, size=CORNER_SIZE)
        return [Mark(x, y, CORNER_SIZE, _ink(face, ctx, (x, y, mw, mh)))]
    marks, done, badges = [], set(), set()
    area = layout.size[0] * layout.size[1]
    fits = sorted(fit_face(face, ctx, game), key=lambda f: f.element.rotate != 0)  # upright copies first
    for fitted in fits:
        fields = printed_fields(fitted.element) & designed
        if not fields or fields <= done or not kind_of(fitted.element).sets_text:
            continue
        done |= fields
        badge = _badge(face, ctx, fitted, area)
        if badge is not None and badge in badges:  # one mark a badge
            continue
        badges.add(badge)
        x, y = _after_value(face, ctx, fitted, layout, badge)
        box = (x, y, text_width(DESIGNED_MARK, FACE, VALUE_SIZE), VALUE_SIZE)
        marks.append(Mark(x, y, VALUE_SIZE, _ink(face, ctx, box), sorted(fields)[0]))
    if border & designed:
        mark = _border_mark(layout, ctx, sorted(border & designed)[0])
        if mark is not None:
            marks.append(mark)
    return marks
