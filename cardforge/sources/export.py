"""``cardforge export-cards``: the card database as a spreadsheet, one sheet (or CSV file) per card type,
or, for a pack whose cards all come from one sheet (a CSV card file read with its ``sources:``
mapping), that one sheet again as the designer keeps it.

Columns are ``name``, ``type``, ``quantity`` and then every other field in the order the
cards first use them; a field a card does not have is a blank cell. Lists and mappings are
written as JSON text. Beside the sheets, ``cards.mapping.yaml`` is the mapping to import
them back with: it forces JSON reading (``convert:``) for every field whose values the card
type's schema alone would not bring back unchanged, so ``cardforge import`` of the export
gives the same cards (cards as printed: errata are applied at build time, not exported).

The designer's sheet (:func:`designer_sheet`) keeps the sheet's own column names in their
order: each column holds the field its mapping reads from it (the type column the type as
the sheet spelt it, or its label; the quantity column the quantity, blank where the sheet
left it blank; a list field joined with its separator, icon tokens back to the words the
mapping turns into icons). A column the mapping skips, or whose field the mapping computes
(``computed:``, which may read the column itself), holds the designer's own cell from the
pack's sheet, so every source column comes back and the computed fields are worked out
again, the same, when the export is read; a field no column holds comes after the sheet's
columns. Its mapping is the pack's own, less ``skip_rows`` (the stray rows are not
written), so reading the export with it gives the same cards.
"""
from __future__ import annotations

import csv
import json
import re
from pathlib import Path
from typing import Any

import yaml

from cardforge.model import Card, Game
from cardforge.sources.convert import Converter
from cardforge.sources.mapping import Mapping

FIRST = ("name", "type", "quantity")
_SHEET_BAD = re.compile(r"[\[\]:*?/\\]")


def columns(cards: list[Card]) -> list[str]:
    """The columns of a card type's sheet: name, type, quantity, then fields in order of first use."""
    seen: dict[str, None] = {c: None for c in FIRST}
    for card in cards:
        for key in card.data:
            seen.setdefault(str(key), None)
    return list(seen)


def _plain(value: Any) -> Any:
    """A cell's native value (xlsx): scalars as they are, lists and mappings as JSON."""
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return value


