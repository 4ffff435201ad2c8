"""Display formats: which card fields the almanac and the card appendix print, and how.

A card type declares them in game.yaml, in the order they print::

    card_types:
      witch:
        almanac:
          text: false                 # print the card's ``text`` field (default true)
          fields:
            element:    {label: Element, enum: {fire: "{fire} fire", water: "{water} water"}}
            spellpower: {label: Spellpower}
            movement:   {label: Movement, format: roman}     # 3 -> "III"
            cost:       {label: Cost, unit: gold}            # 2 -> "2 gold"
            one_time:   {label: One use}                     # true -> "One use", false -> nothing
            stats:      {label: Icons, format: icons}        # {strength: 2} -> two icons
            spells:     {label: Spells, columns: {name: Spell, when: When}}   # a small table

An enum value prints by its display label: the ``enum`` map above, else the ``title`` of its
``const`` in the field's schema (``oneOf: [{const: fire, title: Fire}]``), else game.yaml's
``labels:`` (``labels: {element: {fire: Fire}}``, by field name); the ``almanac-raw-value``
check warns where a value would print as written in the data. A label the value repeats
("Spawns" over "Spawn 1 City Guard...") is left out.

``format`` is ``roman``, ``signed`` (+1, -2), ``icon`` (an icon name as the icon and the
name in words: ``astral-shield`` -> icon + "Astral Shield"), ``icons`` (a mapping of icon counts as icons), or a template with ``{value}``
("{value}+", "wave {value}"). A field inside a mapping field is named with a dot
(``stats.icons``). A field without a label (here or as the
``title`` of its property in the card type's schema) is never printed: internal fields
(source, note, provisional, ids) stay out of player-facing pages. A list of mappings, or a
mapping, prints only as a small table (``columns``), never flattened into a line.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, replace
from typing import Any

from cardforge.model import Card, Game
from cardforge.sandbox import roman, tally


def _tally(value: dict, choice: bool = False) -> str:
    """Icon counts as tokens (:func:`cardforge.sandbox.tally`), joined with "or" when
    ``choice`` (one of them, the player's choice); counts too large to draw as icons (a
    card's schema error) as numbers."""
    counts = {k: v for k, v in value.items() if isinstance(v, int) and not isinstance(v, bool)}
    try:
        return tally(counts, choice=choice)
    except TypeError:
        return ", ".join(f"{n} {{{name}}}" for name, n in counts.items())

NEVER = {"name", "type", "quantity", "text", "flavour", "source", "note", "provisional"}


@dataclass
class Shown:
    """A field as printed: its ``label``, its value as card markup (``text``) or a ``table``
    (header labels, rows of markup), and whether it is ``designed``."""

    key: str
    label: str
    text: str = ""
    table: tuple[list[str], list[list[str]]] | None = None
    designed: bool = False


def formats(game: Game, type_id: str) -> dict[str, dict]:
    """The display format of each printed field of ``type_id``, in print order."""
    card_type = game.card_types[type_id]
    spec = (game.data.get("card_types", {}).get(type_id) or {}).get("almanac") or {}
    out: dict[str, dict] = {}
    for key, fmt in (spec.get("fields") or {}).items():
        fmt = {"label": fmt} if isinstance(fmt, str) else dict(fmt or {})
        if fmt.get("label") and key not in NEVER:
            out[key] = fmt
    for key, prop in ((card_type.schema or {}).get("properties") or {}).items():
        if key not in out and key not in NEVER and isinstance(prop, dict) and prop.get("title"):
            out[key] = {"label": prop["title"]}
    return out


def prints_text(game: Game, type_id: str) -> bool:
    spec = (game.data.get("card_types", {}).get(type_id) or {}).get("almanac") or {}
    return spec.get("text", True) is not False


def value_text(value: Any, fmt: dict, game: Game) -> str:
    """One scalar (or icon-count mapping, or list of scalars) as card markup."""
    if isinstance(value, list):
        return ", ".join(value_text(v, fmt, game) for v in value)
    if isinstance(value, dict):
        return _tally(value)
    enum = fmt.get("enum") or {}
    if value in enum or (not isinstance(value, bool) and str(value) in enum):
        shown = str(enum[value] if value in enum else enum[str(value)])
    elif fmt.get("format") == "roman" and isinstance(value, int) and value > 0:
        shown = roman(value)
    elif fmt.get("format") == "signed" and isinstance(value, int):
        shown = f"{value:+d}" if value else "0"
    elif fmt.get("format") == "icon" and str(value) in game.icons:
        shown = f"{{{value}}} {str(value).replace('-', ' ').title()}"
    elif isinstance(fmt.get("format"), str) and "{value}" in fmt["format"]:
        shown = fmt["format"].replace("{value}", str(value))
    else:
        shown = str(value)
    if fmt.get("unit"):
        shown = f"{shown} {fmt['unit']}"
    return shown


SLUG = re.compile(r"^(?=[a-z0-9_-]*[a-z])[a-z0-9]+(?:[-_][a-z0-9]+)*$")  # a value as data writes it: "devouring", "fire-witch"


def _resolve(schema: Any, game: Game, seen: int = 0) -> dict:
    """``schema`` with a ``$ref`` to ``#/$defs/NAME`` (game.yaml's ``schema_defs``) followed."""
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 8:
        ref = schema["$ref"]
        if not ref.startswith("#/$defs/"):
            break
        schema, seen = (game.data.get("schema_defs") or {}).get(ref.removeprefix("#/$defs/")), seen + 1
    return schema if isinstance(schema, dict) else {}


def field_schema(game: Game, type_id: str, key: str) -> dict:
    """The JSON Schema of field ``key`` of ``type_id`` (the items' schema for a list), ``$ref``
    followed; {} when the card type does not declare it."""
    card_type = game.card_types.get(type_id)
    schema: Any = (card_type.schema or {}) if card_type else {}
    for part in key.split("."):
        props = dict((_resolve(schema, game).get("properties") or {}))
        for sub in _resolve(schema, game).get("allOf") or []:
            props = {**(_resolve(sub, game).get("properties") or {}), **props}
        schema = props.get(part)
    schema = _resolve(schema, game)
    if schema.get("type") == "array":
        schema = _resolve(schema.get("items"), game)
    return schema


def enum_labels(game: Game, type_id: str, key: str) -> dict[str, str]:
    """Display labels of the values of field ``key``: the ``title`` of each ``const`` in its
    schema's ``oneOf``/``anyOf``, then game.yaml's ``labels:`` (``labels: {FIELD: {value:
    Label}}``, by the field's name), which win. Keys are the values as text."""
    schema = field_schema(game, type_id, key)
    out = {str(alt["const"]): str(alt["title"]) for alt in (schema.get("oneOf") or schema.get("anyOf") or [])
           if isinstance(alt, dict) and "const" in alt and alt.get("title")}
    labels = (game.data.get("labels") or {}).get(key.split(".")[-1])
    if isinstance(labels, dict):
        out.update({str(k): str(v) for k, v in labels.items()})
    return out


def enum_values(game: Game, type_id: str, key: str) -> list[str]:
    """The values field ``key`` of ``type_id`` may take (its schema's ``enum`` or consts), as text."""
    schema = field_schema(game, type_id, key)
    values = schema.get("enum") or [alt.get("const") for alt in (schema.get("oneOf") or schema.get("anyOf") or [])
                                    if isinstance(alt, dict) and "const" in alt]
    return [str(v) for v in values]


def raw_values(card: Card, game: Game) -> list[tuple[str, str]]:
    """(field, value) of each enum value the almanac would print for ``card`` as it is written
    in the data, a slug ("devouring"), for want of a display label."""
    out = []
    for key, fmt in formats(game, card.type).items():
        if fmt.get("format") or fmt.get("columns"):
            continue
        allowed = enum_values(game, card.type, key)
        if not allowed:
            continue
        labels = {**enum_labels(game, card.type, key), **{str(k): v for k, v in (fmt.get("enum") or {}).items()}}
        value = card.data
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        for v in value if isinstance(value, list) else [value]:
            if v is not None and str(v) in allowed and str(v) not in labels and SLUG.match(str(v)):
                out.append((key, str(v)))
    return out


def echoes(label: str, text: str) -> bool:
    """Whether ``text`` begins with the word ``label`` begins with ("Spawns" and "Spawn 1
    City Guard..."): the label would only repeat what the value says."""
    first = re.split(r"\W+", label.strip().lower(), maxsplit=1)[0]
    word = re.split(r"\W+", re.sub(r"<[^>]+>|\{[\w-]+\}", " ", text).strip().lower(), maxsplit=1)[0]
    return bool(first) and bool(word) and (word == first or first.rstrip("s") == word.rstrip("s"))


def _field(card: Card, key: str):
    """The value of ``card``'s field ``key`` ("stats.choice": a field inside a mapping
    field), or None."""
    value = card.data
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def shown(card: Card, game: Game) -> list[Shown]:
    """The fields of ``card`` its type's display formats print, in order: an enum value by its
    display label (:func:`enum_labels`, or the format's ``enum``), and no label over a value
    that repeats it (:func:`echoes`: the label is left empty)."""
    out = []
    for key, fmt in formats(game, card.type).items():
        labels = enum_labels(game, card.type, key)
        if labels:
            fmt = {**fmt, "enum": {**labels, **(fmt.get("enum") or {})}}
        value = _field(card, key)  # "stats.icons": a field inside a mapping field
        if value is None or value is False or (isinstance(value, (str, list, dict)) and not value):
            continue  # nothing to print; a 0 prints (0 == False, so not `value in (..., False)`)
        designed = key in card.provisional or key.split(".")[0] in card.provisional
        label = str(fmt["label"])
        if value is True:
            out.append(Shown(key, label, designed=designed))
        elif fmt.get("columns") and isinstance(value, (list, dict)):
            rows = value if isinstance(value, list) else [{"key": k, "value": v} for k, v in value.items()]
            cols = fmt["columns"]
            table = ([str(c) for c in cols.values()],
                     [[value_text(r.get(c, ""), {}, game) if isinstance(r, dict) else html.escape(str(r))
                       for c in cols] for r in rows])
            out.append(Shown(key, label, table=table, designed=designed))
        elif fmt.get("format") == "icons" and isinstance(value, dict):
            choice = _field(card, str(fmt["choice"])) is True if fmt.get("choice") else False
            out.append(Shown(key, label, _tally(value, choice), designed=designed))
        elif isinstance(value, dict) or (isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)):
            continue  # a mapping or a list of mappings without columns is not flattened into a line
        else:
            text = value_text(value, fmt, game)
            out.append(Shown(key, "" if echoes(label, text) else label, text, designed=designed))
    return out


