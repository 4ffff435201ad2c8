"""rulebook.html's card pictures: every card's front and back, at its trim, as WebP data URIs.

:func:`card_faces` draws the faces through :func:`cardforge.export.faces.face_pdf` (the
preview's path), rasterises them with PDFium at :data:`FACE_DPI` and scales them to
:data:`CARD_PX` pixels wide; the same pixels (a back most cards share) are encoded once, and
each card's faces are kept in the user cache
(:data:`~cardforge.cache.registry.CARD_PICTURES`) under a key of everything that draws
them, so an edit to one card draws one card again, and a card no edit touched is never
drawn again (``--no-cache`` builds and other projects of the same pack included).
"""
from __future__ import annotations

import base64
import hashlib
import io
import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cardforge.model import Card, Game

if TYPE_CHECKING:
    from cardforge.layout import LayoutSet

CARD_PX = 300  # a card face's width in pixels: sharp on a phone, small in the file
FACE_DPI = 110  # rasterised at this, then scaled down to CARD_PX when wider
WEBP_QUALITY = 82
# libwebp's effort (0-6): 2 encodes a face about four times faster than 6 for files about 4 % larger
WEBP_METHOD = 2
KEEP_PICTURES = 4000  # cards kept in the user cache (two WebP pictures each): several packs and edits back


@dataclass
class Face:
    """A card face as a data URI and its size in pixels."""

    uri: str
    width: int
    height: int
    radius: str = "0"  # CSS border-radius: the card's cut (rounded corners, a round token)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.uri.encode()).hexdigest()


def card_faces(game: Game, layouts: LayoutSet) -> dict[str, tuple[Face, Face]]:
    """``{card.id: (front, back)}``: every card's faces (at the trim, no bleed) as WebP data URIs
    :data:`CARD_PX` wide, drawn through :func:`cardforge.export.faces.face_pdf`. Each card's
    faces are kept in the user cache under a key of its fields and everything else that draws
    it (:func:`_face_keys`): only the cards it does not hold are drawn."""
    from PIL import Image

    from cardforge.cache import kept
    from cardforge.cache.registry import CARD_PICTURES
    from cardforge.export.faces import card_pages, face_pdf, rasterise

    keys = _face_keys(game.cards, game, layouts)
    found: dict[str, tuple[Face, Face]] = {}
    missing = []
    for card in game.cards:
        pair = kept.get(CARD_PICTURES, keys[card.id])
        if isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(data, bytes) for data in pair):
            found[card.id] = tuple(_face(data) for data in pair)
        elif card.id not in {c.id for c in missing}:
            missing.append(card)
    if missing:
        with tempfile.TemporaryDirectory() as tmp:
            pdf = Path(tmp) / "faces.pdf"
            # the card as cut, as a player holds it; a back every card prints alike, drawn once
            placed = face_pdf(missing, game, layouts, pdf, bleed=False, compress=False, shared_backs=True)
            encoded: dict[tuple, bytes] = {}  # the same pixels (a back most cards share) encoded once
            by_page: dict[int, tuple[bytes, tuple[int, int]]] = {}  # page -> its picture, (w, h) px
            for card, sides in zip(missing, card_pages(placed, rasterise(pdf, FACE_DPI))):
                for n, image in sides:
                    if n in by_page:
                        continue
                    if image.width > CARD_PX:
                        image = image.resize((CARD_PX, round(image.height * CARD_PX / image.width)), Image.LANCZOS)
                    pixels = (image.size, hashlib.sha256(image.tobytes()).digest())
                    if pixels not in encoded:
                        buffer = io.BytesIO()
                        image.save(buffer, "WEBP", quality=WEBP_QUALITY, method=WEBP_METHOD)
                        encoded[pixels] = buffer.getvalue()
                    by_page[n] = (encoded[pixels], image.size)
                kept.put(CARD_PICTURES, keys[card.id], tuple(by_page[n][0] for n, _ in sides), keep=KEEP_PICTURES)
                found[card.id] = tuple(_face(*by_page[n]) for n, _ in sides)
    for card in game.cards:
        layout = layouts.for_card(card)
        w, h = layout.size
        radius = "50%" if layout.shape == "circle" else f"{100 * layout.corner / w:.1f}% / {100 * layout.corner / h:.1f}%"
        found[card.id] = tuple(Face(f.uri, f.width, f.height, radius) for f in found[card.id])
    return found


def _face(data: bytes, size: tuple[int, int] | None = None) -> Face:
    """The face of WebP ``data``, ``size`` (w, h) px, read from the data when not given."""
    if size is None:
        from PIL import Image

        with Image.open(io.BytesIO(data)) as image:
            size = image.size
    return Face("data:image/webp;base64," + base64.b64encode(data).decode("ascii"), *size)


def drawing_context(game: Game, layouts: LayoutSet) -> str:
    """What every card picture of the pack is drawn from besides the card itself: the pack's
    files but its card files, its layouts and cardforge
    (:func:`cardforge.render.pagecache.context_digest`), or game.yaml's data when a file
    cannot be read. A card's layout templates see only its own fields and game.yaml
    (:func:`cardforge.resolve.face.context`), so this and the card's fields key its picture."""
    from cardforge.render.pagecache import context_digest

    folder = Path(layouts.file).parent if layouts.file else game.root.parent.parent / "layouts"
    try:
        return context_digest(game.root, folder)
    except OSError:
        return json.dumps(game.data, sort_keys=True, default=str)


def card_fields(card: Card) -> str:
    """A card's part of a picture's memo key: its type, name, quantity and fields, as JSON."""
    return json.dumps([card.type, card.name, card.quantity, card.data], sort_keys=True, default=str)


def _face_keys(cards: list[Card], game: Game, layouts: LayoutSet) -> dict[str, str]:
    """``{card.id: memo key}``: each card's fields with what every face of the pack is drawn
    from (:func:`drawing_context`, worked out once)."""
    from cardforge.documents.memo import Memo

    context = drawing_context(game, layouts)
    return {card.id: Memo.key("card-face", "trim", CARD_PX, FACE_DPI, WEBP_QUALITY, WEBP_METHOD, context,
                              card_fields(card))
            for card in cards}
