"""The accordion sheet as a player reads it, panel by panel, measured on every pack's rules.pdf:
no panel ends in a heading, no table row is cut, no panel is blank, no word in a table cell
is broken, no two words overprint."""
from __future__ import annotations

import re

import mistune
import pytest

from cardforge.sources.load import find_packs, load_game
from cardforge.documents.source import render_source
from tests.conftest import REPO, SHIPPED, make_project, run_cli
from tests.pdfpanels import panels

SLUGS = [p.name for p in find_packs(REPO / "cards")]
PARSE = mistune.create_markdown(renderer=None, plugins=["table"])


def _plain(children) -> str:
    return "".join(t.get("raw", "") if t["type"] == "text" else _plain(t.get("children", [])) for t in children)


def table_rows(markdown: str) -> list[list[str]]:
    """Every body row of every Markdown table: the plain text of its cells."""
    rows = []
    for tok in PARSE(markdown):
        if tok["type"] == "table":
            for part in tok["children"]:
                if part["type"] == "table_body":
                    for row in part["children"]:
                        rows.append([re.sub(r"\{[\w-]+\}", " ", _plain(c["children"])).strip() for c in row["children"]])
    return rows


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def bold(ch: dict) -> bool:
    return "Bold" in ch["fontname"]


@pytest.fixture(scope="module")
def sheets(all_built):
    return {slug: panels(all_built / "output" / slug / "rules.pdf") for slug in SLUGS}


@pytest.mark.parametrize("slug", SLUGS)
def test_no_panel_ends_in_a_heading_caption_or_table_header(sheets, slug):
    for n, panel in enumerate(sheets[slug][1:], 1):
        lines = panel.lines()
        assert lines, f"panel {n} is blank"
        if panel.text.strip() == "Notes":
            continue  # a notes panel: its heading over writing lines
        last = lines[-1]
        text = "".join(c["text"] for c in last)
        assert not all(bold(c) for c in last), f"{slug} panel {n} ends in a bold line (a heading?): {text!r}"


@pytest.mark.parametrize("slug", SHIPPED)  # the shipped packs: what their rules hold (a table, enough rules for every panel) is content, not a property of every pack
def test_no_panel_is_blank(sheets, slug):
    sheet_md = (REPO / "cards" / slug / "sheet.md").read_text(encoding="utf-8")
    declared = len(re.findall(r"spare_panel\(", sheet_md))
    notes = []
    for n, panel in enumerate(sheets[slug]):
        assert panel.words, f"{slug}: panel {n} ({panel.cell}) is blank"
        if panel.text.strip() == "Notes":
            notes.append(n)
    # notes panels the rules leave over (when fuller panels read better) come last, after the rules
    undeclared = [n for n in notes if n < len(sheets[slug]) - declared]
    assert undeclared == list(range(len(sheets[slug]) - declared - len(undeclared), len(sheets[slug]) - declared)), \
        f"{slug}: notes panels {notes} amid the rules"
    assert len(undeclared) <= 2, f"{slug}: {len(undeclared)} panels left for notes"


@pytest.mark.parametrize("slug", SHIPPED)  # the shipped packs: what their rules hold (a table, enough rules for every panel) is content, not a property of every pack
def test_every_table_row_is_whole_on_one_panel_with_unbroken_words(all_built, sheets, slug):
    from cardforge.documents.sheet import compile_sheet, move_tables

    game, _ = load_game(all_built / "cards" / slug)
    markdown, _ = render_source(game, "sheet")
    markdown = move_tables(markdown, compile_sheet(game)[0].moved)  # the tables the helper sheet prints instead
    word_sets = [{re.sub(r"[^\w'+-]", "", w["text"]) for w in p.words} for p in sheets[slug]]
    rows = table_rows(markdown)
    assert rows, f"{slug}: sheet.md has no table to measure"
    for row in rows:
        # every word and number of up to 10 characters of the row, printed whole, on one panel
        words = {re.sub(r"[^\w'+-]", "", w) for cell in row for w in cell.split()} - {""}
        short = {w for w in words if len(w) <= 10}
        home = [i for i, found in enumerate(word_sets) if short <= found]
        best = max(word_sets, key=lambda found: len(short & found))
        assert home, f"{slug}: table row {row} is not whole on one panel, or a word is broken: {sorted(short - best)}"