def marked(card: Card, game: Game) -> tuple[bool, list[Shown]]:
    """(whether the card's name takes the designed mark, its :func:`shown` fields with
    ``designed`` set where a field takes its own mark), by the one rule of provenance marks
    (:func:`cardforge.resolve.marks.provenance`): when every value the entry prints (its
    name, its fields, its text) is designed, the name alone is marked; when it mixes seed and
    designed values, each designed one is (the name too, when designed)."""
    from cardforge.resolve.marks import provenance

    fields = shown(card, game)
    designed = {str(p) for p in card.provisional}
    printed = {"name"} | {f.key.split(".")[0] for f in fields}
    if card.data.get("text") and prints_text(game, card.type):
        printed.add("text")
    kind = provenance(printed, designed)
    if kind == "all":
        return True, [replace(f, designed=False) for f in fields]
    return "name" in designed and kind == "mixed", fields


def _kind(card: Card, game: Game) -> str:
    from cardforge.resolve.marks import provenance

    printed = {"name"} | {f.key.split(".")[0] for f in shown(card, game)}
    if card.data.get("text") and prints_text(game, card.type):
        printed.add("text")
    return provenance(printed, {str(p) for p in card.provisional})


def quantity_marked(card: Card, game: Game) -> bool:
    """Whether the quantity an entry prints ("× 5") takes its own designed mark: the card
    lists ``quantity`` as provisional and its entry is not marked whole (:func:`marked`)."""
    return "quantity" in {str(p) for p in card.provisional} and _kind(card, game) != "all"


def text_marked(card: Card, game: Game) -> bool:
    """Whether ``card``'s text, where the almanac or the rulebook prints it, takes its own
    designed mark: the card lists ``text`` as provisional (designed, or restored as this
    edition's reading) and mixes it with values from the source, so the name is not marked
    for the whole card (:func:`marked`)."""
    if "text" not in {str(p) for p in card.provisional}:
        return False
    if not (card.data.get("text") and prints_text(game, card.type)):
        return False
    return _kind(card, game) == "mixed"
