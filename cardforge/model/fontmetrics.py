"""Text measured without drawing: the advance widths of every glyph of a font key.

:func:`width` gives the width in pt of a string set in a face (the figure ReportLab's
``stringWidth`` gives, summed in the same order), :func:`chars` the code points a face
has a glyph for. Both read the face's glyph widths, kept in the
:data:`~cardforge.cache.registry.METRICS` user cache under the SHA-256 of the font file
and the fingerprint, so measuring text neither parses the font file nor imports ReportLab;
on a miss the TrueType file is read with ReportLab's public ``TTFontFile`` (the parse its
registered fonts use). Checks, the resolve stage and the drawing stage all measure here.
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

from cardforge.cache.registry import FONT_FACES, WORD_WIDTHS
from cardforge.model.typefaces import FONTS, PACK_FILES

def width(text: str, face: str, size: float) -> float:
    """Advance width of ``text`` in ``face`` (a font key) at ``size`` pt, in pt. Raises
    ``KeyError`` for a key that is neither shipped nor declared."""
    return _em(text, face) * size


@WORD_WIDTHS.function
def _em(text: str, face: str) -> float:
    """The width of ``text`` in ``face`` at 1 pt: a word is summed once per process, however
    many sizes a fit tries and however many cards print it. ``_em(...) * size`` is the
    product ReportLab's C accelerator (_rl_accel) forms, ``sum * 0.001 * size`` in that
    order, bit for bit (its pure-Python fallback multiplies first and can differ in the
    last bit)."""
    widths, default = _metrics(face)
    get = widths.get
    return sum(get(ord(u), default) for u in text) * 0.001


def chars(face: str) -> frozenset[int]:
    """The code points ``face`` has a glyph for (every one with a width in the font)."""
    return frozenset(_metrics(face)[0])


def file_digest(face: str) -> str:
    """The hex SHA-256 of the TrueType file of ``face`` (a font key), read only when the file
    changed (:func:`cardforge.cache.files.file_digest`). Raises ``KeyError`` for a key that is
    neither shipped nor declared."""
    from cardforge.cache.files import file_digest as digest_of

    with resources.as_file(_font_file(face)) as real:
        return digest_of(Path(real)).hex()


def _font_file(face: str):
    if face in FONTS:
        return resources.files("cardforge").joinpath("fonts", FONTS[face])
    return PACK_FILES[face]


@FONT_FACES.function
def _metrics(face: str) -> tuple[dict[int, float], float]:
    """(advance width of each code point, default width), in 1/1000 em, of ``face``: from
    the user cache, or read from its TrueType file (and kept)."""
    from cardforge.cache import kept
    from cardforge.cache.registry import METRICS

    file = _font_file(face)
    digest = kept.key("metrics", file_digest(face))
    found = kept.get(METRICS, digest)
    if isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], dict):
        return found
    from reportlab.pdfbase.ttfonts import TTFontFile

    with resources.as_file(file) as real:
        parsed = TTFontFile(str(real))
    widths, default = dict(parsed.charWidths), parsed.defaultWidth
    kept.put(METRICS, digest, (widths, default), keep=64)
    return widths, default
