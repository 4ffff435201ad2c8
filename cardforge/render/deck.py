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
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # drawing modules are imported when a deck is drawn: DeckOptions alone stays light
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.layout import Face, LayoutSet
    from cardforge.model import Card, Game
    from cardforge.render.icons import IconStamp
    from cardforge.render.sheet import Sheet


@dataclass(frozen=True)
class DeckOptions:
    """How a deck is printed at home.

    ``paper``: "letter" or "a4"; ``orientation``: "auto", "portrait" or "landscape";
    ``flip``: the duplex edge, "long" or "short"; ``gutter``: pt between cards (0: butted,
    bleed then shows up to half the gutter); ``shift``: (dx, dy) pt moving every back to
    correct a printer's measured duplex offset; ``ink_saver``: no full-bleed backgrounds;
    ``cut_guides``: a thin rounded-corner cut line on every trim (always on for round tokens).
    """

    paper: str = "letter"
    orientation: str = "auto"
    flip: str = "long"
    gutter: float = 0.0
    shift: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False
    cut_guides: bool = False


def copies(game: Game) -> list[Card]:
    """Every physical card, in deck order (a card with quantity 3 appears 3 times)."""
    return [card for card in game.cards for _ in range(card.quantity)]


def back_face(card: Card, game: Game, layouts: LayoutSet) -> Face:
    """The face printed on the back of ``card``: its layout's own back or the shared back."""
    back_id = game.card_types[card.type].back
    if back_id == "own":
        return layouts.by_type[card.type].back
    return layouts.backs[back_id]


def back_context(card: Card, game: Game) -> dict:
    """What back templates see: the card's context plus ``back``, its game.yaml back entry."""
    from cardforge.render import card as card_render

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
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render import fonts
    from cardforge.render.icons import IconStamp
    from cardforge.render.sheet import impose

    canvas = Canvas(str(out), invariant=1, pageCompression=1, initialFontName=fonts.pdf_name("sans"))
    canvas.setTitle(f"{game.title}: deck")
    canvas.setAuthor(game.meta.get("designer", ""))
    canvas.setCreator("cardforge")
    stamp = IconStamp(canvas)
    groups: dict[tuple, list[Card]] = {}
    for card in copies(game):
        layout = layouts.by_type[card.type]
        groups.setdefault((layout.size, layout.shape), []).append(card)
    sheets = {key: impose(options.paper, key[0], options.gutter, options.orientation) for key in groups}
    sheets_total = sum(-(-len(cards) // sheets[key].per_sheet) for key, cards in groups.items())
    sheet_no, pages, drawn = 0, 0, 0
    for key, cards in groups.items():
        sheet = sheets[key]
        canvas.setPageSize(sheet.paper)
        for start in range(0, len(cards), sheet.per_sheet):
            batch = cards[start:start + sheet.per_sheet]
            sheet_no += 1
            label = f"{game.title} · deck · sheet {sheet_no} of {sheets_total}"
            _side(canvas, sheet, batch, game, layouts, stamp, options, front=True, label=f"{label} · fronts")
            _side(canvas, sheet, batch, game, layouts, stamp, options, front=False,
                  label=f"{label} · backs ({options.flip}-edge duplex)")
            pages += 2
            drawn += len(batch)
            if progress:
                progress(drawn)
    canvas.save()
    return pages


def _side(canvas: Canvas, sheet: Sheet, batch: list[Card], game: Game, layouts: LayoutSet,
          stamp: IconStamp, options: DeckOptions, front: bool, label: str) -> None:
    """One page: the fronts of ``batch`` in slot order, or their backs behind them."""
    from cardforge.render import card as card_render
    from cardforge.render.sheet import crop_marks, cut_guide, scale_check

    shape = "rect"
    for i, card in enumerate(batch):
        layout = layouts.by_type[card.type]
        shape = layout.shape
        bleed = min(layout.bleed, options.gutter / 2)
        if front:
            x, y = sheet.slot(i)
            face, ctx = layout.front, card_render.context(card, game)
        else:
            x, y = sheet.back_slot(i, options.flip, options.shift)
            face, ctx = back_face(card, game, layouts), back_context(card, game)
        card_render.draw_face(canvas, face, ctx, game, x, y, layout.size, stamp, bleed=bleed,
                              shape=layout.shape, ink_saver=options.ink_saver)
        if front and (options.cut_guides or layout.shape == "circle"):
            cut_guide(canvas, x, y, layout.size, layout.shape, layout.corner)
    if front and shape != "circle":
        crop_marks(canvas, sheet)
    scale_check(canvas, sheet, label)
    canvas.showPage()
