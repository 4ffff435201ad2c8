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


def _marks(pdf_path: Path, text: str) -> list[list[dict]]:
    """Per page of ``pdf_path``: where ``text`` is printed (pdfplumber search matches)."""
    with pdfplumber.open(pdf_path) as pdf:
        return [page.search(text, regex=False) for page in pdf.pages]


def _fronts(project: Path, slug: str, options):
    """(page index, the trims (x0, top, x1, bottom) of its cards from the page's top, safe
    area inset) of every fronts page of the game's deck.pdf, pt."""
    from cardforge.build import Project, compile_game
    from cardforge.render.deck import plan

    compiled = compile_game(project / "cards" / slug, Project(project))
    page, found = 0, []
    for unit in plan(compiled.game, compiled.layouts, options):
        assert unit.batch is not None, "a board: tiled, and carries no version mark"
        sheet = unit.sheet
        w, h = sheet.card
        trims = []
        for i, card in enumerate(unit.batch):
            x, y = sheet.slot(i)
            trims.append(((x, sheet.paper[1] - y - h, x + w, sheet.paper[1] - y), compiled.layouts.for_card(card)))
        found.append((page, trims))
        page += unit.pages
    return found


@pytest.mark.parametrize("slug", ["mini", "gate", "arkham-gates"])
def test_version_mark_on_every_front_inside_the_safe_area_and_off_the_text(tmp_path, slug):
    from cardforge.render.deck import DeckOptions
    from tests.conftest import REPO, build_only, make_project

    root = tmp_path / "project"
    if slug == "mini":
        shutil.copytree(FIXTURES / "project", root)
    else:
        make_project(root, slug, source=REPO)
    build_only(root, slug, "deck.pdf", version_mark="a1b2c3d")  # as `cardforge build --version-mark` (the one output read)
    deck = root / "output" / slug / "deck.pdf"
    fronts = _fronts(root, slug, DeckOptions())
    with pdfplumber.open(deck) as pdf:  # read once: the marks searched and the words beside them
        marks = [page.search("a1b2c3d", regex=False) for page in pdf.pages]
        for page, trims in fronts:
            found = marks[page]
            assert len(found) == len(trims)  # one a card
            words = [c for c in pdf.pages[page].chars if c["size"] > 5.5]  # everything else printed on the page
            for (x0, top, x1, bottom), layout in trims:
                inside = [m for m in found if x0 <= m["x0"] and m["x1"] <= x1 and top <= m["top"] and m["bottom"] <= bottom]
                assert len(inside) == 1
                m, s = inside[0], layout.safe
                assert x0 + s - 0.5 <= m["x0"] and m["x1"] <= x1 - s + 0.5
                assert top + s - 0.5 <= m["top"] and m["bottom"] <= bottom - s + 0.5
                assert not [c for c in words if c["x0"] < m["x1"] and m["x0"] < c["x1"]
                            and c["top"] < m["bottom"] and m["top"] < c["bottom"]]
        backs = [i for i in range(len(pdf.pages)) if i not in {p for p, _ in fronts}]
        assert backs and not any(marks[i] for i in backs)


def test_version_mark_from_game_yaml_and_refused_when_unprintable(tmp_path):
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    game = root / "cards" / "mini" / "game.yaml"
    game.write_text(game.read_text() + "\nbuild:\n  version_mark: playtest 3\n")
    assert run_cli("check", "mini", "--root", str(root)).exit_code == 0
    assert run_cli("build", "mini", "--jobs", "1", "--root", str(root)).exit_code == 0
    assert sum(len(m) for m in _marks(root / "output" / "mini" / "deck.pdf", "playtest 3")) == 4
    refused = run_cli("build", "mini", "--version-mark", "v\u00e9", "--root", str(root))
    assert refused.exit_code == 2 and "ASCII" in refused.output


def test_diff_of_a_spreadsheet_pack_names_the_row(tmp_path):
    """A pack made from a CSV sheet (with its mapping) is compared as a build loads it."""
    from tests.conftest import REPO

    root = tmp_path / "project"
    root.mkdir()
    assert run_cli("new", "harvest", "--from", str(REPO / "examples" / "harvest.csv"), "--root", str(root)).exit_code == 0
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    sheet = root / "cards" / "harvest" / "harvest.csv"
    rows = sheet.read_text().splitlines()
    row = next(i for i, r in enumerate(rows) if r.startswith("Building,Quarry,3,"))
    rows[row] = rows[row].replace("Building,Quarry,3,", "Building,Quarry,4,")
    sheet.write_text("\n".join(rows) + "\n")
    result = run_cli("diff", "harvest", "HEAD", "--root", str(root))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[:2] == [f"{_shown(sheet)}:{row + 1}: changed: Quarry (building)",
                                              f"  {_shown(sheet)}:{row + 1}: cost: 3 -> 4"]


def _shown(path: Path) -> str:
    from cardforge.util.diagnostics import display_path

    return display_path(path)


def test_a_long_changelog_gets_a_page_of_its_own(tmp_path):
    """An icon of Gate redrawn: every card prints differently, and the changelog, a line per
    card, does not fit in the last sheet's empty slots: it is a page after the sheets."""
    from tests.conftest import REPO, make_project

    root = make_project(tmp_path / "project", "gate", source=REPO)
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    icon = sorted((root / "cards" / "gate" / "icons").glob("*.svg"))[0]
    icon.write_text(icon.read_text() + "\n<!-- redrawn -->\n")
    changed = json.loads(run_cli("diff", "gate", "HEAD", "--format", "json", "--root", str(root)).stdout)["changes"]
    assert len(changed) > 20 and {c["kind"] for c in changed} == {"prints differently"}
    result = run_cli("build", "gate", "--changed-since", "HEAD", "--jobs", "1", "--root", str(root))
    assert result.exit_code == 0, result.output
    assert "on a page of its own" in " ".join(result.stderr.split())
    with pdfplumber.open(root / "output" / "gate" / "reprint.pdf") as pdf:
        texts = [p.extract_text() for p in pdf.pages]
    first = next(i for i, t in enumerate(texts) if "reprint of the cards changed since" in t)
    assert first > 0 and first % 2 == 0  # after the last sheet's fronts and backs
    log = "\n".join(texts[first:])
    assert all(c["name"] in log for c in changed)


def test_the_changelog_prints_icon_tokens_as_icons(repo):
    """A changed text with `{sun}` shows the Sun icon in the changelog, not the token."""
    cards = repo / "cards" / "mini" / "cards.yaml"
    cards.write_text(cards.read_text().replace('text: "Gain 1 mana. {sun}"', 'text: "Gain 2 mana. {sun}"'))
    result = run_cli("build", "mini", "--changed-since", "HEAD", "--jobs", "1", "--root", str(repo))
    assert result.exit_code == 0, result.output
    with pdfplumber.open(repo / "output" / "mini" / "reprint.pdf") as pdf:
        front = pdf.pages[0]
        text = front.extract_text()
        assert "Gain 1 mana." in text and "Gain 2 mana." in text and "{sun}" not in text
        (line,) = [w for w in front.extract_words() if w["text"] == "→"]  # the changelog's line
        beside = [im for im in front.images if abs(im["top"] - line["top"]) < 12]
        assert len(beside) >= 2, front.images  # the old text's sun and the new one's, inline
    assert not list((repo / "output" / "mini").glob(".reprint-icons-*"))  # the pictures' folder is gone
