"""SVG icons are printed as vectors: form XObjects of paths, each defined once, no pixels."""
from __future__ import annotations

import io
from dataclasses import replace

import pikepdf
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from reportlab.pdfgen.canvas import Canvas

from cardforge.sources.load import find_packs, load_game
from cardforge.render.icons import IconStamp, rasterise
from tests.conftest import REPO

SLUGS = [p.name for p in find_packs(REPO / "cards")]


def xobjects(pdf: pikepdf.Pdf):
    """Every XObject reachable from the pages, once each: (name, object)."""
    seen, found = set(), []

    def walk(resources):
        for name, obj in ((resources or {}).get("/XObject") or {}).items():
            if obj.objgen in seen:
                continue
            seen.add(obj.objgen)
            found.append((str(name), obj))
            if obj.get("/Subtype") == "/Form":
                walk(obj.get("/Resources"))

    for page in pdf.pages:
        walk(page.obj.get("/Resources"))
    return found


@pytest.mark.parametrize("slug", SLUGS)
def test_deck_icons_are_vector_forms_without_images_or_soft_masks(all_built, slug):
    with pikepdf.open(all_built / "output" / slug / "deck.pdf") as pdf:
        found = xobjects(pdf)
        images = [n for n, o in found if o.get("/Subtype") == "/Image"]
        masks = [n for n, o in found if "/SMask" in o]
        icon_forms = [n for n, o in found if o.get("/Subtype") == "/Form" and "icon-" in n]
        assert images == [] and masks == []
        assert icon_forms, "the deck stamps icons"
        # each (icon, colour) is one form object however many cards print it
        assert len(icon_forms) == len(set(icon_forms))
        for page in pdf.pages:
            gs = (page.obj.get("/Resources") or {}).get("/ExtGState") or {}
            assert not any("/SMask" in g and g["/SMask"] != "/None" for g in gs.values())


@pytest.mark.parametrize("slug", SLUGS)
def test_vector_icons_cover_the_same_shape_as_the_svg(slug):
    """Each icon drawn as a vector and rasterised by PDFium matches cairosvg's own drawing."""
    game, _ = load_game(REPO / "cards" / slug)
    px = 96
    for icon in game.icons.values():
        if icon.svg is None:
            continue
        buf = io.BytesIO()
        canvas = Canvas(buf, pagesize=(px, px))
        IconStamp(canvas).draw(replace(icon, badge=None), 0, 0, px, "#000000")  # the badge is not in the SVG
        canvas.showPage()
        canvas.save()
        page = pdfium.PdfDocument(buf.getvalue())[0]
        vector = page.render(scale=1).to_pil().convert("L").point(lambda v: 255 if v < 128 else 0).convert("1")
        # cairosvg's drawing on white paper, as PDFium's is: a part the SVG paints white
        # (the ring inside a coin) is white in both, not ink in one and paper in the other
        drawn = Image.open(io.BytesIO(rasterise(icon.svg, "#000000", px))).convert("RGBA")
        paper = Image.new("RGBA", drawn.size, "white")
        paper.alpha_composite(drawn)
        reference = paper.convert("L").point(lambda v: 255 if v < 128 else 0).convert("1")
        both = ImageChops.logical_and(vector, reference).histogram()[-1]
        either = ImageChops.logical_or(vector, reference).histogram()[-1]
        assert either > px, f"{icon.name} draws nothing"
        overlap = both / either
        assert overlap > 0.93, f"{icon.name}: {overlap:.3f}"
