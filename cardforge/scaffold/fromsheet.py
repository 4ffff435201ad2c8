"""``cardforge new SLUG --from SHEET``: a starter pack made from the designer's spreadsheet.

The sheet (CSV, XLSX or JSON) becomes the pack's CSV card file (a CSV sheet is copied as it
is; a workbook or JSON file is written as CSV, a workbook's rows keeping their numbers), and
:mod:`cardforge.scaffold.sheetplan` works out what it holds. Written beside it: game.yaml
(a card type per value of the type column with a JSON Schema of its columns, a component per
card type with its count, a back per card type, the sheet's ``sources:`` mapping; for a Deck
column, one card type whose back is chosen by its deck, a component and a back per deck
printing one face, and a stack per deck),
``layouts/<slug>.yaml`` (the name, the type and enum words under it, the numbers as badges,
the text in a box; a back per card type with its label), and the scaffold's sheet.md,
rulebook.md and icons/. The pack checks clean and builds; the designer refines it from there.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import shutil
from pathlib import Path
from typing import Any

from cardforge.util.diagnostics import PACK_EXISTS, SLUG_INVALID, SOURCE_MAPPING, SOURCE_VALUE, diag, display_path
from cardforge.scaffold import SLUG, NewGame, ScaffoldError, _context, _render
from cardforge.scaffold.sheetcolumns import field_schema
from cardforge.scaffold.sheetlayout import dump_yaml, jinja_literal, layout_yaml
from cardforge.scaffold.sheetplan import Choices, Guess, SheetPlan, plan_sheet
from cardforge.sources.tables import SourceError, Table, read_tables, table_from_csv

SHARED_FILES = ["sheet.md", "rulebook.md"]
PALETTE = [("#2f4f6f", "#f2e6c9"), ("#6d3b2f", "#f6e7d0"), ("#2f5f3f", "#eef5e1"), ("#4b3a6b", "#ece4f6"),
           ("#7a5a12", "#fbf1d2"), ("#1f5a66", "#e0f3f4"), ("#6b2f4f", "#f8e3ee"), ("#3f3f3f", "#eeeeee"),
           ("#5a6b1f", "#f1f5dc")]


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (dt.datetime, dt.date)):
        return value.date().isoformat() if isinstance(value, dt.datetime) else value.isoformat()
    return str(value)


def group_header(table: Table) -> Table:
    """``table`` with a two-row header made one: when the first row only labels groups of columns
    (``Provided`` over Address, Latency; ``Required`` over Address, Latency) and the row under it
    names every column, the header is the second row, each name after its group's label
    (``Provided Address``), so no two columns share a name. Other tables are returned as they are."""
    from dataclasses import replace

    if not table.rows:
        return table
    top = [c for c in table.header if _cell_text(c.value).strip()]
    below = [c for c in table.rows[0] if _cell_text(c.value).strip()]
    if not top or len(top) * 2 > len(below) or not all(isinstance(c.value, str) for c in below):
        return table
    labels: dict[int, str] = {c.column: _cell_text(c.value).strip() for c in top}
    names = [_cell_text(c.value).strip() for c in below]
    if len(set(names)) == len(names) and not any(col in labels for col in (c.column for c in below)):
        return table
    header, group = [], ""
    for c in table.rows[0]:
        group = labels.get(c.column, group)
        name = _cell_text(c.value).strip()
        value = f"{group} {name}" if name and group and c.column >= min(labels) else (name or None)
        header.append(replace(c, value=value))
    return replace(table, header=header, rows=table.rows[1:])


def not_a_card_list(table: Table) -> str | None:
    """Why a worksheet is not a list of cards (None when it looks like one): a header row of at
    least two names, two rows or more, and a column of words (card names), not only figures."""
    header = [c.value for c in table.header if _cell_text(c.value).strip()]
    if len(header) < 2:
        return "fewer than two columns"
    if any(isinstance(v, (int, float)) for v in header):
        return "its first row holds numbers, not column names"
    if len(table.rows) < 2:
        return "fewer than two rows"

    def wordy(index: int) -> bool:
        values = [row[index].value for row in table.rows if index < len(row) and _cell_text(row[index].value).strip()]
        words = [v for v in values if isinstance(v, str) and not v.strip().replace(".", "", 1).lstrip("+-").isdigit()]
        return bool(values) and len(words) * 2 >= len(values)
    if not any(wordy(i) for i in range(len(table.header))):
        return "no column of words: a table of figures"
    return None


def choose_sheets(tables: list[Table], names: list[str] | None, display: str) -> tuple[list[Table], list[tuple[str, str]]]:
    """The worksheets that become cards and those that do not, each with the reason.

    ``names`` (``--sheet``) chooses them; otherwise the first card list (in the workbook's
    order) and every other card list sharing at least half of its columns with it (a sheet per
    card type, when the first has no type or deck column) but not its card names (a sheet
    repeating a fifth of the names of one chosen is another version of it, left out). Raises
    :class:`SourceError` for a ``--sheet`` the workbook lacks."""
    from cardforge.util.suggest import did_you_mean

    if names:
        by_name = {t.sheet: t for t in tables}
        for name in names:
            if name not in by_name:
                raise SourceError([diag(SOURCE_MAPPING, f"--sheet {name!r} is not a worksheet of {display}", file=display,
                                        hint=did_you_mean(name, list(by_name)) or f"the worksheets: {', '.join(map(str, by_name))}")])
        return [by_name[n] for n in names], [(t.sheet or "", "not chosen with --sheet") for t in tables if t.sheet not in names]
    reasons = {id(t): not_a_card_list(t) for t in tables}
    lists = [t for t in tables if reasons[id(t)] is None]
    if not lists:
        return tables[:1], [(t.sheet or "", reasons[id(t)] or "") for t in tables[1:]]

    def heads(t: Table) -> set[str]:
        return {_cell_text(c.value).strip().lower() for c in t.header if _cell_text(c.value).strip()}

    def names(t: Table) -> set[str]:  # the first column of words: the card names
        for i in range(len(t.header)):
            found = {_cell_text(r[i].value).strip() for r in t.rows if i < len(r) and isinstance(r[i].value, str)
                     and r[i].value.strip()}
            if found:
                return found
        return set()
    from cardforge.scaffold.sheetcolumns import DECK_NAMES, TYPE_NAMES, header_words

    main = lists[0]  # the first card list, as the designer ordered the worksheets
    typed = any(set(header_words(_cell_text(c.value))) & {*TYPE_NAMES, *DECK_NAMES} for c in main.header)
    chosen = [main]
    skipped = []
    for t in tables[1:] if tables[0] is main else tables:
        if t is main:
            continue
        if reasons[id(t)] is not None:
            skipped.append((t.sheet or "", reasons[id(t)] or ""))
        elif len(heads(t) & heads(main)) * 2 < min(len(heads(t)), len(heads(main))):
            skipped.append((t.sheet or "", f"other columns than {main.sheet!r}"))
        elif typed:  # the first sheet says each card's type: a sheet like it is another set or version
            skipped.append((t.sheet or "", f"a sheet like {main.sheet!r}, which has its own type column"))
        elif any(len(names(t) & names(c)) * 5 >= len(names(t)) for c in chosen):
            other = next(c for c in chosen if len(names(t) & names(c)) * 5 >= len(names(t)))
            skipped.append((t.sheet or "", f"another version of {other.sheet!r}: it repeats its card names"))
        else:
            chosen.append(t)  # a sheet per card type
    return chosen, skipped


def sheet_as_csv(sheet: Path, display: str, sheets: list[str] | None = None) -> tuple[bytes, list[str], list[tuple[str, str]]]:
    """The CSV card file of the sheet: a CSV file's bytes, or the card lists of a workbook (a JSON
    file's rows) as CSV; with the worksheets used and those left out, each with the reason
    (:func:`choose_sheets`). Raises :class:`SourceError`, also for a chosen worksheet whose
    formulas were saved without their values."""
    from cardforge.sources.tables import refuse_uncached

    if sheet.suffix.lower() == ".csv":
        read_tables(sheet, display)  # a file it cannot read is reported here
        return sheet.read_bytes(), [], []
    tables = [group_header(t) for t in read_tables(sheet, display, cached=False) if t.header]
    if not tables:
        raise SourceError([diag(SOURCE_VALUE, f"{display} holds no rows", file=display)])
    tables, skipped = choose_sheets(tables, sheets, display)
    refuse_uncached(tables)
    headers = list(dict.fromkeys(_cell_text(c.value).strip() for t in tables for c in t.header if _cell_text(c.value).strip()))
    by_sheet = len(tables) > 1 and not any(h.lower() in ("type", "kind", "deck", "category") for h in headers)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow((["Type"] if by_sheet else []) + headers)
    line = 1
    for table in tables:
        place = {_cell_text(c.value).strip(): i for i, c in enumerate(table.header)}
        first = table.header[0].row if len(tables) == 1 else 0
        for row in table.rows:
            while len(tables) == 1 and line + first < row[0].row:  # blank rows keep the workbook's row numbers
                writer.writerow([])
                line += 1
            values = [_cell_text(row[place[h]].value) if h in place and place[h] < len(row) else "" for h in headers]
            writer.writerow(([table.sheet or ""] if by_sheet else []) + values)
            line += 1
    return out.getvalue().encode("utf-8"), [t.sheet or "" for t in tables if t.sheet], skipped


def game_yaml(new: NewGame, plan: SheetPlan, csv_name: str) -> str:
    """The pack's game.yaml, commented."""
    from cardforge.validation.export import modeline

    card_types = {}
    for i, (type_id, t) in enumerate(plan.types.items()):
        properties: dict[str, Any] = {"name": {"type": "string"}, "type": {"const": type_id},
                                      "quantity": {"type": "integer", "minimum": 0}}
        for column in plan.columns:
            if not column.role or column.role in ("text", "title"):
                properties[column.field] = field_schema(column)
        back: Any = type_id if plan.backs == "type" else "card"
        if plan.deck is not None:
            back = {"by": plan.deck.field, "values": {v: _deck_id(v, plan) for v in plan.decks}}
        card_types[type_id] = {"label": t.label, "back": back,
                               "schema": {"type": "object", "required": t.required, "properties": properties,
                                          "additionalProperties": False}}
    parts = [modeline("game", new.slug),
             "#",
             f"# {new.title}: made by `cardforge new {new.slug} --from {csv_name}` from the spreadsheet, which stays",
             f"# the source of truth: edit {csv_name} (a CSV card file, read with the mapping under `sources:`",
             f"# at the end), then `cardforge check {new.slug}` and `cardforge build {new.slug}`. Every key:",
             "# docs/game-yaml.md.", "",
             dump_yaml({"game": {"title": new.title, "tagline": "A game made with cardforge", "designer": "Your name",
                             "players": {"min": new.players[0], "max": new.players[1]}}}),
             *_components(plan),
             "# Icons: declare them under `icons:` (`wood: {label: Wood, text: W}` needs no SVG; `svg:` names a",
             "# file of the pack), write `{wood}` in card text, or turn the sheet's words into icons with the",
             "# mapping's `icons: {Wood: wood}`.",
             *(["# The sheet's symbols that cardforge's fonts cannot print are icons (the mapping turns them into",
                "# {name} tokens), each printed as a letter until you give it an `svg:` or a font that has it."]
               if plan.icons else []),
             dump_yaml({"icons": plan.icons}) if plan.icons else "icons: {}\n",
             *(["# Card types: one per value of the sheet's type column, each field a column, its JSON type",
                "# read from the values (a field is required when every card of the type fills it)."]
               if plan.deck is None else
               ["# The card type: each field a column, its JSON type read from the values (a field is required",
                f"# when every card fills it). Each card prints the back of its {plan.deck.header} (`back: {{by: ...}}`)."]),
             dump_yaml({"card_types": card_types}),
             *_backs(new, plan),
             "# Rules text comes from the data: sheet.md and rulebook.md print these lists.",
             dump_yaml({"setup": ["Shuffle each deck.", "Each player draws a hand of cards."],
                    "turn": [{"name": "Draw", "summary": "Draw a card."},
                             {"name": "Play", "summary": "Play a card and do what it says."}],
                    "end": ["The game ends when a deck runs out."]}),
             f"# How the columns of {csv_name} become card fields (docs/game-yaml.md, `sources:`).",
             dump_yaml({"sources": {csv_name: plan.mapping}})]
    out = []
    for part in parts:
        out.append(part.rstrip("\n") + ("\n" if part[:1].isalpha() else ""))
    return "\n".join(out).rstrip("\n") + "\n"


