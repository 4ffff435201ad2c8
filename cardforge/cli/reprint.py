"""``cardforge diff GAME [REV]`` and the reprint of ``cardforge build --changed-since REV``.

``diff`` lists the cards added, removed and changed since a git revision, or since the
last build when no revision is given, field by field with file and line (see
:mod:`cardforge.reprint`); ``--format json`` prints the same as JSON. A revision that
cannot be read (no git, not a repository, unknown revision) or no record of a last build
is a diagnostic and exit 1.
"""
from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from cardforge.cli.options import Root
from cardforge.build import BuildResult, Project
from cardforge.util.diagnostics import WRITE_FAILED, display_path
from cardforge.util.report import print_diagnostics

err = Console(stderr=True, emoji=False)


class DiffFormat(str, enum.Enum):
    text = "text"
    json = "json"


class Copies(str, enum.Enum):
    one = "one"
    all = "all"


def diff(
    game: Annotated[str, typer.Argument(help="Game pack slug.")],
    rev: Annotated[Optional[str], typer.Argument(help="A git revision (HEAD~1, a tag, a commit); the last build of the game when omitted.", show_default=False)] = None,
    format: Annotated[DiffFormat, typer.Option("--format", help="text for people, json for scripts.")] = DiffFormat.text,
    root: Root = Path("."),
) -> None:
    """List the cards added, removed and changed since a git revision (or since the last build), field by field (old -> new), each with its file and line.

    The pack as it was at REV is loaded as a build loads it (card sheets with their mappings, errata, computed fields), so the fields compared are the fields printed. A card whose fields are equal but whose face prints differently (its layout, back, icons, art or fonts changed) is listed as "prints differently". Cards are told apart by type and name: a renamed card is one removed and one added.
    """
    from cardforge import reprint

    project = Project(root.resolve())
    packs, problems = project.packs([game])
    if problems:
        print_diagnostics(err, problems)
        raise typer.Exit(1)
    try:
        base = reprint.since_revision(project, packs[0], rev) if rev else reprint.since_last_build(project, packs[0])
    except reprint.RevisionError as exc:
        print_diagnostics(err, [exc.diagnostic])
        raise typer.Exit(1) from None
    compiled = reprint.current(project, packs[0])
    if compiled.game is None or compiled.layouts is None:
        print_diagnostics(err, compiled.diagnostics)
        raise typer.Exit(1)
    from cardforge.resolve.printed import snapshot

    changes = reprint.compare(base.snapshot, snapshot(compiled.game, compiled.layouts))
    if format is DiffFormat.json:
        sys.stdout.write(json.dumps({"game": game, "since": base.label, "changes": [c.as_json() for c in changes]},
                                    indent=2, ensure_ascii=False) + "\n")
        return
    for line in reprint.diff_lines(changes, base.label):
        print(line)


def check_revision(root: Path, rev: str | None) -> None:
    """Refuse a ``--changed-since`` revision that cannot be read before anything is built."""
    if rev is None:
        return
    from cardforge import reprint

    try:
        reprint.resolve_revision(Project(root.resolve()), rev)
    except reprint.RevisionError as exc:
        print_diagnostics(err, [exc.diagnostic])
        raise typer.Exit(1) from None


def reprints(root: Path, results: list[BuildResult], rev: str, settings, copies: Copies) -> bool:
    """After a build: write output/<game>/reprint.pdf for each game built, with the cards
    changed since ``rev`` (see :func:`cardforge.reprint.write_reprint`); a game with no
    change gets none (an earlier one is deleted). Returns False when one could not be
    written (its diagnostic printed)."""
    from cardforge import reprint
    from cardforge.build import BuildSettings
    from cardforge.resolve.printed import snapshot

    project = Project(root.resolve())
    ok = True
    for result in results:
        if not result.written:
            continue
        pack = project.cards / result.slug
        out = project.output / result.slug / "reprint.pdf"
        try:
            base = reprint.since_revision(project, pack, rev)
        except reprint.RevisionError as exc:
            print_diagnostics(err, [exc.diagnostic])
            ok = False
            continue
        compiled = reprint.current(project, pack)
        if compiled.game is None or compiled.layouts is None:
            continue
        options = (settings.resolve(compiled.game.data.get("build")) if isinstance(settings, BuildSettings)
                   else settings)
        changes = reprint.compare(base.snapshot, snapshot(compiled.game, compiled.layouts))
        stale = out.is_file()
        try:
            made = reprint.write_reprint(compiled, changes, out, options.deck, base.label, copies.value)
        except OSError as exc:
            from cardforge.util.diagnostics import diag

            print_diagnostics(err, [diag(WRITE_FAILED, f"{result.slug}: cannot write {display_path(out)}: {exc}")])
            ok = False
            continue
        if made is None:
            what = "no card changed" if not changes else "only cards removed"
            err.print(f"[dim]no reprint[/] {result.slug}: {what} since {base.label}; no {display_path(out)}"
                      f"{' (the earlier one deleted)' if stale else ''}", highlight=False)
            continue
        pages, where = made
        printed = sum(1 for c in changes if c.kind != reprint.REMOVED)
        err.print(f"[green]wrote[/] {display_path(out)}: {printed} card{'s' if printed != 1 else ''} changed since "
                  f"{base.label}, {pages} page{'s' if pages != 1 else ''}, the changelog "
                  f"{'in the empty card slots' if where == 'slots' else 'on a page of its own'}", highlight=False)
    return ok


def register(app: typer.Typer) -> None:
    app.command()(diff)
