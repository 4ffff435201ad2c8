"""The odds of a draw (``odds:`` in game.yaml), computed exactly from the card database.

Each entry names a face-down stack (an id of game.yaml's ``stacks`` or ``components``),
how many cards are drawn from it (``draws``: the hand size, or a list of draw counts), and
the cards of interest (``types`` and/or ``where``, a jinja2 expression over ``card`` run in
cardforge's sandbox, as the ``rules:`` use). ``deck`` may say what the stack holds when the
cards are drawn, when that is not every card of its types at its full quantity: a list of
parts, each ``where`` (which cards) with ``share`` (the quantities are for this many
players' decks: each deck holds an equal share) or ``count`` (the deck holds this many of
those cards, one player's pick: such a card is of interest when every card it may be is).

For each draw count ``n`` the stack of ``N`` cards, ``K`` of interest, gives the
hypergeometric law: P(exactly k) = C(K, k) C(N - K, n - k) / C(N, n), and P(at least one)
= 1 - P(exactly 0), computed with :class:`fractions.Fraction` (no rounding until printed).

:func:`odds` returns the tables; :func:`problems` the entries' faults (unknown stack, a
condition naming a field no card of the stack has, more draws than cards, an expression
that does not compile), as (message, path in game.yaml) pairs the ``odds`` check places at
their line. A faulty entry has no table.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

from cardforge.model import Card, Game
from cardforge.util.i18n import _

ODDS_HEADING = "The odds of a draw"
ODDS_NOTE = ("The chance, from a freshly shuffled stack, that the cards you draw hold at least one, none or "
             "exactly so many of the cards named, worked out exactly from every card and its quantity.")
DEFAULT_MAX_K = 3  # exactly 0..3 unless the entry asks for more (``max``)
BUILTIN_FIELDS = {"name", "type", "quantity"}


@dataclass
class Odds:
    """One ``odds:`` entry worked out: the stack's make-up and the law of each draw count.

    ``stack``: (card type label, count of interest, count of others) per card type in the
    stack, in game.yaml order; ``size`` (N) and ``hits`` (K) its totals; ``draws`` the draw
    counts; ``exactly[n][k]`` = P(exactly k of interest in n draws) for k = 0..``max_k``;
    ``at_least_one[n]`` = P(at least one)."""

    id: str
    title: str
    cards: str  # how the game calls the cards of interest ("events", "a cheap citizen")
    stack_name: str
    size: int
    hits: int
    draws: list[int]
    max_k: int
    stack: list[tuple[str, int, int]]
    exactly: dict[int, list[Fraction]] = field(default_factory=dict)
    at_least_one: dict[int, Fraction] = field(default_factory=dict)
    designed: bool = False
    note: str = ""


def hypergeometric(size: int, hits: int, draws: int, k: int) -> Fraction:
    """P(exactly ``k`` of the ``hits`` cards among ``draws`` cards drawn from ``size``),
    exact. Raises ``ValueError`` for counts that make no stack (negative, ``hits`` or
    ``draws`` over ``size``)."""
    if min(size, hits, draws) < 0 or hits > size or draws > size:
        raise ValueError(f"no stack of {size} cards has {hits} of interest and {draws} draws")
    if k < 0 or k > min(hits, draws) or draws - k > size - hits:
        return Fraction(0)
    return Fraction(comb(hits, k) * comb(size - hits, draws - k), comb(size, draws))


def _view(card: Card) -> dict[str, Any]:
    view = dict(card.data)
    view.update(name=card.name, type=card.type, quantity=card.quantity)
    return view


def _stack(game: Game, stack_id: str) -> tuple[str, list[str]] | None:
    """(name, card types) of the stack or component ``stack_id``, or None."""
    for stack in game.data.get("stacks") or []:
        if isinstance(stack, dict) and stack.get("id") == stack_id:
            return str(stack.get("name") or stack_id), list(stack.get("card_types") or [])
    for comp in game.components:
        if comp.get("id") == stack_id and comp.get("card_types"):
            return str(comp.get("name") or stack_id), list(comp["card_types"])
    return None


def _fields_named(source: str) -> set[str]:
    """The fields ``card.X`` / ``card['X']`` an expression reads (parsed by jinja2)."""
    from jinja2 import nodes

    from cardforge.sandbox import ENV

    tree = ENV.parse("{{ " + source + " }}")
    named = set()
    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        if isinstance(node.node, nodes.Name) and node.node.name == "card":
            if isinstance(node, nodes.Getattr):
                named.add(node.attr)
            elif isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
                named.add(node.arg.value)
    return named


def _known_fields(game: Game, types: list[str]) -> set[str]:
    """Every field a card of ``types`` has or its type's schema declares."""
    known = set(BUILTIN_FIELDS)
    for type_id in types:
        card_type = game.card_types.get(type_id)
        if card_type is not None:
            known |= set(((card_type.schema or {}).get("properties") or {}).keys())
        for card in game.cards_of(type_id):
            known |= set(card.data)
    return known


