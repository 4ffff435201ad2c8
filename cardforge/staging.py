"""Output folders: one build of a game at a time, placed in one step, nothing left behind.

A build renders into a staging folder beside ``output/<game>`` (:func:`new_staging`:
``output/.<game>.build-XXXXXXXX/<game>/``) and, only when everything succeeded,
:func:`place` fills in what the build did not write (the files of ``output/<game>`` it
keeps: the user's own notes, exports of earlier builds) and swaps the two folders in one
system call (Linux ``renameat2(RENAME_EXCHANGE)``), so ``output/<game>`` is at every instant
entirely the previous output or entirely the new one, however the build ends.

:func:`build_lock` takes an exclusive lock on ``output/.<game>.lock`` (``flock``: released by
the system however the process ends, so a killed build never leaves a stale lock) and sweeps
the staging folders a killed build left behind; a second build of the same game meanwhile
gets ``build-locked``.
"""
from __future__ import annotations

import errno
import json
import os
import re
import shutil
from contextlib import contextmanager
from pathlib import Path

from cardforge.util.diagnostics import (BUILD_FORCED, BUILD_LOCKED, EXPORT_STALE, WRITE_FAILED, Diagnostic, diag,
                                        display_path)

STAGING_PREFIX = ".build-"  # output/<game>/.build-*: where builds before the folder swap staged
_PREVIOUS = "previous"  # where the two-rename fallback parks the old folder until it is removed


class OutputError(Exception):
    """The output folder cannot be used; carries the diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _real(target: Path) -> Path:
    """``target`` with symlinks resolved (an ``output/<game>`` that links elsewhere stays a link)."""
    return Path(os.path.realpath(target))


def leftovers(target: Path) -> list[Path]:
    """Staging folders of ``target``'s game that a killed build left behind."""
    real = _real(target)
    own = re.compile(re.escape(f".{real.name}{STAGING_PREFIX}") + r"[a-z0-9_]{8}")
    try:
        beside = [p for p in real.parent.iterdir() if own.fullmatch(p.name)]
    except OSError:
        beside = []
    inside = list(real.glob(STAGING_PREFIX + "*")) if real.is_dir() else []
    return [p for p in beside + inside if p.is_dir() and not p.is_symlink()]


def sweep(target: Path) -> list[Path]:
    """Remove staging folders left by a build of ``target``'s game that was killed; returns
    them. Where the two-rename fallback of :func:`place` was killed between its renames
    (``output/<game>`` gone), the previous output is put back first."""
    real = _real(target)
    left = leftovers(target)
    for folder in left:
        if (folder / _PREVIOUS).is_dir():
            try:
                os.rmdir(real)  # gone, or made afresh (empty) by prepare(); a folder with files stays
            except OSError:
                pass
            if not os.path.lexists(real):
                try:
                    os.rename(folder / _PREVIOUS, real)
                except OSError:
                    pass
        shutil.rmtree(folder, ignore_errors=True)
    return left


def new_staging(target: Path) -> Path:
    """A new, empty folder ``output/.<game>.build-XXXXXXXX/<game>/`` beside ``target``
    (``output/<game>``), on the same file system, to build the game's next output folder in.

    Raises :class:`OutputError` (``write-failed``) when it cannot be created."""
    import tempfile

    real = _real(target)
    try:
        outer = Path(tempfile.mkdtemp(prefix=f".{real.name}{STAGING_PREFIX}", dir=real.parent))
        (outer / real.name).mkdir()
    except OSError as exc:
        raise OutputError(diag(WRITE_FAILED, f"cannot create a staging folder in {display_path(real.parent)}: "
                               f"{exc.strerror or exc}", file=display_path(real.parent),
                               hint="make the output folder writable, or build into another project with --root")) from None
    return outer / real.name


