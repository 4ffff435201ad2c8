"""Results of pure work on input files, kept between runs in the user cache folder.

A check reads the same YAML files and validates the same cards against the same schemas
run after run. What that work produces depends only on the bytes it was given and on
cardforge itself, so it is kept in ``$XDG_CACHE_HOME/cardforge/`` (``~/.cache``) under
the SHA-256 of those bytes and of what did the work (every file of cardforge and the
libraries that parse and validate, see :func:`_salt`): a parsed YAML document with its
line map (:func:`stored` / :func:`store`), and the verdict that a document is valid
against a schema (:data:`VALID`). Only successes are kept: a file with a problem is
worked out afresh, so its diagnostics are always made by the code that reports them.

Entries are written atomically (a temporary file renamed into place); a missing,
unreadable or foreign entry is a miss. Nothing here changes a result, only how soon it
comes; ``CARDFORGE_NO_USER_CACHE=1`` turns it off.
"""
from __future__ import annotations

import hashlib
import os
import pickle
from functools import lru_cache
from pathlib import Path
from typing import Any

FORMAT = "1"
_MISS = object()


def folder() -> Path:
    """The user cache folder of cardforge (``$XDG_CACHE_HOME/cardforge``, ``~/.cache/cardforge``)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardforge"


def enabled() -> bool:
    return os.environ.get("CARDFORGE_NO_USER_CACHE", "") in ("", "0")


_LIBRARIES = ("yaml", "jsonschema", "referencing", "jsonschema_specifications", "re2", "jinja2")


@lru_cache(maxsize=None)
def _salt() -> bytes:
    """What the kept results were made by: this Python, the libraries that parse and
    validate (their ``__init__`` file's size and time, as :func:`cardforge.cache.code_version`
    reads them) and every file of cardforge (path, size, modification time and inode:
    editing any file of cardforge forgets everything kept)."""
    import sys

    from cardforge.cache import PACKAGE, _files, library_stamps

    parts = [FORMAT, sys.version, *library_stamps(_LIBRARIES)]
    for path in _files(PACKAGE):
        st = path.stat()
        parts.append(f"{path.relative_to(PACKAGE).as_posix()}:{st.st_size}:{st.st_mtime_ns}:{st.st_ino}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest().encode()


def key(kind: str, *parts: bytes | str) -> str:
    """The hex SHA-256 of ``kind``, cardforge's version and ``parts``."""
    h = hashlib.sha256(_salt() + b"\0" + kind.encode())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(b"\0%d\0" % len(data))
        h.update(data)
    return h.hexdigest()


def stored(kind: str, digest: str) -> Any:
    """The value stored under ``digest`` (see :func:`key`), or :data:`MISS`."""
    if not enabled():
        return MISS
    try:
        with open(folder() / kind / f"{digest}.pickle", "rb") as fh:
            found, value = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError, ImportError):
        return MISS
    return value if found == digest else MISS


def store(kind: str, digest: str, value: Any) -> None:
    """Keep ``value`` under ``digest`` (atomically; a failure to write is ignored)."""
    if not enabled():
        return
    from cardforge.cache import write_atomic

    target = folder() / kind
    try:
        write_atomic(target / f"{digest}.pickle", pickle.dumps((digest, value), protocol=pickle.HIGHEST_PROTOCOL))
    except (OSError, pickle.PicklingError, RecursionError, TypeError, AttributeError):
        return
    if digest[:2] in ("00", "01", "02", "03"):  # now and then (1 in 64 hex digests): keep the newest KEEP
        prune(target)


KEEP = 4000  # entries of one kind


def prune(target: Path, keep: int = KEEP) -> None:
    """Remove all but the ``keep`` newest entries of ``target`` (and stale temporary files)."""
    try:
        entries = sorted(((e.stat().st_mtime_ns, e.path) for e in os.scandir(target) if e.is_file()), reverse=True)
    except OSError:
        return
    for _, path in entries[keep:]:
        try:
            os.unlink(path)
        except OSError:
            pass


MISS = _MISS


class Verdicts:
    """A set of digests (documents known to be valid against a schema), read from one file
    on first use and written back, atomically, by :meth:`save` when it grew. Keeps the
    :data:`LIMIT` most recently learnt."""

    LIMIT = 50_000

    def __init__(self, name: str):
        self.name = name
        self.known: dict[str, None] | None = None
        self.learnt = False

    def _load(self) -> dict[str, None]:
        if self.known is None:
            self.known = {}
            value = stored("verdicts", self.name) if enabled() else MISS
            if isinstance(value, dict):
                self.known = value
        return self.known

    def __contains__(self, digest: str) -> bool:
        return digest in self._load()

    def add(self, digest: str) -> None:
        known = self._load()
        if digest not in known:
            known[digest] = None
            self.learnt = True

    def save(self) -> None:
        if not self.learnt or self.known is None:
            return
        self.learnt = False
        known = dict(self.known)  # a copy: another thread (a live preview's) may be adding to it
        if len(known) > self.LIMIT:
            known = dict.fromkeys(list(known)[-self.LIMIT:])
        store("verdicts", self.name, known)


VALID = Verdicts("schema-valid")  # key("valid", schema, document) of every document found valid
