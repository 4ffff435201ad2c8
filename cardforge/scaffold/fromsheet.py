"""``cardforge new SLUG --from SHEET``: a starter pack made from the designer's spreadsheet.

The sheet (CSV, XLSX or JSON) becomes the pack's CSV card file (a CSV sheet is copied as it
is; a workbook or JSON file is written as CSV, a workbook's rows keeping their numbers), and
:mod:`cardforge.scaffold.sheetplan` works out what it holds. Written beside it: game.yaml
(a card type per value of the type column with a JSON Schema of its columns, a component per
card type with its count, a back per card type, the sheet's ``sources:`` mapping; for a Deck
column, one card type whose back is chosen by its deck, a component and a back per deck
printing one face, and a stack per deck),
``layouts/<slug>.yaml`` (the name, the type and enum words under it, the numbers as badges,
the text in a box; a back per card type with its label), and the scaffold's sheet.md,
rulebook.md and icons/. The pack checks clean and builds; the designer refines it from there.
"""
from __future__ import annotations

import copy
import csv
import datetime as dt
import io
import shutil
from pathlib import Path
from typing import Any

import yaml

from cardforge.util.diagnostics import diag, display_path
from cardforge.scaffold import SLUG, NewGame, ScaffoldError, _context, _render, _size_mm
from cardforge.scaffold.sheetplan import Choices, Guess, SheetPlan, field_schema, plan_sheet
from cardforge.sources.tables import SourceError, Table, read_tables, table_from_csv

SHARED_FILES = ["sheet.md", "rulebook.md"]
PALETTE = [("#2f4f6f", "#f2e6c9"), ("#6d3b2f", "#f6e7d0"), ("#2f5f3f", "#eef5e1"), ("#4b3a6b", "#ece4f6"),
           ("#7a5a12", "#fbf1d2"), ("#1f5a66", "#e0f3f4"), ("#6b2f4f", "#f8e3ee"), ("#3f3f3f", "#eeeeee"),
           ("#5a6b1f", "#f1f5dc")]


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dt.datetime, dt.date)):
        return value.date().isoformat() if isinstance(value, dt.datetime) else value.isoformat()
    return str(value)


def group_header(table: Table) -> Table:
    """``table`` with a two-row header made one: when the first row only labels groups of columns
    (``Provided`` over Address, Latency; ``Required`` over Address, Latency) and the row under it
    names every column, the header is the second row, each name after its group's label
    (``Provided Address``), so no two columns share a name. Other tables are returned as they are."""
    from dataclasses import replace

    if not table.rows:
        return table
    top = [c for c in table.header if _cell_text(c.value).strip()]
    below = [c for c in table.rows[0] if _cell_text(c.value).strip()]
    if not top or len(top) * 2 > len(below) or not all(isinstance(c.value, str) for c in below):
        return table
    labels: dict[int, str] = {c.column: _cell_text(c.value).strip() for c in top}
    names = [_cell_text(c.value).strip() for c in below]
    if len(set(names)) == len(names) and not any(col in labels for col in (c.column for c in below)):
        return table
    header, group = [], ""
    for c in table.rows[0]:
        group = labels.get(c.column, group)
        name = _cell_text(c.value).strip()
        value = f"{group} {name}" if name and group and c.column >= min(labels) else (name or None)
        header.append(replace(c, value=value))
    return replace(table, header=header, rows=table.rows[1:])


def not_a_card_list(table: Table) -> str | None:
    """Why a worksheet is not a list of cards (None when it looks like one): a header row of at
    least two names, two rows or more, and a column of words (card names), not only figures."""
    header = [c.value for c in table.header if _cell_text(c.value).strip()]
    if len(header) < 2:
        return "fewer than two columns"
    if any(isinstance(v, (int, float)) for v in header):
        return "its first row holds numbers, not column names"
    if len(table.rows) < 2:
        return "fewer than two rows"

    def wordy(index: int) -> bool:
        values = [row[index].value for row in table.rows if index < len(row) and _cell_text(row[index].value).strip()]
        words = [v for v in values if isinstance(v, str) and not v.strip().replace(".", "", 1).lstrip("+-").isdigit()]
        return bool(values) and len(words) * 2 >= len(values)
    if not any(wordy(i) for i in range(len(table.header))):
        return "no column of words: a table of figures"
    return None


