"""Inline icon pictures decoded once per process, not once per paragraph.

ReportLab's paragraph parser opens a new :class:`~reportlab.lib.utils.ImageReader` for
every ``<img src=...>`` it reads, and each reader decodes its PNG again the first time it
is drawn: the rules documents print the same few icons hundreds of times. The parser's
reader class is replaced here by :class:`SharedReader`, which, for a file registered with
:func:`share` (the icon pictures :class:`cardforge.rules.flow.IconImages` writes), shares
the state of one reader per picture (ReportLab's own way of copying a reader), so the
picture is read and decoded once. Every other file is read as before. The PDF is the
same: an image is written from its decoded pixels, which do not depend on the reader.
"""
from __future__ import annotations

import hashlib
import weakref
from pathlib import Path

from reportlab.lib.utils import ImageReader
from reportlab.platypus import paraparser

_BY_PATH: weakref.WeakValueDictionary[str, ImageReader] = weakref.WeakValueDictionary()
_BY_CONTENT: dict[str, ImageReader] = {}  # SHA-256 of the PNG -> its reader
_MAX = 256  # pictures kept decoded (a designer's session touches a few dozen)


class SharedReader(ImageReader):
    """An :class:`ImageReader` that reads a :func:`share` d file from its shared reader."""

    def __init__(self, fileName, ident=None):
        shared = _BY_PATH.get(fileName) if isinstance(fileName, str) else None
        super().__init__(shared if shared is not None else fileName, ident)


def share(path: Path, png: bytes) -> ImageReader:
    """Register the picture file ``path`` holding ``png``; returns the reader that
    paragraphs naming ``path`` share. The caller keeps it while it uses the file: the
    registration lasts as long as the reader (the picture stays decoded for later files
    of the same content)."""
    digest = hashlib.sha256(png).hexdigest()
    decoded = _BY_CONTENT.pop(digest, None)
    if decoded is None:
        if len(_BY_CONTENT) >= _MAX:
            _BY_CONTENT.pop(next(iter(_BY_CONTENT)))
        decoded = ImageReader(str(path))
    _BY_CONTENT[digest] = decoded  # the newest last
    reader = ImageReader(decoded)  # the same state, its own object
    _BY_PATH[str(path)] = reader
    return reader


paraparser.ImageReader = SharedReader  # the parser's only use of the name: a reader per <img>
