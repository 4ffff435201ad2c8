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
from typing import Any

from cardforge.util.diagnostics import Diagnostic, diag
from cardforge.sources.mapping import QUANTITY_NAMES, normal
from cardforge.sources.tables import Table, column_letter
from cardforge.util.suggest import did_you_mean

TYPE_NAMES = ("type", "deck", "kind", "category")  # a deck (its own back: one type, a back per deck) before a kind
QUANTITY = (*QUANTITY_NAMES, "number")
NAME_NAMES = ("name", "title", "card_name", "card")
ID_NAMES = ("id", "no", "card_id", "card_no", "number", "num")
ART_NAMES = ("picture", "art", "image", "file", "img", "art_file", "artwork", "illustration", "filename", "file_name")
TEXT_NAMES = ("text", "rules", "rules_text", "effect", "ability", "description")
IMAGE = re.compile(r"\.(png|jpe?g|svg|gif|webp|tiff?)$", re.IGNORECASE)
RESERVED = {"name", "type", "quantity", "layout", "provisional", "source", "note", "id"}
ENUM_MAX = 8  # at most this many distinct words, each used twice or more, make an enum
_INT = re.compile(r"^[+-]?\d+$")
_NUM = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")


@dataclass
class Column:
    """One column of the sheet: its header, the field it feeds and that field's JSON type."""

    index: int  # 0-based
    header: str
    field: str = ""
    kind: str = "string"  # integer, number, enum, string
    enum: list[str] = dc_field(default_factory=list)
    role: str = ""  # type, quantity, name, art, text

    @property
    def letter(self) -> str:
        return column_letter(self.index + 1)


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


def slug(text: str, fallback: str) -> str:
    out = re.sub(r"[^a-z0-9]+", "-", str(text).strip().lower()).strip("-")
    return out if out and out[0].isalnum() else fallback


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else str(value)


def _field_name(header: str, taken: set[str], fallback: str) -> str:
    name = re.sub(r"[^a-z0-9]+", "_", header.lower()).strip("_") or fallback
    if name[0].isdigit():
        name = "f_" + name
    base, n = name, 1
    while name in taken or name in RESERVED:
        n += 1
        name = f"{base}_{n}"
    taken.add(name)
    return name


def _kind(values: list[Any]) -> tuple[str, list[str]]:
    texts = [_text(v) for v in values]
    if not texts:
        return "string", []
    if all(isinstance(v, int) or (isinstance(v, float) and v.is_integer()) or _INT.match(t) for v, t in zip(values, texts)):
        return "integer", []
    if all(isinstance(v, (int, float)) or _NUM.match(t) for v, t in zip(values, texts)):
        return "number", []
    counts: dict[str, int] = {}
    for t in texts:
        counts[t] = counts.get(t, 0) + 1
    if len(counts) <= ENUM_MAX and min(counts.values()) >= 2 and not any("\n" in t or len(t) > 30 for t in counts):
        return "enum", list(counts)
    return "string", []


def _title(stem: str) -> str:
    """What jinja's ``replace('_', ' ') | replace('-', ' ') | title`` makes of a file stem."""
    return re.sub(r"\w+", lambda m: m.group(0)[0].upper() + m.group(0)[1:].lower(),
                  stem.replace("_", " ").replace("-", " ")).strip()


def _stem(value: Any) -> str:
    from cardforge.sandbox import stem

    return stem(_text(value))


