"""The ``cardforge`` command: a thin layer over :mod:`cardforge.build`.

Options default to None and override a game's settings only when given. Diagnostics go to
standard error (coloured on a terminal); ``check --format json`` writes JSON to standard
output. Exit codes: 0 clean, 1 errors (or warnings with ``--strict``), 2 bad usage or an internal
error (``internal-error``: a bug, reported with a log file, see :mod:`cardforge.cli.guard`).
"""
from __future__ import annotations

import enum
import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from cardforge import __version__
from cardforge.build import BuildOptions, Compiled, Project, compile_game
from cardforge.cli.options import FlipOption, Games, Jobs, Lang, NoCache, PaperOption, Root, with_build_options
from cardforge.util.diagnostics import (CODES, RULES_SHEET_FIT, SHEET_TIGHT, TRANSLATION_FUZZY, TRANSLATION_MISSING,
                                        Diagnostic, Severity, display_path, format_json, has_errors)
from cardforge.cli.guard import guarded_typer
from rich.markup import escape

from cardforge.util.report import print_diagnostics, summary
from cardforge.cli import reprint as cli_reprint  # diff, build --changed-since

app = guarded_typer()(  # every command: an unexpected exception is `internal-error`, exit 2
    help="cardforge: print-and-play card generator and rules compiler.\n\n"
         "Game packs live in cards/<game>/ (cards as YAML, validated against each card type's JSON Schema), "
         "card layouts in layouts/<game>.yaml, and everything printable is written to output/<game>/.",
    no_args_is_help=True, add_completion=False, rich_markup_mode="rich")
err = Console(stderr=True, emoji=False)  # a file or card named :fire: is printed as written


class Format(str, enum.Enum):
    text = "text"
    json = "json"




def _version(value: bool) -> None:
    if value:
        print(f"cardforge {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")] = False) -> None:
    """cardforge: print-and-play card generator and rules compiler."""


@app.command()
@with_build_options
def build(
    games: Games = None,
    force: Annotated[bool, typer.Option("--force", help="Build even when the checks find errors (loudly).")] = False,
    jobs: Jobs = None,
    no_cache: NoCache = False,
    changed_since: Annotated[Optional[str], typer.Option("--changed-since", metavar="REV", help="Also write output/<game>/reprint.pdf: only the cards added or changed since the git revision REV (HEAD~1, a tag), fronts and backs imposed as deck.pdf is, and a changelog in words (in the sheet's empty card slots when it fits, else on a page of its own). No change: no reprint.pdf (an earlier one is deleted). See `cardforge diff`.", show_default=False)] = None,
    reprint_copies: Annotated[cli_reprint.Copies, typer.Option("--reprint-copies", help="one: one copy of each changed card in reprint.pdf; all: as many as the deck holds.")] = cli_reprint.Copies.one,
    lang: Lang = None,
    root: Root = Path("."),
    options: BuildOptions = BuildOptions(),
) -> None:
    """Check each game pack and write its printable files to output/<game>/.

    Always: deck.pdf (cards imposed on Letter or A4 with crop marks, a 50 mm scale check and duplex backs), rules.pdf (the accordion rules sheet), rulebook.pdf, rulebook.html (the rulebook as one web page: every card pictured, searchable, no request outside the file) and reference.pdf (helper sheets, card almanac and the odds of the draws game.yaml declares). With --export: print-shop/, tts/ (Tabletop Simulator), ttpg/ (Tabletop Playground) and one-sided/.

    The checks run first: a game with errors is not built (its previous output is left as it was) unless --force is given.

    Incremental: every output is kept in output/.cache under a hash of everything it is made from (the pack's files, its layout, the options, cardforge's own files), so an unchanged output is not drawn again; --no-cache renders every output again, from what earlier builds left in the user cache (icon forms, type sizes, card pictures, and the rulebook's contents as a guess its layout checks; CARDFORGE_NO_USER_CACHE=1 works those out again too).
    """
    cli_reprint.check_revision(root, changed_since)
    project = Project(root.resolve())
    packs, problems = project.packs(games)
    failed = bool(problems)
    from cardforge.incremental import build_games
    from cardforge.util.processes import default_jobs

    from cardforge.cli.translate import language_plan

    plan, lang_problems = language_plan(packs, lang)
    problems += lang_problems
    failed = failed or bool(lang_problems)
    results = []
    with _progress_bars(packs) as advance:
        for code, chosen in plan.items():
            results += build_games(project, chosen, options, force=force, jobs=jobs or default_jobs(),
                                   use_cache=not no_cache and code is None, progress=advance, lang=code)
    for result in results:
        problems += result.diagnostics
        if result.written:
            for path in result.written:
                fresh = path.name in result.rendered
                err.print(f"{'[green]wrote[/]' if fresh else '[dim]cached[/]'} {display_path(path)}", highlight=False)
            for note in result.diagnostics:  # the rules sheet's type size, the deck's sheet, as the build chose them
                if note.code == RULES_SHEET_FIT:
                    err.print(f"      {note.message}", highlight=False)
                elif note.code == SHEET_TIGHT:
                    err.print(f"      {escape(note.message)}; {escape(note.hint or '')}", highlight=False, soft_wrap=True)
        else:
            failed = True
            err.print(f"[red]not built[/] {result.slug}: fix the errors below"
                      f"{' (or use --force)' if result.loaded else ''}", highlight=False)
    if changed_since is not None and not cli_reprint.reprints(root, results, changed_since, options, reprint_copies):
        failed = True
    print_diagnostics(err, [d for d in problems if d.severity is not Severity.INFO])  # notes: `cardforge check`
    if problems:
        err.print(summary(problems), highlight=False)
    if failed or (has_errors(problems) and not force):
        raise typer.Exit(1)


