"""Finished pages and the save: a page's sealed content stream, and a PDF written object by
object (see :mod:`cardforge.render.backend`)."""
from __future__ import annotations

import types
from typing import IO, TYPE_CHECKING

from cardforge.cache.registry import ONCE

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

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
