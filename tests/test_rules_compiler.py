"""The rules compiler: fold simulation, reading order in the PDF, numbers traced to data,
overflow diagnosed, and one change in the data reaching cards, sheet and rulebook."""
from __future__ import annotations

import json
import re

import pdfplumber
import pytest
import yaml

from cardforge.sources.load import load_game
from cardforge.documents.fold import CELL, READING_ORDER, SHEET, TITLE_CELL, Cell, cell_origin, fold
from cardforge.documents.source import render_source
from tests.conftest import EVERY, FIXTURES, REPO, SHIPPED, build_only, make_project, run_cli
LETTER = (612.0, 792.0)


def test_folding_leaves_the_title_cell_outermost_and_uses_every_face_once():
    faces = fold()
    assert len(faces) == 16 and len(set(faces)) == 16
    assert faces[0] == TITLE_CELL == Cell("front", 0, 0)  # the cover
    assert faces[-1] == Cell("front", 0, 1)  # the back cover, the title panel's other half
    # every layer is one piece of paper: its two faces are front and back of the same spot
    for up, down in zip(faces[0::2], faces[1::2]):
        assert up.behind() == down
    # inside the half fold, the two halves of the last panel face each other
    assert {faces[7], faces[8]} == {Cell("front", 3, 0), Cell("front", 3, 1)}


def test_reading_order_runs_panel_by_panel_across_each_fold():
    assert READING_ORDER[0] == TITLE_CELL and len(set(READING_ORDER)) == 16
    for a, b in zip(READING_ORDER, READING_ORDER[1:]):
        if a.side == b.side:  # the next cell is beside it, or the first of the next panel down
            assert (b.row, b.col) in {(a.row, a.col + 1), (a.row + 1, 0)}
        else:  # turning the sheet over: from the last front cell to the first back cell
            assert (a.row, a.col, b.row, b.col) == (3, 1, 0, 0)


def cell_of(word, page_no: int):
    """The cell whose box holds a word of the sheet (page 0 front, 1 back)."""
    x0 = (LETTER[0] - SHEET[0]) / 2
    y0 = (LETTER[1] - SHEET[1]) / 2
    x, y = (word["x0"] + word["x1"]) / 2, LETTER[1] - (word["top"] + word["bottom"]) / 2
    for cell in READING_ORDER:
        cx, cy = cell_origin(cell, (x0, y0))
        if cell.side == ("front", "back")[page_no] and cx <= x <= cx + CELL[0] and cy <= y <= cy + CELL[1]:
            return cell
    return None




@pytest.mark.parametrize("slug", EVERY)
def test_sheet_headings_appear_in_reading_order_and_title_on_the_cover(all_built, slug):
    game, _ = load_game(all_built / "cards" / slug)
    markdown, _ = render_source(game, "sheet")
    headings = [re.sub(r"[*_{}]", "", h).strip() for h in re.findall(r"^##+ (.+)$", markdown, re.M)]
    with pdfplumber.open(all_built / "output" / slug / "rules.pdf") as pdf:
        assert len(pdf.pages) in (1, 2)  # the front, and the back when the rules need it
        words = [(w, cell_of(w, n)) for n, page in enumerate(pdf.pages[:2]) for w in page.extract_words()]
    title_words = [c for w, c in words if w["text"] == game.title.split()[0]]
    assert title_words and title_words[0] == TITLE_CELL
    text_by_cell: dict = {}
    for w, c in words:
        if c is not None:
            text_by_cell.setdefault(c, []).append(w["text"])
    order = {c: i for i, c in enumerate(READING_ORDER)}
    flow = " ".join(" ".join(text_by_cell.get(c, [])) for c in READING_ORDER)
    at = 0
    for heading in headings:  # each heading is found after the one before it
        found = flow.find(heading, at)
        assert found >= 0, (heading, flow[at:at + 200])
        at = found + len(heading)
    assert order[TITLE_CELL] == 0


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_number_in_the_shipped_rules_comes_from_the_data(slug):
    result = run_cli("check", slug, "--root", str(REPO), "--format", "json", "--no-cache")
    assert [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "rules-number"] == []


