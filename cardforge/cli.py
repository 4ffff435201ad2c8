"""The ``cardforge`` command: a thin layer over :mod:`cardforge.build`.

Options default to None and override a game's settings only when given. Diagnostics go to
standard error (coloured on a terminal); ``check --format json`` writes JSON to standard
output. Exit codes: 0 clean, 1 errors (or warnings with ``--strict``), 2 bad usage.
"""
from __future__ import annotations

import enum
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from cardforge import __version__
from cardforge.build import Project, build_game, compile_game
from cardforge.diagnostics import CODES, Diagnostic, Severity, format_json, has_errors
from cardforge.load import display_path
from cardforge.render.deck import DeckOptions
from cardforge.report import print_diagnostics, summary

app = typer.Typer(
    help="cardforge: print-and-play card generator and rules compiler.\n\n"
         "Game packs live in cards/<game>/ (cards as YAML, validated against each card type's JSON Schema), "
         "card layouts in layouts/<game>.yaml, and everything printable is written to output/<game>/.",
    no_args_is_help=True, add_completion=False, rich_markup_mode="rich")
err = Console(stderr=True)


class Paper(str, enum.Enum):
    letter = "letter"
    a4 = "a4"


class Flip(str, enum.Enum):
    long = "long"
    short = "short"


class Format(str, enum.Enum):
    text = "text"
    json = "json"


Games = Annotated[Optional[list[str]], typer.Argument(help="Game pack slugs (folders of cards/); all packs when omitted.", show_default=False)]
Root = Annotated[Path, typer.Option("--root", help="Project folder holding cards/, layouts/ and output/.", file_okay=False)]


def _version(value: bool) -> None:
    if value:
        print(f"cardforge {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")] = False) -> None:
    """cardforge: print-and-play card generator and rules compiler."""


@app.command()
def build(
    games: Games = None,
    paper: Annotated[Paper, typer.Option(help="Paper size the sheets are imposed on.")] = Paper.letter,
    flip: Annotated[Flip, typer.Option(help="Duplex edge your printer turns the sheet on: backs are mirrored to match.")] = Flip.long,
    force: Annotated[bool, typer.Option("--force", help="Build even when the checks find errors (loudly).")] = False,
    root: Root = Path("."),
) -> None:
    """Check each game pack and write its printable files to output/<game>/ (deck.pdf).

    The checks run first: a game with errors is not built (its previous output is left as
    it was) unless --force is given.
    """
    project = Project(root.resolve())
    packs, problems = project.packs(games)
    options = DeckOptions(paper=paper.value, flip=flip.value)
    failed = bool(problems)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=False, disable=not err.is_terminal) as bar:
        for pack in packs:
            compiled = compile_game(pack, project)
            task = bar.add_task(f"{pack.name:<20}", total=None)
            result = build_game(compiled, project, options, force=force,
                                progress=lambda done, total: bar.update(task, completed=done, total=total))
            problems += result.diagnostics
            if result.written:
                for path in result.written:
                    err.print(f"[green]wrote[/] {display_path(path)}", highlight=False)
            else:
                failed = True
                err.print(f"[red]not built[/] {pack.name}: fix the errors below"
                          f"{' (or use --force)' if compiled.game and compiled.layouts else ''}", highlight=False)
    print_diagnostics(err, [d for d in problems if d.severity is not Severity.INFO])  # notes: `cardforge check`
    if problems:
        err.print(summary(problems), highlight=False)
    if failed or (has_errors(problems) and not force):
        raise typer.Exit(1)


@app.command()
def check(
    games: Games = None,
    format: Annotated[Format, typer.Option("--format", help="text for people, json for CI.")] = Format.text,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 on warnings too.")] = False,
    root: Root = Path("."),
) -> None:
    """Validate and cross-check game packs without writing anything.

    Every card against its type's JSON Schema, then the consistency checks (references,
    counts, icons, glossary, text fit, the pack's declarative rules). Prints diagnostics as
    file:line:col: severity[code]: message.
    """
    project = Project(root.resolve())
    packs, problems = project.packs(games)
    for pack in packs:
        problems += compile_game(pack, project).diagnostics
    _finish(problems, format, strict)


def _finish(problems: list[Diagnostic], format: Format, strict: bool) -> None:
    if format is Format.json:
        sys.stdout.write(format_json(problems) + "\n")
    else:
        print_diagnostics(err, problems)
        err.print(summary(problems) if problems else "no problems found", highlight=False)
    if has_errors(problems) or (strict and any(d.severity is Severity.WARNING for d in problems)):
        raise typer.Exit(1)


@app.command()
def codes() -> None:
    """List every diagnostic code: its check family, default severity and meaning."""
    for code in CODES.values():
        print(f"{code.family:<11} {code.name:<20} {str(code.severity):<8} {code.description}")


@app.command("list")
def list_games(root: Root = Path(".")) -> None:
    """List the game packs found in cards/ with their card counts."""
    project = Project(root.resolve())
    packs, problems = project.packs(None)
    for pack in packs:
        compiled = compile_game(pack, project)
        game = compiled.game
        if game:
            print(f"{pack.name:<20} {game.title:<30} {game.total():>4} cards")
        else:
            print(f"{pack.name:<20} (does not load: run `cardforge check {pack.name}`)")
    if problems:
        print_diagnostics(err, problems)
        raise typer.Exit(1)
