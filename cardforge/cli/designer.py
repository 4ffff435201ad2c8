"""Commands for bringing your own game: ``new``, ``import``, ``export-cards``, ``schema``.

Each command parses its options and calls a library function (:mod:`cardforge.scaffold`,
:mod:`cardforge.sources`, :mod:`cardforge.validation.export`); :func:`register` adds them to
the ``cardforge`` command. Refusals and problems are diagnostics on standard error with a
non-zero exit, never a traceback.
"""
from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from cardforge.util.diagnostics import SOURCE_UNREADABLE, Diagnostic, diag, display_path, has_errors
from cardforge.util.report import print_diagnostics, summary
from cardforge.cli.options import Root

err = Console(stderr=True)


def _fail(problems: list[Diagnostic]) -> None:
    print_diagnostics(err, problems)
    err.print(summary(problems), highlight=False)
    raise typer.Exit(1)


def new(
    slug: Annotated[str, typer.Argument(help="The game pack's folder name: lowercase letters, digits and hyphens (my-game).", show_default=False)],
    title: Annotated[Optional[str], typer.Option(help="The game's title (default: from the slug, my-game -> My Game).")] = None,
    players: Annotated[str, typer.Option(help="Player count, MIN-MAX (2-4) or one number (1 for solitaire).")] = "2-4",
    card_size: Annotated[str, typer.Option("--card-size", help="A size preset (poker, poker-metric, bridge, mini-euro, mini-usa, tarot, square) or WIDTHxHEIGHT in mm (70x120).")] = "poker",
    sheet: Annotated[Optional[Path], typer.Option("--from", help="Make the pack from this spreadsheet (.csv, .xlsx, .ods or .json, a row per card): its card types, fields, counts and a layout, with the sheet kept as the pack's CSV card file.", dir_okay=False)] = None,
    type_column: Annotated[Optional[str], typer.Option("--type-column", help="With --from: the column holding each card's type (default: a column named type, kind or category, or holding one of those words; one card type when there is none, or when there is a deck column).")] = None,
    deck_column: Annotated[Optional[str], typer.Option("--deck-column", help="With --from: the column saying which pile each card is shuffled into; each value gets its own back (default: a column named deck, back, pile or set, or holding one of those words; `none`: no such column).")] = None,
    name_column: Annotated[Optional[str], typer.Option("--name-column", help="With --from: the column holding each card's name (default: name, title or card, or a header holding name or title).")] = None,
    text_column: Annotated[Optional[str], typer.Option("--text-column", help="With --from: the column printed in the card's text box (default: a header holding text, or rules, effect, ability, description, else the longest text).")] = None,
    one_back: Annotated[Optional[bool], typer.Option("--one-back/--back-per-type", help="With --from and a type column: one back for every card (the types shuffled together), or a back per card type, each its own pile (default: a back per type for up to 5 types, else one).", show_default=False)] = None,
    sheets: Annotated[Optional[list[str]], typer.Option("--sheet", help="With --from a workbook: a worksheet that holds cards (repeat for several; default: the card lists, not the tables of figures).")] = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="With --from: take every guess without asking (it asks only on a terminal, and only when unsure).")] = False,
    root: Root = Path("."),
) -> None:
    """Start a new game pack: cards/SLUG/ (game.yaml, cards.yaml with two example cards, sheet.md,
    rulebook.md, icons/) and layouts/SLUG.yaml, every file commented for a first reader, plus the
    editor schemas in schemas/SLUG/. It checks clean and builds as it stands: edit it from there.

    With --from SHEET, the pack is made from your spreadsheet instead of example cards: a card type
    per value of the type column, a field per column (integer, number, a few repeated words as a
    choice, text; optional where cells are blank), the copies column as quantity, a component per
    card type with its count, a layout printing the name, the numbers as badges and the text in a
    box, and a back per card type. The sheet becomes cards/SLUG/SHEET.csv, read with the mapping
    under `sources:` in game.yaml; blank rows and a row holding one stray value are skipped.

    Nothing is written when the pack or its layout exists already."""
    from cardforge.scaffold import NewGame, ScaffoldError, new_pack, parse_card_size, parse_players

    for option, value in (("--type-column", type_column), ("--deck-column", deck_column), ("--name-column", name_column),
                          ("--text-column", text_column), ("--one-back", one_back), ("--sheet", sheets)):
        if value is not None and sheet is None:
            raise typer.BadParameter(f"{option} is about the sheet given with --from", param_hint=option)

    try:
        spec = NewGame(slug=slug, title=title or slug.replace("-", " ").title(),
                       players=parse_players(players), card_size=parse_card_size(card_size))
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    try:
        if sheet is not None:
            from cardforge.scaffold.fromsheet import new_from_sheet

            if not sheet.is_file():
                _fail([diag(SOURCE_UNREADABLE, f"{sheet} does not exist", file=str(sheet))])
            from cardforge.scaffold.sheetplan import Choices

            choices = Choices(type_column=type_column, deck_column=deck_column, name_column=name_column,
                              text_column=text_column, one_back=one_back, sheets=sheets or None,
                              ask=None if yes or not sys.stdin.isatty() else _ask)
            written, plan = new_from_sheet(root.resolve(), spec, sheet, type_column, choices)
        else:
            written = new_pack(root.resolve(), spec)
    except ScaffoldError as exc:
        _fail(exc.diagnostics)
    written += _schemas(root.resolve(), [slug])
    for path in written:
        err.print(f"[green]wrote[/] {display_path(path)}", highlight=False)
    if sheet is not None:
        _print_guesses(plan.guesses)
    err.print(f"next: edit cards/{slug}/, then `cardforge check {slug}` and `cardforge build {slug}`", highlight=False)