def plan_sheet(table: Table, type_column: str | None = None) -> tuple[SheetPlan | None, list[Diagnostic]]:
    """The plan of a pack for ``table`` (None, with diagnostics, when it cannot make one)."""
    columns = [Column(i, _text(c.value)) for i, c in enumerate(table.header) if not _blank(c.value)]
    if not columns:
        return None, [diag("source-value", "the sheet has no header row of column names", **table.where(1))]
    by_key = {normal(c.header): c for c in columns}
    rows = table.rows

    def cell(row: list, column: Column) -> Any:
        return row[column.index].value if column.index < len(row) else None

    type_col = None
    if type_column is not None:
        type_col = by_key.get(normal(type_column))
        if type_col is None:
            return None, [diag("source-mapping", f"--type-column {type_column!r} is not a column of the sheet",
                               **table.where(table.header[0].row),
                               hint=did_you_mean(type_column, [c.header for c in columns])
                               or f"the columns: {', '.join(c.header for c in columns)}")]
    else:
        type_col = next((by_key[n] for n in TYPE_NAMES if n in by_key), None)
    deck = None
    if type_column is None and type_col is not None and normal(type_col.header) == "deck":
        deck, type_col = type_col, None  # decks share their fields and differ in back: one type
    quantity = next((by_key[n] for n in QUANTITY if n in by_key and by_key[n] is not type_col), None)
    name = next((by_key[n] for n in NAME_NAMES if n in by_key and by_key[n] not in (type_col, quantity)), None)
    for column, role in ((type_col, "type"), (quantity, "quantity"), (name, "name")):
        if column is not None:
            column.role, column.field = role, role
    taken: set[str] = set()
    for column in columns:
        if not column.role:
            column.field = _field_name(column.header, taken, f"column_{column.letter.lower()}")
            values = [cell(r, column) for r in rows if not _blank(cell(r, column))]
            column.kind, column.enum = _kind(values)
            if column is deck:
                column.kind, column.enum = "enum", list(dict.fromkeys(_text(v) for v in values))
    art = next((c for c in columns if not c.role and c.kind == "string" and
                (normal(c.header) in ART_NAMES or all(IMAGE.search(_text(cell(r, c)))
                                                     for r in rows if not _blank(cell(r, c))))
                and any(not _blank(cell(r, c)) for r in rows)), None)

    # rows: the stray ones are skipped, the others are cards of a type
    skip_rows: list[int] = []
    types: dict[str, CardTypePlan] = {}
    card_rows: list[tuple[int, str]] = []
    decks: dict[str, int] = {}
    for index, row in enumerate(rows):
        filled = [c for c in row if not _blank(c.value)]
        lone = filled[0] if len(filled) == 1 else None
        lone_column = next((c for c in columns if lone is not None and c.index == lone.column - 1), None)
        if lone is not None and (lone_column is None or lone_column.role not in ("type", "name", "title")) \
                and (name is not None or lone_column is not art):
            skip_rows.append(lone.row)
            continue
        value = cell(row, type_col) if type_col is not None else None
        label = _text(value) if not _blank(value) else ("Card" if type_col is None else "")
        if not label:
            continue  # a card without a type: `cardforge check` reports it on its row
        type_id = slug(label, f"type-{len(types) + 1}")
        plan = types.setdefault(type_id, CardTypePlan(type_id, label))
        plan.rows.append(index)
        count = cell(row, quantity) if quantity is not None else None
        copies = int(_text(count)) if count is not None and _INT.match(_text(count)) else (0 if not _blank(count) else 1)
        plan.count += copies
        if deck is not None and not _blank(cell(row, deck)):
            decks[_text(cell(row, deck))] = decks.get(_text(cell(row, deck)), 0) + copies
        card_rows.append((index, type_id))
    if not types:
        return None, [diag("source-value", "the sheet has no rows of cards below its header", **table.where(table.header[0].row))]

    # the name: a name column, else the art file's name, else the type and row
    computed: dict[str, str] = {}
    title = "name"
    if name is not None:
        names = [_text(cell(rows[i], name)) if not _blank(cell(rows[i], name)) else "" for i, _ in card_rows]
        seen: dict[tuple[str, str], int] = {}
        for (_, t), n in zip(card_rows, names):
            seen[(t, n)] = seen.get((t, n), 0) + 1
        repeated = sorted({n for (_, n), k in seen.items() if k > 1 and n})
        if repeated:  # rows that differ under one name: the face prints it, the card is told apart by its id or row
            name.role, name.field, title = "title", _field_name("title", taken, "title"), "title"
            ident = next((c for c in columns if not c.role and normal(c.header) in ID_NAMES and c.kind == "integer"
                          and len({_text(cell(r, c)) for r in rows if not _blank(cell(r, c))})
                          == len([r for r in rows if not _blank(cell(r, c))])), None)
            suffix = f"' (' ~ {ident.field} ~ ')'" if ident is not None else "' (row ' ~ row ~ ')'"
            computed["name"] = (f"{{{{ {name.field} }}}}{{{{ {suffix} if {name.field} in {repeated!r} else '' }}}}")
            names = [f"{n} ({_text(cell(rows[i], ident)) if ident is not None else rows[i][0].row})" if n in repeated else n
                     for (i, _), n in zip(card_rows, names)]
    else:
        names = [_title(_stem(cell(rows[i], art))) if art is not None and not _blank(cell(rows[i], art)) else ""
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
                                            all(not _blank(cell(rows[i], c)) for i in plan.rows)]
    strings = [c for c in columns if not c.role and c.kind == "string" and c is not art]

    def length(c: Column) -> float:
        found = [len(_text(cell(r, c))) for r in rows if not _blank(cell(r, c))]
        return sum(found) / len(found) if found else 0

    text = next((c for c in strings if "text" in normal(c.header)), None) or \
        next((c for c in strings if normal(c.header) in TEXT_NAMES), None) or \
        max((c for c in strings if length(c) >= 12), key=length, default=None)
    if text is not None:
        text.role = "text"
    mapping: dict[str, Any] = {}
    if type_col is not None and normal(type_col.header) != "type":
        mapping["type_column"] = type_col.header
    if type_col is None:
        mapping["type"] = next(iter(types))
    if quantity is not None and normal(quantity.header) not in QUANTITY_NAMES:
        mapping["quantity"] = quantity.header
    renames = {c.header: c.field for c in columns if not c.role and normal(c.header) != c.field}
    if name is not None and title == "name" and normal(name.header) != "name":
        renames[name.header] = "name"
    if name is not None and title != "name":
        renames[name.header] = title
    icons = symbol_icons([_text(cell(rows[i], c)) for c in columns if c.role in ("", "text", "title") and c.kind == "string"
                          for i, _ in card_rows if not _blank(cell(rows[i], c))])
    if icons:
        mapping["icons"] = {spec["symbol"]: icon for icon, spec in icons.items()}
    if renames:
        mapping["columns"] = renames
    if computed:
        mapping["computed"] = computed
    if skip_rows:
        mapping["skip_rows"] = skip_rows
    return SheetPlan(columns=columns, types=types, mapping=mapping, names=names,
                     numbers=[c for c in columns if not c.role and c.kind in ("integer", "number")],
                     words=[c for c in columns if not c.role and c.kind == "enum"],
                     text=text, skip_rows=skip_rows, deck=deck, decks=decks, title=title,
                     icons={k: {kk: vv for kk, vv in v.items() if kk != "symbol"} for k, v in icons.items()}), []


