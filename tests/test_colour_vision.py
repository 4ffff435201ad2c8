"""The colour-vision check: colours that players must tell apart are simulated for
protanopia, deuteranopia and tritanopia (Machado 2009), and a pair that collapses with no
other cue is a warning at its line."""
from __future__ import annotations

from cardforge.checks.colourvision import THRESHOLD, collapses, delta_e, linear_rgb, simulate
from tests.conftest import REPO, findings, make_project

MINI = REPO / "tests" / "fixtures" / "project"


def test_a_red_green_pair_of_one_lightness_collapses_and_black_and_white_do_not():
    found = collapses("#cc6666", "#669966")  # muted red and green, alike in lightness
    assert found is not None and found[0] == "deuteranopia" and found[1] < THRESHOLD
    assert collapses("#000000", "#ffffff") is None  # lightness tells them apart for everyone
    assert collapses("#cc6666", "#cc6667") is None  # alike to normal sight: not a collapse
    white = linear_rgb("#ffffff")
    for deficiency in ("protanopia", "deuteranopia", "tritanopia"):  # white stays white
        assert delta_e(simulate(white, deficiency), white) < 1.0


def test_two_backs_told_apart_only_by_collapsing_colours_are_warned_at_the_second_backs_line(tmp_path):
    root = make_project(tmp_path, "mini", source=MINI)
    game = root / "cards" / "mini" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    text = text.replace('  deck: {title: Mini, color: "#333333", accent: "#ffcc00"}',
                        '  deck: {title: Mini, color: "#cc6666", accent: "#ffcc00"}\n'
                        '  spare: {title: Mini, color: "#669966", accent: "#ffcc00"}')
    game.write_text(text, encoding="utf-8")
    _, found = findings(root, "mini")
    warned = [d for d in found if d["code"] == "colour-collapse"]
    assert len(warned) == 1 and "deuteranopia" in warned[0]["message"], warned
    line = game.read_text(encoding="utf-8").splitlines()[warned[0]["line"] - 1]
    assert line.strip().startswith("spare:") or line.strip().startswith("deck:"), line
    # a title that differs is a cue: no warning
    game.write_text(text.replace('spare: {title: Mini,', 'spare: {title: Spare,'), encoding="utf-8")
    _, found = findings(root, "mini")
    assert not [d for d in found if d["code"] == "colour-collapse"]


def test_the_shipped_packs_raise_no_colour_collapse(tmp_path):
    root = make_project(tmp_path, "gatekeeper", "gate")
    for slug in ("gatekeeper", "gate"):  # element colours with their icons; backs with their titles
        _, found = findings(root, slug)
        assert not [d for d in found if d["code"] == "colour-collapse"], slug


def test_suits_told_apart_only_by_a_collapsing_background_are_warned_at_the_layout(tmp_path):
    """Gatekeeper's witches take their element's colour; with the element's icon and name
    removed from the face, fire and earth (muted red and green) are told apart by colour alone."""
    root = make_project(tmp_path, "gatekeeper")
    game = root / "cards" / "gatekeeper" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    import re

    text = re.sub(r'(?m)^(  fire: .*?hex: )"#[0-9a-fA-F]{6}"', r'\1"#cc6666"', text)  # muted red...
    text = re.sub(r'(?m)^(  earth: .*?hex: )"#[0-9a-fA-F]{6}"', r'\1"#669966"', text)  # ...and green
    assert '"#cc6666"' in text and '"#669966"' in text
    game.write_text(text, encoding="utf-8")
    _, found = findings(root, "gatekeeper")
    assert not [d for d in found if d["code"] == "colour-collapse"]  # the element icon and word still tell them
    layout = root / "layouts" / "gatekeeper.yaml"
    lines = layout.read_text(encoding="utf-8").replace('icon: "{{ card.element }}"', "icon: water")
    lines = lines.replace("{{ 'Shapeshifter' if card.element == 'sun' else game.elements[card.element].label ~ ' witch' }}",
                          "Witch")
    layout.write_text(lines, encoding="utf-8")
    _, found = findings(root, "gatekeeper")
    warned = [d for d in found if d["code"] == "colour-collapse"]
    assert warned and any("earth" in d["message"] and "fire" in d["message"] for d in warned), warned
    assert all(d["file"].endswith("gatekeeper.yaml") and d["line"] > 1 for d in warned)
