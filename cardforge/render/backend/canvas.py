"""The canvas: its content stream in progress, the resources a page lists, what an operator
string depends on, and TrueType subsets (see :mod:`cardforge.render.backend`)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

# -- the content stream in progress (a page's or a form's) ---------------------------------


def has_operators(canvas: Canvas) -> bool:
    """True when something has been drawn on the page or form in progress."""
    return bool(canvas._code)


def pending_operators(canvas: Canvas) -> str:
    """The operator string drawn so far on the page or form in progress (a page's
    preamble, see :func:`page_preamble`, is not part of it)."""
    return "\n".join(canvas._code)


def append_operators(canvas: Canvas, ops: str) -> None:
    """Write the operator string ``ops`` as is after what the page or form in progress
    holds (no graphics-state tracking: ``ops`` must leave the state as it found it)."""
    canvas._code.append(ops)


def place_form(canvas: Canvas, name: str, x: float, y: float, size: float) -> None:
    """Draw the form ``name`` (defined with ``beginForm``/``endForm``, now or later) scaled
    by ``size`` with its origin at (x, y) pt: the operators ``saveState``, ``translate``,
    ``scale``, ``doForm`` and ``restoreState`` write, without their bookkeeping."""
    from reportlab.lib.rl_accel import fp_str

    x, y = (float(v) for v in fp_str(x, y).split())  # as the translation is written, then merged with the scale
    canvas._code.append(f"q\n{fp_str(size, 0, 0, size, x, y)} cm\n/{canvas._doc.getXObjectName(name)} Do\nQ")
    canvas._formsinuse.append(name)


def page_preamble(canvas: Canvas) -> str:
    """The operator string ReportLab starts each page of ``canvas`` with (from its
    initial font and page settings)."""
    return canvas._preamble


def page_size(canvas: Canvas) -> tuple[float, float]:
    """(width, height) pt of the page in progress."""
    return tuple(canvas._pagesize)


def has_annotations(canvas: Canvas) -> bool:
    """True when the page in progress has links or other annotations."""
    return bool(canvas._annotationrefs)


class Resources(NamedTuple):
    """What a page's resource dictionary lists, as ReportLab collects it: the form names
    used (in order of use, repeats kept), and the colours and shadings by resource name."""

    forms: list[str]
    colors: dict
    shadings: dict


def resources(canvas: Canvas) -> Resources:
    """A copy of the resources the page in progress uses so far (inside a form: the page's
    and the form's together, as ReportLab collects them)."""
    return Resources(list(canvas._formsinuse), dict(canvas._colorsUsed), dict(canvas._shadingUsed))


def add_resources(canvas: Canvas, forms=(), colors: dict | None = None, shadings: dict | None = None) -> None:
    """Add ``forms`` (names), ``colors`` and ``shadings`` (as :class:`Resources` holds
    them) to what the page in progress lists, for operators written by :func:`append_operators`."""
    canvas._formsinuse.extend(forms)
    if colors:
        canvas._colorsUsed.update(colors)
    if shadings:
        canvas._shadingUsed.update(shadings)


class Drawn(NamedTuple):
    """Operators drawn (an operator string) and the resources they added to the page."""

    ops: str
    forms: list[str]
    colors: dict
    shadings: dict


@dataclass
class Mark:
    """Where the operators and resources of a canvas stood (see :func:`mark`)."""

    code: list
    start: int
    origin: object
    forms: list
    used: int
    colors: dict
    shadings: dict


def mark(canvas: Canvas) -> Mark:
    """Mark what the page or form in progress holds now, for :func:`drawn_since`."""
    code, forms = canvas._code, canvas._formsinuse
    return Mark(code, len(code), code[-1] if code else None, forms, len(forms), dict(canvas._colorsUsed),
                dict(canvas._shadingUsed))


def drawn_since(canvas: Canvas, at: Mark) -> Drawn | None:
    """What was drawn since ``at`` (see :class:`Drawn`; colours and shadings: those not
    listed at ``at``), which :func:`append_operators` and :func:`add_resources` write again as drawn; None when
    it cannot be told apart (the page or form changed, or ReportLab merged the first new
    transformation into the operator before the mark)."""
    code = canvas._code
    if code is not at.code or canvas._formsinuse is not at.forms or (at.start and code[at.start - 1] is not at.origin):
        return None
    return Drawn("\n".join(code[at.start:]), at.forms[at.used:],
                     {k: v for k, v in canvas._colorsUsed.items() if k not in at.colors},
                     {k: v for k, v in canvas._shadingUsed.items() if k not in at.shadings})


# -- what an operator string depends on ------------------------------------------------------

_EXTGSTATE = re.compile(r"/gRLs\d+ gs")  # ReportLab's names of the graphics states it adds (opacity...)
_TF = re.compile(r"/(F\d+)(?:\+(\d+))?\s+[-\d.]+\s+Tf")  # a font set: /F<n>[+<subset>] <size> Tf


def uses_graphics_state(ops: str) -> bool:
    """True when the operator string ``ops`` sets a graphics-state dictionary (opacity,
    overprint: a document-level resource of ReportLab's naming)."""
    return _EXTGSTATE.search(ops) is not None


def fonts_set(ops: str) -> list[tuple[str, int | None]]:
    """The fonts the operator string ``ops`` sets, in order: (internal name as
    :func:`font_resource_name` gives it, subset number or None for a font not subsetted)."""
    return [(name, int(subset) if subset else None) for name, subset in _TF.findall(ops)]


# -- TrueType subsets -----------------------------------------------------------------------


def declare_transparency(canvas: Canvas) -> None:
    """Make ``canvas``'s PDF declare the version transparency needs (1.4), as setting an
    opacity does, whether or not any is set."""
    canvas._doc.ensureMinPdfVersion("transparency")


def fill_first_subset(canvas: Canvas, font_name: str, chars: str) -> bool:
    """Assign codes in the first subset of the registered TrueType font ``font_name`` in
    ``canvas``'s document to the characters of ``chars`` the font has, in order, after the
    space, while the subset has room (256 codes; a character already assigned keeps its
    code). Returns True when that subset is then full: text in the font never adds to it
    again. Raises ``KeyError`` for a font not registered."""
    from reportlab.pdfbase import pdfmetrics

    doc = canvas._doc
    font = pdfmetrics.getFont(font_name)
    font.splitString(" ", doc)  # creates the font's state in this document
    state = font.state[doc]
    glyphs = font.face.charToGlyph
    for ch in chars:
        if state.nextCode >= 256:
            break
        if ord(ch) in glyphs and ord(ch) not in state.assignments:
            font.splitString(ch, doc)
    font.getSubsetInternalName(0, doc)
    return state.nextCode >= 256


def font_resource_name(canvas: Canvas, font_name: str) -> str:
    """The name (``F<n>``, without its slash) ``canvas``'s document gives the font
    ``font_name`` in content streams. Raises ``KeyError`` when the document has not used it."""
    return canvas._doc.fontMapping[font_name].lstrip("/")


def glyph_widths(font_name: str) -> tuple[dict[int, float], float]:
    """(advance width of each code point, default width), in 1/1000 em, of the registered
    TrueType font ``font_name``, as ``stringWidth`` adds them. Raises ``KeyError`` for a
    font not registered."""
    from reportlab.pdfbase import pdfmetrics

    face = pdfmetrics.getFont(font_name).face
    return dict(face.charWidths), face.defaultWidth
