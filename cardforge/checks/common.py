"""Helpers shared by check families: walking card text with its source positions, and
the template contexts of card faces, shared by the families that evaluate templates."""
from __future__ import annotations

from collections.abc import Iterator
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cardforge.model import Card, Game

NOT_TEXT = {"name", "type", "source", "note", "provisional", "quantity"}


@dataclass(frozen=True)
class TextField:
    """A string in a card's data: the card, its path inside the card, and the text."""

    card: Card
    path: tuple[Any, ...]
    text: str

    def position(self, offset: int) -> tuple[int, int]:
        """1-based (line, column) of character ``offset`` in the card file."""
        return self.card.source.lines.in_string(self.card.source.path + self.path, self.text, offset)


def card_texts(card: Card) -> Iterator[TextField]:
    """Every string value of a card's data that players read (not name, source, notes)."""

    def walk(value: Any, path: tuple[Any, ...]) -> Iterator[TextField]:
        if isinstance(value, str):
            yield TextField(card, path, value)
        elif isinstance(value, dict):
            for key, sub in value.items():
                if not path and key in NOT_TEXT:
                    continue
                yield from walk(sub, path + (key,))
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                yield from walk(sub, path + (i,))

    yield from walk(card.data, ())


def icon_keys(card: Card, icons: set[str]) -> set[str]:
    """Icon names used as mapping keys or whole values in a card's data (e.g. stat counts)."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, sub in value.items():
                if isinstance(key, str) and key in icons:
                    found.add(key)
                walk(sub)
        elif isinstance(value, list):
            for sub in value:
                walk(sub)
        elif isinstance(value, str) and value in icons:
            found.add(value)

    walk({k: v for k, v in card.data.items() if k not in NOT_TEXT})
    return found


class _Shared(threading.local):
    contexts: dict | None = None  # (id(card), id(game), side) -> (card, game, context), while a game's checks run


_shared_here = _Shared()  # per thread: a live preview checks a game in a thread of its own


@contextmanager
def shared_contexts():
    """While this block runs (in this thread), :func:`front` and :func:`back` give one
    context per card and side, so what one check family works out from it (templates,
    ``when:`` tests, text fits: :class:`cardforge.sandbox.context.Context`) the others read
    back, not again."""
    outer, _shared_here.contexts = _shared_here.contexts, {}
    try:
        yield
    finally:
        _shared_here.contexts = outer


def front(card: Card, game: Game) -> dict:
    """What the card's front templates see (:func:`cardforge.resolve.face.context`)."""
    from cardforge.resolve.face import context

    return _shared(card, game, "front", lambda: context(card, game))


def back(card: Card, game: Game) -> dict:
    """What its back templates see (:func:`cardforge.render.deck.back_context`)."""
    from cardforge.resolve.face import back_context

    return _shared(card, game, "back", lambda: back_context(card, game))


def rules_source(game: Game, kind: str) -> tuple[str | None, list]:
    """:func:`cardforge.documents.source.render_source` of ``game`` (its rulebook or sheet), and
    while :func:`shared_contexts` runs rendered once for every check family that reads it."""
    from cardforge.documents.source import render_source

    contexts = _shared_here.contexts
    if contexts is None:
        return render_source(game, kind)
    key = ("rules-source", id(game), kind)
    kept = contexts.get(key)
    if kept is None or kept[0] is not game:
        kept = contexts[key] = (game, render_source(game, kind))
    markdown, problems = kept[1]
    return markdown, list(problems)


def _shared(card: Card, game: Game, side: str, make) -> dict:
    contexts = _shared_here.contexts
    if contexts is None:
        return make()
    key = (id(card), id(game), side)
    kept = contexts.get(key)
    if kept is None or kept[0] is not card or kept[1] is not game:
        kept = contexts[key] = (card, game, make())  # card and game kept alive with it: their ids stay theirs
    return kept[2]
