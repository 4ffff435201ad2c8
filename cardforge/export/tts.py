"""Tabletop Simulator export: deck sheets, back images and the saved-object JSON.

For each trim size of a game, unique cards are laid on face sheets of at most 10 x 7 slots;
the last slot of every sheet stays for the hidden card (the image Tabletop Simulator shows
for a card in someone's hand), so a sheet holds at most 69 cards. Every sheet stays below
4096 x 4096 px. Cards that share one back get a single back image; a size group whose
cards print their own backs gets a back sheet laid out like its face sheet
(``UniqueBack``). ``output/<game>/tts/<game>.json`` is a saved object with one custom deck
per size group, copies repeated by quantity, image URLs pointing at the local files
(replace them with hosted addresses to share the deck).
"""
from __future__ import annotations

import json
import math
import tempfile
from pathlib import Path

from PIL import Image

from cardforge.export.faces import face_pdf, rasterise
from cardforge.layout import LayoutSet
from cardforge.model import Card, Game

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1


def grid_for(n: int) -> tuple[int, int]:
    """(cols, rows) for ``n`` cards plus the hidden slot: at least 2 x 2, at most 10 x 7."""
    slots = n + 1
    cols = max(2, min(MAX_COLS, slots))
    rows = max(2, math.ceil(slots / cols))
    return cols, rows


def card_pixels(size: tuple[float, float], cols: int, rows: int) -> tuple[int, int]:
    """The largest card image (w, h) px of the trim's proportions that keeps the sheet < 4096 px."""
    w, h = size
    cw = min((MAX_PX - 1) // cols, int((MAX_PX - 1) // rows * w / h))
    return cw, int(cw * h / w)


def _sheet(images: list[Image.Image], cols: int, rows: int, cell: tuple[int, int], hidden: Image.Image) -> Image.Image:
    sheet = Image.new("RGB", (cols * cell[0], rows * cell[1]), "white")
    for i, image in enumerate(images):
        sheet.paste(image, ((i % cols) * cell[0], (i // cols) * cell[1]))
    last = cols * rows - 1
    sheet.paste(hidden, ((last % cols) * cell[0], (last // cols) * cell[1]))
    return sheet


def export_tts(game: Game, layouts: LayoutSet, folder: Path, final: Path | None = None) -> list[Path]:
    """Write sheets, backs and ``<slug>.json`` into ``folder``; returns the files written.

    ``final`` is the folder the files will finally live in (the JSON's image URLs point
    there); it defaults to ``folder``.
    """
    final = final or folder
    folder.mkdir(parents=True, exist_ok=True)
    groups: dict[tuple[float, float], list[Card]] = {}
    for card in game.cards:
        groups.setdefault(layouts.by_type[card.type].size, []).append(card)
    written: list[Path] = []
    states = []
    deck_no = 0
    for g, (size, cards) in enumerate(groups.items(), 1):
        unique_back = any(game.card_types[c.type].back == "own" for c in cards) or \
            len({game.card_types[c.type].back for c in cards}) > 1
        deck_ids, contained, custom = [], [], {}
        for start in range(0, len(cards), PER_SHEET):
            batch = cards[start:start + PER_SHEET]
            deck_no += 1
            cols, rows = grid_for(len(batch))
            cell = card_pixels(size, cols, rows)
            fronts, backs = _faces(batch, game, layouts, size, cell)
            stem = f"{game.slug}-{g}-{start // PER_SHEET + 1}"
            face_path = folder / f"{stem}-faces.png"
            _sheet(fronts, cols, rows, cell, backs[0]).save(face_path)
            written.append(face_path)
            if unique_back:
                back_path = folder / f"{stem}-backs.png"
                _sheet(backs, cols, rows, cell, backs[0]).save(back_path)
            else:
                back_path = folder / f"{stem}-back.png"
                backs[0].save(back_path)
            written.append(back_path)
            custom[str(deck_no)] = {"FaceURL": (final / face_path.name).resolve().as_uri(),
                                    "BackURL": (final / back_path.name).resolve().as_uri(),
                                    "NumWidth": cols, "NumHeight": rows, "BackIsHidden": True,
                                    "UniqueBack": unique_back, "Type": 0}
            for i, card in enumerate(batch):
                card_id = deck_no * 100 + i
                for _ in range(card.quantity):
                    deck_ids.append(card_id)
                    contained.append({"Name": "Card", "Nickname": card.name, "Description": card.type,
                                      "CardID": card_id, "Transform": _transform()})
        states.append({"Name": "DeckCustom" if len(deck_ids) > 1 else "Card", "Transform": _transform(g * 3.0),
                       "Nickname": f"{game.title} ({g})", "DeckIDs": deck_ids,
                       "CustomDeck": custom, "ContainedObjects": contained})
    manifest = folder / f"{game.slug}.json"
    manifest.write_text(json.dumps({"SaveName": game.title, "ObjectStates": states}, indent=2))
    written.append(manifest)
    return written


def _transform(x: float = 0.0) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def _faces(cards: list[Card], game: Game, layouts: LayoutSet, size: tuple[float, float],
           cell: tuple[int, int]) -> tuple[list[Image.Image], list[Image.Image]]:
    dpi = math.ceil(cell[0] / (size[0] / 72))
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "faces.pdf"
        face_pdf(cards, game, layouts, pdf, bleed=False)
        images = [im.resize(cell, Image.LANCZOS) for im in rasterise(pdf, dpi)]
    return images[0::2], images[1::2]