@pytest.mark.parametrize("slug", SLUGS)
def test_no_two_words_overprint(sheets, slug):
    for n, panel in enumerate(sheets[slug]):
        words = panel.words
        for i, a in enumerate(words):
            for b in words[i + 1:]:
                dx = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
                dy = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
                assert not (dx > 0.5 and dy > 0.5), f"{slug} panel {n}: {a['text']!r} overprints {b['text']!r}"


@pytest.mark.parametrize("slug", SLUGS)
def test_one_type_size_for_the_whole_sheet(sheets, slug):
    body = {}
    for panel in sheets[slug][1:]:
        for ch in panel.chars:
            if not bold(ch) and "Serif" not in ch["fontname"]:
                body[round(ch["size"], 2)] = body.get(round(ch["size"], 2), 0) + 1
    main = max(body)  # the body text; table cells are 0.9 of it, never under 7 pt; nothing else in regular type
    cell = max(main * 0.9, min(main, 7.0))
    assert all(abs(s - main) < 0.05 or abs(s - cell) < 0.05 for s in body), (main, body)


def test_rules_that_fit_one_panel_leave_notes_panels_without_a_warning(tmp_path):
    root = make_project(tmp_path, "mini", source=REPO / "tests" / "fixtures" / "project")
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "warning[rules" not in said
    assert "14 panels the rules do not need print as notes at the end" in said, said
    found = panels(root / "output" / "mini" / "rules.pdf")
    assert all(p.words for p in found)
    assert sum(p.text == "Notes" for p in found) == 14
    assert "Play one card a turn." in found[1].text


SHORT_SECTIONS = {  # each short enough for one panel, in pieces the old balancing dealt over three
    "Setup": ["Shuffle the deck.", "Deal five cards to each player.", "The youngest player goes first.",
              "Put the rest of the deck face down in the middle of the table."],
    "Your turn": ["Draw a card.", "Play one card from your hand.", "Pay its mana from your pool.",
                  "A hero stays in front of you until it is defeated."],
    "Combat": ["Compare the power of the two heroes.", "The weaker one goes to the discard pile.",
               "On a tie both stay.", "Neither player draws at the end of a turn with a tie."],
    "Winning": ["Three heroes in front of you at the end of a turn win the game.",
                "If the deck runs out, the most heroes win.", "Ties share the victory."],
}


def test_short_sections_stay_whole_and_the_spare_panels_go_at_the_end(tmp_path):
    """A designer's sheet with room to spare: each short section on one panel, never
    "(continued)", and the panels the rules do not need print as notes after them."""
    root = make_project(tmp_path, "mini", source=REPO / "tests" / "fixtures" / "project")
    sheet = root / "cards" / "mini" / "sheet.md"
    sheet.write_text("".join(f"## {title}\n\n" + "".join(f"- {item}\n" for item in items) + "\n"
                             for title, items in SHORT_SECTIONS.items()))
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code == 0, result.output
    assert "warning[rules" not in " ".join(result.output.split())
    found = panels(root / "output" / "mini" / "rules.pdf")[1:]
    assert not any("(continued)" in p.text for p in found)
    for title, items in SHORT_SECTIONS.items():
        holding = {n for n, p in enumerate(found) for item in items if squash(item) in squash(p.text)}
        assert len(holding) == 1, (title, holding)
        assert all(squash(item) in squash(found[min(holding)].text) for item in items), title
    texts = [n for n, p in enumerate(found) if p.text != "Notes"]
    assert texts == list(range(len(texts))) and len(texts) <= len(SHORT_SECTIONS)
    assert sum(p.text == "Notes" for p in found) == len(found) - len(texts)


def test_declared_spare_panels_print_their_content_without_a_warning(tmp_path):
    root = make_project(tmp_path, "mini", source=REPO / "tests" / "fixtures" / "project")
    sheet = root / "cards" / "mini" / "sheet.md"
    sheet.write_text(sheet.read_text() + "\n" + "{{ spare_panel('notes') }}\n" * 13 + "{{ spare_panel('components') }}\n")
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "warning[rules" not in said and "+ 14 spare as sheet.md asks;" in said, said
    found = panels(root / "output" / "mini" / "rules.pdf")
    assert found[-1].text.startswith("Components")
    assert sum(p.text == "Notes" for p in found) == 13


