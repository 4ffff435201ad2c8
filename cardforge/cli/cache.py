"""``cardforge cache info|clear``: what the caches of :mod:`cardforge.cache.registry` hold.

``info`` prints one line per registered cache (its name, where it lives, how many entries
and bytes it holds now, what it is keyed by, its limit and what it buys), then each
in-memory memo with its limit; ``clear``
deletes the project's caches (``output/.cache``, ``output/.serve-cache``), the user's
(``~/.cache/cardforge``) or both. A cache only ever saves time: clearing it changes no
output.
"""
from __future__ import annotations

import enum
from pathlib import Path
from typing import Annotated

import typer

from cardforge.util.diagnostics import display_path
from cardforge.cli.guard import guarded_typer
from cardforge.cli.options import Root

cache_app = guarded_typer()(help="What cardforge keeps to rebuild fast, and how to delete it.", no_args_is_help=True,
                        add_completion=False)


class Scope(str, enum.Enum):
    project = "project"
    user = "user"
    all = "all"


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


@cache_app.command()
def info(root: Root = Path("."), verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Also say what each cache is keyed by and what it buys.")] = False) -> None:
    """List every cache: where it lives, its entries and size now, and its limit.

    Project caches live in output/ (deleted with it; --no-cache ignores them); user caches in
    $XDG_CACHE_HOME/cardforge (~/.cache/cardforge), shared by every project
    (CARDFORGE_NO_USER_CACHE=1 or --no-cache turns them off).
    """
    from cardforge.cache.registry import CACHES, MEMOS, usage, user_enabled, user_root

    output = root.resolve() / "output"
    typer.echo(f"project caches in {display_path(output)}/, user caches in {user_root()}/"
               f"{'' if user_enabled() else ' (off: CARDFORGE_NO_USER_CACHE is set)'}\n")
    typer.echo(f"{'cache':<16} {'scope':<8} {'folder':<28} {'entries':>8} {'size':>10}")
    for cache, found in zip(CACHES, usage(output)):
        typer.echo(f"{cache.name:<16} {cache.scope:<8} {cache.path:<28} {found.entries:>8} {_size(found.size):>10}")
        if verbose:
            typer.echo(f"    limit: {cache.limit}\n    keyed by: {cache.key}\n    buys: {cache.buys}")
    typer.echo(f"\nin-memory memos of each process (emptied with the caches; a long serve keeps each within its limit)\n"
               f"{'memo':<20} {'limit':>8}")
    for memo in MEMOS:
        typer.echo(f"{memo.name:<20} {memo.limit:>8,}")
        if verbose:
            typer.echo(f"    keyed by: {memo.key}\n    buys: {memo.buys}")


@cache_app.command()
def clear(root: Root = Path("."),
          scope: Annotated[Scope, typer.Option("--scope", help="project: output/.cache and output/.serve-cache; user: ~/.cache/cardforge; all: both.")] = Scope.all) -> None:
    """Delete the caches (never an output): the next build draws everything afresh."""
    from cardforge.cache.registry import clear as clear_caches

    gone = clear_caches(root.resolve() / "output", None if scope is Scope.all else scope.value)
    for path in gone:
        typer.echo(f"deleted {display_path(path)}")
    if not gone:
        typer.echo("no cache to delete")


def register(app: typer.Typer) -> None:
    """Add ``cardforge cache`` to ``app``."""
    app.add_typer(cache_app, name="cache")
