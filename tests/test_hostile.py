"""Hostile and broken input beyond the corpus: internal errors, merge keys, locks, killed builds."""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from cardforge.util.paths import resolve_inside
from cardforge.util.diagnostics import Diagnostic
from cardforge.staging import build_lock
from tests.conftest import FIXTURES, REPO, make_project, run_cli


def mini(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    return root


def test_an_internal_error_is_one_line_a_log_file_and_exit_2(tmp_path, monkeypatch):
    root = mini(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in cardforge")

    monkeypatch.setattr("cardforge.checking.compile_game", broken)  # what check runs per game
    result = run_cli("check", "mini", "--root", str(root))
    assert result.exit_code == 2
    assert "error[internal-error]" in result.stderr and "please report it" in result.stderr.lower()
    assert "Traceback" not in result.output
    (log,) = (tmp_path / "state" / "cardforge").glob("internal-error-*.log")
    logged = log.read_text()
    assert str(log) in result.stderr
    # it points only at a real place: the README's section, which says what to include
    assert '"Reporting a bug"' in result.stderr and "http" not in result.stderr
    assert "## Reporting a bug" in (REPO / "README.md").read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in logged and "RuntimeError: a bug in cardforge" in logged


def test_output_piped_to_a_reader_that_stops_early_ends_quietly(tmp_path):
    """``cardforge cache info | head -1``: the reader closes the pipe before the table is
    written. That is no bug of cardforge's: no internal-error line and no log, exit 141 (as
    a command stopped by SIGPIPE)."""
    import subprocess
    import sys

    root = mini(tmp_path)
    read, write = os.pipe()
    os.close(read)  # the reader has gone before the first line
    try:
        proc = subprocess.run([sys.executable, "-m", "cardforge", "cache", "info", "--root", str(root)], cwd=REPO,
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=120,
                              env={**os.environ, "XDG_STATE_HOME": str(tmp_path / "state")})
    finally:
        os.close(write)
    assert proc.returncode == 141, proc.stderr
    assert proc.stderr == ""
    assert not list((tmp_path / "state").glob("**/internal-error-*.log"))


def test_a_forced_build_with_an_icon_file_refused_prints_its_token_in_the_rules(tmp_path):
    """An icon whose file is refused (here a folder) is an error; with --force the game is
    built anyway, and the rules documents print the icon's ``{token}`` where its picture
    would be, as for an unknown icon, instead of failing inside."""
    slug = "through-the-gate"
    root = make_project(tmp_path, slug)
    svg = root / "cards" / slug / "icons" / "companion.svg"
    svg.unlink()
    svg.mkdir()
    result = run_cli("build", slug, "--force", "--root", str(root))
    assert "error[file-special]" in result.stderr and "internal-error" not in result.stderr, result.stderr
    assert "warning[build-forced]" in result.stderr and result.exit_code == 0
    from tests.test_rulebook_html import pdf_text

    for name in ("reference.pdf", "rulebook.pdf"):
        assert "{companion}" in "".join(pdf_text(root / "output" / slug / name)), name
    assert "{companion}" in (root / "output" / slug / "rulebook.html").read_text(encoding="utf-8")


def test_yaml_merge_keys_are_accepted_and_may_be_overridden(tmp_path):
    root = mini(tmp_path)
    cards = root / "cards/mini/cards.yaml"
    cards.write_text(cards.read_text().replace(
        "  - name: Moon Witch\n    type: hero\n    power: 2\n",
        "  - &hero\n    name: Moon Witch\n    type: hero\n    power: 2\n", 1).replace(
        "cards:\n", "base: &spell {type: spell, cost: 9, text: none}\ncards:\n", 1).replace(
        "  - name: Fireball\n    type: spell\n    quantity: 2\n    cost: 2\n",
        "  - <<: *spell\n    name: Fireball\n    quantity: 2\n    cost: 2\n", 1))
    result = run_cli("check", "mini", "--root", str(root), "--format", "json")
    found = json.loads(result.stdout)["diagnostics"]
    assert not [d for d in found if d["code"] in ("yaml-duplicate-key", "schema", "yaml-syntax")], found
    assert result.exit_code == 0, found
    from cardforge.sources.load import load_game

    game, _ = load_game(root / "cards/mini")
    fireball = next(c for c in game.cards if c.name == "Fireball")
    assert fireball.type == "spell" and fireball.data["cost"] == 2 and fireball.data["text"] != "none"


def test_a_key_repeated_after_a_merge_is_still_a_duplicate(tmp_path):
    root = mini(tmp_path)
    cards = root / "cards/mini/cards.yaml"
    cards.write_text("base: &b {type: hero}\n" + cards.read_text().replace(
        "  - name: Sun Knight\n    type: hero\n", "  - <<: *b\n    name: Sun Knight\n    power: 1\n", 1))
    result = run_cli("check", "mini", "--root", str(root), "--format", "json")
    dup = [d for d in json.loads(result.stdout)["diagnostics"] if d["code"] == "yaml-duplicate-key"]
    assert result.exit_code == 1 and len(dup) == 1 and dup[0]["line"] == 6


@pytest.mark.parametrize("shift", ["nan,0", "0,inf", "1e9,0"])
def test_a_duplex_shift_that_is_not_a_number_is_a_usage_error(tmp_path, shift):
    result = run_cli("build", "mini", "--root", str(mini(tmp_path)), "--duplex-shift", shift)
    assert result.exit_code == 2
    assert "DX,DY" in result.output and "Traceback" not in result.output


def test_resolve_inside_returns_the_real_path_or_a_located_diagnostic(tmp_path):
    root = mini(tmp_path)
    pack = root / "cards/mini"
    assert resolve_inside(pack, "icons/sun.svg") == (pack / "icons/sun.svg").resolve()
    assert resolve_inside(pack, "../../layouts/mini.yaml") == (root / "layouts/mini.yaml").resolve()  # in the project
    (pack / "escape.svg").symlink_to(tmp_path.parent)
    for name in ("../../../x.svg", "/etc/hostname", "https://example.com/a.svg", "escape.svg", 7):
        found = resolve_inside(pack, name, file="game.yaml", line=12, column=5)
        assert isinstance(found, Diagnostic) and found.code == "path-outside-pack", name
        assert (found.file, found.line, found.column) == ("game.yaml", 12, 5)
    os.mkfifo(pack / "pipe.svg")
    assert resolve_inside(pack, "pipe.svg").code == "file-special"


def test_a_second_build_of_the_same_game_is_refused_while_one_runs(tmp_path):
    root = mini(tmp_path)
    assert run_cli("build", "mini", "--root", str(root)).exit_code == 0
    folder = root / "output/mini"
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    with build_lock(folder):  # another build holds the lock; --no-cache: this one must write
        result = run_cli("build", "mini", "--root", str(root), "--no-cache")
    assert result.exit_code == 1
    assert "error[build-locked]" in result.stderr and f"process {os.getpid()}" in result.stderr
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert run_cli("build", "mini", "--root", str(root)).exit_code == 0  # released


def test_a_failed_build_removes_its_staging_folder_and_sweeps_old_ones(tmp_path, monkeypatch):
    root = mini(tmp_path)
    folder = root / "output/mini"
    (folder / ".build-left-by-a-killed-build").mkdir(parents=True)
    (folder / ".build-left-by-a-killed-build/deck.pdf").write_bytes(b"half")
    beside = root / "output/.mini.build-k1lled00/mini"  # where builds stage now
    beside.mkdir(parents=True)
    (beside / "deck.pdf").write_bytes(b"half")

    def fails(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("cardforge.render.deck.render_deck", fails)  # in this process: one job
    result = run_cli("build", "mini", "--jobs", "1", "--root", str(root))
    assert result.exit_code == 1 and "error[write-failed]" in result.stderr
    assert list(folder.iterdir()) == []
    assert not [p for p in (root / "output").iterdir() if ".build-" in p.name]


def test_an_output_folder_that_is_a_file_is_write_failed(tmp_path):
    root = mini(tmp_path)
    (root / "output").write_text("not a folder")
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code == 1
    assert "error[write-failed]" in result.stderr and "is a file, not a folder" in result.stderr
    assert (root / "output").read_text() == "not a folder"
