"""Editor schemas: the JSON Schemas of a game pack's files, for completion while typing.

``cardforge schema GAME`` writes four JSON Schema (2020-12) documents: two that every pack
shares, in ``schemas/`` of the project, ``game.schema.json`` (cardforge's schema of
game.yaml) and ``layout.schema.json`` (the layout file; a pack with its own sizes or fonts
gets its own, in ``schemas/<slug>/``), and two of the pack's own, in ``schemas/<slug>/``:
``cards.schema.json`` (a card file: a ``cards:`` list whose items are checked against the
card type named by their ``type``, the pack's card-type schemas combined on ``type``) and
``errata.schema.json`` (errata.yaml).
A YAML file whose first line is ``# yaml-language-server: $schema=<path>`` is then
completed and underlined by VS Code's YAML extension (and any editor using
yaml-language-server); :func:`keep_modeline` writes that line.

An editor schema is never looser than ``cardforge check`` where check accepts a closed set
of names: a layout's ``size`` is one of the size presets, a name from the layout file's
``sizes`` or a pair; an element's ``font`` and ``header_font`` are the pack's font names
(the shipped faces and its own). Those sets are the pack's as the schemas were written: run
``cardforge schema`` again after adding a size or a font.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from cardforge.model import Game
from cardforge.validation import builtin

DIALECT = "https://json-schema.org/draft/2020-12/schema"
FILES = {"game": "game.schema.json", "layout": "layout.schema.json", "cards": "cards.schema.json",
         "errata": "errata.schema.json"}
MODELINE = "# yaml-language-server: $schema="


def _hoist(schema: dict[str, Any], defs: dict[str, Any], prefix: str) -> dict[str, Any]:
    """A card type's schema with its own ``$defs`` moved to the root under ``prefix``."""
    schema = copy.deepcopy(schema)
    own = schema.pop("$defs", None) or {}
    if not own:
        return schema
    text = json.dumps(schema)
    for name, sub in own.items():
        defs[f"{prefix}{name}"] = sub
        text = text.replace(f'"#/$defs/{name}"', f'"#/$defs/{prefix}{name}"')
    return json.loads(text)


def _free(name: str, taken: set[str]) -> str:
    """``name``, or ``name-2``, ``name-3``... when a definition of that name exists already."""
    found, n = name, 1
    while found in taken:
        n += 1
        found = f"{name}-{n}"
    taken.add(found)
    return found


def cards_schema(game: Game) -> dict[str, Any]:
    """The schema of a card file of ``game``: ``{cards: [card, ...]}``, each card checked
    against its type's schema (shared ``schema_defs`` available as ``#/$defs/NAME``)."""
    defs: dict[str, Any] = copy.deepcopy(game.data.get("schema_defs") or {})
    taken = set(defs)  # the pack's own names keep theirs (its schemas refer to them); ours step aside
    rules = []
    for type_id, card_type in game.card_types.items():
        key = _free(f"card-type-{type_id}", taken)
        defs[key] = _hoist(card_type.schema, defs, f"{key}-")
        rules.append({"if": {"properties": {"type": {"const": type_id}}, "required": ["type"]},
                      "then": {"$ref": f"#/$defs/{key}"}})
    card = {"type": "object", "required": ["name", "type"],
            "properties": {"name": {"type": "string", "minLength": 1},
                           "type": {"enum": list(game.card_types),
                                    "description": "the card type, a key of card_types in game.yaml"},
                           "quantity": {"type": "integer", "minimum": 0,
                                        "description": "how many copies to print (default 1)"}},
            "allOf": rules}
    card_key = _free("card", taken | set(defs))
    return {"$schema": DIALECT, "title": f"{game.title}: card file",
            "type": "object", "required": ["cards"], "additionalProperties": False,
            "properties": {"cards": {"type": "array", "items": {"$ref": f"#/$defs/{card_key}"}},
                           "imported_from": {"type": "string",
                                             "description": "the spreadsheet `cardforge import` made this file from"}},
            "$defs": {**defs, card_key: card}}