def _deck_id(value: str, plan: SheetPlan) -> str:
    """The back (and component) id of a deck of the sheet."""
    from cardforge.scaffold.sheetcolumns import slug

    return slug(value, f"deck-{list(plan.decks).index(value) + 1}")


def _components(plan: SheetPlan) -> list[str]:
    """game.yaml's components and stacks, commented: a component per card type, or one per deck of a
    deck column; the stacks the starter assumed (a pile per card type when each has its own back,
    one pile of every type when they share one, a pile per deck)."""
    if plan.deck is None:
        out = ["# A component per card type, counted from the sheet (its copies column); `cardforge check`",
               "# compares each count with the cards (`count-mismatch`).",
               dump_yaml({"components": [{"id": type_id, "name": f"{t.label} cards", "count": t.count, "card_types": [type_id]}
                                     for type_id, t in plan.types.items()]})]
        if plan.backs == "type":
            out += ["# Face down, each card type is a pile of its own, with its own back. Cards of several types",
                    "# shuffled together must share a back: list them in one stack and `cardforge check` says",
                    "# whether their backs match (`stack-backs-differ`); `new --one-back` makes one back for all.",
                    dump_yaml({"stacks": [{"id": f"{type_id}-pile", "name": f"{t.label} pile", "card_types": [type_id]}
                                      for type_id, t in plan.types.items()]})]
        else:
            out += ["# Face down, every card is shuffled into one pile: its cards share one back (`cardforge",
                    "# check` says when they do not: `stack-backs-differ`).",
                    dump_yaml({"stacks": [{"id": "deck", "name": "deck", "card_types": list(plan.types)}]})]
        return out
    field = plan.deck.field
    return [f"# A component per {plan.deck.header}, counted from the sheet (its copies column); `cardforge check`",
            "# compares each count with the cards (`count-mismatch`).",
            dump_yaml({"components": [{"id": _deck_id(v, plan), "name": f"{v} deck", "count": n, "card_types": list(plan.types),
                                   "where": f"card.{field} == {jinja_literal(v)}"} for v, n in plan.decks.items()]}),
            f"# Face down, each {plan.deck.header} is a pile of its own: its cards must look alike from behind.",
            dump_yaml({"stacks": [{"id": "decks", "name": "deck", "card_types": list(plan.types), "by": field}]})]


