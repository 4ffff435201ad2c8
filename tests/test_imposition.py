"""Imposition a desktop printer can print: crop marks, ruler and label at least 5 mm inside the
paper edge, no mark crossing a card, the ruler or the label; 3 x 3 poker cards a sheet; round
tokens apart with bleed between them; tight sheets said so, with the choices."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from cardforge.build import Project, compile_game
from cardforge.render.deck import DeckOptions, card_groups, sheet_for
from cardforge.render.sheet import PRINTABLE, TOKEN_GAP, impose
from tests.conftest import build_only, make_project, run_cli
from tests.conftest import SHIPPED as SLUGS

MM = 72 / 25.4
POKER = (63.5 * MM, 88.9 * MM)
EPS = 0.01


def crosses(segment, box) -> bool:
    """Whether an axis-parallel segment (x0, y0, x1, y1) enters the open box (x0, y0, x1, y1)."""
    sx0, sy0, sx1, sy1 = min(segment[0], segment[2]), min(segment[1], segment[3]), \
        max(segment[0], segment[2]), max(segment[1], segment[3])
    bx0, by0, bx1, by1 = box
    return sx0 < bx1 - EPS and sx1 > bx0 + EPS and sy0 < by1 - EPS and sy1 > by0 + EPS


def furniture(root: Path, slug: str, options: DeckOptions):
    """For the first sheet of each card size: (sheet, marks, ruler lines, label chars), all in
    PDF coordinates (lower-left origin), pt."""
    project = Project(root)
    compiled = compile_game(project.cards / slug, project)
    page_no = 0
    with pdfplumber.open(project.output / slug / "deck.pdf") as pdf:
        for key, cards in card_groups(compiled.game, compiled.layouts).items():
            sheet = sheet_for(key, options)
            page = pdf.pages[page_no]
            height = page.height
            lines = [(ln["x0"], height - ln["top"], ln["x1"], height - ln["bottom"], ln["linewidth"])
                     for ln in page.lines if ln["stroking_color"] in ((0, 0, 0), (0.0, 0.0, 0.0), [0])]
            marks = [ln[:4] for ln in lines if abs(ln[4] - 0.25) < 1e-3]
            ruler = [ln[:4] for ln in lines if abs(ln[4] - 0.5) < 1e-3]
            trims = []
            for i in range(min(len(cards), sheet.per_sheet)):
                x, y = sheet.slot(i)
                trims.append((x, y, x + sheet.card[0], y + sheet.card[1]))
            chars = [(c["x0"], height - c["bottom"], c["x1"], height - c["top"]) for c in page.chars
                     if not any(crosses((c["x0"], height - c["bottom"], c["x1"], height - c["top"]), t) for t in trims)]
            yield sheet, marks, ruler, chars, trims
            page_no += 2 * -(-len(cards) // sheet.per_sheet)


def check_printable(root: Path, slug: str, options: DeckOptions):
    seen = 0
    for sheet, marks, ruler, chars, trims in furniture(root, slug, options):
        pw, ph = sheet.paper
        assert ruler, "every sheet has its scale check"
        assert chars, "every sheet has its label"
        if sheet.marks:
            assert len(marks) == 2 * (len(sheet.cut_lines()[0]) + len(sheet.cut_lines()[1]))
        for x0, y0, x1, y1 in marks + ruler + chars:
            assert min(x0, x1) >= PRINTABLE - EPS and max(x0, x1) <= pw - PRINTABLE + EPS, (slug, x0, x1)
            assert min(y0, y1) >= PRINTABLE - EPS and max(y0, y1) <= ph - PRINTABLE + EPS, (slug, y0, y1)
        for mark in marks:
            assert not any(crosses(mark, t) for t in trims), (slug, mark)
            for x0, y0, x1, y1 in ruler + chars:  # grown by the mark's half width
                assert not crosses(mark, (x0 - 0.2, min(y0, y1) - 0.2, x1 + 0.2, max(y0, y1) + 0.2)), (slug, mark)
        for line in ruler:
            assert not any(crosses(line, t) for t in trims)
        seen += 1
    assert seen


@pytest.mark.parametrize("slug", SLUGS)
def test_marks_ruler_and_label_are_printable_on_letter(all_built, slug):
    check_printable(all_built, slug, DeckOptions())


@pytest.mark.parametrize("slug", SLUGS)
def test_marks_ruler_and_label_are_printable_on_a4(a4_built, slug):
    check_printable(a4_built, slug, DeckOptions(paper="a4"))


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_poker_cards_stay_three_by_three(paper):
    sheet = impose(paper, POKER)
    assert (sheet.cols, sheet.rows, sheet.landscape) == (3, 3, False)
    if paper == "a4":  # room for gutters carrying bleed both ways, and marks of full length
        assert min(sheet.gutter) >= 2 * MM and sheet.tight() == []
    else:  # Letter is 6.35 mm too short: rows touch, and the build says so
        assert sheet.gutter[0] >= 2 * MM and sheet.gutter[1] == 0 and sheet.tight()


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_fit_marks_gives_full_bleed_gutters_and_full_marks(paper):
    sheet = impose(paper, POKER, fit="marks")
    assert sheet.gutter == pytest.approx((6 * MM, 6 * MM)) and sheet.tight() == []
    assert sheet.per_sheet >= 6


@pytest.mark.parametrize("size", [30, 44])
def test_round_tokens_have_a_gap_with_bleed_between_them(size):
    for paper in ("letter", "a4"):
        sheet = impose(paper, (size * MM, size * MM), shape="circle")
        assert min(sheet.gutter) >= TOKEN_GAP - EPS
        for i in range(sheet.per_sheet):
            assert min(sheet.bleeds(i)) >= TOKEN_GAP / 2 - EPS
            assert min(sheet.bleeds(i, back=True)) >= TOKEN_GAP / 2 - EPS


def test_a_tight_sheet_is_said_with_the_choices(tmp_path):
    root = make_project(tmp_path, "through-the-gate")
    result = run_cli("build", "through-the-gate", "--root", str(root))
    assert result.exit_code == 0
    assert "0 warnings" in result.stderr and "warning[sheet-tight]" not in result.stderr  # a note, not a warning
    assert "no bleed between cards" in result.stderr and "--fit marks" in result.stderr and "--paper a4" in result.stderr
    result = run_cli("build", "through-the-gate", "--root", str(root), "--fit", "marks")
    assert result.exit_code == 0 and "sheet-tight" not in result.stderr
    with pdfplumber.open(root / "output/through-the-gate/deck.pdf") as pdf:
        assert len(pdf.pages) == 2 * -(-109 // impose("letter", POKER, fit="marks").per_sheet)


def test_one_sided_fronts_and_backs_match_the_duplex_deck(tmp_path):
    root = make_project(tmp_path, "gate")
    build_only(root, "gate", "deck.pdf", "one-sided", export=["one-sided"])
    out = root / "output/gate"
    with pdfplumber.open(out / "deck.pdf") as deck, pdfplumber.open(out / "one-sided/deck-fronts.pdf") as fronts, \
            pdfplumber.open(out / "one-sided/deck-backs.pdf") as backs:
        assert len(fronts.pages) == len(backs.pages) == len(deck.pages) // 2
        for k in range(len(fronts.pages)):
            def card_words(page):  # upright text: the cards (the page label and ruler run along the margin)
                return [w["text"] for w in page.extract_words() if w["upright"]]
            assert card_words(fronts.pages[k]) == card_words(deck.pages[2 * k])
            assert card_words(backs.pages[k]) == card_words(deck.pages[2 * k + 1])
            # the backs carry their own crop marks, for cutting a one-sided print
            assert len([ln for ln in backs.pages[k].lines if abs(ln["linewidth"] - 0.25) < 1e-3]) == \
                len([ln for ln in fronts.pages[k].lines if abs(ln["linewidth"] - 0.25) < 1e-3]) > 0
