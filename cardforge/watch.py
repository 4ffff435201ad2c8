"""``cardforge watch``: build the games, then build again whatever a save changes.

It watches ``cards/`` and ``layouts/`` with the watcher ``serve`` uses too
(:mod:`cardforge.util.filewatch`): a burst of saves, mapped to the games it touches (a file
of ``cards/<slug>/`` or ``layouts/<slug>.yaml`` touches its game; any other file under
``layouts/`` every game),
and those games go through the incremental build (:func:`cardforge.incremental.build_games`),
so only the outputs whose inputs changed are drawn, by worker processes kept warm from one
rebuild to the next. Each rebuild prints what it wrote, its errors and warnings, and how
long it took.
"""
from __future__ import annotations

import threading
import time
from dataclasses import replace
from collections.abc import Callable

from rich.console import Console

from cardforge.build import BuildOptions, BuildResult, Project, artefacts, BuildSettings
from cardforge.cache.registry import give_back
from cardforge.util.diagnostics import Severity, display_path
from cardforge.incremental import build_games
from cardforge.workers import kept_pool
from cardforge.util.report import print_diagnostics, summary
from cardforge.util.filewatch import folders, touched_games


def watch(project: Project, slugs: list[str] | None, options: BuildOptions = BuildOptions(), *, jobs: int = 1,
          console: Console | None = None, stop: threading.Event | None = None,
          built: Callable[[list[BuildResult]], None] | None = None) -> None:
    """Build the games ``slugs`` of ``project`` (every game when None), then rebuild the games
    each save touches, until ``stop`` is set (or the process is interrupted).

    A rebuild's outputs are drawn (with ``jobs`` of two or more) by worker processes kept
    from one rebuild to the next (:func:`cardforge.workers.kept_pool`).
    ``built`` is called with the results of every build, the first one included. Output
    and diagnostics go to ``console`` (standard error by default).
    """
    console = console or Console(stderr=True)
    pool = kept_pool(jobs) if jobs > 1 else None

    def run(names: list[str] | None, deck_first: bool = False) -> None:
        packs, problems = project.packs(names)
        started = time.perf_counter()
        first: list[BuildResult] = []
        if deck_first and packs:  # the deck the designer is looking at, in place before the rest is drawn
            first = build_games(project, packs, options, jobs=1, deck_jobs=jobs, only=("deck.pdf",))
            for result in first:
                if "deck.pdf" in result.rendered and result.written:
                    console.print(f"[green]updated[/] {display_path(result.written[0])} "
                                  f"({time.perf_counter() - started:.2f} s)", highlight=False)
        results = build_games(project, packs, options, jobs=jobs, pool=pool) if packs else []
        if first:
            names = [name for name, _ in artefacts(options.resolve() if isinstance(options, BuildSettings) else options)]
            results = [_merged(a, b, names) for a, b in zip(first, results)]
        seconds = time.perf_counter() - started
        _report(console, results, problems, seconds)
        if built:
            built(results)

    try:
        run(slugs)
        watched = folders(project.root)
        console.print(f"watching {', '.join(display_path(f) for f in watched)} (Ctrl+C to stop)", highlight=False)
        for touched in touched_games(project.root, lambda: slugs or [p.name for p in project.packs(None)[0]], stop):
            run(sorted(touched), deck_first=True)
            give_back()  # what this rebuild left behind in memory, as serve does
    finally:
        if pool is not None:
            pool.close()


def _merged(deck: BuildResult, rest: BuildResult, names: list[str]) -> BuildResult:
    """One game's rebuild in two steps (its deck, then everything else) as one result;
    ``names``: every output, in build order."""
    drawn = set(deck.rendered) | set(rest.rendered)
    return replace(rest, rendered=[n for n in names if n in drawn], reused=[n for n in rest.reused if n not in drawn])


def _report(console: Console, results: list[BuildResult], problems: list, seconds: float) -> None:
    shown = list(problems)
    for result in results:
        shown += result.diagnostics
        if not result.written:
            console.print(f"[red]not built[/] {result.slug}: fix the errors below", highlight=False)
        elif result.rendered:
            names = ", ".join(result.rendered)
            console.print(f"[green]built[/] {result.slug}: {names}", highlight=False)
        else:
            console.print(f"[dim]unchanged[/] {result.slug}", highlight=False)
    print_diagnostics(console, [d for d in shown if d.severity is not Severity.INFO])
    console.print(f"{summary(shown) if shown else 'no problems found'} ({seconds:.2f} s)", highlight=False)