def _backs(new: NewGame, plan: SheetPlan) -> list[str]:
    """game.yaml's backs, commented: one per card type, or one per deck printing one face."""
    def colours(i: int) -> dict[str, str]:
        return {"color": PALETTE[i % len(PALETTE)][0], "accent": PALETTE[i % len(PALETTE)][1]}
    if plan.backs == "one":
        label = next(iter(plan.types.values())).label if len(plan.types) == 1 else "Card"
        return ["# The card back every card prints: the layout prints the title and the label.",
                dump_yaml({"backs": {"card": {"title": new.title, "label": label, **colours(0)}}})]
    if plan.deck is None:
        return ["# Card backs, one per card type: the layout prints the title and the label.",
                dump_yaml({"backs": {type_id: {"title": new.title, "label": t.label, **colours(i)}
                                 for i, (type_id, t) in enumerate(plan.types.items())}})]
    return [f"# Card backs, one per {plan.deck.header}, each printing the layout's `deck` face with its title,",
            "# label and colours.",
            dump_yaml({"backs": {_deck_id(v, plan): {"face": "deck", "title": new.title, "label": v, **colours(i)}
                             for i, v in enumerate(plan.decks)}})]


def not_printed(plan: SheetPlan) -> list[tuple[str, str]]:
    """The columns the starter layout does not print, each with the reason: ``[(header, reason)]``."""
    printed = {id(c) for c in [*plan.words, *plan.short, *plan.numbers, *plan.images[:4], *plan.extra_text, *plan.flags]}
    out = []
    for c in plan.columns:
        if c.role in ("type", "name", "title", "text") or id(c) in printed:
            continue
        out.append((c.header, "the number of copies of each card" if c.role == "quantity" else
                    "a fifth column of file names: four fit" if c in plan.images else "its cells are empty"))
    return out


