"""No build whose PDFs show an empty box while `check` is clean (issue 26).

The mini pack gains two text icons (game.yaml ``text:``, no SVG): ``shield``, a symbol the
shipped DejaVu faces lack (U+26E8), and ``heart``, one they have (U+2665). Each is used in
an ``icon`` element, in card text and in sheet.md; `check` reports the shield at each of
those lines and nothing for the heart; without the shield, the built deck prints the
heart where the icon element is.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber

from tests.conftest import FIXTURES, run_cli

MINI = FIXTURES / "project"
SHIELD, HEART = "\u26e8", "\u2665"
ICONS = f"""icons:
  sun: {{label: Sun, svg: icons/sun.svg, color: "#f9a825"}}
  moon: {{label: Moon, svg: icons/moon.svg, color: "#3949ab"}}
  shield: {{label: Shield, text: "{SHIELD}", color: "#aa0000"}}
  heart: {{label: Heart, text: "{HEART}", color: "#aa0000"}}
"""
MARK = "      text: {kind: text, box: [6mm, 20mm, 51.5mm, 30mm], field: text, size: 10pt, min_size: 7pt}\n"
ELEMENTS = "      mark: {kind: icon, box: [50mm, 70mm, 8mm, 8mm], icon: \"{{ card.mark }}\"}\n"


def _line(path: Path, needle: str) -> int:
    return next(n for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in text)


def _pack(tmp: Path, *, shield: bool) -> Path:
    """The mini project with the text icons: Sun Knight marked with a heart, Moon Witch with
    the shield, in its corner and its text (without ``shield``: no shield icon, the heart)."""
    root = tmp / "project"
    shutil.copytree(MINI, root)
    pack = root / "cards" / "mini"
    game = pack / "game.yaml"
    text = game.read_text(encoding="utf-8")
    start, end = text.index("icons:\n"), text.index("\nglossary:")
    icons = ICONS if shield else "".join(line for line in ICONS.splitlines(True) if "shield" not in line)
    text = text[:start] + icons + text[end:]
    text = text.replace("      text: {type: string}\n", "      text: {type: string}\n      mark: {type: string}\n")
    game.write_text(text, encoding="utf-8")
    witch = "shield" if shield else "heart"
    cards = pack / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    text = text.replace('    text: "Gain 1 mana. {sun}"', '    mark: heart\n    text: "Gain 1 mana. {sun} {heart}"')
    text = text.replace("      Pay 1 mana: {moon}", f"      Pay 1 mana: {{moon}} {{{witch}}}")
    text = text.replace("    power: 2\n", f"    power: 2\n    mark: {witch}\n")
    text = text.replace("    cost: 2\n", "    cost: 2\n    mark: heart\n")
    cards.write_text(text, encoding="utf-8")
    sheet = pack / "sheet.md"
    sheet.write_text(sheet.read_text(encoding="utf-8") + "\nA {heart} heals.\n"
                     + ("A {shield} guards.\n" if shield else ""), encoding="utf-8")
    layout = root / "layouts" / "mini.yaml"
    text = layout.read_text(encoding="utf-8")
    assert MARK in text
    layout.write_text(text.replace(MARK, MARK + ELEMENTS), encoding="utf-8")
    return root


def _check(root: Path) -> list[dict]:
    result = run_cli("check", "mini", "--root", str(root), "--format", "json")
    return json.loads(result.stdout)["diagnostics"]


def test_a_missing_text_icon_glyph_is_reported_where_it_prints(tmp_path):
    root = _pack(tmp_path, shield=True)
    found = [(Path(d["file"]).name, d["line"]) for d in _check(root) if d["code"] == "glyph-missing"]
    pack = root / "cards" / "mini"
    layout = root / "layouts" / "mini.yaml"
    assert sorted(found) == sorted([
        ("mini.yaml", _line(layout, "mark: {kind: icon")),  # the icon element drawing it for Moon Witch
        ("cards.yaml", _line(pack / "cards.yaml", "{shield}")),  # the token in Moon Witch's text
        ("sheet.md", _line(pack / "sheet.md", "{shield}")),  # the token in the rules sheet
        ("game.yaml", _line(pack / "game.yaml", "shield:")),  # the icon legend
    ])
    messages = [d for d in _check(root) if d["code"] == "glyph-missing"]
    assert all("U+26E8" in d["message"] and "U+2665" not in d["message"] for d in messages)
    assert all("sans-bold" in d["message"] for d in messages)
    assert all("the pack's fonts: sans," in d["hint"] and "none of them has it" in d["hint"] for d in messages)


def test_a_text_icon_prints_in_its_icon_element(tmp_path):
    root = _pack(tmp_path, shield=False)
    assert not [d for d in _check(root) if d["severity"] == "error"]
    result = run_cli("build", "mini", "--root", str(root), "--no-cache")
    assert result.exit_code == 0, result.stdout + result.stderr
    deck = root / "output" / "mini" / "deck.pdf"
    with pdfplumber.open(deck) as pdf:
        page = pdf.pages[0]
        hearts = [ch for ch in page.chars if ch["text"] == HEART]
        text_size = 10.0
        drawn = [ch for ch in hearts if ch["size"] > text_size * 1.5]  # the element's, fitted to 8 mm
    # every card (Fireball twice) is marked with the heart in an 8 mm box: one large heart each
    assert len(drawn) == 4, [(round(ch["size"], 1), round(ch["x0"])) for ch in hearts]
    assert all("Bold" in ch["fontname"] for ch in drawn)
    assert all(ch["non_stroking_color"] and abs(ch["non_stroking_color"][0] - 0xAA / 255) < 0.01 for ch in drawn)


def test_rules_text_game_yaml_strings_and_layout_templates_are_checked_in_their_fonts(tmp_path):
    """★ U+2605 is in DejaVu Sans but not in DejaVu Serif Bold: a sheet.md heading (serif
    bold) cannot print it, its body text (sans) can; ⛑ U+26D1 is in no shipped face."""
    root = _pack(tmp_path, shield=False)
    pack = root / "cards" / "mini"
    sheet = pack / "sheet.md"
    sheet.write_text(sheet.read_text(encoding="utf-8") + "\n## \u2605 Stars\n\nCollect \u2605 stars.\n", encoding="utf-8")
    game = pack / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("name: mini deck", "name: mini deck \u26d1"), encoding="utf-8")
    layout = root / "layouts" / "mini.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace(
        MARK, MARK + "      seal: {kind: text, box: [6mm, 70mm, 8mm, 8mm], template: \"\u26d1\", size: 10pt}\n"), encoding="utf-8")
    found = [d for d in _check(root) if d["code"] == "glyph-missing"]
    assert sorted((Path(d["file"]).name, d["line"]) for d in found) == sorted([
        ("sheet.md", _line(sheet, "## \u2605 Stars")),  # not the body line below it
        ("game.yaml", _line(game, "name: mini deck")),
        ("mini.yaml", _line(layout, "seal:")),
    ])
    heading = next(d for d in found if d["file"].endswith("sheet.md"))
    assert "serif-bold" in heading["message"] and "U+2605" in heading["message"]
    assert "sans, sans-bold, sans-italic" in heading["hint"] and "have it" in heading["hint"]


def test_a_text_icon_that_prints_nothing_is_an_error_at_its_line(tmp_path):
    root = _pack(tmp_path, shield=False)
    game = root / "cards" / "mini" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(f'text: "{HEART}"', 'text: " "'), encoding="utf-8")
    found = [(d["code"], d["line"]) for d in _check(root) if d["severity"] == "error"]
    assert found == [("glyph-missing", _line(game, "heart:"))]
