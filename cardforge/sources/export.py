"""``cardforge export-cards``: the card database as a spreadsheet, one sheet (or CSV file) per card type.

Columns are ``name``, ``type``, ``quantity`` and then every other field in the order the
cards first use them; a field a card does not have is a blank cell. Lists and mappings are
written as JSON text. Beside the sheets, ``cards.mapping.yaml`` is the mapping to import
them back with: it forces JSON reading (``convert:``) for every field whose values the card
type's schema alone would not bring back unchanged, so ``cardforge import`` of the export
gives the same cards (cards as printed: errata are applied at build time, not exported).
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


def export_cards(game: Game, out: Path, fmt: str) -> list[Path]:
    """Write the spreadsheet of ``game`` into folder ``out``; ``fmt`` is "csv" or "xlsx".

    Returns the files written: ``cards.xlsx`` (one sheet per card type) or ``<type>.csv``
    per card type, and ``cards.mapping.yaml``.
    """
    out.mkdir(parents=True, exist_ok=True)
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
