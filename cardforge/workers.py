"""Worker processes of a build: how many, the pool that runs its tasks, and their progress.

:func:`pool` gives :func:`cardforge.incremental.build_games` a process pool of ``jobs``
workers (forked; spawned when another thread runs beside the build, as in a program that
serves pages: see :func:`cardforge.util.processes.fork_safe`), or for one job a stand-in that runs each task
at once in this process, with a queue that carries deck progress (``(slug, cards drawn)``)
back from the workers. The low-level helpers every worker uses (:func:`default_jobs`,
:func:`worker_started`, :func:`pool_context`) are in :mod:`cardforge.util.processes`.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cardforge.util.processes import pool_context, worker_started

if TYPE_CHECKING:
    from concurrent.futures import Future

Progress = Callable[[str, int, int], None]
progress_queue = None  # in a worker process (or around an inline task): where deck progress is sent


class Inline:
    """The pool of one: runs each task at once in this process, reporting progress as it goes."""

    def __init__(self, progress: Progress | None, total: Callable[[str], int]):
        self.report = Report(progress, total)

    def submit(self, fn, *args) -> Future:
        from concurrent.futures import Future

        global progress_queue
        future: Future = Future()
        progress_queue = self.report
        try:
            future.set_result(fn(*args))
        finally:
            progress_queue = None
        return future

    def drain(self) -> None:
        pass

    def ready_to_compile(self) -> None:
        pass

    def warm_up(self, compiles: int) -> None:
        pass

    def draw(self, idle: bool) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Report:
    """Progress reports (slug, cards drawn) passed on with the game's card count (``total(slug)``)."""

    def __init__(self, progress: Progress | None, total: Callable[[str], int]):
        self.progress = progress
        self.total = total

    def put(self, item: tuple[str, int]) -> None:
        if self.progress:
            slug, done = item
            self.progress(slug, done, self.total(slug))


