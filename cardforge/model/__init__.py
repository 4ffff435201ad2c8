"""The game model: what loading produces and every later stage reads.

Plain dataclasses over the YAML data; nothing here reads files or draws. Each object keeps
the file and :class:`~cardforge.util.yamlsource.LineMap` it came from, so any stage can place a
diagnostic on the exact line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardforge.model.typefaces import FACES  # noqa: F401  (the faces of a font family, in order)
from cardforge.util.yamlsource import LineMap, PathKey


def slugify(text: str) -> str:
    """``"Goblin Ambush!"`` -> ``"goblin-ambush"``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass(frozen=True)
class Source:
    """Where a value was written: display file name, line map and path inside the document."""

    file: str
    lines: LineMap
    path: PathKey = ()

    def line(self, *sub: Any) -> int:
        return self.lines.line(self.path + sub)

    def column(self, *sub: Any) -> int:
        return self.lines.locate(self.path + sub)[1]


@dataclass
class Card:
    """One card entry as printed (``data`` holds every field, errata not applied)."""

    name: str
    type: str
    quantity: int
    data: dict[str, Any]
    source: Source
    source_name: str | None = None  # in a translated game: the card's name in the pack's source language

    @property
    def id(self) -> str:
        return f"{self.type}/{slugify(self.name)}"

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    @property
    def label(self) -> str:
        """The card as a message names it: ``building card 'Quarry'``, or ``card 'Quarry'`` when
        the card type is itself called ``card`` (never "card card")."""
        kind = "card" if self.type == "card" else f"{self.type} card"
        return f"{kind} {self.name!r}"

    @property
    def provisional(self) -> list[str]:
        value = self.data.get("provisional") or []
        return list(value) if isinstance(value, list) else []


DESIGNED_MARK = "†"  # marks designed values (fields a card lists as `provisional`); see cardforge.resolve.marks
# the mark explained, in these words, once on each document (and each deck sheet) that prints it
DESIGNED_NOTE = "† designed or restored for this edition (a † in a card's corner: all its values)"


@dataclass
class Icon:
    """An icon of the game's legend: drawn from ``svg`` (absolute path) or as ``text``."""

    name: str
    label: str
    svg: Path | None = None
    text: str | None = None
    color: str = "#000000"
    glyph: str | None = None
    badge: str | None = None
    stat: bool = False
    legend: bool = True  # False: decorative, not listed in the icon legend

    @property
    def printable(self) -> bool:
        """Whether it prints at all: False when its file was refused (no ``svg``, no ``text``),
        which only a forced build draws; text then prints its ``{name}`` token instead."""
        return self.svg is not None or self.text is not None




@dataclass(frozen=True)
class PackFont:
    """A font family a pack declares under ``fonts:`` in game.yaml (see
    :mod:`cardforge.sources.packfonts`): its ``name`` (what layouts write as ``font:``), one TrueType
    file per face of :data:`FACES` (absolute paths; a face not declared uses another's file),
    the SHA-256 ``digest`` of the files, and whether the rules documents print in it.

    Creating one (loading, or unpickling in a worker process) registers its faces with
    :mod:`cardforge.model.typefaces` under keys that name the content (:attr:`key`), so two
    packs may declare fonts of the same name."""

    name: str
    files: tuple[Path, Path, Path, Path]
    digest: str
    rules: bool = False

    def __post_init__(self):
        from cardforge.model.typefaces import declare

        declare(self)

    def __reduce__(self):
        return (PackFont, (self.name, self.files, self.digest, self.rules))

    @property
    def key(self) -> str:
        """The font key of the regular face (``name@digest``), as resolved layouts hold it."""
        return f"{self.name}@{self.digest[:12]}"

    def face(self, which: str) -> str:
        """The font key of face ``which`` (one of :data:`FACES`)."""
        return self.key if which == "regular" else f"{self.name}-{which}@{self.digest[:12]}"


@dataclass
class CardType:
    """A card type of game.yaml. ``back`` and ``layout`` are as written: an id, a template
    or ``{by, values, default}`` choosing one from each card's data (see
    :mod:`cardforge.sandbox.choice`); ``layout`` None: the layout named like the type."""

    id: str
    label: str
    description: str
    back: Any
    schema: dict[str, Any]
    source: Source
    layout: Any = None


@dataclass
class Game:
    """A loaded game pack (``cards/<slug>/``)."""

    slug: str
    root: Path
    data: dict[str, Any]
    source: Source
    card_types: dict[str, CardType]
    icons: dict[str, Icon]
    cards: list[Card] = field(default_factory=list)
    card_files: list[str] = field(default_factory=list)
    # files refused whole (not parsed, too large, not UTF-8) -> what the checks lack: "cards" (a card
    # file: its cards are missing), "errata" (errata.yaml), "layouts", "rules" (see cardforge.checks)
    unread: dict[str, str] = field(default_factory=dict)
    fonts: dict[str, PackFont] = field(default_factory=dict)  # game.yaml fonts:, by name
    misshapen: set[str] = field(default_factory=set)  # ids of the cards that break their schema (cardforge.validation.cards)
    # a translated game (cardforge.sources.catalogs): the language it prints in (None: the pack's
    # source language), its rules sources as translated (kind -> Markdown with jinja2) and the
    # pack's own words for cardforge's fixed words (English -> translation), the titles of card
    # fields the card anatomy prints ("type/field" -> title) and the text its layouts print
    # (a text element's template -> its translation)
    language: str | None = None
    rules_text: dict[str, str] = field(default_factory=dict)
    fixed_words: dict[str, str] = field(default_factory=dict)
    field_titles: dict[str, str] = field(default_factory=dict)
    layout_text: dict[str, str] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return self.data["game"]["title"]

    @property
    def meta(self) -> dict[str, Any]:
        return self.data["game"]

    @property
    def components(self) -> list[dict[str, Any]]:
        return self.data.get("components") or []

    @property
    def glossary(self) -> dict[str, Any]:
        return self.data.get("glossary") or {}

    @property
    def backs(self) -> dict[str, Any]:
        return self.data.get("backs") or {}

    @property
    def rules(self) -> list[dict[str, Any]]:
        return self.data.get("rules") or []

    def cards_of(self, *types: str) -> list[Card]:
        return [c for c in self.cards if c.type in types]

    def total(self, *types: str) -> int:
        """Sum of quantities of the cards of ``types`` (every card when none are given)."""
        return sum(c.quantity for c in self.cards if not types or c.type in types)
