"""Workers kept from one build to the next (``cardforge watch``), and what a build tells
before it draws: the same workers serve the next build and write a clean build's bytes, a
forked worker never keeps a game locked, a game's diagnostics are told before any of its
outputs is drawn, and Ctrl+C ends a watcher and its idle workers without a traceback."""
from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardforge import incremental, workers
from cardforge.build import Project
from cardforge.incremental import build_games
from cardforge.staging import OutputError, build_lock
from conftest import FIXTURES, REPO

ALL = ["deck.pdf", "rules.pdf", "rulebook.pdf", "rulebook.html", "reference.pdf"]


def mini(folder: Path) -> Project:
    shutil.copytree(FIXTURES / "project", folder)
    return Project(folder)


def edit(project: Project, old: str, new: str) -> None:
    cards = project.cards / "mini" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    assert old in text
    cards.write_text(text.replace(old, new), encoding="utf-8")


def outputs(project: Project) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((project.output / "mini").iterdir()) if p.is_file()}


def worker_id() -> int:
    time.sleep(0.2)  # busy long enough that each of the two workers takes one of two tasks
    return os.getpid()


def workers_now(pool: workers.Pool) -> set[int]:
    """The process ids of the pool's two workers (two tasks at once: one each)."""
    return {future.result() for future in [pool.submit(worker_id) for _ in range(2)]}


def test_a_kept_pool_draws_the_next_build_in_the_same_workers_and_writes_a_clean_builds_bytes(tmp_path):
    project = mini(tmp_path / "p")
    packs = project.packs(None)[0]
    pool = workers.kept_pool(2)
    try:
        [first] = build_games(project, packs, jobs=2, pool=pool)
        assert first.ok and first.rendered == ALL
        before, executor = workers_now(pool), pool.executor
        edit(project, "Gain 1 mana", "Gain 2 mana")
        [second] = build_games(project, packs, jobs=2, pool=pool)
        assert second.ok and second.rendered == ALL
        assert pool.executor is executor and workers_now(pool) == before  # the same two workers
        assert len(before) == 2 and os.getpid() not in before
    finally:
        pool.close()
    assert pool.executor is None
    clean = mini(tmp_path / "clean")
    edit(clean, "Gain 1 mana", "Gain 2 mana")
    build_games(clean, clean.packs(None)[0], use_cache=False)
    assert outputs(project) == outputs(clean)


def test_a_build_that_raises_ends_the_kept_workers_and_the_next_build_starts_fresh_ones(tmp_path):
    project = mini(tmp_path / "p")
    packs = project.packs(None)[0]
    pool = workers.kept_pool(2)

    def progress(slug: str, drawn: int, total: int) -> None:
        raise RuntimeError("the caller's progress display failed")
    try:
        with pytest.raises(RuntimeError):
            build_games(project, packs, jobs=2, pool=pool, progress=progress)
        assert pool.executor is None
        [result] = build_games(project, packs, jobs=2, pool=pool)
        assert result.ok and result.written
    finally:
        pool.close()


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


def test_a_games_diagnostics_are_told_before_any_of_its_outputs_is_drawn(tmp_path, monkeypatch):
    project = mini(tmp_path / "p")
    edit(project, "Gain 1 mana", "Gain 1 manna")  # a word the glossary does not know: a finding
    events: list[tuple] = []
    render = incremental._render

    def drawing(compiled, name, *args, **kw):
        events.append(("drawn", name))
        return render(compiled, name, *args, **kw)
    monkeypatch.setattr(incremental, "_render", drawing)

    def checked(slug: str, diagnostics: list) -> None:
        events.append(("checked", slug, tuple(diagnostics)))
    for _ in range(2):  # compiled, then read from the cache
        events.clear()
        [result] = build_games(project, project.packs(None)[0], checked=checked)
        told = [e for e in events if e[0] == "checked"]
        assert len(told) == 1 and events[0] == told[0]
        diagnostics = told[0][2]
        assert diagnostics and list(diagnostics) == result.diagnostics[:len(diagnostics)]
    assert events == [told[0]]  # the second build drew nothing


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")
def test_ctrl_c_ends_a_preview_server_and_its_idle_build_worker_without_a_traceback(tmp_path):
    import socket

    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "project", root)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path / "serve.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "cardforge", "serve", "mini", "--port", str(port),
                                 "--root", str(root)], cwd=REPO, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        deadline = time.monotonic() + 120  # the build worker has built the game and waits for the next save
        while not (root / "output" / "mini" / "reference.pdf").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        assert proc.poll() is None and (root / "output" / "mini" / "reference.pdf").exists(), log.read_text()
        os.killpg(proc.pid, signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    said = log.read_text()
    assert "serving mini" in said and "Traceback" not in said, said


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")
def test_ctrl_c_ends_a_watcher_and_its_kept_workers_without_a_traceback(tmp_path):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "project", root)
    log = tmp_path / "watch.log"
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "cardforge", "watch", "--jobs", "2", "--root", str(root)],
                                cwd=REPO, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while "watching" not in log.read_text() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert "watching" in log.read_text(), log.read_text()
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl+C in the terminal sends: the watcher and its workers
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    said = log.read_text()
    assert "checked mini" in said and "Traceback" not in said and "KeyboardInterrupt" not in said.replace(
        "KeyboardInterrupt caught, stopping watch", "")
