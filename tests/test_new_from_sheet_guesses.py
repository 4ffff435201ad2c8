"""``cardforge new SLUG --from SHEET`` says what it guessed and lets the designer change it: a deck
column found by a synonym of its header (back, pile, set), a type column's types given one back
when they are many (one pile) or a back each (a pile each), the stacks declared either way so
``check`` proves that cards shuffled together share a back, the summary table naming the option
that changes each guess, and questions asked only through the asker (a terminal)."""
from __future__ import annotations

import json

import pytest
import yaml

from tests.conftest import REPO, run_cli

BACK_TEXT = ("Card name,back text,Copies,Effect\n"
             "Goblin,Monsters,2,Deal 1 damage to each hero.\n"
             "Orc,Monsters,1,Deal 2 damage to a hero.\n"
             "Sword,Treasure 4,3,Gain 1 attack for this turn.\n"
             "Shield,Treasure 4,2,Block the next attack.\n"
             "Potion,Potions,2,Heal 3 wounds.\n")
KINDS = ["Hero", "Monster", "Weapon", "Armor", "Potion", "Spell", "Trap"]


def many_types(path, kinds=KINDS) -> None:
    lines = ["Name,Type,Effect"] + [f"{k} {i},{k},Do the {k.lower()} thing {i}." for k in kinds for i in (1, 2)]
    path.write_text("\n".join(lines) + "\n")


def diagnostics(root) -> list[dict]:
    result = run_cli("check", "--root", str(root), "--format", "json", "--no-cache")
    return json.loads(result.stdout)["diagnostics"]


def game(root, slug) -> dict:
    return yaml.safe_load((root / f"cards/{slug}/game.yaml").read_text())


