"""One card as reference text: its name, quantity, the fields its type's display formats
print (see :mod:`cardforge.almanac.display`) and its text with inline icons, designed
values marked with a dagger (†) as the card face marks them (:func:`cardforge.almanac.display.marked`). Shared by the rulebook's card appendix and the card almanac."""
from __future__ import annotations

import html


from cardforge.model import Card, Game
from cardforge.almanac.display import marked, prints_text, quantity_marked, text_marked
from cardforge.documents.flow import IconImages, Styles, inline
from cardforge.documents.playertext import DESIGNED
from cardforge.documents.readers import Paragraph
from cardforge.documents.tables import TableModel, TableTooWide, column_widths


def _markup(text: str, icons: IconImages, size: float) -> str:
    return inline([{"type": "text", "raw": text}], icons, size)


def card_entry(card: Card, game: Game, icons: IconImages, styles: Styles, quantity: bool = False,
               width: float = 400.0) -> list:
    """Flowables for ``card``: a head line with its printed fields, small tables for its
    mapping fields, then its text. ``quantity`` shows "× 1" too (the almanac); otherwise
    only quantities above one show. ``width`` (pt) is the column the tables fit."""
    size = styles.base
    facts, tables = [], []
    name_mark, fields = marked(card, game)
    for field in fields:
        mark = DESIGNED if field.designed else ""
        if field.table is not None:
            tables.append(field)
        elif field.text and not field.label:  # the value says what it is
            facts.append(f"{_markup(field.text, icons, size)}{mark}")
        elif field.text:
            facts.append(f"<i>{html.escape(field.label)}</i> {_markup(field.text, icons, size)}{mark}")
        else:
            facts.append(f"<i>{html.escape(field.label)}</i>{mark}")
    head = f"<b>{html.escape(card.name)}</b>{DESIGNED if name_mark else ''}" + (f" × {card.quantity}{DESIGNED if quantity_marked(card, game) else ''}"
                                                                            if quantity or card.quantity > 1 else "")
    out: list = [Paragraph(head + (" — " + "; ".join(facts) if facts else ""), styles.body)]
    for field in tables:
        header, rows = field.table
        cell = styles.cell
        model = TableModel(field.label, [Paragraph(f"<b>{html.escape(h)}</b>", styles.head_cell) for h in header],
                           [[Paragraph(_markup(c, icons, cell.fontSize), cell) for c in row] for row in rows],
                           [], styles.base * 0.25, styles.base * 0.4)
        columns = [[r[i] for r in [model.header] + model.rows] for i in range(len(header))]
        try:
            model.widths = column_widths(columns, min(width, 120.0 * len(header)), model.pad, field.label)[0]
        except TableTooWide:
            continue  # a table that cannot fit is left out rather than misprinted
        out.append(model.table())
    if card.data.get("text") and prints_text(game, card.type):
        mark = DESIGNED if text_marked(card, game) else ""
        out.append(Paragraph(_markup(str(card.data["text"]).replace("\n", " / "), icons, size) + mark, styles.item))
    return out