def place(staged: Path, target: Path) -> list[Path]:
    """Make the staging folder ``staged`` (from :func:`new_staging`) the game's output folder
    ``target`` in one step; returns the paths of ``target`` written (the entries of ``staged``).

    Every entry of ``target`` that ``staged`` does not replace (a user's notes, ``tts/`` from an
    earlier ``--tts`` build, files cardforge never wrote) is carried over first, as hard links
    where the file system allows (copies otherwise). Then the folders are exchanged with
    ``renameat2(RENAME_EXCHANGE)``; where the system has no such call, with two renames
    (``target`` aside, ``staged`` in). The previous folder is removed afterwards.
    Raises ``OSError`` when a step fails; ``target`` is then still the previous output.
    """
    real = _real(target)
    names = sorted(p.name for p in staged.iterdir())
    outer = staged.parent
    if real.is_dir():
        for entry in sorted(real.iterdir()):
            if entry.name not in names and not entry.name.startswith(STAGING_PREFIX):
                _carry(entry, staged / entry.name)
        if not _exchange(staged, real):
            os.rename(real, outer / _PREVIOUS)
            os.rename(staged, real)
    else:
        os.rename(staged, real)
    shutil.rmtree(outer, ignore_errors=True)
    return [target / name for name in names]


def place_now(staged: Path, names: list[str], target: Path, slug: str) -> list[Path]:
    """Put the outputs ``names`` of the staging folder ``staged`` (of the game ``slug``) in
    place at once, ahead of the rest of the build, which stays in ``staged`` for
    :func:`place`: they move to a staging folder of their own, placed as :func:`place` places
    a build's (so ``output/<game>`` is still entirely one output folder or the next). Returns
    the paths of ``target`` written. Raises :class:`OutputError` (``write-failed``) when a step
    fails; ``target`` is then still the previous output (and ``names`` may be gone from ``staged``)."""
    early = new_staging(target)
    try:
        for name in names:
            os.rename(staged / name, early / name)
        return place(early, target)
    except OSError as exc:
        shutil.rmtree(early.parent, ignore_errors=True)
        raise OutputError(placing_failed(slug, target, exc)) from None


def sweep_when_free(target: Path) -> None:
    """Take ``target``'s lock for a moment, which sweeps staging folders a killed build left
    (:func:`build_lock`); nothing when another build holds it."""
    try:
        with build_lock(target):
            pass
    except OutputError:
        pass


def _carry(source: Path, destination: Path) -> None:
    """``source`` (file, folder or symlink) again at ``destination``: hard links, else copies."""
    if source.is_symlink():
        os.symlink(os.readlink(source), destination)
    elif source.is_dir():
        destination.mkdir()
        for entry in sorted(source.iterdir()):
            _carry(entry, destination / entry.name)
        shutil.copystat(source, destination)
    else:
        try:
            os.link(source, destination)
        except OSError:
            shutil.copy2(source, destination)


_libc = None


def _exchange(a: Path, b: Path) -> bool:
    """Swap folders ``a`` and ``b`` atomically (Linux ``renameat2`` with ``RENAME_EXCHANGE``);
    False when this system or file system has no such call. Raises ``OSError`` otherwise."""
    global _libc
    import ctypes

    if _libc is None:
        try:
            _libc = ctypes.CDLL(None, use_errno=True)
            _libc.renameat2.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint)
        except (OSError, AttributeError):
            _libc = False
    if not _libc:
        return False
    at_fdcwd, rename_exchange = -100, 2
    if _libc.renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL):  # no such call, or a file system that cannot exchange
        return False
    raise OSError(err, os.strerror(err), str(b))


