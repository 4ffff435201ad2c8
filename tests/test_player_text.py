"""Player-facing pages: no words for the pack's maintainers in any PDF, one mark (†) for
designed values explained where it is used, player counts in words, the almanac printing
only the fields its card type labels, Markdown hazards caught on their line, charts whose
series stay apart in grey with legends inside the page."""
from __future__ import annotations

import re
from pathlib import Path

import pdfplumber
import pytest

from cardforge.sources.load import find_packs, load_game
from cardforge.almanac.charts import MIN_GREY_STEP, PALETTE, luminance, series, series_colours
from cardforge.documents.playertext import players
from tests.conftest import REPO, make_project, run_cli
from tests.pdfpanels import panels
from tests.pdftext import page_chars, page_texts

SLUGS = [p.name for p in find_packs(REPO / "cards")]
MINI = REPO / "tests" / "fixtures" / "project"
PLAYER_PDFS = ["rules.pdf", "rulebook.pdf", "reference.pdf"]
MAINTAINER = re.compile(r"\bseeds?\b|ERRATA\.md|errata\.ya?ml|\bprovisional\b|\bthe pack's\b|\b[a-z]+_[a-z]+\b|"
                        r"\bTODO\b", re.I)
RAW = re.compile(r"\b(?:True|False)\b")  # a raw YAML boolean, as in "one time True"
MM = 72 / 25.4


def pdf_pages(path, left_half: bool = False) -> list[str]:
    """Each page's text (its left half's with ``left_half``), spaces collapsed; a PDF is read
    once per process (the tests read the shared build's PDFs, which nothing changes)."""
    return [" ".join(text.split()) for text in _pages(str(path), left_half)]


def _pages(path: str, left_half: bool) -> list[str]:
    """Each page's text as pdfplumber lays it out (lines apart)."""
    return page_texts(Path(path), left_half)


@pytest.mark.parametrize("name", PLAYER_PDFS)
@pytest.mark.parametrize("slug", SLUGS)
def test_no_maintainer_words_in_player_facing_pdfs(all_built, slug, name):
    game, _ = load_game(all_built / "cards" / slug)
    own = {t.lower() for t in game.glossary} | {c.name.lower() for c in game.cards}
    for n, text in enumerate(pdf_pages(all_built / "output" / slug / name), 1):
        bad = [m.group(0) for m in MAINTAINER.finditer(text) if m.group(0).lower() not in own]
        bad += RAW.findall(text)
        assert not bad, f"{slug}/{name} page {n}: {bad}"


@pytest.mark.parametrize("slug", SLUGS)
def test_designed_values_carry_one_mark_explained_on_every_output(all_built, slug):
    game, _ = load_game(all_built / "cards" / slug)
    out = all_built / "output" / slug
    rulebook, reference = pdf_pages(out / "rulebook.pdf"), pdf_pages(out / "reference.pdf")
    sheet = panels(out / "rules.pdf")
    designed = any(card.provisional for card in game.cards)
    for text in rulebook + reference + [p.text for p in sheet]:
        assert "*" not in re.sub(r"\*\*", "", text) or "×" in text  # no asterisk mark left
    if designed:
        assert "† designed or restored for this edition" in rulebook[0]  # the cover
        assert "† designed or restored for this edition" in " ".join(sheet[0].text.split())  # the title cell
        assert "† designed or restored for this edition" in pdf_pages(out / "reference.pdf", left_half=True)[0]  # the helper sheet
        start = next(i for i, t in enumerate(reference) if t.startswith("Card almanac"))
        almanac = " ".join(reference[start:])  # its note, then charts and odds, then the cards
        assert "† designed or restored for this edition" in almanac and "†" in almanac.split("edition", 1)[1]


def test_player_counts_agree_in_number():
    assert players({"players": {"min": 1, "max": 1}}) == "1 player"
    assert players({"players": {"min": 2, "max": 2}}) == "2 players"
    assert players({"players": {"min": 1, "max": 5}}) == "1–5 players"


@pytest.mark.parametrize("slug", SLUGS)
def test_covers_print_the_player_count_in_words(all_built, slug):
    game, _ = load_game(all_built / "cards" / slug)
    expected = players(game.meta)
    cover = pdf_pages(all_built / "output" / slug / "rulebook.pdf")[0]
    title_cell = panels(all_built / "output" / slug / "rules.pdf")[0].text
    assert expected in cover and expected in title_cell
    assert not re.search(r"\b([2-9]|\d\d) player\b", cover + " " + title_cell)


@pytest.mark.parametrize("slug", SLUGS)
def test_helper_sheet_printed_once_saying_print_one_per_player(all_built, slug):
    game, _ = load_game(all_built / "cards" / slug)
    pages = pdf_pages(all_built / "output" / slug / "reference.pdf", left_half=True)
    helper = [t for t in pages if t.startswith(f"{game.title} · helper sheet")]
    assert len(helper) == (game.data.get("reference") or {}).get("helper_copies", 1)
    assert ("Print one per player." in helper[0]) == (game.meta["players"]["max"] > 1 and len(helper) == 1)


