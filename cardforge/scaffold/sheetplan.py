"""What a spreadsheet says about its game, for ``cardforge new SLUG --from SHEET``.

:func:`plan_sheet` reads the rows of the table a pack will keep (its CSV card file) and
works out the card types (from a type column: ``--type-column``, else one named type, kind
or category; one type when there is none, or when the column is a Deck column: decks whose
cards share their fields and differ in back are one card type with a back per deck), the quantity column (copies, quantity,
qty, count, number), the name (a name column, else computed from a column of art file
names, else from the type and row), each column's field and JSON type (integer, number,
an enum of a few repeated words, string; optional where a card type has blank cells), the
rows to skip (a lone stray value), the count of each type, and the mapping game.yaml
declares for the sheet. Nothing here writes a file.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field as dc_field
from typing import Any, Callable

from cardforge.util.diagnostics import SOURCE_MAPPING, SOURCE_VALUE, Diagnostic, diag
from cardforge.scaffold.sheetcolumns import (ART_NAMES, DECK_NAMES, ID_NAMES, IMAGE, INTEGER, MANY_TYPES, MARKS,
                                             NAME_NAMES, QUANTITY, TEXT_NAMES, TYPE_NAMES, UNTYPED, Column, cell_text,
                                             columns_named, header_words, is_blank, json_kind, new_field_name, shorten,
                                             slug, stem_of, title_of)
from cardforge.scaffold.sheeticons import symbol_icons, token_icons
from cardforge.sources.mapping import QUANTITY_NAMES, normal
from cardforge.sources.tables import Table
from cardforge.util.suggest import did_you_mean



@dataclass
class CardTypePlan:
    id: str
    label: str
    rows: list[int] = dc_field(default_factory=list)  # indexes into the table's rows
    count: int = 0
    required: list[str] = dc_field(default_factory=list)


@dataclass
class SheetPlan:
    columns: list[Column]
    types: dict[str, CardTypePlan]
    mapping: dict[str, Any]
    names: list[str]  # every card's name, in row order
    numbers: list[Column]
    words: list[Column]  # enum columns, printed as a line under the name
    text: Column | None
    skip_rows: list[int]
    deck: Column | None = None  # a Deck column: one card type, a back per deck
    decks: dict[str, int] = dc_field(default_factory=dict)  # each deck (as written) -> its cards
    title: str = "name"  # the field the card face prints as its name (title when names repeat)
    icons: dict[str, dict[str, str]] = dc_field(default_factory=dict)  # symbols the fonts lack -> text icons
    backs: str = "one"  # "deck": a back per value of the deck column; "type": a back per card type; "one"
    guesses: list[Guess] = dc_field(default_factory=list)  # what was inferred, for the summary `new` prints
    name_column: Column | None = None
    images: list[Column] = dc_field(default_factory=list)  # columns of image file names (art, icons)
    image_values: dict[str, list[str]] = dc_field(default_factory=dict)  # image field -> the file names it holds
    flags: list[Column] = dc_field(default_factory=list)  # columns only ever marked (X, ✓): printed as their header
    extra_text: list[Column] = dc_field(default_factory=list)  # long text besides the text column (flavour)
    short: list[Column] = dc_field(default_factory=list)  # short text of varied values (printed with the words)


@dataclass
class Guess:
    """One thing ``new --from`` inferred from the sheet: what, the answer, and the option that changes it."""

    what: str
    answer: str
    option: str


@dataclass
class Choices:
    """What the designer said on the command line (None: guess), and how to ask when a guess is unsure.

    ``ask(question, choices, default) -> choice`` is called only for an ambiguous choice and
    only when given (``new`` gives it when standard input is a terminal and ``--yes`` is not set)."""

    type_column: str | None = None
    deck_column: str | None = None  # "none": no deck column
    name_column: str | None = None
    text_column: str | None = None
    one_back: bool | None = None  # True: one back for every card; False: a back per card type
    sheets: list[str] | None = None  # the worksheets of a workbook that become cards (None: the card lists)
    ask: Callable[[str, list[str], str], str] | None = None


def plan_sheet(table: Table, type_column: str | None = None,
               choices: Choices | None = None) -> tuple[SheetPlan | None, list[Diagnostic]]:
    """The plan of a pack for ``table`` (None, with diagnostics, when it cannot make one).

    ``choices`` carries the designer's options (``--deck-column``, ``--name-column``,
    ``--text-column``, ``--one-back``) and the question asker; ``type_column`` is
    ``--type-column``. A column named on the command line that the sheet lacks is a
    ``source-mapping`` error with a did-you-mean hint."""
    choices = choices or Choices(type_column=type_column)
    if type_column is not None:
        choices.type_column = type_column
    guesses: list[Guess] = []
    columns = [Column(i, cell_text(c.value)) for i, c in enumerate(table.header) if not is_blank(c.value)]
    if not columns:
        return None, [diag(SOURCE_VALUE, "the sheet has no header row of column names", **table.where(1))]
    by_key = {normal(c.header): c for c in columns}
    rows = table.rows

    def cell(row: list, column: Column) -> Any:
        return row[column.index].value if column.index < len(row) else None

    def named(option: str, header: str | None) -> Column | None | Diagnostic:
        if header is None:
            return None
        found = by_key.get(normal(header))
        if found is None:
            return diag(SOURCE_MAPPING, f"{option} {header!r} is not a column of the sheet",
                        **table.where(table.header[0].row),
                        hint=did_you_mean(header, [c.header for c in columns])
                        or f"the columns: {', '.join(c.header for c in columns)}")
        return found

    given = {}
    for option, header in (("--type-column", choices.type_column), ("--name-column", choices.name_column),
                           ("--text-column", choices.text_column),
                           ("--deck-column", None if normal(choices.deck_column or "none") == "none" else choices.deck_column)):
        found = named(option, header)
        if isinstance(found, Diagnostic):
            return None, [found]
        given[option] = found

    def values_of(column: Column) -> list[str]:
        return [cell_text(cell(r, column)) for r in rows if not is_blank(cell(r, column))]

    def groups(column: Column) -> bool:  # a few short values, some repeated: cards grouped by it
        values = values_of(column)
        distinct = set(values)
        return bool(values) and len(distinct) <= 12 and (len(distinct) < len(values) or len(values) == 1) \
            and not any(len(v) > 30 or "\n" in v for v in distinct)

    def pick(what: str, found: list[Column], option: str, none: str | None = None) -> Column | None:
        """The first candidate; asked (on a terminal) when there are several, or one that may be nothing."""
        if not found:
            return None
        unsure = len(found) > 1 or (none is not None and normal(found[0].header) not in DECK_NAMES)
        if choices.ask is not None and unsure:
            options = [c.header for c in found] + ([none] if none else [])
            answer = choices.ask(f"Which column is {what}? ({option})", options, found[0].header)
            return next((c for c in found if c.header == answer), None)
        return found[0]

    type_col = given["--type-column"]
    deck = given["--deck-column"]
    if choices.deck_column is None:
        deck = pick("the pile each card is shuffled into (its back)",
                    [c for c in columns_named(columns, DECK_NAMES) if c is not type_col and groups(c)],
                    "--deck-column", none="none: no such column")
    if choices.type_column is None and deck is None:
        type_col = pick("each card's type", [c for c in columns_named(columns, TYPE_NAMES)
                                             if normal(c.header) in TYPE_NAMES or groups(c)], "--type-column")
    quantity = next((by_key[n] for n in QUANTITY if n in by_key and by_key[n] not in (type_col, deck)), None)
    name = given["--name-column"] or pick("each card's name", [
        c for c in columns_named(columns, NAME_NAMES, ("name", "title")) if c not in (type_col, quantity, deck, given["--text-column"])
        and not set(header_words(c.header)) & {"file", "image", "art", "picture", "id"}], "--name-column")
    for column, role in ((type_col, "type"), (quantity, "quantity"), (name, "name")):
        if column is not None:
            column.role, column.field = role, role
    taken: set[str] = set()
    for column in columns:
        if not column.role:
            column.field = new_field_name(column.header, taken, f"column_{column.letter.lower()}")
            values = [cell(r, column) for r in rows if not is_blank(cell(r, column))]
            column.kind, column.enum = json_kind(values)
            if column is deck:
                column.kind, column.enum = "enum", list(dict.fromkeys(cell_text(v) for v in values))
    art = next((c for c in columns if not c.role and c.kind == "string" and
                (normal(c.header) in ART_NAMES or all(IMAGE.search(cell_text(cell(r, c)))
                                                     for r in rows if not is_blank(cell(r, c))))
                and any(not is_blank(cell(r, c)) for r in rows)), None)

    # rows: the stray ones are skipped, the others are cards of a type
    skip_rows: list[int] = []
    types: dict[str, CardTypePlan] = {}
    card_rows: list[tuple[int, str]] = []
    decks: dict[str, int] = {}
    untyped: list[int] = []  # rows of cards whose type cell is blank
    nameless: list[int] = []  # rows with values but no name (a running number, a formula's leftovers)
    for index, row in enumerate(rows):
        filled = [c for c in row if not is_blank(c.value)]
        if name is not None and is_blank(cell(row, name)) and filled and len(filled) > 1:
            nameless.append(row[0].row)
            continue
        lone = filled[0] if len(filled) == 1 else None
        lone_column = next((c for c in columns if lone is not None and c.index == lone.column - 1), None)
        if lone is not None and (lone_column is None or lone_column.role not in ("type", "name", "title")) \
                and (name is not None or lone_column is not art):
            skip_rows.append(lone.row)
            continue
        value = cell(row, type_col) if type_col is not None else None
        label = cell_text(value) if not is_blank(value) else ("Card" if type_col is None else UNTYPED)
        if label == UNTYPED:
            untyped.append(row[0].row)  # a card whose type cell is blank: a type of its own, said in the summary
        type_id = slug(label, f"type-{len(types) + 1}")
        plan = types.setdefault(type_id, CardTypePlan(type_id, label))
        plan.rows.append(index)
        count = cell(row, quantity) if quantity is not None else None
        copies = int(cell_text(count)) if count is not None and INTEGER.match(cell_text(count)) else (0 if not is_blank(count) else 1)
        plan.count += copies
        if deck is not None and not is_blank(cell(row, deck)):
            decks[cell_text(cell(row, deck))] = decks.get(cell_text(cell(row, deck)), 0) + copies
        card_rows.append((index, type_id))
    if not types:
        return None, [diag(SOURCE_VALUE, "the sheet has no rows of cards below its header", **table.where(table.header[0].row))]

    # the name: a name column, else the art file's name, else the type and row
    computed: dict[str, str] = {}
    title = "name"
    if name is not None:
        names = [cell_text(cell(rows[i], name)) if not is_blank(cell(rows[i], name)) else "" for i, _ in card_rows]
        seen: dict[tuple[str, str], int] = {}
        for (_, t), n in zip(card_rows, names):
            seen[(t, n)] = seen.get((t, n), 0) + 1
        repeated = sorted({n for (_, n), k in seen.items() if k > 1 and n})
        if repeated:  # rows that differ under one name: the face prints it, the card is told apart by its id or row
            name.role, name.field, title = "title", new_field_name("title", taken, "title"), "title"
            ident = next((c for c in columns if not c.role and normal(c.header) in ID_NAMES and c.kind == "integer"
                          and len({cell_text(cell(r, c)) for r in rows if not is_blank(cell(r, c))})
                          == len([r for r in rows if not is_blank(cell(r, c))])), None)
            suffix = f"' (' ~ {ident.field} ~ ')'" if ident is not None else "' (row ' ~ row ~ ')'"
            computed["name"] = (f"{{{{ {name.field} }}}}{{{{ {suffix} if {name.field} in {repeated!r} else '' }}}}")
            names = [f"{n} ({cell_text(cell(rows[i], ident)) if ident is not None else rows[i][0].row})" if n in repeated else n
                     for (i, _), n in zip(card_rows, names)]
    else:
        names = [title_of(stem_of(cell(rows[i], art))) if art is not None and not is_blank(cell(rows[i], art)) else ""
                 for i, _ in card_rows]
        unique = len({(t, n) for (_, t), n in zip(card_rows, names)}) == len(names) and all(names)
        if art is not None and unique:
            computed["name"] = f'{{{{ {art.field} | stem | replace("_", " ") | replace("-", " ") | title }}}}'
        else:
            label = "{{ type }}" if type_col is not None else "Card"
            computed["name"] = f"{label} {{{{ row }}}}"
            names = [f"{types[t].label if type_col is not None else 'Card'} {rows[i][0].row}" for i, t in card_rows]

    for plan in types.values():
        plan.required = ["name", "type"] + [c.field for c in columns if (not c.role or c.role == "title") and
                                            all(not is_blank(cell(rows[i], c)) for i in plan.rows)]
    def filled(c: Column) -> list[str]:
        return [cell_text(cell(r, c)) for r in rows if not is_blank(cell(r, c))]

    images = [c for c in columns if not c.role and c.kind in ("string", "enum") and filled(c)
              and all(IMAGE.search(v) for v in filled(c))]
    def stat(c: Column) -> bool:  # short values, mostly numbers (+2, ?, X): a badge, though not a number field
        values = filled(c)
        numeric = [v for v in values if re.fullmatch(r"[+-]?\d+", v)]
        return bool(values) and all(len(v) <= 3 for v in values) and len(numeric) * 2 >= len(values)

    flags = [c for c in columns if not c.role and c.kind in ("enum", "string") and filled(c)
             and all(v.strip().lower() in MARKS for v in filled(c))]
    stats = [c for c in columns if not c.role and c.kind == "string" and c is not art and c not in images
             and c not in flags and stat(c)]
    strings = [c for c in columns if not c.role and c.kind == "string" and c is not art and c not in images
               and c not in stats and c not in flags]

    def length(c: Column) -> float:
        found = [len(cell_text(cell(r, c))) for r in rows if not is_blank(cell(r, c))]
        return sum(found) / len(found) if found else 0

    text = given["--text-column"]
    if text is not None:
        text.kind, text.enum = "string", []
    else:
        named_text = [c for c in strings if "text" in header_words(c.header)] + \
            [c for c in strings if normal(c.header) in TEXT_NAMES and "text" not in header_words(c.header)]
        longest = sorted((c for c in strings if length(c) >= 12 and c not in named_text), key=length, reverse=True)
        text = pick("the card text (printed in a box)", named_text, "--text-column") if len(named_text) > 1 \
            else (named_text or longest or [None])[0]
    if text is not None:
        text.role = "text"
    others = [c for c in strings if c is not text and filled(c)]
    extra_text = [c for c in others if length(c) >= 20 or any(len(v) > 40 or "\n" in v for v in filled(c))]
    short = [c for c in others if c not in extra_text]
    mapping: dict[str, Any] = {}
    if type_col is not None and normal(type_col.header) != "type":
        mapping["type_column"] = type_col.header
    if type_col is None:
        mapping["type"] = next(iter(types))
    elif untyped:
        mapping["type"] = slug(UNTYPED, "untyped")  # the card type of a row whose type cell is blank
    if quantity is not None and normal(quantity.header) not in QUANTITY_NAMES:
        mapping["quantity"] = quantity.header
    renames = {c.header: c.field for c in columns if not c.role and normal(c.header) != c.field}
    if name is not None and title == "name" and normal(name.header) != "name":
        renames[name.header] = "name"
    if name is not None and title != "name":
        renames[name.header] = title
    texts = [cell_text(cell(rows[i], c)) for c in columns if c.role in ("", "text", "title") and c.kind == "string"
             for i, _ in card_rows if not is_blank(cell(rows[i], c))]
    icons = symbol_icons(texts)
    icons.update(token_icons(texts, set(icons)))
    if any(spec["symbol"] for spec in icons.values()):
        mapping["icons"] = {spec["symbol"]: icon for icon, spec in icons.items() if spec["symbol"]}
    if nameless:
        mapping["skip_when"] = f"not {name.field}"
    for c in columns:  # empty braces ({}) are no icon token: printed as written, escaped for the markup
        if c.role in ("", "text") and c.kind == "string" and c.field not in computed and \
                any("{}" in cell_text(cell(rows[i], c)) for i, _ in card_rows if not is_blank(cell(rows[i], c))):
            computed[c.field] = f"{{{{ {c.field} | replace('{{}}', '\\\\{{}}') }}}}"
    if renames:
        mapping["columns"] = renames
    if computed:
        mapping["computed"] = computed
    if skip_rows:
        mapping["skip_rows"] = skip_rows
    # the backs: a back per deck; else a back per card type, unless there are many types (one pile)
    if deck is not None:
        backs = "deck"
    elif len(types) < 2:
        backs = "one"
    elif choices.one_back is not None:
        backs = "one" if choices.one_back else "type"
    else:
        backs = "one" if len(types) > MANY_TYPES else "type"
        if choices.ask is not None:
            one, each = "one back: the types are shuffled together", "a back per card type: each type is its own pile"
            answer = choices.ask(f"The sheet has {len(types)} card types. Are they shuffled together?",
                                 [one, each], one if backs == "one" else each)
            backs = "one" if answer == one else "type"
    type_names = ", ".join(t.label for t in types.values())
    if type_col is not None:
        guesses.append(Guess("card types", f"{len(types)} from column {type_col.header!r}: {shorten(type_names)}",
                             "--type-column"))
    else:
        guesses.append(Guess("card types", "one (no type column)", "--type-column"))
    if backs == "deck":
        guesses.append(Guess("backs and piles", f"a back and a pile per {deck.header!r}: {shorten(', '.join(decks))}",
                             "--deck-column, or none"))
    elif backs == "type":
        guesses.append(Guess("backs and piles", "a back per card type, each type its own pile",
                             "--one-back, --deck-column"))
    else:
        guesses.append(Guess("backs and piles", "one back for every card" + (", the types shuffled together"
                                                                             if len(types) > 1 else ""),
                             "--back-per-type, --deck-column" if len(types) > 1 else "--deck-column"))
    guesses.append(Guess("name", f"column {name.header!r}" if name is not None else
                         (f"from the file names in {art.header!r}" if art is not None and "name" in computed
                          and "stem" in computed["name"] else "the card type and row number"), "--name-column"))
    guesses.append(Guess("text", f"column {text.header!r}" if text is not None else "none", "--text-column"))
    guesses.append(Guess("quantity", f"column {quantity.header!r}" if quantity is not None else "1 of each card",
                         "a Copies column"))
    if art is not None:
        guesses.append(Guess("art", f"column {art.header!r}", "the layout file"))
    if icons:
        guesses.append(Guess("icons", ", ".join(f"{spec['symbol'] or '{' + k + '}'} -> {{{k}}}" for k, spec in icons.items()),
                             "game.yaml icons:"))
    if untyped:
        rows_said = ", ".join(map(str, untyped[:6])) + (" ..." if len(untyped) > 6 else "")
        guesses.append(Guess("no type", f"{len(untyped)} card{'s' if len(untyped) > 1 else ''} with a blank "
                             f"{type_col.header!r} cell (row{'s' if len(untyped) > 1 else ''} {rows_said}): card type "
                             f"{UNTYPED!r}", f"fill the cells, or the mapping's type: {slug(UNTYPED, 'untyped')}"))
    if nameless:
        where = f"row {nameless[0]}" if len(nameless) == 1 else f"rows {nameless[0]}-{nameless[-1]}"
        guesses.append(Guess("rows skipped", f"{len(nameless)} row{'s' if len(nameless) > 1 else ''} without a name ({where})",
                             f"the mapping's skip_when: not {name.field}"))
    return SheetPlan(columns=columns, types=types, mapping=mapping, names=names, backs=backs, guesses=guesses,
                     name_column=name,
                     numbers=[c for c in columns if not c.role and filled(c) and (c.kind in ("integer", "number")
                                                                                  or c in stats)],
                     words=[c for c in columns if not c.role and c.kind == "enum" and c not in images and c not in flags],
                     flags=flags,
                     images=images, extra_text=extra_text, short=short,
                     image_values={c.field: sorted(set(filled(c))) for c in images},
                     text=text, skip_rows=skip_rows, deck=deck, decks=decks, title=title,
                     icons={k: {kk: vv for kk, vv in v.items() if kk != "symbol"} for k, v in icons.items()}), []
