"""Components accounted for: everything the component list promises is printed or named.

Each entry of game.yaml ``components:`` is one of:

* **printed by the pack**: it names ``card_types`` (cards and tokens in the deck PDF),
  ``parts`` (a total of other components, each of them accounted for), or ``document``
  (``rulebook``, ``rules`` or ``reference``: a PDF the build writes);
* **supplied by the players**: ``supply: true`` ("you also need": dice, pawns, cubes).

The rulebook's component list (``components_list()``) prints the two groups apart, so a
player knows what to print and what to fetch. Code: ``component-unprinted`` (error) for a
component that is neither, placed on its ``name`` line in game.yaml; also for a component
that is both printed and ``supply: true``, which the lists could not place.
"""
from __future__ import annotations

from typing import Any

from cardforge.util.diagnostics import COMPONENT_UNPRINTED, Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.model import Game

DOCUMENTS = ("rulebook", "rules", "reference")


def printed(component: dict[str, Any]) -> bool:
    """True when the pack prints ``component`` (cards, a total of parts, or a document)."""
    return bool(component.get("card_types") or component.get("parts") or component.get("document"))


def supplied(component: dict[str, Any]) -> bool:
    """True when the players bring ``component`` themselves (``supply: true``)."""
    return component.get("supply") is True


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    src = game.source
    for i, component in enumerate(game.components):
        where = dict(file=src.file, line=src.line("components", i, "name"))
        name = component.get("name", component.get("id", f"component {i + 1}"))
        if printed(component) and supplied(component):
            found.append(diag(COMPONENT_UNPRINTED,
                              f"component {name!r} is both printed by the pack and marked supply: true",
                              hint="keep card_types/parts/document or supply: true, not both", **where))
        elif not printed(component) and not supplied(component):
            found.append(diag(COMPONENT_UNPRINTED,
                              f"component {name!r} is neither printed by the pack nor named as something "
                              "players supply", hint="link it to its card_types (or parts, or document: "
                              "rulebook | rules | reference), or mark it supply: true", **where))
    return found
