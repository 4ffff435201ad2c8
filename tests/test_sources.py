"""Spreadsheet sources: cardforge import (CSV, XLSX, JSON), CSV card files, export-cards and the
round trip on every shipped pack, diagnostics placed on cells, and unread pack files."""
from __future__ import annotations

import json
import shutil

import pytest
import yaml
from jsonschema import Draft202012Validator
from openpyxl import Workbook

from cardforge.sources.load import load_game
from tests.conftest import REPO, SHIPPED, run_cli


EVENT_TYPE = """  event:
    label: Event
    back: deck
    schema:
      type: object
      required: [name, type, text]
      properties:
        name: {type: string}
        type: {const: event}
        quantity: {type: integer, minimum: 1}
        text: {type: string}
        tags: {type: array, items: {type: string}}
      additionalProperties: false
"""


def two_type_pack(root, mapping: str = "") -> tuple:
    """A scaffolded pack with a second card type (event), wood/stone icons and no example cards."""
    assert run_cli("new", "harvest", "--root", str(root)).exit_code == 0
    pack = root / "cards" / "harvest"
    game = pack / "game.yaml"
    text = game.read_text()
    text = text.replace('  coin: {label: Coin, svg: icons/coin.svg, color: "#b8860b"}',
                        '  coin: {label: Coin, svg: icons/coin.svg, color: "#b8860b"}\n'
                        '  wood: {label: Wood, text: "W"}\n  stone: {label: Stone, text: "S"}')
    text = text.replace("# Card backs by id", EVENT_TYPE + "\n" + mapping + "\n# Card backs by id")
    game.write_text(text)
    layout = root / "layouts" / "harvest.yaml"
    layout.write_text(layout.read_text().replace("# Card backs by id", "  event: {extends: card}\n\n# Card backs by id"))
    (pack / "cards.yaml").unlink()
    return pack, game


def set_count(game_file, cards: int, events: int) -> None:
    text = game_file.read_text().replace("count: 3\n    card_types: [card]",
                                         f"count: {cards}\n    card_types: [card]\n  - id: events\n    name: Events\n"
                                         f"    count: {events}\n    card_types: [event]")
    game_file.write_text(text)


CSV = """Type,Name,Cost,Copies,Text,Tags,Notes
Card,Lumber Yard,2,3,Gain 1 Wood.,,
Card,Quarry,3,2,Gain 1 stone.,,needs playtest
Card,Town Hall,5,,"Pay 1 Wood and 1 Stone:
gain 4 Coin.",,
Event,Storm,,2,Every player discards 1 Wood.,weather; bad,
"""
MAPPING = """sources:
  harvest.csv:
    icons: {Wood: wood, Stone: stone, Coin: coin}
    lists: {tags: ";"}
    skip: [Notes]
    keep: [text]
"""


