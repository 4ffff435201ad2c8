"""Budgets for sandboxed jinja2: operations, time, and the size of what one operation builds.

Templates (layouts, rules sources) and rule expressions come with a game pack, which may come
from anyone. jinja2's sandbox stops them reaching Python internals but not from running
for ever or building a gigabyte: :class:`BudgetedSandbox` counts every call, attribute and
item lookup and intercepted operator against :data:`MAX_OPERATIONS`, refuses ``**`` with a
result of more than :data:`MAX_POWER_BITS` bits, ``*``/``+``/``%`` and filters or methods
that would build a string or list of more than :data:`MAX_LENGTH` items, and
:func:`budgeted` stops any evaluation after :data:`TIME_LIMIT` seconds (with ``SIGALRM``,
which interrupts even a loop that calls nothing, when running in the main thread).
Running over raises :class:`BudgetExceeded`.
"""
from __future__ import annotations

import math
import re
import signal
import threading
import time
from contextlib import contextmanager
from typing import Any

from jinja2 import Environment
from jinja2.nodes import EvalContext
from jinja2.runtime import Context
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_OPERATIONS = 2_000_000   # calls, lookups and operators in one evaluation
TIME_LIMIT = 5.0             # seconds for one evaluation (a whole rules source counts as one)
MAX_LENGTH = 1_000_000       # characters of a string or items of a list one operation may build
MAX_POWER_BITS = 100_000     # bits of the result of ``**``
_WIDTH = re.compile(r"%[-+ #0]*(\d+|\*)?(?:\.(\d+|\*))?[a-zA-Z%]|\{[^{}]*?(\d{7,})[^{}]*\}")


class BudgetExceeded(Exception):
    """An evaluation that ran over its operation, time or size budget."""


class _State(threading.local):
    depth = 0
    operations = 0
    deadline = 0.0


_state = _State()


def _alarm(signum, frame):
    raise BudgetExceeded(f"it ran for more than {TIME_LIMIT:g} s")


_NOTHING = object()  # no handler was replaced


class budgeted:  # noqa: N801 - used as ``with budgeted():``, as the function it was
    """Run the enclosed evaluation on a budget (nested uses share the outermost budget).

    The ``SIGALRM`` handler is installed for the outermost evaluation and put back after it,
    unless a :func:`budget_session` keeps it installed across many evaluations (each still
    has its own :data:`TIME_LIMIT`).
    """

    __slots__ = ("previous", "timed")

    def __enter__(self) -> None:
        state = _state
        self.previous, self.timed = _NOTHING, False
        if state.depth == 0:
            state.operations = 0
            state.deadline = time.monotonic() + TIME_LIMIT
            if _alarms_here():
                try:
                    if not _session.open:
                        self.previous = signal.signal(signal.SIGALRM, _alarm)
                    self.timed = True
                    signal.setitimer(signal.ITIMER_REAL, TIME_LIMIT)
                except (ValueError, OSError):
                    pass
        state.depth += 1

    def __exit__(self, *exc) -> None:
        _state.depth -= 1
        if self.timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            if self.previous is not _NOTHING:
                signal.signal(signal.SIGALRM, self.previous)


def _alarms_here() -> bool:
    """True where ``SIGALRM`` can stop an evaluation: the main thread, on a system that has it."""
    return threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")


@contextmanager
def budget_session():
    """Keep the time budget's ``SIGALRM`` handler installed while many evaluations run (a
    game's checks: installing it for each of thousands of templates costs more than they
    do); the previous handler is put back at the end. Outside the main thread, nothing."""
    previous = _NOTHING
    if _alarms_here() and _state.depth == 0 and not _session.open:
        try:
            previous = signal.signal(signal.SIGALRM, _alarm)
            _session.open = True
        except (ValueError, OSError):
            previous = _NOTHING
    try:
        yield
    finally:
        if previous is not _NOTHING:
            _session.open = False
            signal.signal(signal.SIGALRM, previous)


class _Session:
    open = False  # the handler is installed by budget_session (main thread only)


_session = _Session()


def tick(n: int = 1) -> None:
    """Count ``n`` operations; raises :class:`BudgetExceeded` past the budget or the deadline."""
    state = _state
    state.operations += n
    if state.operations > MAX_OPERATIONS:
        raise BudgetExceeded(f"it took more than {MAX_OPERATIONS:,} operations")
    if state.operations % 4096 == 0 and state.depth and time.monotonic() > state.deadline:
        raise BudgetExceeded(f"it ran for more than {TIME_LIMIT:g} s")


