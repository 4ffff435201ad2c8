"""The checker, family by family: a clean fixture pack, and one break per family.

tests/fixtures/project/cards/mini is a tiny pack on which every check passes. Each case
copies it, changes one line, and expects exactly one finding of the family's code, on the
changed line of the changed file.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, REPO, run_cli

MINI = FIXTURES / "project"


def mini_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(MINI, root)
    return root


def change(root: Path, file: str, old: str, new: str) -> int:
    """Replace ``old`` with ``new`` once in cards/mini/``file``; returns the changed line (1-based)."""
    path = root / "cards/mini" / file
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} must occur once in {file}"
    path.write_text(text.replace(old, new))
    return text[:text.index(old)].count("\n") + 1


def check_json(root: Path, *extra: str):
    result = run_cli("check", "mini", "--root", str(root), "--format", "json", *extra)
    return result.exit_code, json.loads(result.stdout)["diagnostics"]


def test_the_clean_fixture_has_no_findings(tmp_path):
    code, found = check_json(mini_project(tmp_path), "--strict")
    assert (code, found) == (0, [])


CASES = [
    # family, file, old, new, code, where the finding is expected (None: the changed line;
    # an int: lines after the changed one; a (file, text) pair: the line holding text), exit code
    ("schema", "cards.yaml", "power: 2", "power: -2", "schema", None, 1),
    ("references", "cards.yaml", "the Sun Knight,", "the Sun Knigth,", "ref-unknown", None, 0),
    ("counts", "cards.yaml", "quantity: 2", "quantity: 3", "count-mismatch", ("game.yaml", "count: 4\n    card_types"), 1),
    ("counts (totals)", "game.yaml", "    count: 4\n    parts", "    count: 3\n    parts", "total-mismatch", None, 1),
    ("icons (unknown)", "cards.yaml", "Gain 1 mana. {sun}", "Gain 1 mana. {sunn}", "icon-unknown", None, 1),
    ("icons (unused)", "game.yaml", "icons:\n", "icons:\n  star: {label: Star, svg: icons/sun.svg}\n", "icon-unused", 1, 0),
    ("glossary (misspelt)", "cards.yaml", "Gain 1 mana.", "Gain 1 manna.", "term-misspelt", None, 0),
    ("glossary (unused)", "game.yaml", "glossary:\n", "glossary:\n  tap:\n    definition: Turn it.\n", "term-unused", 1, 0),
    ("text fit", "cards.yaml", "Exhaust a spell.", "Exhaust a spell. " + "Then exhaust another spell, and another. " * 14,
     "text-overflow", -1, 1),
    ("rules (assert)", "cards.yaml", "power: 3", "power: 7", "rule-failed", -2, 1),
    ("rules (expect)", "cards.yaml", "  - name: Fireball\n    type: spell\n    quantity: 2\n",
     "  - name: Star Rogue\n    type: hero\n    power: 1\n    text: Hide.\n  - name: Fireball\n    type: spell\n",
     "rule-failed", ("game.yaml", "- id: two-heroes"), 1),
]


@pytest.mark.parametrize("family, file, old, new, code, offset, exit_code", CASES, ids=[c[0] for c in CASES])
def test_each_family_reports_its_break_once_on_its_line(tmp_path, family, file, old, new, code, offset, exit_code):
    root = mini_project(tmp_path)
    line = change(root, file, old, new)
    status, found = check_json(root)
    assert status == exit_code
    hits = [d for d in found if d["code"] == code]
    assert len(hits) == 1, found
    (hit,) = hits
    if isinstance(offset, tuple):
        expected_file, marker = offset
        text = (root / "cards/mini" / expected_file).read_text()
        expected_line = text[:text.index(marker)].count("\n") + 1
    else:
        expected_file, expected_line = file, line + (offset or 0)
    assert hit["file"].endswith(f"cards/mini/{expected_file}")
    assert hit["line"] == expected_line
    others = [d for d in found if d["code"] != code]
    assert others == [], others


def test_reference_hint_is_a_did_you_mean(tmp_path):
    root = mini_project(tmp_path)
    line = change(root, "cards.yaml", "the Sun Knight,", "the Sun Knigth,")
    _, found = check_json(root)
    (hit,) = found
    assert hit["hint"] == 'did you mean "Sun Knight"?'
    text = (root / "cards/mini/cards.yaml").read_text().splitlines()[line - 1]
    assert text[hit["column"] - 1:].startswith("Sun Knigth")


def test_icon_column_points_at_the_token_in_a_block_scalar(tmp_path):
    root = mini_project(tmp_path)
    line = change(root, "cards.yaml", "Pay 1 mana: {moon}", "Pay 1 mana: {mon}")
    _, found = check_json(root)
    (hit,) = [d for d in found if d["code"] == "icon-unknown"]
    assert hit["line"] == line
    text = (root / "cards/mini/cards.yaml").read_text().splitlines()[line - 1]
    assert text[hit["column"] - 1:] == "{mon}"
    assert hit["hint"] == 'did you mean "moon"?'


def test_a_rule_that_fails_names_every_card_that_breaks_it(tmp_path):
    root = mini_project(tmp_path)
    change(root, "game.yaml", "card.power <= 5", "card.power <= 2")
    _, found = check_json(root)
    (hit,) = found
    assert hit["code"] == "rule-failed" and "Sun Knight" in hit["message"] and "Moon Witch" not in hit["message"]


def test_a_rule_is_sandboxed_and_an_unsafe_expression_is_reported(tmp_path):
    root = mini_project(tmp_path)
    line = change(root, "game.yaml", "count == 2", "cards.__class__.__mro__[1].__subclasses__() | length > 0")
    _, found = check_json(root)
    (hit,) = found
    assert hit["code"] == "rule-invalid" and hit["line"] == line - 3
    assert "SecurityError" in hit["message"] or "UndefinedError" in hit["message"] or "unsafe" in hit["message"]


def test_warnings_fail_only_with_strict(tmp_path):
    root = mini_project(tmp_path)
    change(root, "cards.yaml", "the Sun Knight,", "the Sun Knigth,")
    assert check_json(root)[0] == 0
    assert check_json(root, "--strict")[0] == 1


def test_errata_correct_the_printed_card_and_stale_errata_are_errors(tmp_path):
    root = mini_project(tmp_path)
    change(root, "cards.yaml", "the Sun Knight,", "the Sun Knigth,")
    errata = root / "cards/mini/errata.yaml"
    errata.write_text("errata:\n  - card: Fireball\n    field: text\n    printed: Knigth\n    corrected: Knight\n"
                      "    reason: misprint\n")
    status, found = check_json(root, "--strict")
    assert status == 0 and [d["code"] for d in found] == ["errata-applied"]
    errata.write_text(errata.read_text().replace("printed: Knigth", "printed: Kniggth"))
    status, found = check_json(root)
    assert status == 1 and "errata-stale" in [d["code"] for d in found]


def test_a_name_erratum_renames_the_card_for_the_checks_and_the_deck_alike(tmp_path):
    """The card as printed is 'Sun Knigt'; its erratum makes it 'Sun Knight' everywhere: the
    references that name the Sun Knight resolve, and the deck prints the corrected name."""
    import pdfplumber

    root = mini_project(tmp_path)
    line = change(root, "cards.yaml", "- name: Sun Knight", "- name: Sun Knigt")
    _, unfixed = check_json(root)
    assert any(d["code"] == "ref-unknown" and "Sun Knight" in d["message"] for d in unfixed)
    (root / "cards/mini/errata.yaml").write_text("errata:\n  - card: Sun Knigt\n    field: name\n"
                                                 "    printed: Sun Knigt\n    corrected: Sun Knight\n"
                                                 "    reason: misprint\n")
    status, found = check_json(root, "--strict")
    assert status == 0 and [(d["code"], d["line"]) for d in found] == [("errata-applied", line)]
    built = run_cli("build", "mini", "--root", str(root))
    assert built.exit_code == 0, built.stderr
    with pdfplumber.open(root / "output/mini/deck.pdf") as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    assert "Sun Knight" in text and "Sun Knigt" not in text


def test_build_refuses_on_errors_and_force_builds_loudly(tmp_path):
    root = mini_project(tmp_path)
    change(root, "cards.yaml", "power: 3", "power: 7")
    refused = run_cli("build", "mini", "--root", str(root))
    assert refused.exit_code == 1 and not (root / "output/mini/deck.pdf").exists()
    forced = run_cli("build", "mini", "--root", str(root), "--force")
    assert (root / "output/mini/deck.pdf").exists()
    assert "warning[build-forced]" in forced.stderr


def test_check_on_every_real_pack_is_fast():
    """`cardforge check` over every pack stays well under a second (measured, not timed-out)."""
    started = time.perf_counter()
    result = run_cli("check", "--root", str(REPO), "--format", "json", "--no-cache")
    elapsed = time.perf_counter() - started
    assert json.loads(result.stdout)["summary"]["error"] == 0, result.stdout[:2000]
    print(f"check of every pack: {elapsed:.2f} s")
