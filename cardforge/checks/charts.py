"""``chart-too-many-series`` (error): a composition chart (``reference.charts`` in
game.yaml) with more series than the chart palette has colours that stay apart in black
and white (see :mod:`cardforge.reference.charts`)."""
from __future__ import annotations

from cardforge.diagnostics import Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.reference.charts import PALETTE, series


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found = []
    for i, spec in enumerate((game.data.get("reference") or {}).get("charts") or []):
        if not isinstance(spec, dict) or spec.get("type") not in game.card_types or "x" not in spec:
            continue
        _, stacks, _ = series(game, spec)
        if len(stacks) > len(PALETTE):
            found.append(diag("chart-too-many-series",
                              f"chart {spec.get('title', i + 1)!r} has {len(stacks)} series; the palette has "
                              f"{len(PALETTE)} colours that stay apart when printed in grey",
                              file=game.source.file, line=game.source.line("reference", "charts", i),
                              hint="stack by a field with fewer values, or split the chart"))
    return found