def field_schema(column: Column) -> dict[str, Any]:
    """The JSON Schema of the field a column feeds."""
    if column.kind == "enum":
        return {"enum": column.enum}
    return {"type": column.kind}


_IGNORED = {0x200D, 0x20E3} | set(range(0xFE00, 0xFE10))  # joiners and variation selectors print nothing


def symbol_icons(texts: list[str]) -> dict[str, dict[str, str]]:
    """Text icons for the symbols in ``texts`` that cardforge's fonts cannot print (emoji, say):
    ``{icon name: {label, text, color, symbol}}``, the name and label from the symbol's Unicode
    name (``🪙`` -> ``coin``, "Coin"), printed as its label's first letter until the designer
    draws it (an SVG) or names a font that has it."""
    import unicodedata

    from cardforge.model.fontmetrics import chars

    printable = chars("sans") & chars("sans-bold")
    found: dict[str, dict[str, str]] = {}
    taken: set[str] = set()
    for text in texts:
        for ch in text:
            if ord(ch) in printable or ord(ch) in _IGNORED or ch.isspace() or any(v["symbol"] == ch for v in found.values()):
                continue
            label = unicodedata.name(ch, f"symbol {ord(ch):04X}").lower()
            base = name = slug(label, f"symbol-{ord(ch):04x}")
            n = 1
            while name in taken:
                n += 1
                name = f"{base}-{n}"
            taken.add(name)
            found[name] = {"label": label.capitalize(), "text": label[0].upper(), "color": "#7a5a12", "symbol": ch}
    return found
