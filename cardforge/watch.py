"""``cardforge watch``: build the games, then build again whatever a save changes.

It watches ``cards/`` and ``layouts/`` with the watcher ``serve`` uses too
(:mod:`cardforge.util.filewatch`): a burst of saves, mapped to the games it touches (a file
of ``cards/<slug>/`` or ``layouts/<slug>.yaml`` touches its game; any other file under
``layouts/`` every game),
and those games go through the incremental build (:func:`cardforge.incremental.build_games`),
so only the outputs whose inputs changed are drawn. Each rebuild prints a game's errors and
warnings as soon as the game is checked, then what it wrote and how long it took; its
outputs are drawn by worker processes kept warm from one rebuild to the next.
"""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection
from pathlib import Path

from rich.console import Console

from cardforge.build import BuildOptions, BuildResult, Project
from cardforge.cache.registry import give_back
from cardforge.util.diagnostics import Diagnostic, Severity, display_path
from cardforge.incremental import build_games
from cardforge.workers import kept_pool
from cardforge.util.report import print_diagnostics, summary
from cardforge.util.filewatch import folders, touched_games


def watch(project: Project, slugs: list[str] | None, options: BuildOptions = BuildOptions(), *, jobs: int = 1,
          console: Console | None = None, stop: threading.Event | None = None,
          built: Callable[[list[BuildResult]], None] | None = None) -> None:
    """Build the games ``slugs`` of ``project`` (every game when None), then rebuild the games
    each save touches, until ``stop`` is set or the process is interrupted (Ctrl+C: it then
    returns, at whatever moment the interruption came).

    A game's errors and warnings are printed as soon as it is checked, before anything is
    drawn; the outputs follow, drawn (with ``jobs`` of two or more) by worker processes kept
    from one rebuild to the next (:func:`cardforge.workers.kept_pool`). After a save, a game's
    new deck.pdf is put in place (and said) as soon as it is drawn, before its other outputs.
    ``built`` is called with the results of every build, the first one included. Output and
    diagnostics go to ``console`` (standard error by default).
    """
    console = console or Console(stderr=True)
    pool = kept_pool(jobs) if jobs > 1 else None

    def run(names: list[str] | None, deck_first: bool = False) -> None:
        packs, problems = project.packs(names)
        started = time.perf_counter()
        said: set[str] = set()
        shown: set[Diagnostic] = set()

        def checked(slug: str, diagnostics: list[Diagnostic]) -> None:  # told once a game's checks are done
            if slug in said:
                return
            said.add(slug)
            print_diagnostics(console, [d for d in diagnostics if d.severity is not Severity.INFO and d not in shown])
            shown.update(diagnostics)
            console.print(f"checked {slug}: {summary(diagnostics) if diagnostics else 'no problems found'} "
                          f"({time.perf_counter() - started:.2f} s)", highlight=False)

        def placed(slug: str, path: Path) -> None:  # the deck the designer is looking at, before the rest is drawn
            console.print(f"[green]updated[/] {display_path(path)} ({time.perf_counter() - started:.2f} s)",
                          highlight=False)

        results = build_games(project, packs, options, jobs=jobs, pool=pool, checked=checked,
                              early=("deck.pdf",) if deck_first else (), placed=placed,
                              here=deck_first) if packs else []
        seconds = time.perf_counter() - started
        _report(console, results, problems, seconds, shown)
        if built:
            built(results)

    try:
        run(slugs)
        watched = folders(project.root)
        console.print(f"watching {', '.join(display_path(f) for f in watched)} (Ctrl+C to stop)", highlight=False)
        for touched in touched_games(project.root, lambda: slugs or [p.name for p in project.packs(None)[0]], stop):
            run(sorted(touched), deck_first=True)
            give_back()  # what this rebuild left behind in memory, as serve does
    except KeyboardInterrupt:  # Ctrl+C is how a watcher ends, also before the file watcher takes it over
        pass
    finally:
        if pool is not None:
            pool.close()


def _report(console: Console, results: list[BuildResult], problems: list, seconds: float,
            shown: Collection[Diagnostic] = ()) -> None:
    """What each game's build did, the errors and warnings not printed yet (``shown``: those
    printed when the games were checked), and the summary of them all."""
    every = list(problems)
    for result in results:
        every += result.diagnostics
        if not result.written:
            where = "above" if all(d in shown for d in result.diagnostics if d.severity is Severity.ERROR) else "below"
            console.print(f"[red]not built[/] {result.slug}: fix the errors {where}", highlight=False)
        elif result.rendered:
            names = ", ".join(result.rendered)
            console.print(f"[green]built[/] {result.slug}: {names}", highlight=False)
        else:
            console.print(f"[dim]unchanged[/] {result.slug}", highlight=False)
    print_diagnostics(console, [d for d in every if d.severity is not Severity.INFO and d not in shown])
    console.print(f"{summary(every) if every else 'no problems found'} ({seconds:.2f} s)", highlight=False)
