"""A player's questions answered in print: `cardforge check` names, at its line in
QUESTIONS.md, a question with no answer or whose answer is not in what players read (a
ruling "About this edition" does not list, words the rules or a card do not print)."""
from __future__ import annotations

import pytest

from cardforge.build import Project, compile_game
from cardforge.checks.questions import QUESTIONS, parse
from tests.conftest import REPO, SHIPPED, make_project

WITH_QUESTIONS = [slug for slug in SHIPPED if (REPO / "cards" / slug / QUESTIONS).exists()]


def _unanswered(root, slug):
    return [d for d in compile_game(root / "cards" / slug, Project(root)).diagnostics if d.code == "question-unanswered"]


@pytest.mark.parametrize("slug", WITH_QUESTIONS)
def test_every_question_a_shipped_pack_asks_is_answered_in_print(tmp_path, slug):
    root = make_project(tmp_path, slug)
    questions = parse((root / "cards" / slug / QUESTIONS).read_text(encoding="utf-8"))
    assert questions and all(q.answers for q in questions)
    assert _unanswered(root, slug) == []


def test_shipped_packs_carry_question_lists():
    assert set(WITH_QUESTIONS) == set(SHIPPED)  # every shipped pack carries its question list


def test_an_unanswered_question_is_named_at_its_line(tmp_path):
    slug = "through-the-gate"
    root = make_project(tmp_path, slug)
    path = root / "cards" / slug / QUESTIONS
    lines = path.read_text(encoding="utf-8").splitlines()
    lines += ["", "## Added", "",
              "- Q: What if nobody answers this?",                       # no answer
              "- Q: Is this quoted from the sheet?",
              '  A: sheet.md: "words no sheet prints"',                   # not in print
              "- Q: Is this ruled?",
              "  A: [R999]",                                              # no such ruling
              "- Q: Does the card say so?",
              '  A: card No Such Card: "anything"',                       # no such card
              "- Q: And this one?",
              '  A: card Shortcut: "your speed is zero"']                 # answered: no report
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    asked = [n for n, line in enumerate(lines, 1) if line.startswith("- Q:")][-5:]  # the five added
    found = _unanswered(root, slug)
    assert [d.line for d in found] == asked[:4]
    assert all(d.file.endswith(QUESTIONS) for d in found)
    assert "no answer" in found[0].message
    assert "words no sheet prints" in found[1].message
    assert "R999" in found[2].message and "No Such Card" in found[3].message


def test_a_ruling_cited_as_an_answer_must_be_listed_in_about_this_edition(tmp_path):
    slug = "through-the-gate"
    root = make_project(tmp_path, slug)
    book = root / "cards" / slug / "rulebook.md"
    text = book.read_text(encoding="utf-8")
    assert "- [R19] " in text
    book.write_text(text.replace("- [R19] ", "- "), encoding="utf-8")  # R19 no longer listed
    found = _unanswered(root, slug)
    assert found and all("[R19]" in d.message and "About this edition" in d.message for d in found)


def test_a_pack_without_questions_is_not_checked(tmp_path):
    root = make_project(tmp_path, "gate")
    path = root / "cards" / "gate" / QUESTIONS
    path.write_text("- Q: Left open?\n", encoding="utf-8")
    assert len(_unanswered(root, "gate")) == 1
    path.unlink()
    assert _unanswered(root, "gate") == []
