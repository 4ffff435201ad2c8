"""Designed values carry the dagger wherever they print: on a card face (a text element that
prints a field the card lists as `provisional`), explained once on the deck's first sheet;
and in a rules table through the `mark()` helper."""
from __future__ import annotations

import re

import pypdf

from cardforge.build import BuildSettings, Project, compile_game
from cardforge.incremental import build_games
from cardforge.model import DESIGNED_MARK, DESIGNED_NOTE
from cardforge.documents.source import Macros
from tests.conftest import make_project

SLUG = "arkham-gates"  # round tokens whose close modifiers are designed; a small deck


def _build_deck(root, force: bool = False) -> None:
    """The build ``cardforge build`` runs, of deck.pdf only (the one output read here)."""
    (result,) = build_games(Project(root), [root / "cards" / SLUG], BuildSettings(), force=force, jobs=1,
                            only=("deck.pdf",))
    assert [p.name for p in result.written] == ["deck.pdf"], result.diagnostics


def _deck_pages(root) -> list[str]:
    reader = pypdf.PdfReader(root / "output" / SLUG / "deck.pdf")
    return [re.sub(r"\s+", " ", page.extract_text()) for page in reader.pages]


def test_a_designed_value_prints_with_the_dagger_and_the_deck_explains_it_once(tmp_path):
    root = make_project(tmp_path, SLUG)
    game = compile_game(root / "cards" / SLUG, Project(root)).game
    designed = [c for c in game.cards if "modifier" in c.provisional]
    assert designed
    _build_deck(root)
    pages = _deck_pages(root)
    text = " ".join(pages)
    for card in designed:  # the modifier as the token prints it, then the mark
        value = card.data["modifier"]
        shown = f"+{value}" if value > 0 else (f"−{abs(value)}" if value < 0 else "0")
        assert f"{shown}{DESIGNED_MARK}" in text.replace(" ", ""), card.name
    assert sum(page.count(DESIGNED_NOTE) for page in pages) == 1 and DESIGNED_NOTE in pages[0]

    for path in (root / "cards" / SLUG).glob("*.yaml"):  # nothing designed: no mark, no note
        path.write_text(re.sub(r"(?m)^\s+provisional: \[.*\]\n", "", path.read_text(encoding="utf-8")), encoding="utf-8")
    assert not any(c.provisional for c in compile_game(root / "cards" / SLUG, Project(root)).game.cards)
    _build_deck(root, force=True)
    pages = _deck_pages(root)
    assert not any(DESIGNED_MARK in page for page in pages)


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
