"""Layout fit: repeated elements whose data does not fit the space the layout gives them.

Codes: ``layout-overflow`` (error) when a copy of a repeated element (``repeat:``) falls
outside its ``within`` box (default: the card's trim), naming the card, the element and
how many items the card has; nothing is silently dropped.
"""
from __future__ import annotations

from typing import Any

from cardforge.diagnostics import Diagnostic, diag
from cardforge.layout import Face, Layout, LayoutSet
from cardforge.model import Card, Game
from cardforge.render import card as card_render
from cardforge.render import repeat
from cardforge.render.deck import back_context, back_face


def faces(card: Card, game: Game, layouts: LayoutSet) -> list[tuple[str, Face, dict[str, Any]]]:
    """(side, face, template context) of every face printed for ``card``: front and back.

    A shared back (``back:`` naming an entry of ``backs:``) is included with the back's
    context, so it is measured like a front.
    """
    layout = layouts.by_type[card.type]
    out = [("front", layout.front, card_render.context(card, game))]
    back = back_face(card, game, layouts)
    if back is not None:
        out.append(("back", back, back_context(card, game)))
    return out


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    if layouts is None:
        return []
    found = []
    for card in game.cards:
        layout = layouts.by_type.get(card.type)
        if layout is None:
            continue
        for side, face, ctx in faces(card, game, layouts):
            found += _overflow(card, side, face, ctx, layout, layouts.file)
    return found


def _overflow(card: Card, side: str, face: Face, ctx: dict, layout: Layout, file: str) -> list[Diagnostic]:
    found = []
    w, h = layout.size
    reported: set[str] = set()  # elements repeating over the same list overflow together: one report
    for el in face.elements:
        if el.repeat is None or el.repeat.over in reported:
            continue
        area = el.repeat.within or (0.0, 0.0, w, h)
        try:
            placed = repeat.copies(el.box, el.repeat, ctx)
        except TypeError:
            found.append(diag("layout-overflow", f"{card.type} card {card.name!r}: {side} `{el.name}` repeats over "
                              f"`{el.repeat.over}`, which is not a list or a number on this card",
                              file=card.source.file, line=card.source.line(), card=card.name,
                              hint=f"see `{el.name}` in {file} (line {el.line})"))
            continue
        out = [c for c in placed if repeat.outside(c, area)]
        if out:
            reported.add(el.repeat.over)
            fits = len(placed) - len(out)
            found.append(diag(
                "layout-overflow",
                f"{card.type} card {card.name!r}: {side} `{el.name}` has {len(placed)} items but only "
                f"{fits} fit its space; item {out[0].index + 1} onwards would print outside it",
                file=card.source.file, line=card.source.line(), card=card.name,
                hint=f"shorten the list, or give `{el.name}` in {file} (line {el.line}) a smaller step or a larger `within`"))
    return found
