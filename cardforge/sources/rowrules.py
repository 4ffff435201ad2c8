"""What a mapping computes from a row: ``computed:`` fields and ``skip_when:``, in the sandbox.

A template of ``computed:`` (``name: "{{ picture | stem | title }}"``) or the expression of
``skip_when:`` (``"not name"``) sees the row's cells by column name (``Art File``, also as
``art_file``) and by the field each feeds (``name``, ``type``), plus ``row``, the row's
number; a cell holding a number is a number, a blank cell is undefined. They run in the
budgeted sandbox of :mod:`cardforge.sandbox`. A template that does not parse, or names a
column the sheet does not have, is reported once at its key in the mapping and no row of the
table is read; one that fails on a row is reported at the key, naming the row, and that row
is left out.
"""
from __future__ import annotations

import re
from typing import Any

from cardforge.util.diagnostics import SOURCE_COMPUTED, Diagnostic, diag
from cardforge.sources.mapping import Mapping, normal
from cardforge.sources.tables import Cell, Table
from cardforge.util.suggest import did_you_mean

_INT = re.compile(r"^[+-]?\d+$")
_NUM = re.compile(r"^[+-]?(\d+\.\d*|\.\d+)$")


def _number(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip()
        if _INT.match(text):
            return int(text)
        if _NUM.match(text):
            return float(text)
        return text
    return value


class RowRules:
    """The ``computed:`` and ``skip_when:`` of ``mapping`` over the columns of ``table``.

    ``fields`` is the field each column feeds (as :meth:`Converter.header` names them, with
    ``type_marker`` for the type column). ``broken`` is true when a template cannot run at
    all: the table's rows are then not read (the problem is reported once).
    """

    def __init__(self, mapping: Mapping, table: Table, fields: list[str], type_marker: str, problems: list[Diagnostic]):
        self.mapping = mapping
        self.table = table
        self.problems = problems
        self.names: list[tuple[int, list[str]]] = []  # column index -> the names it goes by
        for index, cell in enumerate(table.header):
            header = "" if cell.value is None else str(cell.value).strip()
            if not header:
                continue
            field = fields[index] if index < len(fields) else header
            aliases = [header, normal(header), "type" if field == type_marker else field]
            self.names.append((index, list(dict.fromkeys(a for a in aliases if a and not a.startswith("\0")))))
        known = {n for _, names in self.names for n in names} | {"row"}
        self.templates: dict[str, Any] = {}
        self.columns: dict[str, int] = {}  # computed field -> the column its value is placed at
        self.uses: dict[str, set[int]] = {}  # computed field -> the columns (1-based) its template reads
        self.skip = None
        self.broken = False
        for field, source in mapping.computed.items():
            compiled = self._compile(source, known, ("computed", field), f"computed field {field!r}", expression=False)
            if compiled is not None:
                self.templates[field], used = compiled
                self.uses[field] = {i + 1 for i, names in self.names if set(names) & used}
                self.columns[field] = min(self.uses[field], default=1)
        if mapping.skip_when:
            compiled = self._compile(mapping.skip_when, known, ("skip_when",), "skip_when", expression=True)
            if compiled is not None:
                self.skip = compiled[0]

    def _compile(self, source: str, known: set[str], keys: tuple, what: str, expression: bool):
        import jinja2
        from jinja2 import meta

        from cardforge import sandbox

        try:
            parsed = sandbox.ENV.parse(("{{ " + source + " }}") if expression else source)
            compiled = sandbox.expression(source) if expression else sandbox.template(source)
        except jinja2.TemplateSyntaxError as exc:
            self._fail(f"the mapping's {what} does not parse: {exc.message}", keys,
                       hint="a template is jinja2: {{ column | filter }}; skip_when is one expression, without {{ }}")
            return None
        used = meta.find_undeclared_variables(parsed) - set(sandbox.ENV.globals)
        unknown = sorted(used - known)
        if unknown:
            columns = [n for _, names in self.names for n in names]
            self._fail(f"the mapping's {what} names {unknown[0]!r}, which is not a column of {self._sheet()}", keys,
                       hint=did_you_mean(unknown[0], columns) or f"the columns: {', '.join(names[0] for _, names in self.names)}")
            return None
        return compiled, used

    def _fail(self, message: str, keys: tuple, hint: str = "", row: int = 0) -> None:
        where = self.mapping.where(*keys) or self.table.where(row or (self.table.header[0].row if self.table.header else 1))
        self.problems.append(diag(SOURCE_COMPUTED, message, hint=hint, **where))
        if not row:
            self.broken = True

    def _sheet(self) -> str:
        from pathlib import PurePath

        return PurePath(self.table.file).name + (f":{self.table.sheet}" if self.table.sheet else "")

    def _row(self, row: int) -> str:
        place = self.table.where(row)
        return f"{place['file']}:{place['line']}" if "line" in place else place["file"]

    def context(self, cells: list[Cell], row: int) -> dict[str, Any]:
        """What the templates see of one row."""
        out: dict[str, Any] = {"row": row}
        for index, names in self.names:
            value = cells[index].value if index < len(cells) else None
            if value is None or (isinstance(value, str) and not value.strip()):
                continue
            for name in names:
                out[name] = _number(value)
        return out

    def skipped(self, context: dict[str, Any], row: int) -> bool:
        """True when ``skip_when`` holds for the row (or fails on it: reported, and the row left out)."""
        if self.skip is None:
            return False
        from cardforge.sandbox.budget import BudgetExceeded
        from cardforge.sandbox import TemplateFailure

        try:
            return bool(self.skip(**context))
        except (TemplateFailure, BudgetExceeded) as exc:
            self._fail(f"the mapping's skip_when fails on {self._row(row)}: {exc}", ("skip_when",), row=row)
            return True

    def computed(self, context: dict[str, Any], row: int) -> dict[str, Cell] | None:
        """The computed fields of the row as cells (None when one fails: reported)."""
        from cardforge.sandbox.budget import BudgetExceeded
        from cardforge.sandbox import TemplateFailure, evaluate

        out = {}
        for field, compiled in self.templates.items():
            try:
                value = evaluate(compiled.render, context).strip()
            except (TemplateFailure, BudgetExceeded) as exc:
                self._fail(f"the mapping's computed field {field!r} fails on {self._row(row)}: {exc}",
                           ("computed", field), row=row)
                return None
            out[field] = Cell(value, row, self.columns[field])
        return out
