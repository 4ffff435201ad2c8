"""Every value the data marks as designed or restored prints its † wherever it prints
(docs/marks.md): a designed component count in the components list, a card's designed or
restored text and quantity in the almanac and the rulebook, a designed border colour on the
card face; and the note that explains the mark reads the same in every document."""
from __future__ import annotations

import re

import pdfplumber
import pypdf
import pytest

from cardforge.build import Project, compile_game
from cardforge.model import DESIGNED_MARK, DESIGNED_NOTE
from cardforge.documents.source import Macros
from tests.conftest import SHIPPED, make_project


@pytest.mark.parametrize("slug", SHIPPED)
def test_a_designed_component_count_prints_its_mark_in_the_components_list(tmp_path, slug):
    root = make_project(tmp_path, slug)
    game = compile_game(root / "cards" / slug, Project(root)).game
    lines = Macros(game).components_list().splitlines()
    for c in game.components:
        line = next(ln for ln in lines if ln.startswith("- ") and (c.get("listed") or c["name"]) in ln)
        assert (DESIGNED_MARK in line) == (c.get("provisional") is True), (c["id"], line)


@pytest.fixture(scope="module")
def ttg(ttg_build):
    """Through The Gate as ``cardforge build through-the-gate`` writes it on Letter: the suite's
    shared build (conftest.ttg_build, built once per run; the tests here only read it)."""
    root = ttg_build.root
    return root, compile_game(root / "cards" / "through-the-gate", Project(root)).game


def test_restored_text_prints_its_mark_in_the_rulebook_html_and_the_almanac(ttg):
    from cardforge.almanac.display import text_marked

    root, game = ttg
    page = (root / "output" / "through-the-gate" / "rulebook.html").read_text(encoding="utf-8")
    marked = 0
    for card in game.cards:
        if not card.data.get("text"):
            continue
        article = re.search(r'<h4>' + re.escape(card.name.replace("&", "&amp;").replace('"', "&quot;").replace("'", "&#x27;"))
                            + r'.*?</article>', page, re.S)
        assert article, card.name
        text = re.search(r'<p class="text">(.*?)</p>', article.group(0), re.S).group(1)
        designed = "text" in card.provisional
        assert text.endswith(DESIGNED_MARK) == (designed and text_marked(card, game)), card.name
        marked += text.endswith(DESIGNED_MARK)
    assert marked >= 50  # R8: every uncertain restoration (Wailing Banshee, Bottled Imp ... among them)
    with pdfplumber.open(root / "output" / "through-the-gate" / "reference.pdf") as pdf:
        almanac = "\n".join(p.extract_text() or "" for p in pdf.pages)
    assert re.search(r"Wailing Banshee × 1\nA randomly-selected player must ?†", almanac)


def test_a_choice_of_icons_prints_or_in_the_almanac(ttg):
    root, game = ttg
    with pdfplumber.open(root / "output" / "through-the-gate" / "reference.pdf") as pdf:
        almanac = " ".join(" ".join((p.extract_text() or "").split()) for p in pdf.pages)
    for card in game.cards:
        stats = card.data.get("stats") or {}
        if card.type != "encounter" or len(stats.get("icons") or {}) != 2:
            continue
        entry = almanac[almanac.index(card.name + " × "):][:len(card.name) + 60]
        icons = entry.split("Icons", 1)[1][:6]
        assert ("or" in icons) == bool(stats.get("choice")), (card.name, entry)


def test_a_designed_border_colour_is_marked_on_the_border(ttg):
    from cardforge.resolve.face import context
    from cardforge.resolve.marks import border_fields, face_marks

    root, game = ttg
    layouts = compile_game(root / "cards" / "through-the-gate", Project(root)).layouts
    seen = 0
    for card in game.cards:
        layout = layouts.for_card(card)
        ctx = context(card, game)
        marks = face_marks(layout, ctx, game)
        on_border = [m for m in marks if m.field == "terrain"]
        if "terrain" not in card.provisional or "terrain" not in border_fields(layout.front, ctx) or len(marks) == 1 and marks[0].field is None:
            assert not on_border, card.name
            continue
        assert len(on_border) == 1, card.name
        m, band = on_border[0], layout.front.border_width
        w, h = layout.size
        assert h - band <= m.y and m.y + m.size * 0.8 <= h, card.name  # inside the bottom border band
        assert 0 < m.x < w - band, card.name
        seen += 1
    assert seen  # the terrain cards of the deck


def test_the_note_reads_the_same_in_every_document(ttg):
    root, _ = ttg
    out = root / "output" / "through-the-gate"
    html = (out / "rulebook.html").read_text(encoding="utf-8")
    assert DESIGNED_NOTE in html.replace("&#x27;", "'")
    for name in ("rules.pdf", "rulebook.pdf", "reference.pdf", "deck.pdf"):
        text = " ".join(re.sub(r"\s+", " ", p.extract_text()) for p in pypdf.PdfReader(out / name).pages)  # drawing order
        assert DESIGNED_NOTE in text, name
        assert "uncertain reading" not in text and "designed for this edition (a" not in text, name


@pytest.mark.parametrize("slug", SHIPPED)
def test_the_rules_of_a_shipped_pack_mark_every_designed_value_they_print(tmp_path, slug):
    root = make_project(tmp_path, slug)
    found = [d for d in compile_game(root / "cards" / slug, Project(root)).diagnostics if d.code == "mark-missing"]
    assert found == [], [d.message for d in found]


def test_a_designed_name_the_rulebook_prints_bare_is_named_at_its_line(tmp_path):
    from cardforge.checks.marks import designed_values

    root = make_project(tmp_path, "gate")
    game = compile_game(root / "cards" / "gate", Project(root)).game
    value, name, field = next(v for v in designed_values(game) if v[2] == "name")
    book = root / "cards" / "gate" / "rulebook.md"
    lines = book.read_text(encoding="utf-8").splitlines()
    lines += ["", f"Meet the {value} early."]
    book.write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = [d for d in compile_game(root / "cards" / "gate", Project(root)).diagnostics if d.code == "mark-missing"]
    assert [(d.line, d.file.endswith("rulebook.md")) for d in found] == [(len(lines), True)]
    assert value in found[0].message and name in found[0].message
    book.write_text("\n".join(lines[:-1] + [f"Meet the {value}{DESIGNED_MARK} early."]) + "\n", encoding="utf-8")
    assert not [d for d in compile_game(root / "cards" / "gate", Project(root)).diagnostics if d.code == "mark-missing"]
