"""Spreadsheet rows -> card dicts, each value converted as its card type's schema says.

A row becomes a card: its columns renamed by the mapping, blank cells omitted (never
``null``), the quantity column (``qty``, ``quantity``, ``copies``, ``count``) read as
``quantity``, numbers converted where the schema says integer or number (``"3"`` -> 3),
booleans where it says boolean, list fields split on their separator, ``[...]``/``{...}``
cells read as JSON where the schema says array or object, and mapped words turned into
icon tokens (``Wood`` -> ``{wood}``). Every problem is a diagnostic on its cell.
"""
from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from cardforge.util.diagnostics import SOURCE_COLUMN, SOURCE_MAPPING, SOURCE_VALUE, Diagnostic, diag
from cardforge.model import Game
from cardforge.sources.mapping import QUANTITY_NAMES, FieldInfo, Mapping, TypeSchema, normal
from cardforge.sources.rowrules import RowRules
from cardforge.sources.tables import Cell, Table, column_letter
from cardforge.util.suggest import did_you_mean

_INT = re.compile(r"^[+-]?\d+$")
_NUM = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
TRUE, FALSE = {"true", "yes", "y", "x", "1"}, {"false", "no", "n", "0", ""}
TYPE = "\0type"  # the column holding each row's card type
SKIP = "\0skip"


@dataclass
class Row:
    """A card made from one row: its data, the table and row it came from, and the cell of each field."""

    data: dict[str, Any]
    table: Table
    row: int
    cells: dict[str, Cell]

    @property
    def label(self) -> str:
        """``deck.xlsx:Sheet1 row 12`` / ``deck.csv row 12``: where the card came from."""
        sheet = f":{self.table.sheet}" if self.table.sheet else ""
        return f"{PurePath(self.table.file).name}{sheet} row {self.row if self.table.kind != 'json' else self.row - 1}"