def test_import_csv_converts_quantities_numbers_lists_icons_and_blank_cells(tmp_path):
    pack, game_file = two_type_pack(tmp_path, MAPPING)
    set_count(game_file, 6, 2)
    sheet = tmp_path / "harvest.csv"
    sheet.write_text(CSV)
    result = run_cli("import", "harvest", str(sheet), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    written = pack / "harvest.yaml"
    text = written.read_text()
    assert text.startswith("# yaml-language-server: $schema=../../schemas/harvest/cards.schema.json")
    assert "# harvest.csv row 3\n  - name: Quarry" in text and "# harvest.csv row 6\n  - name: Storm" in text
    cards = yaml.safe_load(text)["cards"]
    assert cards[0] == {"name": "Lumber Yard", "type": "card", "quantity": 3, "cost": 2, "text": "Gain 1 {wood}."}
    assert cards[1]["text"] == "Gain 1 {stone}."  # words match whatever their case
    assert "quantity" not in cards[2] and cards[2]["text"] == "Pay 1 {wood} and 1 {stone}:\ngain 4 {coin}."
    assert cards[3] == {"name": "Storm", "type": "event", "quantity": 2, "text": "Every player discards 1 {wood}.",
                        "tags": ["weather", "bad"]}
    assert all(None not in c.values() for c in cards)
    assert run_cli("schema", "harvest", "--root", str(tmp_path)).exit_code == 0
    schema = json.loads((tmp_path / "schemas/harvest/cards.schema.json").read_text())
    assert list(Draft202012Validator(schema).iter_errors(yaml.safe_load(text))) == []
    check = run_cli("check", "harvest", "--root", str(tmp_path), "--strict")
    assert check.exit_code == 0, check.output


def test_reimport_replaces_the_cards_and_keeps_hand_edited_fields(tmp_path):
    pack, game_file = two_type_pack(tmp_path, MAPPING)
    sheet = tmp_path / "harvest.csv"
    sheet.write_text(CSV)
    assert run_cli("import", "harvest", str(sheet), "--root", str(tmp_path)).exit_code == 0
    written = pack / "harvest.yaml"
    written.write_text(written.read_text().replace("Gain 1 {wood}.", "Gain 1 {wood}. *Hand-edited.*"))
    sheet.write_text(CSV.replace("Lumber Yard,2,3", "Lumber Yard,4,1").replace("Card,Quarry,3,2,Gain 1 stone.,,needs playtest\n", ""))
    result = run_cli("import", "harvest", str(sheet), "--root", str(tmp_path))
    assert result.exit_code == 0 and "3 kept fields" in " ".join(result.stderr.split())
    cards = yaml.safe_load(written.read_text())["cards"]
    assert [c["name"] for c in cards] == ["Lumber Yard", "Town Hall", "Storm"]
    assert cards[0]["cost"] == 4 and cards[0]["quantity"] == 1 and cards[0]["text"] == "Gain 1 {wood}. *Hand-edited.*"


def test_import_never_overwrites_a_hand_written_card_file(tmp_path):
    pack, _ = two_type_pack(tmp_path, MAPPING)
    (pack / "harvest.yaml").write_text("cards: []\n")
    sheet = tmp_path / "harvest.csv"
    sheet.write_text(CSV)
    result = run_cli("import", "harvest", str(sheet), "--root", str(tmp_path))
    assert result.exit_code == 1 and "error[import-refused]" in result.stderr
    assert (pack / "harvest.yaml").read_text() == "cards: []\n"


def test_problems_in_a_workbook_name_the_sheet_and_cell_and_nothing_is_written(tmp_path):
    pack, _ = two_type_pack(tmp_path)
    book = Workbook()
    sheet = book.active
    sheet.title = "Alien"  # :Alien: must stay text, never an emoji
    sheet.append(["Name", "Type", "Cost", "Text"])
    sheet.append(["Lumber Yard", "card", 2, "Gain 1 {wood}."])
    for _ in range(9):
        sheet.append(["Filler", "card", 1, "x"])
    sheet.append(["Quarry", "card", "three", "Gain 1 {stone}."])  # row 12, cost in column C
    sheet.append(["Tornado", "evnet", None, "Discard."])
    book.save(tmp_path / "deck.xlsx")
    result = run_cli("import", "harvest", str(tmp_path / "deck.xlsx"), "--root", str(tmp_path))
    assert result.exit_code == 1
    assert "deck.xlsx:Alien:C12: error[source-value]: cost: 'three' is not an integer" in result.stderr
    assert "deck.xlsx:Alien:B13: error[source-value]: 'evnet' is not a card type of harvest" in result.stderr
    assert 'did you mean "event"?' in result.stderr
    assert not (pack / "deck.yaml").exists()


def test_sheets_of_a_workbook_give_the_card_type_and_native_numbers_stay_numbers(tmp_path):
    pack, game_file = two_type_pack(tmp_path, "sources:\n  deck.xlsx:\n    sheets: {Notes: null}\n")
    set_count(game_file, 2, 1)
    book = Workbook()
    first = book.active
    first.title = "Cards"
    first.append(["Name", "Cost", "Qty", "Text"])
    first.append(["Lumber Yard", 2.0, 2, "Gain 1 {wood}."])
    events = book.create_sheet("Events")
    events.append(["Name", "Text"])
    events.append(["Storm", "Discard."])
    notes = book.create_sheet("Notes")  # skipped by the mapping
    notes.append(["Idea", "Who"])
    notes.append(["more wood", "Ada"])
    book.save(tmp_path / "deck.xlsx")
    assert run_cli("import", "harvest", str(tmp_path / "deck.xlsx"), "--root", str(tmp_path)).exit_code == 0
    cards = yaml.safe_load((pack / "deck.yaml").read_text())["cards"]
    assert cards == [{"name": "Lumber Yard", "type": "card", "quantity": 2, "cost": 2, "text": "Gain 1 {wood}."},
                     {"name": "Storm", "type": "event", "text": "Discard."}]
    assert run_cli("check", "harvest", "--root", str(tmp_path)).exit_code == 0


@pytest.mark.parametrize("form", ["rows", "squib"])
def test_import_json_rows_and_squib_columns(tmp_path, form):
    pack, _ = two_type_pack(tmp_path)
    rows = [{"name": "Lumber Yard", "type": "card", "cost": "2", "copies": 3, "text": "Gain 1 {wood}."},
            {"name": "Storm", "type": "event", "cost": None, "copies": None, "text": "Discard."}]
    data = rows if form == "rows" else {k: [r[k] for r in rows] for k in rows[0]}
    (tmp_path / "deck.json").write_text(json.dumps(data))
    result = run_cli("import", "harvest", str(tmp_path / "deck.json"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    cards = yaml.safe_load((pack / "deck.yaml").read_text())["cards"]
    assert cards == [{"name": "Lumber Yard", "type": "card", "quantity": 3, "cost": 2, "text": "Gain 1 {wood}."},
                     {"name": "Storm", "type": "event", "text": "Discard."}]


@pytest.mark.parametrize("name, content, message", [
    ("bad.csv", b"name,type\n\xff\xfe,card\n", "bad.csv:2:1: error[source-unreadable]: not UTF-8 text: byte 0xff cannot be read (the file looks like Windows-1252"),
    ("bad.xlsx", b"PK\x03\x04 not really a workbook", "error[source-unreadable]: not an Excel workbook"),
    ("bad.json", b'{"name": [1, 2', "bad.json:1:15: error[source-unreadable]: not JSON"),
    ("bad.json", b'"just text"', "error[source-unreadable]: a JSON card source is a list of rows"),
])
def test_a_malformed_spreadsheet_is_a_diagnostic_not_a_traceback(tmp_path, name, content, message):
    two_type_pack(tmp_path)
    (tmp_path / name).write_bytes(content)
    result = run_cli("import", "harvest", str(tmp_path / name), "--root", str(tmp_path))
    assert result.exit_code == 1 and message in result.stderr, result.stderr


def test_a_csv_card_file_is_read_directly_with_errors_at_row_and_column(tmp_path):
    pack, game_file = two_type_pack(tmp_path, MAPPING)
    set_count(game_file, 6, 2)
    (pack / "harvest.csv").write_text(CSV)
    check = run_cli("check", "harvest", "--root", str(tmp_path), "--strict", "--format", "json")
    assert json.loads(check.stdout)["diagnostics"] == [] and check.exit_code == 0
    game, _ = load_game(pack)
    assert [c.name for c in game.cards] == ["Lumber Yard", "Quarry", "Town Hall", "Storm"]
    assert game.cards[0].data["text"] == "Gain 1 {wood}." and game.total() == 8
    broken = CSV.replace("Quarry,3,2", "Quarry,three,2").replace("Storm,,2,Every player discards 1 Wood.", "Storm,,2,")
    (pack / "harvest.csv").write_text(broken.replace("Gain 1 Wood.", "Gain 1 {wod}."))
    result = run_cli("check", "harvest", "--root", str(tmp_path))
    assert result.exit_code == 1
    assert "cards/harvest/harvest.csv:3:3: error[source-value]: cost: 'three' is not an integer" in result.stderr
    assert "cards/harvest/harvest.csv:6:1: error[schema]: event card 'Storm': missing key 'text'" in result.stderr
    assert "cards/harvest/harvest.csv:2:5: error[icon-unknown]" in result.stderr  # {wod} in the Text column
    assert run_cli("build", "harvest", "--root", str(tmp_path)).exit_code == 1


def test_an_empty_cell_of_an_optional_field_is_no_error(tmp_path):
    pack, game_file = two_type_pack(tmp_path)
    set_count(game_file, 1, 0)
    (pack / "cards.csv").write_text("name,type,cost,text\nLumber Yard,card,,Gain 1 {wood}.\n")
    check = run_cli("check", "harvest", "--root", str(tmp_path), "--format", "json")
    assert [d for d in json.loads(check.stdout)["diagnostics"] if d["severity"] == "error"] == []


def test_files_the_pack_does_not_read_are_warned_about(tmp_path):
    pack, _ = two_type_pack(tmp_path)
    (pack / "extra.yml").write_text("cards: []\n")
    (pack / "art").mkdir()
    (pack / "art" / "stray.png").write_bytes(b"\x89PNG")
    (pack / "NOTES.md").write_text("my notes\n")
    result = run_cli("check", "harvest", "--root", str(tmp_path), "--format", "json")
    unread = sorted(d["file"].rsplit("harvest/", 1)[1] for d in json.loads(result.stdout)["diagnostics"]
                    if d["code"] == "file-unread")
    assert unread == ["art/stray.png", "extra.yml"]


@pytest.mark.parametrize("slug", SHIPPED)
@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_export_then_import_changes_no_card(tmp_path, slug, fmt):
    pack = tmp_path / "cards" / slug
    shutil.copytree(REPO / "cards" / slug, pack)
    before, _ = load_game(pack)
    result = run_cli("export-cards", slug, "--format", fmt, "--out", str(tmp_path / "sheet"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    for card_file in pack.glob("*.yaml"):
        if card_file.name not in ("game.yaml", "errata.yaml"):
            card_file.unlink()
    sheets = sorted((tmp_path / "sheet").glob(f"*.{fmt}"))
    assert len(sheets) == (1 if fmt == "xlsx" else len({c.type for c in before.cards}))
    for sheet in sheets:
        imported = run_cli("import", slug, str(sheet), "--mapping", str(tmp_path / "sheet" / "cards.mapping.yaml"),
                           "--root", str(tmp_path))
        assert imported.exit_code == 0, imported.output
    after, problems = load_game(pack)
    assert [d for d in problems if d.severity >= 2] == []
    assert sorted((c.type, c.name, json.dumps(c.data, sort_keys=True)) for c in after.cards) == \
        sorted((c.type, c.name, json.dumps(c.data, sort_keys=True)) for c in before.cards)