def test_a_panel_left_under_half_full_is_reported_with_its_section(tmp_path):
    """A short first section, then a section whose table fits a panel only on its own: the
    table is not cut to fill the first panel, and the build says which panel is left under
    half full and the section it starts in."""
    root = make_project(tmp_path, "mini", source=REPO / "tests" / "fixtures" / "project")
    rows = "\n".join(f"| step {i} | an effect long enough to take two lines of its column, row {i} |" for i in range(5))
    (root / "cards" / "mini" / "sheet.md").write_text(
        "## Goal\n\n" + "Win the game before the others do. " * 4 + "\n\n## Steps\n\n| Step | Effect |\n|---|---|\n"
        + rows + "\n\n## After\n\nThe next player goes on.\n")
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert re.search(r"warning\[rules-underfill\].*panel 2 \(Goal\) is \d+ % full, under half", said), said
    found = panels(root / "output" / "mini" / "rules.pdf")
    assert "Goal" in found[1].text and "step" not in found[1].text
    assert [n for n, p in enumerate(found) if "step 0" in p.text] == [n for n, p in enumerate(found) if "step 4" in p.text]


def test_the_build_reports_the_type_size(tmp_path):
    root = make_project(tmp_path, "mini", source=REPO / "tests" / "fixtures" / "project")
    result = run_cli("build", "mini", "--root", str(root))
    assert re.search(r"rules\.pdf of mini: type \d+(\.\d+)? pt \(the largest that fits", result.output)


def test_a_table_wider_than_a_panel_is_diagnosed_on_its_line(tmp_path):
    root = make_project(tmp_path, "mini", source=REPO / "tests" / "fixtures" / "project")
    sheet = root / "cards" / "mini" / "sheet.md"
    wide = "| " + " | ".join(f"Heading{n}" for n in range(9)) + " |\n|" + "---|" * 9 + "\n| " + " | ".join(
        "Nevermore" for _ in range(9)) + " |\n"
    sheet.write_text(sheet.read_text() + "\n\n" + wide)
    before = (root / "output").exists()
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code != 0
    line = len(sheet.read_text().splitlines()) - 2
    assert re.search(rf"sheet\.md:{line}(:\d+)?: error\[rules-table-too-wide\]: table 'Heading0 \| Heading1", result.output), result.output
    assert not (root / "output" / "mini" / "rules.pdf").exists() or before


def sentences_of(markdown: str, game) -> list[str]:
    """The sentences of every paragraph and list item (not tables) of rendered Markdown;
    an icon token becomes the icon's text (a text icon) or nothing (a picture)."""
    out = []

    def walk(tokens):
        for tok in tokens:
            if tok["type"] in ("paragraph", "block_text"):
                if [c["type"] for c in tok["children"]] == ["strong"]:
                    continue  # a table's caption (shortened under a heading that says it)
                text = re.sub(r"\{([\w-]+)\}", lambda m: f" {getattr(game.icons.get(m.group(1)), 'text', None) or ''} ",
                              _plain(tok["children"]))
                out.extend(s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z])", " ".join(text.split())) if len(s.split()) >= 4)
            elif tok["type"] in ("list", "list_item", "block_quote"):
                walk(tok["children"])

    walk(PARSE(markdown))
    return out


@pytest.mark.parametrize("slug", SLUGS)
def test_every_sentence_is_read_whole_on_one_panel_under_a_heading(all_built, sheets, slug):
    game, _ = load_game(all_built / "cards" / slug)
    markdown, _ = render_source(game, "sheet")
    texts = [squash(p.text) for p in sheets[slug]]
    for sentence in sentences_of(markdown, game):
        assert any(squash(sentence) in t for t in texts), f"{slug}: a sentence runs across panels: {sentence!r}"
    for n, panel in enumerate(sheets[slug][1:], 1):  # the Gate sheet's model: every panel has its heading
        first = panel.lines()[0]
        assert all("Serif" in c["fontname"] for c in first), \
            f"{slug} panel {n} does not start with a heading: {''.join(c['text'] for c in first)!r}"


def test_a_table_too_wide_for_the_rulebook_page_is_diagnosed_not_a_traceback(tmp_path):
    root = make_project(tmp_path, "mini", source=REPO / "tests" / "fixtures" / "project")
    book = root / "cards" / "mini" / "rulebook.md"
    wide = "| " + " | ".join(f"Column{n}" for n in range(30)) + " |\n|" + "---|" * 30 + "\n| " + " | ".join(
        "Everywhere" for _ in range(30)) + " |\n"
    book.write_text(book.read_text() + "\n\n" + wide)
    line = len(book.read_text().splitlines()) - 2
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code != 0
    assert re.search(rf"rulebook\.md:{line}(:\d+)?: error\[rules-table-too-wide\]", result.output), result.output
