"""JSON Schema errors a designer can act on: the failing key and what was expected.

jsonschema reports a wrong value inside a ``oneOf`` (an element that may also be ``null``)
as the whole mapping "is not of type 'null'". :func:`leaves` walks the error tree instead
(``error.context``, choosing branches with :func:`jsonschema.exceptions.best_match`'s
relevance and dropping the ``null`` branch when the value is not null) down to the errors
that name one key, and :func:`explain` words each one: ``box[0]: 22 has no unit; write
22mm``, ``unknown key 'font_size'; did you mean 'size'?``, ``align: 'rigth' is not one of
left, center, right; did you mean 'right'?``.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from jsonschema.exceptions import ValidationError

from cardforge.util.suggest import closest

_UNEXPECTED = re.compile(r"\('([^']+)'(?:, '[^']+')* (?:was|were) unexpected\)")
_LENGTH_HINT = "(pt|mm|cm|in)"


def key_path(path: Any) -> str:
    """``("box", 0)`` -> ``box[0]``; ``("layouts", "card", "size")`` -> ``layouts.card.size``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _is_null_branch(error: ValidationError) -> bool:
    return error.validator == "type" and error.validator_value == "null"


def leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The errors at the bottom of ``error``'s tree that are worth reporting."""
    if error.validator in ("oneOf", "anyOf") and error.context:
        branches: dict[int, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.schema_path[0] if sub.schema_path else 0, []).append(sub)
        if error.instance is not None:
            branches = {i: errs for i, errs in branches.items() if not all(_is_null_branch(e) for e in errs)}
        if not branches:
            yield error
            return
        # the branch the value came closest to: the one whose errors lie deepest in the value
        best = max(branches.values(), key=lambda errs: max(len(e.path) for e in errs))
        for sub in best:
            yield from leaves(sub)
        return
    if error.validator == "allOf" and error.context:
        for sub in error.context:
            yield from leaves(sub)
        return
    yield error


def unknown_key(error: ValidationError) -> str | None:
    match = _UNEXPECTED.search(error.message)
    return match.group(1) if match and error.validator in ("additionalProperties", "unevaluatedProperties") else None


def unknown_keys(error: ValidationError) -> list[str]:
    """Every key an ``additionalProperties`` error names (jsonschema names them in one error)."""
    if unknown_key(error) is None:
        return []
    extra = error.instance if isinstance(error.instance, dict) else {}
    known = (error.schema.get("properties") or {}) if isinstance(error.schema, dict) else {}
    return [key for key in extra if key not in known and str(key) in error.message] or [unknown_key(error)]


def explain_all(error: ValidationError) -> list[tuple[tuple[Any, ...], str]]:
    """:func:`explain` for each key at fault: one ``(path, message)`` per unknown key (each
    on its own line), else the one of :func:`explain`."""
    keys = unknown_keys(error)
    if len(keys) < 2:
        return [explain(error)]
    return [explain(error, key) for key in keys]


def explain(error: ValidationError, unknown: str | None = None) -> tuple[tuple[Any, ...], str]:
    """``(path, message)`` for one leaf error: the path of the key at fault (for its line)
    and a message naming it and what was expected (``unknown``: which of the unknown keys
    the error names, when it names several)."""
    path = tuple(error.absolute_path)
    where = key_path(path)
    prefix = f"{where}: " if where else ""
    value = error.instance
    if "propertyNames" in error.relative_schema_path:  # a bad key: place it on the key itself
        return path + (value,), f"{prefix}key {value!r}: {error.message}"
    schema = error.schema if isinstance(error.schema, dict) else {}
    unknown = unknown or unknown_key(error)
    if unknown is not None and schema.get("x-kind"):  # a key of another element kind, or misspelt
        from cardforge.elements import stray_key

        return path + (unknown,), f"{prefix}{stray_key(schema['x-kind'], unknown)}"
    if unknown is not None:
        known = list((schema.get("properties") or {}).keys())
        last = re.split(r"[_\-\s]+", unknown)[-1]  # font_size -> size: the noun of the key
        best = last if last in known and last != unknown else closest(unknown, known, cutoff=60)
        hint = f"; did you mean {best!r}?" if best else (f"; expected one of {', '.join(known)}" if known else "")
        return path + (unknown,), f"{prefix}unknown key {unknown!r}{hint}"
    pattern = str(schema.get("pattern", ""))
    is_length = _LENGTH_HINT in pattern
    if is_length and isinstance(value, (int, float)) and not isinstance(value, bool):
        return path, f"{prefix}{value} has no unit; write {value}mm (or pt, cm, in)"
    if is_length and error.validator == "pattern":
        return path, f"{prefix}{value!r} is not a length; write a number and a unit: 22mm, 9pt, 1.5cm, 0.5in"
    if error.validator == "enum":
        options = ", ".join(str(v) for v in error.validator_value)
        best = closest(str(value), [str(v) for v in error.validator_value], cutoff=60) if isinstance(value, str) else None
        return path, f"{prefix}{value!r} is not one of {options}" + (f"; did you mean {best!r}?" if best else "")
    if error.validator == "required":
        missing = re.match(r"'([^']+)'", error.message)
        name = missing.group(1) if missing else error.message
        return path, f"{prefix}missing key {name!r}" + (f" ({error.message})" if not missing else "")
    if error.validator in ("minItems", "maxItems") and isinstance(value, list):
        if "box" in path[-1:]:
            return path, f"{prefix}a box is 4 lengths [x, y, width, height], not {len(value)}"
        if path and path[-1] == "size":
            return path, f"{prefix}a size is 2 lengths [width, height], not {len(value)}"
    if error.validator == "type" and isinstance(value, dict) and len(str(value)) > 60:
        return path, f"{prefix}expected {error.validator_value}, got a mapping"
    return path, f"{prefix}{error.message}"
