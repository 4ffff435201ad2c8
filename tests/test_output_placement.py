"""A game's output folder is replaced in one step: a build killed at any point leaves
``output/<game>`` entirely the previous output or entirely the new one (compared file by
file, by SHA-256), keeps the files cardforge did not write, and a folder that cannot be
written is ``write-failed`` with its path, the previous output untouched."""
from __future__ import annotations

import errno
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from cardforge import staging
from tests.conftest import FIXTURES, REPO, run_cli

ENV = dict(os.environ, PYTHONPATH=str(REPO))
# Runs `cardforge ARGS...` in a process that kills itself with SIGKILL at POINT of placing
# the output: after carrying over the first kept file, just before the folder swap, just
# after it (before the previous folder is removed), or between the two renames of the
# fallback used where the system cannot swap.
DRIVER = r"""
import os, runpy, signal, sys
import cardforge.staging as staging

point = sys.argv[1]
die = lambda *a: os.kill(os.getpid(), signal.SIGKILL)
if point == "carry":
    carry = staging._carry
    def carry_then_die(source, destination):
        carry(source, destination)
        die()
    staging._carry = carry_then_die
elif point == "exchange":
    staging._exchange = die
elif point == "swapped":
    exchange = staging._exchange
    staging._exchange = lambda a, b: (exchange(a, b), die())
elif point == "fallback":
    staging._exchange = lambda a, b: False
    rename = os.rename
    def rename_then_die(a, b):
        rename(a, b)
        die()
    staging.os.rename = rename_then_die
sys.argv = ["cardforge", *sys.argv[2:]]
runpy.run_module("cardforge", run_name="__main__")
"""


