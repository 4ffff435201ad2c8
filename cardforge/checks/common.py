"""Helpers shared by check families: walking card text with its source positions."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from cardforge.model import Card

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
