"""``cardforge new``: the scaffold checks clean and builds all four PDFs; refusals write nothing.
``cardforge schema``: every shipped file validates against its exported schema; a broken card does not."""
from __future__ import annotations

import json

import pdfplumber
import pytest
import yaml
from jsonschema import Draft202012Validator

from cardforge.sources.load import load_game
from cardforge.validation.export import pack_schemas
from tests.conftest import REPO, SHIPPED, run_cli



def test_a_new_pack_checks_clean_and_builds_all_four_pdfs(tmp_path):
    result = run_cli("new", "spice-road", "--title", "Spice Road", "--players", "1-5", "--card-size", "bridge",
                     "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    pack = tmp_path / "cards" / "spice-road"
    for name in ("game.yaml", "cards.yaml", "sheet.md", "rulebook.md", "icons/LICENSE.md", "icons/coin.svg"):
        assert (pack / name).is_file(), name
    layout = (tmp_path / "layouts" / "spice-road.yaml").read_text()
    assert layout.startswith("# yaml-language-server: $schema=../schemas/layout.schema.json")  # the schema every pack shares
    assert (tmp_path / "schemas/layout.schema.json").is_file() and (tmp_path / "schemas/game.schema.json").is_file()
    assert (tmp_path / "schemas/spice-road/cards.schema.json").is_file()
    check = run_cli("check", "--root", str(tmp_path), "--strict", "--format", "json")
    assert json.loads(check.stdout)["diagnostics"] == [] and check.exit_code == 0
    built = run_cli("build", "--root", str(tmp_path))
    assert built.exit_code == 0, built.output
    out = tmp_path / "output" / "spice-road"
    for name in ("deck.pdf", "rules.pdf", "rulebook.pdf", "reference.pdf"):
        assert (out / name).stat().st_size > 1000, name
    with pdfplumber.open(out / "deck.pdf") as pdf:
        text = pdf.pages[0].extract_text()
        assert "Market Day" in text and "Tax Collector" in text
        card = [r for r in pdf.pages[1].rects if r["width"] > 100]  # back page follows the fronts
        assert "Spice Road" in pdf.pages[1].extract_text()
    game, _ = load_game(pack)
    assert game.title == "Spice Road" and game.meta["players"] == {"min": 1, "max": 5}
    assert "size: bridge" in layout and card is not None


def test_a_custom_card_size_is_written_in_mm(tmp_path):
    assert run_cli("new", "big-cards", "--card-size", "70x120", "--root", str(tmp_path)).exit_code == 0
    assert "size: [70mm, 120mm]" in (tmp_path / "layouts/big-cards.yaml").read_text()
    assert run_cli("build", "--root", str(tmp_path)).exit_code == 0
    with pdfplumber.open(tmp_path / "output/big-cards/deck.pdf") as pdf:
        assert "Big Cards" in pdf.pages[1].extract_text()


def test_new_refuses_an_existing_pack_and_overwrites_nothing(tmp_path):
    assert run_cli("new", "mine", "--root", str(tmp_path)).exit_code == 0
    game = tmp_path / "cards/mine/game.yaml"
    game.write_text(game.read_text().replace("Your name", "Ada"))
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    result = run_cli("new", "mine", "--title", "Other", "--root", str(tmp_path))
    assert result.exit_code == 1
    assert "error[pack-exists]" in result.stderr and "nothing was written" in result.stderr
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before


def test_new_refuses_when_only_the_layout_exists(tmp_path):
    (tmp_path / "layouts").mkdir()
    (tmp_path / "layouts/mine.yaml").write_text("layouts: {}\n")
    result = run_cli("new", "mine", "--root", str(tmp_path))
    assert result.exit_code == 1 and "layouts/mine.yaml already exists" in result.stderr
    assert not (tmp_path / "cards").exists()


@pytest.mark.parametrize("slug", ["My Game", "my_game", "a/b", "../escape", "Caps"])
def test_new_refuses_an_invalid_slug(tmp_path, slug):
    result = run_cli("new", slug, "--root", str(tmp_path))
    assert result.exit_code == 1 and "error[slug-invalid]" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("option", [("--players", "4-2"), ("--players", "many"), ("--card-size", "huge")])
def test_new_rejects_bad_options_with_usage_errors(tmp_path, option):
    result = run_cli("new", "ok", *option, "--root", str(tmp_path))
    assert result.exit_code == 2 and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("slug", SHIPPED)
def test_every_shipped_file_validates_against_its_exported_schema(slug):
    game, _ = load_game(REPO / "cards" / slug)
    schemas = pack_schemas(game)
    for schema in schemas.values():
        Draft202012Validator.check_schema(schema)
    files = [("game", REPO / "cards" / slug / "game.yaml"), ("layout", REPO / "layouts" / f"{slug}.yaml")]
    files += [("cards", p) for p in sorted((REPO / "cards" / slug).glob("*.yaml"))
              if p.name not in ("game.yaml", "errata.yaml")]
    assert len(files) >= 3
    for kind, path in files:
        errors = list(Draft202012Validator(schemas[kind]).iter_errors(yaml.safe_load(path.read_text())))
        assert errors == [], (path.name, [e.message for e in errors[:3]])


def test_a_broken_card_does_not_validate_against_the_exported_schema(tmp_path):
    assert run_cli("new", "mine", "--root", str(tmp_path)).exit_code == 0
    schema = json.loads((tmp_path / "schemas/mine/cards.schema.json").read_text())
    cards = yaml.safe_load((tmp_path / "cards/mine/cards.yaml").read_text())
    validator = Draft202012Validator(schema)
    assert list(validator.iter_errors(cards)) == []
    broken = [dict(cards["cards"][0], cost="three"), dict(cards["cards"][1], type="crad"),
              dict(cards["cards"][0], colour="red"), {k: v for k, v in cards["cards"][0].items() if k != "text"}]
    for card in broken:
        assert list(validator.iter_errors({"cards": [card]})), card


def test_schema_command_writes_every_pack(tmp_path):
    import shutil

    for slug in ("gate", "gatekeeper"):
        shutil.copytree(REPO / "cards" / slug, tmp_path / "cards" / slug)
    result = run_cli("schema", "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    for slug in ("gate", "gatekeeper"):
        cards = json.loads((tmp_path / "schemas" / slug / "cards.schema.json").read_text())
        game, _ = load_game(tmp_path / "cards" / slug)
        assert cards["$defs"]["card"]["properties"]["type"]["enum"] == list(game.card_types)
    assert run_cli("schema", "nope", "--root", str(tmp_path)).exit_code == 1


@pytest.mark.parametrize("size", ["poker", "poker-metric", "bridge", "mini-euro", "mini-usa", "tarot", "square", "50x50"])
def test_the_scaffold_checks_clean_at_every_card_size(tmp_path, size):
    assert run_cli("new", "sized", "--card-size", size, "--players", "1", "--root", str(tmp_path)).exit_code == 0
    check = run_cli("check", "--root", str(tmp_path), "--strict", "--format", "json")
    assert json.loads(check.stdout)["diagnostics"] == [] and check.exit_code == 0


@pytest.mark.parametrize("name", ["card", "card-type-card", "cost"])
def test_an_editor_schema_is_right_whatever_a_shared_definition_is_called(tmp_path, name):
    assert run_cli("new", "mine", "--root", str(tmp_path)).exit_code == 0
    game = tmp_path / "cards/mine/game.yaml"
    game.write_text(game.read_text().replace(
        "        cost: {type: integer, minimum: 0, description: \"coins to play the card\"}",
        f"        cost: {{$ref: \"#/$defs/{name}\"}}").replace(
        "card_types:\n", f"schema_defs:\n  {name}: {{type: integer, minimum: 0, maximum: 9}}\n\ncard_types:\n", 1))
    checked = run_cli("check", "--root", str(tmp_path), "--format", "json")
    assert json.loads(checked.stdout)["diagnostics"] == []
    assert run_cli("schema", "mine", "--root", str(tmp_path)).exit_code == 0
    schema = json.loads((tmp_path / "schemas/mine/cards.schema.json").read_text())
    Draft202012Validator.check_schema(schema)
    assert schema["$defs"][name] == {"type": "integer", "minimum": 0, "maximum": 9}
    validator = Draft202012Validator(schema)
    card = {"name": "Mill", "type": "card", "cost": 2, "text": "Gain 1 {coin}."}
    assert list(validator.iter_errors({"cards": [card]})) == []
    assert list(validator.iter_errors({"cards": [dict(card, cost=12)]}))  # the shared definition applies
    assert list(validator.iter_errors({"cards": [dict(card, type="crad")]}))
    assert list(validator.iter_errors({"cards": [{"type": "card"}]}))  # the card wrapper still applies
