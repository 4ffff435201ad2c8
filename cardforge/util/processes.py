"""Process helpers shared by every stage that starts workers (the build's pool, the deck's
sheet workers): how many cores this process may use, whether it may fork, tying a
worker's life to its parent's, and how often its garbage collector runs.
"""
from __future__ import annotations

import gc
import os
import threading

COLLECT_EVERY = 20_000  # net allocations between two collections of the youngest generation (Python: 700)


def default_jobs() -> int:
    """The number of cores this process may run on (its CPU affinity where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def pace_collector() -> None:
    """Run Python's cyclic garbage collector less often in this process: its youngest
    generation every :data:`COLLECT_EVERY` net allocations instead of 700, the older
    generations' ratios kept (a pace already slower is left alone).

    Called once by every cardforge command (:func:`cardforge.cli.guard.guarded`) and every
    worker it starts (:func:`worker_started`). Drawing
    and compiling allocate millions of short-lived objects, few of them in cycles, while
    the objects they keep (a deck's pages, a game's cards) make each older collection
    longer: in ``tools/bench.py``'s deck of 1,000 distinct cards the collector took 0.13 s
    of 1.2 s at Python's pace and 0.05 s at this one, with the same peak memory for 10,000
    cards (76 MiB)."""
    first, *older = gc.get_threshold()
    if 0 < first < COLLECT_EVERY:
        gc.set_threshold(COLLECT_EVERY, *older)


def die_with_parent(parent: int | None = None) -> None:
    """On Linux, ask the kernel to end this worker when the process that started it dies (a
    killed build must not leave workers behind); elsewhere the pool's own shutdown does.

    ``parent``: that process's id, read before the worker started. A parent killed between
    starting the worker and this call is gone before the kernel was asked, so the worker
    ends here at once when its parent is no longer ``parent``."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def quiet_on_interrupt() -> None:
    """In a worker: Ctrl+C (SIGINT, which reaches the whole process group) ends it at once,
    without a traceback; the process that started it reports the interruption. A worker
    kept between builds (:func:`cardforge.workers.kept_pool`, serve's build worker) waits
    idle for its next task, where an interruption would otherwise print the queue's traceback."""
    import signal

    signal.signal(signal.SIGINT, lambda signum, frame: os._exit(128 + signum))


def worker_started(parent: int | None = None) -> None:
    """What every worker process cardforge starts does first (its pool's initializer: the
    build's pool, the deck's sheet workers, serve's build worker): it ends with ``parent``,
    the process that started it (:func:`die_with_parent`), ends quietly on Ctrl+C
    (:func:`quiet_on_interrupt`) and collects garbage at cardforge's pace
    (:func:`pace_collector`: a forked worker inherits it, a spawned one starts at Python's)."""
    die_with_parent(parent)
    quiet_on_interrupt()
    pace_collector()


def fork_safe() -> bool:
    """True when this process runs no thread but its main one, so a forked worker starts
    with nothing half-held.

    A fork copies only the thread that calls it, with every lock as it was at that instant:
    a lock another thread held then (a module it was importing, a library's allocator, a
    stream it was writing) stays held in the child for ever, and the child waits for it
    without end. ``cardforge build`` and ``watch`` run no other thread and fork; a build
    called beside other threads (a program serving pages, a notebook's kernel, a test
    runner's server) starts fresh processes (:func:`pool_context`) and draws a deck in the
    process itself. Threads started outside :mod:`threading` (a C library's own, waiting
    in C) are not counted."""
    return threading.active_count() == 1


def pool_context():
    """The :mod:`multiprocessing` context a build's pool starts its workers with: ``fork``
    (a worker inherits everything the build has imported and read, and starts at once) when
    :func:`fork_safe`, else ``spawn`` (a fresh interpreter per worker: about a second more
    to start, and safe beside any thread)."""
    import multiprocessing

    return multiprocessing.get_context("fork" if fork_safe() else "spawn")
