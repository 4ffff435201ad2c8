"""Process helpers shared by every stage that forks workers (the build's pool, the deck's
sheet workers): how many cores this process may use, and tying a worker's life to its parent's.
"""
from __future__ import annotations

import os


def default_jobs() -> int:
    """The number of cores this process may run on (its CPU affinity where the system says)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def die_with_parent() -> None:
    """On Linux, ask the kernel to end this worker when the process that forked it dies (a
    killed build must not leave workers behind); elsewhere the pool's own shutdown does."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