def choose_sheets(tables: list[Table], names: list[str] | None, display: str) -> tuple[list[Table], list[tuple[str, str]]]:
    """The worksheets that become cards and those that do not, each with the reason.

    ``names`` (``--sheet``) chooses them; otherwise the first card list (in the workbook's
    order) and every other card list sharing at least half of its columns with it (a sheet per
    card type, when the first has no type or deck column) but not its card names (a sheet
    repeating a fifth of the names of one chosen is another version of it, left out). Raises
    :class:`SourceError` for a ``--sheet`` the workbook lacks."""
    from cardforge.util.suggest import did_you_mean

    if names:
        by_name = {t.sheet: t for t in tables}
        for name in names:
            if name not in by_name:
                raise SourceError([diag("source-mapping", f"--sheet {name!r} is not a worksheet of {display}", file=display,
                                        hint=did_you_mean(name, list(by_name)) or f"the worksheets: {', '.join(map(str, by_name))}")])
        return [by_name[n] for n in names], [(t.sheet or "", "not chosen with --sheet") for t in tables if t.sheet not in names]
    reasons = {id(t): not_a_card_list(t) for t in tables}
    lists = [t for t in tables if reasons[id(t)] is None]
    if not lists:
        return tables[:1], [(t.sheet or "", reasons[id(t)] or "") for t in tables[1:]]

    def heads(t: Table) -> set[str]:
        return {_cell_text(c.value).strip().lower() for c in t.header if _cell_text(c.value).strip()}

    def names(t: Table) -> set[str]:  # the first column of words: the card names
        for i in range(len(t.header)):
            found = {_cell_text(r[i].value).strip() for r in t.rows if i < len(r) and isinstance(r[i].value, str)
                     and r[i].value.strip()}
            if found:
                return found
        return set()
    from cardforge.scaffold.sheetplan import DECK_NAMES, TYPE_NAMES, header_words

    main = lists[0]  # the first card list, as the designer ordered the worksheets
    typed = any(set(header_words(_cell_text(c.value))) & {*TYPE_NAMES, *DECK_NAMES} for c in main.header)
    chosen = [main]
    skipped = []
    for t in tables[1:] if tables[0] is main else tables:
        if t is main:
            continue
        if reasons[id(t)] is not None:
            skipped.append((t.sheet or "", reasons[id(t)] or ""))
        elif len(heads(t) & heads(main)) * 2 < min(len(heads(t)), len(heads(main))):
            skipped.append((t.sheet or "", f"other columns than {main.sheet!r}"))
        elif typed:  # the first sheet says each card's type: a sheet like it is another set or version
            skipped.append((t.sheet or "", f"a sheet like {main.sheet!r}, which has its own type column"))
        elif any(len(names(t) & names(c)) * 5 >= len(names(t)) for c in chosen):
            other = next(c for c in chosen if len(names(t) & names(c)) * 5 >= len(names(t)))
            skipped.append((t.sheet or "", f"another version of {other.sheet!r}: it repeats its card names"))
        else:
            chosen.append(t)  # a sheet per card type
    return chosen, skipped


def sheet_as_csv(sheet: Path, display: str, sheets: list[str] | None = None) -> tuple[bytes, list[str], list[tuple[str, str]]]:
    """The CSV card file of the sheet: a CSV file's bytes, or the card lists of a workbook (a JSON
    file's rows) as CSV; with the worksheets used and those left out, each with the reason
    (:func:`choose_sheets`). Raises :class:`SourceError`, also for a chosen worksheet whose
    formulas were saved without their values."""
    from cardforge.sources.tables import refuse_uncached

    if sheet.suffix.lower() == ".csv":
        read_tables(sheet, display)  # a file it cannot read is reported here
        return sheet.read_bytes(), [], []
    tables = [group_header(t) for t in read_tables(sheet, display, cached=False) if t.header]
    if not tables:
        raise SourceError([diag("source-value", f"{display} holds no rows", file=display)])
    tables, skipped = choose_sheets(tables, sheets, display)
    refuse_uncached(tables)
    headers = list(dict.fromkeys(_cell_text(c.value).strip() for t in tables for c in t.header if _cell_text(c.value).strip()))
    by_sheet = len(tables) > 1 and not any(h.lower() in ("type", "kind", "deck", "category") for h in headers)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow((["Type"] if by_sheet else []) + headers)
    line = 1
    for table in tables:
        place = {_cell_text(c.value).strip(): i for i, c in enumerate(table.header)}
        first = table.header[0].row if len(tables) == 1 else 0
        for row in table.rows:
            while len(tables) == 1 and line + first < row[0].row:  # blank rows keep the workbook's row numbers
                writer.writerow([])
                line += 1
            values = [_cell_text(row[place[h]].value) if h in place and place[h] < len(row) else "" for h in headers]
            writer.writerow(([table.sheet or ""] if by_sheet else []) + values)
            line += 1
    return out.getvalue().encode("utf-8"), [t.sheet or "" for t in tables if t.sheet], skipped


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None, width=110)


