"""Tabletop Simulator export: deck sheets, back images and saved objects that TTS loads.

Cards are grouped as they are played: cards that share a back form one deck (the back
each card prints, which its card type may choose from the card's data, such as a back per
tier; a type that prints its own back, such as victory cards or double-sided tokens, is a
group of its own), split further by trim size and shape. A deck whose cards' backs, as
rendered, all look alike has one back image (``UniqueBack: false``); one whose backs differ
(its own backs, or a shared back printing the card's fields) has per-card backs: a backs
sheet behind the faces sheet and ``UniqueBack: true``. Each group becomes one saved object, written as TTS
itself writes them:

- a group of one physical card is a ``Card`` with its ``CardID`` and ``CustomDeck``;
- a larger group is a ``Deck`` whose ``DeckIDs`` list the ``CardID`` of its
  ``ContainedObjects`` one for one (each a ``Card`` carrying its own ``CustomDeck``);
- ``CardID`` = deck key x 100 + the card's index on its face sheet, counted row by row
  from the top-left; each sheet holds at most 10 x 7 slots, the last kept for the hidden
  card (the image TTS shows for a card in someone's hand), so at most 69 cards a sheet;
- ``CustomDeck`` keys are derived from the game, the group and the sheet (a CRC-32 folded
  into 1000-9999, unique within the game), so decks of several cardforge games on one
  table do not collide;
- ``Type`` follows the card's shape: 4 (circle) for round tokens, 0 (rectangle with rounded
  corners, as real saves of playing cards have) for a layout whose ``corner`` is above 0, 1
  (square corners) for one with ``corner: 0``,
  and the object's ``scaleX``/``scaleZ`` its proportions, so square and round tokens are
  not stretched onto poker-shaped cards (TTS's card model is 2.5 x 3.5 in at scale 1 and a
  circle card fits the model's width); landscape cards are ``SidewaysCard``.

Every sheet stays below 4096 x 4096 px. Files go to ``output/<game>/tts/``: one
``<game>-<group>.json`` per group (a saved object: copy it into TTS's Saved Objects
folder), its ``-faces.png`` and ``-back.png``/``-backs.png``. Image URLs are the file
names, relative to the saved object, unless ``url_base`` is given (the address where the
images are uploaded: TTS loads images from the web).
"""
from __future__ import annotations

import io
import json
import math
import tempfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from cardforge.export.faces import face_pdf, rasterise_to
from cardforge.layout import LayoutSet
from cardforge.model import Card, Game, slugify
from cardforge.sandbox.choice import back_of

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
PER_SHEET = MAX_COLS * MAX_ROWS - 1
POKER_MM = (63.5, 88.9)  # TTS's card model at scale 1
TYPE_ROUNDED, TYPE_RECTANGLE, TYPE_CIRCLE = 0, 1, 4  # TTS's CustomDeck card shapes


def tts_type(layout) -> int:
    """The ``Type`` of TTS's CustomDeck for cards of ``layout``: 4 circle, 0 rounded
    rectangle (``corner`` > 0 pt), 1 square rectangle."""
    return TYPE_CIRCLE if layout.shape == "circle" else TYPE_ROUNDED if layout.corner > 0 else TYPE_RECTANGLE


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


def deck_key(game: str, group: str, sheet: int, taken: set[int]) -> int:
    """A CustomDeck key in 1000-9999 from the game, group and sheet number, not in ``taken``."""
    key = zlib.crc32(f"{game}/{group}/{sheet}".encode()) % 9000 + 1000
    while key in taken:
        key = key % 9000 + 1001 if key < 9999 else 1000
    taken.add(key)
    return key


def scale(size: tuple[float, float], shape: str) -> tuple[float, float]:
    """(scaleX, scaleZ) of a TTS card object showing a card of ``size`` (w, h) pt."""
    w_mm, h_mm = (v / 72 * 25.4 for v in size)
    if shape == "circle":
        return round(w_mm / POKER_MM[0], 4), round(w_mm / POKER_MM[0], 4)
    if w_mm > h_mm:  # a sideways card: TTS turns the model, so its long side is the width
        return round(h_mm / POKER_MM[0], 4), round(w_mm / POKER_MM[1], 4)
    return round(w_mm / POKER_MM[0], 4), round(h_mm / POKER_MM[1], 4)


