"""Stacks: card types shuffled or stacked together face down must look alike from behind.

A game pack declares its face-down stacks in game.yaml (draw piles, decks, a stack of
unused markers, a cup of tokens)::

    stacks:
      - id: gate-markers                      # stable id, used in the diagnostic
        name: stack of unused gate markers    # as the rules call it
        card_types: [gate-marker, lurker-gate]
        source: "seed 002, Gate mechanics"

Every member of a stack must print the same back at the same size and shape, or players
see what comes next. Code: ``stack-backs-differ`` (error) when members differ in back (the
``back`` id of their card type; a type with ``back: own`` prints its own layout's back
face, alike only to another type whose back face is identical), trim size (mm, from the
layout) or shape (``rect`` or ``circle``). Placed on the stack's ``card_types`` line in
game.yaml. A stack naming a card type that does not exist is ``ref-unknown``.
"""
from __future__ import annotations

from typing import Any

from cardforge.util.diagnostics import Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.model import Game

PT_PER_MM = 72 / 25.4


def stacks(game: Game) -> list[dict[str, Any]]:
    """The game's declared stacks (game.yaml ``stacks:``), each ``{id, name?, card_types}``."""
    return [s for s in game.data.get("stacks") or [] if isinstance(s, dict)]


def _back(game: Game, layouts: LayoutSet | None, type_id: str) -> tuple[str, Any]:
    """What the back of ``type_id`` looks like: its back id and, for ``own``, its face."""
    back = game.card_types[type_id].back
    if back == "own":
        layout = layouts.by_type.get(type_id) if layouts else None
        return ("own", layout.back if layout is not None and layout.back is not None else type_id)
    return (back, None)


def _mm(size: tuple[float, float]) -> str:
    return f"{size[0] / PT_PER_MM:.1f} x {size[1] / PT_PER_MM:.1f} mm"


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    src = game.source
    for i, stack in enumerate(stacks(game)):
        types = [t for t in stack.get("card_types") or [] if isinstance(t, str)]
        where = dict(file=src.file, line=src.line("stacks", i, "card_types"))
        label = stack.get("name") or stack.get("id") or f"stack {i + 1}"
        unknown = [t for t in types if t not in game.card_types]
        if unknown:
            found.append(diag("ref-unknown", f"stack {label!r} names card types that do not exist: {', '.join(unknown)}",
                              **where))
        known = [t for t in types if t in game.card_types]
        if len(known) < 2:
            continue
        differences = []
        backs = {t: _back(game, layouts, t) for t in known}
        if len(set(map(repr, backs.values()))) > 1:
            differences.append("back (" + ", ".join(f"{t}: {game.card_types[t].back}" for t in known) + ")")
        if layouts is not None:
            shaped = {t: layouts.by_type[t] for t in known if t in layouts.by_type}
            sizes = {t: (round(lay.size[0], 1), round(lay.size[1], 1)) for t, lay in shaped.items()}
            if len(set(sizes.values())) > 1:
                differences.append("size (" + ", ".join(f"{t}: {_mm(lay.size)}" for t, lay in shaped.items()) + ")")
            shapes = {t: lay.shape for t, lay in shaped.items()}
            if len(set(shapes.values())) > 1:
                differences.append("shape (" + ", ".join(f"{t}: {s}" for t, s in shapes.items()) + ")")
        if differences:
            found.append(diag(
                "stack-backs-differ",
                f"stack {label!r} is shuffled face down but its members differ in " + "; ".join(differences)
                + ": players can tell which comes next",
                hint="give every card type of the stack the same back, size and shape", **where))
    return found
