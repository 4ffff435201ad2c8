"""Errors a designer can act on: layout and schema errors name the key at fault and what was
expected, never the whole mapping."""
from __future__ import annotations

import json

from cardforge.elements import KINDS
from tests.conftest import run_cli


def scaffold(tmp_path):
    assert run_cli("new", "demo", "--root", str(tmp_path)).exit_code == 0
    return tmp_path / "layouts" / "demo.yaml", tmp_path / "cards" / "demo"


def diagnostics(tmp_path, code=None):
    result = run_cli("check", "demo", "--root", str(tmp_path), "--format", "json")
    found = json.loads(result.stdout)["diagnostics"]
    return [d for d in found if code is None or d["code"] == code]


def test_layout_errors_name_the_key_and_what_was_expected(tmp_path):
    layout, _ = scaffold(tmp_path)
    text = layout.read_text()
    text = text.replace("box: [4mm, 4mm,", "box: [22, 4mm,", 1)
    text = text.replace("        size: 11pt\n        min_size: 7pt", "        font_size: 11pt\n        min_size: 7pt", 1)
    text = text.replace("align: right", "align: rigth", 1)
    text = text.replace("kind: rect", "kind: rectangle", 1)
    layout.write_text(text)
    lines = text.splitlines()
    found = diagnostics(tmp_path, "layout-invalid")
    messages = [d["message"] for d in found]
    assert "layouts.card.elements.title.box[0]: 22 has no unit; write 22mm (or pt, cm, in)" in messages
    assert "layouts.card.elements.title: unknown key 'font_size'; did you mean 'size'?" in messages
    assert "layouts.card.elements.cost.align: 'rigth' is not one of left, center, right; did you mean 'right'?" in messages
    kinds = ", ".join(KINDS)  # every registered kind, in the order the layout schema lists them
    assert f"layouts.card.elements.art.kind: 'rectangle' is not one of {kinds}; did you mean 'rect'?" in messages
    assert len(found) == 4 and not any("is not of type 'null'" in m or "{'kind'" in m for m in messages)
    by_key = {d["message"].split(":")[0]: d for d in found}
    assert "font_size" in lines[by_key["layouts.card.elements.title"]["line"] - 1]
    assert "rigth" in lines[by_key["layouts.card.elements.cost.align"]["line"] - 1]


def test_a_length_that_is_not_a_length_and_a_short_box(tmp_path):
    layout, _ = scaffold(tmp_path)
    text = layout.read_text().replace("size: 11pt", "size: 11 points", 1).replace("box: [4mm, 4mm,", "box: [4mm,", 1)
    layout.write_text(text)
    messages = [d["message"] for d in diagnostics(tmp_path, "layout-invalid")]
    assert "layouts.card.elements.title.size: '11 points' is not a length; write a number and a unit: 22mm, 9pt, 1.5cm, 0.5in" in messages
    assert "layouts.card.elements.title.box: a box is 4 lengths [x, y, width, height], not 3" in messages


def test_a_card_error_names_the_field_and_an_unknown_field_gets_a_did_you_mean(tmp_path):
    _, pack = scaffold(tmp_path)
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text().replace("    cost: 1\n", "    cots: 1\n").replace("cost: 3", "cost: three"))
    found = diagnostics(tmp_path, "schema")
    messages = sorted(d["message"] for d in found)
    assert messages == ["card 'Market Day': unknown key 'cots'; did you mean 'cost'?",
                        "card 'Tax Collector': cost: 'three' is not of type 'integer'"]
    assert all(d["line"] > 1 for d in found)


def test_a_templated_icon_name_uses_exactly_the_icons_it_renders_to(tmp_path):
    layout, pack = scaffold(tmp_path)
    game = pack / "game.yaml"
    game.write_text(game.read_text()
                    .replace('  coin: {label: Coin, svg: icons/coin.svg, color: "#b8860b"}',
                             '  coin: {label: Coin, svg: icons/coin.svg, color: "#b8860b"}\n'
                             '  stage-1: {label: Stage 1, text: "I"}\n  stage-2: {label: Stage 2, text: "II"}\n'
                             '  stage-3: {label: Stage 3, text: "III"}')
                    .replace("        cost: {type: integer", "        stage: {type: integer}\n        cost: {type: integer"))
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text().replace("    cost: 1\n", "    cost: 1\n    stage: 1\n")
                     .replace("    cost: 3\n", "    cost: 3\n    stage: 2\n"))
    layout.write_text(layout.read_text().replace("      art:\n        kind: rect\n",
                                                 "      stage:\n        kind: icon\n        box: [5mm, 16mm, 8mm, 8mm]\n"
                                                 "        icon: \"stage-{{ card.stage }}\"\n      art:\n        kind: rect\n"))
    unused = [d["message"] for d in diagnostics(tmp_path, "icon-unused")]
    assert unused == ["icon 'stage-3' (Stage 3) is used by no card and no layout"]


def test_an_svg_without_currentcolor_drawn_in_a_layout_colour_is_a_warning(tmp_path):
    layout, pack = scaffold(tmp_path)
    assert diagnostics(tmp_path, "icon-color-ignored") == []
    (pack / "icons" / "coin.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
                                             '<circle cx="5" cy="5" r="5" fill="#000000"/></svg>')
    found = diagnostics(tmp_path, "icon-color-ignored")
    assert len(found) == 1 and "coin.svg does not use currentColor" in found[0]["message"]
    assert found[0]["file"].endswith("game.yaml") and "coin.svg" in (pack / "game.yaml").read_text().splitlines()[found[0]["line"] - 1]


def test_unmatched_emphasis_and_stray_braces_are_warnings_at_their_column(tmp_path):
    _, pack = scaffold(tmp_path)
    cards = pack / "cards.yaml"
    text = cards.read_text().replace('text: "**Gain** 2 {coin}."', 'text: "**Gain 2 {Coin}. Costs 2 \\\\* 3."')
    cards.write_text(text)
    found = sorted((d["line"], d["column"], d["message"]) for d in diagnostics(tmp_path, "markup-unmatched"))
    line = next(i for i, l in enumerate(text.splitlines(), 1) if "**Gain 2" in l)
    col = text.splitlines()[line - 1].index('"') + 2  # first character inside the quotes
    assert found == [(line, col, "card 'Market Day': '**' starts bold text that is never closed"),
                     (line, col + 9, "card 'Market Day': '{Coin}' is not an icon token")]
    assert diagnostics(tmp_path, "schema") == []
