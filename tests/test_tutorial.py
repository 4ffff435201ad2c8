"""The tutorial "From a spreadsheet to a printed deck" (docs/tutorial.md), run as written: its commands and
its YAML snippets, on examples/harvest.csv, end to end to a deck.pdf holding every card."""
from __future__ import annotations

import csv
import re
import shlex

import pdfplumber

from tests.conftest import REPO, run_cli

SECTION = "# From a spreadsheet to a printed deck"


def tutorial() -> tuple[list[str], list[list[str]]]:
    """The tutorial's YAML snippets and its commands, in order."""
    text = (REPO / "docs" / "tutorial.md").read_text(encoding="utf-8")
    assert text.startswith(SECTION)
    snippets, commands, fence, block = [], [], None, []
    for line in text.splitlines():
        if line.startswith("```"):
            if fence is None:
                fence, block = line[3:], []
                continue
            if fence == "yaml":
                snippets.append("\n".join(block) + "\n")
            else:
                commands += [shlex.split(b) for b in block if b.startswith("cardforge ")]
            fence = None
        elif fence is not None:
            block.append(line)
    return snippets, commands


def test_the_tutorial_goes_from_the_example_sheet_to_a_checked_deck(tmp_path):
    snippets, commands = tutorial()
    assert [c[1] for c in commands] == ["new", "import", "check", "build"]
    components, icons, event, sources, layout = snippets

    def run(command: list[str]):
        args = [str(REPO / a) if a.startswith("examples/") else a for a in command[1:]]
        result = run_cli(*args, "--root", str(tmp_path))
        assert result.exit_code == 0, (command, result.output)
        return result

    run(commands[0])  # cardforge new
    game_file = tmp_path / "cards/harvest/game.yaml"
    text = game_file.read_text()
    text = re.sub(r"^components:\n(  .*\n|\s*\n)*?(?=\n#)", components, text, count=1, flags=re.M)
    coin = next(line for line in text.splitlines() if line.startswith("  coin:"))
    text = text.replace(coin + "\n", coin + "\n" + icons, 1)
    text = text.replace("\n# Card backs by id", "\n" + event + "\n# Card backs by id", 1)
    game_file.write_text(text + "\n" + sources)
    layout_file = tmp_path / "layouts/harvest.yaml"
    layout_file.write_text(layout_file.read_text().replace("\n# Card backs by id", "\n" + layout + "\n# Card backs by id", 1))
    (tmp_path / "cards/harvest/cards.yaml").unlink()

    imported = run(commands[1])  # cardforge import
    assert "(6 cards)" in " ".join(imported.stderr.split())
    checked = run(commands[2] + ["--strict"])  # cardforge check: not even a warning
    assert "no problems found" in checked.stderr
    run(commands[3])  # cardforge build
    out = tmp_path / "output/harvest"
    assert all((out / name).is_file() for name in ("deck.pdf", "rules.pdf", "rulebook.pdf", "reference.pdf"))

    with (REPO / "examples/harvest.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    assert {r["Type"] for r in rows} == {"Building", "Event"} and any(not r["Copies"] for r in rows)
    copies = sum(int(r["Copies"] or 1) for r in rows)
    with pdfplumber.open(out / "deck.pdf") as pdf:
        fronts = " ".join(" ".join((p.extract_text() or "").split()) for p in pdf.pages[0::2])
        backs = " ".join((p.extract_text() or "") for p in pdf.pages[1::2])
    for row in rows:
        expected = int(row["Copies"] or 1)
        assert fronts.count(row["Name"]) == expected, (row["Name"], expected)
    assert backs.count("Harvest") == copies == 13
    assert "Wood" not in fronts  # the words became icons