def _text(value: Any) -> str:
    """A cell as CSV text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    value = _plain(value)
    return value if isinstance(value, str) else str(value)


def export_mapping(game: Game) -> Mapping:
    """The mapping that imports this export back unchanged (``convert: json`` where needed)."""
    converter = Converter(game, Mapping())
    forced: dict[str, str] = {}
    for card in game.cards:
        schema = converter.schemas[card.type]
        for key, value in card.data.items():
            if key in ("name", "type") or key in forced:
                continue
            if value is None or (isinstance(value, str) and value.strip() != value) or value == "":
                forced[key] = "json"
                continue
            info = None if key == "quantity" else schema.info(key)
            if key == "quantity":
                from cardforge.sources.mapping import FieldInfo

                info = FieldInfo({"integer"}, set())
            for cell in (_text(value), _plain(value)):
                ok, back = converter.value(key, cell, info)
                if not ok or back != value or type(back) is not type(value):
                    forced[key] = "json"
                    break
    return Mapping(convert=dict(sorted(forced.items())))


MISSING = object()


def _cell(value: Any, key: str, mapping: Mapping, native: bool) -> Any:
    if value is MISSING:
        return None if native else ""
    if key in mapping.convert:
        return json.dumps(value, ensure_ascii=False)
    return _plain(value) if native else _text(value)


def sheet_name(type_id: str, used: set[str]) -> str:
    name = _SHEET_BAD.sub("-", type_id)[:31] or "cards"
    base, n = name, 2
    while name in used:
        name = f"{base[:28]}-{n}"
        n += 1
    used.add(name)
    return name


def designer_sheet(game: Game) -> tuple[str, Mapping, list[str], list[list[Any]]] | None:
    """The one sheet every card of ``game`` comes from, as its designer keeps it: (file name,
    its mapping as export writes it, header, rows of cell values); None when the cards do not
    all come from one CSV card file with a ``sources:`` mapping."""
    from cardforge.sources.convert import SKIP, TYPE
    from cardforge.sources.tables import SourceError, read_tables

    files = {c.source.file for c in game.cards}
    sources = game.data.get("sources") or {}
    if len(files) != 1 or len(game.card_files) != 1 or not game.card_files[0].lower().endswith(".csv"):
        return None
    path = game.root / Path(game.card_files[0]).name
    if path.name not in sources or next(iter(files)) != game.card_files[0]:
        return None
    try:
        (table,) = read_tables(path, game.card_files[0])
    except (SourceError, ValueError):
        return None
    mapping = Mapping.from_data(sources[path.name])
    converter = Converter(game, mapping)
    fields = converter.header(table)
    header = ["" if c.value is None else str(c.value) for c in table.header]
    while header and not header[-1] and fields and fields[-1] == SKIP:
        header.pop()
        fields.pop()
    held = set(fields) | set(mapping.computed) | {"type", "name"}
    extra = list(dict.fromkeys(str(k) for c in game.cards for k in c.data if k not in held))
    spelt = {v: k for k, v in mapping.type_values.items()}
    words = {}
    for word, icon in (mapping.icons or {}).items():
        words.setdefault(icon, word)
    by_row = {cells[0].row: cells for cells in table.rows if cells}
    rows = []
    for card in game.cards:
        row = []
        sheet_row = by_row.get(card.source.line()) or []
        for i, field in enumerate(fields + extra):
            if field == SKIP or field in mapping.computed:  # the designer's own cell: computed again when read
                row.append(sheet_row[i].value if i < len(fields) and i < len(sheet_row) else None)
            elif field == TYPE:
                row.append(spelt.get(card.type) or game.card_types[card.type].label)
            else:
                row.append(_sheet_value(card.data.get(field, MISSING), field, mapping, words))
        rows.append(row)
    exported = Mapping(**{**{k: getattr(mapping, k) for k in mapping.__dataclass_fields__ if k != "origin"},
                          "skip_rows": []})
    return path.name, exported, header + extra, rows


def _sheet_value(value: Any, field: str, mapping: Mapping, words: dict[str, str]) -> Any:
    """A card's value as the designer's sheet holds it (see :func:`designer_sheet`)."""
    if value is MISSING:
        return None
    if field in mapping.convert and mapping.convert[field] == "json":
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list) and all(not isinstance(v, (list, dict)) for v in value):
        sep = mapping.lists.get(field, ",")
        joiner = sep + " " if sep in (",", ";") else sep  # the reader strips each item
        return joiner.join(_worded(_text(v), field, mapping, words) for v in value)
    if isinstance(value, str):
        return _worded(value, field, mapping, words)
    return _plain(value)


def _worded(text: str, field: str, mapping: Mapping, words: dict[str, str]) -> str:
    """Icon tokens back to the words the mapping turns into them (``{wood}`` -> ``Wood``)."""
    if not words or field in ("name", "type") or (mapping.icon_fields is not None and field not in mapping.icon_fields):
        return text
    return re.sub(r"\{([a-z0-9-]+)\}", lambda m: words.get(m.group(1), m.group(0)), text)


def export_cards(game: Game, out: Path, fmt: str) -> list[Path]:
    """Write the spreadsheet of ``game`` into folder ``out``; ``fmt`` is "csv" or "xlsx".

    Returns the files written: for a pack whose cards come from one sheet, that sheet again
    (``<sheet>.csv``, or ``<sheet>.xlsx`` with one sheet; see :func:`designer_sheet`);
    otherwise ``cards.xlsx`` (one sheet per card type) or ``<type>.csv`` per card type; and
    ``cards.mapping.yaml``.
    """
    out.mkdir(parents=True, exist_ok=True)
    sheet = designer_sheet(game)
    if sheet is not None:
        return _write_designer_sheet(game, out, fmt, *sheet)
    mapping = export_mapping(game)
    by_type = {t: game.cards_of(t) for t in game.card_types if game.cards_of(t)}
    written = []
    if fmt == "xlsx":
        from openpyxl import Workbook

        book = Workbook()
        book.remove(book.active)
        used: set[str] = set()
        for type_id, cards in by_type.items():
            sheet = book.create_sheet(sheet_name(type_id, used))
            cols = columns(cards)
            sheet.append(cols)
            for r, card in enumerate(cards, 2):
                for c, key in enumerate(cols, 1):
                    value = _cell(card.data.get(key, MISSING), key, mapping, native=True)
                    if value is None:
                        continue
                    cell = sheet.cell(row=r, column=c, value=value)
                    if isinstance(value, str) and value.startswith("="):
                        cell.data_type = "s"  # text, never a formula
        path = out / "cards.xlsx"
        book.save(path)
        written.append(path)
    else:
        for type_id, cards in by_type.items():
            cols = columns(cards)
            path = out / f"{type_id}.csv"
            with path.open("w", encoding="utf-8-sig", newline="") as handle:
                writer = csv.writer(handle)
                writer.writerow(cols)
                for card in cards:
                    writer.writerow([_cell(card.data.get(key, MISSING), key, mapping, native=False) for key in cols])
            written.append(path)
    path = out / "cards.mapping.yaml"
    path.write_text("# Import these sheets back with:\n"
                    f"#   cardforge import {game.slug} FILE --mapping {path.name}\n"
                    "# `convert: json` marks fields whose cells hold JSON (lists, mappings, exact text).\n"
                    + yaml.safe_dump(mapping.to_data() or {}, sort_keys=False, allow_unicode=True), encoding="utf-8")
    written.append(path)
    return written


def _write_designer_sheet(game: Game, out: Path, fmt: str, name: str, mapping: Mapping, header: list[str],
                          rows: list[list[Any]]) -> list[Path]:
    stem = Path(name).stem
    if fmt == "xlsx":
        from openpyxl import Workbook

        book = Workbook()
        sheet = book.active
        sheet.title = sheet_name(stem, set())
        sheet.append(header)
        for r, row in enumerate(rows, 2):
            for c, value in enumerate(row, 1):
                if value is None:
                    continue
                cell = sheet.cell(row=r, column=c, value=value)
                if isinstance(value, str) and value.startswith("="):
                    cell.data_type = "s"  # text, never a formula
        path = out / f"{stem}.xlsx"
        book.save(path)
    else:
        path = out / f"{stem}.csv"
        with path.open("w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle, lineterminator="\n")
            writer.writerow(header)
            for row in rows:
                writer.writerow(["" if v is None else _text(v) for v in row])
    mapping_path = out / "cards.mapping.yaml"
    mapping_path.write_text(f"# The mapping {game.slug}'s game.yaml declares for {name} (`sources:`), which reads this\n"
                            f"# sheet back: copy it over cards/{game.slug}/{name}, or\n"
                            f"#   cardforge import {game.slug} {path.name} --mapping {mapping_path.name}\n"
                            + yaml.safe_dump(mapping.to_data() or {}, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return [path, mapping_path]
