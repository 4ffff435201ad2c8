"""Pure results kept between runs in the user caches (:mod:`cardforge.cache.registry`).

A check reads the same YAML files, validates the same cards and measures the same text
run after run; what that work produces depends only on the bytes it was given and on
cardforge itself. Such a result is kept in its cache's folder under :func:`key`, the
SHA-256 of what it was made from and of :func:`cardforge.cache.version.fingerprint`
(:func:`get` / :func:`put`); a set of verdicts ("this document is valid against this
schema") is one :class:`Verdicts` file. Only successes are kept: a file with a problem is
worked out afresh, so its diagnostics are always made by the code that reports them.

Entries are written atomically; a missing, unreadable or foreign entry is a miss. While
user caches are off (``CARDFORGE_NO_USER_CACHE=1``) nothing is read or written.
"""
from __future__ import annotations

import hashlib
import pickle
from pathlib import Path
from typing import Any

from cardforge.cache import version
from cardforge.cache.files import prune_newest, write_atomic
from cardforge.cache.registry import VERDICTS, Cache

MISS: Any = object()  # what get returns for a value it does not hold
KEEP = 4000  # entries of one cache, pruned now and then (see put)


def key(kind: str, *parts: bytes | str) -> str:
    """The hex SHA-256 of the fingerprint, ``kind`` and ``parts`` (length-prefixed)."""
    h = hashlib.sha256(version.fingerprint().encode() + b"\0" + kind.encode())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(b"\0%d\0" % len(data))
        h.update(data)
    return h.hexdigest()


def get(cache: Cache, digest: str) -> Any:
    """The value ``cache`` holds under ``digest`` (see :func:`key`), or :data:`MISS`."""
    if not cache.enabled:
        return MISS
    try:
        with open(cache.folder() / f"{digest}.pickle", "rb") as fh:
            found, value = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError, ImportError):
        return MISS
    return value if found == digest else MISS


def put(cache: Cache, digest: str, value: Any, keep: int = KEEP) -> None:
    """Keep ``value`` in ``cache`` under ``digest`` (atomically; a failure to write is
    ignored). Now and then (1 in 64 digests) the cache is pruned to its ``keep`` newest."""
    if not cache.enabled:
        return
    target = cache.folder()
    try:
        write_atomic(target / f"{digest}.pickle", pickle.dumps((digest, value), protocol=pickle.HIGHEST_PROTOCOL))
    except (OSError, pickle.PicklingError, RecursionError, TypeError, AttributeError):
        return
    _now_and_then(target, digest, keep, "*.pickle")


def put_file(cache: Cache, data: bytes, suffix: str, keep: int = KEEP) -> Path | None:
    """A file of ``cache`` holding ``data``, named by its SHA-256 and ``suffix`` (".png"),
    written atomically unless it is there already: the same path in every process for the
    same bytes. None while ``cache`` is off or when it cannot be written. Pruned as
    :func:`put` prunes, among the files of that suffix."""
    if not cache.enabled:
        return None
    digest = hashlib.sha256(data).hexdigest()
    path = cache.folder() / f"{digest}{suffix}"
    try:
        if path.is_file() and path.stat().st_size == len(data):
            return path
        write_atomic(path, data)
    except OSError:
        return None
    _now_and_then(path.parent, digest, keep, f"*{suffix}")
    return path


def _now_and_then(folder: Path, digest: str, keep: int, pattern: str) -> None:
    """Prune ``folder`` to its ``keep`` newest ``pattern`` entries for 1 in 64 digests written."""
    if digest[:2] in ("00", "01", "02", "03"):
        prune_newest(folder, keep, pattern=pattern)


class Verdicts:
    """A set of digests (documents known to be valid against a schema), read from one file
    of the :data:`~cardforge.cache.registry.VERDICTS` cache on first use and written back,
    atomically, by :meth:`save` when it grew. Keeps the :data:`LIMIT` most recently learnt."""

    LIMIT = 50_000

    def __init__(self, name: str):
        self.name = name
        self.known: dict[str, None] | None = None
        self.learnt = False

    def _load(self) -> dict[str, None]:
        if self.known is None:
            self.known = {}
            value = get(VERDICTS, self.name)
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
        put(VERDICTS, self.name, known)


VALID = Verdicts("schema-valid")  # key("valid", schema, document) of every document found valid