def prepare(target: Path) -> None:
    """Make ``target`` (``output/<game>``) a writable folder; raises :class:`OutputError` (``write-failed``)."""
    try:
        target.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        blocker = next((p for p in [target, *target.parents] if p.exists() and not p.is_dir()), target)
        raise OutputError(diag(WRITE_FAILED, f"cannot write to {display_path(target)}: {display_path(blocker)} "
                               "is a file, not a folder", file=display_path(blocker),
                               hint="move the file away, or build into another project with --root")) from None
    except OSError as exc:
        raise OutputError(diag(WRITE_FAILED, f"cannot create {display_path(target)}: {exc.strerror}",
                               file=display_path(target))) from None
    if not os.access(target, os.W_OK | os.X_OK):
        raise OutputError(diag(WRITE_FAILED, f"{display_path(target)} is read-only", file=display_path(target),
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
        raise OutputError(diag(WRITE_FAILED, f"cannot create the lock file {display_path(lock_path)}: "
                               f"{exc.strerror}", file=display_path(lock_path))) from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            raise OutputError(diag(BUILD_LOCKED, f"another build of {target.name} is running (process {holder}); "
                                   "this one stops so the two cannot mix their files", file=display_path(lock_path),
                                   hint="wait for it to finish, then build again")) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        sweep(target)
        yield
    finally:
        try:  # unlocked before it is closed: a worker forked meanwhile shares the lock, and keeps it while it lives
            fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def staging_folder(target: Path) -> Path:
    """A new empty staging folder for ``target`` (``output/<slug>``), where the game's next
    output folder is built (:func:`new_staging`). Raises :class:`OutputError`
    (``write-failed``) when ``target`` cannot be a writable folder or the staging folder
    cannot be created."""
    prepare(target)
    return new_staging(target)


def discard(staging: Path) -> None:
    """Remove a staging folder from :func:`staging_folder` and what holds it."""
    shutil.rmtree(staging.parent, ignore_errors=True)


def placing_failed(slug: str, target: Path, exc: OSError) -> Diagnostic:
    """``write-failed`` for an output folder that could not be put in place."""
    return diag(WRITE_FAILED, f"{slug}: cannot put the new output in place at {display_path(target)}: "
                f"{exc.strerror or exc}; the previous output is unchanged", file=display_path(target),
                hint="make the output folder writable, or build into another project with --root")


def forced(slug: str) -> Diagnostic:
    """``build-forced``: the game is built despite its errors."""
    return diag(BUILD_FORCED, f"{slug}: built despite errors because of --force; check the output")


EXPORTS = {"print-shop": "--export print-shop", "tts": "--export tts", "ttpg": "--export ttpg",
           "one-sided": "--export one-sided"}  # export folder -> the option that writes it; also shop-<name>/


def _export_option(name: str) -> str | None:
    """The option that writes the export folder ``name`` of ``output/<game>/``; None for
    anything else (deck.pdf, the rules documents, a user's own files)."""
    return EXPORTS.get(name) or (f"--shop {name[5:]}" if name.startswith("shop-") else None)


def stale_exports(output: Path, slug: str, written: list[str], inputs: str | None) -> list[Diagnostic]:
    """``export-stale`` warnings for the export folders of ``output/<slug>/`` that this build
    did not write (``written``: the names it put in place) and that were made from other
    pack files than ``inputs`` (the digest of the pack's files and layouts this build read);
    records ``inputs`` for the exports it wrote, in the
    :data:`~cardforge.cache.registry.EXPORTS_MADE` record. Nothing without ``inputs`` (a
    ``--no-cache`` build keeps no record). A record that cannot be written is left as it was."""
    from cardforge.cache.files import write_atomic
    from cardforge.cache.registry import EXPORTS_MADE

    if inputs is None or not EXPORTS_MADE.enabled:
        return []
    record = EXPORTS_MADE.folder(output, slug)
    try:
        made = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        made = {}
    made = made if isinstance(made, dict) else {}
    made.update({name: inputs for name in written if _export_option(name)})
    target = output / slug
    present = sorted(p.name for p in target.iterdir() if _export_option(p.name)) if target.is_dir() else []
    notes = []
    for name in present:
        if name not in written and made.get(name) != inputs:
            where = display_path(target / name)
            notes.append(diag(EXPORT_STALE, f"{slug}: {where}/ was not written by this build and was made from "
                              "other cards than these: it may hold old card text", file=where,
                              hint=f"run `cardforge build {slug} {_export_option(name)}` to write it again, "
                                   "or delete the folder"))
    kept = {name: made[name] for name in present if name in made}
    try:
        write_atomic(record, json.dumps(kept, sort_keys=True).encode())
    except OSError:
        pass
    return notes
