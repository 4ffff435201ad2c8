"""Confinement: every file a game pack names stays inside the pack or its project.

A pack is text someone else may have written. Any file it names (an icon's ``svg:``, an
image, a card file, a rules source) is resolved with :func:`resolve_inside`, which follows
symlinks and refuses what lands outside the allowed folders (``../../``, absolute paths,
a symlink pointing elsewhere), what is a URL (cardforge never reaches the network from an
input), and what is not a regular file (a FIFO would block the reader forever, a device
could be endless). :func:`read_limited` reads such a file with a size limit.

Usage, for any element that names a file (``pack`` is ``game.root``)::

    found = resolve_inside(game.root, spec["svg"], file=src.file, line=src.line("icons", name, "svg"))
    if isinstance(found, Diagnostic):
        problems.append(found)
    else:
        data = found.read_bytes()
"""
from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from cardforge.util.diagnostics import FILE_SPECIAL, FILE_TOO_LARGE, PACK_MISSING, PATH_OUTSIDE_PACK, Diagnostic, diag

MAX_FILE_BYTES = 8 * 1024 * 1024  # a card file, layout, rules source or icon larger than this is refused
_URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:(//|[^\\/])")


class InputFileError(Exception):
    """A file cardforge refuses to read; carries the diagnostic (code and message, no place)."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def project_of(pack: Path) -> Path:
    """The project folder holding ``pack`` (``<project>/cards/<slug>``)."""
    return pack.parent.parent if pack.parent.name == "cards" else pack


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def resolve_inside(pack: Path, name: object, *, roots: tuple[Path, ...] = (), must_exist: bool = False,
                   file: str = "", line: int = 0, column: int = 0, what: str = "file") -> Path | Diagnostic:
    """``name`` (relative to ``pack``) as a real path inside the pack or its project, or a diagnostic.

    ``roots`` are further folders allowed (default: the pack and :func:`project_of` it).
    Symlinks are followed before the check. Returns a ``path-outside-pack`` diagnostic (placed
    at ``file:line:column``) for a URL, an absolute path or anything resolving outside, and a
    ``file-special`` diagnostic when the path exists but is not a regular file (FIFO, device,
    folder). With ``must_exist`` a missing file is ``pack-missing``; otherwise the caller
    decides what a missing file means.
    """
    where = dict(file=file, line=line, column=column)
    if not isinstance(name, str) or not name.strip() or "\0" in name:
        return diag(PATH_OUTSIDE_PACK, f"{what} name {name!r} is not a file name", **where)
    if _URL.match(name):
        return diag(PATH_OUTSIDE_PACK, f"{what} {name!r} is a URL: cardforge reads only files inside the pack",
                    hint="download the file into the pack folder and name it relative to the pack", **where)
    if os.path.isabs(name) or name.startswith("~"):
        return diag(PATH_OUTSIDE_PACK, f"{what} {name!r} is an absolute path; name it relative to the pack",
                    hint="copy the file into the pack folder", **where)
    allowed = [Path(os.path.realpath(r)) for r in (roots or (pack, project_of(pack)))]
    real = Path(os.path.realpath(pack / name))
    if not _inside(real, allowed):
        via = " (through a symlink)" if ".." not in Path(name).parts else ""
        return diag(PATH_OUTSIDE_PACK, f"{what} {name!r} resolves to {real}{via}, outside the pack and project",
                    hint="copy the file into the pack folder", **where)
    try:
        st = os.stat(real)
    except OSError:
        if must_exist:
            return diag(PACK_MISSING, f"{what} {name!r} does not exist", **where)
        return real
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode) else "not a regular file"
        return diag(FILE_SPECIAL, f"{what} {name!r} is {kind}; only regular files are read", **where)
    return real


def read_limited(path: Path, limit: int = MAX_FILE_BYTES, display: str = "") -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes.

    Raises :class:`InputFileError` (``file-special`` or ``file-too-large``) otherwise, and
    ``OSError`` when it cannot be read. A FIFO or device is never opened.
    """
    name = display or str(path)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO opened this way does not block
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputFileError(diag(FILE_SPECIAL, f"{name} is not a regular file (a FIFO, device or folder); "
                                      "it is not read", file=name))
        if st.st_size > limit:
            raise InputFileError(diag(FILE_TOO_LARGE, f"{name} is {st.st_size / 1e6:.1f} MB; cardforge reads input "
                                      f"files of at most {limit / 1e6:.0f} MB", file=name,
                                      hint="split the cards over several files, or shrink the image"))
        with os.fdopen(os.dup(fd), "rb") as fh:
            data = fh.read(limit + 1)
    finally:
        os.close(fd)
    if len(data) > limit:  # grew while reading
        raise InputFileError(diag(FILE_TOO_LARGE, f"{name} is larger than {limit / 1e6:.0f} MB", file=name))
    return data


GAME_FILE = "game.yaml"


def find_packs(cards_dir: Path) -> list[Path]:
    """Every game pack folder under ``cards_dir`` (a folder holding game.yaml), by slug."""
    if not cards_dir.is_dir():
        return []
    return sorted(p for p in cards_dir.iterdir() if (p / GAME_FILE).is_file())
