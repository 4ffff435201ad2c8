"""Fonts shipped with cardforge (DejaVu, see fonts/LICENSE.md) and fonts a game pack
declares (game.yaml ``fonts:``, :mod:`cardforge.sources.packfonts`), registered with ReportLab.

Every PDF embeds the subsets of these TrueType fonts it uses; nothing depends on fonts
installed on the machine. Layouts name fonts by the keys of :data:`FONTS` or by a pack
font's name; resolved layouts hold font keys: a key of :data:`FONTS`, or a pack face's
``name@digest`` key (:meth:`cardforge.model.PackFont.face`), declared in
:mod:`cardforge.model.typefaces` (which font keys exist is known below the drawing stage).
A pack font marked ``rules: true`` replaces sans and serif in the rules documents
(:func:`rules_documents`).
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from functools import wraps
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cardforge.model import PackFont

from cardforge.cache.registry import FONT_FACES
from cardforge.model import fontmetrics
from cardforge.model.fontmetrics import chars, width  # noqa: F401  (measured below the drawing stage)
from cardforge.model.typefaces import FAMILIES, FAMILY_OF, FONTS, PACK_FILES as _PACK_FILES, declare, known, label, styled  # noqa: F401

_documents = threading.local()  # .faces while rules documents print in a pack font: built-in key -> pack face


def pdf_name(face: str) -> str:
    """The ReportLab font name of a font key (registering it on first use); inside
    :func:`rules_documents`, a built-in key stands for the pack's rules font.

    Raises ``KeyError`` for a key that is neither in :data:`FONTS` nor declared.
    """
    face = getattr(_documents, "faces", {}).get(face, face)
    _register(face)
    return _name(face)


def file_digest(face: str) -> str:
    """The hex SHA-256 of the font file a font key prints with (inside :func:`rules_documents`,
    a built-in key's pack rules font). Raises ``KeyError`` for an unknown key."""
    return fontmetrics.file_digest(getattr(_documents, "faces", {}).get(face, face))


def _name(face: str) -> str:
    if face in FONTS:
        return "CF-" + FONTS[face].removesuffix(".ttf")
    _PACK_FILES[face]  # KeyError for an unknown key
    return "CF-" + face.replace("@", "-")


@FONT_FACES.function
def _register(face: str) -> None:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if face not in FONTS:
        pdfmetrics.registerFont(TTFont(_name(face), str(_PACK_FILES[face])))
        return
    path = resources.files("cardforge").joinpath("fonts", FONTS[face])
    with resources.as_file(path) as real:
        pdfmetrics.registerFont(TTFont(_name(face), str(real)))


@contextmanager
def rules_documents(font: PackFont | None):
    """Within this block (in this thread) the rules documents (rules sheet, rulebook,
    reference) print in the pack font ``font``: its regular face for the sans faces, its bold
    for bold and headings, its italic for italic. ``None``: nothing changes."""
    if font is None:
        yield
        return
    regular, bold, italic, bold_italic = FAMILIES[font.key]
    saved = getattr(_documents, "faces", {})
    _documents.faces = {"sans": regular, "condensed": regular, "sans-bold": bold, "condensed-bold": bold,
                        "serif-bold": bold, "sans-italic": italic, "condensed-italic": italic}
    _register_family(font.key)
    try:
        yield
    finally:
        _documents.faces = saved


def in_rules_font(render):
    """Decorate a function whose first argument is a :class:`~cardforge.model.Game` so that
    it runs within :func:`rules_documents` of the game's rules font (if it declares one)."""
    @wraps(render)
    def wrapper(game, *args, **kwargs):
        font = next((f for f in (getattr(game, "fonts", None) or {}).values() if f.rules), None)
        with rules_documents(font):
            return render(game, *args, **kwargs)
    return wrapper


def register_families(families: tuple[str, ...] = ("sans", "condensed", "serif")) -> None:
    """Tell ReportLab which face is the bold and italic of each built-in family of
    ``families`` (for <b> and <i>; a pack font's family is told by :func:`rules_documents`).
    Each family's faces are registered (their files parsed) on first use."""
    for family in families:
        _register_family(family)


@FONT_FACES.function
def _register_family(family: str) -> None:
    from reportlab.lib.fonts import addMapping

    regular, bold, italic, bold_italic = FAMILIES[family]
    for face in (regular, bold, italic, bold_italic):
        _register(face)
    base = _name(regular)
    for is_bold, is_italic, face in ((0, 0, regular), (1, 0, bold), (0, 1, italic), (1, 1, bold_italic)):
        addMapping(base, is_bold, is_italic, _name(face))