def narrowed_layout(schema: dict[str, Any], sizes: list[str], fonts: list[str]) -> dict[str, Any]:
    """Layout schema ``schema`` with a layout's ``size`` limited to the names ``sizes`` (or a
    pair) and every ``font``/``header_font`` key to the names ``fonts`` (empty: left as is)."""
    schema = copy.deepcopy(schema)
    if sizes:
        size = schema["$defs"]["layout"]["properties"]["size"]
        size["oneOf"] = [{"enum": list(sizes)}, {"$ref": "#/$defs/pair"}]

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict) and fonts:
                for key in ("font", "header_font"):
                    if isinstance(props.get(key), dict) and props[key].get("type") == "string":
                        props[key] = {**props[key], "enum": list(fonts)}
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


def pack_schemas(game: Game, sizes: list[str] | None = None, fonts: list[str] | None = None,
                 errata: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The editor schemas of ``game`` by file kind ("game", "layout", "cards", and "errata"
    when ``errata``, the shape of errata.yaml, is given). ``sizes`` (the size names check
    accepts) and ``fonts`` (the font names) narrow the layout schema (:func:`narrowed_layout`)."""
    schemas = {"game": builtin("game"),
               "layout": narrowed_layout(builtin("layout"), sizes or [], fonts or []),
               "cards": cards_schema(game)}
    if errata is not None:
        schemas["errata"] = {"$schema": DIALECT, "title": f"{game.title}: errata.yaml", **copy.deepcopy(errata)}
    return schemas


def schema_file(kind: str, slug: str, own_layout: bool = False) -> str:
    """Where the editor schema of a file of ``kind`` lives, relative to the project folder:
    ``schemas/game.schema.json`` and ``schemas/layout.schema.json`` for every pack (the
    layout's in ``schemas/<slug>/`` when ``own_layout``: the pack has sizes or fonts of its
    own, which narrow it), ``schemas/<slug>/`` for the cards' and errata's."""
    shared = kind == "game" or (kind == "layout" and not own_layout)
    return f"schemas/{FILES[kind]}" if shared else f"schemas/{slug}/{FILES[kind]}"


def write_schemas(game: Game, root: Path, own_layout: bool = False, **narrow: Any) -> list[Path]:
    """Write the editor schemas of ``game`` under project folder ``root``, each where
    :func:`schema_file` puts it (``narrow``: the keywords of :func:`pack_schemas`), and
    remove a pack's own copy of a schema that is now shared; returns the paths written."""
    written = []
    for kind, schema in pack_schemas(game, **narrow).items():
        path = root / schema_file(kind, game.slug, own_layout)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
        own = root / "schemas" / game.slug / FILES[kind]
        if own != path:
            own.unlink(missing_ok=True)
    return written


def modeline(kind: str, slug: str, relative_to: str = "card", own_layout: bool = False) -> str:
    """The ``# yaml-language-server: $schema=...`` line for a file of ``kind`` in the pack
    folder (``relative_to="card"``) or in layouts/ (``"layout"``); ``own_layout`` as in
    :func:`schema_file`."""
    up = "../../" if relative_to == "card" else "../"
    return f"# yaml-language-server: $schema={up}{schema_file(kind, slug, own_layout)}"


def keep_modeline(path: Path, line: str) -> bool:
    """Make ``line`` (a :func:`modeline`) the first line of the YAML file ``path``: a
    yaml-language-server line already first is replaced, otherwise ``line`` is put above the
    file's first line. Returns True when the file changed (its other lines are kept byte for
    byte; every line below moves down one when the line is added)."""
    data = path.read_bytes()
    text = data.decode("utf-8")
    first, newline, rest = text.partition("\n")
    if first.rstrip("\r").startswith(MODELINE):
        if first.rstrip("\r") == line:
            return False
        new = line + newline + rest
    else:
        new = line + "\n" + text
    path.write_bytes(new.encode("utf-8"))
    return True
