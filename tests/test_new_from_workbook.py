"""``cardforge new --from`` a workbook as designers keep it: each worksheet is examined and only card
lists become cards (tables of figures are named in the summary; ``--sheet`` chooses), formulas give
the values saved with them, a workbook saved without those values is refused naming the cells and
what to do, and an OpenDocument workbook (.ods) reads like an Excel one."""
from __future__ import annotations

import json
import re
import zipfile

import yaml
from openpyxl import Workbook

from tests.conftest import run_cli

CARDS = [["Name", "Stage", "Base", "Power", "Text"],
         ["Mill", "Early", 2, "=C2*2", "Gain 1 grain for each field you have."],
         ["Farm", "Early", 3, "=C3*2", "Draw a card, then discard a card."],
         ["Castle", "Late", 5, "=C4*2", "Each other player loses 1 point."]]
FIGURES = [["Round", "Grain", "Gold"], [1, 2, 0], [2, 3, 1], [3, 4, 1]]
PRICES = [["Level", "Cost"], [1, 10], [2, 20]]


def workbook(path, cached: bool = True) -> None:
    """A workbook of a card list and two tables of figures; with ``cached``, each formula's value
    is stored beside it as a spreadsheet program saves it (openpyxl writes formulas alone)."""
    book = Workbook()
    for title, rows in (("Cards", CARDS), ("Figures", FIGURES), ("Prices", PRICES)):
        sheet = book.active if title == "Cards" else book.create_sheet(title)
        sheet.title = title
        for row in rows:
            sheet.append(row)
    book.save(path)
    if cached:
        with zipfile.ZipFile(path) as z:
            files = {n: z.read(n) for n in z.namelist()}
        xml = files["xl/worksheets/sheet1.xml"].decode()
        xml = re.sub(r"<f>C(\d)\*2</f><v></v>",
                     lambda m: f"<f>C{m.group(1)}*2</f><v>{2 * CARDS[int(m.group(1)) - 1][2]}</v>", xml)
        files["xl/worksheets/sheet1.xml"] = xml.encode()
        with zipfile.ZipFile(path, "w") as z:
            for name, data in files.items():
                z.writestr(name, data)


def ods(path) -> None:
    """An OpenDocument workbook of the same card list (a formula with its value) and a table of figures."""
    def cell(v):
        if isinstance(v, str) and v.startswith("="):
            return (f'<table:table-cell table:formula="of:=[.{v[1:].replace("*", "]*")}" office:value-type="float" '
                    f'office:value="{2 * int(CARDS[int(v[2]) - 1][2])}"><text:p>x</text:p></table:table-cell>')
        if isinstance(v, (int, float)):
            return f'<table:table-cell office:value-type="float" office:value="{v}"><text:p>{v}</text:p></table:table-cell>'
        return f'<table:table-cell office:value-type="string"><text:p>{v}</text:p></table:table-cell>'

    def table(name, rows):
        body = "".join("<table:table-row>" + "".join(cell(v) for v in row) + "</table:table-row>" for row in rows)
        return f'<table:table table:name="{name}">{body}</table:table>'
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
               'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
               f'<office:body><office:spreadsheet>{table("Cards", CARDS)}{table("Figures", FIGURES)}'
               '</office:spreadsheet></office:body></office:document-content>')
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" '
                'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("META-INF/manifest.xml", manifest)
        z.writestr("content.xml", content)


def clean(root) -> None:
    result = run_cli("check", "--root", str(root), "--format", "json", "--no-cache")
    found = json.loads(result.stdout)["diagnostics"]
    assert result.exit_code == 0 and [d for d in found if d["severity"] != "info"] == [], found


