"""Element kinds as a registry (cardforge/elements/): the layout schema's branches and
docs/layout.md's key tables say what the declarations say, a key of another kind is an error
at its line, and a line or polygon given by points needs no box."""
from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from cardforge.elements import COMMON, KINDS
from cardforge.elements.schema import markdown, table
from cardforge.validation import builtin
from cardforge.util.units import MM
from tests.conftest import REPO
from tests.test_layout_engine import BACKS, BASE, check_json, mini, one_face, set_layout


def test_each_kind_branch_of_the_layout_schema_takes_exactly_its_declared_keys():
    defs = builtin("layout")["$defs"]
    assert defs["element"]["properties"]["kind"]["enum"] == list(KINDS)
    for name, kind in KINDS.items():
        branch = defs[f"element-{name}"]
        assert branch["additionalProperties"] is False
        assert list(branch["properties"]) == [k.name for k in COMMON + kind.keys], name
        for key in kind.keys:
            assert {k: v for k, v in branch["properties"][key.name].items() if k != "description"} == \
                {k: v for k, v in key.schema.items() if k != "description"}, (name, key.name)
    every = {key.name for kind in KINDS.values() for key in kind.all_keys}
    assert set(defs["element-partial"]["properties"]) == every


def test_docs_layout_md_holds_the_generated_key_tables():
    text = (REPO / "docs" / "layout.md").read_text(encoding="utf-8")
    assert markdown() in text, "run: python3 -m cardforge.elements.schema docs/layout.md"
    for name, kind in KINDS.items():
        section = text.split(f"### `{name}` keys", 1)[1].split("\n\n")[1]
        assert [row.split("`")[1] for row in section.splitlines() if row.startswith("| `")] == \
            [k.name for k in kind.keys]


def test_docs_elements_md_holds_the_generated_table_of_kinds():
    text = (REPO / "docs" / "elements.md").read_text(encoding="utf-8")
    assert table() in text, "run: python3 -m cardforge.elements.schema docs/elements.md"
    rows = [row for row in table().splitlines() if row.startswith("| `")]
    assert [row.split("`")[1] for row in rows] == list(KINDS)


def _line_of(root, text: str) -> int:
    return next(i for i, row in enumerate((root / "layouts/mini.yaml").read_text().splitlines(), 1) if text in row)


def test_a_key_of_another_kind_is_an_error_at_its_line_naming_its_kinds(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + """  hero:
    extends: base
    elements:
      note:
        kind: text
        box: [5mm, 60mm, 50mm, 10mm]
        template: "x"
        sides: 7
        sise: 9pt
  spell:
    extends: base
""" + BACKS)
    code, found = check_json(root, "mini")
    bad = sorted((d["line"], d["column"], d["message"]) for d in found if d["code"] == "layout-invalid")
    assert code == 1 and bad == [
        (_line_of(root, "sides: 7"), 9, "layouts.hero.elements.note: a text element has no key 'sides' "
                                        "(sides belongs to polygon)"),
        (_line_of(root, "sise: 9pt"), 9, "layouts.hero.elements.note: unknown key 'sise'; did you mean 'size'?"),
    ]


def test_a_stray_key_written_without_a_kind_is_found_once_the_chain_is_merged(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + """  hero:
    extends: base
    elements:
      name: {star: true}
  spell:
    extends: base
""" + BACKS)
    code, found = check_json(root, "mini")
    bad = [(d["line"], d["message"]) for d in found if d["code"] == "layout-invalid"]
    assert code == 1 and bad == [(_line_of(root, "name: {star: true}"),
                                  "element 'name': a text element has no key 'star' (star belongs to polygon)")]


LINES = """  hero:
    extends: base
    elements:
      zig: {kind: line, %s, stroke: "#aa0000"}
      tri: {kind: polygon, %s, fill: "#00aa00"}
  spell:
    extends: base
"""


