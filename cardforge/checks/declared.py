"""Declarative rules: each game pack's own cross-card rules, evaluated in a sandbox.

A rule in game.yaml ``rules:`` selects cards with ``where`` (a jinja2 expression over
``card``; all cards when absent) and either asserts ``assert`` of every selected card
(each failing card is named) or expects ``expect`` once over the selection, with ``cards``
(the selected cards), ``count`` (the sum of their quantities) and ``game`` (game.yaml data)
in scope. Expressions run in jinja2's immutable sandbox, never Python ``eval``.

Codes: ``rule-failed`` (error, or the rule's ``severity``), placed on the first failing
card for ``assert`` rules and on the rule for ``expect`` rules; ``rule-invalid`` (error)
for an expression that does not compile or raises; ``rule-budget`` (error) for one that
runs over its budget of operations, time or size (:mod:`cardforge.sandbox.budget`).
"""
from __future__ import annotations

from typing import Any

from jinja2 import TemplateError
from jinja2.exceptions import SecurityError

from cardforge.sandbox import results as checkresults
from cardforge.util.diagnostics import RULE_BUDGET, RULE_FAILED, RULE_INVALID, Diagnostic, Severity, diag
from cardforge.layout import LayoutSet
from cardforge.model import Card, Game
from cardforge.sandbox.budget import BudgetExceeded
from cardforge.sandbox import TemplateFailure, expression


def card_view(card: Card) -> dict[str, Any]:
    """What a rule sees of a card: its fields plus name, type and quantity."""
    view = dict(card.data)
    view.update(name=card.name, type=card.type, quantity=card.quantity)
    return view


class _Lazy:
    """An expression compiled when first evaluated: one whose verdict on every card was kept
    (and so compiled before, by this version of cardforge) is not compiled again."""

    def __init__(self, source: str):
        self.source = source
        self.compiled = None

    def compile(self):
        """Raises what :func:`cardforge.sandbox.expression` raises."""
        if self.compiled is None:
            self.compiled = expression(self.source)
        return self.compiled

    def __call__(self, **values: Any) -> Any:
        return self.compile()(**values)


def _any(truth: bool) -> bool:
    return True  # whether a card is selected is no finding: kept either way


def _held(truth: bool) -> bool:
    return truth  # a card the rule fails for is evaluated (and reported) afresh every time


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found = []
    src = game.source
    views = [(card, card_view(card)) for card in game.cards]
    scopes = {id(v): checkresults.digest_of({"card": v, "game": game.data}) for _, v in views}
    selections: dict[str, list] = {}  # rules often share a `where`: select once per expression
    for n, rule in enumerate(game.rules):
        rule_id = rule.get("id", f"#{n + 1}")
        where = dict(file=src.file, line=src.line("rules", n))
        severity = Severity[rule["severity"].upper()] if rule.get("severity") else None
        try:
            where_expr = rule.get("where") or ""
            if where_expr not in selections:
                select = _Lazy(where_expr) if where_expr else None
                selections[where_expr] = [(c, v) for c, v in views if select is None or checkresults.truth(
                    scopes[id(v)], "rule-where", where_expr, lambda: select(card=v, game=game.data), _any)]
                if select is not None and not views:
                    select.compile()  # a syntax error is reported though no card is there to evaluate it
            selected = selections[where_expr]
            if "assert" in rule:
                test = _Lazy(rule["assert"])
                failing = [c for c, v in selected if not checkresults.truth(
                    scopes[id(v)], "rule-assert", rule["assert"], lambda: test(card=v, game=game.data), _held)]
                if not selected:
                    test.compile()
                if failing:
                    first = failing[0]
                    names = ", ".join(repr(c.name) for c in failing[:12]) + (" ..." if len(failing) > 12 else "")
                    found.append(diag(RULE_FAILED, f"rule {rule_id!r} ({rule['message']}) fails for "
                                      f"{len(failing)} card{'s' if len(failing) != 1 else ''}: {names}",
                                      file=first.source.file, line=first.source.line(), severity=severity,
                                      hint=f"rule at {src.file}:{where['line']}" + (f"; source: {rule['source']}" if rule.get("source") else ""),
                                      related=tuple(c.name for c in failing), card=first.name))
            else:
                cards = [v for _, v in selected]
                ok = expression(rule["expect"])(cards=cards, count=sum(v["quantity"] for v in cards), game=game.data)
                if not ok:
                    found.append(diag(RULE_FAILED, f"rule {rule_id!r} ({rule['message']}) does not hold: "
                                      f"{rule['expect']} (count = {sum(v['quantity'] for v in cards)})",
                                      severity=severity,
                                      hint=f"source: {rule['source']}" if rule.get("source") else "", **where))
        except BudgetExceeded as exc:
            found.append(diag(RULE_BUDGET, f"rule {rule_id!r} was stopped: {exc}", **where,
                              hint="a rule compares a few fields of each card; simplify the expression"))
        except TemplateFailure as exc:
            found.append(diag(RULE_INVALID, f"rule {rule_id!r}: {exc}", **where))
        except (TemplateError, SecurityError, TypeError, ValueError, AttributeError, KeyError) as exc:
            found.append(diag(RULE_INVALID, f"rule {rule_id!r}: {type(exc).__name__}: {exc}", **where))
    return found
