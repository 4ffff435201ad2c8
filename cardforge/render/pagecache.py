"""Deck pages drawn once and kept: the page cache, parallel sheets and sealed page streams.

A deck's sheet (its fronts page and its backs page) is a pure function of the cards on it,
the game's other inputs and the build options. :func:`finish` ends a page and records what
ReportLab wrote for it (its content stream compressed and encoded as the PDF holds it, the
forms and colours it uses) so that the page can be written again by :func:`replay` into
another PDF, without drawing or compressing it again: a later build's (the page cache,
``output/.cache/<slug>/deck-pages/``) or the parent's, when sheets are drawn by a pool of
processes. A replayed page and a drawn page are the same bytes, so a deck comes out
byte-identical whichever sheets were drawn, replayed or drawn by another process.

That holds because every deck PDF starts alike (:func:`prepare`): each shipped font is
registered in a fixed order and its first subset is filled with a fixed set of
characters (ASCII, Latin-1 and common punctuation and symbols), so that text in these
characters is encoded the same way in every deck. A page that depends on its PDF's
history (a character outside that set, opacity, a raster image, a font a pack brings) is
never recorded: it is drawn each time.

:func:`seal` compresses a page's content stream as soon as the page is finished, exactly
as ReportLab would when saving (or takes a replayed page's), and keeps it in a temporary file, and :func:`save` writes
the PDF object by object: a deck of 10,000 cards holds neither its drawing operators nor
its page streams nor the finished file in memory.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from cardforge.elements import kind_of
from cardforge.render import backend, fonts

FORMAT = "2"  # bump when what a record holds, or how pages are drawn, changes meaning

# the characters every deck's fonts encode alike, in this order, after ASCII
_COMMON = ("".join(chr(c) for c in range(0xA1, 0x100)) + "‘’‚“”„–—…•·′″‹›†‡‰−×÷±≤≥≠≈∞→←↑↓↔⇒★☆●○■□▲▼◆◇♠♣♥♦✓✗€£¥™©®"
           + "".join(chr(c) for c in range(0x100, 0x180)))


def deck_fonts(layouts) -> tuple[str, ...]:
    """The shipped faces a deck drawn with ``layouts`` may print, in :data:`fonts.FONTS`
    order: every family a layout's text or table names (all four of its styles, for
    **bold** and *italic*), and sans and sans bold (page labels, icon badges)."""
    used = {"sans", "sans-bold"}
    sides = [face for layout in layouts.by_type.values() for face in (layout.front, layout.back) if face is not None]
    for face in sides + list(layouts.backs.values()):
        for el in face.elements:
            for name in kind_of(el).fonts(el):
                if name in fonts.FONTS:
                    used.add(name)
                    used.update(fonts.FAMILIES[fonts.FAMILY_OF.get(name, "sans")])
    return tuple(face for face in fonts.FONTS if face in used)


def prepare(canvas: Canvas, faces: tuple[str, ...] = tuple(fonts.FONTS)) -> None:
    """Register the shipped ``faces`` with ``canvas`` in :data:`fonts.FONTS` order, each
    with its first subset filled with the fixed characters, before anything is drawn (a
    face drawn later, as a one-card layout may, is registered then and its pages are
    not recorded)."""
    # setting any opacity, even 1 (which writes nothing), makes ReportLab declare PDF 1.4:
    # every deck declares it, whether its pages and forms are drawn or written from a cache
    backend.declare_transparency(canvas)
    # a face whose first subset is full: text in it never changes the document's font state
    full = [face for face in faces if backend.fill_first_subset(canvas, fonts.pdf_name(face), _COMMON)]
    canvas._cardforge_prepared = tuple((face, backend.font_resource_name(canvas, fonts.pdf_name(face))) for face in full)


def _allowed_fonts(canvas: Canvas) -> set[str]:
    """The internal names of the faces :func:`prepare` registered with ``canvas`` whose
    first subset is full (see :func:`replayable_fonts`)."""
    return {internal for _, internal in getattr(canvas, "_cardforge_prepared", ())}


def replayable_fonts(canvas: Canvas, ops: str) -> bool:
    """True when every font ``ops`` sets is a face :func:`prepare` registered with
    ``canvas`` (by the same internal name in every document prepared alike), in its first,
    full subset: drawing ``ops`` then leaves the document's fonts as they were, so the
    operators can be written again instead of drawn."""
    allowed = _allowed_fonts(canvas)
    return all(name in allowed and subset == 0 for name, subset in backend.fonts_set(ops))


@dataclass
class Page:
    """One page as ReportLab wrote it: ``size`` (w, h) pt, its content stream as the PDF
    holds it (``stream``: compressed and encoded, the preamble ``preamble`` first), the forms
    it uses (in order of first use), and the colours and shadings its resources list."""

    size: tuple[float, float]
    stream: bytes
    preamble: str
    forms: list[str]
    colors: dict
    shadings: dict


@dataclass
class Record:
    """The pages of one sheet and how to define the forms they use (name -> spec, see
    :meth:`cardforge.render.icons.IconStamp.define`)."""

    pages: list[Page] = field(default_factory=list)
    specs: dict[str, tuple] = field(default_factory=dict)

    def fits(self, canvas: Canvas) -> bool:
        """True when these pages were made on a canvas that starts its pages as ``canvas``
        does (the same preamble) and ``canvas`` has nothing on its page in progress."""
        return not backend.has_operators(canvas) and all(page.preamble == backend.page_preamble(canvas)
                                                         for page in self.pages)


def replayable(canvas: Canvas, specs: dict[str, tuple]) -> bool:
    """True when the page in progress on ``canvas`` can be written into another PDF as it
    is: no annotations, transparency or forms but those ``specs`` can define again, and no
    fonts but the prepared faces (see :func:`replayable_fonts`). Call before :func:`finish`."""
    ops = backend.pending_operators(canvas)
    return not (backend.has_annotations(canvas) or backend.uses_graphics_state(ops)
                or any(name not in specs for name in backend.resources(canvas).forms) or not replayable_fonts(canvas, ops))


def finish(canvas: Canvas, keep: bool = True, specs: dict[str, tuple] | None = None) -> Page | None:
    """End the page in progress (``showPage``) and seal it (see :func:`seal`); without
    ``keep`` (a scratch canvas that is never saved) drop it instead. With ``specs`` (how
    to define the forms the page may use), returns the page's record when it can be
    replayed into another PDF (see :func:`replayable`), else None."""
    c = canvas
    page = None
    if specs is not None and replayable(c, specs):
        used = backend.resources(c)
        page = Page(backend.page_size(c), b"", backend.page_preamble(c), list(dict.fromkeys(used.forms)), used.colors,
                    used.shadings)
    c.showPage()
    content = backend.last_page_stream(c) if keep or page is not None else None
    if page is not None:
        if content is None:  # not compressed: nothing to replay as is
            page = None
        else:
            page.stream = content
    if keep:
        seal(c, content)
    else:
        backend.drop_last_page_stream(c)
    return page


def replay(canvas: Canvas, page: Page, define) -> None:
    """Write ``page`` as the next page of ``canvas`` (one that :meth:`Record.fits`, with
    nothing drawn on its page in progress); ``define(name)`` defines a form the page uses
    that the canvas does not have yet (in the order the page first uses them)."""
    c = canvas
    c.setPageSize(page.size)
    for name in page.forms:
        define(name)
    backend.add_resources(c, page.forms, page.colors, page.shadings)
    c.showPage()
    seal(c, page.stream)


def seal(canvas: Canvas, content: bytes | None = None) -> None:
    """Replace the content stream of ``canvas``'s last finished page by ``content`` (its
    sealed bytes, see :func:`backend.last_page_stream`; worked out here when not given),
    drop the operators and keep the bytes in the canvas's spill file (an anonymous
    temporary file) until :func:`save` writes them."""
    if content is None:
        content = backend.last_page_stream(canvas)
        if content is None:
            return
    spill = getattr(canvas, "_cardforge_spill", None)
    if spill is None:
        spill = canvas._cardforge_spill = tempfile.TemporaryFile(prefix="cardforge-pages-")
    offset = spill.seek(0, os.SEEK_END)
    spill.write(content)
    backend.seal_last_page(canvas, spill, offset, len(content))


def save(canvas: Canvas, path: Path) -> None:
    """Write ``canvas``'s PDF to ``path`` object by object as ReportLab formats them, the
    same bytes ``canvas.save()`` writes, without first joining the whole file in memory
    (see :func:`backend.save_streamed`); then close the canvas's spill file (see
    :func:`seal`). Raises ``OSError`` when ``path`` cannot be written."""
    with open(path, "wb") as fh:
        try:
            backend.save_streamed(canvas, fh)
        finally:
            spill = getattr(canvas, "_cardforge_spill", None)
            if spill is not None:
                spill.close()


def sheet_key(context: str, label: str, sheet: object, options: object, cards: list) -> str:
    """The cache key of one sheet: the game's inputs other than its card files
    (``context``, see :func:`context_digest`), the sheet's label and geometry, the deck
    options and the cards on it (type, name, quantity and every field, in slot order)."""
    h = hashlib.sha256(f"{FORMAT}\0{context}\0{label}\0{sheet!r}\0{options!r}".encode())
    for card in cards:
        h.update(b"\0")
        h.update(json.dumps([card.type, card.name, card.quantity, card.data], sort_keys=True, default=repr).encode())
    return h.hexdigest()


def context_digest(pack: Path, layouts: Path) -> str:
    """SHA-256 of what every sheet of the game in ``pack`` depends on besides its cards:
    cardforge itself, every file of the pack but its card files (game.yaml, errata, icons,
    art, fonts, rules...) and the game's layouts (see :func:`cardforge.cache.pack_inputs`).
    Raises ``OSError`` when a file cannot be read."""
    from cardforge.cache import file_digest, fingerprint, input_files, layout_inputs
    from cardforge.sources.load import NOT_CARD_FILES

    def card_file(path: Path) -> bool:
        return path.parent == pack and (path.suffix == ".csv" or path.suffix == ".yaml" and path.name not in NOT_CARD_FILES)

    h = hashlib.sha256(fingerprint().encode())
    for path in input_files(pack):
        if not card_file(path):
            h.update(b"\0" + path.relative_to(pack).as_posix().encode() + b"\0" + file_digest(path))
    h.update(b"\0layouts\0" + layout_inputs(pack, layouts).encode())
    return h.hexdigest()


class PageStore:
    """Recorded sheets on disk (``folder/<key>.pickle``), each written to a temporary file
    and renamed into place, so a crash never leaves half an entry under a valid key."""

    def __init__(self, folder: Path, context: str):
        self.folder = folder
        self.context = context
        self.used: set[str] = set()

    def has(self, key: str) -> bool:
        return (self.folder / f"{key}.pickle").is_file()

    def get(self, key: str) -> Record | None:
        """The sheet stored under ``key``, or None (a missing or damaged entry is a miss)."""
        try:
            found = pickle.loads(zlib.decompress((self.folder / f"{key}.pickle").read_bytes()))
        except (OSError, EOFError, zlib.error, pickle.UnpicklingError, ValueError, TypeError, AttributeError,
                ImportError, IndexError):
            return None
        if not isinstance(found, Record):
            return None
        self.used.add(key)
        return found

    def put(self, key: str, rec: Record) -> None:
        """Store ``rec`` under ``key`` (failures are ignored: the cache only saves time)."""
        self.used.add(key)
        from cardforge.cache import write_atomic

        try:
            write_atomic(self.folder / f"{key}.pickle", zlib.compress(pickle.dumps(rec, protocol=pickle.HIGHEST_PROTOCOL), 1))
        except OSError:
            return

    def prune(self, keep_others: int = 0) -> None:
        """Remove the sheets this deck did not use beyond the ``keep_others`` newest (a few
        builds' worth, so undoing an edit finds its sheets again), and crashed writes."""
        from cardforge.cache.files import prune_newest

        prune_newest(self.folder, keep_others, spare=frozenset(f"{key}.pickle" for key in self.used),
                     pattern="*.pickle")

