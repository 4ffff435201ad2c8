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

A card type may choose each card's back from its data (``back: "{{ card.deck }}"`` or
``back: {by: tier, values: {...}}``, see :mod:`cardforge.sandbox.choice`): then the
backs its cards print are compared, card by card. A card whose data chooses no back of the
layout file (or whose template fails) is ``back-unknown``, and one whose data chooses no
layout is ``layout-unknown``, both at the card's line. A shared back's template may print
the card's fields (``{{ card.tier }}``); where the cards of a stack print it, every card of
the stack must print it alike: an element of the back that prints differently for two cards
of one stack is ``back-field-differs``, at the line of the element's key that reads the
field, naming the field and its values. A stack with ``by: FIELD`` is a pile per value of
that field (``{id: loot, card_types: [treasure], by: tier}``: a loot pile per tier), each
checked on its own.
"""
from __future__ import annotations

from typing import Any

import re
from collections import Counter

from cardforge.elements import kind_of
from cardforge.layout import LayoutSet
from cardforge.model import Card, Game
from cardforge.sandbox import TemplateFailure, context as cardcontext
from cardforge.sandbox.budget import BudgetExceeded
from cardforge.sandbox.choice import back_of, choose, is_data_chosen
from cardforge.util.diagnostics import (BACK_FIELD_DIFFERS, BACK_UNKNOWN, LAYOUT_UNKNOWN, REF_UNKNOWN,
                                        STACK_BACKS_DIFFER, Diagnostic, diag)

PT_PER_MM = 72 / 25.4


def stacks(game: Game) -> list[dict[str, Any]]:
    """The game's declared stacks (game.yaml ``stacks:``), each ``{id, name?, card_types}``."""
    return [s for s in game.data.get("stacks") or [] if isinstance(s, dict)]


def _back(game: Game, layouts: LayoutSet | None, card: Card) -> tuple[str, Any]:
    """What the back of ``card`` looks like: its back id and, for ``own``, its face."""
    back = back_of(card, game)
    if back == "own":
        layout = layouts.for_card(card) if layouts and card.type in layouts.by_type else None
        return ("own", layout.back if layout is not None and layout.back is not None else card.type)
    return (back, None)


def _backs_of(game: Game, layouts: LayoutSet | None, type_id: str) -> set[tuple[str, Any]]:
    """The backs the cards of ``type_id`` print (its one back when its cards' data does not choose)."""
    spec = game.card_types[type_id].back
    if not is_data_chosen(spec) and spec != "own":
        return {(spec, None)}
    cards = game.cards_of(type_id)
    if not cards:
        return {(spec, None)} if not is_data_chosen(spec) else set()
    return {_back(game, layouts, c) for c in cards}


def _said(backs: set[tuple[str, Any]]) -> str:
    ids = sorted({b for b, _ in backs})
    return ids[0] if len(ids) == 1 else "{" + ", ".join(ids) + "}"


def _mm(size: tuple[float, float]) -> str:
    return f"{size[0] / PT_PER_MM:.1f} x {size[1] / PT_PER_MM:.1f} mm"


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found: list[Diagnostic] = _choices(game, layouts)
    src = game.source
    for i, stack in enumerate(stacks(game)):
        types = [t for t in stack.get("card_types") or [] if isinstance(t, str)]
        where = dict(file=src.file, line=src.line("stacks", i, "card_types"))
        label = stack.get("name") or stack.get("id") or f"stack {i + 1}"
        unknown = [t for t in types if t not in game.card_types]
        if unknown:
            found.append(diag(REF_UNKNOWN, f"stack {label!r} names card types that do not exist: {', '.join(unknown)}",
                              **where))
        known = list(dict.fromkeys(t for t in types if t in game.card_types))
        by = stack.get("by") if isinstance(stack.get("by"), str) else None
        for value, cards in _piles(game, known, by).items():
            pile = label if by is None else f"{label} ({by} {value})"
            differences = _differences(game, layouts, known if by is None else sorted({c.type for c in cards}, key=known.index), cards)
            if differences:
                hint = "give every card type of the stack the same back, size and shape"
                if any(is_data_chosen(game.card_types[t].back) for t in known) and by is None:
                    field = next((game.card_types[t].back.get("by") for t in known if isinstance(game.card_types[t].back, dict)), "")
                    hint += f", or make it a pile per value of the field that chooses the back (`by: {field or 'FIELD'}` in the stack)"
                found.append(diag(
                    STACK_BACKS_DIFFER,
                    f"stack {pile!r} is shuffled face down but its members differ in " + "; ".join(differences)
                    + ": players can tell which comes next", hint=hint, **where))
            elif layouts is not None and layouts.source is not None:
                found += _back_fields(game, layouts, pile, cards)
    return found


def _piles(game: Game, types: list[str], by: str | None) -> dict[str, list[Card]]:
    """The cards of ``types`` in face-down piles: one pile, or one per value of field ``by``."""
    cards = [c for c in game.cards if c.type in types]
    if by is None:
        return {"": cards}
    piles: dict[str, list[Card]] = {}
    for card in cards:
        value = card.quantity if by == "quantity" else card.data.get(by)
        piles.setdefault("" if value is None else str(value), []).append(card)
    return piles


