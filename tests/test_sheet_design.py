"""The rules sheet set like a quick-reference card, measured on every pack's rules.pdf, on
Letter and A4: type floors (body 7.5 pt, tables 7 pt, nothing under 6.5 pt), a table cut only
when it cannot fit a panel and then with its header repeated, a heading with three lines under
it, panels but the last at least half full, and reference tables moved to the helper sheet with a pointer
rather than smaller type."""
from __future__ import annotations

import collections
import re

import pdfplumber
import pytest

from cardforge.build import Project, compile_game
from cardforge.documents.compose import compose
from cardforge.documents.flow import IconImages
from cardforge.documents.fold import CELL, SHEET, cell_origin
from cardforge.documents.playertext import has_designed
from cardforge.documents.sheet import PAD, compile_sheet
from cardforge.documents.source import render_source
from cardforge.sources.load import find_packs
from tests.conftest import REPO, make_project
from tests.pdfpanels import panels
from tests.pdftext import page_chars
from tests.test_rules_panels import table_rows

SLUGS = [p.name for p in find_packs(REPO / "cards")]
PAPERS = ["letter", "a4"]


@pytest.fixture(scope="module")
def sheet_fits(tmp_path_factory):
    """{(slug, paper): (game, SheetFit, rules.pdf path)} for every shipped pack."""
    root = make_project(tmp_path_factory.mktemp("sheets"), *SLUGS)
    out = {}
    for slug in SLUGS:
        game = compile_game(root / "cards" / slug, Project(root)).game
        for paper in PAPERS:
            path = root / f"{slug}-{paper}.pdf"
            fit, problems = compile_sheet(game, path, paper)
            assert fit is not None and fit.fits, [d.message for d in problems]
            out[slug, paper] = (game, fit, path)
    return out


def _text_panels(path):
    """The sheet's panels after the title cell, notes panels (writing lines) left out."""
    return [p for p in panels(path)[1:] if p.text.strip() != "Notes"]


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("slug", SLUGS)
def test_type_floors(sheet_fits, slug, paper):
    _, fit, path = sheet_fits[slug, paper]
    sheet = panels(path)
    sizes = collections.Counter(round(c["size"], 2) for p in sheet for c in p.chars if c["text"].strip())
    assert min(sizes) >= 6.5 - 0.01, (slug, paper, sorted(sizes))  # nothing a player reads under 6.5 pt
    body = max(sizes, key=sizes.get)
    assert body >= 7.5 - 0.01 and abs(body - fit.size) < 0.01, (slug, paper, body)
    for p in sheet[1:]:  # under 7 pt: only "(continued)" beside a heading
        small = "".join(c["text"] for c in sorted(p.chars, key=lambda c: (round(c["top"]), c["x0"]))
                        if c["text"].strip() and c["size"] < 7.0 - 0.01)
        assert small.replace("(continued)", "") == "", (slug, paper, small)
    # the instructions outside the sheet too
    assert all(c["size"] >= 6.5 - 0.01 for page in page_chars(path) for c in page["chars"] if c["text"].strip())


def _fill(path, panel) -> float:
    first = page_chars(path)[0]
    w, h = first["width"], first["height"]
    x, y = cell_origin(panel.cell, ((w - SHEET[0]) / 2, (h - SHEET[1]) / 2))
    top = h - (y + CELL[1]) + PAD
    bottom = max(c["bottom"] for c in panel.chars if c["text"].strip())
    return (bottom - top) / (CELL[1] - 2 * PAD)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("slug", SLUGS)
def test_no_panel_but_the_last_is_under_half_full(sheet_fits, slug, paper):
    """Every text panel but the last carries ink over at least half its height (from the
    panel's top padding to the lowest glyph), measured on the PDF; the title panel's lines all
    print inside it; and the planner's own measure agrees with the ink to 3 % of a panel."""
    game, fit, path = sheet_fits[slug, paper]
    fills = [_fill(path, p) for p in _text_panels(path)]
    assert fills[:-1] and min(fills[:-1]) >= 0.5, (slug, paper, [round(f, 2) for f in fills])
    assert all(abs(ink - planned) < 0.03 for ink, planned in zip(fills, fit.plan.fill)), \
        (slug, paper, [round(f, 2) for f in fills], [round(f, 2) for f in fit.plan.fill])
    title, first = panels(path)[:2]  # the title panel keeps all its lines (the designed mark's note last)
    assert "designed or restored" not in first.text, (slug, paper, first.text[:80])
    assert ("designed or restored" in title.text) == has_designed(game), (slug, paper, title.text)


