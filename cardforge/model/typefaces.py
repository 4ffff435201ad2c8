"""Font keys: which fonts exist and how their faces make families, known without drawing.

A layout names a font by a key of :data:`FONTS` (the DejaVu faces shipped in
``cardforge/fonts/``) or by a pack font's name (game.yaml ``fonts:``); a pack font's faces
have ``name@digest`` keys (:meth:`cardforge.model.PackFont.face`), entered here by
:func:`declare` when the :class:`~cardforge.model.PackFont` is made. :data:`FAMILIES` gives
each family's regular, bold, italic and bold-italic face. Loading, checks and the drawing
stage (:mod:`cardforge.render.fonts`, which registers the files with ReportLab) read these
tables; nothing here parses a font file.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardforge.model import PackFont

FACES = ("regular", "bold", "italic", "bold_italic")  # the faces of a font family, in order

FONTS = {
    "sans": "DejaVuSans.ttf",
    "sans-bold": "DejaVuSans-Bold.ttf",
    "sans-italic": "DejaVuSans-Oblique.ttf",
    "condensed": "DejaVuSansCondensed.ttf",
    "condensed-bold": "DejaVuSansCondensed-Bold.ttf",
    "condensed-italic": "DejaVuSansCondensed-Oblique.ttf",
    "serif": "DejaVuSerif.ttf",
    "serif-bold": "DejaVuSerif-Bold.ttf",
    "serif-italic": "DejaVuSerif-Italic.ttf",
    "serif-bold-italic": "DejaVuSerif-BoldItalic.ttf",
}

# family -> (regular, bold, italic, bold italic), for **bold** and *italic* in card text
FAMILIES = {
    "sans": ("sans", "sans-bold", "sans-italic", "sans-bold"),
    "condensed": ("condensed", "condensed-bold", "condensed-italic", "condensed-bold"),
    "serif": ("serif", "serif-bold", "serif-italic", "serif-bold-italic"),
}
FAMILY_OF = {face: family for family, faces in FAMILIES.items() for face in faces}
FAMILY_OF.update({"sans": "sans", "condensed": "condensed", "serif": "serif"})

PACK_FILES: dict[str, Path] = {}  # font key of a pack font's face -> its TrueType file


def declare(font: PackFont) -> None:
    """Register the faces of a pack's font (called when a :class:`~cardforge.model.PackFont`
    is made); its family gives **bold** and *italic* in card text."""
    faces = tuple(font.face(which) for which in FACES)
    for face, file in zip(faces, font.files):
        PACK_FILES[face] = Path(file)
        FAMILY_OF[face] = font.key
    FAMILIES[font.key] = (faces[0], faces[1], faces[2], faces[3])


def known(face: str) -> bool:
    """True for a font key of :data:`FONTS` or of a declared pack font."""
    return face in FONTS or face in PACK_FILES


def label(face: str) -> str:
    """A font key as its layout names it (a pack face without its ``@digest``)."""
    return face.split("@", 1)[0]


def styled(face: str, bold: bool, italic: bool) -> str:
    """The face of ``face``'s family with the given emphasis."""
    if not (bold or italic):
        return face
    regular, b, i, bi = FAMILIES[FAMILY_OF.get(face, "sans")]
    return bi if bold and italic else b if bold else i
