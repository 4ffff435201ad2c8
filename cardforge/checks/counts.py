"""Counts: the component list against the card database, declared totals against parts.

Codes: ``count-mismatch`` (error) when a component that names ``card_types`` does not
have as many cards (sum of quantities) as its ``count``; ``total-mismatch`` (error) when a
component with ``parts: [component ids]`` does not count the sum of its parts' counts.
Both are placed on the component's ``count`` line in game.yaml.
"""
from __future__ import annotations

from cardforge.util.diagnostics import Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.model import Game


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found = []
    src = game.source
    by_id = {c["id"]: (i, c) for i, c in enumerate(game.components)}
    for i, component in enumerate(game.components):
        where = dict(file=src.file, line=src.line("components", i, "count"))
        types = component.get("card_types")
        if types:
            unknown = [t for t in types if t not in game.card_types]
            if unknown:
                found.append(diag("ref-unknown", f"component {component['id']!r} names card types that do not exist: "
                                  f"{', '.join(unknown)}", **where))
            actual = game.total(*types)
            if actual != component["count"]:
                found.append(diag("count-mismatch",
                                  f"component {component['name']!r} counts {component['count']} but the database has "
                                  f"{actual} {'/'.join(types)} card{'s' if actual != 1 else ''}", **where))
        parts = component.get("parts")
        if parts:
            missing = [p for p in parts if p not in by_id]
            if missing:
                found.append(diag("ref-unknown", f"component {component['id']!r} lists parts that are not components: "
                                  f"{', '.join(missing)}", **where))
                continue
            total = sum(by_id[p][1]["count"] for p in parts)
            if total != component["count"]:
                listing = " + ".join(str(by_id[p][1]["count"]) for p in parts)
                found.append(diag("total-mismatch",
                                  f"component {component['name']!r} declares {component['count']} but its parts add up "
                                  f"to {total} ({listing})", **where))
    return found
