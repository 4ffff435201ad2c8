"""Card type schemas from someone else: no network, no catastrophic regular expressions.

A pack's JSON Schemas are checked before use (:func:`hazards`): a ``$ref`` that is not
local to the document (``#...``) would make a validator fetch a URL or read a file, and
is ``schema-remote-ref``; a ``pattern`` (or ``patternProperties`` key) that RE2 cannot
run, because it needs backtracking (backreferences, lookaround), is ``schema-pattern``.
Validators made by :func:`safe_validator_class` run ``pattern`` and ``patternProperties``
with Google's RE2 (linear time, no backtracking, so ``^(a+)+$`` cannot hang) and resolve
references from a registry that refuses every retrieval.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import re2
from jsonschema import Draft202012Validator, ValidationError
from jsonschema.validators import extend
from referencing import Registry
from referencing.exceptions import NoSuchResource

from cardforge.cache.registry import PATTERNS
from cardforge.util.diagnostics import SCHEMA_PATTERN, SCHEMA_REMOTE_REF

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_NESTED = re.compile(r"\([^()]*[+*}]\)[+*{]")  # (a+)+ and friends: exponential in backtracking engines
_OPTIONS = re2.Options()
_OPTIONS.log_errors = False


@PATTERNS.function
def compiled(pattern: str):
    """``pattern`` compiled by RE2; raises ``re2.error`` when RE2 cannot run it."""
    return re2.compile(pattern, _OPTIONS)


def hazards(schema: Any, path: tuple = ()) -> Iterator[tuple[tuple, str, str]]:
    """Every hazard of ``schema`` as ``(path inside the schema, code, message)``."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            here = path + (key,)
            if key in ("$ref", "$dynamicRef", "$id") and isinstance(value, str) and not value.startswith("#"):
                if key != "$id" or _SCHEME.match(value):
                    yield here, SCHEMA_REMOTE_REF, (f"{key} {value!r} points outside this file; cardforge never "
                                                      "fetches schemas (write the definition under schema_defs and "
                                                      "refer to it as #/$defs/NAME)")
            elif key == "pattern" and isinstance(value, str):
                yield from _pattern(value, here)
            elif key == "patternProperties" and isinstance(value, dict):
                for pattern in value:
                    yield from _pattern(pattern, here + (pattern,), keys=True)
            if isinstance(value, (dict, list)):
                yield from hazards(value, here)
    elif isinstance(schema, list):
        for i, item in enumerate(schema):
            yield from hazards(item, path + (i,))


def _pattern(pattern: str, path: tuple, keys: bool = False) -> Iterator[tuple[tuple, str, str]]:
    try:
        re.compile(pattern)
    except re.error:
        return  # not a regular expression at all: the meta-schema check reports it (schema-invalid)
    try:
        compiled(pattern)
    except re2.error as exc:
        yield path, SCHEMA_PATTERN, (f"pattern {pattern!r} needs backtracking ({exc}); write it without "
                                       "backreferences or lookaround")
        return
    if keys and _NESTED.search(pattern):
        yield path, SCHEMA_PATTERN, f"property pattern {pattern!r} nests repetitions, which can take exponential time"


def _re2_pattern(validator, pattern, instance, schema):
    if validator.is_type(instance, "string") and not compiled(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _re2_pattern_properties(validator, pattern_properties, instance, schema):
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in pattern_properties.items():
        for key, value in instance.items():
            if isinstance(key, str) and compiled(pattern).search(key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _refuse(uri: str):
    raise NoSuchResource(ref=uri)


REGISTRY = Registry(retrieve=_refuse)
SafeValidator = extend(Draft202012Validator, {"pattern": _re2_pattern, "patternProperties": _re2_pattern_properties})
