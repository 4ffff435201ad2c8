"""A player's questions answered in print: each question a pack's QUESTIONS.md asks about a
card ability or a rule points at the ruling or the printed sentence that answers it, and the
answer is in what players read.

QUESTIONS.md sits beside ERRATA.md (format in docs/questions.md). A question is a list item
``- Q: ...``; each answer under it is a line ``A: ...`` of one of these forms:

``A: [R3]``
    a ruling or erratum ERRATA.md tags and the rulebook's "About this edition" lists;
``A: sheet.md: "quoted words"`` / ``A: rulebook.md: "quoted words"``
    words the rendered rules sheet or rulebook prints (after its templates run: a table,
    the setup or the turn a helper prints counts);
``A: game.yaml: "quoted words"``
    words of a game.yaml string the rules or helper sheets print (setup, turn, end, a table);
``A: glossary: "quoted words"``
    words of a glossary entry (the rulebook prints the glossary, as "term: definition");
``A: card NAME: "quoted words"``
    words that card NAME prints (any field but its note, source and provisional list).

Words match after whitespace is collapsed and Markdown emphasis (``*``) dropped; icons are
written as in the data (``{roll}``). Text after the closing quote is a comment.

Code:

``question-unanswered`` (warning, at the question's line in QUESTIONS.md)
    a question with no answer, or one of whose answers is not in print: an id no tag
    defines or "About this edition" does not list, words the named source does not print,
    or a card the pack does not hold.

A pack without QUESTIONS.md is not checked.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from cardforge.util.diagnostics import QUESTION_UNANSWERED, Diagnostic, diag
from cardforge.util.paths import InputFileError, read_limited
from cardforge.layout import LayoutSet
from cardforge.sources.load import display_path
from cardforge.model import Game
from cardforge.documents.playertext import printed_strings
from cardforge.checks import common
from cardforge.checks.rulings import ERRATA_NOTES, UNPRINTED, _strings, about_section, tags
from cardforge.documents.source import SOURCES, source_path

QUESTIONS = "QUESTIONS.md"
QUESTION = re.compile(r"^\s*[-*]\s+Q:\s*(?P<text>.+?)\s*$")
ANSWER = re.compile(r"^\s*A:\s*(?P<rest>.*?)\s*$")
CITED = re.compile(r"^\[(?P<id>[RE]\d+)\]")
QUOTED = re.compile(r'^(?P<src>sheet\.md|rulebook\.md|game\.yaml|glossary|card (?P<card>[^"]+?)):\s*"(?P<quote>.+?)"(?:\s|$|[.,;)])')
COMMENT = re.compile(r"<!--.*?-->", re.S)


@dataclass
class Question:
    """One ``- Q:`` item of QUESTIONS.md: its words, its line (1-based) and its answers, each
    (line, text after ``A:``)."""

    text: str
    line: int
    answers: list[tuple[int, str]] = field(default_factory=list)


def parse(text: str) -> list[Question]:
    """The questions of QUESTIONS.md text ``text``, in order, with their answers (an ``A:``
    line belongs to the last question above it; HTML comments are skipped)."""
    blank = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    out: list[Question] = []
    for n, line in enumerate(blank.splitlines(), 1):
        q = QUESTION.match(line)
        if q:
            out.append(Question(q.group("text"), n))
            continue
        a = ANSWER.match(line)
        if a and out:
            out[-1].answers.append((n, a.group("rest")))
    return out


def normal(text: str) -> str:
    """``text`` as answers are matched: emphasis marks dropped, whitespace collapsed,
    typographic quotes and dashes as their plain forms."""
    text = text.replace("*", "").replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return re.sub(r"\s+", " ", text).strip()


def _read(path) -> str | None:
    try:
        return read_limited(path, display=display_path(path)).decode("utf-8")
    except (OSError, UnicodeDecodeError, InputFileError):
        return None


class _Print:
    """What players read of ``game``, read once for all the questions."""

    def __init__(self, game: Game):
        self.game = game
        notes = _read(game.root / ERRATA_NOTES)
        self.tagged = set(tags(notes)) if notes else set()
        book = _read(source_path(game, "rulebook"))
        self.listed = set(re.findall(r"\[([RE]\d+)\]", about_section(book) or "")) if book else set()
        self.sources: dict[str, str] = {}
        for kind, name in SOURCES.items():
            markdown, _ = common.rules_source(game, kind)
            self.sources[name] = normal(markdown or "")
        self.sources["game.yaml"] = "\n".join(normal(text) for _, text in printed_strings(game))
        self.sources["glossary"] = "\n".join(normal(f"{term}: {entry.get('definition', '')}" if isinstance(entry, dict) else f"{term}: {entry}")
                                             for term, entry in (game.data.get("glossary") or {}).items())
        self.cards: dict[str, str] = {}
        for card in game.cards:
            words = "\n".join(normal(s) for s in _strings({k: v for k, v in card.data.items() if k not in UNPRINTED}))
            self.cards[card.name] = self.cards.get(card.name, "") + "\n" + normal(card.name) + "\n" + words

    def problem(self, answer: str) -> str | None:
        """Why ``answer`` (the text after ``A:``) is not in print, or None when it is."""
        cited = CITED.match(answer)
        if cited:
            rid = cited.group("id")
            if rid not in self.tagged:
                return f"[{rid}] is tagged by no entry of {ERRATA_NOTES}"
            if rid not in self.listed:
                return f"[{rid}] is not listed in the rulebook's \"About this edition\""
            return None
        quoted = QUOTED.match(answer)
        if not quoted:
            return (f"the answer {answer!r} is neither a citation [R3] nor a source with quoted words "
                    "(sheet.md: \"...\", rulebook.md: \"...\", game.yaml: \"...\", glossary: \"...\", card NAME: \"...\")")
        src, quote = quoted.group("src"), normal(quoted.group("quote"))
        if quoted.group("card") is not None:
            name = quoted.group("card").strip()
            if name not in self.cards:
                return f"the pack holds no card named {name!r}"
            where, text = f"card {name!r}", self.cards[name]
        else:
            where, text = src, self.sources.get(src, "")
        if quote not in text:
            return f"{where} does not print \"{quoted.group('quote')}\""
        return None


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    path = game.root / QUESTIONS
    text = _read(path)
    if text is None:
        return []
    printed = _Print(game)
    found = []
    for q in parse(text):
        where = dict(file=display_path(path), line=q.line)
        if not q.answers:
            found.append(diag(QUESTION_UNANSWERED, f"no answer is given to \"{q.text}\"",
                              hint="add a line \"A: [R3]\" or \"A: rulebook.md: \\\"the sentence that answers it\\\"\" "
                              "under it, or rule on it in ERRATA.md and print the ruling", **where))
            continue
        for line, answer in q.answers:
            reason = printed.problem(answer)
            if reason:
                found.append(diag(QUESTION_UNANSWERED, f"\"{q.text}\" is not answered in print: {reason} "
                                  f"(answer at line {line})",
                                  hint="quote the words as the print has them, or print the answer and cite it",
                                  **where))
    return found
