"""``cardforge new SLUG --from SHEET``: a pack made from a spreadsheet (the tutorial's harvest.csv,
a designer's sheet with no name column, decks, tiers and kinds, blank rows and a stray cell, as
CSV and XLSX: one card type with a back per deck) checks with no error and builds all four PDFs,
whose text holds the cards."""
from __future__ import annotations

import json

import pdfplumber
import pytest
import yaml
from openpyxl import Workbook

from tests.conftest import REPO, run_cli

HEADER = ["Deck", "Picture", "Tier", "Kind", "Power", "Copies", "Effect", "Flavor"]
ROWS = [
    ["Forest", "art/old_oak.png", 1, "Plant", 2, 2, "Gain 1 leaf for each plant you have.", ""],
    ["Forest", "art/moss_carpet.png", 1, "Plant", 1, 3, "Draw a card, then discard a card.", "Soft underfoot."],
    ["Forest", "art/wild_boar.png", 2, "Beast", 4, 1, "Each other player discards a plant.", ""],
    None,  # a blank separator row
    ["River", "art/river-otter.png", 2, "Beast", 3, 2, "Take a card from the river deck.", ""],
    ["River", "art/stepping_stones.png", 3, "Place", 2.5, 1, "Move up to two spaces along the river.", "Mind the gap."],
    ["River", "art/heron.png", 3, "Place", 5, "", "Look at the top three cards of any deck.", ""],
    None,
    [None, None, None, None, 24, None, None, None],  # a stray cell
]
NAMES = ["Old Oak", "Moss Carpet", "Wild Boar", "River Otter", "Stepping Stones", "Heron"]


def cell(value) -> str:
    return "" if value is None else str(value)


def write_csv(path) -> None:
    lines = [",".join(HEADER)] + ["" if r is None else ",".join(f'"{cell(v)}"' if "," in cell(v) else cell(v) for v in r)
                                  for r in ROWS]
    path.write_text("\n".join(lines) + "\n")


def write_xlsx(path) -> None:
    book = Workbook()
    sheet = book.active
    sheet.title = "Cards"
    sheet.append(HEADER)
    for row in ROWS:
        sheet.append(row or [])
    book.save(path)


def check(root) -> list[dict]:
    result = run_cli("check", "--root", str(root), "--format", "json", "--no-cache")
    found = json.loads(result.stdout)["diagnostics"]
    assert result.exit_code == 0 and not [d for d in found if d["severity"] == "error"], found
    return found


def built_text(root, slug: str) -> dict[str, str]:
    result = run_cli("build", "--root", str(root))
    assert result.exit_code == 0, result.output
    out = {}
    for name in ("deck", "rules", "rulebook", "reference"):
        with pdfplumber.open(root / "output" / slug / f"{name}.pdf") as pdf:
            out[name] = "\n".join(page.extract_text() or "" for page in pdf.pages)
    return out