def game_yaml(new: NewGame, plan: SheetPlan, csv_name: str) -> str:
    """The pack's game.yaml, commented."""
    from cardforge.validation.export import modeline

    card_types = {}
    for i, (type_id, t) in enumerate(plan.types.items()):
        properties: dict[str, Any] = {"name": {"type": "string"}, "type": {"const": type_id},
                                      "quantity": {"type": "integer", "minimum": 0}}
        for column in plan.columns:
            if not column.role or column.role in ("text", "title"):
                properties[column.field] = field_schema(column)
        back: Any = type_id if plan.backs == "type" else "card"
        if plan.deck is not None:
            back = {"by": plan.deck.field, "values": {v: _deck_id(v, plan) for v in plan.decks}}
        card_types[type_id] = {"label": t.label, "back": back,
                               "schema": {"type": "object", "required": t.required, "properties": properties,
                                          "additionalProperties": False}}
    parts = [modeline("game", new.slug),
             "#",
             f"# {new.title}: made by `cardforge new {new.slug} --from {csv_name}` from the spreadsheet, which stays",
             f"# the source of truth: edit {csv_name} (a CSV card file, read with the mapping under `sources:`",
             f"# at the end), then `cardforge check {new.slug}` and `cardforge build {new.slug}`. Every key:",
             "# docs/game-yaml.md.", "",
             _dump({"game": {"title": new.title, "tagline": "A game made with cardforge", "designer": "Your name",
                             "players": {"min": new.players[0], "max": new.players[1]}}}),
             *_components(plan),
             "# Icons: declare them under `icons:` (`wood: {label: Wood, text: W}` needs no SVG; `svg:` names a",
             "# file of the pack), write `{wood}` in card text, or turn the sheet's words into icons with the",
             "# mapping's `icons: {Wood: wood}`.",
             *(["# The sheet's symbols that cardforge's fonts cannot print are icons (the mapping turns them into",
                "# {name} tokens), each printed as a letter until you give it an `svg:` or a font that has it."]
               if plan.icons else []),
             _dump({"icons": plan.icons}) if plan.icons else "icons: {}\n",
             *(["# Card types: one per value of the sheet's type column, each field a column, its JSON type",
                "# read from the values (a field is required when every card of the type fills it)."]
               if plan.deck is None else
               ["# The card type: each field a column, its JSON type read from the values (a field is required",
                f"# when every card fills it). Each card prints the back of its {plan.deck.header} (`back: {{by: ...}}`)."]),
             _dump({"card_types": card_types}),
             *_backs(new, plan),
             "# Rules text comes from the data: sheet.md and rulebook.md print these lists.",
             _dump({"setup": ["Shuffle each deck.", "Each player draws a hand of cards."],
                    "turn": [{"name": "Draw", "summary": "Draw a card."},
                             {"name": "Play", "summary": "Play a card and do what it says."}],
                    "end": ["The game ends when a deck runs out."]}),
             f"# How the columns of {csv_name} become card fields (docs/game-yaml.md, `sources:`).",
             _dump({"sources": {csv_name: plan.mapping}})]
    out = []
    for part in parts:
        out.append(part.rstrip("\n") + ("\n" if part[:1].isalpha() else ""))
    return "\n".join(out).rstrip("\n") + "\n"


def _deck_id(value: str, plan: SheetPlan) -> str:
    """The back (and component) id of a deck of the sheet."""
    from cardforge.scaffold.sheetplan import slug

    return slug(value, f"deck-{list(plan.decks).index(value) + 1}")


