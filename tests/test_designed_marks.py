"""Designed values carry the dagger by one rule (docs/marks.md): a card face whose printed
values are all designed carries one small corner mark; one that mixes seed and designed values
marks each designed value small, outside its badge; the almanac follows the same rule; each
deck sheet that shows a mark explains it; a rules table marks a value through `mark()`."""
from __future__ import annotations

import re

import pdfplumber
import pypdf
import pytest

from cardforge.build import BuildSettings, Project, compile_game
from cardforge.incremental import build_games
from cardforge.model import DESIGNED_MARK, DESIGNED_NOTE
from cardforge.documents.source import Macros
from cardforge.resolve.marks import CORNER_SIZE, VALUE_SIZE
from cardforge.sources.load import load_game
from tests.conftest import make_project
from tests.pdftext import page_chars, page_texts

SLUG = "arkham-gates"  # round tokens whose close modifiers are designed; a small deck


def _build_deck(root, force: bool = False) -> None:
    """The build ``cardforge build`` runs, of deck.pdf only (the one output read here)."""
    (result,) = build_games(Project(root), [root / "cards" / SLUG], BuildSettings(), force=force, jobs=1,
                            only=("deck.pdf",))
    assert [p.name for p in result.written] == ["deck.pdf"], result.diagnostics


def _deck_pages(root) -> list[str]:
    reader = pypdf.PdfReader(root / "output" / SLUG / "deck.pdf")
    return [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]


def test_a_designed_value_prints_with_a_small_dagger_and_each_sheet_that_shows_one_explains_it(tmp_path):
    root = make_project(tmp_path, SLUG)
    game = compile_game(root / "cards" / SLUG, Project(root)).game
    designed = [c for c in game.cards if "modifier" in c.provisional]
    assert designed
    _build_deck(root)
    pages = _deck_pages(root)
    with pdfplumber.open(root / "output" / SLUG / "deck.pdf") as pdf:
        daggers = [[c for c in page.chars if c["text"] == DESIGNED_MARK] for page in pdf.pages]
    assert sum(map(len, daggers)) >= len(designed)
    assert all(c["size"] <= VALUE_SIZE + 0.01 for page in daggers for c in page)
    for page, text, marks in zip(range(len(pages)), pages, daggers):  # the note on each sheet showing a mark
        assert (DESIGNED_NOTE in text) == bool(marks), f"page {page + 1}"
        assert text.count(DESIGNED_NOTE) <= 1

    for path in (root / "cards" / SLUG).glob("*.yaml"):  # nothing designed: no mark, no note
        path.write_text(re.sub(r"(?m)^\s+provisional: \[.*\]\n", "", path.read_text(encoding="utf-8")), encoding="utf-8")
    assert not any(c.provisional for c in compile_game(root / "cards" / SLUG, Project(root)).game.cards)
    _build_deck(root, force=True)
    pages = _deck_pages(root)
    assert not any(DESIGNED_MARK in page for page in pages)


def _fronts(root, slug):
    """(card, its layout, its context, its daggers as pdfplumber chars with the trim's top-left
    corner as origin) for every card front of the deck, in print order."""
    from cardforge.resolve.face import context
    from cardforge.render.deck import DeckOptions, plan

    result = compile_game(root / "cards" / slug, Project(root))
    game, layouts = result.game, result.layouts
    units = plan(game, layouts, DeckOptions())
    assert all(u.board is None for u in units)  # the packs tested print no boards
    out = []
    pages = page_chars(root / "output" / slug / "deck.pdf")
    for n, unit in enumerate(units):
        page = pages[2 * n]  # each fronts page, then its backs
        for i, card in enumerate(unit.batch):
            layout = layouts.for_card(card)
            x, y = unit.sheet.slot(i)
            left, top = x, page["height"] - y - layout.size[1]
            marks = [dict(c, x0=c["x0"] - left, x1=c["x1"] - left, top=c["top"] - top, bottom=c["bottom"] - top)
                     for c in page["chars"] if c["text"] == DESIGNED_MARK
                     and left <= c["x0"] < left + layout.size[0] and top <= c["top"] < top + layout.size[1]]
            out.append((card, layout, context(card, game), marks))
    return game, out


