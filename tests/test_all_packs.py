"""Every game pack in cards/: checks clean of errors, builds, and prints each card in its slot."""
from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from cardforge.build import Project, compile_game
from cardforge.model import DESIGNED_MARK
from cardforge.render.deck import DeckOptions, copies
from cardforge.render.sheet import impose
from tests.conftest import EVERY, REPO, SHIPPED, run_cli


def prints_name(layout) -> bool:
    """Whether a layout's front shows the card's name."""
    return any(el.field == "name" or "card.name" in (el.template or "") for el in layout.front.elements)


def in_order(needle: list[str], words: list[str]) -> bool:
    """``needle`` occurs in ``words`` in order, other words (a cost, a badge) allowed between."""
    it = iter(words)
    return all(any(w == n for w in it) for n in needle)




def test_every_shipped_pack_checks_without_errors():
    result = run_cli("check", *SHIPPED, "--root", str(REPO), "--format", "json", "--no-cache")
    found = json.loads(result.stdout)
    errors = [d for d in found["diagnostics"] if d["severity"] == "error"]
    assert errors == [] and result.exit_code == 0


@pytest.mark.parametrize("slug", EVERY)
def test_each_card_is_printed_in_its_slot(all_built, slug):
    built = Project(all_built)
    compiled = compile_game(built.cards / slug, built)
    game, layouts = compiled.game, compiled.layouts
    groups: dict = {}
    for card in copies(game):
        layout = layouts.by_type[card.type]
        groups.setdefault((layout.size, layout.shape, layout.bleed), []).append(card)
    path = built.output / slug / "deck.pdf"
    pdf = pdfium.PdfDocument(str(path))  # PDFium reads a sheet's text many times faster than pdfplumber
    try:
        page_no = 0
        for (size, shape, bleed), cards in groups.items():
            sheet = impose(DeckOptions().paper, size, bleed=bleed, shape=shape)
            for start in range(0, len(cards), sheet.per_sheet):
                front = pdf[page_no]
                # Letter, in the orientation that holds the most cards of this size
                assert front.get_size() == pytest.approx(sheet.paper, abs=0.01)
                assert sorted(sheet.paper) == pytest.approx([612, 792], abs=0.01)
                text = front.get_textpage()
                for i, card in enumerate(cards[start:start + sheet.per_sheet]):
                    if not prints_name(layouts.by_type[card.type]):
                        continue  # tokens showing only a symbol
                    x, y = sheet.slot(i)  # the slot's lower-left corner, PDF coordinates
                    words = text.get_text_bounded(x, y, x + size[0], y + size[1]).replace(DESIGNED_MARK, "").split()
                    assert in_order(card.name.split(), words), (slug, card.name, " ".join(words)[:120])  # a designed name ends in †
                text.close()
                front.close()
                page_no += 2
        assert page_no == len(pdf)
    finally:
        pdf.close()
    reader = PdfReader(path)
    for page in reader.pages:
        for font in page["/Resources"].get("/Font", {}).values():
            assert "/FontFile2" in font.get_object()["/FontDescriptor"].get_object()


@pytest.mark.parametrize("name", ["deck.pdf", "rules.pdf", "rulebook.pdf", "reference.pdf"])
def test_every_pdf_embeds_its_fonts(all_built, name):
    for slug in EVERY:
        if not (all_built / "output" / slug / name).exists():
            assert name == "rulebook.pdf" and not (all_built / "cards" / slug / "rulebook.md").exists(), (slug, name)
            continue  # a pack without rulebook.md has no rulebook
        reader = PdfReader(all_built / "output" / slug / name)
        seen = 0
        for page in reader.pages:
            for font in page["/Resources"].get("/Font", {}).values():
                font = font.get_object()
                seen += 1
                descriptor = font.get("/FontDescriptor")
                assert descriptor is not None and "/FontFile2" in descriptor.get_object(), (slug, name, font["/BaseFont"])
        assert seen, (slug, name)
