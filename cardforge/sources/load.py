"""Stage 1, load: a game pack folder -> :class:`~cardforge.model.Game` plus diagnostics.

Loading reads ``cards/<slug>/game.yaml`` and every other ``*.yaml`` card file of the pack
(except ``errata.yaml``), keeps the source line of every value, and checks the pack's
structure against cardforge's schema of game packs. It never validates cards against their
type schemas (stage 2, :mod:`cardforge.validation.cards`) and never draws.
"""
from __future__ import annotations

import re

from pathlib import Path

from cardforge.util.diagnostics import (CARD_DUPLICATE, CARD_TYPE_UNKNOWN, PACK_MISSING, PACK_STRUCTURE, SCHEMA,
                                        VALUE_TOO_LARGE, Diagnostic, diag, display_path, has_errors)
from cardforge.model import Card, CardType, Game, Icon, Source
from cardforge.util.paths import GAME_FILE, find_packs, resolve_inside  # noqa: F401  (find_packs: part of this module's API)
from cardforge.validation import validate_game_file
from cardforge.sources.yamlfile import read_yaml  # noqa: F401  (part of this module's API)

MAX_QUANTITY = 1000  # copies of one card
NOT_CARD_FILES = {GAME_FILE, "errata.yaml"}


def load_game(pack: Path) -> tuple[Game | None, list[Diagnostic]]:
    """Load the game pack in folder ``pack``.

    Returns ``(game, diagnostics)``; ``game`` is ``None`` when game.yaml itself cannot be
    used. Card files with errors are reported and skipped, so one run reports every
    problem of the pack.
    """
    game_path = pack / GAME_FILE
    if not game_path.is_file():
        return None, [diag(PACK_MISSING, f"no {GAME_FILE} in {display_path(pack)}", file=display_path(pack))]
    inside = resolve_inside(pack, GAME_FILE, file=display_path(game_path), what=GAME_FILE)
    if isinstance(inside, Diagnostic):
        return None, [inside]
    data, source, problems = read_yaml(game_path)
    if source is None:
        return None, problems
    if not isinstance(data, dict):
        return None, [diag(PACK_STRUCTURE, "game.yaml must be a mapping", file=source.file, line=1)]
    problems += validate_game_file(data, source)
    if has_errors(problems):
        return None, problems
    icons, icon_problems = _icons(data, pack, source)
    problems += icon_problems
    from cardforge.sources.packfonts import pack_fonts

    fonts, font_problems = pack_fonts(data, pack, source)
    problems += font_problems
    game = Game(slug=pack.name, root=pack, data=data, source=source,
                card_types=_card_types(data, source), icons=icons, fonts=fonts)
    for path in sorted(pack.glob("*.yaml")):
        if path.name in NOT_CARD_FILES:
            continue
        inside = resolve_inside(pack, path.name, file=display_path(path), what="card file")
        if isinstance(inside, Diagnostic):
            problems.append(inside)
            continue
        game.card_files.append(display_path(path))
        file_problems = _load_card_file(game, path)
        if has_errors(file_problems) and not any(c.source.file == display_path(path) for c in game.cards):
            game.unread[display_path(path)] = "cards"
        problems += file_problems
    for path in sorted(pack.glob("*.csv")):  # spreadsheet card files (cardforge.sources)
        from cardforge.sources.csvcards import load_csv_cards

        game.card_files.append(display_path(path))
        file_problems = load_csv_cards(game, path, display_path(path))
        if has_errors(file_problems) and not any(c.source.file == display_path(path) for c in game.cards):
            game.unread[display_path(path)] = "cards"
        problems += file_problems
    problems += _duplicates(game)
    return game, problems


def _card_types(data: dict, source: Source) -> dict[str, CardType]:
    types = {}
    for type_id, spec in data["card_types"].items():
        types[type_id] = CardType(
            id=type_id, label=spec["label"], description=spec.get("description", ""),
            back=spec.get("back", "deck"), schema=spec["schema"], layout=spec.get("layout"),
            source=Source(source.file, source.lines, ("card_types", type_id)))
    return types


