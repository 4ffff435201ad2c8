"""Workers kept from one build to the next: a process forked during a build never keeps
the game locked after it."""
from __future__ import annotations

import multiprocessing
import time

import pytest

from cardforge.staging import OutputError, build_lock


def test_a_process_forked_while_a_build_holds_its_games_lock_does_not_keep_it_locked(tmp_path):
    """A build lock is an flock, held while any descriptor of it is open: a worker forked
    during a build (and kept after it) must not take the build's descriptor with it."""
    target = tmp_path / "output" / "mini"
    target.mkdir(parents=True)
    with build_lock(target):
        child = multiprocessing.get_context("fork").Process(target=time.sleep, args=(60,))
        child.start()
    try:
        try:
            with build_lock(target):  # the next build, while the forked child still runs
                pass
        except OutputError as exc:
            pytest.fail(f"the forked child kept the lock: {exc.diagnostic.message}")
    finally:
        child.kill()
        child.join()
