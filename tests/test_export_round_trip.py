"""``cardforge export-cards`` writes every source column the designer had: a column whose field
the mapping computes (even from that very column) and a column the mapping skips hold the
designer's own cells, so importing the export, or reading it as the pack's sheet, gives the same
cards."""
from __future__ import annotations

import csv

from tests.conftest import edit, run_cli


def _cards(root, slug):
    from cardforge.build import Project, compile_game

    game = compile_game(root / "cards" / slug, Project(root)).game
    return [(c.name, c.type, c.quantity, c.data) for c in game.cards]


def test_computed_fields_come_back_as_their_source_columns(tmp_path):
    sheet = tmp_path / "guild.csv"
    sheet.write_text("Name,Ability,Cost,Scratch\n"
                     "Smith,Forge a blade,2,ask Ann\n"
                     "Baker,Bake bread,1,\n"
                     "Mason,Raise a wall,3,too strong?\n")
    root = tmp_path / "project"
    assert run_cli("new", "guild", "--from", str(sheet), "--root", str(root)).exit_code == 0
    game = root / "cards/guild/game.yaml"
    # the designer's mapping computes the ability from its own column and the cost, and skips a scratch column
    edit(game, "  guild.csv: {type: card}\n", "  guild.csv:\n    type: card\n    skip: [Scratch]\n"
                                             "    computed: {ability: \"{{ ability }} ({{ cost }} gold)\"}\n")
    before = _cards(root, "guild")
    assert [d["ability"] for _, _, _, d in before] == ["Forge a blade (2 gold)", "Bake bread (1 gold)", "Raise a wall (3 gold)"]
    out = tmp_path / "export"
    result = run_cli("export-cards", "guild", "--format", "csv", "--out", str(out), "--root", str(root))
    assert result.exit_code == 0, result.output
    rows = list(csv.reader((out / "guild.csv").read_text().splitlines()))
    assert rows[0] == ["Name", "Ability", "Cost", "Scratch"]
    assert [r[1] for r in rows[1:]] == ["Forge a blade", "Bake bread", "Raise a wall"]  # the source column, not blank
    assert [r[3] for r in rows[1:]] == ["ask Ann", "", "too strong?"]  # a skipped column kept too
    # read back as the pack's sheet: the same cards
    (root / "cards/guild/guild.csv").write_bytes((out / "guild.csv").read_bytes())
    assert _cards(root, "guild") == before
    # and imported from a workbook with the mapping written beside it
    assert run_cli("export-cards", "guild", "--format", "xlsx", "--out", str(out), "--root", str(root)).exit_code == 0
    (root / "cards/guild/guild.csv").unlink()
    result = run_cli("import", "guild", str(out / "guild.xlsx"), "--mapping", str(out / "cards.mapping.yaml"),
                     "--root", str(root))
    assert result.exit_code == 0, result.output
    assert _cards(root, "guild") == before