def _icons(data: dict, pack: Path, source: Source) -> tuple[dict[str, Icon], list[Diagnostic]]:
    icons, problems = {}, []
    for name, spec in (data.get("icons") or {}).items():
        svg = None
        if spec.get("svg"):
            svg = resolve_inside(pack, spec["svg"], file=source.file, line=source.line("icons", name, "svg"),
                                 column=source.column("icons", name, "svg"), what=f"icon {name!r} file")
            if isinstance(svg, Diagnostic):
                problems.append(svg)
                svg = None
        icons[name] = Icon(name=name, label=spec["label"], svg=svg,
                           text=spec.get("text"), color=spec.get("color", "#000000"),
                           glyph=spec.get("glyph"), badge=spec.get("badge"), stat=bool(spec.get("stat")),
                           legend=spec.get("legend", True) is not False)
    return icons, problems


def _load_card_file(game: Game, path: Path) -> list[Diagnostic]:
    data, source, problems = read_yaml(path)
    if source is None:
        return problems
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        return [diag(PACK_STRUCTURE, "a card file must be a mapping with a `cards:` list",
                     file=source.file, line=1, hint="start the file with `cards:` and list one card per `- name: ...`")]
    for i, entry in enumerate(data["cards"]):
        card_source = Source(source.file, source.lines, ("cards", i))
        if not isinstance(entry, dict):
            problems.append(diag(PACK_STRUCTURE, "a card must be a mapping of fields",
                                 file=source.file, line=card_source.line()))
            continue
        name, type_id = entry.get("name"), entry.get("type")
        if not isinstance(name, str) or not isinstance(type_id, str):
            missing = "name" if not isinstance(name, str) else "type"
            problems.append(diag(SCHEMA, f"card #{i + 1} has no `{missing}` string",
                                 file=source.file, line=card_source.line()))
            continue
        if type_id not in game.card_types:
            from cardforge.util.suggest import did_you_mean

            problems.append(diag(CARD_TYPE_UNKNOWN, f"card {name!r} has type {type_id!r}, which game.yaml does not declare",
                                 file=source.file, line=card_source.line("type"), column=card_source.column("type"),
                                 hint=did_you_mean(type_id, game.card_types)))
            continue
        quantity = entry.get("quantity", 1)
        if isinstance(quantity, int) and not isinstance(quantity, bool) and quantity > MAX_QUANTITY:
            problems.append(diag(VALUE_TOO_LARGE, f"card {name!r} has quantity {quantity:,}; a card is printed "
                                 f"at most {MAX_QUANTITY:,} times", file=source.file,
                                 line=card_source.line("quantity"), column=card_source.column("quantity"), card=name))
            quantity = 1
        game.cards.append(Card(name=name, type=type_id, quantity=quantity if isinstance(quantity, int) else 1,
                               data=entry, source=card_source))
    return problems


ID_FIELD = re.compile(r"^(?:card_?)?(?:id|no|num|number|code)(?:_\d+)?$", re.IGNORECASE)


def _duplicate_hint(first: Card, card: Card) -> str:
    """How to tell two cards of one name apart: by a field whose values differ (an id column
    first), through the sheet mapping's computed name; or enter a true repeat once."""
    differ = [k for k in card.data if k not in ("name", "quantity", "type") and not isinstance(card.data[k], (dict, list))
              and first.data.get(k) != card.data[k]]
    field = next((k for k in differ if ID_FIELD.match(k)), differ[0] if differ else None)
    if field is None:
        return "enter a repeated card once, with `quantity:` (or a copies column)"
    if str(card.source.file).lower().endswith((".csv", ".xlsx", ".ods", ".json")) or "row" in card.data:
        return (f"if these are two cards, tell them apart by `{field}` ({first.data.get(field)!r}, {card.data[field]!r}) "
                f"in game.yaml's `sources:` mapping: rename the name column to `title` (`columns: {{Name: title}}`) and "
                f"compute the name, `computed: {{name: \"{{{{ title }}}} ({{{{ {field} }}}})\"}}`; a true repeat is one row "
                "with a copies column")
    return (f"if these are two cards, give them names that differ (they differ in `{field}`); a true repeat is "
            "entered once, with `quantity:`")


def _duplicates(game: Game) -> list[Diagnostic]:
    seen: dict[str, Card] = {}
    problems = []
    for card in game.cards:
        if card.id in seen:
            first = seen[card.id]
            problems.append(diag(CARD_DUPLICATE,
                                 f"{card.label} is entered twice (first at {first.source.file}:{first.source.line()})",
                                 file=card.source.file, line=card.source.line("name"),
                                 hint=_duplicate_hint(first, card)))
        else:
            seen[card.id] = card
    return problems
