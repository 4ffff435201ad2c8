"""What pdfplumber reads in a PDF (each page's text, each page's chars), read once per run.

Several modules read the same files of the suite's shared builds (``conftest.all_built``)
with pdfplumber, on both xdist workers: the gateway deck's chars alone take 15 s to read. A
reading is kept by the digest of the PDF's bytes (never by its path, so a file rewritten by a
test is read again), in this process and in ``FOLDER``, a folder of the test run that every
worker shares (set by ``conftest``'s session fixture ``_pdf_readings``; unset, each process
reads for itself). What is returned is what pdfplumber returns: the tests assert on it as
they did on pdfplumber's own answer.
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

import pdfplumber

FOLDER: Path | None = None
CHAR_KEYS = ("text", "size", "x0", "x1", "top", "bottom")  # what the tests read of a char
_KEPT: dict[str, object] = {}


def _read(path: Path, kind: str, read):
    key = f"{hashlib.sha256(Path(path).read_bytes()).hexdigest()}-{kind}"
    if key in _KEPT:
        return _KEPT[key]
    file = FOLDER / f"{key}.json" if FOLDER is not None else None
    if file is not None and file.is_file():
        found = json.loads(file.read_text(encoding="utf-8"))
    else:
        with pdfplumber.open(path) as pdf:
            found = read(pdf)
        if file is not None:  # written whole or not at all: another worker may read it at once
            file.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=file.parent, suffix=".part")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(found, out)
            os.replace(temp, file)
    _KEPT[key] = found
    return found


def page_texts(path: Path, left_half: bool = False) -> list[str]:
    """Each page's ``extract_text()`` ("" for a page without text); of its left half with
    ``left_half``."""
    def read(pdf) -> list[str]:
        pages = [p.crop((0, 0, p.width / 2, p.height)) if left_half else p for p in pdf.pages]
        return [p.extract_text() or "" for p in pages]

    return list(_read(path, "left-half-text" if left_half else "text", read))


def page_chars(path: Path) -> list[dict]:
    """Each page as ``{"width", "height", "chars"}``, its chars as pdfplumber reads them, each
    with the keys of :data:`CHAR_KEYS` (shared by the callers: copy a char to change it)."""
    def read(pdf) -> list[dict]:
        return [{"width": p.width, "height": p.height, "chars": [{k: c[k] for k in CHAR_KEYS} for c in p.chars]}
                for p in pdf.pages]

    return _read(path, "chars", read)
