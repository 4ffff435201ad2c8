"""`cardforge diff` and `cardforge build --changed-since`: on a temporary git repository made
from a copy of the mini pack, one card edited and committed."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pdfplumber
import pytest

from tests.conftest import FIXTURES, run_cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

NAMES = ("Sun Knight", "Moon Witch", "Fireball")


def git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=root,
                          check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The mini project committed, then Sun Knight's power edited (3 -> 4) and committed."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    cards = root / "cards" / "mini" / "cards.yaml"
    cards.write_text(cards.read_text().replace("power: 3", "power: 4"))
    git(root, "commit", "-qam", "Sun Knight stronger")
    return root


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_diff_names_the_field_with_file_and_line(repo, capsys):
    result = run_cli("diff", "mini", "HEAD~1", "--root", str(repo))
    assert result.exit_code == 0, result.output
    cards = repo / "cards" / "mini" / "cards.yaml"
    card_line, field_line = line_of(cards, "Sun Knight"), line_of(cards, "power: 4")
    lines = result.stdout.splitlines()
    assert lines[0].endswith(f"cards.yaml:{card_line}: changed: Sun Knight (hero)")
    assert lines[1].strip().endswith(f"cards.yaml:{field_line}: power: 3 -> 4")
    assert lines[-1].startswith("1 changed since HEAD~1 (")
    assert not any(name in result.stdout for name in NAMES[1:])


def test_diff_json_added_and_removed(repo):
    cards = repo / "cards" / "mini" / "cards.yaml"
    text = cards.read_text()
    moved = text.replace("  - name: Moon Witch", "  - name: Star Witch")
    cards.write_text(moved)
    result = run_cli("diff", "mini", "HEAD", "--format", "json", "--root", str(repo))
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    kinds = {(c["kind"], c["name"]): c for c in found["changes"]}
    assert set(kinds) == {("added", "Star Witch"), ("removed", "Moon Witch")}
    assert kinds[("added", "Star Witch")]["line"] == line_of(cards, "Star Witch")
    assert kinds[("removed", "Moon Witch")]["line"] == line_of(cards, "Star Witch")  # the old file's line


def test_a_layout_change_prints_differently(repo):
    layout = repo / "layouts" / "mini.yaml"
    assert "#333333" in layout.read_text()
    layout.write_text(layout.read_text().replace("#333333", "#663333"))
    result = run_cli("diff", "mini", "HEAD", "--format", "json", "--root", str(repo))
    found = json.loads(result.stdout)
    assert {c["kind"] for c in found["changes"]} == {"prints differently"}
    assert {c["name"] for c in found["changes"]} <= set(NAMES) and found["changes"]
    assert all(c["fields"] == [] for c in found["changes"])


def test_reprint_holds_exactly_the_edited_card(repo):
    result = run_cli("build", "mini", "--changed-since", "HEAD~1", "--jobs", "1", "--root", str(repo))
    assert result.exit_code == 0, result.output
    out = repo / "output" / "mini" / "reprint.pdf"
    with pdfplumber.open(out) as pdf, pdfplumber.open(repo / "output" / "mini" / "deck.pdf") as deck:
        assert len(pdf.pages) == 2  # one duplex sheet: fronts, then backs
        assert [p.width for p in pdf.pages] == [deck.pages[0].width] * 2
        front = pdf.pages[0].extract_text()
        assert "Sun Knight" in front and "power 3 → 4" in front  # the card and its changelog line
        whole = "\n".join(p.extract_text() for p in pdf.pages)
        assert not any(name in whole for name in NAMES[1:])
        assert front.count("Sun Knight") == 2  # printed once, named once in the changelog
    assert "the changelog in the empty card slots" in " ".join(result.stderr.split())


def test_nothing_changed_no_reprint_and_the_stale_one_deleted(repo):
    assert run_cli("build", "mini", "--changed-since", "HEAD~1", "--jobs", "1", "--root", str(repo)).exit_code == 0
    out = repo / "output" / "mini" / "reprint.pdf"
    assert out.is_file()
    result = run_cli("build", "mini", "--changed-since", "HEAD", "--jobs", "1", "--root", str(repo))
    assert result.exit_code == 0, result.output
    assert not out.exists()
    assert "no card changed since HEAD" in " ".join(result.stderr.split())


def test_diff_since_the_last_build(repo):
    missing = run_cli("diff", "mini", "--root", str(repo))
    assert missing.exit_code == 1 and "build-record-missing" in missing.stderr
    assert run_cli("build", "mini", "--jobs", "1", "--root", str(repo)).exit_code == 0
    same = run_cli("diff", "mini", "--root", str(repo))
    assert same.exit_code == 0 and "no card changed since the last build" in same.stdout
    cards = repo / "cards" / "mini" / "cards.yaml"
    cards.write_text(cards.read_text().replace("cost: 2", "cost: 1"))
    changed = run_cli("diff", "mini", "--root", str(repo))
    assert f"cards.yaml:{line_of(cards, 'cost: 1')}: cost: 2 -> 1" in changed.stdout


@pytest.mark.parametrize("rev", ["no-such-rev", "HEAD~9", "HEAD^{tree}"])
def test_bad_revision_is_a_diagnostic(repo, rev):
    for args in (("diff", "mini", rev), ("build", "mini", f"--changed-since={rev}", "--jobs", "1")):
        result = run_cli(*args, "--root", str(repo))
        assert result.exit_code == 1
        assert "error[revision-invalid]" in result.stderr and "unknown revision" in result.stderr
        assert "Traceback" not in result.output
    assert not (repo / "output" / "mini").exists()  # refused before building


def test_not_a_repository_is_a_diagnostic(tmp_path):
    root = tmp_path / "plain"
    shutil.copytree(FIXTURES / "project", root)
    result = run_cli("diff", "mini", "HEAD", "--root", str(root))
    assert result.exit_code == 1 and "is not in a git repository" in result.stderr
