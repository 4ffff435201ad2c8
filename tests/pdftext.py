"""What a PDF prints (each page's text, each page's chars), read once per run.

Several modules read the same files of the suite's shared builds (``conftest.all_built``) on
both xdist workers. A page's text is pdfplumber's ``extract_text()``; a page's chars are read
by PDFium (pypdfium2, the library cardforge renders with), in the shape pdfplumber gives
them: the gateway deck's chars take 13 s to read with pdfplumber, 0.4 s with PDFium. A
reading is kept by the digest of the PDF's bytes (never by its path, so a file rewritten by
a test is read again), in this process and in ``FOLDER``, a folder of the test run that
every worker shares (set by ``conftest``'s session fixture ``_pdf_readings``; unset, each
process reads for itself). The tests assert on what is returned as on pdfplumber's answer.
"""
from __future__ import annotations

import ctypes
import hashlib
import json
import math
import os
import tempfile
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

FOLDER: Path | None = None
CHAR_KEYS = ("text", "size", "x0", "x1", "top", "bottom")  # what the tests read of a char
_KEPT: dict[str, object] = {}


def _read(path: Path, kind: str, read, library=pdfplumber.open):
    key = f"{hashlib.sha256(Path(path).read_bytes()).hexdigest()}-{kind}"
    if key in _KEPT:
        return _KEPT[key]
    file = FOLDER / f"{key}.json" if FOLDER is not None else None
    if file is not None and file.is_file():
        found = json.loads(file.read_text(encoding="utf-8"))
    else:
        pdf = library(path)
        try:
            found = read(pdf)
        finally:
            pdf.close()
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
    """Each page as ``{"width", "height", "chars"}`` (pt), its chars in the order PDFium reads
    them, each with the keys of :data:`CHAR_KEYS` as pdfplumber gives them: ``x0``, ``x1``,
    ``top``, ``bottom`` from the page's top-left corner, ``size`` the font size times the
    char's scale (pdfplumber's ``size`` for upright text; a turned char, such as the deck
    sheet's margin ruler, has its font size, not pdfplumber's advance), the spaces PDFium
    adds between words left out (shared by the callers: copy a char to change it)."""
    def read(pdf) -> list[dict]:
        pages = []
        for n in range(len(pdf)):
            page = pdf[n]
            width, height = page.get_size()
            text = page.get_textpage()
            pages.append({"width": width, "height": height, "chars": _chars(text, height)})
            text.close()
            page.close()
        return pages

    return _read(path, "chars", read, pdfium.PdfDocument)


def _chars(text, height: float) -> list[dict]:
    matrix = pdfium_c.FS_MATRIX()
    chars = []
    for i in range(text.count_chars()):
        if pdfium_c.FPDFText_IsGenerated(text.raw, i):
            continue
        glyph = chr(pdfium_c.FPDFText_GetUnicode(text.raw, i))
        if glyph in "\r\n":
            continue
        pdfium_c.FPDFText_GetMatrix(text.raw, i, ctypes.byref(matrix))
        size = pdfium_c.FPDFText_GetFontSize(text.raw, i) * math.sqrt(abs(matrix.a * matrix.d - matrix.b * matrix.c))
        left, bottom, right, top = text.get_charbox(i, loose=True)
        chars.append({"text": glyph, "size": size, "x0": left, "x1": right,
                      "top": height - top, "bottom": height - bottom})
    return chars