class Pool:
    """A process pool (forked where :func:`~cardforge.util.processes.fork_safe`, else
    spawned) with a queue for progress reports from its workers."""

    def __init__(self, jobs: int, progress: Progress | None, total: Callable[[str], int], *, keep: bool = False):
        self.jobs = jobs
        self.report = Report(progress, total)
        self.executor = None  # started by the first task: a build served from the cache forks nothing
        self.forked = False  # whether the workers are forked (else spawned)
        self.cold = False  # the workers were forked before this process warmed up (see warm_up)
        self.keep = keep  # the workers outlive the build (see kept_pool)
        self.drawn = False  # the workers have drawn outputs: they hold what drawing reads and imports
        self.builds = 0  # builds this pool served (see reuse)

    def submit(self, fn, *args) -> Future:
        from concurrent.futures.process import BrokenProcessPool

        if self.executor is None:
            self._start()
        try:
            return self.executor.submit(fn, *args)
        except BrokenProcessPool:  # a kept worker died (killed, out of memory) since the last build
            self._stop()
            self._start()
            return self.executor.submit(fn, *args)

    def _start(self) -> None:
        from concurrent.futures import ProcessPoolExecutor

        context = pool_context()  # forked, unless another thread runs in this process
        self.forked = context.get_start_method() == "fork"
        self.queue = context.SimpleQueue()
        self.executor = ProcessPoolExecutor(max_workers=self.jobs, mp_context=context, initializer=_worker,
                                            initargs=(self.queue, os.getpid()))

    def _stop(self, cancel: bool = False) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=True, cancel_futures=cancel)
        self.executor, self.cold, self.drawn = None, False, False

    def reuse(self, progress: Progress | None, total: Callable[[str], int]) -> Pool:
        """This kept pool for the next build, its progress reaching ``progress``: its workers
        as the last build left them, or fresh ones every :data:`KEPT_BUILDS` builds (what the
        builds left in their memos and allocator goes back to the system)."""
        self.report = Report(progress, total)
        self.builds += 1
        if self.builds % KEPT_BUILDS == 0:
            self._stop()
        return self

    def drain(self) -> None:
        while self.executor is not None and not self.queue.empty():
            self.report.put(self.queue.get())

    def ready_to_compile(self) -> None:
        """Call before submitting a compile: before the workers fork, this process imports
        what compiling imports (:func:`import_compiler`)."""
        if self.executor is None:
            import_compiler()

    def warm_up(self, compiles: int) -> None:
        """Get ready to draw while the ``compiles`` games submitted compile. With forked
        workers and fewer compiles than workers (one game edited: a worker would wait idle),
        this process imports what drawing needs and parses the shipped faces itself
        (:func:`_warm_up`) beside the compiles, and :meth:`draw` forks the workers again from
        it: every output then starts warm, the first ones included. Otherwise each worker
        but one gets a :func:`_warm_up` (queued after the compiles: taken when idle)."""
        if self.drawn and self.executor is not None:  # kept workers that have drawn are warm
            return
        if self.forked and compiles < self.jobs:
            _warm_up()
            self.cold = True
            return
        for _ in range(self.jobs - 1):
            self.submit(_warm_up)

    def draw(self, idle: bool) -> None:
        """Call before submitting a game's outputs; ``idle``: no task of the pool runs. Workers
        forked before this process warmed up (:meth:`warm_up`) are ended then, so the next
        task forks warm ones (a running task keeps them until the pool is idle again)."""
        if self.cold and idle and self.executor is not None:
            self.drain()
            self._stop()
        self.drawn = True

    def close(self) -> None:
        """End the workers (a kept pool's owner calls this when it stops)."""
        self._stop(cancel=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if not self.keep or exc[0] is not None:  # a kept pool whose build raised starts afresh next time
            self._stop(cancel=True)
        else:
            self.drain()
        return False


def _warm_up() -> None:
    """In a pool worker with nothing to do while a game compiles, or in the build's process
    before it forks its workers again (:meth:`Pool.warm_up`): import what drawing needs and
    parse the shipped sans and serif faces, so that a first output starts drawing at once (a
    forked worker has only what the build imported before forking)."""
    try:
        import reportlab.pdfgen.canvas  # noqa: F401
        import reportlab.platypus  # noqa: F401

        from cardforge.render import fonts

        fonts.register_families(("sans", "serif"))
    except (ImportError, OSError):  # reported where an output needs them
        pass


def import_compiler() -> None:
    """Import what compiling a game imports (the loader, the schema validation, the checks)
    in this process, before the pool that compiles forks: every forked worker has them, and
    a compiled game sent back here unpickles without importing its classes' modules first
    (the layout, element and model modules with Jinja and PyYAML, 55-75 ms that otherwise
    fall between a game's compile and the first of its outputs)."""
    import cardforge.checks  # noqa: F401
    import cardforge.sources.load  # noqa: F401
    import cardforge.validation.cards  # noqa: F401


def _worker(queue, parent: int) -> None:
    global progress_queue
    progress_queue = queue
    worker_started(parent)


SOURCE_SUFFIXES = {".yaml", ".yml", ".csv", ".tsv", ".xlsx", ".ods", ".md"}  # what a compile reads (a catalog only with --lang)


def largest_first(items: list, pack_of: Callable[[object], Path]) -> list:
    """``items`` ordered by the bytes of their pack's sources (``pack_of(item)``: its
    folder), largest first, else in the order given: a pool handed the longest compiles
    first queues the outputs of the largest games first, so that the smaller games' fill
    the end of the build instead of the largest game's alone."""
    def size(item) -> int:
        try:
            return sum(p.stat().st_size for p in pack_of(item).rglob("*") if p.suffix.lower() in SOURCE_SUFFIXES)
        except OSError:
            return 0
    return sorted(items, key=size, reverse=True)


def pool(jobs: int, progress: Progress | None, total: Callable[[str], int]) -> Pool | Inline:
    """A pool of ``jobs`` forked workers (an :class:`Inline` stand-in for one job) whose
    deck progress reaches ``progress(slug, drawn, total(slug))``. Use it as a context
    manager; tasks are ``submit(fn, *args)`` as with ``concurrent.futures``."""
    return Pool(jobs, progress, total) if jobs > 1 else Inline(progress, total)


KEPT_BUILDS = 50  # builds a kept pool's workers serve before fresh ones take over (as serve's build worker)


def kept_pool(jobs: int) -> Pool:
    """A pool of ``jobs`` workers (two or more) that outlives each build it serves, for a
    process that builds again and again (``cardforge watch``): pass it to
    :func:`cardforge.incremental.build_games` as ``pool``, and :meth:`Pool.close` it at the
    end. Its workers keep what drawing imported, parsed and measured from one build to the
    next, so a rebuild after a one-card edit draws in warm processes; a build that raises
    ends them (the next build starts fresh ones), as does a worker's death."""
    return Pool(jobs, None, lambda slug: 0, keep=True)
