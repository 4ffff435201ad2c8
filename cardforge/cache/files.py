"""Files as cache inputs: which files count, their content digests, atomic writes, pruning.

Every cache of :mod:`cardforge.cache.registry` hashes its inputs and writes its entries
through these helpers, so "which files are inputs", "what a file's digest is" and "how an
entry is written and aged out" have one answer each.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import stat
import tempfile
import time
from pathlib import Path

_STALE_S = 3600  # a temporary file older than this is left from a killed process


def ignored(name: str) -> bool:
    """Editor droppings and caches: hidden files, backups, bytecode."""
    return name.startswith((".", "#")) or name.endswith(("~", ".pyc", ".swp")) or name == "__pycache__"


def input_files(folder: Path) -> list[Path]:
    """Every file below ``folder`` that is an input (not :func:`ignored`), in a stable order."""
    found = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not ignored(d))
        found += [Path(here, f) for f in sorted(files) if not ignored(f)]
    return found


_known: dict[str, tuple[int, int, int, bytes]] = {}  # path -> (size, mtime ns, inode, SHA-256)
_learnt = False
_RACY_NS = 2_000_000_000  # a file changed this recently may change again within its mtime tick


def file_digest(path: Path) -> bytes:
    """SHA-256 (32 bytes) of the file's bytes, remembered by (size, mtime, inode) so an
    unchanged file is not read again; a file modified in the last 2 s is always read (as git
    does). A missing file gives ``b"missing"``, a FIFO or device ``b"special:<mode>"`` (it
    is never opened; the loader reports it)."""
    global _learnt
    try:
        st = path.stat()
    except OSError:
        return b"missing"
    if not stat.S_ISREG(st.st_mode):
        return b"special:%o" % st.st_mode
    name = str(path)
    known = _known.get(name)
    if known and known[:3] == (st.st_size, st.st_mtime_ns, st.st_ino):
        return known[3]
    digest = hashlib.sha256(path.read_bytes()).digest()
    if time.time_ns() - st.st_mtime_ns > _RACY_NS:
        _known[name] = (st.st_size, st.st_mtime_ns, st.st_ino, digest)
        _learnt = True
    return digest


def digest_files(paths: list[Path], base: Path, seed: str = "") -> str:
    """Hex SHA-256 of ``seed`` and each file's path relative to ``base`` and its digest."""
    h = hashlib.sha256(seed.encode())
    for path in paths:
        h.update(b"\0" + path.relative_to(base).as_posix().encode() + b"\0")
        h.update(file_digest(path))
    return h.hexdigest()


def load_digests(file: Path) -> None:
    """Remember the file digests saved by :func:`save_digests` (a missing or bad file is ignored)."""
    try:
        with open(file, "rb") as fh:
            saved = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError):
        return
    if isinstance(saved, dict):
        for name, value in saved.items():
            _known.setdefault(name, value)


def save_digests(file: Path) -> None:
    """Save the remembered file digests (atomically) when new ones were learnt."""
    global _learnt
    if not _learnt:
        return
    try:
        write_atomic(file, pickle.dumps(_known))
        _learnt = False
    except OSError:
        pass


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder (made if
    missing) renamed into place: a crash leaves the previous file or none, never half of
    one. Raises ``OSError``, the temporary file removed, when it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _mtime(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def prune_newest(folder: Path, keep: int, *, spare: frozenset[str] = frozenset(), pattern: str = "*") -> None:
    """Keep the ``keep`` newest entries (files or folders matching ``pattern``) of
    ``folder`` besides those named in ``spare``, and remove the others and the temporary
    files (``.tmp-*``) a killed process left more than an hour ago. Never raises."""
    sweep_crashed(folder)
    try:
        entries = list(folder.glob(pattern))
    except OSError:
        return
    current = sorted((p for p in entries if not p.name.startswith(".") and p.name not in spare), key=_mtime,
                     reverse=True)
    for path in current[keep:]:
        remove(path)


def sweep_crashed(folder: Path) -> None:
    """Remove the temporary files (``.tmp-*``) a killed process left in ``folder`` more
    than an hour ago (a write in progress elsewhere is younger). Never raises."""
    old = (time.time() - _STALE_S) * 1e9
    try:
        crashed = [p for p in folder.glob(".tmp-*") if _mtime(p) < old]
    except OSError:
        return
    for path in crashed:
        remove(path)


def remove(path: Path) -> None:
    """Delete a file or folder; a failure is ignored (a cache only ever saves time)."""
    import shutil

    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink()
    except OSError:
        pass