class _Fault(Exception):
    def __init__(self, message: str, *path: Any):
        super().__init__(message)
        self.path = path


def _test(source: str, path: tuple, known: set[str]):
    """The compiled expression ``source`` (a test of ``card``); raises :class:`_Fault`."""
    from jinja2 import TemplateError

    from cardforge.sandbox import expression

    try:
        unknown = sorted(_fields_named(source) - known)
        compiled = expression(source)
    except TemplateError as exc:
        raise _Fault(f"`{source}` is not an expression: {exc}", *path) from None
    if unknown:
        from cardforge.util.suggest import did_you_mean

        hint = did_you_mean(unknown[0], sorted(known))
        raise _Fault(f"`{source}` names {', '.join(repr(u) for u in unknown)}, a field no card of the stack has"
                     + (f" ({hint})" if hint else ""), *path)
    return compiled


def _holds(test, card: Card, path: tuple) -> bool:
    from cardforge.sandbox import TemplateFailure
    from cardforge.sandbox.budget import BudgetExceeded

    try:
        return bool(test(card=_view(card)))
    except (TemplateFailure, BudgetExceeded) as exc:
        raise _Fault(f"its test fails on {card.name!r}: {exc}", *path) from None


def _work_out(game: Game, i: int, entry: dict) -> Odds:
    """One entry as :class:`Odds`; raises :class:`_Fault` at its path in game.yaml."""
    here = ("odds", i)
    found = _stack(game, str(entry.get("stack")))
    if found is None:
        from cardforge.util.suggest import did_you_mean

        ids = [s.get("id") for s in game.data.get("stacks") or [] if isinstance(s, dict)]
        ids += [c.get("id") for c in game.components if c.get("card_types")]
        hint = did_you_mean(str(entry.get("stack")), [x for x in ids if x])
        raise _Fault(f"odds {entry.get('id', i + 1)!r}: no stack or component {entry.get('stack')!r}"
                     + (f" ({hint})" if hint else f" (stacks and components: {', '.join(map(str, ids)) or 'none'})"),
                     *here, "stack")
    stack_name, stack_types = found
    known = _known_fields(game, stack_types)
    for t in entry.get("types") or []:
        if t not in stack_types:
            raise _Fault(f"odds {entry['id']!r}: card type {t!r} is not in {stack_name!r} ({', '.join(stack_types)})",
                         *here, "types")
    where = _test(entry["where"], here + ("where",), known) if entry.get("where") else None
    cards = [c for t in stack_types for c in game.cards_of(t)]
    # the deck as drawn from: (card type, copies, of interest)
    def interest(card: Card) -> bool:
        return ((not entry.get("types") or card.type in entry["types"])
                and (where is None or _holds(where, card, here + ("where",))))

    deck: list[tuple[str, int, bool]] = []
    parts = entry.get("deck")
    if not parts:
        deck = [(c.type, c.quantity, interest(c)) for c in cards]
    else:
        for p, part in enumerate(parts):
            at = here + ("deck", p)
            test = _test(part["where"], at + ("where",), known)
            chosen = [c for c in cards if _holds(test, c, at + ("where",))]
            if not chosen:
                raise _Fault(f"odds {entry['id']!r}: deck part `{part['where']}` selects no card of {stack_name!r}",
                             *at, "where")
            if "count" in part:
                verdicts = {interest(c) for c in chosen}
                if len(verdicts) > 1:
                    raise _Fault(f"odds {entry['id']!r}: the {part['count']} card(s) picked from `{part['where']}` "
                                 "may or may not be of interest; narrow the part or the cards of interest", *at)
                kinds = {c.type for c in chosen}
                deck.append((chosen[0].type if len(kinds) == 1 else stack_types[0], part["count"], verdicts.pop()))
            else:
                share = part.get("share", 1)
                for c in chosen:
                    if c.quantity % share:
                        raise _Fault(f"odds {entry['id']!r}: {c.name!r} has quantity {c.quantity}, which does not "
                                     f"share out among {share} decks", *at, "share")
                    deck.append((c.type, c.quantity // share, interest(c)))
    size = sum(n for _, n, _ in deck)
    hits = sum(n for _, n, hit in deck if hit)
    draws = entry["draws"] if isinstance(entry["draws"], list) else [entry["draws"]]
    if max(draws) > size:
        raise _Fault(f"odds {entry['id']!r}: {max(draws)} draws from {stack_name!r}, which holds {size} cards",
                     *here, "draws")
    max_k = min(int(entry.get("max", DEFAULT_MAX_K)), max(draws), hits) if hits else 0
    by_type = []
    for t in stack_types:
        mine = [(n, hit) for tt, n, hit in deck if tt == t]
        if mine:
            by_type.append((game.card_types[t].label if t in game.card_types else t,
                            sum(n for n, hit in mine if hit), sum(n for n, hit in mine if not hit)))
    result = Odds(str(entry["id"]), str(entry["title"]), str(entry.get("cards") or "cards of interest"), stack_name,
                  size, hits, draws, max_k, by_type, designed=bool(entry.get("provisional")),
                  note=str(entry.get("note") or ""))
    for n in draws:
        result.exactly[n] = [hypergeometric(size, hits, n, k) for k in range(max_k + 1)]
        result.at_least_one[n] = 1 - hypergeometric(size, hits, n, 0)
    return result


def _entries(game: Game) -> list[tuple[int, dict]]:
    return [(i, e) for i, e in enumerate(game.data.get("odds") or []) if isinstance(e, dict)]


def odds(game: Game) -> list[Odds]:
    """Every well-formed ``odds:`` entry of ``game`` worked out, in game.yaml order."""
    out = []
    for i, entry in _entries(game):
        try:
            out.append(_work_out(game, i, entry))
        except _Fault:
            continue
    return out


def problems(game: Game) -> list[tuple[str, tuple]]:
    """(message, path in game.yaml) for every ``odds:`` entry that cannot be worked out."""
    out = []
    for i, entry in _entries(game):
        try:
            _work_out(game, i, entry)
        except _Fault as fault:
            out.append((str(fault), fault.path))
    return out


def percent(p: Fraction) -> str:
    """A probability as printed: "43.2 %", "< 0.1 %" for a chance under a thousandth, "100 %"
    only when certain."""
    if p == 0:
        return "0 %"
    if p == 1:
        return "100 %"
    value = round(float(p) * 100, 1)
    if value < 0.1:
        return "< 0.1 %"
    if value >= 100:
        return "> 99.9 %"
    return f"{value:.1f} %"


def rows(result: Odds) -> tuple[list[str], list[list[str]]]:
    """The printed table of ``result``: a header (the draw counts) and rows ("at least one",
    "none", "exactly k"...), as reference.pdf and rulebook.html print it."""
    header = [_("Cards drawn")] + [str(n) for n in result.draws]
    body = [[_("at least one")] + [percent(result.at_least_one[n]) for n in result.draws]]
    for k in range(result.max_k + 1):
        body.append([(_("none") if k == 0 else _("exactly {k}").format(k=k))] + [percent(result.exactly[n][k]) for n in result.draws])
    return header, body


def summary(result: Odds) -> str:
    """One line on the stack: "A stack of 104 cards, 12 of them events; 2 to 7 drawn"."""
    return _("{stack}: {size} cards, {hits} of them {cards}.").format(
        stack=result.stack_name[:1].upper() + result.stack_name[1:], size=result.size, hits=result.hits, cards=result.cards)