def _ask(question: str, options: list[str], default: str) -> str:
    """Ask on the terminal which of ``options``; Enter takes ``default``."""
    err.print(question, highlight=False)
    for i, option in enumerate(options, 1):
        err.print(f"  {i}. {option}{' (guess)' if option == default else ''}", highlight=False)
    while True:
        number = typer.prompt("number", default=options.index(default) + 1, type=int, err=True)
        if 1 <= number <= len(options):
            return options[number - 1]


def _print_guesses(guesses) -> None:
    """What ``new --from`` inferred, a line each with the option that changes it."""
    from rich.markup import escape

    err.print("What the sheet was read as (change with):", highlight=False)
    width = max(len(g.what) for g in guesses)
    for guess in guesses:
        err.print(f"  {guess.what:<{width}}  {escape(guess.answer)}  [dim]({escape(guess.option)})[/]",
                  highlight=False, soft_wrap=True)


def _schemas(root: Path, slugs: list[str] | None) -> list[Path]:
    """Write the editor schemas of the packs ``slugs`` and keep the modeline on the first line
    of each pack's YAML files (game.yaml, card files, errata.yaml, the layout file); a pack
    that does not load is a failure. Returns the files written or changed."""
    from cardforge.build import Project
    from cardforge.layout import SIZE_PRESETS_MM, layout_path
    from cardforge.sources.errata import ERRATA_FILE, SCHEMA as ERRATA_SCHEMA
    from cardforge.sources.load import load_game
    from cardforge.sources.packfonts import font_keys
    from cardforge.sources.yamlfile import read_yaml
    from cardforge.validation.export import keep_modeline, modeline, write_schemas

    project = Project(root)
    packs, problems = project.packs(slugs)
    written = []
    for pack in packs:
        game, found = load_game(pack)
        if game is None:
            problems += found
            continue
        layout_file = layout_path(project.layouts, game.slug)
        layout, _, _ = read_yaml(layout_file) if layout_file.is_file() else (None, None, [])
        own_sizes = list((layout.get("sizes") or {}) if isinstance(layout, dict) else {})
        own_layout = bool(own_sizes or game.fonts)  # narrows the layout schema: the pack's own copy
        written += write_schemas(game, root, own_layout, sizes=[*SIZE_PRESETS_MM, *own_sizes], fonts=list(font_keys(game)),
                                 errata=ERRATA_SCHEMA)
        files = [("game", pack / "game.yaml")]
        files += [("errata" if p.name == ERRATA_FILE else "cards", p) for p in sorted(pack.glob("*.yaml"))
                  if p.name != "game.yaml" and p.is_file()]
        files += [("layout", layout_file)] if layout_file.is_file() else []
        for kind, path in files:
            if keep_modeline(path, modeline(kind, game.slug, "layout" if kind == "layout" else "card", own_layout)):
                written.append(path)
    if has_errors(problems):
        _fail(problems)
    return written


def schema(
    games: Annotated[Optional[list[str]], typer.Argument(help="Game pack slugs; all packs when omitted.", show_default=False)] = None,
    root: Root = Path("."),
) -> None:
    """Write JSON Schemas for editors to schemas/GAME/: game.schema.json, layout.schema.json,
    cards.schema.json (every card type's schema, chosen by the card's `type`) and
    errata.schema.json, and put the line pointing to its schema first in each of the pack's
    YAML files (game.yaml, card files, errata.yaml, layouts/GAME.yaml).

    A YAML file whose first line is `# yaml-language-server: $schema=../../schemas/GAME/cards.schema.json`
    gets completion and red underlines in VS Code's YAML extension. Run it again after changing
    card_types or fonts in game.yaml or sizes in the layout: a layout's size and an element's
    font accept only the names check accepts."""
    for path in _schemas(root.resolve(), games):
        err.print(f"[green]wrote[/] {display_path(path)}", highlight=False)


def _game(root: Path, slug: str):
    from cardforge.build import Project
    from cardforge.sources.load import load_game

    packs, problems = Project(root).packs([slug])
    if problems:
        _fail(problems)
    game, problems = load_game(packs[0])
    if game is None:
        _fail(problems)
    return game


