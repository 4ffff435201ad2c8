"""Print-shop export: one PNG per card face and back, with bleed, named in deck order.

Files go to ``output/<game>/print-shop/``: ``NNN-<card>-x<quantity>-front.png`` and
``...-back.png`` at ``dpi`` (300 by default, 600 optional), each
(trim + 2 x bleed) / 25.4 mm x dpi pixels, so a poker card with 3 mm bleed is 821 x 1121 px
at 300 dpi. ``NNN`` is the card's place in the database (deck order); the quantity tells
the shop how many to print.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from cardforge.export.faces import face_pdf, rasterise
from cardforge.layout import LayoutSet
from cardforge.model import Game, slugify


def export_print_shop(game: Game, layouts: LayoutSet, folder: Path, dpi: int = 300) -> list[Path]:
    """Write every card's front and back PNG into ``folder``; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "faces.pdf"
        face_pdf(game.cards, game, layouts, pdf, compress=False)
        images = rasterise(pdf, dpi)
        for n, card in enumerate(game.cards, 1):
            stem = f"{n:03d}-{slugify(card.name)[:48]}-x{card.quantity}"
            for side in ("front", "back"):
                path = folder / f"{stem}-{side}.png"
                next(images).save(path, dpi=(dpi, dpi))
                written.append(path)
    return written
