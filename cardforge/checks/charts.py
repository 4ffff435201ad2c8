"""``chart-too-many-series`` (error): a composition chart (``reference.charts`` in
game.yaml) with more series than the chart palette has colours that stay apart in black
and white (see :mod:`cardforge.almanac.charts`). ``field-shape`` (error): a card whose
field a chart reads holds a value of the wrong shape (a number where the chart sums a
mapping), at that field's line; the chart leaves the card out."""
from __future__ import annotations

from cardforge.util.diagnostics import CHART_TOO_MANY_SERIES, FIELD_SHAPE, Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.almanac.charts import PALETTE, misshapen, series


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found = []
    for i, spec in enumerate((game.data.get("reference") or {}).get("charts") or []):
        if not isinstance(spec, dict) or spec.get("type") not in game.card_types or "x" not in spec:
            continue
        for card in game.cards_of(spec["type"]):
            wrong = misshapen(card, spec)
            if wrong:
                top = wrong[0].split(".")[0]
                found.append(diag(FIELD_SHAPE, f"{card.label}: `{wrong[0]}` should be {wrong[1]} "
                                  f"(chart {spec.get('title', i + 1)!r} reads it), not {_shape(card.data, wrong[0])}",
                                  file=card.source.file, line=card.source.line(top), column=card.source.column(top),
                                  card=card.name))
        _, stacks, _ = series(game, spec)
        if len(stacks) > len(PALETTE):
            found.append(diag(CHART_TOO_MANY_SERIES,
                              f"chart {spec.get('title', i + 1)!r} has {len(stacks)} series; the palette has "
                              f"{len(PALETTE)} colours that stay apart when printed in grey",
                              file=game.source.file, line=game.source.line("reference", "charts", i),
                              hint="stack by a field with fewer values, or split the chart"))
    return found


def _shape(data: dict, path: str) -> str:
    value = data
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return f"{type(value).__name__} {str(value)[:30]!r}" if not isinstance(value, dict) else f"mapping {value!r}"[:60]
