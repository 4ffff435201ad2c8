"""Print production, measured: trim and bleed, duplex registration, print-shop PNGs, TTS sheets."""
from __future__ import annotations

import pdfplumber
import pytest
from PIL import Image
from pypdf import PdfReader

from cardforge.build import Project, compile_game
from cardforge.export.faces import face_pdf
from cardforge.render.registration import mirrored, targets
from tests.conftest import build_only, make_project

MM = 72 / 25.4
TRIM = (63.5 * MM, 88.9 * MM)
BLEED = 3 * MM
TOL = 0.05 * MM


@pytest.fixture(scope="module")
def ttg(tmp_path_factory):
    root = make_project(tmp_path_factory.mktemp("print"), "through-the-gate")
    project = Project(root)
    return project, compile_game(root / "cards/through-the-gate", project)


def card_boxes(page, size):
    """Lower-left corners (pt, PDF coordinates) of the background rects of a given size."""
    found = []
    for r in page.rects:
        if abs(r["width"] - size[0]) < TOL and abs(r["height"] - size[1]) < TOL:
            found.append((round(r["x0"], 3), round(page.height - r["bottom"], 3)))
    return sorted(set(found))


def test_single_face_pages_are_trim_plus_bleed_with_trim_and_bleed_boxes(ttg, tmp_path):
    project, compiled = ttg
    out = tmp_path / "faces.pdf"
    face_pdf(compiled.game.cards[:2], compiled.game, compiled.layouts, out)
    reader = PdfReader(out)
    assert len(reader.pages) == 4
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        trim = [float(v) for v in page.trimbox]
        bleed = [float(v) for v in page.bleedbox]
        assert media[2] - media[0] == pytest.approx(TRIM[0] + 2 * BLEED, abs=TOL)
        assert media[3] - media[1] == pytest.approx(TRIM[1] + 2 * BLEED, abs=TOL)
        assert trim == pytest.approx([BLEED, BLEED, BLEED + TRIM[0], BLEED + TRIM[1]], abs=TOL)
        assert bleed == pytest.approx(media, abs=TOL)


@pytest.mark.parametrize("flip, shift", [("long", (0, 0)), ("short", (0, 0)), ("long", (0.8, -0.5))])
def test_each_back_lands_behind_its_front_when_the_sheet_is_turned(tmp_path, flip, shift):
    root = make_project(tmp_path, "through-the-gate")
    build_only(root, "through-the-gate", "deck.pdf", flip=flip, gutter=6.0,
               duplex_shift=f"{shift[0]},{shift[1]}" if shift != (0, 0) else None)
    size = (TRIM[0] + 2 * BLEED, TRIM[1] + 2 * BLEED)  # with a 6 mm gutter the full 3 mm bleed shows
    with pdfplumber.open(root / "output/through-the-gate/deck.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        fronts = card_boxes(front, size)
        backs = card_boxes(back, size)
        assert len(fronts) == len(backs) == 6
        expected = []
        for x, y in fronts:
            if flip == "long":  # portrait sheet turned on its long (vertical) edge: mirrored left-right
                x = front.width - x - size[0]
            else:
                y = front.height - y - size[1]
            expected.append((x + shift[0] * MM, y + shift[1] * MM))
        for (ex, ey), (bx, by) in zip(sorted(expected), backs):
            assert bx == pytest.approx(ex, abs=TOL) and by == pytest.approx(ey, abs=TOL)


def test_butted_cards_are_exactly_trim_size_apart(ttg, tmp_path):
    root = make_project(tmp_path, "through-the-gate")
    build_only(root, "through-the-gate", "deck.pdf", gutter=0.0)
    with pdfplumber.open(root / "output/through-the-gate/deck.pdf") as pdf:
        page = pdf.pages[0]
        # the middle row: no bleed above or below (rows touch), full bleed at the grid's sides
        row = sorted((r["x0"], r["x1"]) for r in page.rects if abs(r["height"] - TRIM[1]) < TOL)
    assert len(row) == 3
    assert [b[0] - a[1] for a, b in zip(row, row[1:])] == pytest.approx([0, 0], abs=TOL)
    assert row[1][1] - row[1][0] == pytest.approx(TRIM[0], abs=TOL)
    assert [row[0][1] - row[0][0], row[2][1] - row[2][0]] == pytest.approx([TRIM[0] + BLEED] * 2, abs=TOL)


def test_print_shop_pngs_have_the_size_of_trim_plus_bleed_at_the_dpi(tmp_path):
    root = make_project(tmp_path, "through-the-gate")
    build_only(root, "through-the-gate", "print-shop", export=["print-shop"])
    folder = root / "output/through-the-gate/print-shop"
    files = sorted(folder.iterdir())
    assert len(files) == 2 * 101  # front and back of each unique card
    assert files[0].name == "001-gloomy-forest-x1-back.png" and files[1].name == "001-gloomy-forest-x1-front.png"
    assert any(f.name.startswith("005-through-the-gate-x4-") for f in files)
    expected = (round((63.5 + 6) / 25.4 * 300), round((88.9 + 6) / 25.4 * 300))
    assert expected == (821, 1121)
    for f in files[:6]:
        with Image.open(f) as image:
            assert image.size == expected


def test_registration_targets_mirror_like_the_backs():
    paper = (612.0, 792.0)
    for x, y in targets(paper):
        assert mirrored((x, y), paper, "long") == (612.0 - x, y)
        assert mirrored((x, y), paper, "short") == (x, 792.0 - y)


def test_ink_saver_prints_no_background(tmp_path):
    root = make_project(tmp_path, "through-the-gate")
    build_only(root, "through-the-gate", "deck.pdf", ink_saver=True)
    with pdfplumber.open(root / "output/through-the-gate/deck.pdf") as pdf:
        for page in pdf.pages[:2]:
            big = [r for r in page.rects if r["width"] > TRIM[0] / 2 and r["height"] > TRIM[1] / 2]
            assert big == []
