"""A serif family ships (regular, italic, bold, bold italic) and a layout may name each face; the
rulebook of a pack with no glossary prints no "Glossary" heading (nor in its contents, nor in
rulebook.html); a turn step with a long version prints its summary too, unless the rules source
asks for the long version alone."""
from __future__ import annotations

import pdfplumber
import pytest

from tests.conftest import edit, run_cli


@pytest.fixture()
def pack(tmp_path):
    assert run_cli("new", "mill", "--root", str(tmp_path)).exit_code == 0
    return tmp_path


def test_the_serif_faces_ship_with_their_licence():
    from importlib import resources

    from cardforge.model.fontmetrics import chars
    from cardforge.model.typefaces import FAMILIES, FONTS, styled

    assert FAMILIES["serif"] == ("serif", "serif-bold", "serif-italic", "serif-bold-italic")
    for face in FAMILIES["serif"]:
        assert resources.files("cardforge").joinpath("fonts", FONTS[face]).is_file()
        assert ord("g") in chars(face)
    assert styled("serif", bold=False, italic=True) == "serif-italic"
    assert styled("serif-italic", bold=True, italic=True) == "serif-bold-italic"
    licence = resources.files("cardforge").joinpath("fonts", "LICENSE.md").read_text()
    assert "DejaVuSerif (regular, bold, italic, bold italic)" in licence


def test_a_card_prints_in_serif_regular_and_its_italic(pack):
    layout = pack / "layouts/mill.yaml"
    edit(layout, "        field: text\n", "        field: text\n        font: serif\n")
    cards = pack / "cards/mill/cards.yaml"
    text = cards.read_text()
    first = text.index("text: ") + len("text: ")
    end = text.index("\n", first)
    cards.write_text(text[:first] + '"Plain gain then *slanted* words."' + text[end:])
    result = run_cli("check", "mill", "--root", str(pack))
    assert result.exit_code == 0 and "no problems found" in result.stderr, result.stderr  # `font: serif` is known
    assert run_cli("build", "mill", "--root", str(pack)).exit_code == 0
    with pdfplumber.open(pack / "output/mill/deck.pdf") as pdf:
        words = {w["text"]: w["fontname"].split("+")[-1]
                 for w in pdf.pages[0].extract_words(extra_attrs=["fontname"])}
    assert words["Plain"] == "DejaVuSerif" and words["slanted"] == "DejaVuSerif-Italic", words


def _rulebook(root, slug="mill") -> tuple[str, str]:
    assert run_cli("build", slug, "--root", str(root)).exit_code == 0
    with pdfplumber.open(root / f"output/{slug}/rulebook.pdf") as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    html = next((root / f"output/{slug}").glob("rulebook.html")).read_text()
    return text, html


def test_an_empty_glossary_prints_no_heading_and_a_filled_one_does(tmp_path):
    from tests.conftest import REPO

    assert run_cli("new", "harvest", "--from", str(REPO / "examples/harvest.csv"), "--root", str(tmp_path)).exit_code == 0
    game = tmp_path / "cards/harvest/game.yaml"
    assert "\nglossary:" not in game.read_text()
    text, html = _rulebook(tmp_path, "harvest")
    assert "Glossary" not in text and ">Glossary<" not in html
    assert "Appendix: every card" in text
    game.write_text(game.read_text() + "\nglossary:\n  Harvest: {definition: Taking the crops in at the end of a round.}\n")
    text, html = _rulebook(tmp_path, "harvest")
    assert text.count("Glossary") == 2 and ">Glossary<" in html  # the contents and the heading
    assert "Taking the crops in" in text


def test_a_turn_step_with_a_long_version_prints_its_summary_too(pack):
    game = pack / "cards/mill/game.yaml"
    edit(game, "  - {name: Draw, summary: Draw a card.}",
         "  - {name: Draw, summary: Draw 5 cards., detail: When your pile runs out shuffle your discards.}")
    printed, _ = _rulebook(pack)
    flat = " ".join(printed.split())
    assert "Draw. Draw 5 cards. When your pile runs out shuffle your discards." in flat
    rulebook = pack / "cards/mill/rulebook.md"
    edit(rulebook, "turn_sequence(detail=True)", "turn_sequence(detail=True, summary=False)")
    printed, _ = _rulebook(pack)
    flat = " ".join(printed.split())
    assert "Draw. When your pile runs out" in flat and "Draw 5 cards." not in flat