def images_beside(sheet: Path, plan: SheetPlan) -> dict[str, list[str]]:
    """Per image field of ``plan``, the file names (as the sheet writes them) found beside
    ``sheet``: relative paths inside the sheet's folder that name a file."""
    found: dict[str, list[str]] = {}
    folder = sheet.resolve().parent
    for field, values in plan.image_values.items():
        here = []
        for value in values:
            path = (folder / value).resolve()
            if path.is_file() and folder in path.parents and not Path(value).is_absolute():
                here.append(value)
        if here:
            found[field] = here
    return found


def new_from_sheet(root: Path, new: NewGame, sheet: Path, type_column: str | None = None,
                   choices: Choices | None = None) -> tuple[list[Path], SheetPlan]:
    """Write a pack for the spreadsheet ``sheet`` under project folder ``root``; returns the files
    written and the plan (its ``guesses`` say what was inferred). ``choices`` carries the
    designer's options and the question asker (:class:`~cardforge.scaffold.sheetplan.Choices`).
    Raises :class:`ScaffoldError` before writing anything when it cannot."""
    if not SLUG.match(new.slug):
        raise ScaffoldError([diag(SLUG_INVALID, f"{new.slug!r} is not a valid game pack name",
                                  hint="use lowercase letters, digits and hyphens, for example `my-game`")])
    display = display_path(sheet)
    try:
        raw, used, skipped = sheet_as_csv(sheet, display, choices.sheets if choices is not None else None)
        csv_name = f"{sheet.stem}.csv"
        table: Table = table_from_csv(raw, display)
    except SourceError as exc:
        raise ScaffoldError(exc.diagnostics) from None
    plan, problems = plan_sheet(table, type_column, choices)
    if plan is None:
        raise ScaffoldError(problems)
    if used or skipped:
        by_reason: dict[str, list[str]] = {}
        for name, why in skipped:
            by_reason.setdefault(why, []).append(repr(name))
        plan.guesses.insert(0, Guess("worksheets", f"cards from {', '.join(map(repr, used))}" + "".join(
            f"; not cards: {', '.join(names)} ({why})" for why, names in by_reason.items()),
            "--sheet NAME, once per worksheet"))
    pack = root / "cards" / new.slug
    targets = [pack / "game.yaml", pack / csv_name, *(pack / f for f in SHARED_FILES), root / "layouts" / f"{new.slug}.yaml"]
    clashes = [p for p in [pack, *targets] if p.exists()]
    if clashes:
        raise ScaffoldError([diag(PACK_EXISTS, f"{display_path(clashes[0])} already exists; nothing was written",
                                  file=display_path(clashes[0]), hint="choose another name, or remove the old pack first")])
    ctx = {**_context(new), "icon_example": "the ones you declare under `icons:` in game.yaml"}
    for target in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
    (pack / "game.yaml").write_text(game_yaml(new, plan, csv_name), encoding="utf-8")
    (pack / csv_name).write_bytes(raw)
    for name in SHARED_FILES:
        (pack / name).write_text(_render(f"pack/{name}", ctx), encoding="utf-8")
    found = images_beside(sheet, plan)
    for value in sorted({v for values in found.values() for v in values}):  # the pictures the layout prints
        target = pack / value
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(sheet.resolve().parent / value, target)
    targets[-1].write_text(layout_yaml(new, plan, found), encoding="utf-8")
    for column in plan.images:
        have = len(found.get(column.field, []))
        total = len(plan.image_values.get(column.field, []))
        plan.guesses.append(Guess("pictures", f"column {column.header!r}: {have} of {total} files found beside the sheet"
                                  + (" (copied into the pack)" if have else "") + (", a draft placeholder for the others"
                                                                                   if have < total else ""),
                                  f"put the files beside {sheet.name}"))
    plan.guesses += [Guess("not printed", f"{header!r}: {reason}", f"layouts/{new.slug}.yaml")
                     for header, reason in not_printed(plan)]
    return targets, plan
