"""A YAML file of a game pack (game.yaml, a card file, errata.yaml, a layout, a source
mapping) read with the source line of every value, as ``(data, Source, diagnostics)``."""
from __future__ import annotations

from pathlib import Path

from cardforge.util.diagnostics import PACK_MISSING, Diagnostic, diag, display_path
from cardforge.model import Source
from cardforge.util.yamlsource import YamlError, load_yaml


def read_yaml(path: Path) -> tuple[object, Source | None, list[Diagnostic]]:
    """Load one YAML file; on failure return ``(None, None, diagnostics)``."""
    name = display_path(path)
    try:
        data, lines = load_yaml(path, name)
    except YamlError as exc:
        return None, None, exc.diagnostics
    except OSError as exc:
        return None, None, [diag(PACK_MISSING, f"cannot read {name}: {exc.strerror}", file=name)]
    return data, Source(name, lines), []