def compiled_or_exit(root: Path, game: str, layouts: bool) -> tuple[Project, Compiled]:
    """The project at ``root`` and its game ``game`` loaded, validated and checked
    (:func:`cardforge.build.compile_game`), for a command that works on one game; when the
    game is not found or cannot be read (with ``layouts``, also when its layouts cannot),
    prints the diagnostics and exits with status 1."""
    project = Project(root.resolve())
    packs, problems = project.packs([game])
    if problems:
        print_diagnostics(err, problems)
        raise typer.Exit(1)
    compiled = compile_game(packs[0], project)
    if compiled.game is None or (layouts and compiled.layouts is None):
        print_diagnostics(err, compiled.diagnostics)
        raise typer.Exit(1)
    return project, compiled


@contextmanager
def _progress_bars(packs: list[Path]):
    """A progress bar per game on a terminal, updated by the function yielded; None elsewhere
    (rich's progress bars are then not even imported)."""
    if not err.is_terminal:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    # no refresh thread: the build may fork worker processes
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=False, auto_refresh=False) as bar:
        tasks = {pack.name: bar.add_task(f"{pack.name:<20}", total=None) for pack in packs}

        def advance(slug: str, done: int, total: int) -> None:
            bar.update(tasks[slug], completed=done, total=total)
            bar.refresh()

        yield advance


@app.command()
@with_build_options
def watch(
    games: Games = None,
    jobs: Jobs = None,
    root: Root = Path("."),
    options: BuildOptions = BuildOptions(),
) -> None:
    """Build the game packs, then rebuild each game a save to cards/ or layouts/ changes, until Ctrl+C.

    Every rebuild is incremental (only outputs whose inputs changed are drawn, see `cardforge build`). It prints a game's errors and warnings as soon as the game is checked, before drawing, then what it built and the time it took. It takes the options of `cardforge build` and writes what `cardforge build` with them writes.
    """
    from cardforge.util.processes import default_jobs
    from cardforge.watch import watch as run_watch

    project = Project(root.resolve())
    packs, problems = project.packs(games)
    if problems:
        print_diagnostics(err, problems)
        raise typer.Exit(1)
    run_watch(project, games or None, options, jobs=jobs or default_jobs(), console=err)


@app.command()
def registration(
    paper: PaperOption = None,
    flip: FlipOption = None,
    root: Root = Path("."),
) -> None:
    """Write output/registration-<paper>.pdf: a one-sheet duplex test that measures your printer's
    front-to-back offset, to pass to `cardforge build --duplex-shift DX,DY`."""
    from cardforge.render.registration import render_registration

    paper_name, flip_name = paper.value if paper else "letter", flip.value if flip else "long"
    out = Project(root.resolve()).output / f"registration-{paper_name}.pdf"
    out.parent.mkdir(parents=True, exist_ok=True)
    render_registration(out, paper_name, flip_name)
    err.print(f"[green]wrote[/] {display_path(out)}", highlight=False)


@app.command()
def preview(
    game: Annotated[str, typer.Argument(help="Game pack slug.")],
    card: Annotated[Optional[str], typer.Argument(help="Card name (a close name is enough); the first sheet when omitted.", show_default=False)] = None,
    dpi: Annotated[int, typer.Option(help="Pixels per inch of the PNG.", min=20, max=600)] = 150,
    root: Root = Path("."),
) -> None:
    """Render one card (front and back side by side) or the first deck sheet to a PNG in
    output/<game>/preview/, for looking rather than printing."""
    from cardforge.export.preview import preview_card, preview_sheet
    from cardforge.util.suggest import closest

    project, compiled = compiled_or_exit(root, game, layouts=True)
    folder = project.output / game / "preview"
    if card is None:
        out = preview_sheet(compiled.game, compiled.layouts, folder, dpi)
    else:
        names = {c.name: c for c in compiled.game.cards}
        name = card if card in names else closest(card, names, cutoff=60)
        if name is None:
            err.print(f"[red]no card named {card!r} in {game}[/]", highlight=False)
            raise typer.Exit(1)
        out = preview_card(names[name], compiled.game, compiled.layouts, folder, dpi)
    err.print(f"[green]wrote[/] {display_path(out)}", highlight=False)


