"""``cardforge import GAME FILE``: a spreadsheet (CSV, XLSX, JSON) into a YAML card file.

The cards go to ``cards/<slug>/<file stem>.yaml``, which records ``imported_from:`` and,
above each card, the row it came from. Importing the same spreadsheet again replaces that
file's cards; fields the mapping lists under ``keep:`` are taken from the current YAML
(hand edits survive). A card file that did not come from this spreadsheet is never
overwritten (``import-refused``). Nothing is written when the sheet has errors.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardforge.util.diagnostics import IMPORT_REFUSED, SOURCE_MAPPING, Diagnostic, diag, has_errors
from cardforge.util.diagnostics import display_path
from cardforge.sources.yamlfile import read_yaml
from cardforge.model import Game
from cardforge.sources.convert import Converter, Row
from cardforge.sources.mapping import Mapping
from cardforge.sources.tables import SourceError, read_tables


@dataclass
class ImportResult:
    written: Path | None
    cards: int = 0
    kept: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)


def mapping_for(game: Game, file_name: str, mapping_file: Path | None) -> tuple[Mapping | None, list[Diagnostic]]:
    """The mapping from ``mapping_file`` (YAML), else game.yaml ``sources.<file_name>``, else none."""
    if mapping_file is not None:
        data, source, problems = read_yaml(mapping_file)
        if source is None:
            return None, problems
        from cardforge.validation import validate
        from cardforge.sources.schema import mapping_validator

        problems = validate(data or {}, mapping_validator(), source, code=SOURCE_MAPPING)
        return (None, problems) if problems else (Mapping.from_data(data, source), [])
    return game_mapping(game, file_name), []


def game_mapping(game: Game, file_name: str) -> Mapping:
    """The mapping game.yaml declares for the spreadsheet ``file_name`` (an empty one when none)."""
    from cardforge.model import Source

    return Mapping.from_data((game.data.get("sources") or {}).get(file_name),
                             Source(game.source.file, game.source.lines, ("sources", file_name)))


def convert_file(game: Game, path: Path, mapping: Mapping) -> tuple[list[Row], list[Diagnostic]]:
    """Every card of the spreadsheet ``path`` with the problems found in it."""
    try:
        tables = read_tables(path, display_path(path) if path.is_absolute() else str(path))
    except SourceError as exc:
        return [], exc.diagnostics
    converter = Converter(game, mapping)
    for type_id in {mapping.type, *mapping.sheets.values(), *mapping.type_values.values()} - {None}:
        if type_id not in game.card_types:
            from cardforge.util.suggest import did_you_mean

            converter.problems.append(diag(SOURCE_MAPPING, f"the mapping names card type {type_id!r}, which game.yaml does not declare",
                                           hint=did_you_mean(type_id, game.card_types)))
    if has_errors(converter.problems):
        return [], converter.problems
    rows = [row for table in tables for row in converter.rows(table)]
    return rows, converter.problems


class _Dumper(yaml.SafeDumper):
    pass


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def dump_cards(cards: list[dict[str, Any]], notes: list[str], header: list[str], extra: dict[str, Any]) -> str:
    """A card file: ``header`` comment lines, ``extra`` top-level keys, then ``cards:`` with a
    comment line from ``notes`` above each card."""
    out = [*header, ""]
    for key, value in extra.items():
        out.append(yaml.dump({key: value}, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100).rstrip())
    out.append("cards:")
    for card, note in zip(cards, notes):
        text = yaml.dump([card], Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
        if note:
            out.append(f"  # {note}")
        out.extend("  " + line if line else line for line in text.rstrip("\n").split("\n"))
    return "\n".join(out) + "\n"


def import_file(game: Game, path: Path, mapping: Mapping, into: str | None = None) -> ImportResult:
    """Import the spreadsheet ``path`` into ``game``'s pack; see the module docstring."""
    from cardforge.validation.export import modeline

    rows, problems = convert_file(game, path, mapping)
    if has_errors(problems):
        return ImportResult(None, diagnostics=problems)
    target = game.root / (into or f"{path.stem}.yaml")
    if target.suffix != ".yaml" or target.name in ("game.yaml", "errata.yaml") or target.parent != game.root:
        return ImportResult(None, diagnostics=problems + [diag(IMPORT_REFUSED, f"cannot import into {target.name}, "
                                                                "which is not a card file; nothing was written",
                                                                hint="choose the card file with --into, for example --into cards.yaml")])
    old: dict[tuple[str, str], dict] = {}
    if target.exists():
        data, source, found = read_yaml(target)
        if source is None:
            return ImportResult(None, diagnostics=problems + found)
        if not isinstance(data, dict) or data.get("imported_from") != path.name:
            return ImportResult(None, diagnostics=problems + [diag(
                IMPORT_REFUSED, f"{display_path(target)} exists and was not imported from {path.name}; nothing was written",
                file=display_path(target), hint="import into another file with --into NAME.yaml, or move the file away")])
        for card in data.get("cards") or []:
            if isinstance(card, dict):
                old[(str(card.get("type")), str(card.get("name")))] = card
    kept = 0
    cards, notes = [], []
    for row in rows:
        card = row.data
        before = old.get((card["type"], card["name"]))
        for name in mapping.keep:
            if before is not None and name in before:
                card[name] = before[name]
                kept += 1
        cards.append(card)
        notes.append(row.label)
    header = [modeline("cards", game.slug),
              f"# Imported from {path.name} by `cardforge import {game.slug} {path.name}`: importing it again",
              "# replaces these cards (fields listed under the mapping's `keep:` are kept from this file)."]
    target.write_text(dump_cards(cards, notes, header, {"imported_from": path.name}), encoding="utf-8")
    return ImportResult(target, len(cards), kept, problems)
