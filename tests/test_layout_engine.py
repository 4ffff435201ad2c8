"""The layout engine: repeated elements, shapes, colour bands and merging inheritance,
measured in the PDFs it writes (positions to 0.1 mm) and in the diagnostics it gives."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest

from cardforge.build import Project, compile_game
from cardforge.export.faces import face_pdf
from cardforge.util.units import MM
from tests.conftest import FIXTURES, make_project, run_cli

TOL = 0.1 * MM  # 0.1 mm


def compiled(root: Path, slug: str):
    result = compile_game(root / "cards" / slug, Project(root))
    assert result.game is not None and result.layouts is not None, [d.format() for d in result.diagnostics]
    return result


def one_face(root: Path, slug: str, name: str, tmp: Path) -> Path:
    """A PDF of card ``name``'s front then back, each page exactly the trim (no bleed)."""
    result = compiled(root, slug)
    card = next(c for c in result.game.cards if c.name == name)
    out = tmp / f"{slug}-face.pdf"
    face_pdf([card], result.game, result.layouts, out, bleed=False)
    return out


def check_json(root: Path, slug: str):
    result = run_cli("check", slug, "--root", str(root), "--format", "json")
    return result.exit_code, json.loads(result.stdout)["diagnostics"]


def test_mana_track_spaces_sit_on_their_grid(tmp_path):
    """Gatekeeper's mana track: 12 spaces 4 to a row, 13.5 mm x 14.5 mm apart, 0 centred below."""
    root = make_project(tmp_path / "p", "gatekeeper")
    with pdfplumber.open(one_face(root, "gatekeeper", "Mana Track", tmp_path)) as pdf:
        page = pdf.pages[0]
        words = [w for w in page.extract_words() if w["text"].isdigit() and w["top"] < 76 * MM]  # not the footer
    numbers = {int(w["text"]): ((w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2) for w in words}
    assert sorted(numbers) == list(range(13))
    for i, value in enumerate(range(12, 0, -1)):
        cx = (5.5 + 6 + (i % 4) * 13.5) * MM
        assert numbers[value][0] == pytest.approx(cx, abs=TOL), value
    rows = [numbers[v][1] for v in (12, 8, 4)]
    assert rows[1] - rows[0] == pytest.approx(14.5 * MM, abs=TOL)
    assert rows[2] - rows[1] == pytest.approx(14.5 * MM, abs=TOL)
    assert numbers[0][0] == pytest.approx(page.width / 2, abs=TOL)


def test_fearamid_prints_one_cell_per_space_in_its_pyramid(tmp_path):
    root = make_project(tmp_path / "p", "gate")
    result = compiled(root, "gate")
    card = next(c for c in result.game.cards if c.name == "Fearamid")
    with pdfplumber.open(one_face(root, "gate", "Fearamid", tmp_path)) as pdf:
        page = pdf.pages[0]
        # damage amounts are the digits printed in the pyramid, bottom row first
        digits = [w for w in page.extract_words() if w["text"].isdigit() and w["top"] < 77 * MM]
        cells = [r for r in page.rects + page.curves
                 if abs((r["x1"] - r["x0"]) - 9.5 * MM) < TOL and abs((r["bottom"] - r["top"]) - 9.5 * MM) < TOL]
    spaces = [(r, c, s) for r, row in enumerate(card.data["rows"]) for c, s in enumerate(row)]
    assert len(cells) == len(spaces)
    damage = [s for _, _, s in spaces if s["kind"] == "damage"]
    assert sorted(int(w["text"]) for w in digits) == sorted(s["amount"] for s in damage)
    for r, c, s in spaces:  # the cell of row r, column c
        x0 = (6.425 + 4.75 * r + 9.5 * c) * MM
        top = (67 - 9.5 * r) * MM
        assert any(abs(b["x0"] - x0) < TOL and abs(b["top"] - top) < TOL for b in cells), (r, c)


def test_repeat_overflow_is_an_error_naming_the_card_and_the_build_refuses(tmp_path):
    root = make_project(tmp_path / "p", "gate")
    town = root / "cards/gate/town.yaml"
    text = town.read_text()
    old = "        - {kind: damage, location: farm, amount: 1}\n"
    assert text.count(old) == 1
    town.write_text(text.replace(old, old + "        - {kind: blank}\n"))
    code, found = check_json(root, "gate")
    overflow = [d for d in found if d["code"] == "layout-overflow"]
    assert code == 1 and len(overflow) == 1
    d = overflow[0]
    assert d["card"] == "Fearamid" and d["severity"] == "error" and "fear_cell" in d["message"]
    assert "22 items" in d["message"] and "21 fit" in d["message"]
    lines = town.read_text().splitlines()
    assert lines[d["line"] - 1].strip() == "- name: Fearamid"
    build = run_cli("build", "gate", "--root", str(root))
    assert build.exit_code == 1 and not (root / "output/gate/deck.pdf").exists()


def mini(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    return root


def set_layout(root: Path, text: str) -> None:
    (root / "layouts/mini.yaml").write_text(text)


BASE = """layouts:
  base:
    size: poker
    elements:
      name: {kind: text, box: [5mm, 5mm, 53.5mm, 10mm], field: name, font: serif-bold, size: 12pt, min_size: 8pt}
      text: {kind: text, box: [6mm, 20mm, 51.5mm, 30mm], field: text, size: 10pt, min_size: 7pt}
"""
BACKS = """backs:
  deck:
    background: "{{ back.color }}"
    elements:
      title: {kind: text, box: [6mm, 30mm, 51.5mm, 20mm], template: "{{ back.title }}", size: 18pt}
"""


def test_an_extending_layout_overrides_only_the_keys_it_names(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + """  hero:
    extends: base
    elements:
      name: {size: 14pt, color: "#aa0000"}
  spell:
    extends: base
""" + BACKS)
    result = compiled(root, "mini")
    hero = {e.name: e for e in result.layouts.by_type["hero"].front.elements}["name"]
    spell = {e.name: e for e in result.layouts.by_type["spell"].front.elements}["name"]
    assert (hero.kind, hero.box, hero.style.font, hero.field) == (spell.kind, spell.box, spell.style.font, spell.field)
    assert (hero.style.size, hero.style.color) == (14.0, "#aa0000")
    assert (spell.style.size, spell.style.color) == (12.0, "#000000")


def test_an_element_with_no_kind_anywhere_in_its_chain_is_located(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + """  hero:
    extends: base
    elements:
      banner: {size: 14pt}
  spell:
    extends: base
""" + BACKS)
    code, found = check_json(root, "mini")
    bad = [d for d in found if d["code"] == "layout-invalid"]
    assert code == 1 and len(bad) == 1 and "'banner'" in bad[0]["message"] and "kind" in bad[0]["message"]
    assert (root / "layouts/mini.yaml").read_text().splitlines()[bad[0]["line"] - 1].strip().startswith("banner:")


def test_shapes_lines_ellipses_polygons_and_bands_are_drawn_where_the_layout_says(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + """  hero:
    extends: base
    elements:
      rule: {kind: line, box: [10mm, 60mm, 40mm, 0mm], stroke: "#333333", stroke_width: 1pt, dash: [2mm, 1mm]}
      disc: {kind: circle, box: [10mm, 65mm, 20mm, 10mm], fill: "#00aa00"}
      star: {kind: polygon, box: [35mm, 62mm, 20mm, 20mm], sides: 5, star: true, fill: "#ffcc00", opacity: 0.5}
      hex: {kind: polygon, box: [5mm, 76mm, 8mm, 8mm], sides: 6, stroke: "#000000"}
      name: {fill: "#123456", padding: 1mm, color: "#ffffff"}
  spell:
    extends: base
""" + BACKS)
    result = compiled(root, "mini")
    hero = next(c for c in result.game.cards if c.type == "hero")
    with pdfplumber.open(one_face(root, "mini", hero.name, tmp_path)) as pdf:
        page = pdf.pages[0]
        lines = [ln for ln in page.lines if abs(ln["x0"] - 10 * MM) < TOL]
        assert len(lines) == 1
        ln = lines[0]
        assert ln["x1"] == pytest.approx(50 * MM, abs=TOL) and ln["top"] == pytest.approx(60 * MM, abs=TOL)
        assert ln["dash"][0] == [pytest.approx(2 * MM), pytest.approx(1 * MM)]
        curves = page.curves
        disc = [c for c in curves if c["non_stroking_color"] and tuple(round(v, 2) for v in c["non_stroking_color"]) == (0.0, 0.67, 0.0)]
        assert len(disc) == 1
        assert (disc[0]["x0"], disc[0]["x1"]) == (pytest.approx(15 * MM, abs=TOL), pytest.approx(25 * MM, abs=TOL))
        def at(x_mm, y_mm):
            return [c for c in curves if abs(c["x0"] - x_mm * MM) < 3 * MM and abs(c["top"] - y_mm * MM) < 3 * MM]
        star, hexagon = at(35, 62), at(5, 76)
        assert len(star) == 1 and len(hexagon) == 1
        assert len({tuple(p) for p in star[0]["pts"]}) == 10  # five points, five inner corners
        assert len({tuple(p) for p in hexagon[0]["pts"]}) == 6
        assert star[0]["top"] == pytest.approx(62 * MM, abs=TOL)  # a point upwards touches the box top
        assert hexagon[0]["bottom"] == pytest.approx(84 * MM, abs=TOL)  # a corner downwards touches the bottom
        navy = (round(0x12 / 255, 3), round(0x34 / 255, 3), round(0x56 / 255, 3))
        band = [r for r in page.rects + curves if r["non_stroking_color"] and r["fill"]
                and tuple(round(v, 3) for v in r["non_stroking_color"]) == navy]
        assert len(band) == 1 and band[0]["x0"] == pytest.approx(5 * MM, abs=TOL)
        assert band[0]["x1"] == pytest.approx(58.5 * MM, abs=TOL) and band[0]["bottom"] == pytest.approx(15 * MM, abs=TOL)
        name_chars = [ch for ch in page.chars if ch["top"] < 15 * MM]
        assert name_chars and all(ch["non_stroking_color"] in ((1, 1, 1), [1, 1, 1], (1.0, 1.0, 1.0)) for ch in name_chars)
        assert min(ch["x0"] for ch in name_chars) >= 6 * MM - TOL


TABLE = """  hero:
    extends: base
    elements:
      text: null
      scores:
        kind: table
        box: [6mm, 20mm, 51.5mm, %s]
        rows: "[{'who': 'Wanderers of the long and winding road', 'n': '12,500'}, {'who': 'Kings', 'n': '7'}, {'who': 'Everyone else at the table', 'n': '1,000,000'}]"
        columns:
          - {header: "Who scores", cell: "{{ row.who }}", align: left}
          - {header: "Points", cell: "{{ row.n }}", align: right}
        size: 11pt
        min_size: 6pt
        stroke: "#333333"
  spell:
    extends: base
"""


def test_table_columns_are_sized_by_content_and_numbers_never_break(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + TABLE % "40mm" + BACKS)
    code, found = check_json(root, "mini")
    assert code == 0, found
    result = compiled(root, "mini")
    hero = next(c for c in result.game.cards if c.type == "hero")
    with pdfplumber.open(one_face(root, "mini", hero.name, tmp_path)) as pdf:
        page = pdf.pages[0]
        words = page.extract_words()
        rules = [ln for ln in page.lines if abs(ln["x0"] - ln["x1"]) < 0.01]  # the column rule
    assert len(rules) == 1
    split = rules[0]["x0"]
    for number in ("12,500", "7", "1,000,000", "Points"):
        hits = [w for w in words if w["text"] == number]
        assert len(hits) == 1, number  # one piece: never broken across lines
        assert hits[0]["x0"] > split and hits[0]["x1"] <= (6 + 51.5) * MM
    assert any(w["text"] == "Wanderers" and w["x1"] < split for w in words)
    # the number column is only as wide as its widest number (plus padding): the text column
    # takes the rest
    widest = max(w["x1"] - w["x0"] for w in words if w["text"] in ("1,000,000", "Points"))
    assert (6 + 51.5) * MM - split < widest + 4 * 1.5 + 1


def test_a_table_that_does_not_fit_is_a_layout_overflow_naming_the_card(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + TABLE % "8mm" + BACKS)
    code, found = check_json(root, "mini")
    over = [d for d in found if d["code"] == "layout-overflow"]
    assert code == 1 and {d["card"] for d in over} == {"Sun Knight", "Moon Witch"}
    assert all("table `scores` (3 rows)" in d["message"] for d in over)


def test_a_card_overrides_its_layout_for_a_one_off_and_bad_keys_are_located(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + """  hero:
    extends: base
  spell:
    extends: base
""" + BACKS)
    cards = root / "cards/mini/cards.yaml"
    text = cards.read_text()
    old = '    power: 3\n'
    assert text.count(old) == 1
    cards.write_text(text.replace(old, old + '    layout:\n      background: "#ffeeee"\n      elements:\n'
                                            '        name: {size: 16pt, color: "#aa0000"}\n'
                                            '        seal: {kind: circle, box: [50mm, 70mm, 8mm, 8mm], fill: "#aa0000"}\n'))
    code, found = check_json(root, "mini")
    assert code == 0, found
    result = compiled(root, "mini")
    knight = next(c for c in result.game.cards if c.name == "Sun Knight")
    witch = next(c for c in result.game.cards if c.name == "Moon Witch")
    own, usual = result.layouts.for_card(knight), result.layouts.for_card(witch)
    assert own.front.background == "#ffeeee" and usual.front.background == "#ffffff"
    name = {e.name: e for e in own.front.elements}["name"]
    assert (name.style.size, name.style.color, name.box) == (16.0, "#aa0000", {e.name: e for e in usual.front.elements}["name"].box)
    with pdfplumber.open(one_face(root, "mini", "Sun Knight", tmp_path)) as pdf:
        page = pdf.pages[0]
        title = [ch for ch in page.chars if ch["top"] < 16 * MM]
        assert title and all(round(ch["size"], 2) == 16 for ch in title)
        seal = [c for c in page.curves if abs(c["x0"] - 50 * MM) < TOL and abs(c["top"] - 70 * MM) < TOL]
        assert len(seal) == 1
    # a key a layout does not have is a layout-invalid on the card's own line
    cards.write_text(cards.read_text().replace("name: {size: 16pt,", "name: {sise: 16pt,"))
    code, found = check_json(root, "mini")
    bad = [d for d in found if d["code"] == "layout-invalid"]
    assert code == 1 and len(bad) == 1 and "sise" in bad[0]["message"]
    assert cards.read_text().splitlines()[bad[0]["line"] - 1].strip().startswith("name: {sise")


def test_a_board_larger_than_the_paper_is_tiled_with_overlap_and_alignment_marks(tmp_path):
    from cardforge.render import tiles
    from cardforge.render.sheet import PRINTABLE

    root = mini(tmp_path)
    game = root / "cards/mini/game.yaml"  # the spell becomes a board: no longer shuffled with the heroes
    text = game.read_text()
    assert "    card_types: [hero, spell]\n\nicons:" in text
    game.write_text(text.replace("    card_types: [hero, spell]\n\nicons:", "    card_types: [hero]\n\nicons:"))
    set_layout(root, BASE + """  hero:
    extends: base
  spell:
    size: [400mm, 300mm]
    elements:
      name: {kind: text, box: [5mm, 5mm, 100mm, 12mm], field: name, size: 20pt, min_size: 20pt, align: left}
      corner: {kind: text, box: [330mm, 280mm, 60mm, 12mm], template: "FAR CORNER", size: 12pt, align: left}
""" + BACKS)
    assert run_cli("build", "mini", "--root", str(root)).exit_code == 0
    tiling = tiles.plan("letter", (400 * MM, 300 * MM))
    per_face = tiling.cols * tiling.rows
    assert per_face > 1
    with pdfplumber.open(root / "output/mini/deck.pdf") as pdf:
        pages = pdf.pages
        hero_pages = 2  # the two heroes fit one sheet: fronts and backs
        # two Fireball copies (quantity 2), front tiles and back tiles each
        assert len(pages) == hero_pages + 2 * 2 * per_face
        first = pages[hero_pages:hero_pages + per_face]
        ax, ay = tiles.origin(tiling)
        top = first[0].height - ay - tiling.area[1]  # the tile area's top, from the page top
        # the board's top-left text is on tile (1, 1) at its place in the board
        name = [w for w in first[0].extract_words() if w["text"] == "Fireball"]
        assert name and name[0]["x0"] == pytest.approx(ax + 5 * MM, abs=TOL)
        # the far corner is on the last tile, shifted by the tiles before it
        last = first[-1]
        far = [w for w in last.extract_words() if w["text"] == "FAR"]
        tx, ty, _, _ = tiling.region(tiling.cols - 1, tiling.rows - 1)
        assert far and far[0]["x0"] == pytest.approx(ax + 330 * MM - tx, abs=TOL)
        for p in first[:-1]:  # elsewhere it lies outside the visible (clipped) tile area
            for w in (w for w in p.extract_words() if w["text"] == "FAR"):
                outside = w["x0"] >= ax + tiling.area[0] or w["top"] >= p.height - ay or w["x1"] <= ax or w["bottom"] <= top
                assert outside
        # crosshairs: each seam mark is printed on both tiles that share the overlap, at the
        # same board position
        xs, ys = tiling.seams()
        seam = xs[0]
        left = [c for c in first[0].curves if abs((c["x0"] + c["x1"]) / 2 - (ax + seam)) < TOL]
        right = [c for c in first[1].curves if abs((c["x0"] + c["x1"]) / 2 - (ax + seam - tiling.step[0])) < TOL]
        assert len(left) >= 2 and len(left) == len(right)
        assert sorted(round(c["top"], 1) for c in left) == sorted(round(c["top"], 1) for c in right)
        assert "tile row 1, column 1" in first[0].extract_text()
        assert top >= PRINTABLE
