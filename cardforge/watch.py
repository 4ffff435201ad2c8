"""``cardforge watch``: build the games, then build again whatever a save changes.

It watches ``cards/`` and ``layouts/`` (watchfiles); a burst of saves is collected for
:data:`DEBOUNCE_MS`, mapped to the games it touches (a file of ``cards/<slug>/`` or
``layouts/<slug>.yaml`` touches its game; any other file under ``layouts/`` every game),
and those games go through the incremental build (:func:`cardforge.incremental.build_games`),
so only the outputs whose inputs changed are drawn. Each rebuild prints what it wrote, its
errors and warnings, and how long it took.
"""
from __future__ import annotations

import threading
import time
from dataclasses import replace
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from cardforge.build import BuildOptions, BuildResult, Project, artefacts, BuildSettings
from cardforge.util.diagnostics import Severity, display_path
from cardforge.incremental import build_games
from cardforge.util.report import print_diagnostics, summary
from cardforge.serve.watch import games_touched

DEBOUNCE_MS = 60  # an editor's save is a burst of events a few ms apart


def _interesting(change, path: str) -> bool:
    name = Path(path).name
    return not (name.startswith((".", "#")) or name.endswith(("~", ".swp", ".tmp")) or "__pycache__" in path)


def watch(project: Project, slugs: list[str] | None, options: BuildOptions = BuildOptions(), *, jobs: int = 1,
          console: Console | None = None, stop: threading.Event | None = None,
          built: Callable[[list[BuildResult]], None] | None = None) -> None:
    """Build the games ``slugs`` of ``project`` (every game when None), then rebuild the games
    each save touches, until ``stop`` is set (or the process is interrupted).

    ``built`` is called with the results of every build, the first one included. Output
    and diagnostics go to ``console`` (standard error by default).
    """
    from watchfiles import watch as changes_of

    console = console or Console(stderr=True)

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
        results = build_games(project, packs, options, jobs=jobs) if packs else []
        if first:
            names = [name for name, _ in artefacts(options.resolve() if isinstance(options, BuildSettings) else options)]
            results = [_merged(a, b, names) for a, b in zip(first, results)]
        seconds = time.perf_counter() - started
        _report(console, results, problems, seconds)
        if built:
            built(results)

    run(slugs)
    folders = [str(p) for p in (project.cards, project.layouts) if p.is_dir()]
    console.print(f"watching {', '.join(display_path(Path(f)) for f in folders)} (Ctrl+C to stop)", highlight=False)
    for changes in changes_of(*folders, watch_filter=_interesting, stop_event=stop, debounce=DEBOUNCE_MS, step=20,
                              rust_timeout=500, yield_on_timeout=False, raise_interrupt=False):
        known = slugs or [p.name for p in project.packs(None)[0]]
        touched = games_touched(project.root, (path for _, path in changes), known)
        if touched:
            run(sorted(touched), deck_first=True)


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