def _differences(game: Game, layouts: LayoutSet | None, types: list[str], cards: list[Card]) -> list[str]:
    """How the members of one pile differ from behind: in back, size or shape (phrases)."""
    backs: dict[str, set] = {}
    for t in types:
        members = [c for c in cards if c.type == t]
        backs[t] = {_back(game, layouts, c) for c in members} if members else _backs_of(game, layouts, t)
    differences = []
    if len({repr(b) for found in backs.values() for b in found}) > 1:
        differences.append("back (" + ", ".join(f"{t}: {_said(backs[t])}" for t in types) + ")")
    if layouts is not None:
        shaped: dict[str, list] = {}
        for t in types:
            if t not in layouts.by_type:
                continue
            members = [c for c in cards if c.type == t]
            shaped[t] = list({id(lay): lay for lay in (layouts.for_card(c) for c in members)}.values()) or [layouts.by_type[t]]
        sizes = {(round(lay.size[0], 1), round(lay.size[1], 1)) for lays in shaped.values() for lay in lays}
        if len(sizes) > 1:
            differences.append("size (" + ", ".join(f"{t}: {' / '.join(sorted({_mm(lay.size) for lay in lays}))}"
                                                     for t, lays in shaped.items()) + ")")
        if len({lay.shape for lays in shaped.values() for lay in lays}) > 1:
            differences.append("shape (" + ", ".join(f"{t}: {' / '.join(sorted({lay.shape for lay in lays}))}"
                                                      for t, lays in shaped.items()) + ")")
    return differences


def _choices(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    """``back-unknown`` and ``layout-unknown``: a card whose data chooses no back or layout."""
    import jinja2

    found = []
    for card in game.cards:
        card_type = game.card_types.get(card.type)
        if card_type is None:
            continue
        for what, code, spec, known in (
                ("back", BACK_UNKNOWN, card_type.back, (layouts.back_ids() | {"own"}) if layouts else None),
                ("layout", LAYOUT_UNKNOWN, card_type.layout, set(layouts.named) if layouts else None)):
            if not is_data_chosen(spec):
                continue
            where = dict(file=card.source.file, line=card.source.line())
            hint = f"its card type's `{what}:` is at {game.source.file}:{game.source.line('card_types', card.type, what)}"
            try:
                chosen = choose(spec, card, game.data)
            except (LookupError, TemplateFailure, BudgetExceeded, jinja2.TemplateError) as exc:
                found.append(diag(code, f"{card.label} chooses no {what}: {exc}",
                                  hint=hint, **where))
                continue
            if known is not None and chosen not in known:
                from cardforge.util.suggest import did_you_mean

                where_defined = "`backs:`" if what == "back" else "`layouts:`"
                found.append(diag(code,
                                  f"{card.label} chooses the {what} {chosen!r}, which {layouts.file} does not define under {where_defined}",
                                  hint="; ".join(h for h in (did_you_mean(chosen, known), hint) if h), **where))
    return found


_CARD_FIELD = re.compile(r"""\bcard\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*["']([^"']+)["']\s*\])""")


def _fields_read(el) -> list[str]:
    """The card fields an element reads: its ``field`` and those its templates name."""
    names = [el.field] if el.field else []
    for _, source in kind_of(el).templates_of(el):  # every template its kind declares, and `when`
        names += [a or b for a, b in _CARD_FIELD.findall(source)]
    return list(dict.fromkeys(names))


def _prints(el, ctx: dict) -> Any:
    """What element ``el`` prints from ``ctx`` (None when its ``when:`` does not hold)."""
    from cardforge.resolve.face import element_text

    if not cardcontext.holds(el.when, ctx):
        return None
    if kind_of(el).sets_text:
        return element_text(el, ctx)
    return tuple(cardcontext.rendered(v, ctx) for _, v in kind_of(el).templates_of(el, "template", "icon", "colour"))


def _back_fields(game: Game, layouts: LayoutSet, pile: str, cards: list[Card]) -> list[Diagnostic]:
    """``back-field-differs``: an element of the shared back the cards of ``pile`` print,
    printing differently for two of them (a field they do not share)."""
    import jinja2

    from cardforge.checks import common

    found = []
    back_id = back_of(cards[0], game) if cards else ""
    face = layouts.back(back_id) if back_id not in ("own", "") else None
    if face is None or len(cards) < 2:
        return []
    for el in face.elements:
        if not _fields_read(el):
            continue
        printed: dict[str, list[Card]] = {}
        try:
            for card in cards:
                printed.setdefault(repr(_prints(el, common.back(card, game))), []).append(card)
        except (TemplateFailure, BudgetExceeded, jinja2.TemplateError):
            continue  # reported by the faces family
        if len(printed) < 2:
            continue
        fields = [f for f in _fields_read(el) if len({repr(c.data.get(f)) for c in cards}) > 1] or _fields_read(el)
        values = Counter(repr(c.data.get(fields[0])) for c in cards)
        shown = ", ".join(f"{v} ({n} card{'s' if n > 1 else ''})" for v, n in values.most_common(4))
        found.append(diag(
            BACK_FIELD_DIFFERS,
            f"back {back_id!r}: `{el.name}` prints card.{fields[0]}, which differs inside stack {pile!r}: {shown}"
            + "; players can tell the cards apart from behind",
            file=layouts.file, line=_read_line(layouts, back_id, el, fields[0]),
            hint=f"print on the back only what every card of the stack shares, or choose a back per {fields[0]} "
                 f"in game.yaml (`back: {{by: {fields[0]}, values: {{...}}}}`) and split the stack (`by: {fields[0]}`)"))
    return found


def _read_line(layouts: LayoutSet, back_id: str, el, field: str) -> int:
    """The line of the element's key that reads ``field`` (its template, when, ...), else its own."""
    path = ("backs", layouts.back_name(back_id), "elements", el.name)
    positions = layouts.source.lines.key_positions
    for key, value in (("field", el.field), *kind_of(el).templates_of(el)):
        if isinstance(value, str) and field in value and path + (key,) in positions:
            return positions[path + (key,)][0]
    return el.line or layouts.source.line(*path)