def _components(plan: SheetPlan) -> list[str]:
    """game.yaml's components and stacks, commented: a component per card type, or one per deck of a
    deck column; the stacks the starter assumed (a pile per card type when each has its own back,
    one pile of every type when they share one, a pile per deck)."""
    if plan.deck is None:
        out = ["# A component per card type, counted from the sheet (its copies column); `cardforge check`",
               "# compares each count with the cards (`count-mismatch`).",
               _dump({"components": [{"id": type_id, "name": f"{t.label} cards", "count": t.count, "card_types": [type_id]}
                                     for type_id, t in plan.types.items()]})]
        if plan.backs == "type":
            out += ["# Face down, each card type is a pile of its own, with its own back. Cards of several types",
                    "# shuffled together must share a back: list them in one stack and `cardforge check` says",
                    "# whether their backs match (`stack-backs-differ`); `new --one-back` makes one back for all.",
                    _dump({"stacks": [{"id": f"{type_id}-pile", "name": f"{t.label} pile", "card_types": [type_id]}
                                      for type_id, t in plan.types.items()]})]
        else:
            out += ["# Face down, every card is shuffled into one pile: its cards share one back (`cardforge",
                    "# check` says when they do not: `stack-backs-differ`).",
                    _dump({"stacks": [{"id": "deck", "name": "deck", "card_types": list(plan.types)}]})]
        return out
    field = plan.deck.field
    return [f"# A component per {plan.deck.header}, counted from the sheet (its copies column); `cardforge check`",
            "# compares each count with the cards (`count-mismatch`).",
            _dump({"components": [{"id": _deck_id(v, plan), "name": f"{v} deck", "count": n, "card_types": list(plan.types),
                                   "where": f"card.{field} == {_literal(v)}"} for v, n in plan.decks.items()]}),
            f"# Face down, each {plan.deck.header} is a pile of its own: its cards must look alike from behind.",
            _dump({"stacks": [{"id": "decks", "name": "deck", "card_types": list(plan.types), "by": field}]})]