def _headings(panel, body: float):
    """(line index, text) of the section headings printed in ``panel`` (the serif lines
    larger than the body), "(continued)" headings left out."""
    out = []
    for n, line in enumerate(panel.lines()):
        text = "".join(c["text"] for c in line)
        if all("Serif" in c["fontname"] for c in line if c["size"] > body * 1.2) and line[0]["size"] > body * 1.2:
            if "(continued)" not in text:
                out.append((n, text))
    return out


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("slug", SLUGS)
def test_a_heading_keeps_three_lines_of_its_section(sheet_fits, slug, paper):
    """A heading whose section goes on to the next panel has three lines under it, unless
    what goes on is a table that fits one panel: it moves there whole, and the heading keeps
    the lines before it."""
    _, fit, path = sheet_fits[slug, paper]
    sheet = _text_panels(path)
    for k, panel in enumerate(sheet):
        lines = panel.lines()
        for n, text in _headings(panel, fit.size):
            under = len(lines) - n - 1
            nxt = [m for m, _ in _headings(panel, fit.size) if m > n]
            if nxt:
                continue  # the whole section is on this panel
            goes_on = k + 1 < len(sheet) and sheet[k + 1].text.replace(" ", "").startswith(
                text.replace(" ", "") + "(continued)")
            if goes_on and under < 3:  # only a table kept whole: the next panel opens on its header row
                follows = sheet[k + 1].lines()[1]
                assert under >= 1 and all("Bold" in c["fontname"] for c in follows), (slug, paper, text, under)


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("slug", SLUGS)
def test_a_table_cut_between_panels_repeats_its_header(sheet_fits, slug, paper):
    game, fit, path = sheet_fits[slug, paper]
    sheet = _text_panels(path)
    words = [{re.sub(r"[^\w'+-]", "", w["text"]) for w in p.words} for p in sheet]
    markdown, _ = render_source(game, "sheet")
    moved = {table_id for table_id, _ in fit.moved}
    for table_id, spec in (game.data.get("tables") or {}).items():
        if f"table('{table_id}')" not in (REPO / "cards" / slug / "sheet.md").read_text(encoding="utf-8"):
            continue
        header = {re.sub(r"[^\w'+-]", "", w) for c in spec["columns"] for w in str(c).split()} - {""}
        block = re.search(rf"<!-- table: {re.escape(table_id)} -->\n(?:\*\*[^\n]*\*\*\n\n)?((?:\|[^\n]*\n?)+)", markdown)
        if table_id in moved:
            assert "see the helper sheet" in " ".join(p.text for p in sheet)
            continue
        rows = table_rows(block.group(1))
        homes = set()
        for row in rows:  # the panel holding the row: all its short words, whole
            short = {re.sub(r"[^\w'+-]", "", w) for cell in row for w in cell.split() if len(w) <= 10} - {""}
            home = [k for k, found in enumerate(words) if short <= found]
            assert home, (slug, paper, table_id, row)
            homes.add(home[0])
        for k in homes:  # every panel holding rows of the table prints its header
            assert header <= words[k], (slug, paper, table_id, k)
        assert sorted(homes) == list(range(min(homes), max(homes) + 1)), (table_id, sorted(homes))


def test_a_table_that_fits_one_panel_is_never_cut_and_a_longer_one_repeats_its_header(tmp_path):
    """Composed directly: a six-row table after a paragraph long enough that cutting the table
    would fill the first panel better; it moves whole to the next panel. A table taller than
    a panel is cut between rows, every piece under its header row."""
    root = make_project(tmp_path, "gatekeeper")
    game = compile_game(root / "cards" / "gatekeeper", Project(root)).game
    width, room = CELL[0] - 2 * PAD, CELL[1] - 2 * PAD - 1.0
    rows = "\n".join(f"| row {i} | a short effect {i} |" for i in range(6))
    long_rows = "\n".join(f"| long {i} | a much longer effect that wraps onto a second line {i} |" for i in range(16))
    intro = "Witches are placed in columns, the active player first. " * 5
    markdown = (f"## First\n\n{intro}\n\n| Part | What it does |\n|---|---|\n{rows}\n\n## Second\n\n{intro}\n\n"
                f"| Step | Rule |\n|---|---|\n{long_rows}\n")
    plan = compose(markdown, [], 8, width, room, IconImages(game, tmp_path), {}, size=7.5)
    tables = [(n, f) for n, panel in enumerate(plan.panels) for f in panel if type(f).__name__ == "Table"]
    short = [(n, f) for n, f in tables if "Part" in str(f._cellvalues[0][0].text)]
    long = [(n, f) for n, f in tables if "Step" in str(f._cellvalues[0][0].text)]
    assert len(short) == 1 and len(short[0][1]._cellvalues) == 7  # header + 6 rows, whole
    assert len(long) >= 2  # taller than a panel: cut, each piece under its header
    assert sum(len(f._cellvalues) - 1 for _, f in long) == 16


def test_gatekeepers_spells_move_to_the_helper_sheet_with_a_pointer(sheet_fits, tmp_path):
    from cardforge.documents.reference import render_reference

    game, fit, path = sheet_fits["gatekeeper", "letter"]
    assert "spells" in {table_id for table_id, _ in fit.moved}
    text = " ".join(p.text for p in panels(path))
    assert "Spells: see the helper sheet (reference.pdf)." in text
    first_cells = [str(name) for name in game.data["spells"].values()]  # the table's first column: the spells
    assert len(first_cells) == 9
    assert sum(cell in text for cell in first_cells) <= 2  # the table left the sheet (the rules may name a spell)
    out = tmp_path / "reference.pdf"
    render_reference(game, out)
    with pdfplumber.open(out) as pdf:
        helper = " ".join((pdf.pages[0].extract_text() or "").split())
    assert all(cell in helper for cell in first_cells if cell), first_cells  # and prints on the helper sheet
