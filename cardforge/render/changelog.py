"""The changelog of a reprint, printed into the unused card slots of its last fronts page,
or on pages of its own when it does not fit there.

:func:`add_changelog` takes a reprint PDF written by :func:`cardforge.render.deck.render_deck`
and the slots its last sheet leaves empty, sets the changelog's paragraphs (DejaVu Sans,
8 pt down to 6 pt) in those slots, one after the other, and stamps them onto that page;
when they do not fit at 6 pt, the changelog is appended as pages of its own at 9 pt
instead. Lengths in pt.
"""
from __future__ import annotations

import io
from pathlib import Path

from cardforge.render import fonts

Rect = tuple[float, float, float, float]  # x, y (lower-left), w, h in pt
PAD = 8.0  # pt inside a slot's trim: the changelog keeps clear of the cut
MARGIN = 54.0  # pt around a changelog page's text


def _paragraphs(heading: str, entries: list[str], size: float):
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    fonts.register_families(("sans",))
    body = ParagraphStyle("changelog", fontName=fonts.pdf_name("sans"), fontSize=size, leading=size * 1.25,
                          spaceAfter=size * 0.4)
    head = ParagraphStyle("changelog-head", parent=body, fontName=fonts.pdf_name("sans-bold"),
                          fontSize=size * 1.15, leading=size * 1.4)
    return [Paragraph(heading, head)] + [Paragraph(entry, body) for entry in entries]


def _fill(canvas, frames: list[Rect], story: list) -> bool:
    """Flow ``story`` through ``frames`` on ``canvas``; True when all of it fits."""
    from reportlab.platypus import Frame

    for x, y, w, h in frames:
        frame = Frame(x, y, w, h, leftPadding=PAD, rightPadding=PAD, topPadding=PAD, bottomPadding=PAD, showBoundary=0)
        story = _flow(frame, canvas, story)
        if not story:
            return True
    return not story


def _fits(size: tuple[float, float], frames: list[Rect], story: list) -> bool:
    from reportlab.pdfgen.canvas import Canvas

    return _fill(Canvas(io.BytesIO(), pagesize=size), frames, story)


def add_changelog(pdf: Path, heading: str, entries: list[str], page: int | None, slots: list[Rect],
                  paper: tuple[float, float]) -> str:
    """Print the changelog (``heading``, then one paragraph per entry, ReportLab paragraph
    markup) into ``pdf``: in ``slots`` of page ``page`` (0-based) when it fits there, else
    on pages of ``paper`` size added at the end. Returns where it went: ``"slots"`` or
    ``"pages"``. Raises ``OSError`` when ``pdf`` cannot be read or written."""
    import pikepdf
    from reportlab.pdfgen.canvas import Canvas

    chosen = None
    if page is not None and slots:
        for size in (8.0, 7.0, 6.0):
            if _fits(paper, slots, _paragraphs(heading, entries, size)):
                chosen = size
                break
    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=paper, invariant=1)
    if chosen is not None:
        _fill(c, slots, _paragraphs(heading, entries, chosen))
        c.showPage()
    else:
        story = _paragraphs(heading, entries, 9.0)
        area = [(MARGIN, MARGIN, paper[0] - 2 * MARGIN, paper[1] - 2 * MARGIN)]
        while story:
            from reportlab.platypus import Frame

            frame = Frame(*area[0], showBoundary=0)
            before = len(story)
            story = _flow(frame, c, story)
            c.showPage()
            if len(story) == before:  # a paragraph taller than the page: give up on it
                story.pop(0)
    c.save()
    with pikepdf.open(pdf, allow_overwriting_input=True) as doc, pikepdf.open(io.BytesIO(buffer.getvalue())) as log:
        if chosen is not None:
            doc.pages[page].add_overlay(log.pages[0])
        else:
            doc.pages.extend(log.pages)
        doc.save(pdf, deterministic_id=True)
    return "slots" if chosen is not None else "pages"


def _flow(frame, canvas, story: list) -> list:
    """Add what fits of ``story`` to ``frame``; returns the rest."""
    story = list(story)
    while story:
        if frame.add(story[0], canvas):
            story.pop(0)
            continue
        parts = frame.split(story[0], canvas)
        if len(parts) < 2:
            break
        story[:1] = parts
    return story