class Converter:
    """Converts the tables of one spreadsheet for ``game`` with ``mapping``."""

    def __init__(self, game: Game, mapping: Mapping):
        self.game = game
        self.mapping = mapping
        defs = game.data.get("schema_defs") or {}
        self.schemas = {t: TypeSchema(ct.schema, defs) for t, ct in game.card_types.items()}
        self.fields = {f for s in self.schemas.values() for f in s.fields} | {"name", "type", "quantity"}
        self.problems: list[Diagnostic] = []
        self._warned: set = set()
        self.icon_words = ({w: n for w, n in mapping.icons.items()} if mapping.icons else {})
        self._icon_re = (re.compile("|".join(_bounded(w) for w in sorted(self.icon_words, key=len, reverse=True)),
                                    re.IGNORECASE) if self.icon_words else None)

    def type_of(self, value: Any) -> str | None:
        """A card type id from a cell or sheet name: its id, its label, or the mapping's ``type_values``."""
        if value is None:
            return None
        text = str(value).strip()
        if text in self.mapping.type_values:
            return self.mapping.type_values[text]
        wanted = {normal(text), normal(text).removesuffix("s")}  # a sheet named "Events" holds events
        for type_id, card_type in self.game.card_types.items():
            if wanted & {normal(type_id), normal(card_type.label)}:
                return type_id
        return None

    def header(self, table: Table) -> list[str]:
        """The field each column feeds (``SKIP`` for none, ``TYPE`` for the type column)."""
        renames = {normal(k): v for k, v in self.mapping.columns.items()}
        skip = {normal(s) for s in self.mapping.skip}
        type_column = normal(self.mapping.type_column or "type")
        quantity = {normal(self.mapping.quantity)} if self.mapping.quantity else set(QUANTITY_NAMES)
        out = []
        for cell in table.header:
            name = "" if cell.value is None else str(cell.value).strip()
            key = normal(name)
            if not name or key in skip:
                out.append(SKIP)
            elif key in renames:
                out.append(renames[key] or SKIP)
            elif key == type_column:
                out.append(TYPE)
            elif key in quantity:
                out.append("quantity")
            elif name in self.fields:
                out.append(name)
            else:
                out.append(next((f for f in self.fields if normal(f) == key), name))
        if self.mapping.type_column and TYPE not in out:
            self.problems.append(diag(SOURCE_MAPPING, f"the mapping's type_column {self.mapping.type_column!r} is not a column of "
                                      f"{table.file}{':' + table.sheet if table.sheet else ''}",
                                      **table.where(table.header[0].row if table.header else 1),
                                      hint=did_you_mean(self.mapping.type_column, [str(c.value) for c in table.header if c.value])))
        return out

    def table_type(self, table: Table) -> str | None:
        if table.sheet is not None and table.sheet in self.mapping.sheets:
            return self.mapping.sheets[table.sheet]
        if table.sheet is not None and self.type_of(table.sheet):
            return self.type_of(table.sheet)
        if self.mapping.type is None and len(self.game.card_types) == 1:
            return next(iter(self.game.card_types))  # a game with one card type
        return self.mapping.type

    def rows(self, table: Table) -> list[Row]:
        """Every data row of ``table`` as a card (rows with errors are reported and left out)."""
        if not table.header or (table.sheet is not None and table.sheet in self.mapping.sheets
                                and self.mapping.sheets[table.sheet] is None):
            return []  # an empty sheet, or one the mapping skips (`sheets: {Notes: null}`)
        fields = self.header(table)
        default_type = self.table_type(table)
        rules = RowRules(self.mapping, table, fields, TYPE, self.problems)
        if rules.broken:
            return []  # a computed field or skip_when that cannot run: reported once, at the mapping
        skip_rows = set(self.mapping.skip_rows)
        out = []
        for cells in table.rows:
            row_no = cells[0].row if cells else 0
            if row_no in skip_rows:
                continue
            context = rules.context(cells, row_no)
            if rules.skipped(context, row_no):
                continue
            if self.stray(table, fields, cells, row_no, rules.uses.get("name")):
                continue
            by_field = {f: c for f, c in zip(fields, cells) if f != SKIP}
            computed = rules.computed(context, row_no)
            if computed is None:
                continue
            by_field.update({(TYPE if f == "type" else f): c for f, c in computed.items()})
            type_cell = by_field.pop(TYPE, None)
            type_id = default_type
            if type_cell is not None and _blank(type_cell.value) is False:
                type_id = self.type_of(type_cell.value)
                if type_id is None:
                    self.problems.append(diag(SOURCE_VALUE, f"{type_cell.value!r} is not a card type of {self.game.slug}",
                                              **table.where(row_no, type_cell.column),
                                              hint=did_you_mean(str(type_cell.value), [*self.game.card_types,
                                                                *(ct.label for ct in self.game.card_types.values())])
                                              or "name the card types in the mapping's `type_values:`"))
                    continue
            if type_id is None:
                self.problems.append(diag(SOURCE_VALUE, "this row has no card type", **table.where(row_no),
                                          hint="add a `type` column, or set `type:` (or `sheets:`) in the mapping"))
                continue
            data = self.card(table, type_id, by_field, row_no)
            if data is not None:
                out.append(Row(data, table, row_no, {**by_field, **({"type": type_cell} if type_cell else {})}))
        return out

    def stray(self, table: Table, fields: list[str], cells: list[Cell], row_no: int, name_columns: set[int] | None) -> bool:
        """A row holding one lone cell that can make no card (a stray value): reported by its cell.
        ``name_columns``: the columns a computed name reads (None when the name is not computed)."""
        filled = [c for c in cells if not _blank(c.value)]
        if len(filled) != 1:
            return False
        cell = filled[0]
        field = fields[cell.column - 1] if cell.column <= len(fields) else SKIP
        if field == TYPE or (field == "name" and name_columns is None) or cell.column in (name_columns or set()):
            return False
        header = table.header[cell.column - 1].value if cell.column <= len(table.header) else None
        column = f"column {str(header).strip()!r} ({column_letter(cell.column)})" if not _blank(header) \
            else f"column {column_letter(cell.column)}, which has no header"
        self.problems.append(diag(SOURCE_VALUE, f"row {row_no} holds nothing but {cell.value!r}, in {column}: "
                                  "it makes no card", **table.where(row_no, cell.column),
                                  hint=f"a stray value? delete cell {column_letter(cell.column)}{row_no} in the sheet, "
                                       f"or skip the row with `skip_rows: [{row_no}]` in the mapping"))
        return True

    def card(self, table: Table, type_id: str, cells: dict[str, Cell], row_no: int) -> dict[str, Any] | None:
        schema = self.schemas[type_id]
        data: dict[str, Any] = {}
        known = set(schema.fields) | {"name", "type", "quantity"}
        for name, cell in cells.items():
            if _blank(cell.value):
                continue
            if schema.closed and name not in known:
                if (table.file, table.sheet, name, type_id) not in self._warned:
                    self._warned.add((table.file, table.sheet, name, type_id))
                    self.problems.append(diag(SOURCE_COLUMN, f"column {name!r} is not a field of card type {type_id!r}; "
                                              "it is not imported", **table.where(table.header[0].row, cell.column),
                                              hint=did_you_mean(name, schema.fields) or
                                              f"rename it (`columns: {{{name}: FIELD}}`) or list it under `skip:` in the mapping"))
                continue
            info = FieldInfo({"integer"}, set()) if name == "quantity" else schema.info(name)
            ok, value = self.value(name, cell.value, info)
            if not ok:
                self.problems.append(diag(SOURCE_VALUE, f"{name}: {value}", **table.where(cell.row, cell.column)))
                continue
            data[name] = value
        if "name" not in data:
            self.problems.append(diag(SOURCE_VALUE, "this row has no name", **table.where(row_no),
                                      hint="every card needs a name: add a `name` column, rename one in the mapping "
                                           "(`columns: {Title: name}`) or compute it (`computed: {name: \"{{ picture | stem }}\"}`)"))
            return None
        data["name"] = str(data["name"])
        ordered = {"name": data.pop("name"), "type": type_id}
        data.pop("type", None)
        if "quantity" in data:
            ordered["quantity"] = data.pop("quantity")
        ordered.update(data)
        return ordered

    def value(self, name: str, raw: Any, info: FieldInfo | None) -> tuple[bool, Any]:
        """``(True, converted)`` or ``(False, message)`` for the cell ``raw`` of field ``name``."""
        forced = self.mapping.convert.get(name)
        if forced:
            return _forced(raw, forced)
        if isinstance(raw, (dt.datetime, dt.date)):
            raw = raw.date().isoformat() if isinstance(raw, dt.datetime) else raw.isoformat()
        types = info.types if info else set()
        if name in self.mapping.lists or ("array" in types and isinstance(raw, str) and not raw.strip().startswith("[")
                                          and not (types & {"string", "integer", "number", "boolean"})):
            sep = self.mapping.lists.get(name, ",")
            items = [p.strip() for p in str(raw).split(sep)] if isinstance(raw, str) else [raw]
            out = []
            for item in items:
                if item == "":
                    continue
                ok, v = _scalar(item, info.item_types if info else set())
                if not ok:
                    return False, v
                out.append(self.iconise(name, v))
            return True, out
        ok, v = _scalar(raw, types)
        return (ok, self.iconise(name, v) if ok else v)

    def iconise(self, name: str, value: Any) -> Any:
        """Mapped words in a text value become icon tokens."""
        if not self._icon_re or not isinstance(value, str) or name in ("name", "type"):
            return value
        if self.mapping.icon_fields is not None and name not in self.mapping.icon_fields:
            return value
        lower = {w.lower(): n for w, n in self.icon_words.items()}
        return self._icon_re.sub(lambda m: "{" + lower[m.group(0).lower()] + "}", value)


