"""Text fit: card text that does not fit its layout box at the layout's minimum type size.

Codes: ``text-overflow`` (error) when a text element overflows its box even at its
``min_size``; the message says by how much (mm of height or width). The measuring is the
layout engine's (:func:`cardforge.render.card.fit_face`), so the report matches the print.
"""
from __future__ import annotations

from jinja2 import TemplateError

from cardforge.budget import BudgetExceeded
from cardforge.diagnostics import Diagnostic, diag
from cardforge.templates import TemplateFailure
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.render import card as card_render
from cardforge.render.deck import back_face
from cardforge.units import to_mm


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    if layouts is None:
        return []
    found = []
    for card in game.cards:
        layout = layouts.by_type.get(card.type)
        if layout is None:
            continue
        ctx = card_render.context(card, game)
        faces = [("front", layout.front, ctx)]
        back = back_face(card, game, layouts)
        if back is not None and game.card_types[card.type].back == "own":
            faces.append(("back", back, ctx))
        for side, face, face_ctx in faces:
            try:
                fits = card_render.fit_face(face, face_ctx, game)
            except (TemplateError, TemplateFailure, BudgetExceeded):
                continue  # reported by the faces family
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
                    "text-overflow",
                    f"{card.type} card {card.name!r}: {side} `{el.name}` does not fit its box at the minimum "
                    f"{block.size:g} pt ({', '.join(what)})",
                    file=card.source.file, line=card.source.line(field) if el.field else card.source.line(),
                    hint=f"shorten the text, or enlarge `{el.name}` in {layouts.file} (line {el.line})"))
    return found