def groups(game: Game, layouts: LayoutSet) -> dict[str, list[Card]]:
    """Unique cards grouped as played: by the back each prints (chosen by its card type,
    maybe from its data; own-back types alone), size and shape."""
    found: dict[tuple, list[Card]] = {}
    for card in game.cards:
        layout = layouts.for_card(card)
        back = back_of(card, game) or card.type
        found.setdefault((card.type if back == "own" else back, layout.size, layout.shape), []).append(card)
    names: dict[str, list[Card]] = {}
    for (name, size, shape), cards in found.items():
        label = slugify(name)
        if any(k[0] == name and k != (name, size, shape) for k in found):
            label += f"-{size[0] / 72 * 25.4:.0f}x{size[1] / 72 * 25.4:.0f}"
        names[label] = cards
    return names


def _sheet(images: list[Image.Image], cols: int, rows: int, cell: tuple[int, int], hidden: Image.Image) -> Image.Image:
    sheet = Image.new("RGB", (cols * cell[0], rows * cell[1]), "white")
    for i, image in enumerate(images):
        sheet.paste(image, ((i % cols) * cell[0], (i // cols) * cell[1]))
    last = cols * rows - 1
    sheet.paste(hidden, ((last % cols) * cell[0], (last // cols) * cell[1]))
    return sheet


@dataclass
class Atlas:
    """One sheet of a group: its unique ``cards`` (deck order), the grid (``cols`` x ``rows``
    slots, the last left for the hidden card), the ``cell`` size (w, h) px and each card's
    rendered ``fronts`` and ``backs`` (PIL images of ``cell`` size, one per card)."""

    cards: list[Card]
    cols: int
    rows: int
    cell: tuple[int, int]
    fronts: list[Image.Image]
    backs: list[Image.Image]

    def faces_sheet(self) -> Image.Image:
        """The fronts atlas, row by row from the top-left, the hidden slot showing the first back."""
        return _sheet(self.fronts, self.cols, self.rows, self.cell, self.backs[0])

    def backs_sheet(self) -> Image.Image:
        """The backs atlas: each card's own back in the slot of its front."""
        return _sheet(self.backs, self.cols, self.rows, self.cell, self.backs[0])


@dataclass
class Group:
    """A group of cards as played (see :func:`groups`), drawn as one or more atlases.
    ``unique_back`` is true when the backs as rendered are not all identical: then each
    card needs its own back (a backs atlas), else one back image serves every card."""

    name: str
    cards: list[Card]
    size: tuple[float, float]
    shape: str
    atlases: list[Atlas]
    unique_back: bool
    tts_type: int = TYPE_ROUNDED  # see tts_type()


def drawn_groups(game: Game, layouts: LayoutSet) -> Iterator[Group]:
    """Each group of :func:`groups` with its cards rendered (fronts and backs) into atlases
    of at most :data:`PER_SHEET` cards, every sheet under 4096 px; one group at a time."""
    for name, cards in groups(game, layouts).items():
        layout = layouts.for_card(cards[0])
        size = layout.size
        atlases = []
        for start in range(0, len(cards), PER_SHEET):
            batch = cards[start:start + PER_SHEET]
            cols, rows = grid_for(len(batch))
            cell = card_pixels(size, cols, rows)
            fronts, backs = _faces(batch, game, layouts, size, cell)
            atlases.append(Atlas(batch, cols, rows, cell, fronts, backs))
        # the backs compared as rendered, not by back id: a shared back that prints the
        # card's fields (a name, a tier) differs from card to card
        unique_back = len({b.tobytes() for atlas in atlases for b in atlas.backs}) > 1
        yield Group(name, cards, size, layout.shape, atlases, unique_back, tts_type(layout))


def export_tts(game: Game, layouts: LayoutSet, folder: Path, url_base: str | None = None) -> list[Path]:
    """Write each group's sheets and saved object into ``folder``; returns the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    taken: set[int] = set()
    for g, group in enumerate(drawn_groups(game, layouts)):
        written += write_group(game, g, group, folder, taken, url_base)
    return written


def save_png(image: Image.Image | Callable[[], Image.Image], path: Path, encoded: dict | None = None,
             key: tuple | None = None) -> None:
    """Write ``image`` (or the image ``image()`` makes, made only when needed) to ``path`` as
    PNG. ``encoded``, shared by the two Tabletop exports of one group
    (:func:`cardforge.export.ttpg.export_tabletop`), keeps the PNG bytes under ``key`` (which
    sheet of which atlas, see :func:`sheet_key`): the export that writes the same sheet second
    writes those bytes, without making or encoding the image again. Raises ``OSError`` when
    the file cannot be written."""
    if encoded is not None and key is not None and key in encoded:
        path.write_bytes(encoded[key])
        return
    buffer = io.BytesIO()
    (image() if callable(image) else image).save(buffer, "PNG")
    if encoded is not None and key is not None:
        encoded[key] = buffer.getvalue()
    path.write_bytes(buffer.getvalue())


def sheet_key(atlas: Atlas | None, kind: str) -> tuple | None:
    """The key of :func:`save_png` for ``atlas``'s sheet ``kind`` ("faces", "backs" or "back",
    the back every card shares), for as long as the group holding ``atlas`` is written; None
    (nothing shared) without an atlas."""
    return (id(atlas), kind) if atlas is not None else None


def write_group(game: Game, g: int, group: Group, folder: Path, taken: set[int], url_base: str | None,
                encoded: dict | None = None) -> list[Path]:
    """Write the ``g``-th group's sheets and saved object into ``folder`` (``taken``: the deck
    keys the game's earlier groups took, see :func:`deck_key`; ``encoded``: see
    :func:`save_png`); returns the files written."""
    name, size, shape, unique_back = group.name, group.size, group.shape, group.unique_back
    sx, sz = scale(size, shape)
    sideways = size[0] > size[1]
    written: list[Path] = []
    deck_ids, contained = [], []
    for s, atlas in enumerate(group.atlases, 1):
        stem = f"{game.slug}-{name}" + (f"-{s}" if len(group.atlases) > 1 else "")
        face_path = folder / f"{stem}-faces.png"
        save_png(atlas.faces_sheet, face_path, encoded, sheet_key(atlas, "faces"))
        if unique_back:
            back_path = folder / f"{stem}-backs.png"
            save_png(atlas.backs_sheet, back_path, encoded, sheet_key(atlas, "backs"))
        else:
            back_path = folder / f"{stem}-back.png"
            save_png(atlas.backs[0], back_path, encoded, sheet_key(atlas, "back"))
        written += [face_path, back_path]
        key = deck_key(game.slug, name, s, taken)
        custom = {str(key): {"FaceURL": _url(face_path.name, url_base), "BackURL": _url(back_path.name, url_base),
                             "NumWidth": atlas.cols, "NumHeight": atlas.rows, "BackIsHidden": True,
                             "UniqueBack": unique_back, "Type": group.tts_type}}
        for i, card in enumerate(atlas.cards):
            for _ in range(card.quantity):
                deck_ids.append(key * 100 + i)
                contained.append(_card(card, key * 100 + i, custom, sx, sz, sideways))
    if len(contained) == 1:
        state = contained[0]
        state["Transform"] = _transform(g * 4.0, sx, sz)
    else:
        custom_all = {}
        for obj in contained:
            custom_all.update(obj["CustomDeck"])
        state = {"Name": "Deck", "Transform": _transform(g * 4.0, sx, sz), "Nickname": f"{game.title}: {name}",
                 "Description": "", "Hands": False, "SidewaysCard": sideways, "DeckIDs": deck_ids,
                 "CustomDeck": custom_all, "ContainedObjects": contained}
    saved = folder / f"{game.slug}-{name}.json"
    saved.write_text(json.dumps({"SaveName": f"{game.title}: {name}", "GameMode": "", "Date": "", "Table": "",
                                 "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "",
                                 "LuaScriptState": "", "ObjectStates": [state], "TabStates": {},
                                 "VersionNumber": ""}, indent=2))
    written.append(saved)
    return written


def _url(name: str, base: str | None) -> str:
    return f"{base.rstrip('/')}/{name}" if base else name


def _card(card: Card, card_id: int, custom: dict, sx: float, sz: float, sideways: bool) -> dict:
    return {"Name": "Card", "Transform": _transform(0.0, sx, sz), "Nickname": card.name, "Description": card.type,
            "Hands": True, "SidewaysCard": sideways, "CardID": card_id, "CustomDeck": custom}


def _transform(x: float = 0.0, sx: float = 1.0, sz: float = 1.0) -> dict:
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": sx, "scaleY": 1.0, "scaleZ": sz}


def _faces(cards: list[Card], game: Game, layouts: LayoutSet, size: tuple[float, float],
           cell: tuple[int, int]) -> tuple[list[Image.Image], list[Image.Image]]:
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "faces.pdf"
        face_pdf(cards, game, layouts, pdf, bleed=False, compress=False)
        images = list(rasterise_to(pdf, cell))  # drawn at the cell's size: nothing resampled
    return images[0::2], images[1::2]
