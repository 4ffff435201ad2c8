"""A card type's back or layout chosen by the card's data.

game.yaml gives a card type's ``back:`` (and ``layout:``) in one of three forms::

    back: deck                          # one back for every card of the type
    back: "treasure-{{ card.tier }}"    # a template: the card's fields give the back's id
    back:                               # a back per value of a field (a column of the sheet)
      by: tier
      values: {1: treasure-bronze, 2: treasure-silver, 3: treasure-gold}
      default: treasure                 # cards whose value is not listed (optional)

:func:`chosen` works out the id for one card. The template form runs in the sandbox with
``card`` (the card's fields, with ``quantity``) and ``game`` (game.yaml), and its result is
stripped; the ``by`` form compares the field's value as text (``1`` matches ``"1"``). The
checks report a card whose choice fails or names no back or layout (``back-unknown``,
``layout-unknown``); drawing never raises here (:data:`FAILED` is returned).
"""
from __future__ import annotations

from typing import Any

from cardforge import sandbox
from cardforge.model import Card

FAILED = ""  # what :func:`chosen` gives when the card's data chooses nothing


def is_data_chosen(spec: Any) -> bool:
    """Whether ``spec`` (a card type's ``back:`` or ``layout:``) depends on the card's data."""
    return isinstance(spec, dict) or (isinstance(spec, str) and ("{{" in spec or "{%" in spec))


def choose(spec: Any, card: Card, game_data: dict[str, Any]) -> str:
    """The id ``spec`` chooses for ``card``; raises :class:`LookupError` with a sentence
    when it chooses nothing (a value not listed and no ``default``) and what
    :func:`cardforge.sandbox.render` raises when a template fails."""
    if isinstance(spec, dict):
        field = spec.get("by")
        value = card.data.get(field) if field != "quantity" else card.quantity
        values = {_text(k): v for k, v in (spec.get("values") or {}).items()}
        if _text(value) in values:
            return str(values[_text(value)])
        if spec.get("default"):
            return str(spec["default"])
        listed = ", ".join(repr(k) for k in values) or "none"
        raise LookupError(f"its {field} is {value!r}, which `values:` does not list ({listed}) and there is no `default:`")
    if not isinstance(spec, str):
        raise LookupError(f"{spec!r} is not a back or layout id")
    if not is_data_chosen(spec):
        return spec
    data = dict(card.data)
    data.setdefault("quantity", card.quantity)
    return sandbox.render(spec, {"card": data, "game": game_data}).strip()


def chosen(spec: Any, card: Card, game_data: dict[str, Any]) -> str:
    """:func:`choose`, or :data:`FAILED` when it chooses nothing or its template fails."""
    try:
        return choose(spec, card, game_data)
    except Exception:  # noqa: BLE001 - reported by the checks (back-unknown, layout-unknown)
        return FAILED


def _text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return "" if value is None else str(value).strip()


def possible(spec: Any) -> list[str]:
    """The ids ``spec`` names without a card (its ``values`` and ``default``, or the plain id);
    [] for a template."""
    if isinstance(spec, dict):
        return [str(v) for v in (spec.get("values") or {}).values()] + ([str(spec["default"])] if spec.get("default") else [])
    if isinstance(spec, str) and not is_data_chosen(spec):
        return [spec]
    return []


def back_of(card: Card, game: Any) -> str:
    """The id of the back ``card`` prints (``own``: its layout's back face), from its card
    type's ``back:`` (:data:`FAILED` when the data chooses none)."""
    card_type = game.card_types.get(card.type)
    if card_type is None:
        return FAILED
    return chosen(card_type.back, card, game.data)