@pytest.mark.parametrize("slug", SLUGS)
def test_rulebook_contents_has_a_hierarchy_and_no_caption_repeats_its_heading(all_built, slug):
    with pdfplumber.open(all_built / "output" / slug / "rulebook.pdf") as pdf:
        contents = pdf.pages[1]
        lines = {}
        for w in contents.extract_words():
            lines.setdefault(round(w["top"]), []).append(w)
        lefts = sorted({round(min(w["x0"] for w in ws)) for top, ws in lines.items() if top > 80})
        assert len(lefts) >= 2, "contents entries all at one level"
    for page in _pages(str(all_built / "output" / slug / "rulebook.pdf"), False)[2:]:
        rows = [r.strip() for r in page.split("\n") if r.strip()]
        for a, b in zip(rows, rows[1:]):
            assert a != b, f"{slug}: {a!r} printed twice in a row"
    for panel in panels(all_built / "output" / slug / "rules.pdf"):
        rows = ["".join(c["text"] for c in line) for line in panel.lines()]
        for a, b in zip(rows, rows[1:]):
            assert a != b, f"{slug} rules sheet: {a!r} printed twice in a row"


def test_almanac_prints_only_labelled_fields_in_their_format(tmp_path):
    root = make_project(tmp_path, "mini", source=MINI)
    game_yaml = root / "cards" / "mini" / "game.yaml"
    text = game_yaml.read_text()
    text = text.replace("  hero:\n    label: Hero\n", "  hero:\n    label: Hero\n"
                        "    almanac: {fields: {power: {label: Might, format: roman, unit: stars}}}\n")
    game_yaml.write_text(text)
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code == 0, result.output
    pages = pdf_pages(root / "output" / "mini" / "reference.pdf")
    almanac = " ".join(t for t in pages if "Card almanac" in t)
    assert "Sun Knight × 1 — Might III stars" in almanac
    assert "Moon Witch × 1 — Might II stars" in almanac
    assert "cost" not in almanac.lower().replace("costs", "")  # the spell's cost has no label: not printed
    rulebook = " ".join(pdf_pages(root / "output" / "mini" / "rulebook.pdf"))
    assert "Might III stars" in rulebook


def test_internal_words_in_a_rules_source_are_flagged_on_their_line(tmp_path):
    root = make_project(tmp_path, "mini", source=MINI)
    sheet = root / "cards" / "mini" / "sheet.md"
    sheet.write_text(sheet.read_text() + "\n\nThe seed does not say; see ERRATA.md. Cost is provisional, per hero_power.\n")
    line = len(sheet.read_text().splitlines())
    result = run_cli("check", "mini", "--root", str(root))
    found = re.findall(rf"sheet\.md:{line}:(\d+): warning\[rules-internal-text\]: '([^']+)'", result.output)
    assert {w for _, w in found} == {"seed", "ERRATA.md", "provisional", "hero_power"}, result.output


def test_a_line_that_markdown_would_turn_into_a_list_item_is_an_error_on_its_line(tmp_path):
    root = make_project(tmp_path, "mini", source=MINI)
    book = root / "cards" / "mini" / "rulebook.md"
    book.write_text(book.read_text() + "\n\nShe has {{ 1 }} + {{ 1 }}\n+ 2 Gold to spend.\n\nAnd\n{{ 3 }}. more\n")
    lines = book.read_text().splitlines()
    result = run_cli("check", "mini", "--root", str(root))
    assert result.exit_code != 0
    for n, text in enumerate(lines, 1):
        if text.startswith("+ 2") or text.startswith("{{ 3 }}."):
            assert f"rulebook.md:{n}:1: error[rules-markdown-hazard]" in result.output, result.output
    assert result.output.count("rules-markdown-hazard") == 2


def test_a_list_after_a_colon_or_a_wrapped_list_item_is_no_hazard(tmp_path):
    root = make_project(tmp_path, "mini", source=MINI)
    book = root / "cards" / "mini" / "rulebook.md"
    book.write_text(book.read_text() + "\n\nYou may:\n- play a card\n- pass,\n  then\n- rest\n")
    result = run_cli("check", "mini", "--root", str(root))
    assert "rules-markdown-hazard" not in result.output


@pytest.mark.parametrize("slug", SLUGS)
def test_chart_series_stay_apart_in_grey_and_legends_sit_inside_the_page(all_built, slug):
    game, _ = load_game(all_built / "cards" / slug)
    for spec in (game.data.get("reference") or {}).get("charts") or []:
        _, stacks, _ = series(game, spec)
        greys = sorted(luminance(c) for c in series_colours(game, stacks))
        assert all(b - a >= MIN_GREY_STEP - 1e-9 for a, b in zip(greys, greys[1:])), (spec["title"], greys)
    for n, page in enumerate(page_chars(all_built / "output" / slug / "reference.pdf"), 1):
        for c in page["chars"]:  # every printed char, so every word, inside the 6 mm margins
            if c["text"].strip():
                assert c["x0"] >= 6 * MM and c["x1"] <= page["width"] - 6 * MM, (slug, n, c["text"])
                assert c["top"] >= 6 * MM and c["bottom"] <= page["height"] - 6 * MM, (slug, n, c["text"])


def test_palette_greys_are_apart():
    greys = sorted(luminance(c) for c in PALETTE)
    assert all(b - a >= MIN_GREY_STEP for a, b in zip(greys, greys[1:]))


def test_a_chart_with_more_series_than_colours_is_diagnosed_on_its_line(tmp_path):
    root = make_project(tmp_path, "gatekeeper")
    game_yaml = root / "cards" / "gatekeeper" / "game.yaml"
    text = game_yaml.read_text()
    assert "      stack: element\n" in text
    game_yaml.write_text(text.replace("      stack: element\n", "      stack: name\n"))
    line = next(n for n, t in enumerate(game_yaml.read_text().splitlines(), 1) if "Witches by spellpower" in t)
    result = run_cli("check", "gatekeeper", "--root", str(root))
    assert re.search(rf"game\.yaml:{line}(:\d+)?: error\[chart-too-many-series\]: chart 'Witches by spellpower and "
                     rf"element' has 44 series", result.output), result.output
