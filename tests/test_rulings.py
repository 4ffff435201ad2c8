"""Rulings and errata reach the print: `cardforge check` names, at its line in ERRATA.md, a
tagged ruling that no player-facing source cites or that "About this edition" does not list,
and names a citation that no tag defines; a cited ruling is explained once on each sheet."""
from __future__ import annotations

import re

import pypdf

from cardforge.build import Project, compile_game
from tests.conftest import make_project, run_cli

SLUG = "gate"


def _diagnostics(root, code: str):
    return [d for d in compile_game(root / "cards" / SLUG, Project(root)).diagnostics if d.code == code]


def _free_id(text: str) -> str:
    taken = {int(n) for n in re.findall(r"R(\d+)", text)}
    return f"R{max(taken, default=0) + 50}"


def test_a_ruling_nobody_prints_is_named_at_its_line_until_cited_and_listed(tmp_path):
    root = make_project(tmp_path, SLUG)
    pack = root / "cards" / SLUG
    assert _diagnostics(root, "ruling-unprinted") == [] and _diagnostics(root, "ruling-unknown") == []
    notes = pack / "ERRATA.md"
    rid = _free_id(notes.read_text(encoding="utf-8") + (pack / "rulebook.md").read_text(encoding="utf-8"))
    lines = notes.read_text(encoding="utf-8").splitlines()
    lines += ["", "## 99. A question nobody answers", "", f"- **Resolution**: **Ruling {rid}**: the table decides."]
    notes.write_text("\n".join(lines) + "\n", encoding="utf-8")

    found = _diagnostics(root, "ruling-unprinted")
    assert [d.line for d in found] == [len(lines)] and found[0].file.endswith("ERRATA.md")
    assert rid in found[0].message and "no rule" in found[0].message

    sheet = pack / "sheet.md"  # cited where the rule is printed, but not listed in About this edition
    sheet.write_text(sheet.read_text(encoding="utf-8").rstrip("\n") + f"\n\nThe table decides [{rid}].\n", encoding="utf-8")
    found = _diagnostics(root, "ruling-unprinted")
    assert len(found) == 1 and "About this edition" in found[0].message and found[0].line == len(lines)

    book = pack / "rulebook.md"
    text = book.read_text(encoding="utf-8")
    assert re.search(r"^## About this edition", text, re.M)
    book.write_text(text.rstrip("\n") + f"\n\n- [{rid}] The table decides.\n", encoding="utf-8")
    assert _diagnostics(root, "ruling-unprinted") == []

    result = run_cli("build", SLUG, "--root", str(root), "--jobs", "1")
    assert result.exit_code == 0, result.output
    sheet_text = " ".join(p.extract_text() for p in pypdf.PdfReader(root / "output" / SLUG / "rules.pdf").pages)
    sheet_text = re.sub(r"\s+", " ", sheet_text)
    assert f"[{rid}]" in sheet_text
    assert sheet_text.count("marks a ruling of this edition") == 1  # explained once on the sheet


def test_a_citation_no_tag_defines_is_named_where_it_is_written(tmp_path):
    root = make_project(tmp_path, SLUG)
    sheet = root / "cards" / SLUG / "sheet.md"
    rid = _free_id(sheet.read_text(encoding="utf-8"))
    lines = sheet.read_text(encoding="utf-8").rstrip("\n").splitlines() + ["", f"Nobody ruled on this [{rid}]."]
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = _diagnostics(root, "ruling-unknown")
    assert [(d.line, d.column) for d in found] == [(len(lines), lines[-1].index("[") + 1)]
    assert found[0].file.endswith("sheet.md")
