"""reference.pdf: the helper sheet fits one page per player, the almanac lists every card
once with its quantity, and the helper sheet's tables match the data."""
from __future__ import annotations

import re

import pdfplumber
import pytest

from cardforge.sources.load import load_game
from cardforge.documents.reference import helper_markdown
from tests.conftest import EVERY, build_only, make_project
from tests.pdftext import page_texts




def pages_text(path, left_half=False):
    return [" ".join(text.split()) for text in page_texts(path, left_half)]


@pytest.mark.parametrize("slug", EVERY)
def test_almanac_lists_every_card_once_with_its_quantity(all_built, slug):
    game, _ = load_game(all_built / "cards" / slug)
    pages = pages_text(all_built / "output" / slug / "reference.pdf")
    start = next(i for i, t in enumerate(pages) if t.startswith("Card almanac"))
    end = next(i for i, t in enumerate(pages) if t.startswith("Index"))
    almanac = " ".join(pages[start:end])
    for card in game.cards:
        name = " ".join(card.name.split())
        entry = re.compile(rf"(?<![\w']){re.escape(name)}†? × {card.quantity}(?!\d)")  # † : a designed name
        assert len(entry.findall(almanac)) == 1, (slug, name, card.quantity)
    index = " ".join(pages[end:])
    for card in game.cards:
        assert " ".join(card.name.split()) in index


@pytest.mark.parametrize("slug", EVERY)
def test_helper_sheet_is_printed_once_per_pack_request_and_its_tables_match_the_data(all_built, slug):
    game, _ = load_game(all_built / "cards" / slug)
    pages = pages_text(all_built / "output" / slug / "reference.pdf")
    left = pages_text(all_built / "output" / slug / "reference.pdf", left_half=True)
    copies = (game.data.get("reference") or {}).get("helper_copies", 1)
    title = " ".join(f"{game.title} · helper sheet".split())
    helper = [i for i, t in enumerate(left) if t.startswith(title)]
    assert helper == list(range(copies))
    page = pages[0]
    if copies == 1 and game.meta["players"]["max"] > 1:
        assert "Print one per player." in page
    words = set(page.replace(",", " ").replace(";", " ").split())
    for phase in game.data.get("turn") or []:
        assert phase["name"].split()[0] in page
    markdown = helper_markdown(game)
    for row in re.findall(r"^\| (.+) \|$", markdown, re.M):  # every word of every table cell is printed
        for cell in row.split(" | "):
            if set(cell) <= {"-", "|", " "}:
                continue
            for word in re.sub(r"\{[a-z0-9-]+\}|\*\*?|\\\|", " ", cell).replace(",", " ").replace(";", " ").split():
                assert word in words or word in page, (slug, cell, word)


def test_a4_reference(tmp_path):
    root = make_project(tmp_path, "gate")
    build_only(root, "gate", "reference.pdf", paper="a4")
    with pdfplumber.open(root / "output/gate/reference.pdf") as pdf:
        assert (round(pdf.pages[0].width), round(pdf.pages[0].height)) == (595, 842)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_short_helper_sheet_is_set_large_for_its_page_and_a_long_one_still_fits_it(tmp_path, paper):
    import shutil

    from tests.conftest import FIXTURES

    short = tmp_path / "short"
    shutil.copytree(FIXTURES / "tiers", short)  # a starter pack: two turn steps and an end
    long = make_project(tmp_path / "long", "gate")
    for root, slug in ((short, "tiers"), (long, "gate")):
        build_only(root, slug, "reference.pdf", paper=paper)
        with pdfplumber.open(root / "output" / slug / "reference.pdf") as pdf:
            page = pdf.pages[0]
            assert page.extract_text().startswith(f"{'Tiers' if slug == 'tiers' else 'Gate'} · helper")
            body = [c for c in page.chars if c["top"] < page.height - 40]  # not the footer
            sizes = {round(c["size"], 1) for c in body if "Bold" not in c["fontname"] and "Serif" not in c["fontname"]}
            assert "Card almanac" in pdf.pages[1].extract_text()  # the helper sheet is one page
            if slug == "tiers":
                assert max(sizes) == 14.0  # the largest type: it fills more of its page than at 9 pt
            else:
                assert 6.0 <= max(sizes) <= 14.0
                assert max(c["bottom"] for c in body) > 0.6 * page.height  # a full sheet fills its page


@pytest.mark.parametrize("slug", EVERY)
def test_a_zero_prints_in_the_almanac_as_any_other_number(slug, all_built):
    """A field set to 0 (Arkham's gate modifier, Gate's income) is a value, not a blank: the
    almanac prints it (0 == False in Python, which once hid it)."""
    from cardforge.almanac.display import formats, shown

    game, _ = load_game(all_built / "cards" / slug)
    for card in game.cards:
        printed = {s.key for s in shown(card, game)}
        for key in formats(game, card.type):
            if card.data.get(key) == 0 and card.data.get(key) is not False:
                assert key in printed, (card.name, key)
                assert "0" in next(s.text for s in shown(card, game) if s.key == key)
