"""Single card faces as PDF pages and PNG images.

:func:`face_pdf` writes one card (front page, back page) with the page the size of the
trim plus bleed on every side, and TrimBox/BleedBox set, so a print shop's tools and our
tests can read the geometry back. :func:`rasterise` turns such pages into images with
pypdfium2 (PDFium), at ``dpi`` pixels per inch.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from cardforge.layout import LayoutSet
from cardforge.model import Card, Game
from cardforge.render import card as card_render
from cardforge.render import fonts
from cardforge.resolve.face import Contexts, back_context, back_face, context
from cardforge.resolve.marks import face_marks
from cardforge.render.icons import IconStamp


def face_pdf(cards: list[Card], game: Game, layouts: LayoutSet, out: Path, bleed: bool = True,
             bleed_to: float | None = None, back_first: bool = False, compress: bool = True,
             shared_backs: bool = False) -> list[tuple[int, int]]:
    """Write ``out``: for each card, a front page then a back page (the back first with
    ``back_first``), each trim + 2 x bleed; the bleed is the layout's, ``bleed_to`` pt
    instead when given, none when ``bleed`` is false. ``compress=False`` for a file read
    once and deleted (rasterised into images): its pages are not deflated, which costs
    about 7 % of drawing them and changes no pixel. With ``shared_backs``, a back that prints
    the same on every card (:func:`cardforge.resolve.face.card_free`) is printed once, with
    the first card that shows it, and not again.

    Returns each card's (front page, back page), 0-based, in the order of ``cards``."""
    canvas = Canvas(str(out), invariant=1, pageCompression=int(compress), initialFontName=fonts.pdf_name("sans"))
    stamp = IconStamp(canvas)
    contexts = Contexts(game)  # which backs print the same on every card
    printed: dict[tuple, int] = {}  # with shared_backs: a shared back's key -> its page
    pages: list[tuple[int, int]] = []
    for card in cards:
        layout = layouts.for_card(card)
        b = (layout.bleed if bleed_to is None else bleed_to) if bleed else 0.0
        w, h = layout.size
        page = (w + 2 * b, h + 2 * b)
        back, back_ctx = back_face(card, game, layouts), back_context(card, game)
        key = card_render.back_key(back, back_ctx, layout, b) if shared_backs and contexts.card_free(back) else None
        first = canvas.getPageNumber() - 1  # the page this card starts on
        sides = [(layout.front, context(card, game))]
        if key in printed:  # its back is printed already: the front alone
            pages.append((first, printed[key]))
        else:
            sides = [(back, back_ctx), *sides] if back_first else [*sides, (back, back_ctx)]
            pages.append((first + 1, first) if back_first else (first, first + 1))
            if key is not None:
                printed[key] = pages[-1][1]
        for face, ctx in sides:
            canvas.setPageSize(page)
            canvas.setBleedBox((0, 0, page[0], page[1]))
            canvas.setTrimBox((b, b, b + w, b + h))
            if face is layout.front:
                card_render.draw_face(canvas, face, ctx, game, b, b, layout.size, stamp, bleed=b,
                                      shape=layout.shape, marks=face_marks(layout, ctx, game))
            else:
                card_render.draw_back(canvas, face, ctx, game, b, b, layout, stamp, b, contexts.card_free(face))
            canvas.showPage()
    canvas.save()
    return pages


def card_pages(placed: list[tuple[int, int]], images: Iterator[Image.Image]) \
        -> Iterator[tuple[tuple[int, Image.Image], tuple[int, Image.Image]]]:
    """For each card, ((front page, its image), (back page, its image)): ``placed`` is what
    :func:`face_pdf` returned, ``images`` the PDF's pages in order (:func:`rasterise`). A
    page more than one card shows (a shared back) is read once and given to each, held
    until the last card that shows it."""
    left = Counter(n for pair in placed for n in pair)  # the cards still to show each page
    again: dict[int, Image.Image] = {}
    for pair in placed:
        found = {n: again[n] for n in pair if n in again}
        for n in sorted(set(pair) - found.keys()):  # the card's new pages, in page order
            found[n] = again[n] = next(images)
        for n in pair:
            left[n] -= 1
            if not left[n]:
                again.pop(n, None)
        front, back = pair
        yield (front, found[front]), (back, found[back])


def rasterise(pdf: Path, dpi: int) -> Iterator[Image.Image]:
    """Each page of ``pdf`` as an RGB image at ``dpi`` (PDFium via pypdfium2), one at a time."""
    return _rendered(pdf, lambda page: dpi / 72)


def rasterise_to(pdf: Path, size: tuple[int, int]) -> Iterator[Image.Image]:
    """Each page of ``pdf`` as an RGB image of exactly ``size`` (w, h) px: drawn by PDFium at
    the scale that makes the page ``size[0]`` px wide (no resampling after), its last row
    or column cut when the page's height rounds up a pixel over ``size[1]``. For pages of
    one shape, as a deck's faces are; a page of another shape is scaled to ``size``."""
    for image in _rendered(pdf, lambda page: size[0] / page.get_width()):
        if image.size != size:
            w, h = image.size
            image = image.crop((0, 0, *size)) if 0 <= w - size[0] <= 1 and 0 <= h - size[1] <= 1 \
                else image.resize(size, Image.LANCZOS)
        yield image


def _rendered(pdf: Path, scale) -> Iterator[Image.Image]:
    """Each page of ``pdf`` drawn by PDFium at ``scale(page)`` pixels per point, as RGB."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        for page in document:
            yield page.render(scale=scale(page), draw_annots=False).to_pil().convert("RGB")
            page.close()
    finally:
        document.close()


def pixels(points: float, dpi: int) -> int:
    """How many pixels ``points`` pt span at ``dpi``."""
    return round(points / 72 * dpi)
