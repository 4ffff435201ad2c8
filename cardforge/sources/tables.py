"""Spreadsheet files read into tables of located cells: CSV, XLSX, ODS and JSON.

:func:`read_tables` returns one :class:`Table` per sheet (a CSV or JSON file is one
table), each row a list of :class:`Cell` that knows its row and column, so every
diagnostic about a value names ``deck.xlsx:Sheet1:C12`` or ``deck.csv:12:3``. A file that
cannot be read (not UTF-8, not a workbook, bad JSON) raises :class:`SourceError` with
diagnostics; nothing here raises anything else for bad input.

A formula cell of a workbook is read as the value the spreadsheet program saved with it
(openpyxl's ``data_only``; an ODS file always stores it). A workbook written by a program
that saves formulas without their values (a script, some converters) would read as blank
cells: a sheet whose formulas all lack a value is refused (``source-unreadable``), naming
the cells and what to do. ODS workbooks (LibreOffice, Google Sheets' download) are read
with python-calamine.

JSON is either a list of rows (objects) or the column-oriented form Squib writes
(``{"name": ["A", "B"], "cost": [1, 2]}``: each key a column, each list its cells).
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardforge.util.paths import InputFileError, read_limited
from cardforge.util.diagnostics import SOURCE_UNREADABLE, Diagnostic, diag

SUFFIXES = (".csv", ".xlsx", ".ods", ".json")


class SourceError(Exception):
    """A spreadsheet file that cannot be read at all; carries its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.format() for d in diagnostics))
        self.diagnostics = diagnostics


def column_letter(index: int) -> str:
    """1 -> A, 27 -> AA (spreadsheet column names)."""
    out = ""
    while index > 0:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


@dataclass(frozen=True)
class Cell:
    """One value with its place: ``row`` and ``column`` are 1-based as a spreadsheet shows them."""

    value: Any
    row: int
    column: int


@dataclass
class Table:
    """A header row and the data rows below it. ``sheet`` is the sheet name (None for CSV/JSON)."""

    file: str
    sheet: str | None
    header: list[Cell]
    rows: list[list[Cell]] = field(default_factory=list)
    kind: str = "csv"  # csv, xlsx, ods or json
    uncached: list[str] = field(default_factory=list)  # formula cells saved without their value (C12, ...)

    def where(self, row: int, column: int = 0) -> dict[str, Any]:
        """Keyword arguments placing a diagnostic on a cell: ``deck.xlsx:Sheet1:C12`` for a
        workbook (file names the sheet and cell), ``deck.csv:12:3`` otherwise."""
        if self.kind == "json":  # rows of a JSON list, counted from 1
            return {"file": f"{self.file}:row {row - 1}"}
        if self.sheet is not None:
            cell = f"{column_letter(column)}{row}" if column else str(row)
            return {"file": f"{self.file}:{self.sheet}:{cell}"}
        return {"file": self.file, "line": row, "column": column}


def read_tables(path: Path, display: str, cached: bool = True) -> list[Table]:
    """Every table of the CSV, XLSX, ODS or JSON file ``path``. Raises :class:`SourceError`,
    also (with ``cached``) for a sheet whose formulas were saved without their values (see
    :func:`refuse_uncached`; ``cached=False`` leaves that to the caller, which may use only
    some sheets)."""
    suffix = path.suffix.lower()
    try:
        raw = read_limited(path, display=display)
    except InputFileError as exc:
        raise SourceError([exc.diagnostic]) from None
    except OSError as exc:
        raise SourceError([diag(SOURCE_UNREADABLE, f"cannot read {display}: {exc.strerror}", file=display)]) from None
    if suffix == ".csv":
        return [_csv(raw, display)]
    if suffix in (".xlsx", ".ods"):
        tables = _xlsx(raw, display) if suffix == ".xlsx" else _ods(raw, display)
        if cached:
            refuse_uncached(tables)
        return tables
    if suffix == ".json":
        return [_json(raw, display)]
    raise SourceError([diag(SOURCE_UNREADABLE, f"{display}: cardforge reads .csv, .xlsx, .ods and .json spreadsheets",
                            file=display, hint="save the sheet as CSV (UTF-8), an Excel workbook (.xlsx) or "
                                               "an OpenDocument spreadsheet (.ods)")])


def refuse_uncached(tables: list[Table]) -> None:
    """Raise :class:`SourceError` naming the formula cells of ``tables`` saved without their
    values (a sheet where none of its formulas has one)."""
    problems = []
    for table in tables:
        if table.uncached:
            shown = ", ".join(table.uncached[:8]) + (f" and {len(table.uncached) - 8} more" if len(table.uncached) > 8 else "")
            problems.append(diag(SOURCE_UNREADABLE,
                                 f"sheet {table.sheet!r} holds formulas saved without their values ({shown}): "
                                 f"they would read as blank cells", file=f"{table.file}:{table.sheet}:{table.uncached[0]}",
                                 hint="open the workbook in Excel or LibreOffice Calc and save it again (that stores "
                                      "each formula's value), or save the sheet as CSV"))
    if problems:
        raise SourceError(problems)


