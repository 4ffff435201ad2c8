"""Fonts shipped with cardforge (DejaVu, see fonts/LICENSE.md), registered with ReportLab.

Every PDF embeds the subsets of these TrueType fonts it uses; nothing depends on fonts
installed on the machine. Layouts name fonts by the keys of :data:`FONTS`.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from functools import lru_cache
from importlib import resources
from pathlib import Path

FONTS = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "sans-italic": "DejaVuSans-Oblique.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
    "condensed-italic": "DejaVuSansCondensed-Oblique.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
}

# family -> (regular, bold, italic, bold italic), for **bold** and *italic* in card text
FAMILIES = {
    "sans": ("sans", "sans-bold", "sans-italic", "sans-bold"),
    "condensed": ("condensed", "condensed-bold", "condensed-italic", "condensed-bold"),
    "serif": ("serif-bold", "serif-bold", "serif-bold", "serif-bold"),
}
FAMILY_OF = {face: family for family, faces in FAMILIES.items() for face in faces}
FAMILY_OF.update({"sans": "sans", "condensed": "condensed", "serif-bold": "serif"})


def pdf_name(face: str) -> str:
    """The ReportLab font name of a layout font key (registering it on first use).

    Raises ``KeyError`` for a key that is not in :data:`FONTS`.
    """
    _register(face)
    return "CF-" + FONTS[face].removesuffix(".ttf")


@lru_cache(maxsize=None)
def _register(face: str) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    path = resources.files("cardforge").joinpath("fonts", FONTS[face])
    with resources.as_file(path) as real:
        pdfmetrics.registerFont(TTFont("CF-" + FONTS[face].removesuffix(".ttf"), str(real)))


def styled(face: str, bold: bool, italic: bool) -> str:
    """The face of ``face``'s family with the given emphasis."""
    if not (bold or italic):
        return face
    regular, b, i, bi = FAMILIES[FAMILY_OF.get(face, "sans")]
    return bi if bold and italic else b if bold else i


def width(text: str, face: str, size: float) -> float:
    """Advance width of ``text`` in ``face`` at ``size`` pt, in pt: the figure ReportLab's
    ``stringWidth`` gives (the same sum in the same order), from the face's cached glyph
    widths, so measuring text neither parses the font file nor imports ReportLab."""
    widths, default = _metrics(face)
    get = widths.get
    # the order of ReportLab's C accelerator (_rl_accel), which its wheels ship; its
    # pure-Python fallback multiplies first and can differ in the last bit
    return sum(get(ord(u), default) for u in text) * 0.001 * size


@lru_cache(maxsize=None)
def _metrics(face: str) -> tuple[dict[int, float], float]:
    """(advance width of each code point, default width), in 1/1000 em, of ``face``.

    Kept in ``$XDG_CACHE_HOME/cardforge/metrics/`` (``~/.cache``) under the SHA-256 of the
    font file and ReportLab's version; read from the TrueType file by ReportLab (and saved
    there, atomically) when absent or unreadable.
    """
    import reportlab

    data = resources.files("cardforge").joinpath("fonts", FONTS[face]).read_bytes()
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardforge" / "metrics"
    file = folder / f"{hashlib.sha256(data).hexdigest()[:32]}-reportlab-{reportlab.Version}.pickle"
    try:
        with open(file, "rb") as fh:
            widths, default = pickle.load(fh)
        if isinstance(widths, dict):
            return widths, default
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError):
        pass
    from reportlab.pdfbase import pdfmetrics

    face_data = pdfmetrics.getFont(pdf_name(face)).face
    widths, default = dict(face_data.charWidths), face_data.defaultWidth
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            pickle.dump((widths, default), fh)
        os.replace(tmp, file)
    except OSError:
        pass
    return widths, default


@lru_cache(maxsize=None)
def register_families() -> None:
    """Tell ReportLab which face is the bold and italic of each family (for <b> and <i>)."""
    from reportlab.lib.fonts import addMapping

    for family, (regular, bold, italic, bold_italic) in FAMILIES.items():
        base = pdf_name(regular)
        for is_bold, is_italic, face in ((0, 0, regular), (1, 0, bold), (0, 1, italic), (1, 1, bold_italic)):
            addMapping(base, is_bold, is_italic, pdf_name(face))
