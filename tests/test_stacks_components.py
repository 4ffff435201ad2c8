"""Face-down stacks look alike from behind; every component is printed or supplied.

The mini fixture pack declares a draw pile of heroes and spells (one back, one size) and a
supply component (coins). Each test breaks one thing and expects the exact code, file and
line; the last two check what the shipped packs promise and what the rulebook prints.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
import yaml

from tests.conftest import FIXTURES, REPO, edit, line_of, run_cli
from tests.conftest import findings as check_findings


def mini(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    return root


def findings(root: Path) -> tuple[int, list[dict]]:
    return check_findings(root, "mini")


def only(found: list[dict], code: str) -> dict:
    assert [d["code"] for d in found] == [code], found
    return found[0]


def test_a_stack_with_two_backs_is_reported_on_its_card_types_line(tmp_path):
    root = mini(tmp_path)
    game = root / "cards/mini/game.yaml"
    edit(game, "  deck: {title: Mini,", "  tome: {title: Tome, color: \"#111111\", accent: \"#eeeeee\"}\n  deck: {title: Mini,")
    edit(game, "    label: Spell\n    back: deck", "    label: Spell\n    back: tome")
    edit(root / "layouts/mini.yaml", "backs:\n  deck:", "backs:\n  tome:\n    background: \"#111111\"\n  deck:")
    status, found = findings(root)
    hit = only(found, "stack-backs-differ")
    assert status == 1 and hit["severity"] == "error"
    assert hit["file"].endswith("cards/mini/game.yaml")
    assert hit["line"] == line_of(game, "name: draw pile") + 1
    assert "'draw pile'" in hit["message"] and "hero: deck" in hit["message"] and "spell: tome" in hit["message"]


def test_a_stack_with_two_sizes_or_shapes_is_reported(tmp_path):
    root = mini(tmp_path)
    edit(root / "layouts/mini.yaml", "  spell:\n    extends: base", "  spell:\n    extends: base\n    size: tarot\n    shape: circle")
    status, found = findings(root)
    hit = only(found, "stack-backs-differ")
    assert status == 1
    assert hit["line"] == line_of(root / "cards/mini/game.yaml", "name: draw pile") + 1
    assert "size (hero: 63.5 x 88.9 mm, spell: 69.8 x 120.7 mm)" in hit["message"]
    assert "shape (hero: rect, spell: circle)" in hit["message"]


def test_types_in_separate_stacks_may_differ(tmp_path):
    root = mini(tmp_path)
    game = root / "cards/mini/game.yaml"
    edit(root / "layouts/mini.yaml", "  spell:\n    extends: base", "  spell:\n    extends: base\n    size: tarot")
    edit(game, "    card_types: [hero, spell]\n\nicons", "    card_types: [hero]\n  - id: spellbook\n    card_types: [spell]\n\nicons")
    assert findings(root) == (0, [])


def test_a_stack_naming_an_unknown_type_is_a_reference_finding(tmp_path):
    root = mini(tmp_path)
    game = root / "cards/mini/game.yaml"
    edit(game, "card_types: [hero, spell]\n\nicons", "card_types: [hero, spel]\n\nicons")
    hit = only(findings(root)[1], "ref-unknown")
    assert hit["line"] == line_of(game, "card_types: [hero, spel]") and "spel" in hit["message"]


def test_a_component_neither_printed_nor_supplied_is_reported_on_its_name_line(tmp_path):
    root = mini(tmp_path)
    game = root / "cards/mini/game.yaml"
    edit(game, "    count: 6\n    supply: true\n", "    count: 6\n")
    status, found = findings(root)
    hit = only(found, "component-unprinted")
    assert status == 1 and hit["severity"] == "error"
    assert hit["file"].endswith("cards/mini/game.yaml") and hit["line"] == line_of(game, "name: coins")
    assert "'coins'" in hit["message"] and "supply: true" in hit["hint"]


def test_a_component_both_printed_and_supplied_is_reported(tmp_path):
    root = mini(tmp_path)
    game = root / "cards/mini/game.yaml"
    edit(game, "    count: 4\n    card_types: [hero, spell]", "    count: 4\n    supply: true\n    card_types: [hero, spell]")
    hit = only(findings(root)[1], "component-unprinted")
    assert hit["line"] == line_of(game, "name: mini deck") and "both" in hit["message"]


def test_a_document_component_counts_as_printed(tmp_path):
    root = mini(tmp_path)
    game = root / "cards/mini/game.yaml"
    edit(game, "    count: 6\n    supply: true\n", "    count: 1\n    document: rulebook\n")
    assert findings(root) == (0, [])
    edit(game, "document: rulebook", "document: leaflet")
    status, found = findings(root)
    assert status == 1 and "leaflet" in json.dumps(found)


def test_the_rulebook_lists_supplied_components_apart(tmp_path):
    root = mini(tmp_path)
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code == 0, result.output
    with pdfplumber.open(root / "output/mini/rulebook.pdf") as pdf:
        text = " ".join(" ".join((p.extract_text() or "").split()) for p in pdf.pages)
    assert "4 mini deck" in text and "You also need (not printed): • 6 coins" in text
    assert text.index("4 mini deck") < text.index("You also need") < text.index("6 coins")


@pytest.mark.parametrize("slug", sorted(p.parent.name for p in (REPO / "cards").glob("*/game.yaml")))
def test_every_shipped_component_is_printed_or_supplied_and_stacks_match(slug):
    result = run_cli("check", slug, "--root", str(REPO), "--format", "json", "--no-cache")
    codes = {d["code"] for d in json.loads(result.stdout)["diagnostics"]}
    assert not codes & {"stack-backs-differ", "component-unprinted"}
    game = yaml.safe_load((REPO / "cards" / slug / "game.yaml").read_text())
    for component in game.get("components") or []:
        assert bool(component.get("card_types") or component.get("parts") or component.get("document")) \
            != bool(component.get("supply")), component["id"]


@pytest.mark.parametrize("slug", sorted(p.parent.name for p in (REPO / "cards").glob("*/game.yaml")))
def test_every_shipped_rulebook_prints_what_players_supply_apart(all_built, slug):
    from tests.test_player_text import pdf_pages  # each page's text, a PDF read once per process

    components = yaml.safe_load((REPO / "cards" / slug / "game.yaml").read_text()).get("components") or []
    supplied = [c for c in components if c.get("supply") is True]
    text = " ".join(pdf_pages(all_built / "output" / slug / "rulebook.pdf"))
    if not supplied:
        assert "You also need" not in text, slug
        return
    assert text.count("You also need (not printed):") == 1, slug
    after = text[text.index("You also need (not printed):"):]
    for component in supplied:
        mark = "†" if component.get("provisional") else ""  # a designed count carries its mark
        assert f"{component['count']}{mark} {component['name']}" in after, (slug, component["id"])