def _literal(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _backs(new: NewGame, plan: SheetPlan) -> list[str]:
    """game.yaml's backs, commented: one per card type, or one per deck printing one face."""
    def colours(i: int) -> dict[str, str]:
        return {"color": PALETTE[i % len(PALETTE)][0], "accent": PALETTE[i % len(PALETTE)][1]}
    if plan.backs == "one":
        label = next(iter(plan.types.values())).label if len(plan.types) == 1 else "Card"
        return ["# The card back every card prints: the layout prints the title and the label.",
                _dump({"backs": {"card": {"title": new.title, "label": label, **colours(0)}}})]
    if plan.deck is None:
        return ["# Card backs, one per card type: the layout prints the title and the label.",
                _dump({"backs": {type_id: {"title": new.title, "label": t.label, **colours(i)}
                                 for i, (type_id, t) in enumerate(plan.types.items())}})]
    return [f"# Card backs, one per {plan.deck.header}, each printing the layout's `deck` face with its title,",
            "# label and colours.",
            _dump({"backs": {_deck_id(v, plan): {"face": "deck", "title": new.title, "label": v, **colours(i)}
                             for i, v in enumerate(plan.decks)}})]


def _caption(header: str) -> str:
    """A column's name in words under its badge: ``costDiamonds`` -> ``cost diamonds``."""
    import re

    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|[_\-]+", " ", header).split()
    if len(words) < 2:
        return header
    return " ".join([words[0]] + [w if w.isupper() else w.lower() for w in words[1:]])


def _mm(*values: float) -> list[str]:
    return [f"{round(v, 1):g}mm" for v in values]


TYPE_LINE = 3  # fields on the line under the name; more print in the text box
BADGES = 5  # numbers as badges; more print in the text box


def _type_line(plan: SheetPlan) -> list:
    """The columns printed on the line under the name: the sheet's few repeated words, then short text."""
    return [*plan.words, *plan.short][:TYPE_LINE]


def _text_lines(plan: SheetPlan) -> list:
    """The columns printed in the text box as ``Header: value`` lines: what the type line and badges leave."""
    return [*plan.words, *plan.short][TYPE_LINE:] + plan.numbers[BADGES:]


def _words(plan: SheetPlan, label: str) -> str:
    """The line under the name: the card type's label, then the card's words and short text."""
    shown = _type_line(plan)
    if not shown:
        return label
    literal = '"' + label.replace("\\", "\\\\").replace('"', '\\"') + '"'
    fields = ", ".join("card." + c.field for c in shown)
    if plan.deck is not None:  # the deck's name leads, not the one type's label
        return f"{{{{ [{fields}] | select('defined') | join(' · ') }}}}"
    return f"{{{{ ([{literal}] + [{fields}] | select('defined') | list) | join(' · ') }}}}"


def _text_template(plan: SheetPlan) -> str | None:
    """The text box's template: the text column, then other long text in italics, then the
    columns left over as ``**Header:** value`` lines (None: nothing to print there)."""
    parts = []
    if plan.text is not None:
        parts.append(f"{{% if card.{plan.text.field} is defined %}}{{{{ card.{plan.text.field} }}}}{{% endif %}}")
    for c in plan.extra_text:
        parts.append(f"{{% if card.{c.field} is defined %}}\n*{{{{ card.{c.field} }}}}*{{% endif %}}")
    if plan.flags:  # the marked columns of the card, by their headers, on one line
        marked = ", ".join(f"({_literal(c.header)} if card.{c.field} is defined)" for c in plan.flags)
        parts.append(f"{{% set marked = [{marked}] | select('defined') | list %}}"
                     "{% if marked %}\n{{ marked | join(' · ') }}{% endif %}")
    for c in _text_lines(plan):
        parts.append(f"{{% if card.{c.field} is defined %}}\n**{_caption(c.header)}:** {{{{ card.{c.field} }}}}{{% endif %}}")
    return "".join(parts) or None


def layout_yaml(new: NewGame, plan: SheetPlan, found: dict[str, list[str]] | None = None) -> str:
    """The pack's layout file: the first card type's face, the others extending it, the backs.

    Every column with content prints: the name, the words and short text on the line under it,
    the numbers as badges, the text (then other long text, then what is left) in a box, the
    first column of image file names as the art and the next three as small pictures. ``found``
    holds, per image field, the file names found beside the sheet (copied into the pack): those
    print as images; the others keep a draft placeholder (a tinted box)."""
    from cardforge.validation.export import modeline

    found = found or {}
    w, h = _size_mm(new.card_size)
    m = 4.0
    size = new.card_size if isinstance(new.card_size, str) else _mm(w, h)
    pic = 9.0
    elements: dict[str, Any] = {
        "title": {"kind": "text", "box": _mm(m, m, w - 2 * m, 9), "field": plan.title, "font": "serif-bold",
                  "size": "11pt", "min_size": "7pt", "align": "left", "valign": "middle", "color": "#2f4f6f"}}
    first = next(iter(plan.types))
    elements["words"] = {"kind": "text", "box": _mm(m, m + 9, w - 2 * m, 5), "template": _words(plan, plan.types[first].label),
                         "font": "sans-italic", "size": "7pt", "min_size": "5.5pt", "align": "left", "valign": "middle",
                         "color": "#555555"}
    template = _text_template(plan)
    text_h = (h * (0.38 if plan.extra_text or _text_lines(plan) or plan.flags else 0.33)) if template else 0
    badges = plan.numbers[:BADGES]
    badge_h = 14.0 if badges else 0
    art_top = m + 15
    art_h = h - art_top - m - text_h - badge_h - 2
    elements["art"] = {"kind": "rect", "box": _mm(m, art_top, w - 2 * m, art_h), "fill": "#e8dcc0", "radius": "2mm"}
    if plan.images and found.get(plan.images[0].field):
        art = plan.images[0]
        elements["picture"] = _image(art.field, found[art.field], plan, _mm(m + 1, art_top + 1, w - 2 * m - 2, art_h - 2))
    for i, column in enumerate(plan.images[1:4]):
        box = _mm(w - m - pic - 1, art_top + 1 + i * (pic + 1), pic, pic)
        if found.get(column.field):
            elements[f"picture_{column.field}"] = _image(column.field, found[column.field], plan, box)
        else:  # a draft placeholder until the file is beside the sheet
            elements[f"picture_{column.field}"] = {"kind": "rect", "box": box, "fill": "#f6efdc", "stroke": "#b9a77a",
                                                   "radius": "1.5mm", "when": f"card.{column.field} is defined"}
    if badges:
        gap = 2.0 if len(badges) <= 4 else 1.5
        bw = min(14.0, (w - 2 * m - gap * (len(badges) - 1)) / len(badges))
        y = art_top + art_h + 1
        for i, column in enumerate(badges):
            x = m + i * (bw + gap)
            when = f"card.{column.field} is defined"
            elements[f"badge_{column.field}"] = {
                "kind": "text", "box": _mm(x, y, bw, 7), "template": f"{{{{ card.{column.field} }}}}", "when": when,
                "font": "sans-bold", "size": "11pt" if len(badges) <= 4 else "9pt", "min_size": "7pt",
                "align": "center", "valign": "middle", "color": "#ffffff", "fill": "#2f4f6f", "radius": "2mm"}
            elements[f"caption_{column.field}"] = {
                "kind": "text", "box": _mm(x, y + 7.2, bw, 5.6), "template": _caption(column.header), "when": when,
                "font": "condensed", "size": "6pt", "min_size": "5pt", "align": "center", "valign": "top", "color": "#555555"}
    if template:
        text: dict[str, Any] = {"kind": "text", "box": _mm(m, h - m - text_h, w - 2 * m, text_h)}
        if plan.text is not None and not plan.extra_text and not _text_lines(plan) and not plan.flags:
            text.update({"field": plan.text.field, "when": f"card.{plan.text.field} is defined"})
        else:
            text["template"] = template
        text.update({"size": "9pt", "min_size": "6pt", "align": "center", "valign": "middle", "fill": "#ffffff",
                     "stroke": "#2f4f6f", "radius": "2mm", "padding": "1.5mm"})
        elements["text"] = text
    layouts: dict[str, Any] = {first: {"size": size, "background": "#fdf8ee",
                                       "border": {"width": "1.5pt", "color": "#2f4f6f", "radius": "3mm"},
                                       "elements": elements}}
    for type_id in list(plan.types)[1:]:
        layouts[type_id] = {"extends": first, "elements": {"words": {"template": _words(plan, plan.types[type_id].label)}}}
    back = {"background": "{{ back.color }}", "border": {"width": "3mm", "color": "{{ back.accent }}", "radius": "3mm"},
            "elements": {"title": {"kind": "text", "box": _mm(m + 2, h / 2 - 14, w - 2 * m - 4, 16),
                                   "template": "{{ back.title }}", "font": "serif-bold", "size": "16pt", "min_size": "8pt",
                                   "color": "{{ back.accent }}", "valign": "middle"},
                         "label": {"kind": "text", "box": _mm(m + 2, h / 2 + 3, w - 2 * m - 4, 10),
                                   "template": "{{ back.label }}", "font": "sans-bold", "size": "12pt", "min_size": "7pt",
                                   "color": "{{ back.accent }}", "valign": "middle"}}}
    head = [modeline("layout", new.slug, "layout"), "#",
            f"# Card faces of {new.title}, a start made from the sheet: the name, the sheet's words and short",
            "# text under it, the numbers as badges, the text (then other long text and what is left) in a box,",
            "# file names as pictures (a placeholder until the file is beside the sheet). Every element kind",
            "# and key: docs/layout.md. A box is [x, y, width, height] from the card's top-left trim corner."]
    for i, line in enumerate(_dump({"layouts": layouts}).splitlines()):
        head.append(line) if i else head.extend(["", line])
    if plan.deck is not None:
        head += ["", f"# The back every {plan.deck.header} prints (game.yaml `backs:`, `face: deck`), with its title, label and colours."]
        head.append(_dump({"backs": {"deck": copy.deepcopy(back)}}).rstrip("\n"))
    elif plan.backs == "one":
        head += ["", "# The back every card prints (game.yaml `backs:`), its title and label."]
        head.append(_dump({"backs": {"card": copy.deepcopy(back)}}).rstrip("\n"))
    else:
        head += ["", "# A back per card type (game.yaml `backs:`), its title and label."]
        head.append(_dump({"backs": {type_id: copy.deepcopy(back) for type_id in plan.types}}).rstrip("\n"))
    return "\n".join(head) + "\n"


def _image(field: str, found: list[str], plan: SheetPlan, box: list[str]) -> dict[str, Any]:
    """An image element printing the file a card's ``field`` names, on the cards whose file was found."""
    missing = [v for v in plan.image_values.get(field, []) if v not in found]
    return {"kind": "image", "box": box, "field": field, "fit": "contain",
            "when": f"card.{field} is defined" if not missing else f"card.{field} in {found!r}"}


def not_printed(plan: SheetPlan) -> list[tuple[str, str]]:
    """The columns the starter layout does not print, each with the reason: ``[(header, reason)]``."""
    printed = {id(c) for c in [*plan.words, *plan.short, *plan.numbers, *plan.images[:4], *plan.extra_text, *plan.flags]}
    out = []
    for c in plan.columns:
        if c.role in ("type", "name", "title", "text") or id(c) in printed:
            continue
        out.append((c.header, "the number of copies of each card" if c.role == "quantity" else
                    "a fifth column of file names: four fit" if c in plan.images else "its cells are empty"))
    return out


def images_beside(sheet: Path, plan: SheetPlan) -> dict[str, list[str]]:
    """Per image field of ``plan``, the file names (as the sheet writes them) found beside
    ``sheet``: relative paths inside the sheet's folder that name a file."""
    found: dict[str, list[str]] = {}
    folder = sheet.resolve().parent
    for field, values in plan.image_values.items():
        here = []
        for value in values:
            path = (folder / value).resolve()
            if path.is_file() and folder in path.parents and not Path(value).is_absolute():
                here.append(value)
        if here:
            found[field] = here
    return found


def new_from_sheet(root: Path, new: NewGame, sheet: Path, type_column: str | None = None,
                   choices: Choices | None = None) -> tuple[list[Path], SheetPlan]:
    """Write a pack for the spreadsheet ``sheet`` under project folder ``root``; returns the files
    written and the plan (its ``guesses`` say what was inferred). ``choices`` carries the
    designer's options and the question asker (:class:`~cardforge.scaffold.sheetplan.Choices`).
    Raises :class:`ScaffoldError` before writing anything when it cannot."""
    if not SLUG.match(new.slug):
        raise ScaffoldError([diag("slug-invalid", f"{new.slug!r} is not a valid game pack name",
                                  hint="use lowercase letters, digits and hyphens, for example `my-game`")])
    display = display_path(sheet)
    try:
        raw, used, skipped = sheet_as_csv(sheet, display, choices.sheets if choices is not None else None)
        csv_name = f"{sheet.stem}.csv"
        table: Table = table_from_csv(raw, display)
    except SourceError as exc:
        raise ScaffoldError(exc.diagnostics) from None
    plan, problems = plan_sheet(table, type_column, choices)
    if plan is None:
        raise ScaffoldError(problems)
    if used or skipped:
        by_reason: dict[str, list[str]] = {}
        for name, why in skipped:
            by_reason.setdefault(why, []).append(repr(name))
        plan.guesses.insert(0, Guess("worksheets", f"cards from {', '.join(map(repr, used))}" + "".join(
            f"; not cards: {', '.join(names)} ({why})" for why, names in by_reason.items()),
            "--sheet NAME, once per worksheet"))
    pack = root / "cards" / new.slug
    targets = [pack / "game.yaml", pack / csv_name, *(pack / f for f in SHARED_FILES), root / "layouts" / f"{new.slug}.yaml"]
    clashes = [p for p in [pack, *targets] if p.exists()]
    if clashes:
        raise ScaffoldError([diag("pack-exists", f"{display_path(clashes[0])} already exists; nothing was written",
                                  file=display_path(clashes[0]), hint="choose another name, or remove the old pack first")])
    ctx = {**_context(new), "icon_example": "the ones you declare under `icons:` in game.yaml"}
    for target in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
    (pack / "game.yaml").write_text(game_yaml(new, plan, csv_name), encoding="utf-8")
    (pack / csv_name).write_bytes(raw)
    for name in SHARED_FILES:
        (pack / name).write_text(_render(f"pack/{name}", ctx), encoding="utf-8")
    found = images_beside(sheet, plan)
    for value in sorted({v for values in found.values() for v in values}):  # the pictures the layout prints
        target = pack / value
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sheet.resolve().parent / value, target)
    targets[-1].write_text(layout_yaml(new, plan, found), encoding="utf-8")
    for column in plan.images:
        have = len(found.get(column.field, []))
        total = len(plan.image_values.get(column.field, []))
        plan.guesses.append(Guess("pictures", f"column {column.header!r}: {have} of {total} files found beside the sheet"
                                  + (" (copied into the pack)" if have else "") + (", a draft placeholder for the others"
                                                                                   if have < total else ""),
                                  f"put the files beside {sheet.name}"))
    plan.guesses += [Guess("not printed", f"{header!r}: {reason}", f"layouts/{new.slug}.yaml")
                     for header, reason in not_printed(plan)]
    return targets, plan
