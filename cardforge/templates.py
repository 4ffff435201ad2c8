"""Sandboxed jinja2: layout templates and declarative rules, never Python ``eval``.

One :class:`~jinja2.sandbox.ImmutableSandboxedEnvironment` serves every expression and
template in a game pack and its layout; game data is exposed read-only. Filters added for
card text: ``tally`` (an icon count mapping as icon tokens) and ``roman``.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import StrictUndefined, Undefined
from jinja2.sandbox import ImmutableSandboxedEnvironment


def tally(icons: dict[str, int] | None, sep: str = ", ", choice: bool = False, signed: bool | None = None) -> str:
    """An icon count mapping as card markup.

    ``{"compassion": 3}`` -> ``"{compassion} {compassion} {compassion}"``;
    ``{"strength": -1, "wisdom": 1}`` -> ``"-1 {strength}, +1 {wisdom}"`` (signed when any
    count is negative); ``choice=True`` joins with ``" or "``.
    """
    if not icons:
        return ""
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
    """1 -> "I", 4 -> "IV", 12 -> "XII" (1..3999)."""
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
             (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
    out = []
    for value, letters in table:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)


def environment(strict: bool = False) -> ImmutableSandboxedEnvironment:
    env = ImmutableSandboxedEnvironment(undefined=StrictUndefined if strict else Undefined,
                                        autoescape=False, keep_trailing_newline=False)
    env.filters["tally"] = tally
    env.filters["roman"] = roman
    return env


ENV = environment()


@lru_cache(maxsize=2048)
def template(source: str):
    """A compiled template (cached). Raises ``jinja2.TemplateSyntaxError``."""
    return ENV.from_string(source)


@lru_cache(maxsize=2048)
def expression(source: str):
    """A compiled expression (cached). Raises ``jinja2.TemplateSyntaxError``."""
    return ENV.compile_expression(source, undefined_to_none=False)


def render(source: str, context: dict[str, Any]) -> str:
    """Render ``source`` if it holds jinja2 syntax; plain strings are returned as they are."""
    if "{{" not in source and "{%" not in source:
        return source
    return template(source).render(context)
