"""What a card face works out once, however many copies of the card are printed.

A deck prints a card with ``quantity: 3`` three times, and its fronts and backs go through
the same templates, ``when:`` tests, colours and text fits each time. Templates are pure
functions of their context (the sandbox gives them no clock and no I/O; jinja2's
``random`` filter would not give a reproducible build in any case), so
a :class:`Context` (the dict layout templates see) keeps what was computed from it in its
``memo``: the deck builds one context per card and side (:func:`cardforge.render.deck.render_deck`)
and every copy after the first draws from the memo. A plain dict works everywhere a
:class:`Context` does, computing afresh. During a check, template results are also kept
between runs (:mod:`cardforge.sandbox.results`). Element kinds, the resolve stage, the checks
and the renderer all evaluate templates through it.
"""
from __future__ import annotations

from typing import Any

from cardforge import sandbox
from cardforge.sandbox import results as checkresults
from cardforge.sandbox.budget import BudgetExceeded


class Context(dict):
    """A template context (``card``, ``game``, ``back``...) with a ``memo`` of results computed from it."""

    __slots__ = ("memo",)

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.memo: dict = {}


class _Stopped:
    """What the memo keeps of an evaluation its budget stopped: the reason, to stop again at once."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason


def remembered(ctx: dict[str, Any], key: tuple, compute):
    """``compute()``, remembered under ``key`` in ``ctx``'s memo (computed each time for a plain dict).

    An evaluation stopped by its budget (:class:`~cardforge.sandbox.budget.BudgetExceeded`)
    is remembered too: asked again in the same context (another check family, another copy
    of the card), it raises again at once instead of running to the same end for up to
    :data:`~cardforge.sandbox.budget.TIME_LIMIT` seconds more."""
    memo = getattr(ctx, "memo", None)
    if memo is None:
        return compute()
    try:
        value = memo[key]
    except KeyError:
        try:
            value = memo[key] = compute()
        except BudgetExceeded as exc:
            memo[key] = _Stopped(str(exc))
            raise
        return value
    if type(value) is _Stopped:
        raise BudgetExceeded(value.reason)
    return value


def rendered(source: str | None, ctx: dict[str, Any]) -> str:
    """``source`` rendered as a template in ``ctx``, stripped ('' for None or '').

    Raises what :func:`cardforge.sandbox.render` raises."""
    if not source:
        return ""
    if "{{" not in source and "{%" not in source:
        return source.strip()
    return remembered(ctx, ("render", source), lambda: checkresults.result(
        ctx, "render", source, lambda: sandbox.render(source, ctx).strip()))


def holds(test: str | None, ctx: dict[str, Any]) -> bool:
    """Whether the ``when:`` expression ``test`` holds in ``ctx`` (True when there is none)."""
    if not test:
        return True
    return remembered(ctx, ("when", test), lambda: checkresults.result(
        ctx, "when", test, lambda: bool(sandbox.expression(test)(**ctx))))
