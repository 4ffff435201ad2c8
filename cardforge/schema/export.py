"""Editor schemas: the JSON Schemas of a game pack's files, for completion while typing.

``cardforge schema GAME`` writes three JSON Schema (2020-12) documents to
``schemas/<slug>/`` of the project: ``game.schema.json`` (cardforge's schema of game.yaml),
``layout.schema.json`` (the layout file) and ``cards.schema.json`` (a card file: a
``cards:`` list whose items are checked against the card type named by their ``type``,
the pack's card-type schemas combined on ``type``). A YAML file whose first line is
``# yaml-language-server: $schema=<path>`` is then completed and underlined by VS Code's
YAML extension (and any editor using yaml-language-server).
"""
from __future__ import annotations

import copy
import json
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from cardforge.model import Game

DIALECT = "https://json-schema.org/draft/2020-12/schema"
FILES = {"game": "game.schema.json", "layout": "layout.schema.json", "cards": "cards.schema.json"}


def builtin_schema(name: str) -> dict[str, Any]:
    """cardforge's own schema ``name`` ("game" or "layout") as a dict."""
    text = resources.files("cardforge").joinpath(f"schemas/{name}.schema.yaml").read_text(encoding="utf-8")
    schema = yaml.safe_load(text)
    if name == "layout":  # its element branches come from the kinds' declarations
        from cardforge.elements.schema import with_elements

        schema = with_elements(schema)
    return schema


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


def pack_schemas(game: Game) -> dict[str, dict[str, Any]]:
    """The three editor schemas of ``game`` by file kind ("game", "layout", "cards")."""
    return {"game": builtin_schema("game"), "layout": builtin_schema("layout"), "cards": cards_schema(game)}


def schema_dir(root: Path, slug: str) -> Path:
    return root / "schemas" / slug


def write_schemas(game: Game, root: Path) -> list[Path]:
    """Write ``schemas/<slug>/*.schema.json`` under project folder ``root``; returns the paths."""
    folder = schema_dir(root, game.slug)
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for kind, schema in pack_schemas(game).items():
        path = folder / FILES[kind]
        path.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(path)
    return written


def modeline(kind: str, slug: str, relative_to: str = "card") -> str:
    """The ``# yaml-language-server: $schema=...`` line for a file of ``kind`` in the pack
    folder (``relative_to="card"``) or in layouts/ (``"layout"``)."""
    up = "../../" if relative_to == "card" else "../"
    return f"# yaml-language-server: $schema={up}schemas/{slug}/{FILES[kind]}"
