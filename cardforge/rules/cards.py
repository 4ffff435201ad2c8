"""One card as reference text: its name, quantity, every field (icon counts as icons) and its
text with inline icons, a designed (provisional) value marked with an asterisk. Shared by
the rulebook's card appendix and the card almanac."""
from __future__ import annotations

import html

from reportlab.platypus import Paragraph

from cardforge.model import Card, Game
from cardforge.rules.flow import IconImages, Styles, inline
from cardforge.templates import tally

NOT_SHOWN = {"name", "type", "quantity", "text", "flavour", "source", "note", "provisional"}


def card_entry(card: Card, game: Game, icons: IconImages, styles: Styles, quantity: bool = False) -> list:
    """Paragraphs for ``card``: a head line with its fields, then its text.

    ``quantity`` shows "× 1" too (the almanac); otherwise only quantities above one show.
    """
    size = styles.base
    facts = []
    for key, value in card.data.items():
        if key in NOT_SHOWN or value in (None, "", [], {}):
            continue
        if isinstance(value, (dict, list)):
            shown = inline([{"type": "text", "raw": flat(value, game)}], icons, size)
        else:
            shown = inline([{"type": "text", "raw": str(value)}], icons, size)
        mark = "*" if key in card.provisional else ""
        facts.append(f"<i>{html.escape(key.replace('_', ' '))}</i> {shown}{mark}")
    head = f"<b>{html.escape(card.name)}</b>" + (f" × {card.quantity}" if quantity or card.quantity > 1 else "")
    out = [Paragraph(head + (" — " + "; ".join(facts) if facts else ""), styles.body)]
    if card.data.get("text"):
        text = inline([{"type": "text", "raw": str(card.data["text"]).replace("\n", " / ")}], icons, size)
        out.append(Paragraph(text, styles.item))
    return out


def flat(value, game: Game) -> str:
    """A nested card field as one line of card markup: icon counts become icons, true flags their name."""
    if isinstance(value, dict):
        if value and all(k in game.icons and isinstance(v, int) and not isinstance(v, bool) for k, v in value.items()):
            try:
                return tally(value)
            except TypeError:  # more icons than tally draws: shown as numbers
                pass
        parts = []
        for k, v in value.items():
            if v is True:
                parts.append(str(k).replace("_", " "))
            elif v not in (False, None, "", [], {}):
                parts.append(f"{str(k).replace('_', ' ')} {flat(v, game)}")
        return ", ".join(parts)
    if isinstance(value, list):
        return ", ".join(flat(v, game) for v in value)
    return str(value)