def test_harvest_csv_becomes_a_pack_that_checks_and_builds(tmp_path):
    result = run_cli("new", "harvest", "--from", str(REPO / "examples/harvest.csv"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    pack = tmp_path / "cards/harvest"
    assert (pack / "harvest.csv").read_bytes() == (REPO / "examples/harvest.csv").read_bytes()
    assert not (pack / "cards.yaml").exists()
    game = yaml.safe_load((pack / "game.yaml").read_text())
    assert list(game["card_types"]) == ["building", "event"]
    building = game["card_types"]["building"]["schema"]
    assert building["properties"]["cost"] == {"type": "integer"} and "cost" in building["required"]
    assert "cost" not in game["card_types"]["event"]["schema"]["required"]  # events leave it blank
    assert "notes" not in building["required"]  # one building has notes
    assert [(c["id"], c["count"]) for c in game["components"]] == [("building", 10), ("event", 3)]
    assert game["backs"]["event"]["label"] == "Event"
    assert (tmp_path / "schemas/harvest/cards.schema.json").is_file()
    assert check(tmp_path) == []
    text = built_text(tmp_path, "harvest")
    for name in ("Lumber Yard", "Quarry", "Market Day", "Town Hall", "Storm", "Good Harvest"):
        assert name in text["deck"] and name in text["reference"], name
    assert "Event" in text["deck"] and "Building cards" in text["rulebook"]


@pytest.mark.parametrize("kind", ["csv", "xlsx"])
def test_a_designers_sheet_becomes_a_pack_that_checks_and_builds(tmp_path, kind):
    sheet = tmp_path / f"wilds.{kind}"
    (write_csv if kind == "csv" else write_xlsx)(sheet)
    result = run_cli("new", "wilds", "--from", str(sheet), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    pack = tmp_path / "cards/wilds"
    game = yaml.safe_load((pack / "game.yaml").read_text())
    # the decks share their fields: one card type, whose back is chosen by the Deck column
    assert list(game["card_types"]) == ["card"]
    card = game["card_types"]["card"]
    assert card["back"] == {"by": "deck", "values": {"Forest": "forest", "River": "river"}}
    assert {b: (v["face"], v["label"]) for b, v in game["backs"].items()} == {"forest": ("deck", "Forest"),
                                                                             "river": ("deck", "River")}
    assert game["stacks"] == [{"id": "decks", "name": "deck", "card_types": ["card"], "by": "deck"}]
    props = card["schema"]["properties"]
    assert props["deck"] == {"enum": ["Forest", "River"]}
    assert props["tier"] == {"type": "integer"} and props["power"] == {"type": "number"}
    assert props["kind"] == {"enum": ["Plant", "Beast", "Place"]}  # a few words, each used twice
    assert props["effect"] == {"type": "string"} and props["flavor"] == {"type": "string"}
    assert "flavor" not in card["schema"]["required"]
    mapping = game["sources"]["wilds.csv"]
    assert mapping["type"] == "card" and mapping["skip_rows"] == [10]  # the stray 24
    assert mapping["computed"]["name"].startswith("{{ picture | stem")
    assert [(c["id"], c["count"], c["where"]) for c in game["components"]] == [
        ("forest", 6, "card.deck == 'Forest'"), ("river", 4, "card.deck == 'River'")]
    layout = yaml.safe_load((tmp_path / "layouts/wilds.yaml").read_text())
    assert list(layout["backs"]) == ["deck"]  # one face for both decks
    rows = (pack / "wilds.csv").read_text().splitlines()
    assert rows[4] == "" and rows[9].startswith(",,,,24")  # the workbook's rows keep their numbers
    assert check(tmp_path) == []
    text = built_text(tmp_path, "wilds")
    for name in NAMES:
        assert name in text["deck"] and name in text["reference"], name
    assert "Forest · Plant" in text["deck"] and "Tier" in text["deck"] and "Gain 1 leaf" in text["deck"]
    assert "old_oak" not in text["deck"]
    with pdfplumber.open(pack.parent.parent / "output/wilds/deck.pdf") as pdf:  # the backs say their deck
        backs = "\n".join(page.extract_text() or "" for page in pdf.pages[1::2])  # each fronts page, then its backs
    assert backs.count("Forest") == 6 and backs.count("River") == 4


def test_the_type_column_can_be_chosen_and_a_sheet_without_one_makes_one_type(tmp_path):
    sheet = tmp_path / "wilds.csv"
    write_csv(sheet)
    assert run_cli("new", "by-kind", "--from", str(sheet), "--type-column", "Kind", "--root", str(tmp_path)).exit_code == 0
    game = yaml.safe_load((tmp_path / "cards/by-kind/game.yaml").read_text())
    assert list(game["card_types"]) == ["plant", "beast", "place"]
    assert "deck" in game["card_types"]["plant"]["schema"]["properties"]  # Deck is now a field
    check(tmp_path)
    one = tmp_path / "one"
    (tmp_path / "plain.csv").write_text("Name,Cost\nMill,2\nFarm,3\n")
    assert run_cli("new", "plain", "--from", str(tmp_path / "plain.csv"), "--root", str(one)).exit_code == 0
    game = yaml.safe_load((one / "cards/plain/game.yaml").read_text())
    assert list(game["card_types"]) == ["card"] and game["sources"]["plain.csv"] == {"type": "card"}
    check(one)


def test_a_type_column_that_is_not_there_is_refused_with_a_hint(tmp_path):
    sheet = tmp_path / "wilds.csv"
    write_csv(sheet)
    result = run_cli("new", "wilds", "--from", str(sheet), "--type-column", "Dek", "--root", str(tmp_path))
    assert result.exit_code == 1 and "error[source-mapping]: --type-column 'Dek' is not a column" in result.stderr
    assert 'did you mean "Deck"?' in result.stderr and not (tmp_path / "cards").exists()


def test_a_sheet_that_cannot_be_read_is_a_located_diagnostic(tmp_path):
    sheet = tmp_path / "broken.xlsx"
    sheet.write_bytes(b"not a workbook")
    result = run_cli("new", "broken", "--from", str(sheet), "--root", str(tmp_path))
    assert result.exit_code == 1 and "error[source-unreadable]: not an Excel workbook" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "cards").exists()
    result = run_cli("new", "broken", "--type-column", "Deck", "--root", str(tmp_path))
    assert result.exit_code == 2 and "--type-column" in result.stderr


def _cards(root, slug: str) -> list[tuple]:
    from cardforge.build import Project, compile_game

    project = Project(root)
    game = compile_game(project.cards / slug, project).game
    return [(c.name, c.type, c.quantity, c.data) for c in game.cards]


@pytest.mark.parametrize("sheet_name", ["wilds", "harvest"])
def test_export_cards_writes_the_designers_one_sheet_that_reads_back_as_the_same_cards(tmp_path, sheet_name):
    if sheet_name == "wilds":
        sheet = tmp_path / "wilds.csv"
        write_csv(sheet)
    else:
        sheet = REPO / "examples/harvest.csv"
    root = tmp_path / "project"
    assert run_cli("new", sheet_name, "--from", str(sheet), "--root", str(root)).exit_code == 0
    before = _cards(root, sheet_name)
    out = tmp_path / "export"
    result = run_cli("export-cards", sheet_name, "--format", "csv", "--out", str(out), "--root", str(root))
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == sorted([f"{sheet_name}.csv", "cards.mapping.yaml"])  # one sheet
    written = (out / f"{sheet_name}.csv").read_text().splitlines()
    original = [line for line in sheet.read_text().splitlines() if line.strip(",")]
    assert written[0] == original[0]  # the designer's column names, in their order (no computed name column)
    rows = list(__import__("csv").reader(written))
    copies = rows[0].index("Copies")
    by_name = {c[0]: c for c in before}
    assert [r[copies] for r in rows[1:]] == [str(by_name[n][3]["quantity"]) if "quantity" in by_name[n][3] else ""
                                             for n in by_name]  # the quantity back in its column, blank where it was
    if sheet_name == "wilds":
        assert written[1:] == [line for line in original[1:] if not line.startswith(",,,,24")]  # the stray row is not a card
    # read back: the exported sheet as the pack's card file, with the pack's own mapping
    (root / f"cards/{sheet_name}/{sheet_name}.csv").write_bytes((out / f"{sheet_name}.csv").read_bytes())
    assert _cards(root, sheet_name) == before
    # and imported from a workbook with the mapping written beside it, into a pack without the sheet
    assert run_cli("export-cards", sheet_name, "--format", "xlsx", "--out", str(out), "--root", str(root)).exit_code == 0
    (root / f"cards/{sheet_name}/{sheet_name}.csv").unlink()
    result = run_cli("import", sheet_name, str(out / f"{sheet_name}.xlsx"), "--mapping", str(out / "cards.mapping.yaml"),
                     "--root", str(root))
    assert result.exit_code == 0, result.output
    after = _cards(root, sheet_name)
    assert [(n, t, q, d) for n, t, q, d in after] == before


def test_a_sheet_with_repeated_names_emoji_and_camel_case_headers_checks_clean(tmp_path):
    # a designer's sheet as such sheets are: an id column, a name shared by rows that differ,
    # costs and effects written with emoji the fonts lack, camelCase headers
    sheet = tmp_path / "market.csv"
    sheet.write_text("id,name,costCoins,costDiamonds,effectText,tier,type\n"
                     "1,Swordsman,8,,⚔️⚔️,1,action\n"
                     "2,Swordsman,5,2,⚔️⚔️,1,action\n"
                     "3,Super Miner,8,2,🪙🪙🪙,1,action\n"
                     "4,Prospector,4,,💎,s,action\n"
                     "5,Orc,,,-1🪙,4,monster\n"
                     "6,Orc,,,-2🪙,6,monster\n"
                     "7,Dragon,,,-3🪙,13,monster\n", encoding="utf-8")
    result = run_cli("new", "market", "--from", str(sheet), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    game = yaml.safe_load((tmp_path / "cards/market/game.yaml").read_text())
    mapping = game["sources"]["market.csv"]
    assert mapping["columns"]["name"] == "title"  # the sheet's name is what the face prints ...
    assert "id_2 ~ ')'" in mapping["computed"]["name"]  # ... and the card's name tells repeated ones apart by id
    assert mapping["icons"] == {"🪙": "coin", "💎": "gem-stone"}  # what the fonts lack; ⚔ they have
    assert game["icons"]["coin"]["label"] == "Coin" and game["icons"]["coin"]["text"] == "C"
    assert check(tmp_path) == []  # no card-duplicate, no glyph-missing, no caption overflowing its badge
    from cardforge.build import Project, compile_game

    cards = {c.name: c for c in compile_game(tmp_path / "cards/market", Project(tmp_path)).game.cards}
    assert sorted(cards) == ["Dragon", "Orc (5)", "Orc (6)", "Prospector", "Super Miner", "Swordsman (1)", "Swordsman (2)"]
    assert cards["Orc (5)"].data["effecttext"] == "-1{coin}"  # a symbol after a digit is an icon too
    assert cards["Super Miner"].data["effecttext"] == "{coin}{coin}{coin}"
    text = built_text(tmp_path, "market")
    assert text["deck"].count("Orc") >= 2 and "Orc (5)" not in text["deck"]  # the face prints the sheet's name
    assert "\U0001FA99" not in text["deck"] and "diamonds" in text["deck"]  # the caption (on two lines when narrow)
    assert "Orc (5)" in text["reference"]  # the almanac names each card apart
