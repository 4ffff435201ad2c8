"""Backs and layouts chosen by the card's data: one card type with a tier column prints a back
per tier (tests/fixtures/tiers: `back: {by: tier, values: ...}`, three game.yaml backs that
print one layout face, which reads `card.tier`). The deck's back pages, the duplex line-up,
the checks that guard face-down piles, the TTS export and a layout per tier, on real files."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
from PIL import Image

from tests.conftest import FIXTURES, edit, line_of, run_cli
from tests.conftest import findings as check_findings

TIERS = {"Copper Ring": "bronze", "Old Coin": "bronze", "Silver Chalice": "silver", "Moon Mirror": "silver",
         "Crown of Ash": "gold", "Sun Idol": "gold"}


def tiers(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "tiers", root)
    return root


def findings(root: Path) -> tuple[int, list[dict]]:
    return check_findings(root, "tiers")


def errors(found: list[dict]) -> list[dict]:
    return [d for d in found if d["severity"] == "error"]


def cells(page, pattern: str) -> list[tuple[float, float, str]]:
    """(x centre, y centre, first group) of each match of ``pattern`` on ``page`` (pt)."""
    return [((m["x0"] + m["x1"]) / 2, (m["top"] + m["bottom"]) / 2, m["groups"][0])
            for m in page.search(pattern, regex=True)]


def test_a_back_per_tier_on_the_deck_back_pages_behind_each_front(tmp_path):
    root = tiers(tmp_path)
    status, found = findings(root)
    assert status == 0 and errors(found) == [], found
    result = run_cli("build", "tiers", "--root", str(root), "--jobs", "1", "--paper", "a4", "--export", "one-sided")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(root / "output/tiers/deck.pdf") as pdf:
        pages = pdf.pages
        assert len(pages) == 4  # ten cards, nine a sheet: two sheets, fronts then backs
        seen = {"bronze": 0, "silver": 0, "gold": 0}
        for front, back in ((pages[0], pages[1]), (pages[2], pages[3])):
            w, h = float(front.width) / 3, float(front.height) / 3  # a 3 x 3 grid of poker cards on A4

            def slot(x, y):
                return int(x // w), int(y // h)
            kinds = cells(front, r"treasure · (bronze|silver|gold)")  # each card's tier, under its name
            labels = {slot(x, y): t for x, y, t in cells(back, r"(Bronze|Silver|Gold)")}
            assert kinds and len(labels) == len(kinds)
            for x, y, tier in kinds:  # long-edge duplex: the back of a card is mirrored left to right
                col, row = slot(x, y)
                assert labels[(2 - col, row)] == tier.title(), (col, row, tier, labels)
                seen[tier] += 1
        assert seen == {"bronze": 5, "silver": 3, "gold": 2}
        duplex_backs = [cells(page, r"(Bronze|Silver|Gold)") for page in pages[1::2]]
    with pdfplumber.open(root / "output/tiers/one-sided/deck-backs.pdf") as pdf:  # the same backs, for one-sided printing
        assert [cells(page, r"(Bronze|Silver|Gold)") for page in pdf.pages] == duplex_backs


def test_a_back_reading_a_field_that_differs_inside_its_pile_is_an_error_at_the_template(tmp_path):
    root = tiers(tmp_path)
    layout = root / "layouts/tiers.yaml"
    edit(layout, "template: '{{ card.tier | title }}'", "template: '{{ card.tier | title }} · {{ card.gold }}'")
    status, found = findings(root)
    (hit,) = errors(found)
    assert status == 1 and hit["code"] == "back-field-differs"
    assert hit["file"].endswith("layouts/tiers.yaml") and hit["line"] == line_of(layout, "· {{ card.gold }}")
    assert "card.gold" in hit["message"] and "'loot pile (tier gold)'" in hit["message"] and "6 (1 card), 5 (1 card)" in hit["message"]


def test_a_value_no_back_is_chosen_for_is_an_error_at_the_cards_row(tmp_path):
    root = tiers(tmp_path)
    sheet = root / "cards/tiers/treasure.csv"
    edit(sheet, "treasure,bronze,Old Coin", "treasure,copper,Old Coin")
    edit(root / "cards/tiers/game.yaml", "enum: [bronze, silver, gold]", "type: string")
    status, found = findings(root)
    (hit,) = errors(found)
    assert status == 1 and hit["code"] == "back-unknown"
    assert hit["file"].endswith("treasure.csv") and hit["line"] == line_of(sheet, "copper")
    assert "'copper'" in hit["message"] and "Old Coin" in hit["message"]


def test_a_template_back_naming_no_back_is_an_error_and_a_listed_unknown_back_at_its_line(tmp_path):
    root = tiers(tmp_path)
    game = root / "cards/tiers/game.yaml"
    edit(game, "back: {by: tier, values: {bronze: bronze, silver: silver, gold: gold}}", 'back: "{{ card.tier }}-back"')
    status, found = findings(root)
    assert status == 1 and {d["code"] for d in errors(found)} == {"back-unknown"} and len(errors(found)) == 6
    root = tiers(tmp_path / "again")
    game = root / "cards/tiers/game.yaml"
    edit(game, "gold: gold}}", "gold: golden}}")
    status, found = findings(root)
    (hit,) = errors(found)
    assert hit["code"] == "layout-missing" and hit["line"] == line_of(game, "    back: {by: tier")
    assert "'golden'" in hit["message"] and 'did you mean "gold"' in hit["hint"]


def test_a_stack_of_the_tiered_type_not_split_by_tier_shows_different_backs(tmp_path):
    root = tiers(tmp_path)
    game = root / "cards/tiers/game.yaml"
    edit(game, "card_types: [treasure], by: tier}", "card_types: [treasure]}")  # one pile, not one per tier
    status, found = findings(root)
    (hit,) = errors(found)
    assert hit["code"] == "stack-backs-differ" and hit["line"] == line_of(game, "- {id: loot")
    assert "treasure: {bronze, gold, silver}" in hit["message"] and "`by: tier`" in hit["hint"]


def test_tts_decks_one_per_tier_each_with_one_back(tmp_path):
    root = tiers(tmp_path)
    assert run_cli("build", "tiers", "--root", str(root), "--jobs", "1", "--export", "tts").exit_code == 0
    folder = root / "output/tiers/tts"
    decks = {}
    for path in sorted(folder.glob("*.json")):
        (state,) = json.loads(path.read_text())["ObjectStates"]
        contained = state.get("ContainedObjects") or [state]
        decks[path.stem] = {c["Nickname"] for c in contained}
        for sheet in state.get("CustomDeck", {}).values() or contained[0]["CustomDeck"].values():
            assert sheet["UniqueBack"] is False and sheet["BackURL"].endswith("-back.png")
    assert sorted(decks.values(), key=sorted) == sorted(
        ({n for n, t in TIERS.items() if t == tier} for tier in ("bronze", "silver", "gold")), key=sorted)
    colours = {Image.open(p).convert("RGB").getpixel((Image.open(p).width // 2, 10)) for p in folder.glob("*-back.png")}
    assert len(colours) == 3


def test_a_layout_per_tier(tmp_path):
    root = tiers(tmp_path)
    game = root / "cards/tiers/game.yaml"
    edit(game, "    label: treasure\n", "    label: treasure\n    layout: {by: tier, values: {gold: gold-treasure}, default: treasure}\n")
    edit(root / "layouts/tiers.yaml", "layouts:\n", "layouts:\n  gold-treasure:\n    extends: treasure\n"
         "    elements:\n      crown: {kind: text, box: [40mm, 4mm, 20mm, 6mm], template: GOLD TIER, size: 6pt}\n")
    status, found = findings(root)
    assert status == 0 and errors(found) == [], found
    assert run_cli("build", "tiers", "--root", str(root), "--jobs", "1").exit_code == 0
    with pdfplumber.open(root / "output/tiers/deck.pdf") as pdf:
        text = "\n".join(page.extract_text() for page in pdf.pages)
    assert text.count("GOLD TIER") == 2  # Crown of Ash and Sun Idol, one copy each, and no other card
    edit(game, "values: {gold: gold-treasure}", "values: {gold: gilded}")
    status, found = findings(root)
    assert status == 1 and {d["code"] for d in errors(found)} == {"layout-unknown"} and len(errors(found)) == 2


def test_tts_deck_whose_rendered_backs_differ_gets_per_card_backs(tmp_path):
    # hero and spell share the back `deck`, which prints the card's type: each type is a pile
    # of its own (no stack declared), so the check is clean, but the deck of that back in TTS
    # holds cards whose backs differ: per-card backs
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    game = root / "cards/mini/game.yaml"
    edit(game, "stacks:\n  - id: draw-pile\n    name: draw pile\n    card_types: [hero, spell]\n", "")
    edit(root / "layouts/mini.yaml", 'template: "{{ back.title }}"', 'template: "{{ card.type | title }}"')
    result = run_cli("check", "mini", "--root", str(root), "--format", "json")
    assert result.exit_code == 0, result.stdout
    assert run_cli("build", "mini", "--root", str(root), "--jobs", "1", "--export", "tts").exit_code == 0
    (path,) = (root / "output/mini/tts").glob("*.json")
    (state,) = json.loads(path.read_text())["ObjectStates"]
    (sheet,) = state["CustomDeck"].values()
    assert sheet["UniqueBack"] is True and sheet["BackURL"].endswith("-backs.png")
    with Image.open(path.parent / sheet["BackURL"]) as backs, Image.open(path.parent / sheet["FaceURL"]) as faces:
        assert backs.size == faces.size  # a back behind each card of the faces sheet


def test_a_component_of_one_tier_counts_only_the_cards_its_where_holds_for(tmp_path):
    root = tiers(tmp_path)
    game = root / "cards/tiers/game.yaml"
    edit(game, "  count: 10\n  card_types: [treasure]\n",
         "  count: 10\n  card_types: [treasure]\n- {id: gold, name: gold treasures, count: 3, card_types: [treasure], where: \"card.tier == 'gold'\"}\n")
    status, found = findings(root)
    (hit,) = errors(found)
    assert hit["code"] == "count-mismatch" and hit["line"] == line_of(game, "- {id: gold,")
    assert "counts 3" in hit["message"] and "has 2" in hit["message"]
    edit(game, "count: 3, card_types", "count: 2, card_types")
    assert findings(root)[0] == 0