def _badges(layout, ctx):
    """The boxes (x0, top, x1, bottom) of the front's badges: its discs and pills (rects whose
    corner radius is at least a quarter of their shorter side) and its icons."""
    from cardforge.sandbox.context import holds

    boxes = []
    for el in layout.front.elements:
        x, y, w, h = el.box
        if not holds(el.when, ctx) or w * h > 0.2 * layout.size[0] * layout.size[1]:
            continue
        if el.kind == "icon" or (el.kind == "rect" and el.radius >= min(w, h) / 4):
            boxes.append((x, y, x + w, y + h))
    return boxes


def _printed(layout) -> set[str]:
    from cardforge.elements import kind_of
    from cardforge.elements.text import printed_fields

    return {f for el in layout.front.elements if kind_of(el).sets_text for f in printed_fields(el)}


@pytest.mark.parametrize("slug", ["gatekeeper", "gate", "gateway"])
def test_a_card_all_designed_carries_one_corner_mark_and_no_mark_sits_in_a_badge(all_built, slug):
    game, fronts = _fronts(all_built, slug)
    whole = mixed = 0
    for card, layout, ctx, marks in fronts:
        for m in marks:
            assert m["size"] <= CORNER_SIZE + 0.01, (card.name, m["size"])  # never at a value's size
            cx, cy = (m["x0"] + m["x1"]) / 2, (m["top"] + m["bottom"]) / 2
            for x0, top, x1, bottom in _badges(layout, ctx):
                assert not (x0 < cx < x1 and top < cy < bottom), f"{card.name}: a † inside a badge"
        printed = {f for f in _printed(layout) if card.data.get(f) not in (None, "")}
        designed = set(card.provisional) & printed
        if not designed:
            assert not marks, card.name
        elif designed == printed:  # every value the face prints is designed: one mark, in the safe area
            whole += 1
            assert len(marks) == 1, (card.name, len(marks))
            m, s = marks[0], layout.safe
            assert s - 0.5 <= m["x0"] and m["x1"] <= layout.size[0] - s + 0.5, card.name
            assert s - 0.5 <= m["top"] and m["bottom"] <= layout.size[1] - s + 0.5, card.name
        else:  # seed and designed values: at most one small mark per designed value, none at badge size
            mixed += 1
            assert 1 <= len(marks) <= len(designed), (card.name, len(marks))
            assert all(m["size"] <= VALUE_SIZE + 0.01 for m in marks)
    assert whole + mixed > 0
    if slug == "gatekeeper":  # the 44 witches are designed whole: one mark each, not one per value
        witches = [f for f in fronts if f[0].type == "witch"]
        assert len(witches) >= 44 and all(len(marks) == 1 for *_, marks in witches)


@pytest.mark.parametrize("slug", ["gatekeeper", "gate", "gateway"])
def test_the_almanac_marks_a_card_designed_whole_once(all_built, slug):
    from cardforge.almanac.display import marked, shown

    game, _ = load_game(all_built / "cards" / slug)
    text = " ".join(" ".join(t.split()) for t in page_texts(all_built / "output" / slug / "reference.pdf"))
    almanac = text[text.index("Card almanac"):]
    checked = 0
    for card in game.cards:
        whole, fields = marked(card, game)
        printed = {"name"} | {f.key.split(".")[0] for f in shown(card, game)}
        if not printed <= set(card.provisional) or card.data.get("text"):
            continue
        assert whole and not any(f.designed for f in fields), card.name
        at = almanac.find(f"{card.name}{DESIGNED_MARK} × ")
        assert at >= 0, card.name  # the name marked once...
        rest = almanac[at + len(card.name) + 1:]
        end = rest.find(" × ", 3)  # the next entry's quantity: its name (maybe marked) just before
        entry = rest[:end if end > 0 else None].rstrip(DESIGNED_MARK)
        assert DESIGNED_MARK not in entry, (card.name, entry)  # ...and none of its values
        checked += 1
    assert checked or slug == "gate", slug


def test_the_mark_helper_marks_a_provisional_field_only(tmp_path):
    root = make_project(tmp_path, "gateway")
    macros = Macros(compile_game(root / "cards" / "gateway", Project(root)).game)
    cards = macros.cards_of(*macros.game.card_types)
    with_field = next(c for c in cards if c.get("provisional"))
    field = with_field["provisional"][0]
    without = next(c for c in cards if field not in (c.get("provisional") or []))
    assert macros.mark(with_field, field) == DESIGNED_MARK
    assert macros.mark(without, field) == ""
    assert macros.mark([without, with_field], field) == DESIGNED_MARK
    assert macros.mark(with_field, "no-such-field") == ""