def table_from_csv(raw: bytes, display: str) -> Table:
    """The table of CSV bytes (a CSV file not yet written). Raises :class:`SourceError`."""
    return _csv(raw, display)


def _text(raw: bytes, display: str) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        from cardforge.util.textfile import undecodable

        raise SourceError([undecodable(raw, exc, SOURCE_UNREADABLE, display,
                                       hint="save the spreadsheet as \"CSV UTF-8\"")]) from None


def _csv(raw: bytes, display: str) -> Table:
    text = _text(raw, display)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[list[Cell]] = []
    try:
        for record in reader:
            row = reader.line_num - record_lines(record) + 1
            rows.append([Cell(v, row, c) for c, v in enumerate(record, 1)])
    except csv.Error as exc:
        raise SourceError([diag(SOURCE_UNREADABLE, f"not a CSV file: {exc}", file=display, line=reader.line_num)]) from None
    return _table(display, None, rows)


def record_lines(record: list[str]) -> int:
    """How many physical lines a CSV record spans (quoted cells may hold line breaks)."""
    return 1 + sum(v.count("\n") for v in record)


def _xlsx(raw: bytes, display: str) -> list[Table]:
    import zipfile

    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
        formulas = load_workbook(io.BytesIO(raw), read_only=True, data_only=False)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as exc:
        raise SourceError([diag(SOURCE_UNREADABLE, f"not an Excel workbook (.xlsx): {exc}", file=display)]) from None
    tables = []
    try:
        for sheet, written in zip(book.worksheets, formulas.worksheets):
            rows = []
            with_value, without = 0, []
            for r, (values, sources) in enumerate(zip(sheet.iter_rows(values_only=True),
                                                      written.iter_rows(values_only=True)), 1):
                rows.append([Cell(v, r, c) for c, v in enumerate(values, 1)])
                for c, (v, f) in enumerate(zip(values, sources), 1):
                    if isinstance(f, str) and f.startswith("="):
                        if v is None:
                            without.append(f"{column_letter(c)}{r}")
                        else:
                            with_value += 1
            table = _table(display, sheet.title, rows)
            table.kind = "xlsx"
            table.uncached = without if without and not with_value else []
            tables.append(table)
    finally:
        book.close()
        formulas.close()
    return tables


def _ods(raw: bytes, display: str) -> list[Table]:
    """The sheets of an OpenDocument workbook (.ods), read with python-calamine: each formula
    as the value saved with it, a blank cell as None, rows and columns counted from A1."""
    from python_calamine import CalamineError, CalamineWorkbook, PasswordError, XmlError, ZipError

    try:
        book = CalamineWorkbook.from_filelike(io.BytesIO(raw))
        sheets = [(name, book.get_sheet_by_name(name).to_python(skip_empty_area=False)) for name in book.sheet_names]
    except (CalamineError, PasswordError, XmlError, ZipError, ValueError, OSError) as exc:
        raise SourceError([diag(SOURCE_UNREADABLE, f"not an OpenDocument spreadsheet (.ods): {exc}", file=display)]) from None
    tables = []
    for name, values in sheets:
        rows = [[Cell(None if v == "" else v, r, c) for c, v in enumerate(row, 1)] for r, row in enumerate(values, 1)]
        table = _table(display, name, rows)
        table.kind = "ods"
        tables.append(table)
    return tables


def _json(raw: bytes, display: str) -> Table:
    text = _text(raw, display)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SourceError([diag(SOURCE_UNREADABLE, f"not JSON: {exc.msg}", file=display,
                                line=exc.lineno, column=exc.colno)]) from None
    if isinstance(data, dict) and all(isinstance(v, list) for v in data.values()):  # Squib's columns
        columns = list(data)
        length = max((len(v) for v in data.values()), default=0)
        header = [Cell(c, 1, i) for i, c in enumerate(columns, 1)]
        rows = [[Cell(data[c][r] if r < len(data[c]) else None, r + 2, i) for i, c in enumerate(columns, 1)]
                for r in range(length)]
        return Table(display, None, header, rows, kind="json")
    if isinstance(data, list) and all(isinstance(row, dict) for row in data):
        columns = list(dict.fromkeys(k for row in data for k in row))
        header = [Cell(c, 1, i) for i, c in enumerate(columns, 1)]
        rows = [[Cell(row.get(c), r + 2, i) for i, c in enumerate(columns, 1)] for r, row in enumerate(data)]
        return Table(display, None, header, rows, kind="json")
    raise SourceError([diag(SOURCE_UNREADABLE, "a JSON card source is a list of rows ({column: value}) "
                            "or an object of columns ({column: [values]})", file=display, line=1)])


def _table(display: str, sheet: str | None, rows: list[list[Cell]]) -> Table:
    """The first non-blank row is the header; blank rows are dropped."""
    rows = [r for r in rows if any(_filled(c.value) for c in r)]
    if not rows:
        return Table(display, sheet, [], [])
    return Table(display, sheet, rows[0], rows[1:])


def _filled(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())
