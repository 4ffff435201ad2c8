"""Raw values in the almanac: an enum value that would print as the data writes it.

Code: ``almanac-raw-value`` (warning), once per card type, field and value, at the line of
the first card that holds it: the almanac (reference.pdf, the rulebook's card entries and
rulebook.html) would print a slug ("Gate type devouring") where a player expects a word. Give
the value a display label: ``labels: {FIELD: {value: Label}}`` in game.yaml, a ``title`` to its
``const`` in the field's schema, or an ``enum:`` map in the card type's ``almanac:`` fields
(see :mod:`cardforge.almanac.display`).
"""
from __future__ import annotations

from cardforge.almanac.display import raw_values
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.util.diagnostics import ALMANAC_RAW_VALUE, Diagnostic, diag


def check(game: Game, layouts: LayoutSet | None = None) -> list[Diagnostic]:
    out, seen = [], set()
    for card in game.cards:
        for key, value in raw_values(card, game):
            if (card.type, key, value) in seen:
                continue
            seen.add((card.type, key, value))
            field = key.split(".")[0]
            try:
                line = card.source.line(field)
            except (KeyError, IndexError, TypeError, ValueError):
                line = card.source.line()
            out.append(diag(ALMANAC_RAW_VALUE,
                            f"the almanac would print {key} of {card.name} as \"{value}\", as the data writes it",
                            file=card.source.file, line=line, card=card.name,
                            hint=f"give it a display label in game.yaml: labels: {{{key.split('.')[-1]}: "
                                 f"{{{value}: {value.replace('-', ' ').replace('_', ' ').capitalize()}}}}}"))
    return out
