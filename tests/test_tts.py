"""Tabletop Simulator saved objects, checked against how TTS writes them, and Tabletop
Playground card templates, checked against a template TTPG saved, on every pack; every
card's back in either is the image of its own rendered back."""
from __future__ import annotations

import hashlib
import json
import math
import re
import tempfile
from functools import cache
from pathlib import Path

import pytest
from PIL import Image

from cardforge.build import Project, compile_game
from cardforge.export.faces import face_pdf
from cardforge.export.tts import POKER_MM, TYPE_CIRCLE, TYPE_RECTANGLE, TYPE_ROUNDED, tts_type
from tests.conftest import REPO, build_only, make_project
from tests.conftest import SHIPPED as SLUGS


@pytest.fixture(scope="module")
def tts_built(all_built) -> Path:
    """Every pack built with both exports: the suite's one shared build (see conftest.all_built)."""
    return all_built


def saved_objects(root: Path, slug: str) -> list[tuple[Path, dict]]:
    folder = root / "output" / slug / "tts"
    return [(path, json.loads(path.read_text())) for path in sorted(folder.glob("*.json"))]


def cards_of(state: dict) -> list[dict]:
    return state["ContainedObjects"] if state["Name"] == "Deck" else [state]


@pytest.mark.parametrize("slug", SLUGS)
def test_each_group_is_a_card_or_deck_tts_can_load(tts_built, slug):
    project = Project(tts_built)
    compiled = compile_game(project.cards / slug, project)
    game, layouts = compiled.game, compiled.layouts
    by_name = {c.name: c for c in game.cards}
    objects = saved_objects(tts_built, slug)
    assert objects
    seen = []
    for path, saved in objects:
        (state,) = saved["ObjectStates"]
        if state["Name"] == "Card":  # a lone card: CardID and CustomDeck, nothing of a deck
            assert "DeckIDs" not in state and "ContainedObjects" not in state
        else:
            assert state["Name"] == "Deck" and len(state["ContainedObjects"]) >= 2
            assert state["DeckIDs"] == [c["CardID"] for c in state["ContainedObjects"]]
        types, backs = set(), set()
        for card in cards_of(state):
            assert card["Name"] == "Card"
            key, index = divmod(card["CardID"], 100)
            sheet = card["CustomDeck"][str(key)]  # each card carries its own sheet
            if state["Name"] == "Deck":
                assert state["CustomDeck"][str(key)] == sheet
            assert index < sheet["NumWidth"] * sheet["NumHeight"] - 1  # the last slot is the hidden card
            shaped = layouts.by_type[card["Description"]]  # real saves: 0 rounded, 1 square corners, 4 round
            assert sheet["Type"] == (TYPE_CIRCLE if shaped.shape == "circle" else TYPE_ROUNDED if shaped.corner > 0 else TYPE_RECTANGLE)
            for url in (sheet["FaceURL"], sheet["BackURL"]):
                assert "/" not in url and (path.parent / url).is_file()  # relative, beside the saved object
            with Image.open(path.parent / sheet["FaceURL"]) as image:
                assert image.width < 4096 and image.height < 4096
                assert image.width % sheet["NumWidth"] == 0 and image.height % sheet["NumHeight"] == 0
            layout = layouts.by_type[card["Description"]]
            w, h = (v / 72 * 25.4 for v in layout.size)
            t = state["Transform"]
            if layout.shape == "circle":
                assert t["scaleX"] == t["scaleZ"] == pytest.approx(w / POKER_MM[0], abs=1e-3)
            else:  # the card's own proportions, not stretched to poker
                assert (t["scaleX"] * POKER_MM[0]) / (t["scaleZ"] * POKER_MM[1]) == pytest.approx(w / h, rel=1e-3)
            assert card["SidewaysCard"] == (w > h)
            types.add(card["Description"])
            backs.add(game.card_types[card["Description"]].back)
            seen.append(card["Nickname"])
        assert len(backs) == 1  # a deck is cards that share a back ...
        if backs == {"own"}:
            assert len(types) == 1  # ... and a type printing its own backs is kept apart
        # CardIDs count row by row through the unique cards of the sheet, in deck order
        firsts = list(dict.fromkeys((c["CardID"], c["Nickname"]) for c in cards_of(state)))
        assert [i % 100 for i, _ in firsts] == list(range(len(firsts))) or len(firsts) > 69
    assert sorted(seen) == sorted(c.name for c in game.cards for _ in range(c.quantity))
    assert all(by_name[n] for n in seen)


