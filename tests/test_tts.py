"""Tabletop Simulator saved objects, checked against how TTS writes them, on every pack."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from cardforge.build import Project, compile_game
from cardforge.export.tts import POKER_MM, TYPE_CIRCLE, TYPE_RECTANGLE
from tests.conftest import make_project, run_cli
from tests.conftest import SHIPPED as SLUGS


@pytest.fixture(scope="module")
def tts_built(tmp_path_factory) -> Path:
    root = make_project(tmp_path_factory.mktemp("tts"), *SLUGS)
    result = run_cli("build", "--root", str(root), "--export", "tts")
    assert result.exit_code == 0, result.output
    return root


def saved_objects(root: Path, slug: str) -> list[tuple[Path, dict]]:
    folder = root / "output" / slug / "tts"
    return [(path, json.loads(path.read_text())) for path in sorted(folder.glob("*.json"))]


def cards_of(state: dict) -> list[dict]:
    return state["ContainedObjects"] if state["Name"] == "Deck" else [state]


@pytest.mark.parametrize("slug", SLUGS)
def test_each_group_is_a_card_or_deck_tts_can_load(tts_built, slug):
    project = Project(tts_built)
    compiled = compile_game(project.cards / slug, project)
    game, layouts = compiled.game, compiled.layouts
    by_name = {c.name: c for c in game.cards}
    objects = saved_objects(tts_built, slug)
    assert objects
    seen = []
    for path, saved in objects:
        (state,) = saved["ObjectStates"]
        if state["Name"] == "Card":  # a lone card: CardID and CustomDeck, nothing of a deck
            assert "DeckIDs" not in state and "ContainedObjects" not in state
        else:
            assert state["Name"] == "Deck" and len(state["ContainedObjects"]) >= 2
            assert state["DeckIDs"] == [c["CardID"] for c in state["ContainedObjects"]]
        types, backs = set(), set()
        for card in cards_of(state):
            assert card["Name"] == "Card"
            key, index = divmod(card["CardID"], 100)
            sheet = card["CustomDeck"][str(key)]  # each card carries its own sheet
            if state["Name"] == "Deck":
                assert state["CustomDeck"][str(key)] == sheet
            assert index < sheet["NumWidth"] * sheet["NumHeight"] - 1  # the last slot is the hidden card
            assert sheet["Type"] == (TYPE_CIRCLE if layouts.by_type[card["Description"]].shape == "circle" else TYPE_RECTANGLE)
            for url in (sheet["FaceURL"], sheet["BackURL"]):
                assert "/" not in url and (path.parent / url).is_file()  # relative, beside the saved object
            with Image.open(path.parent / sheet["FaceURL"]) as image:
                assert image.width < 4096 and image.height < 4096
                assert image.width % sheet["NumWidth"] == 0 and image.height % sheet["NumHeight"] == 0
            layout = layouts.by_type[card["Description"]]
            w, h = (v / 72 * 25.4 for v in layout.size)
            t = state["Transform"]
            if layout.shape == "circle":
                assert t["scaleX"] == t["scaleZ"] == pytest.approx(w / POKER_MM[0], abs=1e-3)
            else:  # the card's own proportions, not stretched to poker
                assert (t["scaleX"] * POKER_MM[0]) / (t["scaleZ"] * POKER_MM[1]) == pytest.approx(w / h, rel=1e-3)
            assert card["SidewaysCard"] == (w > h)
            types.add(card["Description"])
            backs.add(game.card_types[card["Description"]].back)
            seen.append(card["Nickname"])
        assert len(backs) == 1  # a deck is cards that share a back ...
        if backs == {"own"}:
            assert len(types) == 1  # ... and a type printing its own backs is kept apart
        # CardIDs count row by row through the unique cards of the sheet, in deck order
        firsts = list(dict.fromkeys((c["CardID"], c["Nickname"]) for c in cards_of(state)))
        assert [i % 100 for i, _ in firsts] == list(range(len(firsts))) or len(firsts) > 69
    assert sorted(seen) == sorted(c.name for c in game.cards for _ in range(c.quantity))
    assert all(by_name[n] for n in seen)


def test_deck_keys_never_collide_across_games(tts_built):
    keys = []
    for slug in SLUGS:
        for _, saved in saved_objects(tts_built, slug):
            (state,) = saved["ObjectStates"]
            keys += list(state["CustomDeck"])
    assert len(keys) == len(set(keys))


def test_one_card_group_and_victory_cards_apart(tts_built):
    lone = [s for _, saved in saved_objects(tts_built, "gate") for s in saved["ObjectStates"] if s["Name"] == "Card"]
    assert [s["Nickname"] for s in lone] and all("CardID" in s for s in lone)
    ttg = [saved["ObjectStates"][0] for _, saved in saved_objects(tts_built, "through-the-gate")]
    victory = [s for s in ttg if {c["Description"] for c in cards_of(s)} == {"victory"}]
    assert len(victory) == 1 and len(cards_of(victory[0])) == 5
    assert all("victory" not in {c["Description"] for c in cards_of(s)} for s in ttg if s is not victory[0])


def test_url_base_points_the_images_at_the_upload(tmp_path):
    root = make_project(tmp_path, "gate")
    result = run_cli("build", "gate", "--root", str(root), "--export", "tts", "--tts-url-base", "https://example.org/g/")
    assert result.exit_code == 0
    for path, saved in saved_objects(root, "gate"):
        for sheet in saved["ObjectStates"][0]["CustomDeck"].values():
            for url in (sheet["FaceURL"], sheet["BackURL"]):
                assert url.startswith("https://example.org/g/gate-") and (path.parent / url.rsplit("/", 1)[1]).is_file()
