"""Tabletop Playground export: card templates with front and back atlases.

Tabletop Playground (TTPG) loads a stack of cards from a *card template*: a JSON object
template (``"Type": "Card"``) in a package's ``Templates/`` folder naming a front atlas
and a back texture in its ``Textures/`` folder. The fields written are those TTPG itself
saves for a card stack (the field set is checked against a template saved by the editor,
tests/fixtures/ttpg/card-template-fields.json), their meaning from Plasticity Studios'
template schema (github.com/plasticity-studios/tabletop-playground-schemas, src/templates.ts):

- ``FrontTexture``: the fronts atlas, ``NumHorizontal`` x ``NumVertical`` cards read row
  by row from the top-left; ``Indices`` lists the atlas index of every physical card in the
  stack (a card printed three times appears three times); ``CardNames`` names each index;
  ``CardTags`` carries each card's type.
- ``BackTexture`` with ``BackIndex`` -2: one image, the back of every card (a group whose
  backs as rendered are all identical); ``BackIndex`` -3: a backs atlas of the same grid,
  each card's back at its front's index (a group whose rendered backs differ, such as
  Gateway's Ruined Districts, each printing its own name).
- ``HiddenIndex`` -3: a card hidden in someone's hand shows its back.
- ``Width``/``Height``: the trim size in cm (TTPG's unit); ``Thickness`` 0.05 cm;
  ``Model`` "Round" for round tokens, "Rounded" for cards with rounded corners, "Square"
  for square-cornered ones.

The groups are those of the Tabletop Simulator export
(:func:`cardforge.export.tts.drawn_groups`): cards sharing a back form a stack. TTS needs a
group of more than 69 cards as several sheets; TTPG takes it as one template (one stack on
the table), its cards drawn into one atlas (:func:`one_atlas`) on the grid that keeps them
largest under 4096 px. A group TTS draws as one sheet gets that very sheet: the slot TTS
keeps for the hidden card, which no index of the template names, shows the first back
there too, so a build with both exports encodes each such sheet once.

Files go to ``output/<game>/ttpg/``: ``Templates/<game>/<game>-<group>.json`` and
``Textures/<game>/<game>-<group>-faces.png`` with ``-back.png`` or ``-backs.png``; copy
both folders into a package folder (the package's ``Templates/`` and ``Textures/``) and the
stacks appear in the object library.
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

from PIL import Image

from cardforge.export import tts
from cardforge.export.tts import Group, card_pixels, drawn_groups
from cardforge.layout import LayoutSet
from cardforge.model import Game

BACK_FILE, BACK_ATLAS_SAME_INDEX = -2, -3  # BackIndex: one back image / a backs atlas indexed like the fronts
HIDDEN_IS_BACK = -3  # HiddenIndex: a hidden card shows its back
THICKNESS_CM = 0.05


def guid(*parts: str) -> str:
    """A template GUID (32 upper-case hex digits, as TTPG writes them) derived from
    ``parts``, so a rebuild keeps the same GUID and objects placed from it stay linked."""
    return hashlib.md5("/".join(parts).encode()).hexdigest().upper()


def model(shape: str, corner: float) -> str:
    """TTPG's card model for a layout's ``shape`` and ``corner`` radius (pt)."""
    if shape == "circle":
        return "Round"
    return "Rounded" if corner > 0 else "Square"


def one_atlas(group: Group) -> tuple[list, list[Image.Image], list[Image.Image], int, int]:
    """Every card of ``group`` in one atlas: (cards, their fronts, their backs, cols, rows),
    the images all of one cell size. A group TTS draws as one sheet keeps that sheet's grid;
    a larger one gets the grid (no hidden slot: TTPG shows a hidden card's back) on which
    the cards print largest with the atlas under 4096 px, each image scaled to it."""
    if len(group.atlases) == 1:
        atlas = group.atlases[0]
        return atlas.cards, atlas.fronts, atlas.backs, atlas.cols, atlas.rows
    cards = [card for atlas in group.atlases for card in atlas.cards]
    n = len(cards)
    cols = max(range(1, n + 1), key=lambda c: (card_pixels(group.size, c, math.ceil(n / c))[0], -c))
    rows = math.ceil(n / cols)
    cell = card_pixels(group.size, cols, rows)

    def fitted(images):
        return [im if im.size == cell else im.resize(cell, Image.LANCZOS) for im in images]

    return (cards, fitted([f for atlas in group.atlases for f in atlas.fronts]),
            fitted([b for atlas in group.atlases for b in atlas.backs]), cols, rows)


def _sheet(images: list[Image.Image], cols: int, rows: int) -> Image.Image:
    w, h = images[0].size
    sheet = Image.new("RGB", (cols * w, rows * h), "white")
    for i, image in enumerate(images):
        sheet.paste(image, ((i % cols) * w, (i // cols) * h))
    return sheet


def card_template(name: str, template_guid: str, front: str, back: str, per_card_back: bool, cols: int,
                  rows: int, size_pt: tuple[float, float], card_model: str, indices: list[int],
                  names: dict[int, str], tags: dict[int, list[str]]) -> dict:
    """A TTPG card template: ``front``/``back`` texture paths (relative to ``Textures/``),
    the atlas grid ``cols`` x ``rows``, the trim ``size_pt`` (w, h) pt, the atlas index of
    every physical card (``indices``), and each index's name and tags."""
    w_cm, h_cm = (round(v / 72 * 2.54, 4) for v in size_pt)
    return {
        "Type": "Card", "GUID": template_guid, "Name": name, "Metadata": "",
        "CollisionType": "Regular", "Friction": 0.7, "Restitution": 0, "Density": 0.5,
        "SurfaceType": "Cardboard", "Roughness": 1, "Metallic": 0,
        "PrimaryColor": {"R": 255, "G": 255, "B": 255}, "SecondaryColor": {"R": 0, "G": 0, "B": 0},
        "Flippable": True, "AutoStraighten": False, "ShouldSnap": True, "ScriptName": "", "Blueprint": "",
        "Models": [], "Collision": [], "Lights": [], "SnapPointsGlobal": False, "SnapPoints": [],
        "ZoomViewDirection": {"X": 0, "Y": 0, "Z": 0}, "GroundAccessibility": "Nothing", "Tags": [],
        "FrontTexture": front, "BackTexture": back, "HiddenTexture": "",
        "BackIndex": BACK_ATLAS_SAME_INDEX if per_card_back else BACK_FILE, "HiddenIndex": HIDDEN_IS_BACK,
        "NumHorizontal": cols, "NumVertical": rows, "Width": w_cm, "Height": h_cm, "Thickness": THICKNESS_CM,
        "HiddenInHand": True, "UsedWithCardHolders": True, "CanStack": True, "UsePrimaryColorForSide": False,
        "FrontTextureOverrideExposed": False, "AllowFlippedInStack": False, "MirrorBack": True,
        "EmissiveFront": False, "Model": card_model, "Indices": indices,
        "CardNames": {str(i): n for i, n in names.items()}, "CardMetadata": {},
        "CardTags": {str(i): t for i, t in tags.items()},
    }


def export_ttpg(game: Game, layouts: LayoutSet, folder: Path) -> list[Path]:
    """Write each group's card template and atlases under ``folder`` (``Templates/<game>/``
    and ``Textures/<game>/``); returns the files written."""
    _folders(game, folder)
    written: list[Path] = []
    for group in drawn_groups(game, layouts):
        written += write_group(game, layouts, group, folder)
    return written


def export_tabletop(game: Game, layouts: LayoutSet, folder: Path, names: tuple[str, ...] = ("tts", "ttpg"),
                    url_base: str | None = None) -> list[Path]:
    """The Tabletop exports ``names`` into ``folder``: ``tts`` (Tabletop Simulator,
    :func:`~cardforge.export.tts.export_tts`) into ``folder/tts``, ``ttpg`` (:func:`export_ttpg`)
    into ``folder/ttpg``. Both are written from one drawing of the cards, one group at a
    time (no more images held than for one export): the same files as each writes on its
    own. Returns the files written."""
    if names == ("tts",):
        return tts.export_tts(game, layouts, folder / "tts", url_base=url_base)
    if names == ("ttpg",):
        return export_ttpg(game, layouts, folder / "ttpg")
    if set(names) != {"tts", "ttpg"}:
        raise ValueError(f"no Tabletop export {names!r}: tts, ttpg or both")
    (folder / "tts").mkdir(parents=True, exist_ok=True)
    _folders(game, folder / "ttpg")
    written: list[Path] = []
    taken: set[int] = set()
    for g, group in enumerate(drawn_groups(game, layouts)):
        encoded: dict = {}  # the group's sheets, encoded once for both (tts.save_png)
        written += tts.write_group(game, g, group, folder / "tts", taken, url_base, encoded)
        written += write_group(game, layouts, group, folder / "ttpg", encoded)
    return written


def _folders(game: Game, folder: Path) -> tuple[Path, Path]:
    """The game's ``Templates/`` and ``Textures/`` folders under ``folder``, made if missing."""
    templates, textures = folder / "Templates" / game.slug, folder / "Textures" / game.slug
    templates.mkdir(parents=True, exist_ok=True)
    textures.mkdir(parents=True, exist_ok=True)
    return templates, textures


def write_group(game: Game, layouts: LayoutSet, group: Group, folder: Path, encoded: dict | None = None) -> list[Path]:
    """Write ``group``'s card template and atlases under ``folder`` (``encoded``: see
    :func:`cardforge.export.tts.save_png`); returns the files written."""
    templates, textures = _folders(game, folder)
    corner = layouts.for_card(group.cards[0]).corner
    cards, fronts, backs, cols, rows = one_atlas(group)
    one = group.atlases[0] if len(group.atlases) == 1 else None  # TTS's own sheets, hidden slot included
    faces_sheet = one.faces_sheet if one is not None else lambda: _sheet(fronts, cols, rows)
    backs_sheet = one.backs_sheet if one is not None else lambda: _sheet(backs, cols, rows)
    stem = f"{game.slug}-{group.name}"
    front = textures / f"{stem}-faces.png"
    tts.save_png(faces_sheet, front, encoded, tts.sheet_key(one, "faces"))
    if group.unique_back:
        back = textures / f"{stem}-backs.png"
        tts.save_png(backs_sheet, back, encoded, tts.sheet_key(one, "backs"))
    else:
        back = textures / f"{stem}-back.png"
        first = group.atlases[0]  # the back TTS wrote for its first sheet, unless scaled to another cell
        tts.save_png(backs[0], back, encoded, tts.sheet_key(first, "back") if backs[0] is first.backs[0] else None)
    indices = [i for i, card in enumerate(cards) for _ in range(card.quantity)]
    template = card_template(
        f"{game.title}: {group.name}", guid(game.slug, group.name), f"{game.slug}/{front.name}",
        f"{game.slug}/{back.name}", group.unique_back, cols, rows, group.size, model(group.shape, corner), indices,
        {i: c.name for i, c in enumerate(cards)}, {i: [c.type] for i, c in enumerate(cards)})
    path = templates / f"{stem}.json"
    path.write_text(json.dumps(template, indent="\t", ensure_ascii=False))
    return [front, back, path]
