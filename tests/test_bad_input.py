"""Bad input: a diagnostic with file and line, exit code 1, no traceback, old output kept."""
from __future__ import annotations

import json
import shutil

from tests.conftest import make_project, run_cli


def break_card(root, old: str, new: str) -> int:
    """Replace ``old`` by ``new`` in the Through The Gate deck file; returns the 1-based line."""
    path = root / "cards/through-the-gate/deck.yaml"
    text = path.read_text()
    assert old in text
    line = text[:text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new, 1))
    return line


def test_a_card_that_breaks_its_schema_is_reported_at_its_line(tmp_path):
    root = make_project(tmp_path, "through-the-gate")
    line = break_card(root, "counted: true, icons: {compassion: 3}", "counted: yes-please, icons: {compassion: 3}")
    result = run_cli("check", "through-the-gate", "--root", str(root), "--format", "json")
    assert result.exit_code == 1
    found = json.loads(result.stdout)["diagnostics"]
    schema = [d for d in found if d["code"] == "schema"]
    assert len(schema) == 1
    assert schema[0]["file"].endswith("cards/through-the-gate/deck.yaml")
    assert schema[0]["line"] == line
    assert "Gloomy Forest" in schema[0]["message"] and "'yes-please' is not of type 'boolean'" in schema[0]["message"]


def test_text_output_reads_like_a_compiler(tmp_path):
    root = make_project(tmp_path, "through-the-gate")
    line = break_card(root, "type: event", "type: evnet")
    result = run_cli("check", "through-the-gate", "--root", str(root))
    assert result.exit_code == 1
    assert f"deck.yaml:{line}:" in result.stderr
    assert "error[card-type-unknown]" in result.stderr
    assert 'did you mean "event"?' in result.stderr
    assert "Traceback" not in result.output


def test_duplicate_key_loses_no_card_silently(tmp_path):
    root = make_project(tmp_path, "through-the-gate")
    line = break_card(root, "  - name: Dank Cavern\n", "  - name: Dank Cavern\n    name: Dark Cavern\n") + 1
    result = run_cli("check", "through-the-gate", "--root", str(root), "--format", "json")
    assert result.exit_code == 1
    (dup,) = [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "yaml-duplicate-key"]
    assert dup["line"] == line


def test_failed_build_leaves_previous_output_intact(tmp_path, ttg_build):
    root = tmp_path / "project"  # a copy of a built project: its cards, layouts and output
    shutil.copytree(ttg_build.root, root)
    folder = root / "output/through-the-gate"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sorted(before) == ["deck.pdf", "reference.pdf", "rulebook.html", "rulebook.pdf", "rules.pdf"]
    break_card(root, "name: Gloomy Forest", "name: [Gloomy Forest")
    result = run_cli("build", "through-the-gate", "--root", str(root))
    assert result.exit_code == 1
    assert "error[yaml-syntax]" in result.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before  # nothing lost, no staging left


def test_unknown_game_is_a_diagnostic(tmp_path):
    root = make_project(tmp_path, "through-the-gate")
    result = run_cli("build", "through-the-gat", "--root", str(root))
    assert result.exit_code == 1
    assert "no game pack named 'through-the-gat'" in result.stderr
    assert 'did you mean "through-the-gate"?' in result.stderr