@app.command()
@with_build_options
def serve(
    game: Annotated[Optional[str], typer.Argument(help="Game pack slug; every pack when omitted.", show_default=False)] = None,
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    host: Annotated[str, typer.Option(help="Interface to listen on; anything but this computer (127.0.0.1, localhost, ::1) needs --allow-remote.")] = "127.0.0.1",
    allow_remote: Annotated[bool, typer.Option("--allow-remote", help="Allow --host to be an address other computers can reach (the page shows your pack files).")] = False,
    root: Root = Path("."),
    options: BuildOptions = BuildOptions(),
) -> None:
    """Preview a game in the browser while you edit it: every card front and back, the rules sheet,
    rulebook and reference pages, and the same problems as `cardforge check`, each linked to its
    file and line. Saving a card or layout file rebuilds output/<game>/ (with the options of
    `cardforge build`, so it writes what `cardforge build` with them writes) and updates the open page.

    Serves on http://127.0.0.1:8000/ (this computer only) until Ctrl+C; it reads and shows, and
    never writes anything but output/.
    """
    from cardforge.serve import is_loopback, run

    project = Project(root.resolve())
    packs, problems = project.packs([game] if game else None)
    if problems:
        print_diagnostics(err, problems)
        raise typer.Exit(1)
    if not is_loopback(host):
        if not allow_remote:
            err.print(f"[red]refusing to listen on {host}[/]: other computers could read your pack files; "
                      "add --allow-remote if that is what you want", highlight=False)
            raise typer.Exit(2)
        err.print(f"[yellow]warning:[/] listening on {host}: anyone who can reach this computer on port {port} "
                  "can see this project's cards and files", highlight=False)
    err.print(f"serving {', '.join(p.name for p in packs)} at [bold]http://{host if ':' not in host else f'[{host}]'}:{port}/[/] "
              "(Ctrl+C to stop)", highlight=False)
    run(project, [p.name for p in packs], host=host, port=port, options=options)


@app.command()
def check(
    games: Games = None,
    format: Annotated[Format, typer.Option("--format", help="text for people, json for CI.")] = Format.text,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 on warnings too.")] = False,
    no_cache: NoCache = False,
    lang: Lang = None,
    jobs: Jobs = None,
    root: Root = Path("."),
) -> None:
    """Validate and cross-check game packs without writing any output.

    Every card against its type's JSON Schema, then the consistency checks (references, counts, face-down stacks, components, icons, glossary, text fit, the pack's declarative rules, the rules sources). Prints diagnostics as file:line:col: severity[code]: message; `cardforge codes` lists the codes. A game whose files have not changed since the last build or check reports the diagnostics kept in output/.cache; the others (and their translations) are checked side by side, one process per core.
    """
    from cardforge.checking import check_languages
    from cardforge.util.processes import default_jobs

    project = Project(root.resolve())
    packs, problems = project.packs(games)
    from cardforge.cli.translate import language_plan

    plan, lang_problems = language_plan(packs, lang or "all")
    problems += lang_problems
    from cardforge.cli.translate import unrepeated

    source_found: list = []
    checked = check_languages(project, plan, use_cache=not no_cache, jobs=jobs or default_jobs())
    for code, found in checked.items():  # the source first: a translation reports what is its own
        problems += found if code is None else unrepeated(found, source_found)
        source_found += found if code is None else []
    problems = list(dict.fromkeys(problems))  # `languages:` is judged by the source and by each translation alike
    if strict:  # an untranslated or fuzzy entry is an error with --strict
        problems = [replace(d, severity=Severity.ERROR) if d.code in (TRANSLATION_MISSING, TRANSLATION_FUZZY) else d
                    for d in problems]
    _finish(problems, format, strict)


def _finish(problems: list[Diagnostic], format: Format, strict: bool) -> None:
    if format is Format.json:
        sys.stdout.write(format_json(problems) + "\n")
    else:
        print_diagnostics(err, problems)
        err.print(summary(problems) if problems else "no problems found", highlight=False)
    if has_errors(problems) or (strict and any(d.severity is Severity.WARNING for d in problems)):
        raise typer.Exit(1)


class CodesFormat(str, enum.Enum):
    text = "text"
    markdown = "markdown"


@app.command()
def codes(format: Annotated[CodesFormat, typer.Option("--format", help="text: one code a line; markdown: the table of docs/checks.md.")] = CodesFormat.text) -> None:
    """List every diagnostic code: its topic (the stage or subject that reports it), default severity and meaning."""
    if format is CodesFormat.markdown:
        from cardforge.util.diagnostics import codes_table

        sys.stdout.write(codes_table())
        return
    for code in CODES.values():
        print(f"{code.topic:<14} {code.name:<20} {str(code.severity):<8} {code.description}")


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


from cardforge.cli import cache as cli_cache  # noqa: E402  (cache info|clear)
from cardforge.cli import designer as cli_designer  # noqa: E402  (new, import, export-cards, schema)

cli_designer.register(app)
cli_cache.register(app)
cli_reprint.register(app)
from cardforge.cli import translate as cli_translate  # noqa: E402  (translate)

cli_translate.register(app)
