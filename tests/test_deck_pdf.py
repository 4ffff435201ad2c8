"""The Through The Gate deck PDF, read back with pdfplumber and pypdf."""
from __future__ import annotations

import re

import pdfplumber
import pytest
import yaml
from pypdf import PdfReader

from cardforge.build import BuildSettings, Project
from cardforge.incremental import build_games
from cardforge.render.sheet import impose
from tests.conftest import REPO, make_project

MM = 72 / 25.4
CARD_W, CARD_H = 63.5 * MM, 88.9 * MM
LETTER = (612.0, 792.0)
A4 = (210 * MM, 297 * MM)


def seed_cards():
    """The deck in database order, straight from the YAML files (file name order)."""
    cards = []
    for name in ("deck.yaml", "victory.yaml"):
        cards += yaml.safe_load((REPO / "cards/through-the-gate" / name).read_text())["cards"]
    return cards


def physical(cards):
    return [c for c in cards for _ in range(c.get("quantity", 1))]


def slot_box(i: int, paper=LETTER, mirrored=False):
    """pdfplumber bbox (x0, top, x1, bottom) of slot i of the 3 x 3 poker grid on the page."""
    sheet = impose("letter" if paper == LETTER else "a4", (CARD_W, CARD_H))
    assert (sheet.cols, sheet.rows) == (3, 3)
    x, y = sheet.back_slot(i) if mirrored else sheet.slot(i)
    top = paper[1] - y - CARD_H
    return x, top, x + CARD_W, top + CARD_H


def name_in(page, box, band=(4.5, 15.5)) -> str:
    """Text in the name band of a card (by default 4.5 to 15.5 mm below its top edge)."""
    x0, top, x1, _ = box
    band = page.crop((x0 + 4 * MM, top + band[0] * MM, x1 - 4 * MM, top + band[1] * MM))
    return " ".join((band.extract_text() or "").split())


@pytest.fixture(scope="module")
def deck(ttg_build):
    path = ttg_build.output / "through-the-gate" / "deck.pdf"
    with pdfplumber.open(path) as pdf:
        yield pdf


def test_page_count_and_size(deck):
    copies = physical(seed_cards())
    assert len(copies) == 109
    sheets = -(-len(copies) // 9)
    assert len(deck.pages) == 2 * sheets == 26
    for page in deck.pages:
        assert (page.width, page.height) == pytest.approx(LETTER, abs=0.01)


def test_every_card_name_on_its_slot_as_often_as_its_quantity(deck):
    copies = physical(seed_cards())
    seen = []
    for i, card in enumerate(copies):
        page = deck.pages[2 * (i // 9)]
        band = (11, 35) if card["type"] == "victory" else (4.5, 15.5)  # layouts/through-the-gate.yaml
        seen.append(name_in(page, slot_box(i % 9), band))
    assert seen == [" ".join(c["name"].split()) for c in copies]


def test_crop_marks_sit_on_the_trim_edges_outside_the_grid(deck):
    page = deck.pages[0]
    sheet = impose("letter", (CARD_W, CARD_H))
    gx, gy, gw, gh = sheet.grid
    grid_x0, grid_top = gx, LETTER[1] - gy - gh
    xs, ys = sheet.cut_lines()
    expected_x = xs
    expected_y = sorted(LETTER[1] - y for y in ys)
    assert len(expected_x) == 6 and len(expected_y) == 4  # gutters between columns, rows butted on Letter
    thin = [ln for ln in page.lines if ln["linewidth"] <= 0.3]
    vertical = sorted({round(ln["x0"], 2) for ln in thin if abs(ln["x0"] - ln["x1"]) < 0.01})
    horizontal = sorted({round(ln["top"], 2) for ln in thin if abs(ln["top"] - ln["bottom"]) < 0.01})
    assert vertical == pytest.approx(expected_x, abs=0.01)
    assert horizontal == pytest.approx(expected_y, abs=0.01)
    grid_bottom = grid_top + gh
    for ln in thin:  # no mark enters the card grid
        inside_x = grid_x0 + 0.01 < (ln["x0"] + ln["x1"]) / 2 < grid_x0 + gw - 0.01
        inside_y = grid_top + 0.01 < (ln["top"] + ln["bottom"]) / 2 < grid_bottom - 0.01
        assert not (inside_x and inside_y)


def test_each_back_is_behind_its_own_front_for_long_edge_duplex(deck):
    copies = physical(seed_cards())
    checked = 0
    for i, card in enumerate(copies):
        if card["type"] != "victory":
            continue
        back_page = deck.pages[2 * (i // 9) + 1]
        mirrored = slot_box(i % 9, mirrored=True)
        assert name_in(back_page, mirrored).startswith(" ".join(card["ice_queen"]["name"].split())[:8])
        checked += 1
    assert checked == 5
    # a deck card's back carries the game's title at the mirrored slot
    back = deck.pages[1]
    x0, top, x1, bottom = slot_box(0, mirrored=True)
    assert "Through The Gate" in " ".join((back.crop((x0, top, x1, bottom)).extract_text() or "").split())


def test_fonts_are_embedded_and_none_are_base14(ttg_build):
    reader = PdfReader(ttg_build.output / "through-the-gate" / "deck.pdf")
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            fonts[font["/BaseFont"]] = font
    assert fonts, "the deck uses fonts"
    for name, font in fonts.items():
        descriptor = font.get("/FontDescriptor")
        assert descriptor is not None and "/FontFile2" in descriptor.get_object(), f"{name} is not embedded"
        assert re.match(r"/[A-Z]{6}\+DejaVu", name), name


def test_a4_imposes_the_same_grid_centred_on_a4(a4_built):
    with pdfplumber.open(a4_built / "output/through-the-gate/deck.pdf") as pdf:
        assert (pdf.pages[0].width, pdf.pages[0].height) == pytest.approx(A4, abs=0.01)
        assert name_in(pdf.pages[0], slot_box(0, paper=A4)) == "Gloomy Forest"


def test_output_is_deterministic(tmp_path, ttg_build):
    root = make_project(tmp_path, "through-the-gate")  # a second build, in another project, of deck.pdf
    (result,) = build_games(Project(root), [root / "cards/through-the-gate"], BuildSettings(), only=("deck.pdf",))
    assert [p.name for p in result.written] == ["deck.pdf"], result.diagnostics
    again = (root / "output/through-the-gate/deck.pdf").read_bytes()
    assert again == (ttg_build.output / "through-the-gate/deck.pdf").read_bytes()
