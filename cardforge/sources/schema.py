"""The schema of a source mapping (``$defs/source_mapping`` of cardforge's game.yaml schema)."""
from __future__ import annotations

from jsonschema import Draft202012Validator

from cardforge.cache.registry import SCHEMA_VALIDATORS


@SCHEMA_VALIDATORS.function
def mapping_validator() -> Draft202012Validator:
    """A validator for a mapping file given to ``cardforge import --mapping``."""
    from cardforge.validation import builtin

    game = builtin("game")
    return Draft202012Validator({"$ref": "#/$defs/source_mapping", "$defs": game["$defs"]})
