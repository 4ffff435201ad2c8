"""``odds-invalid`` (error): an ``odds:`` entry of game.yaml that cannot be worked out (see
:mod:`cardforge.almanac.odds`): a stack or component that does not exist or has no card
types, a card type not in the stack, a test (``where``) that does not compile, fails on a
card or names a field no card of the stack has, a ``deck`` part that selects nothing or
does not share out, more draws than the stack holds. Placed at the faulty key's line."""
from __future__ import annotations

from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.almanac.odds import problems
from cardforge.util.diagnostics import ODDS_INVALID, Diagnostic, diag


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found = []
    for message, path in problems(game):
        found.append(diag(ODDS_INVALID, message, file=game.source.file, line=game.source.line(*path),
                          hint="see docs/game-yaml.md, odds:"))
    return found
