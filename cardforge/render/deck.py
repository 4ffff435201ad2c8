"""The deck PDF: every card of a game, fronts and backs, imposed for duplex printing.

Cards are laid out in database order (card files by name, cards in file order), each
repeated ``quantity`` times, grouped by trim size; each sheet of fronts is followed by its
sheet of backs with every back behind its own front (see :mod:`cardforge.render.sheet`).
A card type whose ``back`` is ``own`` prints its layout's ``back:`` face (for example the
teal side of a double-sided card); other types print the shared back named by ``back``.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardforge.layout import Face, LayoutSet
from cardforge.model import Card, Game
from cardforge.render import card as card_render
from cardforge.render import fonts
from cardforge.render.icons import IconStamp
from cardforge.render.sheet import Sheet, blank_slot, crop_marks, impose, scale_check


@dataclass(frozen=True)
class DeckOptions:
    """``paper``: "letter" or "a4"; ``flip``: the duplex edge, "long" or "short"."""

    paper: str = "letter"
    flip: str = "long"


def copies(game: Game) -> list[Card]:
    """Every physical card, in deck order (a card with quantity 3 appears 3 times)."""
    return [card for card in game.cards for _ in range(card.quantity)]


def back_face(card: Card, game: Game, layouts: LayoutSet) -> Face:
    back_id = game.card_types[card.type].back
    if back_id == "own":
        return layouts.by_type[card.type].back
    return layouts.backs[back_id]


def _back_context(card: Card, game: Game) -> dict:
    ctx = card_render.context(card, game)
    back_id = game.card_types[card.type].back
    ctx["back"] = game.backs.get(back_id, {})
    return ctx


def render_deck(game: Game, layouts: LayoutSet, out: Path, options: DeckOptions = DeckOptions(),
                progress: Callable[[int], None] | None = None) -> int:
    """Write the deck PDF of ``game`` to ``out``; returns the number of pages.

    ``progress`` is called with the number of cards drawn after each sheet.
    Raises :class:`~cardforge.render.sheet.ImpositionError` if a card size does not fit.
    """
    canvas = Canvas(str(out), invariant=1, pageCompression=1, initialFontName=fonts.pdf_name("sans"))
    canvas.setTitle(f"{game.title}: deck")
    canvas.setAuthor(game.meta.get("designer", ""))
    canvas.setCreator("cardforge")
    stamp = IconStamp(canvas)
    groups: dict[tuple[float, float], list[Card]] = {}
    for card in copies(game):
        groups.setdefault(layouts.by_type[card.type].size, []).append(card)
    sheets_total = sum(-(-len(cards) // impose(options.paper, size).per_sheet) for size, cards in groups.items())
    sheet_no, pages, drawn = 0, 0, 0
    for size, cards in groups.items():
        sheet = impose(options.paper, size)
        canvas.setPageSize(sheet.paper)
        for start in range(0, len(cards), sheet.per_sheet):
            batch = cards[start:start + sheet.per_sheet]
            sheet_no += 1
            _fronts(canvas, sheet, batch, game, layouts, stamp, f"{game.title} · deck · sheet {sheet_no} of {sheets_total} · fronts")
            _backs(canvas, sheet, batch, game, layouts, stamp, options.flip,
                   f"{game.title} · deck · sheet {sheet_no} of {sheets_total} · backs ({options.flip}-edge duplex)")
            pages += 2
            drawn += len(batch)
            if progress:
                progress(drawn)
    canvas.save()
    return pages


def _fronts(canvas: Canvas, sheet: Sheet, batch: list[Card], game: Game, layouts: LayoutSet,
            stamp: IconStamp, label: str) -> None:
    for i, card in enumerate(batch):
        x, y = sheet.slot(i)
        layout = layouts.by_type[card.type]
        card_render.draw_face(canvas, layout.front, card_render.context(card, game), game, x, y, layout.size, stamp)
    for i in range(len(batch), sheet.per_sheet):
        blank_slot(canvas, *sheet.slot(i), sheet.card)
    crop_marks(canvas, sheet)
    scale_check(canvas, sheet, label)
    canvas.showPage()


def _backs(canvas: Canvas, sheet: Sheet, batch: list[Card], game: Game, layouts: LayoutSet,
           stamp: IconStamp, flip: str, label: str) -> None:
    for i, card in enumerate(batch):
        x, y = sheet.back_slot(i, flip)
        layout = layouts.by_type[card.type]
        card_render.draw_face(canvas, back_face(card, game, layouts), _back_context(card, game), game, x, y,
                              layout.size, stamp)
    scale_check(canvas, sheet, label)
    canvas.showPage()
