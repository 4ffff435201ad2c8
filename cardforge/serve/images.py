"""Images for the preview page: card faces and PDF pages as PNG, cached by content hash.

A card face's key is the SHA-256 of everything that draws it: the card's fields (errata
applied), the game's data (game.yaml), the layout file, every non-text file of the pack
(icons, art) and :func:`cardforge.cache.fingerprint` (cardforge's files and the libraries
that draw). Faces whose key is already in the
cache folder are not drawn again, so an edit to one card redraws one card. A PDF page's key
is the SHA-256 of the PDF's bytes and the page number. The folder is the
:data:`~cardforge.cache.registry.PREVIEWS` project cache: past :data:`LIMIT` pictures the
oldest are removed.

Faces are drawn by :func:`cardforge.export.faces.face_pdf` (trim plus bleed on every side)
and rasterised with PDFium at :data:`FACE_DPI`; PDF pages at :data:`PAGE_DPI`.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

from cardforge.cache import fingerprint
from cardforge.cache.files import prune_newest
from cardforge.export.faces import card_pages, face_pdf, rasterise
from cardforge.layout import LayoutSet
from cardforge.model import Card, Game

FACE_DPI = 150
PAGE_DPI = 110
LIMIT = 5000  # pictures kept: several games' faces and pages
TEXT_SUFFIXES = {".yaml", ".yml", ".md", ".csv", ".json", ".txt", ".tsv"}


@dataclass(frozen=True)
class Picture:
    """One cached PNG: its ``key`` (file ``<key>.png`` in the cache) and size in pixels."""

    key: str
    width: int
    height: int


def _json(value) -> bytes:
    return json.dumps(value, sort_keys=True, default=str, ensure_ascii=False).encode()


def pack_key(game: Game, layouts: LayoutSet, layout_file: Path) -> str:
    """The part of every face key shared by the whole pack (see the module docstring)."""
    digest = hashlib.sha256(fingerprint().encode())
    digest.update(_json(game.data))
    digest.update(layout_file.read_bytes() if layout_file.is_file() else b"")
    for path in sorted(game.root.rglob("*")):
        if path.is_file() and path.suffix.lower() not in TEXT_SUFFIXES:
            digest.update(str(path.relative_to(game.root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def face_key(card: Card, shared: str) -> str:
    return hashlib.sha256(shared.encode() + _json([card.type, card.name, card.quantity, card.data])).hexdigest()


class ImageCache:
    """PNG files named by content hash in ``folder``; safe to share between threads that write
    distinct keys (each file is written to a temporary name and moved into place)."""

    def __init__(self, folder: Path):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def path(self, key: str) -> Path:
        return self.folder / f"{key}.png"

    def has(self, key: str) -> bool:
        return self.path(key).is_file()

    def store(self, key: str, image, same_as: str | None = None) -> Picture:
        """Write ``image`` as ``<key>.png``; ``same_as``: the key of a picture already stored
        with the same pixels, whose file is copied rather than encoded again."""
        handle, tmp = tempfile.mkstemp(suffix=".png", dir=self.folder)
        os.close(handle)
        if same_as is not None and self.has(same_as):
            shutil.copyfile(self.path(same_as), tmp)
        else:
            image.save(tmp, "PNG", compress_level=3)
        os.replace(tmp, self.path(key))
        return Picture(key, image.width, image.height)

    def picture(self, key: str) -> Picture:
        from PIL import Image

        with Image.open(self.path(key)) as image:
            return Picture(key, image.width, image.height)

    def faces(self, game: Game, layouts: LayoutSet, layout_file: Path, cards: list[Card] | None = None,
              shared: str | None = None) -> dict[str, tuple[Picture, Picture]]:
        """``{card.id: (front, back)}`` for ``cards`` (default: every card of ``game``),
        drawing only the faces not cached yet. ``shared``: :func:`pack_key` of the game, when
        the caller already has it (it reads every picture file of the pack)."""
        cards = game.cards if cards is None else cards
        shared = shared or pack_key(game, layouts, layout_file)
        keys = {card.id: face_key(card, shared) for card in cards}
        missing = [c for c in cards if not (self.has(keys[c.id] + "-f") and self.has(keys[c.id] + "-b"))]
        missing = list({c.id: c for c in missing}.values())
        if missing:
            with tempfile.TemporaryDirectory() as tmp:
                pdf = Path(tmp) / "faces.pdf"
                placed = face_pdf(missing, game, layouts, pdf, compress=False, shared_backs=True)  # a shared back once
                stored: dict[tuple, str] = {}  # pixels -> key: a back most cards share is encoded once
                seen: dict[int, tuple] = {}  # page -> its pixels
                for card, sides in zip(missing, card_pages(placed, rasterise(pdf, FACE_DPI))):
                    for key, (n, image) in zip((keys[card.id] + "-f", keys[card.id] + "-b"), sides):
                        if n not in seen:
                            seen[n] = (image.size, hashlib.sha256(image.tobytes()).digest())
                        self.store(key, image, same_as=stored.get(seen[n]))
                        stored.setdefault(seen[n], key)
            self._prune()
        return {card.id: (self.picture(keys[card.id] + "-f"), self.picture(keys[card.id] + "-b")) for card in cards}

    def pages(self, pdf: Path, dpi: int = PAGE_DPI) -> list[Picture]:
        """Every page of ``pdf`` as a picture (rasterised only when not cached)."""
        digest = hashlib.sha256(pdf.read_bytes()).hexdigest()
        index = self.folder / f"{digest}-{dpi}.json"
        if index.is_file():
            return [Picture(**p) for p in json.loads(index.read_text())]
        pictures = [self.store(f"{digest}-p{i + 1}-{dpi}", page) for i, page in enumerate(rasterise(pdf, dpi))]
        index.write_text(json.dumps([asdict(p) for p in pictures]))
        self._prune()
        return pictures

    def _prune(self) -> None:
        """Keep the :data:`LIMIT` newest pictures (and page indexes), once the folder holds more."""
        try:
            count = sum(1 for _ in os.scandir(self.folder))
        except OSError:
            return
        if count > LIMIT:
            prune_newest(self.folder, LIMIT)
