"""A card face resolved for one card, without drawing: its template contexts, which back
it prints, and every text element fitted into its box.

:func:`context` and :func:`back_context` are what layout templates see on a card's front
and back; :func:`back_face` is the face on its back; :func:`fit_face` fits every text
element of a face (:class:`Fitted`: the element, its text and the fitted block, per copy
of a repeated element), keeping the title no smaller than the body. The checks (text fit,
layout fit, faces) read these; the renderer (:mod:`cardforge.render.card`) draws them, so
what is reported is what is printed. Lengths in pt.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from cardforge.sandbox import context as cardcontext
from cardforge.elements import Element, kind_of
from cardforge.elements.text import markup
from cardforge.model import Card, Game
from cardforge.resolve import repeat, text
from cardforge.sandbox.choice import back_of

from cardforge.layout import Face

if TYPE_CHECKING:
    from cardforge.layout import LayoutSet

_BLANK = Face()


def context(card: Card | None, game: Game) -> dict[str, Any]:
    """What layout templates see: ``card`` (its fields, with quantity), ``game`` (game.yaml)."""
    data = dict(card.data) if card else {}
    if card:
        data.setdefault("quantity", card.quantity)
    return cardcontext.Context(card=data, game=game.data, back=None)


def element_text(el: Element, ctx: dict[str, Any]) -> str:
    """The card markup an element shows ('' when it has nothing to show)."""
    if not cardcontext.holds(el.when, ctx):
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
    Remembered in a :class:`~cardforge.render.cardcontext.Context` (every copy of a card fits alike).
    """
    return cardcontext.remembered(ctx, ("fit", id(face)), lambda: _fit_face(face, ctx, game))


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
    """The copies of ``el`` on the card of ``ctx`` (see :func:`cardforge.resolve.repeat.copies`),
    remembered with their own contexts so that their templates are worked out once."""
    if el.repeat is None:
        return [repeat.Copy(el.box, ctx, 0)]

    def make() -> list[repeat.Copy]:
        return [replace(c, ctx=cardcontext.Context(c.ctx)) for c in repeat.copies(el.box, el.repeat, ctx)]
    return cardcontext.remembered(ctx, ("copies", el.name, id(el)), make)


def back_face(card: Card, game: Game, layouts: LayoutSet) -> Face:
    """The face printed on the back of ``card``: its layout's own back or the shared back its
    card type chooses for it (:func:`cardforge.sandbox.choice.back_of`; a back the data
    does not choose, reported by the checks as ``back-unknown``, prints blank)."""
    back_id = back_of(card, game)
    if back_id == "own":
        return layouts.for_card(card).back
    return layouts.back(back_id) or _BLANK


def back_context(card: Card, game: Game) -> dict:
    """What back templates see: the card's context (``card``: the fields every card of its
    stack shares, checked by ``back-field-differs``) plus ``back``, its game.yaml back
    entry, with ``id``: the back's id."""
    ctx = context(card, game)
    back_id = back_of(card, game)
    ctx["back"] = {"id": back_id, **(game.backs.get(back_id) or {})}
    return ctx


def card_free(face: Face) -> bool:
    """Whether ``face`` prints the same on every card (a shared back that shows no card
    field): none of its elements shows a card field (``field:``) and no template of the face
    or its elements names ``card``, the only way a template reads a card (its other names,
    ``game`` and ``back``, are the same for every card given that back). A face that might
    differ is never called free; one that names ``card`` only in an element's name or a
    colour is too, to be safe."""
    return not any(el.field for el in face.elements) and "card" not in repr(face)


class Contexts:
    """The template context of each card's front and back, made once per deck: every copy
    of a card then draws from what its first copy worked out (see :mod:`cardforge.sandbox.context`)."""

    def __init__(self, game: Game):
        self.game = game
        self.made: dict[tuple[int, bool], tuple[Card, dict]] = {}  # the card is kept: its id stays its own
        self.free: dict[int, tuple[Face, bool]] = {}  # id(face) -> (the face, card_free(face))

    def card_free(self, face: Face) -> bool:
        """:func:`card_free` of ``face``, worked out once per deck."""
        found = self.free.get(id(face))
        if found is None or found[0] is not face:
            found = self.free[id(face)] = (face, card_free(face))
        return found[1]

    def get(self, card: Card, back: bool) -> dict:
        key = (id(card), back)
        made = self.made.get(key)
        if made is None:
            made = self.made[key] = (card, back_context(card, self.game) if back else context(card, self.game))
        return made[1]
