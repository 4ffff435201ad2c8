"""Stage 2, validate: every card against its card type's JSON Schema (2020-12).

The schemas live in the game pack (``card_types.<type>.schema`` in game.yaml, with shared
definitions under ``schema_defs``). Returns every violation as a ``schema`` diagnostic on
the card's own line; a card type whose schema is itself invalid is one ``schema-invalid``
diagnostic on the type's line and its cards are skipped.
"""
from __future__ import annotations

import jsonschema
from referencing.exceptions import Unresolvable

from cardforge.util.diagnostics import SCHEMA_INVALID, Diagnostic, diag
from cardforge.model import Game
from cardforge.validation import check_defs, make_validator, validate


def card_type_validators(game: Game) -> tuple[dict[str, jsonschema.Draft202012Validator], list[Diagnostic]]:
    """One validator per card type; broken schemas are reported, not raised."""
    defs = game.data.get("schema_defs") or {}
    validators, problems = {}, []
    try:
        check_defs(defs)
    except jsonschema.SchemaError as exc:
        inner = tuple(exc.absolute_path)
        where = game.source.path + ("schema_defs",) + (inner[1:] if inner[:1] == ("$defs",) else inner)
        return {}, [diag(SCHEMA_INVALID, f"schema_defs is not valid JSON Schema: {exc.message}",
                         file=game.source.file, line=game.source.lines.line(where))]
    src = game.source
    hazard_list = [d for d in _hazards(defs, src, ("schema_defs",))]
    if hazard_list:
        return {}, hazard_list
    for type_id, card_type in game.card_types.items():
        found = _hazards(card_type.schema, card_type.source, ("schema",))
        if found:
            problems += found
            continue
        try:
            validators[type_id] = make_validator(card_type.schema, defs)
        except jsonschema.SchemaError as exc:
            problems.append(diag(SCHEMA_INVALID, f"the schema of card type {type_id!r} is not valid JSON Schema: {exc.message}",
                                 file=card_type.source.file, line=card_type.source.line("schema", *exc.absolute_path)))
    return validators, problems


def _hazards(schema, source, prefix: tuple) -> list[Diagnostic]:
    from cardforge.validation.guard import hazards

    return [diag(code, message, file=source.file, line=source.line(*prefix, *path), column=source.column(*prefix, *path))
            for path, code, message in hazards(schema)]


def validate_cards(game: Game) -> list[Diagnostic]:
    """Validate every card of ``game``; returns all schema diagnostics, in file order.

    The cards that break their schema are noted in ``game.misshapen`` (their ids): the rules
    sources leave them out of the data they print, so a field of the wrong shape is one
    ``schema`` error, not also a failed rulebook."""
    validators, problems = card_type_validators(game)
    for card in game.cards:
        validator = validators.get(card.type)
        if validator is None:
            continue
        try:
            data = {k: v for k, v in card.data.items() if k != "layout"}  # layout keys: checked like layouts
            broken = validate(data, validator, card.source, subject=f"{card.label}")
            if broken:
                game.misshapen.add(card.id)
            problems += broken
        except Unresolvable as exc:
            type_source = game.card_types[card.type].source
            problems.append(diag(SCHEMA_INVALID, f"the schema of card type {card.type!r} has a $ref that resolves to nothing: {exc}",
                                 file=type_source.file, line=type_source.line("schema")))
            validators.pop(card.type)
    return problems