@pytest.mark.parametrize("header", ["back text", "Pile", "Set", "deckName"])
def test_a_deck_column_is_found_by_a_synonym_and_gets_a_back_and_a_pile_per_deck(tmp_path, header):
    sheet = tmp_path / "dungeon.csv"
    sheet.write_text(BACK_TEXT.replace("back text", header, 1))
    result = run_cli("new", "dungeon", "--from", str(sheet), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = game(tmp_path, "dungeon")
    assert list(data["card_types"]) == ["card"]
    field = data["stacks"][0]["by"]
    assert data["card_types"]["card"]["back"] == {"by": field, "values": {"Monsters": "monsters",
                                                                          "Treasure 4": "treasure-4",
                                                                          "Potions": "potions"}}
    assert sorted(data["backs"]) == ["monsters", "potions", "treasure-4"]
    assert [d for d in diagnostics(tmp_path) if d["severity"] != "info"] == []
    assert f"a back and a pile per {header!r}" in " ".join(result.stderr.split())
    assert "--deck-column" in result.stderr


def test_deck_column_none_gives_one_back_and_a_named_deck_column_is_used(tmp_path):
    sheet = tmp_path / "dungeon.csv"
    sheet.write_text(BACK_TEXT.replace("Copies", "Copies,Shelf", 1).replace(",2,Deal 1", ",2,A,Deal 1")
                     .replace(",1,Deal 2", ",1,A,Deal 2").replace(",3,Gain", ",3,B,Gain")
                     .replace(",2,Block", ",2,B,Block").replace(",2,Heal", ",2,B,Heal"))
    assert run_cli("new", "flat", "--from", str(sheet), "--deck-column", "none", "--root", str(tmp_path)).exit_code == 0
    data = game(tmp_path, "flat")
    assert data["card_types"]["card"]["back"] == "card" and list(data["backs"]) == ["card"]
    assert data["stacks"] == [{"id": "deck", "name": "deck", "card_types": ["card"]}]
    assert run_cli("new", "shelf", "--from", str(sheet), "--deck-column", "Shelf", "--root", str(tmp_path)).exit_code == 0
    assert game(tmp_path, "shelf")["stacks"][0]["by"] == "shelf"
    result = run_cli("new", "bad", "--from", str(sheet), "--deck-column", "Shelff", "--root", str(tmp_path))
    assert result.exit_code == 1 and "error[source-mapping]: --deck-column 'Shelff' is not a column" in result.stderr
    assert 'did you mean "Shelf"?' in result.stderr and not (tmp_path / "cards/bad").exists()
    assert [d for d in diagnostics(tmp_path) if d["severity"] != "info"] == []


def test_many_card_types_share_one_back_in_one_declared_pile(tmp_path):
    many_types(tmp_path / "many.csv")
    result = run_cli("new", "many", "--from", str(tmp_path / "many.csv"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = game(tmp_path, "many")
    ids = [k.lower() for k in KINDS]
    assert list(data["card_types"]) == ids and {t["back"] for t in data["card_types"].values()} == {"card"}
    assert data["stacks"] == [{"id": "deck", "name": "deck", "card_types": ids}]
    assert list(data["backs"]) == ["card"]
    layout = yaml.safe_load((tmp_path / "layouts/many.yaml").read_text())
    assert list(layout["backs"]) == ["card"]
    assert [d for d in diagnostics(tmp_path) if d["severity"] != "info"] == []
    assert "one back for every card" in result.stderr and "--back-per-type" in result.stderr


def test_a_few_card_types_get_a_back_each_and_check_proves_a_shared_pile_needs_one_back(tmp_path):
    result = run_cli("new", "harvest", "--from", str(REPO / "examples/harvest.csv"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = game(tmp_path, "harvest")
    assert data["stacks"] == [{"id": "building-pile", "name": "Building pile", "card_types": ["building"]},
                              {"id": "event-pile", "name": "Event pile", "card_types": ["event"]}]
    assert [d for d in diagnostics(tmp_path) if d["severity"] != "info"] == []
    # the designer shuffles both types into one pile: check says the backs differ
    path = tmp_path / "cards/harvest/game.yaml"
    text = path.read_text()
    pile = text.index("- id: building-pile")
    path.write_text(text[:pile] + text[pile:].replace("card_types: [building]", "card_types: [building, event]", 1))
    assert "stack-backs-differ" in {d["code"] for d in diagnostics(tmp_path)}
    # and --one-back makes one back for both
    other = tmp_path / "other"
    assert run_cli("new", "harvest", "--from", str(REPO / "examples/harvest.csv"), "--one-back",
                   "--root", str(other)).exit_code == 0
    data = game(other, "harvest")
    assert {t["back"] for t in data["card_types"].values()} == {"card"}
    assert data["stacks"] == [{"id": "deck", "name": "deck", "card_types": ["building", "event"]}]
    assert [d for d in diagnostics(other) if d["severity"] != "info"] == []


def test_back_per_type_overrides_the_guess_for_many_types(tmp_path):
    many_types(tmp_path / "many.csv")
    assert run_cli("new", "many", "--from", str(tmp_path / "many.csv"), "--back-per-type",
                   "--root", str(tmp_path)).exit_code == 0
    data = game(tmp_path, "many")
    assert sorted(data["backs"]) == sorted(k.lower() for k in KINDS)
    assert len(data["stacks"]) == len(KINDS)


def test_the_summary_names_each_guess_and_the_option_that_changes_it(tmp_path):
    sheet = tmp_path / "dungeon.csv"
    sheet.write_text(BACK_TEXT.replace("Effect", "Effect,Notes", 1).replace("each hero.", "each hero.,long note here ok"))
    result = run_cli("new", "dungeon", "--from", str(sheet), "--root", str(tmp_path))
    text = " ".join(result.stderr.split())
    for what, option in (("card types", "--type-column"), ("backs and piles", "--deck-column"),
                         ("name column 'Card name'", "--name-column"), ("text column 'Effect'", "--text-column"),
                         ("quantity column 'Copies'", "")):
        assert what in text and option in text, what


def test_name_and_text_columns_can_be_chosen(tmp_path):
    sheet = tmp_path / "dungeon.csv"
    sheet.write_text(BACK_TEXT.replace("Card name", "Monicker", 1))
    assert run_cli("new", "dungeon", "--from", str(sheet), "--name-column", "Monicker", "--text-column", "Card name"
                   if False else "Effect", "--root", str(tmp_path)).exit_code == 0
    data = game(tmp_path, "dungeon")
    assert data["sources"]["dungeon.csv"]["columns"]["Monicker"] == "name"
    result = run_cli("new", "other", "--from", str(sheet), "--name-column", "Nom", "--root", str(tmp_path))
    assert result.exit_code == 1 and "--name-column 'Nom' is not a column" in result.stderr


def test_questions_are_asked_only_through_the_asker_with_the_guess_as_default(tmp_path):
    from cardforge.scaffold.sheetplan import Choices, plan_sheet
    from cardforge.sources.tables import table_from_csv

    many_types(tmp_path / "many.csv", KINDS[:3])
    table = table_from_csv((tmp_path / "many.csv").read_bytes(), "many.csv")
    asked = []

    def ask(question, options, default):
        asked.append((question, options, default))
        return options[0]  # one back

    plan, problems = plan_sheet(table, choices=Choices(ask=ask))
    assert problems == [] and plan.backs == "one"
    assert len(asked) == 1 and "shuffled together" in asked[0][0] and asked[0][2].startswith("a back per card type")
    plan, _ = plan_sheet(table, choices=Choices())  # no asker: the guess
    assert plan.backs == "type"
    # a deck column whose header only holds the word is asked about, "none" among the answers
    table = table_from_csv(BACK_TEXT.encode(), "dungeon.csv")
    asked.clear()
    plan, _ = plan_sheet(table, choices=Choices(ask=lambda q, o, d: asked.append(o) or o[-1]))
    assert asked and asked[0][-1].startswith("none") and plan.deck is None and plan.backs == "one"