def test_a_line_or_polygon_given_by_points_needs_no_box_and_draws_the_same(tmp_path):
    pdfs = []
    for n, (line, polygon) in enumerate([
            ("box: [10mm, 60mm, 40mm, 10mm], points: [[0mm, 0mm], [20mm, 10mm], [40mm, 0mm]]",
             "box: [5mm, 72mm, 10mm, 10mm], points: [[5mm, 0mm], [10mm, 10mm], [0mm, 10mm]]"),
            ("points: [[10mm, 60mm], [30mm, 70mm], [50mm, 60mm]]",
             "points: [[10mm, 72mm], [15mm, 82mm], [5mm, 82mm]]")]):
        root = mini(tmp_path / str(n))
        set_layout(root, BASE + LINES % (line, polygon) + BACKS)
        code, found = check_json(root, "mini")
        assert code == 0, found
        pdfs.append(one_face(root, "mini", "Sun Knight", tmp_path / str(n)))
    assert pdfs[0].read_bytes() == pdfs[1].read_bytes()
    with pdfplumber.open(pdfs[1]) as pdf:
        drawn = [(round(c["x0"] / MM, 1), round(c["top"] / MM, 1), round(c["x1"] / MM, 1), round(c["bottom"] / MM, 1))
                 for c in pdf.pages[0].curves if c["top"] > 55 * MM]
    assert sorted(drawn) == [(5.0, 72.0, 15.0, 82.0), (10.0, 60.0, 50.0, 70.0)]


def test_a_polygon_with_neither_box_nor_points_is_located(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + LINES % ("points: [[10mm, 60mm], [50mm, 60mm]]", "sides: 5") + BACKS)
    code, found = check_json(root, "mini")
    bad = [(d["line"], d["message"]) for d in found if d["code"] == "layout-invalid"]
    assert code == 1 and bad == [(_line_of(root, "tri:"), "element 'tri' has no `box:`, and no layout it extends gives one")]


def test_a_star_element_draws_the_star_polygon_of_its_points(tmp_path):
    pdfs = []
    for n, star in enumerate(["kind: star, points: 7, inner: 0.4",
                              "kind: polygon, sides: 7, star: true, inner: 0.4"]):
        root = mini(tmp_path / str(n))
        set_layout(root, BASE + """  hero:
    extends: base
    elements:
      badge: {%s, box: [20mm, 60mm, 20mm, 20mm], fill: "#ffcc00", stroke: "#000000"}
  spell:
    extends: base
""" % star + BACKS)
        code, found = check_json(root, "mini")
        assert code == 0, found
        pdfs.append(one_face(root, "mini", "Sun Knight", tmp_path / str(n)))
    assert pdfs[0].read_bytes() == pdfs[1].read_bytes()
    with pdfplumber.open(pdfs[0]) as pdf:
        star = [c for c in pdf.pages[0].curves if c["top"] > 55 * MM]
    assert len(star) == 1 and len({tuple(p) for p in star[0]["pts"]}) == 14  # seven points, seven inner corners
    assert star[0]["top"] == pytest.approx(60 * MM, abs=0.1 * MM)  # a point upwards touches the box top


def test_a_star_points_count_given_as_corners_in_an_extending_layout_is_located(tmp_path):
    root = mini(tmp_path)
    set_layout(root, BASE + """  hero:
    extends: base
    elements:
      badge: {kind: star, box: [20mm, 60mm, 20mm, 20mm], fill: "#ffcc00"}
  spell:
    extends: hero
    elements:
      badge: {points: [[0mm, 0mm], [5mm, 5mm]]}
""" + BACKS)
    code, found = check_json(root, "mini")
    bad = [(d["line"], d["message"]) for d in found if d["code"] == "layout-invalid"]
    assert code == 1 and len(bad) == 1 and bad[0][0] == _line_of(root, "badge: {points:")
    assert bad[0][1].startswith("element 'badge': points: [[") and "is not of type 'integer'" in bad[0][1]


def _an_element(node) -> bool:
    """Whether ``node`` names an element, as the package names them: ``el``, ``element``, ``x.element``."""
    import ast

    return (isinstance(node, ast.Name) and node.id in ("el", "element", "elem")) or (
        isinstance(node, ast.Attribute) and node.attr == "element")


def test_no_module_outside_the_kinds_chooses_an_element_by_its_kind_name():
    """Checks, marks and documents ask a kind what it can do (``kind_of(el).shows``,
    ``.ground``, ``.badge``, ``.sets_text`` ...), never compare ``.kind`` with a kind's name:
    a new kind with the same capability is then treated the same without editing them."""
    import ast

    from cardforge.elements import KINDS

    package = Path(__file__).resolve().parents[1] / "cardforge"
    found = []
    for path in package.rglob("*.py"):
        if path.parent.name == "elements":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if not any(isinstance(s, ast.Attribute) and s.attr == "kind" and _an_element(s.value) for s in sides):
                continue  # a text run's or a table's own kind ("icon", "text") is not an element's
            names = {c.value for s in sides for c in ast.walk(s) if isinstance(c, ast.Constant)}
            if names & set(KINDS):
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    assert not found, found
