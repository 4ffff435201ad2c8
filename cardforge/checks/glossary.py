"""Glossary: game terms on cards are the glossary's, and glossary terms are used.

Codes: ``term-misspelt`` (warning) for a word of card text that is a near miss of a
glossary term or one of its ``forms`` (fuzzy ratio >= 88, words of 5 letters or more)
without being one, at the word's line and column; ``term-unused`` (warning) for a term
that no card's text or name, card type label, layout template or rules source (rulebook.md,
sheet.md) uses in any of its forms (an icon token counts as its label), at the term's line in game.yaml.
"""
from __future__ import annotations

import re

from cardforge.checks.common import card_texts
from cardforge.sandbox import results as checkresults
from cardforge.checks import common
from cardforge.util.diagnostics import TERM_MISSPELT, TERM_UNUSED, Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.util.markup import TOKEN
from cardforge.model import Game
from cardforge.documents.source import SOURCES

WORDS = re.compile(r"[A-Za-z][a-z'’-]{4,}")
NEAR = 88.0


def inflections(word: str) -> set[str]:
    """A word with its plural, possessive, past and -ing endings, which are no misspellings."""
    stems = {word, word[:-1] if word.endswith("e") else word}
    return {word} | {stem + end for stem in stems for end in ("s", "es", "ed", "d", "ing", "'s", "’s")}


def forms(term: str, spec: dict) -> list[str]:
    return [term] + list(spec.get("forms") or [])


def _label(game: Game, icon: str | None) -> str:
    """An icon token read as its label ("{hourglass}" is "An hourglass token")."""
    return f" {game.icons[icon].label} " if icon in game.icons else " "


def _near(word: str, vocabulary: bytes, *terms) -> str | None:
    """:func:`_near_miss`, or None when ``word`` was no near miss of the same vocabulary
    before (:mod:`cardforge.sandbox.results`: a near miss is found afresh every time)."""
    best: list[str | None] = [None]

    def clean() -> bool:
        best[0] = _near_miss(word, *terms)
        return best[0] is None
    return None if checkresults.passed(("near-term", word, vocabulary) if vocabulary else (), clean) else best[0]


def _near_miss(word: str, accepted: set[str], all_forms: dict[str, str], name_words: set[str],
               single: set[str]) -> str | None:
    """The single-word form ``word`` is a near miss of, or None (a term, an inflection, a card name's word)."""
    if word in accepted or inflections(word) & all_forms.keys() or word in name_words or not single:
        return None
    from rapidfuzz import fuzz

    best = max(single, key=lambda f: fuzz.ratio(word, f))
    return best if fuzz.ratio(word, best) >= NEAR and len(word) >= 5 else None


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    glossary = game.glossary
    all_forms = {f.lower(): term for term, spec in glossary.items() for f in forms(term, spec)}
    accepted = {v for f in all_forms for w in f.split() for v in inflections(w)}
    single = {f for f in all_forms if " " not in f}
    name_words = {w.lower() for c in game.cards for w in WORDS.findall(c.name)}
    corpus_parts = [c.name for c in game.cards]
    found = []
    near: dict[str, str | None] = {}  # word -> the term it is a near miss of (None: none); words recur across cards
    vocabulary = checkresults.words_digest(accepted, all_forms, name_words, single)
    for card in game.cards:
        for field in card_texts(card):
            text = TOKEN.sub(lambda m: " " * len(m.group(0)), field.text)
            corpus_parts.append(TOKEN.sub(lambda m: _label(game, m.group(1)), field.text))
            for match in WORDS.finditer(text):
                word = match.group(0).lower().rstrip("'’-")
                if word not in near:
                    near[word] = _near(word, vocabulary, accepted, all_forms, name_words, single)
                best = near[word]
                if best is not None:
                    line, col = field.position(match.start())
                    found.append(diag(TERM_MISSPELT, f"{card.label}: \"{match.group(0)}\" is not a "
                                      f"glossary term", file=card.source.file, line=line, column=col,
                                      hint=f'did you mean "{best}" ({all_forms[best]})?', card=card.name))
    corpus_parts += [t.label for t in game.card_types.values()]  # printed on type lines
    if layouts is not None:  # words a layout prints on every card of a type ("[Seeking ...]")
        faces = [f for lay in layouts.by_type.values() for f in (lay.front, lay.back) if f] + list(layouts.backs.values())
        corpus_parts += [el.template for face in faces for el in face.elements if el.template]
    for kind in SOURCES:  # the rules use terms too, with the data they render (setup, turn, tables)
        rendered, _ = common.rules_source(game, kind)
        if rendered:
            corpus_parts.append(rendered)
    corpus = "\n".join(corpus_parts).lower()
    src = game.source
    for term, spec in glossary.items():
        if not any(re.search(rf"(?<![\w-]){re.escape(f.lower())}(?![\w-])", corpus) for f in forms(term, spec)):
            found.append(diag(TERM_UNUSED, f"glossary term {term!r} appears on no card",
                              file=src.file, line=src.line("glossary", term)))
    return found
