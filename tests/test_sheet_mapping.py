"""A source mapping's computed fields, skipped rows and stray cells, on real CSV and XLSX files."""
from __future__ import annotations

import json

import pdfplumber
import pytest
from openpyxl import Workbook

from cardforge.sandbox import ENV
from tests.conftest import run_cli

SHEET = """Picture,Cost,Text
art/market_day.png,1,Gain 2 {coin}.
art/tax_collector.png,3,Take 1 {coin}.

,24,
art/old_mill.png,2,Gain 1 {coin}.
"""


def picture_pack(root, mapping: str, sheet: str = SHEET, count: int = 3):
    """A scaffolded pack whose cards are ``sheet.csv`` (no name column) read with ``mapping``."""
    assert run_cli("new", "mill", "--root", str(root)).exit_code == 0
    pack = root / "cards" / "mill"
    (pack / "cards.yaml").unlink()
    (pack / "sheet.csv").write_text(sheet)
    game = pack / "game.yaml"
    game.write_text(game.read_text().replace("count: 3", f"count: {count}") + "sources:\n  sheet.csv:\n" + mapping)
    return pack


def place(d) -> tuple:
    """``(cards/mill/sheet.csv, line, column)``: a diagnostic's place inside the project."""
    return ("/".join(d["file"].split("/")[-3:]), d["line"], d["column"])


def check(root):
    result = run_cli("check", "--root", str(root), "--format", "json", "--no-cache")
    return result, json.loads(result.stdout)["diagnostics"]


COMPUTED = """    type: card
    computed: {name: "{{ picture | stem | replace('_', ' ') | title }}"}
    skip: [Picture]
"""


def test_the_stem_filter():
    render = lambda s, **kw: ENV.from_string(s).render(**kw)  # noqa: E731
    assert render("{{ p | stem }}", p="art/lumber_yard.png") == "lumber_yard"
    assert render("{{ p | stem }}", p="C:\\art\\old.mill.jpg") == "old.mill"
    assert render("{{ p | stem }}", p="plain") == "plain"
    assert render("[{{ missing | stem }}]") == "[]"


def test_a_computed_name_is_the_cards_name_in_checks_and_in_the_deck(tmp_path):
    picture_pack(tmp_path, COMPUTED + "    skip_rows: [5]\n")
    result, found = check(tmp_path)
    assert found == [] and result.exit_code == 0, found
    built = run_cli("build", "--root", str(tmp_path))
    assert built.exit_code == 0, built.output
    with pdfplumber.open(tmp_path / "output/mill/deck.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    for name in ("Market Day", "Tax Collector", "Old Mill"):
        assert name in text
    assert "market_day" not in text


def test_a_computed_name_is_what_diagnostics_name(tmp_path):
    pack = picture_pack(tmp_path, COMPUTED + "    skip_rows: [5]\n")
    (pack / "sheet.csv").write_text(SHEET + "art/old_mill.png,4,Gain 3 {coin}.\n")
    _, found = check(tmp_path)
    duplicate = [d for d in found if d["code"] == "card-duplicate"]
    assert len(duplicate) == 1 and "'Old Mill'" in duplicate[0]["message"]
    assert place(duplicate[0])[:2] == ("cards/mill/sheet.csv", 7)


@pytest.mark.parametrize("template, message, column", [
    ("{{ picture | stem", "does not parse", 16),
    ("{{ pictur | stem }}", "names 'pictur', which is not a column of sheet.csv", 16),
])
def test_a_computed_field_that_cannot_run_is_reported_at_the_mapping(tmp_path, template, message, column):
    picture_pack(tmp_path, f'    type: card\n    computed: {{name: "{template}"}}\n    skip_rows: [5]\n')
    result, found = check(tmp_path)
    assert result.exit_code == 1
    errors = [d for d in found if d["severity"] == "error"]
    assert len(errors) == 1, found  # once, not once per row, and no cascade of nameless rows
    assert errors[0]["code"] == "source-computed" and message in errors[0]["message"]
    assert place(errors[0]) == ("cards/mill/game.yaml", 73, column)


def test_a_computed_field_that_fails_on_a_row_names_the_row(tmp_path):
    picture_pack(tmp_path, '    type: card\n    computed: {name: "{{ picture | stem }}", cost: "{{ cost // (cost - 3) }}"}\n'
                           "    skip: [Picture]\n    skip_rows: [5]\n")
    result, found = check(tmp_path)
    assert result.exit_code == 1
    failed = [d for d in found if d["code"] == "source-computed"]
    assert len(failed) == 1 and "mill/sheet.csv:3: ZeroDivisionError" in failed[0]["message"], found
    assert "ZeroDivisionError" in failed[0]["message"]
    assert place(failed[0])[:2] == ("cards/mill/game.yaml", 73)
    assert not [d for d in found if d["code"] == "internal-error"]


def test_a_stray_cell_is_reported_by_its_cell_and_value(tmp_path):
    picture_pack(tmp_path, COMPUTED)
    result, found = check(tmp_path)
    assert result.exit_code == 1
    (stray,) = [d for d in found if d["severity"] == "error"]
    assert place(stray) == ("cards/mill/sheet.csv", 5, 2)
    assert "'24'" in stray["message"] and "'Cost' (B)" in stray["message"]
    assert "B5" in stray["hint"] and "skip_rows: [5]" in stray["hint"] and "type column" not in stray["hint"]


def test_a_stray_cell_in_a_workbook_names_its_sheet_and_cell(tmp_path):
    assert run_cli("new", "mill", "--root", str(tmp_path)).exit_code == 0
    book = Workbook()
    sheet = book.active
    sheet.title = "Deck"
    for row in (["Type", "Name", "Cost", "Text"], ["Card", "Mill", 2, "Gain 1 {coin}."], [None, None, None, None],
                [None, None, 24, None]):
        sheet.append(row)
    book.save(tmp_path / "deck.xlsx")
    result = run_cli("import", "mill", str(tmp_path / "deck.xlsx"), "--into", "deck.yaml", "--root", str(tmp_path))
    assert result.exit_code == 1
    assert "deck.xlsx:Deck:C4: error[source-value]: row 4 holds nothing but 24, in column 'Cost' (C)" in result.stderr
    assert "this row has no card type" not in result.stderr and "add a `type` column" not in result.stderr


@pytest.mark.parametrize("mapping", ["    skip_rows: [5]\n", '    skip_when: "not Picture"\n',
                                     '    skip_when: "cost > 20"\n', '    skip_when: "row == 5"\n'])
def test_skipped_rows_are_not_read(tmp_path, mapping):
    picture_pack(tmp_path, COMPUTED + mapping)
    result, found = check(tmp_path)
    assert found == [] and result.exit_code == 0, found


def test_a_skip_when_that_does_not_parse_is_reported_at_its_key(tmp_path):
    picture_pack(tmp_path, COMPUTED + '    skip_when: "cost === 9"\n')
    result, found = check(tmp_path)
    (error,) = [d for d in found if d["severity"] == "error"]
    assert error["code"] == "source-computed" and "skip_when does not parse" in error["message"]
    assert place(error)[:2] == ("cards/mill/game.yaml", 75)


def test_skip_rows_must_be_row_numbers(tmp_path):
    picture_pack(tmp_path, COMPUTED + '    skip_rows: [five]\n')
    result, found = check(tmp_path)
    assert result.exit_code == 1
    assert [(d["code"], d["line"]) for d in found if d["severity"] == "error"] == [("pack-structure", 75)], found
