"""The image element: art placed to 0.1 mm, embedded once, vectors for SVG, a missing file
refused (or a visible MISSING placeholder with --force), low-resolution art reported."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pikepdf
import pytest
from PIL import Image

from cardforge.build import Project, compile_game
from cardforge.export.faces import face_pdf
from cardforge.util.units import MM
from tests.conftest import FIXTURES, run_cli
from tests.test_vector_icons import xobjects

TOL = 0.1 * MM
BASE = """layouts:
  base:
    size: poker
    elements:
      name: {kind: text, box: [5mm, 5mm, 53.5mm, 10mm], field: name, font: serif-bold, size: 12pt, min_size: 8pt}
      text: {kind: text, box: [6mm, 20mm, 51.5mm, 20mm], field: text, size: 10pt, min_size: 7pt}
  hero:
    extends: base
    elements:
      art: {kind: image, box: [5mm, 45mm, 40mm, 30mm], template: "%s"%s}
  spell:
    extends: base
backs:
  deck:
    background: "{{ back.color }}"
    elements:
      title: {kind: text, box: [6mm, 30mm, 51.5mm, 20mm], template: "{{ back.title }}", size: 18pt}
"""


def project(tmp_path: Path, src: str, extra: str = "", size=(1800, 1200)) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    (root / "cards/mini/art").mkdir()
    Image.new("RGB", size, "#3366aa").save(root / "cards/mini/art/hero.png")
    (root / "cards/mini/art/emblem.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 200"><rect x="10" y="10" width="280" height="180" fill="#aa3300"/></svg>')
    (root / "layouts/mini.yaml").write_text(BASE % (src, extra))
    return root


def hero_face(root: Path, tmp: Path) -> pdfplumber.PDF:
    result = compile_game(root / "cards/mini", Project(root))
    card = next(c for c in result.game.cards if c.type == "hero")
    out = tmp / "face.pdf"
    face_pdf([card], result.game, result.layouts, out, bleed=False)
    return pdfplumber.open(out)


@pytest.mark.parametrize("extra, expect", [
    ("", (5, 46.6667, 45, 73.3333)),  # contain: 40 x 26.67 mm, centred in the 30 mm height
    (", fit: contain, anchor: top-left", (5, 45, 45, 71.6667)),
    (", fit: contain, anchor: bottom", (5, 48.3333, 45, 75)),
    (", fit: cover", (2.5, 45, 47.5, 75)),  # 45 x 30 mm, centred, the sides clipped
    (", fit: cover, anchor: left", (5, 45, 50, 75)),
    (", fit: stretch", (5, 45, 45, 75)),
])
def test_raster_art_is_placed_to_a_tenth_of_a_millimetre(tmp_path, extra, expect):
    root = project(tmp_path, "art/hero.png", extra)
    with hero_face(root, tmp_path) as pdf:
        images = pdf.pages[0].images
    assert len(images) == 1
    im = images[0]
    got = (im["x0"], im["top"], im["x1"], im["bottom"])
    assert got == pytest.approx(tuple(v * MM for v in expect), abs=TOL)


def test_art_is_embedded_once_however_often_it_prints(tmp_path):
    root = project(tmp_path, "art/hero.png")
    assert run_cli("build", "mini", "--root", str(root)).exit_code == 0
    with pikepdf.open(root / "output/mini/deck.pdf") as pdf:
        found = xobjects(pdf)
        placed = sum(len(list(p.get_images(recursive=False) if hasattr(p, "get_images") else p.images))
                     for p in pdf.pages)  # images the page itself names (get_images: pikepdf 10+)
        images = [o for _, o in found if o.get("/Subtype") == "/Image"]
    assert placed == 1  # both heroes on one sheet, the page naming the image once
    assert len(images) == 1 and int(images[0]["/Width"]) == 1800
    with pdfplumber.open(root / "output/mini/deck.pdf") as pdf:
        assert len(pdf.pages[0].images) == 2  # drawn on both hero cards


def test_svg_art_is_vectors_without_images_or_masks(tmp_path):
    root = project(tmp_path, "art/emblem.svg", ", fit: contain")
    with hero_face(root, tmp_path) as pdf:
        assert pdf.pages[0].images == []
        fills = [r for r in pdf.pages[0].rects + pdf.pages[0].curves
                 if r["non_stroking_color"] and tuple(round(v, 2) for v in r["non_stroking_color"]) == (0.67, 0.2, 0.0)]
    assert len(fills) == 1  # the SVG's rect: 280 x 180 of 300 x 200 units in a 40 x 26.67 mm space
    assert fills[0]["x0"] == pytest.approx((5 + 40 * 10 / 300) * MM, abs=TOL)
    assert fills[0]["x1"] - fills[0]["x0"] == pytest.approx(40 * 280 / 300 * MM, abs=TOL)
    with pikepdf.open(tmp_path / "face.pdf") as pdf:
        found = xobjects(pdf)
    assert [n for n, o in found if o.get("/Subtype") == "/Image" or "/SMask" in o] == []


def test_a_missing_image_is_an_error_on_the_cards_line_and_force_prints_a_placeholder(tmp_path):
    root = project(tmp_path, "art/{{ card.name | lower | replace(' ', '-') }}.png")
    result = run_cli("check", "mini", "--root", str(root), "--format", "json")
    found = [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "image-missing"]
    assert result.exit_code == 1 and {d["card"] for d in found} == {"Sun Knight", "Moon Witch"}
    lines = (root / "cards/mini/cards.yaml").read_text().splitlines()
    assert {lines[d["line"] - 1].strip() for d in found} == {"- name: Sun Knight", "- name: Moon Witch"}
    assert all("art/sun-knight.png" in d["message"] or "art/moon-witch.png" in d["message"] for d in found)
    assert run_cli("build", "mini", "--root", str(root)).exit_code == 1
    assert not (root / "output/mini/deck.pdf").exists()
    forced = run_cli("build", "mini", "--root", str(root), "--force")
    assert (root / "output/mini/deck.pdf").exists(), forced.output
    with pdfplumber.open(root / "output/mini/deck.pdf") as pdf:
        assert pdf.pages[0].extract_text().count("MISSING") == 2


def test_art_outside_the_pack_is_refused(tmp_path):
    root = project(tmp_path, "../../layouts/mini.yaml")
    result = run_cli("check", "mini", "--root", str(root), "--format", "json")
    found = [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "image-missing"]
    assert result.exit_code == 1 and len(found) == 2 and "outside" in found[0]["message"]


def test_low_resolution_art_is_a_warning_giving_its_dpi(tmp_path):
    root = project(tmp_path, "art/hero.png", size=(300, 200))  # 300 px across 40 mm: 190.5 dpi
    result = run_cli("check", "mini", "--root", str(root), "--format", "json")
    found = [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "image-low-res"]
    assert len(found) == 2 and all(d["severity"] == "warning" for d in found)
    assert "190 dpi" in found[0]["message"]
    sharp = project(tmp_path / "b", "art/hero.png", size=(473, 315))  # 300.3 dpi
    result = run_cli("check", "mini", "--root", str(sharp), "--format", "json")
    assert [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "image-low-res"] == []


def test_a_decorative_icon_stays_out_of_the_icon_legend(tmp_path):
    from cardforge.sources.load import load_game
    from cardforge.documents.source import Macros

    root = project(tmp_path, "art/hero.png")
    game_yaml = root / "cards/mini/game.yaml"
    text = game_yaml.read_text()
    old = 'moon: {label: Moon, svg: icons/moon.svg, color: "#3949ab"}'
    assert old in text
    game_yaml.write_text(text.replace(old, 'moon: {label: Moon, svg: icons/moon.svg, color: "#3949ab", legend: false}'))
    game, problems = load_game(root / "cards/mini")
    assert not [d for d in problems if d.severity >= 2]
    legend = Macros(game).icon_legend()
    assert "{sun} Sun" in legend and "Moon" not in legend
    assert run_cli("build", "mini", "--root", str(root)).exit_code == 0
    with pdfplumber.open(root / "output/mini/rulebook.pdf") as pdf:
        pages = [p.extract_text() or "" for p in pdf.pages]
    legend_page = next(t for t in pages if "Icon legend" in t and "Sun" in t.split("Icon legend")[-1])
    assert "Moon\n" not in legend_page.split("Icon legend")[-1] + "\n"
