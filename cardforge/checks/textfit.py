"""Text fit: card text that does not fit its layout box at the layout's minimum type size.

Codes: ``text-too-small`` (warning) for type set under 6 pt, with the size, the element
and the card; ``layout-hierarchy`` (error) when a title prints smaller than its body even
after the body was shrunk to the title's size (see :func:`cardforge.resolve.face.fit_face`);
``text-overflow`` (error) when a text element overflows its box even at its
``min_size``; the message says by how much (mm of height or width). Shared backs
(``backs:``) are measured like fronts, once per back, and reported at the element's line
in the layout file. The measuring is the
layout engine's (:func:`cardforge.resolve.face.fit_face`), so the report matches the print.
"""
from __future__ import annotations

from jinja2 import TemplateError

from cardforge.sandbox.budget import BudgetExceeded
from cardforge.checks import common
from cardforge.util.diagnostics import LAYOUT_HIERARCHY, TEXT_OVERFLOW, TEXT_TOO_SMALL, Diagnostic, diag
from cardforge.sandbox import TemplateFailure
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.resolve import face as card_render
from cardforge.resolve.face import back_face
from cardforge.util.units import to_mm
from cardforge.sandbox.choice import back_of


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    if layouts is None:
        return []
    found = []
    shared_seen: set[str] = set()
    for card in game.cards:
        back_id = back_of(card, game) if card.type in game.card_types else "own"
        if back_id != "own" and back_id not in shared_seen and layouts.back(back_id) is not None:
            shared_seen.add(back_id)
            found += _shared_back(card, back_id, game, layouts)
        if card.type not in layouts.by_type:
            continue
        layout = layouts.for_card(card)
        ctx = common.front(card, game)
        faces = [("front", layout.front, ctx)]
        back = back_face(card, game, layouts)
        if back is not None and back_id == "own":
            faces.append(("back", back, ctx))
        for side, face, face_ctx in faces:
            try:
                fits = card_render.fit_face(face, face_ctx, game)
            except (TemplateError, TemplateFailure, BudgetExceeded):
                continue  # reported by the faces family
            found += _typography(card, side, fits, layouts)
            for fitted in fits:
                block, el = fitted.block, fitted.element
                if block.fits:
                    continue
                field = el.field or el.name
                what = []
                if block.overflow_h:
                    what.append(f"{to_mm(block.overflow_h):.1f} mm too tall")
                if block.overflow_w:
                    what.append(f"a word {to_mm(block.overflow_w):.1f} mm too wide")
                found.append(diag(
                    TEXT_OVERFLOW,
                    f"{card.label}: {side} `{el.name}` does not fit its box at the minimum "
                    f"{block.size:g} pt ({', '.join(what)})",
                    file=card.source.file, line=card.source.line(field) if el.field else card.source.line(),
                    hint=f"shorten the text, or enlarge `{el.name}` in {layouts.file} (line {el.line})"))
    return found


MIN_PRINTED = 6.0  # pt: the smallest type a card prints (text-too-small below)


def _typography(card, side: str, fits: list, layouts: LayoutSet) -> list[Diagnostic]:
    """``text-too-small`` for type under 6 pt; ``layout-hierarchy`` for a title smaller than the body."""
    found = []
    for fitted in fits:
        el = fitted.element
        if fitted.block.smallest < MIN_PRINTED - 1e-9:
            found.append(diag(
                TEXT_TOO_SMALL,
                f"{card.label}: {side} `{el.name}` prints at {fitted.block.smallest:g} pt, under "
                f"the {MIN_PRINTED:g} pt a printed card can be read at",
                file=card.source.file, line=card.source.line(el.field) if el.field else card.source.line(),
                card=card.name, hint=f"raise `size`/`min_size` of `{el.name}` in {layouts.file} (line {el.line}) "
                                     "to 6pt or more, enlarging its box if the text then overflows"))
    titles = [f for f in fits if card_render.role(f.element) == "title"]
    bodies = [f for f in fits if card_render.role(f.element) == "body"]
    if titles and bodies:
        title = min(titles, key=lambda f: f.block.size)
        body = max(bodies, key=lambda f: f.block.size)
        if title.block.size < body.block.size - 1e-9:
            found.append(diag(
                LAYOUT_HIERARCHY,
                f"{card.label}: {side} title `{title.element.name}` prints at "
                f"{title.block.size:g} pt, smaller than the body `{body.element.name}` at {body.block.size:g} pt "
                f"(its min_size)", file=card.source.file, line=card.source.line(), card=card.name,
                hint=f"shorten the title, enlarge `{title.element.name}` (line {title.element.line}), or lower "
                     f"the body's min_size in {layouts.file}"))
    return found


def _shared_back(card, back_id: str, game: Game, layouts: LayoutSet) -> list[Diagnostic]:
    """``text-overflow`` of a shared back, placed on the element's line in the layout file."""
    found = []
    try:
        fits = card_render.fit_face(layouts.back(back_id), common.back(card, game), game)
    except (TemplateError, TemplateFailure, BudgetExceeded):
        return []  # reported by the faces family, at the element's line
    for fitted in fits:
        block, el = fitted.block, fitted.element
        if block.fits:
            continue
        what = []
        if block.overflow_h:
            what.append(f"{to_mm(block.overflow_h):.1f} mm too tall")
        if block.overflow_w:
            what.append(f"a word {to_mm(block.overflow_w):.1f} mm too wide")
        found.append(diag(TEXT_OVERFLOW,
                          f"shared back {back_id!r}: `{el.name}` does not fit its box at the minimum "
                          f"{block.size:g} pt ({', '.join(what)})",
                          file=layouts.file, line=el.line,
                          hint=f"shorten the back's text in game.yaml `backs: {back_id}`, or enlarge `{el.name}`"))
    return found
