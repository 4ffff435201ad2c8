"""Type a print designer accepts, on every card of every pack: icons stay with the operator or
punctuation beside them, paragraphs do not end on a lone word where rewrapping avoids it,
the title is never smaller than the body, nothing prints under 6 pt."""
from __future__ import annotations

import pdfplumber
import pytest

from cardforge.build import Project, compile_game
from cardforge.checks.layoutfit import faces
from cardforge.sources.load import find_packs
from cardforge.resolve import face as card_render
from cardforge.resolve import text
from cardforge.render.deck import DeckOptions, card_groups, sheet_for
from tests.conftest import REPO
from tests.pdftext import page_chars

SLUGS = [p.name for p in find_packs(REPO / "cards")]


def symbolic(piece) -> bool:
    return piece.kind == "icon" or piece.icon is not None or not any(ch.isalnum() for ch in piece.value)


def all_fits(slug):
    result = compile_game(REPO / "cards" / slug, Project(REPO))
    game, layouts = result.game, result.layouts
    for card in game.cards:
        for side, face, ctx in faces(card, game, layouts):
            yield card, side, card_render.fit_face(face, ctx, game), game




@pytest.mark.parametrize("slug", SLUGS)
def test_no_wrapped_line_starts_with_an_icon_operator_or_punctuation(slug):
    """A wrapped line (not the first of its paragraph) never begins with a symbolic word, so
    "{roll} < {speed}" is never split and "{speed}." never stands on a line of its own.
    Each paragraph is rewrapped alone at the size the card prints it (breaking does not
    cross hard line breaks), so the lines measured are the printed ones."""
    bad = []
    for card, side, fits, game in all_fits(slug):
        for f in fits:
            _, _, bw, bh = card_render.text_box(f.element, f.box)
            if f.element.rotate in (90, 270):
                bw = bh
            for para in f.text.split("\n"):
                _, _, unrunted = text._wrap(text._words(text.parse(para)), f.element.style, f.block.size, bw,
                                            game.icons, set())
                lines = unrunted()  # as a fit that fits prints them
                for line in lines[1:]:
                    words = [p for p in line.pieces if p.value != " "]
                    if words and symbolic(words[0]):
                        bad.append((card.name, side, f.element.name, [p.value for p in line.pieces]))
    assert bad == []


def test_a_lone_last_word_is_rewrapped_at_the_same_size_and_line_count():
    style = text.TextStyle(size=10, min_size=10, align="left")
    sample = "Draw two cards, then discard one of them and keep the other one."
    width = text.fontmetrics.width("Draw two cards, then discard one of them and keep the other", "sans", 10) + 1
    words = text._words(text.parse(sample))
    greedy, _, _ = text._wrap(words, style, 10, width, {}, set())
    assert len(greedy[-1].pieces) == 1, "the sample must end on a lone word when wrapped greedily"
    block = text.fit(sample, style, width, 200, {})
    assert block.size == 10 and len(block.lines) == len(greedy)
    assert len([p for p in block.lines[-1].pieces if p.value != " "]) >= 2
    assert all(line.width <= width + 0.01 for line in block.lines)


@pytest.mark.parametrize("slug", SLUGS)
def test_title_is_never_smaller_than_the_body(slug):
    smaller = []
    for card, side, fits, _ in all_fits(slug):
        titles = [f.block.size for f in fits if card_render.role(f.element) == "title"]
        bodies = [f.block.size for f in fits if card_render.role(f.element) == "body"]
        if titles and bodies and min(titles) < max(bodies):
            smaller.append((card.name, side, min(titles), max(bodies)))
    assert smaller == []


@pytest.mark.parametrize("slug", SLUGS)
def test_no_card_text_in_the_deck_is_under_6pt(all_built, slug):
    """Every character printed inside a card slot of the deck is 6 pt or larger (the sheet's
    margin ruler and label, outside the card grid, are not card text)."""
    built = Project(all_built)
    compiled = compile_game(built.cards / slug, built)
    game, layouts = compiled.game, compiled.layouts
    small = []
    pages = page_chars(built.output / slug / "deck.pdf")
    page_no = 0
    for key, cards in card_groups(game, layouts).items():
        sheet = sheet_for(key, DeckOptions())
        gx, gy, gw, gh = sheet.grid
        for _ in range(0, len(cards), sheet.per_sheet):
            for page in pages[page_no:page_no + 2]:
                ph = page["height"]
                for ch in page["chars"]:
                    inside = gx <= ch["x0"] <= gx + gw and ph - gy - gh <= ch["top"] <= ph - gy
                    if inside and ch["size"] < 6 - 0.01:
                        small.append((page_no, ch["text"], round(ch["size"], 2)))
            page_no += 2
    assert small == []


def test_small_and_big_spans_print_at_their_sizes_and_small_type_is_reported(tmp_path):
    import json
    import shutil

    from cardforge.export.faces import face_pdf
    from tests.conftest import FIXTURES, run_cli

    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    cards = root / "cards/mini/cards.yaml"
    cards.write_text(cards.read_text().replace('text: "Gain 1 mana. {sun}"',
                                               'text: "Gain <big>1</big> mana. <small>Once a turn.</small> {sun}"'))
    result = compile_game(root / "cards/mini", Project(root))
    card = next(c for c in result.game.cards if c.name == "Sun Knight")
    face_pdf([card], result.game, result.layouts, tmp_path / "f.pdf", bleed=False)
    with pdfplumber.open(tmp_path / "f.pdf") as pdf:
        sizes = {ch["text"]: round(ch["size"], 2) for ch in pdf.pages[0].chars if ch["top"] > 20 * 72 / 25.4}
    assert sizes["G"] == 10 and sizes["1"] == 12.5 and sizes["O"] == 8  # the mini body is 10 pt
    layout = root / "layouts/mini.yaml"
    layout.write_text(layout.read_text().replace("field: text, size: 10pt, min_size: 7pt", "field: text, size: 7pt, min_size: 7pt"))
    out = run_cli("check", "mini", "--root", str(root), "--format", "json")
    small = [d for d in json.loads(out.stdout)["diagnostics"] if d["code"] == "text-too-small"]
    assert len(small) == 1 and small[0]["card"] == "Sun Knight" and "5.6 pt" in small[0]["message"]
    assert "`text`" in small[0]["message"]
