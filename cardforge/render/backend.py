"""ReportLab behind one adapter: the only module of cardforge that touches ReportLab's
private names (its canvas's operator and resource lists, its document's page objects and
save loop, TrueType subset state, a table's measured rows, a contents' entries, the
paragraph parser's pictures). Everything else uses ReportLab's public API or these functions.

Each assumption made here about ReportLab is checked by ``tests/test_backend_contract.py``,
so that a ReportLab release that breaks one fails there, by name, rather than as a PDF
that differs; ``tests/test_backend_boundary.py`` keeps every other module off those names.
Nothing here changes a ReportLab module or class: what differs from ReportLab's own
behaviour is confined to one canvas, document or paragraph (threads may build at once).

ReportLab is imported by the first call that needs it (the checks import this module
through the drawing modules without drawing). Units are PDF points; an "operator string"
is content-stream text as ReportLab writes it (operators joined by newlines).
"""
from __future__ import annotations

import re
import types
from dataclasses import dataclass
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, NamedTuple

from cardforge.cache.registry import ONCE, PARAGRAPHS

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


# -- tables and contents --------------------------------------------------------------------


def table_row_heights(table) -> list[float]:
    """The height (pt) of each row of a platypus ``Table`` as its last ``wrap`` laid it out
    (header rows included). Raises ``AttributeError`` before the table is wrapped."""
    return list(table._rowHeights)


def contents_entries(toc) -> list[tuple]:
    """The entries ``(level, text, page, key)`` a ``TableOfContents`` printed in the pass
    just built (those ``addEntries`` would give the next pass)."""
    return [tuple(entry) for entry in toc._lastEntries]


def kept_together(flowable) -> list:
    """The flowables a platypus ``KeepTogether`` holds, in order; [] for any other flowable."""
    from reportlab.platypus import KeepTogether

    return list(flowable._content) if isinstance(flowable, KeepTogether) else []


_PARSED = PARAGRAPHS.mapping()  # (markup, style key, bullet, case) -> (text, frags, bullet frags)
_STYLES = PARAGRAPHS.mapping()  # id(style) -> (style, its settings as read, its style_key)


def parse_paragraph(text: str, style, bullet: str | None, case_sensitive: int = 1,
                    reusable: Callable[[list], bool] = lambda pictures: True) -> tuple[str, list, object]:
    """``(text cleaned, fragments, bullet)`` for ``Paragraph(text, style, bullet, frags=...)``:
    ReportLab's parse of ``text``, once a process for each markup, :func:`style_key` and bullet
    while ``reusable(pictures)`` holds (pictures are read when parsed); fresh copies of the
    fragments each call. Raises ``ValueError`` for markup ReportLab cannot parse."""
    from reportlab.platypus.paragraph import ParaParser, cleanBlockQuotedText, textTransformFrags

    key = (text, style_key(style), bullet, case_sensitive)
    parsed = _PARSED.get(key)
    if parsed is None or not reusable(_pictures(parsed[1])):
        cleaned = cleanBlockQuotedText(text)
        parser = ParaParser()
        parser.caseSensitive = case_sensitive
        _, frags, bullet_frags = parser.parse(cleaned, style)
        if frags is None:
            raise ValueError(f"xml parser error ({parser.errors[0]}) in paragraph beginning\n'{text[:30]}'")
        textTransformFrags(frags, style)
        parsed = (cleaned, frags, bullet_frags or bullet)
        if not reusable(_pictures(frags)):
            return parsed
        _PARSED[key] = parsed
    cleaned, frags, bullet = parsed
    return cleaned, [_copy(f) for f in frags], [_copy(f) for f in bullet] if isinstance(bullet, list) else bullet


def _copy(frag):
    picture = getattr(frag, "cbDefn", None)
    return frag.clone(cbDefn=picture.clone()) if picture is not None and hasattr(picture, "clone") else frag.clone()


def style_key(style) -> tuple:
    """A ``ParagraphStyle``'s settings as a hashable value (anew when changed in place)."""
    kept = _STYLES.get(id(style))
    if kept is None or kept[0] is not style or kept[1] != style.__dict__:
        settings = dict(style.__dict__)
        kept = _STYLES[id(style)] = (style, settings, tuple(sorted((k, repr(v)) for k, v in settings.items())))
    return kept[2]


def paragraph_images(paragraph) -> list:
    """The pictures of a ``Paragraph``'s ``<img>`` tags, in order: objects whose ``src``
    is the tag's source and whose ``image`` is the ``ImageReader`` that will draw it
    (replace it to draw from another reader)."""
    return _pictures(paragraph.frags)


def _pictures(frags: list) -> list:
    return [frag.cbDefn for frag in frags if getattr(getattr(frag, "cbDefn", None), "kind", None) == "img"]


# -- finished pages and the save ------------------------------------------------------------