def import_cards(
    game: Annotated[str, typer.Argument(help="Game pack slug (a folder of cards/).", show_default=False)],
    file: Annotated[Path, typer.Argument(help="The spreadsheet: .csv (UTF-8), .xlsx, or .json (a list of rows, or Squib's columns).", show_default=False, dir_okay=False)],
    mapping: Annotated[Optional[Path], typer.Option("--mapping", help="A YAML mapping file (default: game.yaml `sources: {FILE: ...}`).", dir_okay=False)] = None,
    into: Annotated[Optional[str], typer.Option("--into", help="The card file to write in the pack (default: FILE's name with .yaml).")] = None,
    root: Root = Path("."),
) -> None:
    """Import a spreadsheet's rows as cards of GAME, into cards/GAME/<file>.yaml.

    Each row is a card: columns named like the card type's fields feed them (rename others with the
    mapping's `columns:`); a `type` column (or the mapping's `type:`/`sheets:`) gives the card type;
    qty/quantity/copies/count is the quantity; blank cells are left out; numbers are converted where
    the card type's schema says integer or number; `lists:` splits list columns; `icons:` turns words
    into icon tokens (Wood -> {wood}). Importing the same file again replaces its cards and keeps the
    fields listed under `keep:`. Problems are reported by cell (deck.xlsx:Sheet1:C12) and nothing is
    written while the sheet has errors."""
    from cardforge.sources.importer import import_file, mapping_for

    loaded = _game(root.resolve(), game)
    if not file.is_file():
        _fail([diag(SOURCE_UNREADABLE, f"{file} does not exist", file=str(file))])
    chosen, problems = mapping_for(loaded, file.name, mapping)
    if chosen is None:
        _fail(problems)
    result = import_file(loaded, file, chosen, into)
    if result.written is None:
        _fail(result.diagnostics)
    print_diagnostics(err, result.diagnostics)
    kept = f", {result.kept} kept field{'s' if result.kept != 1 else ''}" if result.kept else ""
    err.print(f"[green]wrote[/] {display_path(result.written)} ({result.cards} cards{kept})", highlight=False)
    err.print(f"next: `cardforge check {game}`", highlight=False)


class SheetFormat(str, enum.Enum):
    csv = "csv"
    xlsx = "xlsx"


def export_cards(
    game: Annotated[str, typer.Argument(help="Game pack slug.", show_default=False)],
    format: Annotated[SheetFormat, typer.Option("--format", help="xlsx: one workbook, a sheet per card type; csv: a file per card type.")] = SheetFormat.xlsx,
    out: Annotated[Optional[Path], typer.Option("--out", help="Folder to write to (default: output/GAME/spreadsheet/).", file_okay=False)] = None,
    root: Root = Path("."),
) -> None:
    """Write GAME's cards as a spreadsheet: a sheet (or CSV file) per card type, a row per card.

    A column per field; lists and mappings as JSON. A pack whose cards come from one sheet (a CSV
    card file with its game.yaml `sources:` mapping) gets that one sheet back instead, with its own
    column names in their order (computed fields left out, the quantity in its column). Beside it,
    cards.mapping.yaml imports it back unchanged: `cardforge import GAME FILE --mapping
    cards.mapping.yaml`. Cards are exported as printed (errata are applied when building)."""
    from cardforge.sources.export import export_cards as write

    root = root.resolve()
    loaded = _game(root, game)
    for path in write(loaded, out or root / "output" / game / "spreadsheet", format.value):
        err.print(f"[green]wrote[/] {display_path(path)}", highlight=False)


def pull(
    game: Annotated[str, typer.Argument(help="Game pack slug (a folder of cards/).", show_default=False)],
    source: Annotated[Optional[str], typer.Option("--source", metavar="FILE", help="Only this file of game.yaml `sources:` (default: every one with a `url:`).")] = None,
    root: Root = Path("."),
) -> None:
    """Fetch the pack's sheet from where you keep it: each file of game.yaml `sources:` whose
    mapping has a `url:` (a Google Sheets link, or any https URL answering with the sheet) is
    downloaded and written over cards/GAME/FILE, and cards/GAME/.pulled.txt records where and
    when. Only `pull` opens the network: build, check and serve read the files in the pack.
    A failure (no network, an HTTP error, a web page instead of a sheet) leaves the pack's
    file as it was."""
    from cardforge.build import Project
    from cardforge.sources.pull import PullError, pull as fetch

    packs, problems = Project(root.resolve()).packs([game])
    if problems:
        _fail(problems)
    try:
        pulled = fetch(packs[0], source)
    except PullError as exc:
        _fail(exc.diagnostics)
    for item in pulled:
        err.print(f"[green]pulled[/] {display_path(item.path)} ({item.rows} rows) from {item.url}", highlight=False)
    err.print(f"next: `cardforge check {game}`", highlight=False)


def register(app: typer.Typer) -> None:
    """Add the commands of this module to the ``cardforge`` command."""
    app.command("new")(new)
    app.command("schema")(schema)
    app.command("import")(import_cards)
    app.command("export-cards")(export_cards)
    app.command("pull")(pull)
