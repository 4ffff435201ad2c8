"""Sandboxed jinja2: layout templates and declarative rules, never Python ``eval``.

One :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment` serves every expression and
template in a game pack and its layout; game data is exposed read-only. Filters added for
card text: ``tally`` (an icon count mapping as icon tokens) and ``roman``.

Every evaluation runs on a budget (:mod:`cardforge.budget`): operations, time, and the
size of what one operation may build (no ``10 ** 10 ** 10``, no ``'a' * 10 ** 9``), so a
template or rule written by someone else cannot hang or exhaust the machine; running over
raises :class:`~cardforge.budget.BudgetExceeded`. Any other failure while evaluating raises
:class:`TemplateFailure`.
"""
from __future__ import annotations

import hashlib
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import BaseLoader, FileSystemBytecodeCache, StrictUndefined, Undefined
from jinja2.environment import TemplateExpression
from jinja2.sandbox import ImmutableSandboxedEnvironment

from cardforge.budget import BudgetExceeded, BudgetedSandbox, budgeted


class TemplateFailure(Exception):
    """A template or expression that raised while evaluating (undefined value, type error...)."""


def tally(icons: dict[str, int] | None, sep: str = ", ", choice: bool = False, signed: bool | None = None) -> str:
    """An icon count mapping as card markup.

    ``{"compassion": 3}`` -> ``"{compassion} {compassion} {compassion}"``;
    ``{"strength": -1, "wisdom": 1}`` -> ``"-1 {strength}, +1 {wisdom}"`` (signed when any
    count is negative); ``choice=True`` joins with ``" or "``.
    """
    if not icons:
        return ""
    if not isinstance(icons, dict) or not all(isinstance(n, int) for n in icons.values()):
        raise TypeError(f"tally needs a mapping of icon names to counts, not {icons!r}")
    if sum(abs(n) for n in icons.values()) > 1000:
        raise TypeError("tally of more than 1000 icons")
    if signed is None:
        signed = any(n < 0 for n in icons.values())
    parts = []
    for name, n in icons.items():
        if signed:
            parts.append(f"{n:+d} {{{name}}}")
        else:
            parts.append(" ".join(f"{{{name}}}" for _ in range(n)))
    return (" or " if choice else sep).join(parts)


def roman(n: int) -> str:
    """1 -> "I", 4 -> "IV", 12 -> "XII" (1..3999; raises ``ValueError`` outside)."""
    if not isinstance(n, int) or not 0 < n < 4000:
        raise ValueError(f"roman numerals run from 1 to 3999, not {n!r}")
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
             (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = []
    for value, letters in table:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


class _SourceLoader(BaseLoader):
    """Templates named by a digest of their source, so compiled code can be cached on disk."""

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}

    def name(self, source: str) -> str:
        name = "t" + hashlib.sha1(source.encode("utf-8")).hexdigest()
        self.sources[name] = source
        return name

    def get_source(self, environment, template):
        return self.sources[template], None, lambda: True


def _bytecode_cache(kind: str) -> FileSystemBytecodeCache | None:
    """A disk cache of compiled templates (``$XDG_CACHE_HOME/cardforge``), or None if unwritable."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardforge" / f"jinja-{jinja2.__version__}-{kind}-budgeted"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return FileSystemBytecodeCache(str(base)) if os.access(base, os.W_OK) else None


def environment(strict: bool = False) -> ImmutableSandboxedEnvironment:
    """The sandboxed, budgeted environment; ``strict`` makes an undefined name an error."""
    env = BudgetedSandbox(undefined=StrictUndefined if strict else Undefined,
                                        autoescape=False, keep_trailing_newline=False,
                                        loader=_SourceLoader(), cache_size=2000,
                                        bytecode_cache=_bytecode_cache("strict" if strict else "lenient"))
    env.filters["tally"] = tally
    env.filters["roman"] = roman
    env.guard_filters()
    return env


ENV = environment()


def template(source: str):
    """A compiled template (cached in memory and on disk). Raises ``jinja2.TemplateSyntaxError``."""
    return ENV.get_template(ENV.loader.name(source))


@lru_cache(maxsize=4096)
def _compiled_expression(source: str):
    from cardforge import compiled

    verdict = compiled.key("jinja-expression", source)
    known = verdict in compiled.VALID  # found to be one expression before: not parsed again
    if not known:
        ENV.parse("{{ " + source + " }}")  # reject anything that is not one expression
    expression = TemplateExpression(template("{% set result = (" + source + ") %}"), False)
    if not known:
        compiled.VALID.add(verdict)
    return expression


def expression(source: str):
    """A compiled expression returning a Python value (cached in memory and on disk).

    Raises ``jinja2.TemplateSyntaxError``. Calling it raises :class:`BudgetExceeded` past
    the budget and :class:`TemplateFailure` for any other error.
    """
    return _Guarded(_compiled_expression(source))


class _Guarded:
    def __init__(self, compiled):
        self.compiled = compiled

    def __call__(self, *args, **kwargs):
        return evaluate(self.compiled, *args, **kwargs)


def evaluate(func, *args, **kwargs):
    """``func(*args, **kwargs)`` on the budget; failures as :class:`TemplateFailure`."""
    try:
        with budgeted():
            return func(*args, **kwargs)
    except (BudgetExceeded, TemplateFailure):
        raise
    except jinja2.TemplateSyntaxError:
        raise
    except RecursionError as exc:  # kept as the cause: its traceback holds the template's line
        raise BudgetExceeded("it calls itself without end (recursion)") from exc
    except MemoryError:
        raise BudgetExceeded("it needs more memory than a card may use") from None
    except Exception as exc:  # noqa: BLE001 - a template may raise anything a filter or method raises
        raise TemplateFailure(f"{type(exc).__name__}: {exc}") from exc


def render(source: str, context: dict[str, Any]) -> str:
    """Render ``source`` if it holds jinja2 syntax; plain strings are returned as they are.

    Raises ``jinja2.TemplateSyntaxError``, :class:`BudgetExceeded`, :class:`TemplateFailure`.
    """
    if "{{" not in source and "{%" not in source:
        return source
    return evaluate(template(source).render, context)
