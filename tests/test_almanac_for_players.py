"""The almanac as players read it: enum values by their display labels (a check warns at the
card's line where one would print raw), no label repeated by its value, one index line per
card name with its pages merged, and no type heading alone at a page's foot."""
from __future__ import annotations

import re

import pdfplumber
import pytest

from cardforge.almanac.display import enum_values, raw_values, shown
from cardforge.build import Project, compile_game
from cardforge.documents.reference import index_lines, render_reference
from cardforge.sources.load import find_packs
from tests.conftest import REPO, findings, make_project

SLUGS = [p.name for p in find_packs(REPO / "cards")]


@pytest.fixture(scope="module")
def references(tmp_path_factory):
    """{slug: (game, the text of each page of reference.pdf, its lines per page)} for the packs
    whose almanacs print enum fields and long card lists."""
    root = make_project(tmp_path_factory.mktemp("almanac"), "arkham-gates", "gateway")
    out = {}
    for slug in ("arkham-gates", "gateway"):
        game = compile_game(root / "cards" / slug, Project(root)).game
        path = root / f"{slug}-reference.pdf"
        render_reference(game, path)
        with pdfplumber.open(path) as pdf:
            pages = [" ".join((p.extract_text() or "").split()) for p in pdf.pages]
            lines = [(p.extract_text() or "").splitlines() for p in pdf.pages]
        out[slug] = (game, pages, lines)
    return out


@pytest.mark.parametrize("slug", SLUGS)
def test_every_enum_value_the_almanac_prints_has_a_display_label(slug):
    game = compile_game(REPO / "cards" / slug, Project(REPO)).game
    assert not [(c.name, raw_values(c, game)) for c in game.cards if raw_values(c, game)]


def test_arkham_gate_types_and_symbols_print_by_their_labels(references):
    game, pages, _ = references["arkham-gates"]
    almanac = " ".join(pages)
    lurkers = [c for c in game.cards if c.type == "lurker-gate"]
    assert lurkers and enum_values(game, "lurker-gate", "gate_type")
    for card in lurkers:
        raw = card.data["gate_type"]
        assert f"Gate type {raw};" not in almanac and f"Gate type {raw.capitalize()}" in almanac, raw
        fields = {f.key: f.text for f in shown(card, game)}
        assert fields["gate_type"] == game.data["labels"]["gate_type"][raw]
        assert fields["symbols"] == ", ".join(game.data["labels"]["symbols"][s] for s in card.data["symbols"])


def test_a_value_without_a_label_is_warned_at_its_card_line(tmp_path):
    root = make_project(tmp_path, "arkham-gates")
    game_yaml = root / "cards" / "arkham-gates" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(re.sub(r"(?m)^  gate_type: \{split: Split, devouring: Devouring,",
                                "  gate_type: {split: Split,", text), encoding="utf-8")
    code, found = findings(root, "arkham-gates")
    raw = [d for d in found if d["code"] == "almanac-raw-value"]
    assert len(raw) == 1 and '"devouring"' in raw[0]["message"], raw
    lines = (root / raw[0]["file"]).read_text(encoding="utf-8").splitlines() if (root / raw[0]["file"]).exists() else \
        (root / "cards" / "arkham-gates" / raw[0]["file"].split("/")[-1]).read_text(encoding="utf-8").splitlines()
    assert "devouring" in lines[raw[0]["line"] - 1]  # the line of the card's gate_type


def test_no_label_is_repeated_by_its_value(references):
    game, pages, _ = references["gateway"]
    almanac = " ".join(pages)
    events = [c for c in game.cards if c.type == "event"]
    assert events and "Spawns Spawn" not in almanac
    for card in events:  # the directions print, without the label they repeat
        directions = " ".join(str(card.data["directions"]).split())[:30]
        assert directions in almanac.replace("  ", " "), directions


def test_the_index_has_one_line_per_name_with_its_pages_merged(references):
    assert index_lines([("Birdmancer", 8), ("Birdmancer", 6), ("Arch", 2), ("Birdmancer", 6)]) == \
        ["Arch · 2", "Birdmancer · 6, 8"]
    for slug, (game, pages, _) in references.items():
        start = next(i for i, t in enumerate(pages) if t.startswith("Index"))
        index = " ".join(pages[start:])
        names = re.findall(r"([^·]+?) · [\d, ]+(?= |$)", index.removeprefix("Index "))
        assert names and len(names) == len(set(names)), slug  # one line per name
        assert not any(re.fullmatch(r"\s*\d+\s*", n) for n in names), slug  # no bare number for a name
        if slug == "gateway":
            assert re.search(r"District marker 1 · \d", index)


def test_no_type_heading_is_alone_at_a_page_foot(references):
    for slug, (game, pages, lines) in references.items():
        headings = {f"{t.label} ({game.total(type_id)})" for type_id, t in game.card_types.items()}
        start = next(i for i, t in enumerate(pages) if t.startswith("Card almanac"))
        for n, page_lines in enumerate(lines[start:], start + 1):
            body = [line for line in page_lines if "· reference" not in line]
            assert body and body[-1].strip() not in headings, (slug, n, body[-1])
