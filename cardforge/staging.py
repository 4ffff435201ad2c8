"""Output folders: one build of a game at a time, and no staging folder left behind.

A build renders into ``output/<game>/.build-*`` and moves the results into place only when
everything succeeded (see :func:`cardforge.build.build_game`). :func:`build_lock` takes an
exclusive lock on ``output/.<game>.lock`` (``flock``: released by the system however the
process ends, so a killed build never leaves a stale lock) and sweeps the staging folders a
killed build left behind; a second build of the same game meanwhile gets ``build-locked``.
"""
from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path

from cardforge.diagnostics import Diagnostic, diag, display_path

STAGING_PREFIX = ".build-"


class OutputError(Exception):
    """The output folder cannot be used; carries the diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def sweep(target: Path) -> list[Path]:
    """Remove staging folders left in ``target`` by a build that was killed; returns them."""
    left = [p for p in target.glob(STAGING_PREFIX + "*") if p.is_dir() and not p.is_symlink()]
    for folder in left:
        shutil.rmtree(folder, ignore_errors=True)
    return left


def prepare(target: Path) -> None:
    """Make ``target`` (``output/<game>``) a writable folder; raises :class:`OutputError` (``write-failed``)."""
    try:
        target.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next((p for p in [target, *target.parents] if p.exists() and not p.is_dir()), target)
        raise OutputError(diag("write-failed", f"cannot write to {display_path(target)}: {display_path(blocker)} "
                               "is a file, not a folder", file=display_path(blocker),
                               hint="move the file away, or build into another project with --root")) from None
    except OSError as exc:
        raise OutputError(diag("write-failed", f"cannot create {display_path(target)}: {exc.strerror}",
                               file=display_path(target))) from None
    if not os.access(target, os.W_OK | os.X_OK):
        raise OutputError(diag("write-failed", f"{display_path(target)} is read-only", file=display_path(target),
                               hint="make the folder writable (chmod u+w) or build into another project with --root"))


@contextmanager
def build_lock(target: Path):
    """Hold the lock of the game whose output folder is ``target`` for the enclosed build.

    Raises :class:`OutputError` with ``build-locked`` when another build holds it, and
    ``write-failed`` when the lock file cannot be created.
    """
    import fcntl

    lock_path = target.parent / f".{target.name}.lock"
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise OutputError(diag("write-failed", f"cannot create the lock file {display_path(lock_path)}: "
                               f"{exc.strerror}", file=display_path(lock_path))) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise OutputError(diag("build-locked", f"another build of {target.name} is running (process {holder}); "
                                   "this one stops so the two cannot mix their files", file=display_path(lock_path),
                                   hint="wait for it to finish, then build again")) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        sweep(target)
        yield
    finally:
        os.close(fd)  # releases the lock
