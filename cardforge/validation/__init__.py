"""JSON Schema validation that reports on YAML lines.

Schemas are JSON Schema 2020-12, written in YAML and validated with the ``jsonschema``
library. :func:`validate` returns one ``schema`` diagnostic per violation (all of them, not
the first), each placed on the line of the offending value using the document's line map.
A document found valid against a schema, and a schema found valid against the meta-schema,
are remembered between runs (:mod:`cardforge.cache.kept`) and not validated again.
"""
from __future__ import annotations

from typing import Any

from typing import TYPE_CHECKING

from cardforge.cache.registry import SCHEMA_KEYS, SCHEMA_VALIDATORS
from cardforge.util.diagnostics import PACK_STRUCTURE, Diagnostic, diag
from cardforge.model import Source

if TYPE_CHECKING:  # jsonschema is imported when a schema is first used
    from jsonschema import Draft202012Validator


def make_validator(schema: dict[str, Any], defs: dict[str, Any] | None = None) -> Draft202012Validator:
    """A 2020-12 validator for ``schema`` with shared ``defs`` available as ``#/$defs/NAME``.

    Checks ``schema`` itself against the 2020-12 meta-schema (the shared ``defs`` are
    checked once by the caller, see :func:`check_defs`). Raises ``jsonschema.SchemaError``
    if the schema is invalid.
    """
    _check_schema(schema)
    full = dict(schema)
    if defs:
        full["$defs"] = {**defs, **full.get("$defs", {})}
    from cardforge.validation.guard import REGISTRY, SafeValidator

    return SafeValidator(full, registry=REGISTRY)  # RE2 patterns, no retrieval (see cardforge.validation.guard)


def check_defs(defs: dict[str, Any]) -> None:
    """Check shared schema definitions once. Raises ``jsonschema.SchemaError``."""
    _check_schema({"$defs": defs})


def _check_schema(schema: dict[str, Any]) -> None:
    """``Draft202012Validator.check_schema``, skipped for a schema already found valid
    (:data:`cardforge.cache.kept.VALID`)."""
    from jsonschema import Draft202012Validator

    from cardforge.cache import kept

    digest = _digest("meta-schema", schema)
    if digest is not None and digest in kept.VALID:
        return
    Draft202012Validator.check_schema(schema)
    if digest is not None:
        kept.VALID.add(digest)


def _digest(kind: str, *values: Any) -> str | None:
    """A key for ``values`` (their pickle: equal bytes, equal data), None if they do not pickle."""
    import pickle

    from cardforge.cache import kept

    try:
        return kept.key(kind, *(pickle.dumps(v, protocol=4) for v in values))
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError, ValueError):
        return None


_SCHEMA_KEYS = SCHEMA_KEYS.per_object()  # validator -> its schema's pickle digest, let go with the validator


def _schema_key(validator: Draft202012Validator) -> str | None:
    known = _SCHEMA_KEYS.find(validator)
    if known is not None:
        return known
    digest = _digest("schema", type(validator).__module__, type(validator).__qualname__, validator.schema)
    if digest is not None:
        _SCHEMA_KEYS.keep(validator, digest)
    return digest


def validate(instance: Any, validator: Draft202012Validator, source: Source,
             code: str = "schema", subject: str = "") -> list[Diagnostic]:
    """Validate ``instance`` (found at ``source``); return a diagnostic per violation.

    ``subject`` prefixes each message (for example ``card "Lost"``).
    """
    from cardforge.cache import kept

    schema = _schema_key(validator)
    digest = _digest("valid", schema, instance) if schema is not None else None
    if digest is not None and digest in kept.VALID:  # found valid before: the same document, the same schema
        return []
    from cardforge.validation.errors import explain_all, leaves

    found = []
    for top in sorted(validator.iter_errors(instance), key=lambda e: list(map(str, e.absolute_path))):
        for error in leaves(top):
            for path, text in explain_all(error):
                lines = source.lines.positions
                if path and source.path + path not in lines and source.path + path not in source.lines.key_positions:
                    path = path[:-1] if len(path) > len(error.absolute_path) else path
                message = f"{subject + ': ' if subject else ''}{text}"
                found.append(diag(code, message, file=source.file, line=source.line(*path), column=source.column(*path)))
    if not found and digest is not None:
        kept.VALID.add(digest)
    return found


def builtin(name: str) -> dict[str, Any]:
    """cardforge's own schema ``name`` (``game`` or ``layout``, ``schemas/<name>.schema.yaml``)
    as a new dict (parsed once, then read from the user cache, :mod:`cardforge.cache.kept`)."""
    from importlib import resources

    from cardforge.cache import kept
    from cardforge.cache.registry import SCHEMAS

    raw = resources.files("cardforge").joinpath(f"schemas/{name}.schema.yaml").read_bytes()
    digest = kept.key("builtin-schema", raw)
    schema = kept.get(SCHEMAS, digest)
    if schema is kept.MISS:
        import yaml

        schema = yaml.load(raw.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        kept.put(SCHEMAS, digest, schema)
    if name == "layout":  # its element branches come from the kinds' declarations
        from cardforge.elements.schema import with_elements

        schema = with_elements(schema)
    return schema


@SCHEMA_VALIDATORS.function
def _game_schema_validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(builtin("game"))


def validate_game_file(data: Any, source: Source) -> list[Diagnostic]:
    """Check a game.yaml document against cardforge's own schema of game packs."""
    return validate(data, _game_schema_validator(), source, code=PACK_STRUCTURE)