def test_only_the_card_list_of_a_workbook_becomes_cards_with_formulas_as_saved(tmp_path):
    workbook(tmp_path / "farm.xlsx")
    result = run_cli("new", "farm", "--from", str(tmp_path / "farm.xlsx"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    rows = (tmp_path / "cards/farm/farm.csv").read_text().splitlines()
    assert rows[0] == "Name,Stage,Base,Power,Text" and rows[1].startswith("Mill,Early,2,4,")
    assert len(rows) == 4  # three cards; no row of the figures
    said = " ".join(result.stderr.split())
    assert "cards from 'Cards'; not cards: 'Figures', 'Prices' (no column of words: a table of figures)" in said
    assert "--sheet" in said
    clean(tmp_path)


def test_sheet_chooses_the_worksheets_and_a_wrong_one_is_refused(tmp_path):
    workbook(tmp_path / "farm.xlsx")
    result = run_cli("new", "figures", "--from", str(tmp_path / "farm.xlsx"), "--sheet", "Figures", "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "cards/figures/farm.csv").read_text().splitlines()[0] == "Round,Grain,Gold"
    result = run_cli("new", "other", "--from", str(tmp_path / "farm.xlsx"), "--sheet", "Card", "--root", str(tmp_path))
    assert result.exit_code == 1 and "--sheet 'Card' is not a worksheet" in result.stderr
    assert 'did you mean "Cards"?' in result.stderr and not (tmp_path / "cards/other").exists()


def test_a_workbook_saved_without_its_formulas_values_is_refused_naming_the_cells(tmp_path):
    workbook(tmp_path / "farm.xlsx", cached=False)
    result = run_cli("new", "farm", "--from", str(tmp_path / "farm.xlsx"), "--root", str(tmp_path))
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    said = " ".join(result.stderr.split())
    assert "farm.xlsx:Cards:D2: error[source-unreadable]: sheet 'Cards' holds formulas saved without their values (D2, D3, D4)" in said
    assert "save it again" in said and not (tmp_path / "cards").exists()
    # the same refusal when importing it into a pack
    assert run_cli("new", "mill", "--root", str(tmp_path)).exit_code == 0
    result = run_cli("import", "mill", str(tmp_path / "farm.xlsx"), "--root", str(tmp_path))
    assert result.exit_code == 1 and "formulas saved without their values" in result.stderr


def test_an_ods_workbook_reads_like_an_xlsx_one(tmp_path):
    ods(tmp_path / "farm.ods")
    result = run_cli("new", "farm", "--from", str(tmp_path / "farm.ods"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    rows = (tmp_path / "cards/farm/farm.csv").read_text().splitlines()
    assert rows[0] == "Name,Stage,Base,Power,Text" and rows[3].startswith("Castle,Late,5,10,")
    assert "not cards: 'Figures'" in " ".join(result.stderr.split())
    game = yaml.safe_load((tmp_path / "cards/farm/game.yaml").read_text())
    assert game["card_types"]["card"]["schema"]["properties"]["power"] == {"type": "integer"}
    clean(tmp_path)


def test_a_broken_ods_file_is_a_located_diagnostic(tmp_path):
    (tmp_path / "bad.ods").write_bytes(b"not a workbook")
    result = run_cli("new", "bad", "--from", str(tmp_path / "bad.ods"), "--root", str(tmp_path))
    assert result.exit_code == 1 and "error[source-unreadable]: not an OpenDocument spreadsheet" in result.stderr
    assert "Traceback" not in result.stderr


def test_sheets_of_versions_are_left_out_and_sheets_per_type_joined(tmp_path):
    book = Workbook()
    first = book.active
    first.title = "v2"
    for row in (["Name", "Card Type", "Cost", "Effect"], ["Oak", "Plant", 1, "Grow."], ["Fox", "Beast", 2, "Hunt."],
                ["", "", "{}", ""], [None, None, None, None]):
        first.append(row)
    old = book.create_sheet("v1")
    for row in (["Name", "Card Type", "Cost", "Effect"], ["Oak", "Plant", 2, "Grow more."], ["Fox", "Beast", 3, "Hunt."]):
        old.append(row)
    book.save(tmp_path / "versions.xlsx")
    result = run_cli("new", "wood", "--from", str(tmp_path / "versions.xlsx"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "not cards: 'v1' (a sheet like 'v2', which has its own type column)" in " ".join(result.stderr.split())
    clean(tmp_path)
    # sheets per card type, without a type column: joined, the type from the sheet's name; a repeated sheet left out
    book = Workbook()
    for title, rows in (("Plants", [["Name", "Cost"], ["Oak", 1], ["Elm", 2]]),
                        ("Beasts", [["Name", "Cost"], ["Fox", 2], ["Owl", 3]]),
                        ("Plants old", [["Name", "Cost"], ["Oak", 2], ["Elm", 3]])):
        sheet = book.active if title == "Plants" else book.create_sheet(title)
        sheet.title = title
        for row in rows:
            sheet.append(row)
    book.save(tmp_path / "kinds.xlsx")
    result = run_cli("new", "kinds", "--from", str(tmp_path / "kinds.xlsx"), "--root", str(tmp_path / "k"))
    assert result.exit_code == 0, result.output
    said = " ".join(result.stderr.split())
    assert "cards from 'Plants', 'Beasts'; not cards: 'Plants old' (another version of 'Plants'" in said
    assert (tmp_path / "k/cards/kinds/kinds.csv").read_text().splitlines()[0] == "Type,Name,Cost"
    clean(tmp_path / "k")


def test_brace_tokens_become_icons_and_rows_without_a_name_are_skipped(tmp_path):
    (tmp_path / "mana.csv").write_text("Name,Cost,Effect,No\nBolt,{R},Deal 3 damage. Costs {R}.,1\n"
                                       "Growth,{G}{G},Add {g} twice.,2\n,{},,3\n,{G},,4\n,,,5\nFizzle,{},Nothing happens.,6\n")
    result = run_cli("new", "mana", "--from", str(tmp_path / "mana.csv"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    game = yaml.safe_load((tmp_path / "cards/mana/game.yaml").read_text())
    assert sorted(game["icons"]) == ["g", "r"] and game["icons"]["r"]["text"] == "R"
    mapping = game["sources"]["mana.csv"]
    assert mapping["icons"] == {"{R}": "r", "{G}": "g"} and mapping["skip_when"] == "not name"
    assert mapping["computed"] == {"cost": "{{ cost | replace('{}', '\\\\{}') }}"}  # empty braces print as written
    said = " ".join(result.stderr.split())
    assert "{R} -> {r}" in said and "2 rows without a name" in said
    clean(tmp_path)


def test_a_card_with_a_blank_type_cell_and_stats_with_question_marks(tmp_path):
    (tmp_path / "units.csv").write_text("title,type,cost,power,text\n"
                                        "Paladin,unit,2,3,Guard.\nSquire,unit,1,?,Follow.\nBolt,spell,1,,Deal 2.\n"
                                        "Mamba,,3,+2,Bite.\n")
    result = run_cli("new", "units", "--from", str(tmp_path / "units.csv"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    game = yaml.safe_load((tmp_path / "cards/units/game.yaml").read_text())
    assert list(game["card_types"]) == ["unit", "spell", "untyped"] and game["sources"]["units.csv"]["type"] == "untyped"
    assert "1 card with a blank 'type' cell (row 5): card type 'Untyped'" in " ".join(result.stderr.split())
    layout = yaml.safe_load((tmp_path / "layouts/units.yaml").read_text())
    elements = layout["layouts"]["unit"]["elements"]
    assert "badge_power" in elements and "badge_cost" in elements  # "?" and "+2" still make a stat a badge
    clean(tmp_path)


def test_a_two_row_header_and_columns_of_marks(tmp_path):
    # a sheet per card type, each with a row of group labels over the column names, X marking a column
    book = Workbook()
    for title, rows in (("Protocol", [[None, None, "Provides", None, "Needs", None],
                                      ["Name", "Cost", "Address", "Speed", "Address", "Speed"],
                                      ["Ping", 2, "X", None, None, "X"], ["Relay", 3, None, "X", "X", None]]),
                        ("Service", [[None, None, "Provides", None, "Needs", None],
                                     ["Name", "Cost", "Address", "Speed", "Address", "Speed"],
                                     ["Mail", 1, None, None, "X", None], ["Chat", 2, None, "X", "X", "X"]])):
        sheet = book.active if title == "Protocol" else book.create_sheet(title)
        sheet.title = title
        for row in rows:
            sheet.append(row)
    book.save(tmp_path / "net.xlsx")
    result = run_cli("new", "net", "--from", str(tmp_path / "net.xlsx"), "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    header = (tmp_path / "cards/net/net.csv").read_text().splitlines()[0]
    assert header == "Type,Name,Cost,Provides Address,Provides Speed,Needs Address,Needs Speed"
    clean(tmp_path)
    assert run_cli("build", "net", "--root", str(tmp_path)).exit_code == 0
    import pdfplumber

    with pdfplumber.open(tmp_path / "output/net/deck.pdf") as pdf:
        text = " ".join(pdf.pages[0].extract_text().split())
    assert "Provides Address · Needs Speed" in text and "Needs Address" in text  # the marked columns by name
    assert " X " not in f" {text} "  # never the bare mark