def last_page_stream(canvas: Canvas) -> bytes | None:
    """The content stream of ``canvas``'s last finished page compressed and encoded into
    the very bytes ReportLab writes for it when saving, or None when it writes it
    uncompressed (page compression off, nothing drawn) or the page is sealed already."""
    page = canvas._doc.Pages.pages[-1]
    if page.Contents or not page.stream or not page.compression:
        return None
    content = page.stream
    for f in reversed(_filters()):
        content = f.encode(content)
    if isinstance(content, str):  # ASCII85 text: written as its ASCII bytes either way
        content = content.encode("ascii")
    return content


def drop_last_page_stream(canvas: Canvas) -> None:
    """Forget the operators of ``canvas``'s last finished page (a canvas never saved)."""
    canvas._doc.Pages.pages[-1].stream = None


def seal_last_page(canvas: Canvas, spill: IO[bytes], offset: int, length: int) -> None:
    """Make the content stream of ``canvas``'s last finished page the ``length`` bytes at
    ``offset`` in the binary file ``spill`` (bytes as :func:`last_page_stream` gives them),
    read back only while the PDF is saved; the page drops its operators, and holds the
    same (never changed) resource objects as earlier pages of ``canvas`` with the same
    forms and page transition (each is written out in full either way) in a compact dict."""
    from reportlab.pdfbase import pdfdoc

    page = canvas._doc.Pages.pages[-1]
    stream = _spilled_stream()(spill, offset, length)
    stream.dictionary["Filter"] = pdfdoc.PDFArray([pdfdoc.PDFName(f.pdfname) for f in _filters()])
    stream.__Comment__ = "page stream"
    page.Contents = stream
    page.stream = None
    shared = canvas.__dict__.setdefault("_cardforge_shared", {})
    if page.XObjects is not None:
        names = tuple(sorted(page.XObjects.dict))
        page.XObjects = shared.setdefault(("xobjects", names), page.XObjects)
    if page.Trans is not None and not page.Trans.dict:
        page.Trans = shared.setdefault("trans", page.Trans)
    page.__dict__ = dict(page.__dict__)  # the same 31 attributes, in a dict of half the size


def save_streamed(canvas: Canvas, fh: IO[bytes]) -> None:
    """Write ``canvas``'s PDF to the binary file ``fh`` object by object as ReportLab
    formats them: the same bytes ``canvas.save()`` writes, without first joining the whole
    file in memory; each page drops what ReportLab works out to write it (its resource
    dictionary and media box) once written. The canvas cannot be used afterwards. Raises
    ``OSError`` when ``fh`` cannot be written."""
    doc = canvas._doc
    # this document's own save loop, writing through to fh; ReportLab's module is left as is
    doc.format = types.MethodType(_streamed_format(fh), doc)
    canvas._filename = fh
    canvas.save()


def _streamed_format(fh: IO[bytes]):
    """ReportLab's ``PDFDocument.format`` (the save loop) run with its output collector
    writing each object to ``fh`` as it is formatted, and each page object dropping its
    resources once formatted: the same code, given its own globals with those two classes
    replaced, so that no module attribute changes (other threads save as ever)."""
    from reportlab.pdfbase import pdfdoc

    class StreamedFile(pdfdoc.PDFFile):  # ReportLab's output collector, writing through to fh
        def __init__(self, *args):
            super().__init__(*args)
            for data in self.strings:  # the header
                fh.write(data)
            self.strings = []
            self.write = fh.write

        def format(self, document):
            return b""

    class LeanObject(pdfdoc.PDFIndirectObject):
        def format(self, document):
            try:
                return super().format(document)
            finally:
                if isinstance(self.content, pdfdoc.PDFPage):  # built by the page's format, and written
                    self.content.Resources = self.content.MediaBox = None

    code = pdfdoc.PDFDocument.format
    namespace = dict(vars(pdfdoc), PDFFile=StreamedFile, PDFIndirectObject=LeanObject)
    return types.FunctionType(code.__code__, namespace, code.__name__, code.__defaults__, code.__closure__)


def _filters() -> list:
    from reportlab import rl_config
    from reportlab.pdfbase import pdfdoc

    return [pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress] if rl_config.useA85 else [pdfdoc.PDFZCompress]


@ONCE.function
def _spilled_stream():
    """The class of a page stream whose (already compressed) bytes wait in a spill file."""
    from reportlab.pdfbase import pdfdoc

    class SpilledStream(pdfdoc.PDFStream):
        def __init__(self, spill, offset: int, length: int):
            super().__init__()
            self.spill, self.offset, self.length = spill, offset, length

        def format(self, document):
            self.spill.seek(self.offset)
            self.content = self.spill.read(self.length)
            try:
                return super().format(document)
            finally:
                self.content = None

    return SpilledStream
