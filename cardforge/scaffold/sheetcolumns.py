"""A spreadsheet's columns read for ``cardforge new SLUG --from SHEET``: each one's field and type.

The header words that give a column its role (type, deck, quantity, name, id, art, text),
:class:`Column` (its header, the field it feeds, that field's JSON type), and the small
readings :func:`~cardforge.scaffold.sheetplan.plan_sheet` makes of headers and cells: a
field name from a header (never one cardforge reserves), a JSON type from a column's values
(integer, number, an enum of a few repeated words, string), a title from an art file's stem.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field as dc_field
from typing import Any

from cardforge.sources.mapping import QUANTITY_NAMES, normal
from cardforge.sources.tables import column_letter

TYPE_NAMES = ("type", "kind", "category")
DECK_NAMES = ("deck", "back", "pile", "set")  # a column saying which pile a card is shuffled into (its back)
UNTYPED = "Untyped"  # the label of the card type of cards whose type cell is blank
MANY_TYPES = 5  # more card types than this in one type column: guessed to share one back (one pile)
QUANTITY = (*QUANTITY_NAMES, "number")
NAME_NAMES = ("name", "title", "card_name", "card")
ID_NAMES = ("id", "no", "card_id", "card_no", "number", "num")
ART_NAMES = ("picture", "art", "image", "file", "img", "art_file", "artwork", "illustration", "filename", "file_name")
TEXT_NAMES = ("text", "rules", "rules_text", "effect", "ability", "description")
IMAGE = re.compile(r"\.(png|jpe?g|svg|gif|webp|tiff?)$", re.IGNORECASE)
RESERVED = {"name", "type", "quantity", "layout", "provisional", "source", "note", "id"}
MARKS = {"x", "✓", "✔", "•", "yes", "y", "*"}  # a cell that only marks: the column is a flag
ENUM_MAX = 8  # at most this many distinct words, each used twice or more, make an enum
INTEGER = re.compile(r"^[+-]?\d+$")
NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")

@dataclass
class Column:
    """One column of the sheet: its header, the field it feeds and that field's JSON type."""

    index: int  # 0-based
    header: str
    field: str = ""
    kind: str = "string"  # integer, number, enum, string
    enum: list[str] = dc_field(default_factory=list)
    role: str = ""  # type, quantity, name, art, text

    @property
    def letter(self) -> str:
        return column_letter(self.index + 1)


def slug(text: str, fallback: str) -> str:
    out = re.sub(r"[^a-z0-9]+", "-", str(text).strip().lower()).strip("-")
    return out if out and out[0].isalnum() else fallback


def is_blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def cell_text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else str(value)


def new_field_name(header: str, taken: set[str], fallback: str) -> str:
    name = re.sub(r"[^a-z0-9]+", "_", header.lower()).strip("_") or fallback
    if name[0].isdigit():
        name = "f_" + name
    base, n = name, 1
    while name in taken or name in RESERVED:
        n += 1
        name = f"{base}_{n}"
    taken.add(name)
    return name


def json_kind(values: list[Any]) -> tuple[str, list[str]]:
    texts = [cell_text(v) for v in values]
    if not texts:
        return "string", []
    if all(isinstance(v, int) or (isinstance(v, float) and v.is_integer()) or INTEGER.match(t) for v, t in zip(values, texts)):
        return "integer", []
    if all(isinstance(v, (int, float)) or NUMBER.match(t) for v, t in zip(values, texts)):
        return "number", []
    counts: dict[str, int] = {}
    for t in texts:
        counts[t] = counts.get(t, 0) + 1
    if len(counts) <= ENUM_MAX and min(counts.values()) >= 2 and not any("\n" in t or len(t) > 30 for t in counts):
        return "enum", list(counts)
    return "string", []


def title_of(stem: str) -> str:
    """What jinja's ``replace('_', ' ') | replace('-', ' ') | title`` makes of a file stem."""
    return re.sub(r"\w+", lambda m: m.group(0)[0].upper() + m.group(0)[1:].lower(),
                  stem.replace("_", " ").replace("-", " ")).strip()


def stem_of(value: Any) -> str:
    from cardforge.sandbox import stem

    return stem(cell_text(value))


def header_words(header: str) -> list[str]:
    """A header's words, lower case: ``"Back text"`` -> ``["back", "text"]``, ``"deckName"`` -> ``["deck", "name"]``."""
    return re.findall(r"[a-z0-9]+", re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", header).lower())


def columns_named(columns: list[Column], names: tuple[str, ...], words: tuple[str, ...] | None = None) -> list[Column]:
    """The columns whose header is one of ``names`` or holds one of ``words`` (default: ``names``)
    as a word: exact headers first, in the order of ``names``, then the others in sheet order."""
    exact = [c for n in names for c in columns if normal(c.header) == n]
    return exact + [c for c in columns if c not in exact and set(header_words(c.header)) & set(words or names)]


def shorten(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip(", ") + "…"


def field_schema(column: Column) -> dict[str, Any]:
    """The JSON Schema of the field a column feeds."""
    if column.kind == "enum":
        return {"enum": column.enum}
    return {"type": column.kind}
