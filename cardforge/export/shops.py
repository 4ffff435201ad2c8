"""Print-shop presets: what each shop asks for, as its own documentation states it.

A :class:`Shop` gives the resolution, the bleed beyond the trim (in pixels at that
resolution, per side, because that is how the shops state it), the safe area inside the
trim, how files are named and in what order pages go. :func:`export_shop` writes a game's
cards the way the shop takes them:

- **The Game Crafter** (``the-game-crafter``): one PNG per face, 300 dpi, 1/8 in bleed per
  side, so a poker card is 825 x 1125 px; keep text 1/8 in inside the trim (the template's
  safe zone, 675 x 975 px). Source: https://www.thegamecrafter.com/make/products/PokerDeck
  (product page and its PNG template).
- **MakePlayingCards** (``makeplayingcards``): one PNG per face, 300 dpi, 36 px bleed per
  side, so a poker card is 822 x 1122 px; safe area 36 px inside the trim. Source: the
  poker-size template of https://www.makeplayingcards.com/ (custom game cards, "poker size
  (63 x 88 mm)": image 822 x 1122 px).
- **DriveThruCards** (``drivethrucards``): one PDF per deck, "the first page is the back of
  card 1, the second its front, then the back of card 2 ..." in the deck's printed order;
  1/8 in bleed on all four sides, nothing important within 1/8 in of a finished edge, CMYK
  with total ink at most 240 % (rich black C60 M40 Y40 K100), exported as PDF/X-1a:2003, no
  die line for rounded corners. Source:
  https://help.drivethrupartners.com/hc/en-us/articles/12780748203543 ("Printed Card
  Specifications").
- **PrinterStudio** (``printerstudio``): one PNG per face, 300 dpi, 36 px bleed per side
  (822 x 1122 px for poker), the same poker template as MakePlayingCards (the two sites
  share their card templates). Source: https://www.printerstudio.com/ (custom playing cards,
  poker size, "design template").

The shops change their templates from time to time: check the source before ordering.
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from cardforge.export.faces import face_pdf, rasterise
from cardforge.elements import kind_of
from cardforge.layout import LayoutSet
from cardforge.model import Game, slugify
from cardforge.util.diagnostics import LAYOUT_UNSAFE


@dataclass(frozen=True)
class Shop:
    """A print shop's file requirements.

    ``bleed_px``: bleed per side in pixels at ``dpi``; ``safe_px``: safe margin inside the
    trim, pixels at ``dpi``; ``files``: "png" (one image per face) or "pdf" (one PDF per
    deck); ``back_first``: in a PDF, each card's back page comes before its front page;
    ``copies``: a PDF repeats a card for each copy (its quantity); ``color``: "rgb" or
    "cmyk"; ``ink_limit``: highest total ink (sum of C, M, Y, K in %), for CMYK.
    """

    key: str
    name: str
    source: str
    dpi: int = 300
    bleed_px: float = 37.5
    safe_px: float = 37.5
    files: str = "png"
    back_first: bool = False
    copies: bool = False
    color: str = "rgb"
    ink_limit: int = 300

    @property
    def bleed_pt(self) -> float:
        return self.bleed_px / self.dpi * 72

    @property
    def safe_pt(self) -> float:
        return self.safe_px / self.dpi * 72

    def pixels(self, trim: tuple[float, float]) -> tuple[int, int]:
        """Image size (w, h) px of a face of ``trim`` (w, h) pt, bleed included."""
        return tuple(round(v / 72 * self.dpi + 2 * self.bleed_px) for v in trim)


SHOPS = {shop.key: shop for shop in (
    Shop("the-game-crafter", "The Game Crafter", "https://www.thegamecrafter.com/make/products/PokerDeck",
         bleed_px=37.5, safe_px=37.5),
    Shop("makeplayingcards", "MakePlayingCards", "https://www.makeplayingcards.com/ (poker size template)",
         bleed_px=36, safe_px=36),
    Shop("drivethrucards", "DriveThruCards", "https://help.drivethrupartners.com/hc/en-us/articles/12780748203543",
         bleed_px=37.5, safe_px=37.5, files="pdf", back_first=True, copies=True, color="cmyk", ink_limit=240),
    Shop("printerstudio", "PrinterStudio", "https://www.printerstudio.com/ (poker size template)",
         bleed_px=36, safe_px=36),
)}


def export_shop(game: Game, layouts: LayoutSet, folder: Path, shop: Shop, color: str | None = None) -> list[Path]:
    """Write ``game``'s cards into ``folder`` as ``shop`` takes them; returns the files.

    PNG shops: ``NNN-<card>-x<quantity>-front.png`` and ``-back.png`` (``NNN``: the card's
    place in deck order), each exactly :meth:`Shop.pixels` in size. PDF shops: one
    ``<game>-<size>.pdf`` per trim size (a deck), pages in the shop's order, every copy of a
    card repeated, TrimBox and BleedBox on each page; in CMYK (``color`` or the shop's own)
    through :mod:`cardforge.export.cmyk`.
    """
    folder.mkdir(parents=True, exist_ok=True)
    if shop.files == "pdf":
        return _pdf_decks(game, layouts, folder, shop, color or shop.color)
    written = []
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "faces.pdf"
        face_pdf(game.cards, game, layouts, pdf, bleed_to=shop.bleed_pt, compress=False)
        images = rasterise(pdf, shop.dpi)
        for n, card in enumerate(game.cards, 1):
            size = shop.pixels(layouts.for_card(card).size)
            stem = f"{n:03d}-{slugify(card.name)[:48]}-x{card.quantity}"
            for side in ("front", "back"):
                image = next(images)
                if image.size != size:  # PDFium rounds a page edge down by a pixel at some sizes
                    image = image.resize(size, Image.LANCZOS)
                path = folder / f"{stem}-{side}.png"
                image.save(path, dpi=(shop.dpi, shop.dpi))
                written.append(path)
    return written


def safe_area_notes(game: Game, layouts: LayoutSet, shop: Shop) -> list:
    """A ``layout-unsafe`` warning for each text element of a used layout that reaches into
    ``shop``'s safe margin (which may be wider than the layout's own ``safe``)."""
    from cardforge.util.diagnostics import diag

    notes, seen = [], set()
    for type_id in dict.fromkeys(card.type for card in game.cards):
        layout = layouts.by_type[type_id]
        w, h = layout.size
        s = shop.safe_pt
        for face in (layout.front, layout.back):
            for el in (face.elements if face else ()):
                x, y, bw, bh = kind_of(el).bounds(el)
                if not kind_of(el).keeps_safe or (layout.name, el.name) in seen:
                    continue
                if x < s - 0.01 or y < s - 0.01 or x + bw > w - s + 0.01 or y + bh > h - s + 0.01:
                    seen.add((layout.name, el.name))
                    notes.append(diag(LAYOUT_UNSAFE,
                                      f"text element {el.name!r} of layout {layout.name!r} reaches into the safe margin "
                                      f"of {shop.name} ({s / 72 * 25.4:.2f} mm inside the trim), where its cut may clip it",
                                      file=layouts.file, line=el.line))
    return notes


def _pdf_decks(game: Game, layouts: LayoutSet, folder: Path, shop: Shop, color: str) -> list[Path]:
    decks: dict[tuple[float, float], list] = {}
    for card in game.cards:
        decks.setdefault(layouts.for_card(card).size, []).append(card)
    written = []
    for size, cards in decks.items():
        name = f"{game.slug}-{size[0] / 72 * 25.4:.0f}x{size[1] / 72 * 25.4:.0f}mm.pdf"
        out = folder / name
        face_pdf(cards, game, layouts, out, bleed_to=shop.bleed_pt, back_first=shop.back_first)
        order = [2 * i + side for i, card in enumerate(cards)
                 for _ in range(card.quantity if shop.copies else 1) for side in (0, 1)]
        if color == "cmyk":
            from cardforge.export.cmyk import to_pdfx

            to_pdfx(out, out, shop.ink_limit, shop.dpi, title=f"{game.title} ({name})", order=order)
        else:
            _reorder(out, order)
        written.append(out)
    return written


def _reorder(pdf: Path, order: list[int]) -> None:
    """Rewrite ``pdf`` with its pages in ``order`` (indices; a page may repeat)."""
    import pikepdf

    with pikepdf.open(pdf, allow_overwriting_input=True) as document:
        source = list(document.pages)
        pages = [source[i] for i in order]
        while len(document.pages):
            del document.pages[0]
        for page in pages:
            document.pages.append(page)
        document.save(pdf, deterministic_id=True)
