"""Writing ``output/<slug>/`` in a separate process, so a long build never delays the page.

The preview's worker thread checks and draws a game in a fraction of a second; writing its
PDFs takes seconds. :class:`Builder` runs :func:`cardforge.incremental.build_games` in one worker
process (spawned, so the server's threads are not forked), one build at a time, and when
saves arrive during a build it runs only the newest afterwards. The worker runs at a lower
priority (nice 10), so checking and drawing the next save is not slowed by a build.
"""
from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from cardforge.build import BuildOptions, Project
from cardforge.util.diagnostics import Diagnostic
from cardforge.util.processes import worker_started

# builds one worker process runs before a fresh one takes over: what a long session's builds
# leave in the worker's memos and allocator is returned to the system (see tools/serve_memory.py)
BUILDS_PER_WORKER = 50


def build_pack(root: str, slug: str, options: BuildOptions) -> tuple[list[str], list[Diagnostic]]:
    """Check and build ``cards/<slug>`` of the project at ``root`` (runs in the worker process).

    Returns the names of the files written (none when the build refused or failed) and the
    build's diagnostics.
    """
    from cardforge.cache.registry import give_back
    from cardforge.incremental import build_games

    project = Project(Path(root))
    result = build_games(project, [project.cards / slug], options, jobs=1)[0]  # the incremental build
    give_back()  # what this build left behind in the worker's memory
    return [p.name for p in result.written], result.diagnostics


def _lower_priority(parent: int) -> None:
    """The worker process yields the processor to the server's check-and-draw thread, after
    setting itself up as every worker does (it ends with the server ``parent``, quietly on
    Ctrl+C: :func:`cardforge.util.processes.worker_started`)."""
    worker_started(parent)
    try:
        os.nice(10)
    except (AttributeError, OSError):  # not on POSIX
        pass


class Builder:
    """Builds on request; ``done(slug, generation, written, diagnostics)`` is called from a pool
    thread when a build ends, or in the thread that asked when the build had already ended
    (``written`` is None when the build raised); a game's builds are reported in order."""

    def __init__(self, root: Path, options: BuildOptions, done: Callable):
        self.root, self.options, self.done = root, options, done
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._running: dict[str, int] = {}
        self._wanted: dict[str, int] = {}
        self._closed = False

    def request(self, slug: str, generation: int) -> None:
        """Build ``slug`` as of ``generation`` now, or after the build under way ends."""
        with self._lock:
            self._wanted[slug] = generation
            started = self._submit(slug) if slug not in self._running else None
        self._watch(slug, started)

    def _submit(self, slug: str) -> tuple[Future, int] | None:
        """Start the build of ``slug`` wanted (call holding the lock); returns its future and
        generation for :meth:`_watch`, or None once closed."""
        if self._closed:
            return None
        for fresh in (False, True):  # a worker that died between builds broke the pool: start a new one
            if self._pool is None:
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=_lower_priority, initargs=(os.getpid(),),
                                                 max_tasks_per_child=BUILDS_PER_WORKER)
            try:
                future = self._pool.submit(build_pack, str(self.root), slug, self.options)
                break
            except BrokenProcessPool:
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
                if fresh:
                    raise
        generation = self._running[slug] = self._wanted.pop(slug)
        return future, generation

    def _watch(self, slug: str, started: tuple[Future, int] | None) -> None:
        """Have :meth:`_finished` called when the build ``started`` ends. Called without the
        lock: a build that has already ended is finished at once, in this thread."""
        if started is not None:
            future, generation = started
            future.add_done_callback(lambda f: self._finished(slug, generation, f))

    def _finished(self, slug: str, generation: int, future: Future) -> None:
        try:
            written, diagnostics = future.result()
        except Exception as exc:  # the worker died or the build raised: report, keep serving
            written, diagnostics = None, [exc]
            if isinstance(exc, BrokenProcessPool):
                with self._lock:  # the next build starts a new worker process
                    if self._pool is not None:
                        self._pool.shutdown(wait=False, cancel_futures=True)
                    self._pool = None
        with self._lock:
            del self._running[slug]
            started = self._submit(slug) if slug in self._wanted else None
        self.done(slug, generation, written, diagnostics)  # reported before the next one can be
        self._watch(slug, started)

    def busy(self, slug: str) -> bool:
        with self._lock:
            return slug in self._running or slug in self._wanted

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool:
            pool.shutdown(wait=True, cancel_futures=True)