def test_deck_keys_never_collide_across_games(tts_built):
    keys = []
    for slug in SLUGS:
        for _, saved in saved_objects(tts_built, slug):
            (state,) = saved["ObjectStates"]
            keys += list(state["CustomDeck"])
    assert len(keys) == len(set(keys))


def test_one_card_group_and_victory_cards_apart(tts_built):
    lone = [s for _, saved in saved_objects(tts_built, "gate") for s in saved["ObjectStates"] if s["Name"] == "Card"]
    assert [s["Nickname"] for s in lone] and all("CardID" in s for s in lone)
    ttg = [saved["ObjectStates"][0] for _, saved in saved_objects(tts_built, "through-the-gate")]
    victory = [s for s in ttg if {c["Description"] for c in cards_of(s)} == {"victory"}]
    assert len(victory) == 1 and len(cards_of(victory[0])) == 5
    assert all("victory" not in {c["Description"] for c in cards_of(s)} for s in ttg if s is not victory[0])


def test_url_base_points_the_images_at_the_upload(tmp_path):
    root = make_project(tmp_path, "gate")
    build_only(root, "gate", "tts", export=["tts"], tts_url_base="https://example.org/g/")
    for path, saved in saved_objects(root, "gate"):
        for sheet in saved["ObjectStates"][0]["CustomDeck"].values():
            for url in (sheet["FaceURL"], sheet["BackURL"]):
                assert url.startswith("https://example.org/g/gate-") and (path.parent / url.rsplit("/", 1)[1]).is_file()


# --- every back as rendered -------------------------------------------------------------

FIXTURES = Path(__file__).parent / "fixtures"


@cache
def _compiled(root: Path, slug: str):
    project = Project(root)
    return compile_game(project.cards / slug, project)