def _bounded(word: str) -> str:
    """A pattern for ``word`` as a whole word: not inside a longer word or an icon token where it
    begins or ends with a letter or digit (a symbol, such as an emoji, matches after a digit: ``-1🪙``)."""
    return ((r"(?<![\w{])" if re.match(r"\w", word) else "") + re.escape(word)
            + (r"(?![\w}])" if re.search(r"\w$", word) else ""))


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _scalar(raw: Any, types: set[str]) -> tuple[bool, Any]:
    """One cell value converted to the first JSON type of ``types`` it fits."""
    if isinstance(raw, bool):
        return True, raw
    if isinstance(raw, (int, float)):
        if "integer" in types and float(raw).is_integer():
            return True, int(raw)
        if types and not types & {"integer", "number"} and "string" in types:
            return True, str(int(raw)) if float(raw).is_integer() else str(raw)
        return True, int(raw) if isinstance(raw, float) and raw.is_integer() and "number" not in types else raw
    if not isinstance(raw, str):
        return True, raw
    text = raw.strip()
    if "integer" in types and _INT.match(text):
        return True, int(text)
    if "number" in types and _NUM.match(text):
        number = float(text)
        return True, int(number) if _INT.match(text) else number
    if "boolean" in types and text.lower() in TRUE | FALSE:
        return True, text.lower() in TRUE
    if types & {"array", "object"} and text[:1] in "[{":
        try:
            return True, json.loads(text)
        except json.JSONDecodeError as exc:
            return False, f"{text[:30]!r} is not valid JSON ({exc.msg})"
    if types and "string" not in types and not types <= {"null"}:
        wanted = " or ".join(sorted(types - {"null"}))
        return False, f"{text!r} is not {'an' if wanted[0] in 'aeiou' else 'a'} {wanted}"
    return True, text


def _forced(raw: Any, kind: str) -> tuple[bool, Any]:
    if _blank(raw):
        return True, None
    if kind == "json":
        if not isinstance(raw, str):
            return True, raw
        try:
            return True, json.loads(raw)
        except json.JSONDecodeError as exc:
            return False, f"{raw[:30]!r} is not valid JSON ({exc.msg})"
    return _scalar(raw, {kind})
