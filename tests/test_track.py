"""The track element (cardforge/elements/track.py): a row of boxes, as many filled as a card's
value says, drawn at its box; its value template is checked like any template, on a
shared back too."""
from __future__ import annotations

import pdfplumber

from cardforge.util.units import MM
from tests.test_layout_engine import BACKS, BASE, check_json, mini, one_face, set_layout

TRACK = ('      power: {kind: track, box: [6mm, 60mm, 51.5mm, 6mm], count: 5, value: "{{ card.power }}", '
         'fill: "#c62828", empty: "#ffffff", stroke: "#333333", gap: 1.5mm}\n')
HERO = "  hero:\n    extends: base\n    elements:\n" + TRACK + "  spell:\n    extends: base\n"


def _track_boxes(pdf_path):
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        shapes = page.rects + page.curves  # a box is drawn as a path
        return sorted((r for r in shapes if abs(r["top"] - 60 * MM) < 0.5 and abs(r["height"] - 6 * MM) < 0.5),
                      key=lambda r: r["x0"])


def test_a_track_fills_as_many_boxes_as_the_cards_value(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + HERO + BACKS)
    code, found = check_json(root, "mini")
    assert code == 0, [d["message"] for d in found if d["severity"] == "error"]
    for name, power in (("Sun Knight", 3), ("Moon Witch", 2)):
        boxes = _track_boxes(one_face(root, "mini", name, tmp_path))
        assert len(boxes) == 5, name
        red = [r for r in boxes if tuple(round(v, 2) for v in r["non_stroking_color"]) == (0.78, 0.16, 0.16)]
        assert boxes[:power] == red, name  # the first `power` boxes, left to right
        side = (51.5 - 4 * 1.5) / 5 * MM
        assert all(abs(r["width"] - side) < 0.3 for r in boxes)
        assert abs(boxes[0]["x0"] - 6 * MM) < 0.3 and abs(boxes[-1]["x1"] - 57.5 * MM) < 0.3


def test_a_track_without_a_value_is_an_error_at_its_line(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + HERO.replace(' value: "{{ card.power }}",', "") + BACKS)
    code, found = check_json(root, "mini")
    wrong = [d for d in found if d["code"] == "layout-invalid"]
    assert code != 0 and len(wrong) == 1 and "needs `value:`" in wrong[0]["message"]
    lines = (root / "layouts/mini.yaml").read_text().splitlines()
    assert "kind: track" in lines[wrong[0]["line"] - 1]


def test_a_track_on_a_shared_back_printing_a_field_the_stack_does_not_share_is_reported(tmp_path):
    root = mini(tmp_path)
    back = BACKS + ('      level: {kind: track, box: [6mm, 60mm, 51.5mm, 6mm], count: 5, '
                    'value: "{{ card.power | default(0) }}"}\n')
    set_layout(root, BASE + "  hero:\n    extends: base\n  spell:\n    extends: base\n" + back)
    _, found = check_json(root, "mini")
    differs = [d for d in found if d["code"] == "back-field-differs"]
    assert len(differs) == 1 and "card.power" in differs[0]["message"]
    lines = (root / "layouts/mini.yaml").read_text().splitlines()
    assert "kind: track" in lines[differs[0]["line"] - 1]


def test_a_failing_value_template_is_reported_at_the_element(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + HERO.replace("card.power", "card.power +") + BACKS)
    code, found = check_json(root, "mini")
    assert code != 0
    assert any(d["code"] in ("template-invalid", "layout-invalid") and "power" in d["message"] for d in found)
