"""Inline icon pictures decoded once per process, not once per paragraph.

ReportLab's paragraph parser opens a new :class:`~reportlab.lib.utils.ImageReader` for
every ``<img src=...>`` it reads, and each reader decodes its PNG again the first time it
is drawn: the rules documents print the same few icons hundreds of times. The rules
documents' paragraphs are :class:`Paragraph` s, which, once parsed, draw each picture of a
file registered with :func:`share` (the icon pictures :class:`cardforge.documents.flow.IconImages`
writes) from a reader sharing the state of one reader per picture (ReportLab's own way of
copying a reader), so the picture is decoded once. Every other file is read as before, and
ReportLab's parser is left as it is (other threads, other paragraphs). The PDF is the same:
an image is written from its decoded pixels, which do not depend on the reader.

The same paragraphs are made and wrapped again and again (a sheet planned at each size, a
table measured, then placed): :class:`Paragraph` parses each markup once per process (its
pictures all shared ones, see :func:`cardforge.render.backend.parse_paragraph`) and breaks
its lines once per width in a row; paragraphs of one markup, style and pictures (by their
content) share the lines broken at the same widths (:func:`cardforge.render.backend.break_lines`).
"""
from __future__ import annotations

import hashlib
import weakref
from pathlib import Path

from reportlab.lib.utils import ImageReader
from reportlab import platypus

from cardforge.cache.registry import IMAGE_READERS
from cardforge.render import backend

_BY_PATH: weakref.WeakValueDictionary[str, ImageReader] = weakref.WeakValueDictionary()
_BY_CONTENT: dict[str, ImageReader] = IMAGE_READERS.mapping()  # SHA-256 of the PNG -> its reader, the newest last


class Paragraph(platypus.Paragraph):
    """ReportLab's ``Paragraph``, drawing the pictures of :func:`share` d files from their
    shared reader, and breaking its lines once for each width it is wrapped at in a row
    (see :meth:`Paragraph.wrap`)."""

    def __init__(self, text, style=None, bulletText=None, frags=None, caseSensitive=1, encoding="utf8"):
        parsed = frags is None and style is not None  # here (a split part holds its parent's pictures)
        key = None
        if parsed:
            bullet = bulletText or getattr(style, "bulletText", None)
            if bullet is None or isinstance(bullet, str):
                key = (text, backend.style_key(style), bullet, caseSensitive)
                text, frags, bulletText = backend.parse_paragraph(text, style, bullet, caseSensitive, _all_shared,
                                                                   _BY_PATH.get)
        super().__init__(text, style, bulletText, frags, caseSensitive, encoding)
        if parsed:
            pictures = backend.paragraph_images(self)
            for picture in pictures:
                shared = _BY_PATH.get(picture.src) if isinstance(picture.src, str) else None
                if shared is not None:
                    picture.image = ImageReader(shared)
            if key is not None and _all_shared(pictures):  # its lines depend on its markup and pictures alone
                digests = tuple(getattr(_BY_PATH.get(p.src), "_cardforge_digest", None) for p in pictures)
                if None not in digests:
                    self._cardforge_key = key + digests

    def wrap(self, availWidth, availHeight):
        """ReportLab's ``wrap``, without breaking the lines again when the last wrap was at
        the same width with the same style settings, fragments and leading: (width, height) pt."""
        key = (availWidth, backend.style_key(self.style), id(self.frags), getattr(self, "autoLeading", None))
        last = self.__dict__.get("_cardforge_wrapped")
        if last is not None and last[0] == key and last[1] is self.__dict__.get("blPara"):
            return self.width, self.height
        result = super().wrap(availWidth, availHeight)
        if "blPara" in self.__dict__ and result[0] == availWidth:  # too narrow a width breaks no lines
            self._cardforge_wrapped = (key, self.blPara)
        return result

    def breakLines(self, width):
        """ReportLab's ``breakLines``, once a process for each markup, style and widths
        (see :func:`cardforge.render.backend.break_lines`)."""
        key = self.__dict__.get("_cardforge_key")
        if key is None:
            return super().breakLines(width)
        return backend.break_lines(self, width, (key, backend.style_key(self.style)), super().breakLines)

    def split(self, availWidth, availHeight):
        """ReportLab's ``split`` on lines of the paragraph's own, after which the next wrap
        breaks the lines afresh (a split may change the words of the lines it cut)."""
        self.__dict__.pop("_cardforge_wrapped", None)
        backend.own_lines(self, super().breakLines)
        return super().split(availWidth, availHeight)


def _all_shared(pictures: list) -> bool:
    """Whether every picture is of a :func:`share` d file (whose content its reader holds)."""
    return all(isinstance(p.src, str) and p.src in _BY_PATH for p in pictures)


def share(path: Path, png: bytes) -> ImageReader:
    """Register the picture file ``path`` holding ``png``; returns the reader that
    paragraphs naming ``path`` share. The caller keeps it while it uses the file: the
    registration lasts as long as the reader (the picture stays decoded for later files
    of the same content)."""
    digest = hashlib.sha256(png).hexdigest()
    decoded = _BY_CONTENT.pop(digest, None)
    if decoded is None:
        decoded = ImageReader(str(path))
    _BY_CONTENT[digest] = decoded  # the newest last
    reader = ImageReader(decoded)  # the same state, its own object
    reader._cardforge_digest = digest  # what a paragraph's lines drawing it are kept under
    _BY_PATH[str(path)] = reader
    return reader
