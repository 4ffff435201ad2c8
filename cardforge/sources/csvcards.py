"""CSV card files: ``cards/<slug>/*.csv`` read directly, so the spreadsheet stays the source of truth.

Each CSV file is converted with the mapping game.yaml declares for it under ``sources:``
(see :mod:`cardforge.sources.mapping`) and yields the same :class:`~cardforge.model.Card`
values a YAML card file does. Every card keeps a line map whose lines are the file's rows
and whose columns are its columns, so schema errors and checks report ``deck.csv:12:3``
(row 12, column 3) as YAML's report ``file:line:column``.
"""
from __future__ import annotations

from pathlib import Path

from cardforge.util.diagnostics import Diagnostic
from cardforge.model import Card, Game, Source
from cardforge.sources.convert import Converter
from cardforge.sources.mapping import Mapping
from cardforge.sources.tables import SourceError, read_tables
from cardforge.util.yamlsource import LineMap


class CellMap(LineMap):
    """A line map over a CSV file: a value's place is its cell (row, column), whatever the
    character offset inside the cell."""

    def in_string(self, path, value: str, offset: int) -> tuple[int, int]:
        return self.locate(path)


def load_csv_cards(game: Game, path: Path, display: str) -> list[Diagnostic]:
    """Add the cards of the CSV file ``path`` to ``game``; returns the problems found."""
    try:
        tables = read_tables(path, display)
    except SourceError as exc:
        return exc.diagnostics
    mapping = Mapping.from_data((game.data.get("sources") or {}).get(path.name),
                                Source(game.source.file, game.source.lines, ("sources", path.name)))
    converter = Converter(game, mapping)
    lines = CellMap(Path(display))
    for table in tables:
        for row in converter.rows(table):
            index = len([c for c in game.cards if c.source.file == display])
            base = ("cards", index)
            lines.positions[base] = lines.key_positions[base] = (row.row, 1)
            for field, cell in row.cells.items():
                lines.positions[base + (field,)] = lines.key_positions[base + (field,)] = (cell.row, cell.column)
            data = row.data
            quantity = data.get("quantity", 1)
            game.cards.append(Card(name=data["name"], type=data["type"], quantity=quantity if isinstance(quantity, int) else 1,
                                   data=data, source=Source(display, lines, base)))
    return converter.problems
