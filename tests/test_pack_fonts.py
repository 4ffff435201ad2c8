"""A game pack declares its own fonts (game.yaml ``fonts:``): CJK card text and rules print in
a CJK TrueType font the pack ships, ``glyph-missing`` reads that font's characters, and every
bad declaration is a located diagnostic. The fonts are small subsets of Noto Sans CJK SC
(tests/fixtures/fonts, SIL OFL 1.1)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from cardforge.build import BuildOptions, Project
from cardforge.incremental import build_games
from tests.conftest import FIXTURES, run_cli

FONTS = FIXTURES / "fonts"
DECLARED = """
fonts:
  cjk:
    regular: fonts/cjk-test-regular.ttf
    bold: fonts/cjk-test-bold.ttf
    rules: true
"""


def cjk_project(tmp_path: Path, *, declare: str = DECLARED, layout_font: bool = True, slug: str = "mini") -> Path:
    """The mini fixture with one card and the rulebook's first heading in Chinese, the test
    fonts in the pack's fonts/ folder, ``declare`` appended to game.yaml and, with
    ``layout_font``, the card name and text elements set in ``font: cjk``."""
    root = tmp_path / "project"
    if not root.exists():
        shutil.copytree(FIXTURES / "project", root)
    pack = root / "cards" / slug
    if slug != "mini":
        shutil.copytree(FIXTURES / "project/cards/mini", pack)
        shutil.copy(FIXTURES / "project/layouts/mini.yaml", root / f"layouts/{slug}.yaml")
    (pack / "fonts").mkdir(exist_ok=True)
    for font in FONTS.glob("cjk-test-*"):
        shutil.copy(font, pack / "fonts" / font.name)
    game = pack / "game.yaml"
    game.write_text(game.read_text() + declare)
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text().replace(
        "  - name: Moon Witch\n    type: hero\n    power: 2\n    text: |-\n      Exhaust a spell.",
        "  - name: 月之女巫\n    type: hero\n    power: 2\n    text: |-\n      **抽一张牌**。Exhaust a spell.", 1))
    rulebook = pack / "rulebook.md"
    rulebook.write_text(rulebook.read_text().replace("## Play", "## 规则\n\n每回合打出一张牌。", 1))
    if layout_font:
        layout = root / f"layouts/{slug}.yaml"
        layout.write_text(layout.read_text().replace("font: serif-bold, size: 12pt", "font: cjk, size: 12pt")
                          .replace("field: text, size: 10pt", "field: text, font: cjk, size: 10pt"))
    return root


def diagnostics(root: Path, slug: str = "mini") -> list[dict]:
    result = run_cli("check", slug, "--root", str(root), "--format", "json", "--no-cache")
    assert "Traceback" not in result.output
    return json.loads(result.stdout)["diagnostics"]


def fonts_of(pdf: Path) -> set[str]:
    """The BaseFont names of every font the PDF embeds (without the subset prefix)."""
    found = set()
    for page in PdfReader(pdf).pages:
        for font in (page.get("/Resources", {}).get("/Font") or {}).values():
            found.add(str(font.get_object()["/BaseFont"]).split("+", 1)[-1])
    return found


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_cjk_cards_and_rules_print_in_the_packs_own_font(tmp_path):
    root = cjk_project(tmp_path)
    found = diagnostics(root)
    assert not [d for d in found if d["severity"] == "error"], found
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code == 0, result.output
    out = root / "output/mini"
    with pdfplumber.open(out / "deck.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    assert "月之女巫" in text and "抽一张牌" in text
    assert {"CardforgeTestCJK-Regular", "CardforgeTestCJK-Bold"} <= fonts_of(out / "deck.pdf")  # **bold** too
    with pdfplumber.open(out / "rulebook.pdf") as pdf:
        rules = "".join(page.extract_text() or "" for page in pdf.pages)
    assert "规则" in rules and "每回合打出一张牌" in rules
    assert fonts_of(out / "rulebook.pdf") == {"CardforgeTestCJK-Regular", "CardforgeTestCJK-Bold"}  # rules: true
    assert "CardforgeTestCJK-Regular" in fonts_of(out / "reference.pdf")
    assert "CardforgeTestCJK-Regular" in fonts_of(out / "rules.pdf") and "DejaVuSans" not in fonts_of(out / "rules.pdf")


def test_without_the_font_glyph_missing_names_the_characters_and_the_card(tmp_path):
    root = cjk_project(tmp_path, layout_font=False)
    cards = root / "cards/mini/cards.yaml"
    missing = [d for d in diagnostics(root) if d["code"] == "glyph-missing"]
    assert [(d["line"], d["card"]) for d in missing] == [(line_of(cards, "name: 月之女巫"), "月之女巫"),
                                                         (line_of(cards, "抽一张牌"), "月之女巫")]
    assert "'月' U+6708" in missing[0]["message"] and "'抽' U+62BD" in missing[1]["message"]
    assert "`fonts:` in game.yaml" in missing[0]["hint"]
    assert run_cli("build", "mini", "--root", str(root)).exit_code == 1  # nothing prints as boxes


def test_a_font_that_lacks_a_character_is_named_in_glyph_missing(tmp_path):
    root = cjk_project(tmp_path)
    cards = root / "cards/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("**抽一张牌**", "**抽一张牌** 龍", 1))  # not in the subset
    (d,) = [d for d in diagnostics(root) if d["code"] == "glyph-missing"]
    assert d["line"] == line_of(cards, "龍") and "'龍' U+9F8D" in d["message"] and "cjk" in d["message"]
    assert "'抽'" not in d["message"]


BAD = {
    "cff": ("  cff:\n    regular: fonts/cjk-test-cff.otf\n", "regular: fonts/cjk-test-cff.otf", "font-invalid",
            "PostScript (CFF) outlines"),
    "not-a-font": ("  notes:\n    regular: fonts/notes.ttf\n", "regular: fonts/notes.ttf", "font-invalid",
                   "is not a TrueType font"),
    "damaged": ("  broken:\n    regular: fonts/broken.ttf\n", "regular: fonts/broken.ttf", "font-invalid",
                "damaged TrueType font"),
    "collection": ("  both:\n    regular: fonts/both.ttc\n", "regular: fonts/both.ttc", "font-invalid",
                   "font collection"),
    "missing": ("  gone:\n    regular: fonts/gone.ttf\n", "regular: fonts/gone.ttf", "pack-missing", "does not exist"),
    "clash": ("  sans:\n    regular: fonts/cjk-test-regular.ttf\n", "  sans:", "font-invalid",
              "the name of a font cardforge ships"),
    "outside": ("  far:\n    bold: ../../layouts/mini.yaml\n    regular: fonts/cjk-test-regular.ttf\n",
                "bold: ../../layouts/mini.yaml", "path-outside-pack", "outside the pack"),
    "hidden": ("  hid:\n    regular: fonts/.hidden.ttf\n", "regular: fonts/.hidden.ttf", "font-invalid",
               "hidden or backup file"),
    "two-rules": ("  more:\n    regular: fonts/cjk-test-bold.ttf\n    rules: true\n", "    rules: true\n  more",
                  "font-invalid", "both say `rules: true`"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_font_declaration_is_a_located_diagnostic(tmp_path, case):
    entry, marker, code, words = BAD[case]
    root = cjk_project(tmp_path, declare=DECLARED + entry)
    fonts = root / "cards/mini/fonts"
    (fonts / "notes.ttf").write_text("my notes, not a font\n")
    (fonts / "broken.ttf").write_bytes((FONTS / "cjk-test-regular.ttf").read_bytes()[:300])
    (fonts / "both.ttc").write_bytes(b"ttcf" + bytes(60))
    shutil.copy(FONTS / "cjk-test-regular.ttf", fonts / ".hidden.ttf")
    game = root / "cards/mini/game.yaml"
    lines = game.read_text().splitlines()
    first = marker.splitlines()[0] if "\n" in marker else marker
    line = [i for i, text in enumerate(lines, 1) if first in text][-1]
    if case == "two-rules":
        line = len(lines)
    found = [d for d in diagnostics(root) if d["code"] == code and d["file"].endswith("game.yaml")]
    assert [d["line"] for d in found] == [line], found
    assert words in found[0]["message"] and found[0]["column"] > 0
    if case == "cff":
        assert "TrueType" in found[0]["hint"] and "otf2ttf" in found[0]["hint"]
    result = run_cli("build", "mini", "--root", str(root))
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_a_real_cjk_collection_is_refused_with_advice(tmp_path):
    """The CFF collection Debian ships (fonts-noto-cjk), where installed."""
    system = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
    if not system.is_file():
        pytest.skip("fonts-noto-cjk is not installed")
    root = cjk_project(tmp_path, declare=DECLARED + "  noto:\n    regular: fonts/NotoSansCJK-Regular.ttc\n")
    (root / "cards/mini/fonts/NotoSansCJK-Regular.ttc").symlink_to(system)
    (d,) = [d for d in diagnostics(root) if d["code"] in ("font-invalid", "path-outside-pack")]
    assert d["code"] == "path-outside-pack"  # a symlink out of the pack is refused before it is read
    (root / "cards/mini/fonts/NotoSansCJK-Regular.ttc").unlink()
    shutil.copy(system, root / "cards/mini/fonts/NotoSansCJK-Regular.ttc")
    (d,) = [d for d in diagnostics(root) if d["code"] == "font-invalid"]
    assert "font collection" in d["message"] and "TrueType" in d["hint"]


def test_changing_a_font_file_rebuilds_what_uses_it(tmp_path):
    root = cjk_project(tmp_path)
    project, pack = Project(root), root / "cards/mini"
    (first,) = build_games(project, [pack], BuildOptions(), jobs=1)
    assert first.ok and "deck.pdf" in first.rendered
    (same,) = build_games(project, [pack], BuildOptions(), jobs=1)
    assert same.rendered == [] and "deck.pdf" in same.reused
    before = (root / "output/mini/deck.pdf").read_bytes()
    shutil.copy(FONTS / "cjk-test-bold.ttf", pack / "fonts/cjk-test-regular.ttf")  # same name, other content
    (changed,) = build_games(project, [pack], BuildOptions(), jobs=1)
    assert changed.ok and "deck.pdf" in changed.rendered and "rulebook.pdf" in changed.rendered
    assert (root / "output/mini/deck.pdf").read_bytes() != before
    embedded = fonts_of(root / "output/mini/deck.pdf")
    assert "CardforgeTestCJK-Bold" in embedded and "CardforgeTestCJK-Regular" not in embedded


def test_two_packs_may_declare_fonts_of_the_same_name(tmp_path):
    """Fonts are registered by content: two packs' `cjk` fonts built in one run, in worker
    processes, each print their own files."""
    root = cjk_project(tmp_path)
    cjk_project(tmp_path, declare=DECLARED.replace("cjk-test-regular", "cjk-test-bold"), slug="other")
    results = build_games(Project(root), [root / "cards/mini", root / "cards/other"], BuildOptions(),
                          jobs=2, use_cache=False)
    assert all(r.ok for r in results), [d.format() for r in results for d in r.diagnostics]
    assert "CardforgeTestCJK-Regular" in fonts_of(root / "output/mini/deck.pdf")
    assert "CardforgeTestCJK-Regular" not in fonts_of(root / "output/other/deck.pdf")
    assert "CardforgeTestCJK-Bold" in fonts_of(root / "output/other/deck.pdf")


def test_a_pack_with_its_own_fonts_gets_its_own_layout_schema_naming_them(tmp_path):
    """The layout schema every pack shares knows only cardforge's fonts; a pack that declares
    its own gets a layout schema of its own that accepts them, and its layout points there."""
    import json

    root = cjk_project(tmp_path)
    assert run_cli("schema", "mini", "--root", str(root)).exit_code == 0
    own = json.loads((root / "schemas/mini/layout.schema.json").read_text())
    assert '"cjk"' in json.dumps(own)
    assert (root / "layouts/mini.yaml").read_text().startswith("# yaml-language-server: $schema=../schemas/mini/layout.schema.json")
    assert (root / "cards/mini/game.yaml").read_text().startswith("# yaml-language-server: $schema=../../schemas/game.schema.json")