def test_a_number_typed_into_the_rules_is_a_check_warning_at_its_line(tmp_path):
    root = make_project(tmp_path, "gate")
    sheet = root / "cards" / "gate" / "sheet.md"
    lines = sheet.read_text().splitlines()
    lines.insert(2, "Each player starts with 7919 gold.")
    sheet.write_text("\n".join(lines) + "\n")
    result = run_cli("check", "gate", "--root", str(root), "--format", "json")
    found = [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "rules-number"]
    assert [(d["line"], d["column"], d["severity"]) for d in found] == [(3, 25, "warning")]
    assert "sheet.md prints the number 7919" in found[0]["message"] and result.exit_code == 0


@pytest.mark.parametrize("slug", EVERY)
def test_every_glossary_term_is_in_the_rulebook(all_built, slug):
    from tests.test_player_text import pdf_pages  # each page's text, a PDF read once per process

    game, _ = load_game(all_built / "cards" / slug)
    if not (game.root / "rulebook.md").exists():
        return
    text = " ".join(pdf_pages(all_built / "output" / slug / "rulebook.pdf"))
    for term in game.glossary:
        assert f"{term}:" in text, (slug, term)


def test_a_sheet_that_does_not_fit_is_diagnosed_and_not_written(tmp_path):
    import shutil

    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    pack = root / "cards/mini"
    (pack / "sheet.md").write_text("## Rules\n\n" + ("Exhaust a spell, then pay mana to draw. " * 40 + "\n\n") * 12)
    (pack / "rulebook.md").write_text("## Rules\n\nPlay.\n")
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code == 1
    said = " ".join(result.stderr.split())
    assert "error[rules-overflow]" in said, said
    need = re.search(r"does not fit at 7.5 pt: the rules need (\d+) panels and the sheet has 15 beside the title; "
                     r'from the section "Rules" on, (\d+) panels of text would be left out', said)
    assert need and int(need[1]) > 15 and int(need[2]) == int(need[1]) - 15, said
    message = said.split("error[rules-overflow]:")[1].split("hint:")[0]
    assert "too many" not in message and not re.search(r"-\d", message), message
    assert "rules_sheet" not in said  # no hint at an option that would not make it fit
    assert "sheet.md:1" in result.stderr
    assert not (root / "output/mini/rules.pdf").exists() and not (root / "output/mini/deck.pdf").exists()


def test_a_spare_panel_too_long_for_one_panel_is_named_with_what_it_needs(tmp_path):
    """sheet.md asks for the components panel of a pack with a long components list: the
    overflow names that panel and how many it would need, not a negative count of cells."""
    import shutil

    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    pack = root / "cards/mini"
    game = (pack / "game.yaml").read_text()
    extra = "".join(f"  - {{id: token-{n}, name: wooden token of the {n}th kind, count: 3, supply: true}}\n"
                    for n in range(60))
    (pack / "game.yaml").write_text(game.replace("components:\n", "components:\n" + extra, 1))
    (pack / "sheet.md").write_text("## Play\n\nPlay one card a turn.\n\n{{ spare_panel('components') }}\n")
    result = run_cli("build", "mini", "--root", str(root))
    said = " ".join(result.stderr.split())
    assert result.exit_code == 1, said
    found = re.search(r"error\[rules-overflow\]: the rules sheet of mini: the Components panel that sheet.md asks for "
                      r"with spare_panel\('components'\) needs (\d+) panels at 7.5 pt and has 1", said)
    assert found and int(found[1]) > 1, said
    message = said.split("error[rules-overflow]:")[1].split("hint:")[0]
    assert "too many" not in message and not re.search(r"-\d", message) and "rules_sheet" not in said, message
    assert "remove spare_panel('components') from sheet.md (rulebook.md can print it in full with components_list())" in said


def test_a_number_changed_in_the_data_changes_in_sheet_and_rulebook(tmp_path):
    root = make_project(tmp_path, "through-the-gate")
    path = root / "cards/through-the-gate/game.yaml"
    data = yaml.safe_load(path.read_text())
    assert data["numbers"]["start_hourglass"]["value"] == 5
    text = path.read_text()
    start = text.index("  start_hourglass:")
    value_at = text.index("value: 5", start)
    path.write_text(text[:value_at] + "value: 4" + text[value_at + len("value: 5"):])
    build_only(root, "through-the-gate", "rules.pdf", "rulebook.pdf")
    for name in ("rules.pdf", "rulebook.pdf"):
        with pdfplumber.open(root / "output/through-the-gate" / name) as pdf:
            text = " ".join(" ".join((p.extract_text() or "").split()) for p in pdf.pages)
        assert "Give each player 4" in text and "Give each player 5" not in text, name
