"""The rulebook shows its cards: a components page (one card of each kind, each distinct back)
and a card anatomy figure per card type, a real card drawn by the deck's renderer with a
numbered callout per printed field, named by the field's schema title."""
from __future__ import annotations

import pdfplumber
import pypdfium2 as pdfium
import pytest

from cardforge.almanac.display import field_schema
from cardforge.build import Project, compile_game
from cardforge.documents.anatomy import callouts, sample
from cardforge.sources.load import find_packs
from tests.conftest import REPO, SHIPPED
from tests.pdftext import page_chars, page_texts

SLUGS = [p.name for p in find_packs(REPO / "cards")]


@pytest.fixture(scope="module")
def books(all_built):
    """slug -> (game, layouts, rulebook.pdf, each page's text): the rulebooks of the suite's
    shared build of every pack (rulebook.pdf as ``cardforge build`` writes it)."""
    out = {}
    for slug in SLUGS:
        compiled = compile_game(all_built / "cards" / slug, Project(all_built))
        path = all_built / "output" / slug / "rulebook.pdf"
        pages = [" ".join(text.split()) for text in page_texts(path)]
        out[slug] = (compiled.game, compiled.layouts, path, pages)
    return out


@pytest.mark.parametrize("slug", SLUGS)
def test_every_card_type_has_an_anatomy_figure_named_by_its_schema(books, slug):
    game, layouts, path, pages = books[slug]
    start = next(i for i, t in enumerate(pages) if "Card anatomy A card of each kind" in t)
    text = " ".join(pages[start:start + 6])
    shown = 0
    for type_id, card_type in game.card_types.items():
        card = sample(game, type_id, layouts)
        if card is None:
            continue
        found = callouts(card, game, layouts)
        if not found:
            continue
        shown += 1
        assert f"{card_type.label} ({card.name})" in text, (slug, type_id)
        for callout in found:
            title = field_schema(game, type_id, callout.field).get("title")
            assert callout.label == (title or callout.label)  # the schema's title wins
            assert callout.label in text, (slug, type_id, callout.label)
        assert [c.number for c in found] == list(range(1, len(found) + 1))
    assert shown >= 1


def test_gatekeepers_witch_is_drawn_with_its_parts_numbered(books):
    game, layouts, path, pages = books["gatekeeper"]
    start = next(i for i, t in enumerate(pages) if "Card anatomy A card of each kind" in t)
    witch = sample(game, "witch", layouts)
    labels = [c.label for c in callouts(witch, game, layouts)]
    assert {"Spellpower", "Element", "Movement"} <= set(labels), labels
    assert pages[start].count(witch.name) >= 2  # the caption, and the name the renderer prints on the card
    from cardforge.documents.anatomy import CARD_W
    from cardforge.documents.rulebook import measure_width

    with pdfplumber.open(path) as pdf:
        caption = next(line for line in pdf.pages[start].extract_text_lines()
                       if line["text"].startswith(f"Witch ({witch.name})"))
    bitmap = pdfium.PdfDocument(str(path))[start].render(scale=1).to_pil().convert("RGB")  # 1 px a pt
    w, h = bitmap.size
    left = (w - measure_width((w, h))) / 2
    top = caption["bottom"] + 4
    band = bitmap.crop((int(left + 4), int(top), int(left + CARD_W - 4), int(top + CARD_W * 88.9 / 63.5 - 8)))  # its card
    pixels = [band.getpixel((x, y)) for x in range(band.width) for y in range(band.height)]
    blue = sum(1 for r, g, b in pixels if b > 150 and r < 80)  # the water witch's ground
    assert blue > len(pixels) * 0.15, blue / len(pixels)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_components_page_shows_each_kind_and_each_back(books, slug):
    game, layouts, path, pages = books[slug]
    start = next(i for i, t in enumerate(pages) if t.startswith("Components"))
    text = " ".join(pages[start:start + 3])
    for type_id, card_type in game.card_types.items():
        if game.cards_of(type_id):
            assert f"{card_type.label} ({game.total(type_id)})" in text, (slug, type_id)
    assert text.count("Back:") >= 1


@pytest.mark.parametrize("slug", SHIPPED)  # the shipped packs: what their rules hold (a table, enough rules for every panel) is content, not a property of every pack
def test_the_rules_are_set_to_a_measure_people_read(books, slug):
    """Full lines of body text hold 60 to 75 characters (a book's measure, not 100)."""
    from cardforge.documents.rulebook import measure_width

    game, layouts, path, pages = books[slug]
    full = []
    pages = page_chars(path)
    column = measure_width((pages[0]["width"], pages[0]["height"]))
    for page in pages[2:]:
        lines: dict[int, list[dict]] = {}  # a line's chars by their baseline (1 pt)
        for c in page["chars"]:
            lines.setdefault(round(c["bottom"]), []).append(c)
        for line in lines.values():
            chars = [c for c in line if c["text"].strip()]
            if chars and all(abs(c["size"] - 10.0) < 0.05 for c in chars) and \
                    max(c["x1"] for c in chars) - min(c["x0"] for c in chars) > 0.85 * column:
                full.append(len("".join(c["text"] for c in sorted(line, key=lambda c: c["x0"])).strip()))
    assert len(full) >= 10, slug
    full.sort()
    assert 60 <= full[len(full) // 2] <= 75, (slug, full[len(full) // 2])
    assert full[-1] <= 85, (slug, full[-1])


@pytest.mark.parametrize("slug", ["gatekeeper", "gate"])
def test_rulebook_html_shows_the_same_anatomy_figures(all_built, slug):
    compiled = compile_game(all_built / "cards" / slug, Project(all_built))
    text = (all_built / "output" / slug / "rulebook.html").read_text(encoding="utf-8")
    figures = text.count('<figure class="anatomy-figure">')
    expected = [t for t in compiled.game.card_types if (c := sample(compiled.game, t, compiled.layouts))
                and callouts(c, compiled.game, compiled.layouts)]
    assert figures == len(expected) > 0
    for type_id in expected:
        card = sample(compiled.game, type_id, compiled.layouts)
        items = "".join(f"<li>{c.label}</li>" for c in callouts(card, compiled.game, compiled.layouts))
        assert items in text, type_id  # the figure's callouts, in order, as its text
    assert 'src="data:image/webp;base64,' in text.split('class="anatomy"')[1][:2000]
