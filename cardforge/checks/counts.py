"""Counts: the component list against the card database, declared totals against parts.

Codes: ``count-mismatch`` (error) when a component that names ``card_types`` does not
have as many cards (sum of quantities) as its ``count`` (with ``where:``, a sandboxed
expression over ``card``, only the cards of those types it holds for: a deck of one type's
cards, ``where: "card.deck == 'Forest'"``); ``total-mismatch`` (error) when a
component with ``parts: [component ids]`` does not count the sum of its parts' counts.
Both are placed on the component's ``count`` line in game.yaml.
"""
from __future__ import annotations

from cardforge.util.diagnostics import COUNT_MISMATCH, REF_UNKNOWN, RULE_INVALID, TOTAL_MISMATCH, Diagnostic, diag
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
                found.append(diag(REF_UNKNOWN, f"component {component['id']!r} names card types that do not exist: "
                                  f"{', '.join(unknown)}", **where))
            actual, failed = _counted(game, types, component.get("where"))
            if failed:
                found.append(diag(RULE_INVALID, f"component {component['id']!r}: its `where:` fails: {failed}",
                                  file=src.file, line=src.line("components", i, "where")))
                continue
            if actual != component["count"]:
                found.append(diag(COUNT_MISMATCH,
                                  f"component {component['name']!r} counts {component['count']} but the database has "
                                  f"{actual} {'/'.join(types)} card{'s' if actual != 1 else ''}", **where))
        parts = component.get("parts")
        if parts:
            missing = [p for p in parts if p not in by_id]
            if missing:
                found.append(diag(REF_UNKNOWN, f"component {component['id']!r} lists parts that are not components: "
                                  f"{', '.join(missing)}", **where))
                continue
            total = sum(by_id[p][1]["count"] for p in parts)
            if total != component["count"]:
                listing = " + ".join(str(by_id[p][1]["count"]) for p in parts)
                found.append(diag(TOTAL_MISMATCH,
                                  f"component {component['name']!r} declares {component['count']} but its parts add up "
                                  f"to {total} ({listing})", **where))
    return found


def _counted(game: Game, types: list[str], where: str | None) -> tuple[int, str]:
    """The cards of ``types`` (sum of quantities) for which ``where`` holds, and what went
    wrong evaluating it ('' when nothing did)."""
    if not where:
        return game.total(*types), ""
    from cardforge import sandbox

    try:
        test = sandbox.expression(where)
        total = 0
        for card in game.cards_of(*types):
            data = dict(card.data)
            data.setdefault("quantity", card.quantity)
            if sandbox.evaluate(lambda: bool(test(card=data, game=game.data))):
                total += card.quantity
        return total, ""
    except Exception as exc:  # noqa: BLE001 - a template error of the pack's, reported at its line
        return 0, str(exc)