def rendered_backs(root: Path, slug: str, keys: list[tuple[str, str]], cell: tuple[int, int]) -> dict:
    """(name, type) -> the backs of the pack's cards of that name and type, each card drawn
    on its own pages by face_pdf (its front, then its back; one document for all of
    ``keys``), its back page rasterised by PDFium and scaled to ``cell`` px."""
    import pypdfium2 as pdfium

    compiled = _compiled(root, slug)
    cards = {key: [c for c in compiled.game.cards if (c.name, c.type) == key] for key in keys}
    assert all(cards.values()), [key for key, found in cards.items() if not found]
    order = [card for key in keys for card in cards[key]]
    backs = {key: [] for key in keys}
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "cards.pdf"
        face_pdf(order, compiled.game, compiled.layouts, pdf, bleed=False)
        document = pdfium.PdfDocument(str(pdf))
        assert len(document) == 2 * len(order)
        at = 0
        for key in keys:
            for _ in cards[key]:
                page = document[2 * at + 1]  # the back
                dpi = math.ceil(cell[0] / (page.get_width() / 72))
                image = page.render(scale=dpi / 72, draw_annots=False).to_pil().convert("RGB")
                page.close()
                backs[key].append(image.resize(cell, Image.LANCZOS))
                at += 1
        document.close()
    return backs


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two images of one size, 0-255."""
    from PIL import ImageChops, ImageStat

    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def crop(sheet: Image.Image, index: int, cols: int, rows: int) -> Image.Image:
    w, h = sheet.width // cols, sheet.height // rows
    return sheet.crop(((index % cols) * w, (index // cols) * h, (index % cols + 1) * w, (index // cols + 1) * h))


def check_backs(root: Path, slug: str, shown: dict[tuple[str, str], Image.Image], one_image: bool) -> None:
    """``shown``: (name, type) -> the back a client shows for that card. Each is the card's
    own rendered back, nearer to it than to any differing back of the group; a group whose
    rendered backs are all alike uses one back image (``one_image``), one whose backs
    differ does not."""
    sizes = {image.size for image in shown.values()}
    own = {key: backs for size in sizes  # each card's backs at the size of the back shown for it
           for key, backs in rendered_backs(root, slug, [k for k, i in shown.items() if i.size == size], size).items()}
    # Every pair of backs is compared (the square of the group's size, 9,459 differences for
    # Through The Gate's deck, 11 s): most backs of a group are the same pixels, so each
    # difference is worked out once per pair of distinct pixel contents (the same figure).
    pixels = {id(image): (image.size, hashlib.sha256(image.tobytes()).digest())
              for image in [*shown.values(), *(b for backs in own.values() for b in backs)]}
    measured: dict[tuple, float] = {}

    def apart(a: Image.Image, b: Image.Image) -> float:
        pair = (pixels[id(a)], pixels[id(b)])
        if pair not in measured:
            measured[pair] = difference(a, b)
        return measured[pair]

    for key, image in shown.items():
        near = min(apart(image, b) for b in own[key])
        assert near < 3.0, (slug, key, near)
        for other, backs in own.items():
            for b in backs:
                if min(apart(b, mine) for mine in own[key]) > 6.0:  # a back that looks different
                    assert apart(image, b) > near, (slug, key, other)
    distinct = []
    for backs in own.values():
        for b in backs:
            if all(apart(b, d) > 1.0 for d in distinct):
                distinct.append(b)
    assert one_image == (len(distinct) == 1), (slug, sorted(shown), len(distinct))


@pytest.mark.parametrize("slug", SLUGS)
def test_every_tts_back_is_the_cards_own_rendered_back(tts_built, slug):
    for path, saved in saved_objects(tts_built, slug):
        (state,) = saved["ObjectStates"]
        shown, unique, decoded = {}, set(), {}
        for card in cards_of(state):
            key, index = divmod(card["CardID"], 100)
            sheet = card["CustomDeck"][str(key)]
            unique.add(sheet["UniqueBack"])
            if sheet["BackURL"] not in decoded:  # a sheet of backs is decoded once, not once per card
                with Image.open(path.parent / sheet["BackURL"]) as image:
                    decoded[sheet["BackURL"]] = image.convert("RGB")
            back = decoded[sheet["BackURL"]]
            if sheet["UniqueBack"]:  # a backs sheet: this card's back in its front's slot
                with Image.open(path.parent / sheet["FaceURL"]) as faces:
                    assert back.size == faces.size
                back = crop(back, index, sheet["NumWidth"], sheet["NumHeight"])
            shown[(card["Nickname"], card["Description"])] = back
        assert len(unique) == 1
        check_backs(tts_built, slug, shown, one_image=not unique.pop())


def test_gateway_ruined_districts_each_show_their_own_name(tts_built):
    (state,) = json.loads((tts_built / "output/gateway/tts/gateway-ruined.json").read_text())["ObjectStates"]
    (sheet,) = state["CustomDeck"].values()
    assert sheet["UniqueBack"] and len(state["ContainedObjects"]) == 10
    with Image.open(tts_built / "output/gateway/tts" / sheet["BackURL"]) as backs:
        crops = [crop(backs.convert("RGB"), c["CardID"] % 100, sheet["NumWidth"], sheet["NumHeight"])
                 for c in state["ContainedObjects"]]
    assert all(difference(a, b) > 0.5 for i, a in enumerate(crops) for b in crops[i + 1:])


# --- Tabletop Playground ----------------------------------------------------------------

REAL_TEMPLATE = json.loads((FIXTURES / "ttpg" / "card-template-fields.json").read_text())
JSON_TYPES = {"string": str, "number": (int, float), "integer": int, "boolean": bool, "array": list, "object": dict}


def templates(root: Path, slug: str) -> list[tuple[Path, dict]]:
    folder = root / "output" / slug / "ttpg" / "Templates" / slug
    return [(path, json.loads(path.read_text())) for path in sorted(folder.glob("*.json"))]


@pytest.mark.parametrize("slug", SLUGS)
def test_ttpg_templates_have_the_fields_ttpg_saves(tts_built, slug):
    found = templates(tts_built, slug)
    assert found
    for _, template in found:
        assert list(template) == list(REAL_TEMPLATE["fields"])  # the same fields, in TTPG's order
        for field, kind in REAL_TEMPLATE["fields"].items():
            value = template[field]
            assert isinstance(value, JSON_TYPES[kind]) and (kind != "integer" or not isinstance(value, bool)), field
        for field, keys in REAL_TEMPLATE["objects"].items():
            assert list(template[field]) == keys
        for field, value in REAL_TEMPLATE["values"].items():
            if field not in ("BackIndex", "Model"):  # chosen per group, checked below
                assert template[field] == value, field
        assert re.fullmatch(r"[0-9A-F]{32}", template["GUID"])
        assert template["BackIndex"] in (-2, -3) and template["Model"] in ("Rounded", "Square", "Round")
        assert 1 <= template["NumHorizontal"] <= 128 and 1 <= template["NumVertical"] <= 128


@pytest.mark.parametrize("slug", SLUGS)
def test_ttpg_atlases_hold_every_card_at_its_size(tts_built, slug):
    compiled = _compiled(tts_built, slug)
    textures = tts_built / "output" / slug / "ttpg" / "Textures"
    seen = []
    for _, t in templates(tts_built, slug):
        cols, rows = t["NumHorizontal"], t["NumVertical"]
        with Image.open(textures / t["FrontTexture"]) as front:
            assert front.width < 4096 and front.height < 4096
            assert front.width % cols == 0 and front.height % rows == 0
            cell = (front.width // cols, front.height // rows)
            fronts = front.convert("RGB")
        with Image.open(textures / t["BackTexture"]) as back:
            assert back.size == (fronts.size if t["BackIndex"] == -3 else cell)  # an atlas like the fronts, or one back
            back = back.convert("RGB")
        assert t["Indices"] and all(0 <= i < cols * rows for i in t["Indices"])
        assert set(t["CardNames"]) == {str(i) for i in t["Indices"]} == set(t["CardTags"])
        shown = {}
        for i in dict.fromkeys(t["Indices"]):
            name, (type_,) = t["CardNames"][str(i)], t["CardTags"][str(i)]
            layout = compiled.layouts.by_type[type_]
            assert (t["Width"], t["Height"]) == pytest.approx(tuple(v / 72 * 2.54 for v in layout.size), abs=1e-3)
            assert t["Model"] == ("Round" if layout.shape == "circle" else "Rounded" if layout.corner else "Square")
            assert abs(cell[0] / cell[1] - layout.size[0] / layout.size[1]) < 0.01
            shown[(name, type_)] = crop(back, i, cols, rows) if t["BackIndex"] == -3 else back
        check_backs(tts_built, slug, shown, one_image=t["BackIndex"] == -2)
        seen += [t["CardNames"][str(i)] for i in t["Indices"]]
    assert sorted(seen) == sorted(c.name for c in compiled.game.cards for _ in range(c.quantity))


def test_ttpg_guids_unique_across_games(tts_built):
    guids = [t["GUID"] for slug in SLUGS for _, t in templates(tts_built, slug)]
    assert len(guids) == len(set(guids))


def test_tts_card_shape_follows_the_layouts_corners():
    """Real TTS saves give playing cards Type 0 (rounded rectangle); 1 is square corners, 4 round."""
    from dataclasses import replace

    project = Project(REPO)
    layouts = compile_game(project.cards / "through-the-gate", project).layouts
    poker = next(layout for layout in layouts.by_type.values() if layout.shape != "circle")
    assert poker.corner > 0 and tts_type(poker) == TYPE_ROUNDED == 0
    assert tts_type(replace(poker, corner=0.0)) == TYPE_RECTANGLE == 1
    assert tts_type(replace(poker, shape="circle")) == TYPE_CIRCLE == 4


def test_a_deck_tts_needs_as_several_sheets_is_one_ttpg_template(tts_built):
    """Through The Gate's main deck is two TTS sheets (69 cards a sheet at most) but one TTPG stack."""
    slug = "through-the-gate"
    compiled = _compiled(tts_built, slug)
    sheets = {}
    for path, saved in saved_objects(tts_built, slug):
        (state,) = saved["ObjectStates"]
        sheets[path.stem] = {key for card in cards_of(state) for key in card["CustomDeck"]}
    assert max(len(keys) for keys in sheets.values()) > 1, "a group TTS draws as several sheets"
    stacks = {path.stem: t for path, t in templates(tts_built, slug)}
    assert set(stacks) == set(sheets)  # one TTPG template per TTS saved object, however many sheets
    assert max(len(t["Indices"]) for t in stacks.values()) > 69
    assert sum(len(t["Indices"]) for t in stacks.values()) == sum(c.quantity for c in compiled.game.cards)


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_both_tabletop_exports_draw_each_card_once_and_write_what_each_writes_alone(tmp_path, monkeypatch):
    """A build with both Tabletop exports draws each card's faces once for the two (one task,
    see cardforge.build.tasks), encodes each image the two write alike once, and writes, byte
    for byte, what each export writes alone."""
    import shutil

    import cardforge.export.tts as tts_export

    drawn: list[str] = []
    encoded: list[tuple[int, int]] = []
    real, real_save = tts_export._faces, Image.Image.save

    def counted(cards, *args):
        drawn.extend(card.name for card in cards)
        return real(cards, *args)

    def saving(image, fp, format=None, **params):
        if str(format).upper() == "PNG" or str(fp).endswith(".png"):
            encoded.append(image.size)
        return real_save(image, fp, format, **params)

    roots = {}
    for exports in (["tts", "ttpg"], ["tts"], ["ttpg"]):
        root = roots["+".join(exports)] = tmp_path / "+".join(exports)
        shutil.copytree(FIXTURES / "tiers", root)
        if len(exports) == 2:
            monkeypatch.setattr(tts_export, "_faces", counted)
            monkeypatch.setattr(Image.Image, "save", saving)
        build_only(root, "tiers", *exports, export=exports)
        monkeypatch.setattr(tts_export, "_faces", real)
        monkeypatch.setattr(Image.Image, "save", real_save)
    cards = [card.name for card in _compiled(roots["tts+ttpg"], "tiers").game.cards]
    assert sorted(drawn) == sorted(cards), "with both exports, each card is drawn once"
    out = roots["tts+ttpg"] / "output" / "tiers"
    pngs = {p: p.read_bytes() for p in out.rglob("*.png")}
    shared = [p for p in (out / "tts").glob("*.png") if (out / "ttpg" / "Textures" / "tiers" / p.name).is_file()]
    assert shared and all(pngs[p] == pngs[out / "ttpg" / "Textures" / "tiers" / p.name] for p in shared)
    assert len(encoded) == len(set(pngs.values())) < len(pngs), "an image both exports write is encoded once"
    for export in ("tts", "ttpg"):
        together, alone = (_files(roots[name] / "output" / "tiers" / export) for name in ("tts+ttpg", export))
        assert together and together == alone
