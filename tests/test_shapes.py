"""Property tests: a value of the wrong shape in any field of any card type of the shipped
packs is a located ``schema`` diagnostic, never a crash in a check, the almanac or a chart.

The fields come from each card type's JSON Schema, by name (``properties`` of the type's
schema and of the ``schema_defs`` it reaches through ``$ref`` and ``allOf``, and one level of
``properties`` inside a mapping field, such as ``stats.icons``). For each field Hypothesis
draws a value of a JSON type the schema does not allow (a number for a mapping, a mapping
for a string, a list of mappings for a number...), puts it in one card of that type, and
runs the schema validation, every check family, the reference almanac's lines and the
composition charts on the pack. Derandomised; the pack is cut down to the changed card and
one card of every other type, so one example takes a few milliseconds.
"""
from __future__ import annotations

import copy
import dataclasses
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardforge.checks import run_checks
from cardforge.util.diagnostics import CODES
from cardforge.sources.errata import apply_errata
from cardforge.layout import load_layouts
from cardforge.sources.load import load_game
from cardforge.almanac.charts import series
from cardforge.almanac.display import shown
from cardforge.validation.cards import validate_cards
from tests.conftest import REPO, SHIPPED

SETTINGS = dict(derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
JSON_TYPES = ("string", "integer", "number", "boolean", "null", "array", "object")
SHAPES = {
    "string": st.text(max_size=8) | st.sampled_from(["{{ card.__init__() }}", "{nope}", "**", "\u202e", ""]),
    "integer": st.integers(-10**6, 10**6) | st.sampled_from([0, -1, 10**12]),
    "number": st.floats(-1e6, 1e6, width=32).filter(lambda x: not x.is_integer()),  # 1.0 is an integer to JSON Schema
    "boolean": st.booleans(),
    "null": st.none(),
    "array": st.lists(st.integers(-3, 3) | st.text(max_size=4) | st.dictionaries(st.text(max_size=4), st.integers(-2, 5),
                                                                                   max_size=2), max_size=3),
    "object": st.dictionaries(st.text(max_size=6) | st.sampled_from(["icons", "strength", "name"]),
                              st.integers(-5, 5000) | st.text(max_size=4) | st.lists(st.integers(0, 3), max_size=2),
                              max_size=3),
}


def _resolve(schema, defs: dict, seen=()) -> list[dict]:
    """``schema`` and what it reaches by ``$ref`` (to ``#/$defs/NAME``) and ``allOf``, flattened."""
    if not isinstance(schema, dict):
        return []
    out = [schema]
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/") and ref not in seen:
        out += _resolve(defs.get(ref.removeprefix("#/$defs/")), defs, seen + (ref,))
    for part in schema.get("allOf") or []:
        out += _resolve(part, defs, seen)
    return out


def _types(schema, defs: dict) -> set[str]:
    """The JSON types a (field) schema allows; empty when it does not say."""
    allowed: set[str] = set()
    for part in _resolve(schema, defs):
        kind = part.get("type")
        allowed.update([kind] if isinstance(kind, str) else kind or [])
        for value in part.get("enum") or ([part["const"]] if "const" in part else []):
            allowed.add({str: "string", bool: "boolean", int: "integer", float: "number",
                         type(None): "null", list: "array", dict: "object"}[type(value)])
    if "number" in allowed:  # an integer field refuses 1.5, so "number" stays a wrong shape for it
        allowed.add("integer")
    return allowed


def _properties(schema, defs: dict) -> dict[str, dict]:
    props: dict[str, dict] = {}
    for part in _resolve(schema, defs):
        for name, sub in (part.get("properties") or {}).items():
            props.setdefault(name, sub)
    return props


def fields(game) -> list[tuple[str, tuple[str, ...], set[str]]]:
    """(card type, path of the field, the JSON types its schema allows) for every field the
    card types' schemas name, and the fields of the mappings among them (one level down)."""
    defs = game.data.get("schema_defs") or {}
    out = []
    for type_id, card_type in game.card_types.items():
        for name, sub in _properties(card_type.schema, defs).items():
            allowed = _types(sub, defs)
            if allowed and name not in ("name", "type"):  # without a name or type a card is not one of its type
                out.append((type_id, (name,), allowed))
            if "object" in allowed:
                for inner, inner_sub in _properties(sub, defs).items():
                    if _types(inner_sub, defs):
                        out.append((type_id, (name, inner), _types(inner_sub, defs)))
    return out


@dataclasses.dataclass
class Pack:
    game: object
    layouts: object
    fields: list


def _pack(slug: str) -> Pack:
    game, problems = load_game(REPO / "cards" / slug)
    assert game is not None, problems
    game, _ = apply_errata(game)
    layouts, problems = load_layouts(game, REPO / "layouts")
    assert layouts is not None, problems
    return Pack(game, layouts, fields(game))


PACKS = {slug: _pack(slug) for slug in SHIPPED}
CASES = [(slug, *f) for slug, pack in PACKS.items() for f in pack.fields]


def test_every_shipped_card_type_has_fields_to_break():
    """The strategy below reaches every card type of every shipped pack, and nested fields too."""
    for slug, pack in PACKS.items():
        assert {t for t, _, _ in pack.fields} == set(pack.game.card_types), slug
    assert any(len(path) == 2 for _, _, path, _ in CASES)


@st.composite
def wrong_shapes(draw):
    slug, type_id, path, allowed = draw(st.sampled_from(CASES))
    wrong = [t for t in JSON_TYPES if t not in allowed]
    value = draw(SHAPES[draw(st.sampled_from(wrong))])
    return slug, type_id, path, value


def _broken(pack: Pack, type_id: str, path: tuple[str, ...], value):
    """The pack cut down to one card of each type, with ``value`` at ``path`` in its card of
    ``type_id`` (the mapping above it made when the card lacks one)."""
    firsts = {}
    for card in pack.game.cards:
        firsts.setdefault(card.type, card)
    target = firsts[type_id]
    data = copy.deepcopy(target.data)
    holder = data
    for key in path[:-1]:
        if not isinstance(holder.get(key), dict):
            holder[key] = {}
        holder = holder[key]
    holder[path[-1]] = value
    firsts[type_id] = dataclasses.replace(target, data=data)
    return dataclasses.replace(pack.game, cards=list(firsts.values())), firsts[type_id]


@settings(max_examples=250, **SETTINGS)
@given(wrong_shapes())
def test_wrong_shape_in_any_field_is_a_located_schema_error(case):
    slug, type_id, path, value = case
    pack = PACKS[slug]
    game, card = _broken(pack, type_id, path, value)
    found = validate_cards(game)
    located = [d for d in found if d.code == "schema" and d.file == card.source.file
               and d.line >= card.source.line() and d.card in ("", card.name)]
    assert located, (slug, type_id, path, value, [d.format() for d in found])
    found += run_checks(game, pack.layouts)
    for c in game.cards:
        shown(c, game)
    for spec in (game.data.get("reference") or {}).get("charts") or []:
        if spec.get("type") in game.card_types:
            series(game, spec)
    assert all(d.code in CODES for d in found)
    assert not [d for d in found if d.code == "internal-error"]
