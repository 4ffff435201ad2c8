"""Previews: a card or a deck sheet rendered to PNG with PDFium (pypdfium2), for looking."""
from __future__ import annotations

import tempfile
from pathlib import Path

from PIL import Image

from cardforge.export.faces import face_pdf, rasterise
from cardforge.layout import LayoutSet
from cardforge.model import Card, Game, slugify
from cardforge.render.deck import DeckOptions, render_deck


def preview_card(card: Card, game: Game, layouts: LayoutSet, folder: Path, dpi: int = 150) -> Path:
    """``folder/<card>.png``: the card's front and back (with bleed) side by side."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "card.pdf"
        face_pdf([card], game, layouts, pdf, compress=False)
        front, back = rasterise(pdf, dpi)
    gap = max(4, dpi // 10)
    image = Image.new("RGB", (front.width + back.width + gap, max(front.height, back.height)), "white")
    image.paste(front, (0, 0))
    image.paste(back, (front.width + gap, 0))
    out = folder / f"{slugify(card.name)}.png"
    image.save(out)
    return out


def preview_sheet(game: Game, layouts: LayoutSet, folder: Path, dpi: int = 100) -> Path:
    """``folder/sheet-1.png``: the first sheet of fronts of the deck as printed."""
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "deck.pdf"
        render_deck(game, layouts, pdf, DeckOptions())
        first = next(rasterise(pdf, dpi))
    out = folder / "sheet-1.png"
    first.save(out)
    return out
