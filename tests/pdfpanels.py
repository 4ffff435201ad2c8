"""Reading a rules.pdf as a player holds it: the words of each panel, in reading order."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import pdfplumber

from cardforge.documents.fold import CELL, READING_ORDER, SHEET, Cell, cell_origin


@dataclass
class Panel:
    """One 3.125 x 2 in panel: its cell, its words (pdfplumber dicts) and chars, top to bottom."""

    cell: Cell
    words: list[dict] = field(default_factory=list)
    chars: list[dict] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(w["text"] for w in self.words)

    def lines(self) -> list[list[dict]]:
        """The panel's chars grouped into lines (by their baseline), top to bottom."""
        out: list[list[dict]] = []
        for ch in sorted(self.chars, key=lambda c: (round(c["bottom"], 0), c["x0"])):
            if ch["text"].strip() == "":
                continue
            if out and abs(out[-1][0]["bottom"] - ch["bottom"]) < 1.5:
                out[-1].append(ch)
            else:
                out.append([ch])
        return out


def panels(pdf_path: Path) -> list[Panel]:
    """The sheet's panels in :data:`READING_ORDER` (the title cell first). A sheet is read
    once per process (several tests read each rules.pdf): kept by the digest of its bytes,
    so a file written again is read again; the panels are shared, not to be changed."""
    digest = hashlib.sha256(Path(pdf_path).read_bytes()).hexdigest()
    if digest not in _READ:
        _READ[digest] = _panels(pdf_path)
    return list(_READ[digest])


_READ: dict[str, list[Panel]] = {}


def _panels(pdf_path: Path) -> list[Panel]:
    found = {cell: Panel(cell) for cell in READING_ORDER}
    with pdfplumber.open(pdf_path) as pdf:
        for n, page in enumerate(pdf.pages[:2]):
            w, h = page.width, page.height
            origin = ((w - SHEET[0]) / 2, (h - SHEET[1]) / 2)
            side = ("front", "back")[n]
            for cell in READING_ORDER:
                if cell.side != side:
                    continue
                x, y = cell_origin(cell, origin)
                box = (x, h - (y + CELL[1]), x + CELL[0], h - y)  # pdfplumber: top-left origin
                crop = page.within_bbox(box)
                found[cell].words = crop.extract_words(use_text_flow=False, keep_blank_chars=False)
                found[cell].chars = list(crop.chars)
    return [found[c] for c in READING_ORDER]