def snapshot(folder: Path) -> dict[str, str]:
    """Every file below ``folder`` (relative path) and the SHA-256 of its bytes."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def leftovers(root: Path) -> list[str]:
    return sorted(p.name for p in (root / "output").iterdir() if ".build-" in p.name) + \
        sorted(p.name for p in (root / "output/mini").glob(".build-*"))


@pytest.fixture(scope="module")
def states(tmp_path_factory):
    """A project built on Letter with a user's own files in output/mini (the "old" state),
    and the snapshot the same folder has after an A4 build (the "new" state)."""
    base = tmp_path_factory.mktemp("placement")
    old_root = base / "old"
    shutil.copytree(FIXTURES / "project", old_root)
    assert run_cli("build", "mini", "--root", str(old_root)).exit_code == 0
    folder = old_root / "output/mini"
    (folder / "notes.txt").write_text("printed 3 copies at the shop; ask for 300 gsm\n")
    (folder / "playtest").mkdir()
    (folder / "playtest/round-1.md").write_text("too many coins\n")
    new_root = base / "new"
    shutil.copytree(old_root, new_root)
    started = time.monotonic()
    assert a4_build(new_root).wait(timeout=300) == 0
    seconds = time.monotonic() - started  # how long a whole build takes, here and now
    old, new = snapshot(folder), snapshot(new_root / "output/mini")
    assert set(old) == set(new) and old["deck.pdf"] != new["deck.pdf"] and old["notes.txt"] == new["notes.txt"]
    return old_root, old, new, seconds


def fresh(states, tmp_path: Path) -> Path:
    old_root, old, _, _ = states
    root = tmp_path / "project"
    shutil.copytree(old_root, root)
    assert snapshot(root / "output/mini") == old
    return root


def a4_build(root: Path, point: str | None = None) -> subprocess.Popen:
    args = ["build", "mini", "--root", str(root), "--paper", "a4", "--no-cache"]
    command = [sys.executable, "-c", DRIVER, point, *args] if point else [sys.executable, "-m", "cardforge", *args]
    return subprocess.Popen(command, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@pytest.mark.slow  # kills real builds part-way
@pytest.mark.parametrize("point, expect", [("carry", "old"), ("exchange", "old"), ("swapped", "new")])
def test_a_build_killed_while_placing_its_output_leaves_it_entirely_old_or_new(states, tmp_path, point, expect):
    _, old, new, _ = states
    root = fresh(states, tmp_path)
    proc = a4_build(root, point)
    assert proc.wait(timeout=120) == -signal.SIGKILL
    assert snapshot(root / "output/mini") == {"old": old, "new": new}[expect]
    assert leftovers(root), "the killed build left no staging folder: it died before placing"
    assert run_cli("build", "mini", "--root", str(root)).exit_code == 0  # Letter again: the old state
    assert snapshot(root / "output/mini") == old and leftovers(root) == []


@pytest.mark.slow  # kills real builds part-way
def test_a_build_killed_between_the_fallbacks_two_renames_gets_its_output_back(states, tmp_path):
    _, old, _, _ = states
    root = fresh(states, tmp_path)
    assert a4_build(root, "fallback").wait(timeout=120) == -signal.SIGKILL
    assert not (root / "output/mini").exists()  # the one moment the fallback is not atomic
    assert run_cli("build", "mini", "--root", str(root)).exit_code == 0
    assert snapshot(root / "output/mini") == old and leftovers(root) == []


@pytest.mark.slow  # kills real builds part-way
def test_a_build_killed_at_many_moments_leaves_the_output_entirely_old_or_new(states, tmp_path):
    _, old, new, seconds = states
    root = fresh(states, tmp_path)
    seen = []
    for step in range(1, 13):  # from a tenth of a whole build's time to a bit more than all of it
        proc = a4_build(root)
        time.sleep(seconds * step / 11)
        proc.send_signal(signal.SIGKILL)
        code = proc.wait(timeout=120)
        now = snapshot(root / "output/mini")
        assert now in (old, new), f"killed after {seconds * step / 11:.2f} s: a mix of old and new files"
        seen.append(("killed " if code == -signal.SIGKILL else "finished ") + ("old" if now == old else "new"))
        if now == new:
            assert run_cli("build", "mini", "--root", str(root)).exit_code == 0
            assert snapshot(root / "output/mini") == old
    assert any(s.startswith("killed") for s in seen), seen
    assert run_cli("build", "mini", "--root", str(root)).exit_code == 0 and leftovers(root) == []


def test_a_build_keeps_the_files_it_did_not_write(states, tmp_path):
    _, _, new, _ = states
    root = fresh(states, tmp_path)
    folder = root / "output/mini"
    (folder / "link-to-notes").symlink_to("notes.txt")
    result = run_cli("build", "mini", "--root", str(root), "--paper", "a4", "--no-cache")
    assert result.exit_code == 0, result.output
    assert snapshot(folder) == {**new, "link-to-notes": new["notes.txt"]}
    assert os.readlink(folder / "link-to-notes") == "notes.txt"


def test_without_an_atomic_swap_the_fallback_still_places_everything(states, tmp_path, monkeypatch):
    _, _, new, _ = states
    root = fresh(states, tmp_path)
    monkeypatch.setattr(staging, "_exchange", lambda a, b: False)
    assert run_cli("build", "mini", "--root", str(root), "--paper", "a4", "--no-cache").exit_code == 0
    assert snapshot(root / "output/mini") == new and leftovers(root) == []


def test_an_output_folder_that_is_a_symlink_stays_one(states, tmp_path):
    _, _, new, _ = states
    root = fresh(states, tmp_path)
    elsewhere = tmp_path / "elsewhere"
    shutil.move(root / "output/mini", elsewhere)
    (root / "output/mini").symlink_to(elsewhere)
    assert run_cli("build", "mini", "--root", str(root), "--paper", "a4", "--no-cache").exit_code == 0
    assert (root / "output/mini").is_symlink() and snapshot(elsewhere) == new
    assert leftovers(root) == [] and not [p for p in tmp_path.iterdir() if ".build-" in p.name]


# -- write-failed: an output folder that cannot be written ------------------------------------

@contextmanager
def immutable(path: Path):
    """``path`` made immutable (``chattr +i``: not even root may add, remove or rename its
    entries); skips the test where the file system or the user cannot."""
    try:
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True)
    except FileNotFoundError:
        pytest.skip("chattr is not installed")
    if done.returncode != 0:
        pytest.skip(f"cannot make a folder immutable here: {done.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


@pytest.mark.parametrize("which", ["output/mini", "output"])
def test_a_read_only_output_folder_is_write_failed_and_loses_nothing(states, tmp_path, which):
    _, old, _, _ = states
    root = fresh(states, tmp_path)
    with immutable(root / which):
        result = run_cli("build", "mini", "--root", str(root), "--paper", "a4", "--no-cache")
    assert result.exit_code == 1
    assert "error[write-failed]" in result.stderr and f"{root / which}" in result.stderr, result.stderr
    assert "Traceback" not in result.output
    assert snapshot(root / "output/mini") == old and leftovers(root) == []


@pytest.mark.parametrize("where", ["swap", "carry", "staging"])
def test_a_file_system_error_while_placing_or_staging_is_write_failed(states, tmp_path, monkeypatch, where):
    """Where the system refuses at the last step (the swap, the carrying over of kept files)
    or the first (the staging folder): as a read-only file system would (EROFS)."""
    _, old, _, _ = states
    root = fresh(states, tmp_path)

    def refuse(*args, **kwargs):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(root / "output/mini"))

    target = {"swap": "cardforge.staging._exchange", "carry": "cardforge.staging._carry",
              "staging": "tempfile.mkdtemp"}[where]
    monkeypatch.setattr(target, refuse)
    result = run_cli("build", "mini", "--root", str(root), "--paper", "a4", "--no-cache")
    assert result.exit_code == 1
    (line,) = [ln for ln in result.stderr.splitlines() if "error[write-failed]" in ln]
    assert "Read-only file system" in line and str(root / "output") in line, line
    assert "Traceback" not in result.output
    assert snapshot(root / "output/mini") == old and leftovers(root) == []


def test_an_export_folder_older_than_the_cards_is_named_with_the_option_that_writes_it(tmp_path):
    """Export folders a build did not write (tts/ here) stay, but once the cards changed since
    they were made, every build says so at the folder, with the command that writes it again."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "project", root)
    build = lambda *more: run_cli("build", "mini", "--root", str(root), *more)  # noqa: E731
    first = build("--export", "tts")
    assert first.exit_code == 0 and (root / "output/mini/tts").is_dir(), first.output
    same = build()
    assert same.exit_code == 0 and "export-stale" not in same.stderr  # the cards are those tts/ was made from
    card_file = next(p for p in sorted((root / "cards/mini").glob("*.yaml")) if p.name != "game.yaml")
    text = card_file.read_text(encoding="utf-8")
    name = next(line.split(":", 1)[1].strip() for line in text.splitlines() if line.strip().startswith("- name:"))
    card_file.write_text(text.replace(name, name + " Prime", 1), encoding="utf-8")
    edited = build()
    said = " ".join(edited.stderr.split())
    assert edited.exit_code == 0 and "output/mini/tts: warning[export-stale]" in said, said
    assert "cardforge build mini --export tts" in said
    assert (root / "output/mini/tts").is_dir()  # kept: the warning names it, nothing is deleted
    again = build("--export", "tts")
    assert again.exit_code == 0 and "export-stale" not in again.stderr
