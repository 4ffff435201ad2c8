"""How a spreadsheet's columns become card fields: the mapping, and what a card type's schema
says about each field.

A mapping is declared in game.yaml under ``sources:`` by file name (``sources: {deck.csv:
{...}}``; the same mapping serves ``cardforge import`` and a CSV card file read directly),
or given to ``cardforge import --mapping FILE``. Every key is optional::

    type: card               # the card type of every row (or a `type` column per row)
    type_column: Kind        # the column holding each row's card type (default: `type`)
    type_values: {Res: resource}   # values of that column -> card types (ids and labels match by themselves)
    sheets: {Buildings: building, Notes: null}  # a workbook's sheet -> the card type of its rows (null: skipped)
    columns: {Card Name: name}     # rename columns to fields (a column named like a field needs nothing)
    quantity: Num            # the quantity column (default: qty, quantity, copies or count)
    lists: {tags: ","}       # list fields and the separator their cells use
    icons: {Wood: wood}      # words in the cells -> icon tokens ({wood})
    icon_fields: [text]      # the fields where words become icons (default: every text field)
    convert: {extra: json}   # force a field's conversion: integer, number, boolean, string, json
    skip: [Notes]            # columns not imported
    keep: [flavor]           # fields kept from the current YAML cards on re-import
    computed: {name: "{{ picture | stem | title }}"}  # fields computed from the row's columns (sandboxed templates)
    skip_rows: [14, 15]      # rows not read (as the spreadsheet numbers them)
    skip_when: "not name"    # rows not read when this expression over the row is true
    url: https://...         # where `cardforge pull` fetches the sheet (only pull reads it)

``origin`` is where the mapping was written (a :class:`~cardforge.model.Source` at its
entry), so a template of ``computed:`` or ``skip_when:`` that fails is reported there.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

QUANTITY_NAMES = ("qty", "quantity", "copies", "count")
CONVERSIONS = ("integer", "number", "boolean", "string", "json")


@dataclass
class Mapping:
    """A parsed mapping (see the module docstring for each key)."""

    type: str | None = None
    type_column: str | None = None
    type_values: dict[str, str] = field(default_factory=dict)
    sheets: dict[str, str | None] = field(default_factory=dict)
    columns: dict[str, str | None] = field(default_factory=dict)
    quantity: str | None = None
    lists: dict[str, str] = field(default_factory=dict)
    icons: dict[str, str] = field(default_factory=dict)
    icon_fields: list[str] | None = None
    convert: dict[str, str] = field(default_factory=dict)
    skip: list[str] = field(default_factory=list)
    keep: list[str] = field(default_factory=list)
    computed: dict[str, str] = field(default_factory=dict)
    skip_rows: list[int] = field(default_factory=list)
    skip_when: str | None = None
    url: str | None = None
    origin: Any = field(default=None, compare=False)

    @classmethod
    def from_data(cls, data: dict[str, Any] | None, origin: Any = None) -> "Mapping":
        """A mapping from its YAML data (already checked against the game schema's ``source_mapping``);
        ``origin`` is the Source of its entry, for locating its diagnostics."""
        data = dict(data or {})
        return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__ and k != "origin"}, origin=origin)

    def where(self, *keys: Any) -> dict[str, Any]:
        """Keyword arguments placing a diagnostic on the mapping's key ``keys`` (nothing when unknown)."""
        if self.origin is None:
            return {}
        return {"file": self.origin.file, "line": self.origin.line(*keys), "column": self.origin.column(*keys)}

    def to_data(self) -> dict[str, Any]:
        """The mapping as YAML data, without empty keys."""
        out = {}
        for name in self.__dataclass_fields__:
            if name == "origin":
                continue
            value = getattr(self, name)
            if value not in (None, {}, []):
                out[name] = value
        return out


def normal(name: str) -> str:
    """A column name compared loosely: ``"Card Name "`` -> ``"card_name"``."""
    return re.sub(r"[\s\-]+", "_", str(name).strip().lower())


# --- what a card type's schema says about its fields ------------------------------------

def _resolve(schema: Any, defs: dict[str, Any], seen: frozenset = frozenset()) -> list[dict[str, Any]]:
    """``schema`` and every subschema it is made of (allOf/anyOf/oneOf, local $refs)."""
    if not isinstance(schema, dict):
        return []
    out = [schema]
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and ref not in seen:
        target = defs.get(ref.removeprefix("#/$defs/"))
        out += _resolve(target, defs, seen | {ref})
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in schema.get(key) or []:
            out += _resolve(sub, defs, seen)
    return out


def _types_of(parts: list[dict[str, Any]]) -> set[str]:
    found: set[str] = set()
    for part in parts:
        t = part.get("type")
        if isinstance(t, str):
            found.add(t)
        elif isinstance(t, list):
            found.update(x for x in t if isinstance(x, str))
        values = ([part["const"]] if "const" in part else []) + list(part.get("enum") or [])
        for v in values:
            found.add({bool: "boolean", int: "integer", float: "number", str: "string", list: "array",
                       dict: "object", type(None): "null"}.get(type(v), "string"))
    return found


@dataclass
class FieldInfo:
    """What a schema allows for one field: JSON types, and the types of its list items."""

    types: set[str]
    item_types: set[str]


class TypeSchema:
    """A card type's JSON Schema read for conversion: the fields it names and their types."""

    def __init__(self, schema: dict[str, Any], defs: dict[str, Any]):
        self.defs = {**defs, **(schema.get("$defs") or {})}
        self.parts = _resolve(schema, self.defs)
        self.closed = any(p.get("additionalProperties") is False or p.get("unevaluatedProperties") is False
                          for p in self.parts)
        self.required: set[str] = {r for p in self.parts for r in p.get("required") or [] if isinstance(r, str)}

    @property
    def fields(self) -> list[str]:
        names: dict[str, None] = {}
        for part in self.parts:
            for name in part.get("properties") or {}:
                names[name] = None
        return list(names)

    def info(self, name: str) -> FieldInfo | None:
        """The types of field ``name``; None when the schema does not describe it."""
        subs = [p["properties"][name] for p in self.parts if isinstance(p.get("properties"), dict)
                and name in p["properties"]]
        if not subs:
            return None
        parts = [q for s in subs for q in _resolve(s, self.defs)]
        items = [q for p in parts if isinstance(p.get("items"), dict) for q in _resolve(p["items"], self.defs)]
        return FieldInfo(_types_of(parts), _types_of(items))