def _size(value: Any) -> int | None:
    return len(value) if isinstance(value, (str, bytes, list, tuple)) else None


def _check_size(value: Any, what: str) -> Any:
    n = _size(value)
    if n is not None and n > MAX_LENGTH:
        raise BudgetExceeded(f"{what} builds {n:,} items; at most {MAX_LENGTH:,}")
    return value


def _check_int_args(args: tuple, kwargs: dict, what: str) -> None:
    for value in list(args) + list(kwargs.values()):
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_LENGTH:
            raise BudgetExceeded(f"{what} is given {value:,}; sizes and widths go up to {MAX_LENGTH:,}")


def _check_format(fmt: str, what: str) -> None:
    for m in _WIDTH.finditer(fmt):
        for g in m.groups():
            if g and g.isdigit() and int(g) > MAX_LENGTH:
                raise BudgetExceeded(f"{what} asks for a width of {int(g):,}; at most {MAX_LENGTH:,}")


class BudgetedSandbox(ImmutableSandboxedEnvironment):
    """jinja2's immutable sandbox with the budgets of this module."""

    intercepted_binops = frozenset(["**", "*", "+", "%", "//"])
    intercepted_unops = frozenset()

    def call_binop(self, context, operator: str, left: Any, right: Any) -> Any:
        tick()
        if operator == "**":
            if isinstance(left, (int, float)) and isinstance(right, (int, float)) and not isinstance(left, bool):
                if abs(left) > 1 and right > 0:
                    bits = right * math.log2(abs(left))
                    if bits > MAX_POWER_BITS:
                        raise BudgetExceeded(f"{left!r} ** {right!r} is a number of about {bits:,.0f} bits")
            return left ** right
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                size = _size(seq)
                if size is not None and isinstance(n, int) and size * max(n, 0) > MAX_LENGTH:
                    raise BudgetExceeded(f"repeating {size:,} items {n:,} times; at most {MAX_LENGTH:,} items")
            return left * right
        if operator == "+":
            a, b = _size(left), _size(right)
            if a is not None and b is not None and a + b > MAX_LENGTH:
                raise BudgetExceeded(f"joining {a + b:,} items; at most {MAX_LENGTH:,}")
            return left + right
        if operator == "%":
            if isinstance(left, str):
                _check_format(left, "a % format")
            return left % right
        return super().call_binop(context, operator, left, right)

    def getattr(self, obj: Any, attribute: str) -> Any:
        tick()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        tick()
        return super().getitem(obj, argument)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - jinja2's signature
        tick()
        owner = getattr(__obj, "__self__", None)
        if isinstance(owner, (str, bytes, list, tuple)):
            name = getattr(__obj, "__name__", "method")
            _check_int_args(args, kwargs, f"{name}()")
            if name in ("format", "format_map") and isinstance(owner, str):
                _check_format(owner, "str.format")
        return _check_size(super().call(__context, __obj, *args, **kwargs), "a call")

    def guard_filters(self) -> None:
        """Wrap every filter: size-like arguments and results within :data:`MAX_LENGTH`."""
        for name, func in list(self.filters.items()):
            self.filters[name] = _guard_filter(name, func)
        self.globals["range"] = _range


def _guard_filter(name: str, func):
    import functools

    @functools.wraps(func)
    def guarded(*args, **kwargs):
        tick()
        rest = [a for a in args if not _is_context(a)][1:]
        _check_int_args(tuple(rest), kwargs, f"the filter {name}")
        if name == "format" and args and isinstance(args[0], str):
            _check_format(args[0], "the filter format")
        result = func(*args, **kwargs)
        if hasattr(result, "__next__"):  # a generator (map, select...): count as it goes
            return _counted(result)
        return _check_size(result, f"the filter {name}")

    return guarded


def _is_context(value: Any) -> bool:
    return isinstance(value, (Context, EvalContext, Environment))


def _counted(iterator):
    for item in iterator:
        tick()
        yield item


def _range(*args: int):
    """``range`` for templates: at most :data:`MAX_LENGTH` numbers, each one counted."""
    r = range(*args)
    if len(r) > MAX_LENGTH:
        raise BudgetExceeded(f"range of {len(r):,} numbers; at most {MAX_LENGTH:,}")
    tick()
    return r if len(r) <= 10_000 else _counted(iter(r))  # a long range is counted as it is walked
