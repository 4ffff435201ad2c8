"""Print-shop presets (--shop) and the CMYK PDF/X-1a print file (--color cmyk), preflighted."""
from __future__ import annotations

import re

import numpy as np
import pikepdf
import pytest
from PIL import Image

from cardforge.build import Project, compile_game
from cardforge.export.cmyk import cap_ink, ink, to_cmyk
from cardforge.export.faces import face_pdf
from cardforge.export.shops import SHOPS
from tests.conftest import make_project, run_cli

ALLOWED_SPACES = {"/DeviceCMYK", "/DeviceGray"}


@pytest.fixture(scope="module")
def arkham(tmp_path_factory):
    return make_project(tmp_path_factory.mktemp("shops"), "arkham-gates")


def shop_build(root, shop, *more):
    result = run_cli("build", "arkham-gates", "--root", str(root), "--shop", shop, *more)
    assert result.exit_code == 0, result.output
    # the shop's safe margin (1/8 in, or 36 px) is wider than the layout's 3 mm: said, on the element's line
    found = re.search(r"layouts/arkham-gates\.yaml:(\d+): warning\[layout-unsafe\]: text element '(\w+)'.*?of " +
                      re.escape(SHOPS[shop].name), " ".join(result.stderr.split()))
    assert found
    lines = (root / "layouts/arkham-gates.yaml").read_text().splitlines()
    line = int(found.group(1))
    assert lines[line - 1].strip() == f"{found.group(2)}:" and "kind: text" in lines[line]
    return root / "output/arkham-gates" / f"shop-{shop}"


@pytest.mark.parametrize("shop, poker", [("the-game-crafter", (825, 1125)), ("makeplayingcards", (822, 1122)),
                                         ("printerstudio", (822, 1122))])
def test_png_shops_write_their_own_pixel_sizes(arkham, shop, poker):
    folder = shop_build(arkham, shop)
    project = Project(arkham)
    compiled = compile_game(project.cards / "arkham-gates", project)
    files = sorted(folder.glob("*.png"))
    assert len(files) == 2 * len(compiled.game.cards)
    for n, card in enumerate(compiled.game.cards, 1):
        expected = SHOPS[shop].pixels(compiled.layouts.by_type[card.type].size)
        for side in ("front", "back"):
            (path,) = folder.glob(f"{n:03d}-*-x{card.quantity}-{side}.png")
            with Image.open(path) as image:
                assert image.size == expected
                assert round(image.info["dpi"][0]) == 300
    n = next(n for n, c in enumerate(compiled.game.cards, 1) if compiled.layouts.by_type[c.type].size[1] > 250)
    with Image.open(next(folder.glob(f"{n:03d}-*-front.png"))) as image:  # a poker card, as the shop's template
        assert image.size == poker


def drawn_colours(pdf: pikepdf.Pdf) -> list[tuple[str, list[float]]]:
    """Every colour-setting operator of every content stream (pages and the forms they
    draw, each stream once): (operator, operands as numbers or names)."""
    found, seen = [], set()

    def walk(holder, resources):
        for operands, op in pikepdf.parse_content_stream(holder):
            if str(op) in ("rg", "RG", "g", "G", "k", "K", "cs", "CS", "sc", "SC", "scn", "SCN", "sh"):
                found.append((str(op), [str(v) if isinstance(v, pikepdf.Name) else float(v) for v in operands]))
        for xobject in (resources or {}).get("/XObject", {}).values():
            if xobject.objgen not in seen and xobject.Subtype == "/Form":
                seen.add(xobject.objgen)
                walk(xobject, xobject.get("/Resources"))

    for page in pdf.pages:
        if page.Contents.objgen not in seen:
            seen.add(page.Contents.objgen)
            walk(page, page.get("/Resources"))
    return found


def preflight(path) -> dict:
    """The checks a print shop's preflight makes of a CMYK PDF/X-1a file: output intent and
    keys, no transparency, only CMYK (every colour operator and every image), page boxes,
    total ink; returns what the caller checks further (pages, text, streams)."""
    with pikepdf.open(path) as pdf:
        intents = pdf.Root.OutputIntents
        assert len(intents) == 1 and intents[0].S == "/GTS_PDFX"
        profile = intents[0].DestOutputProfile
        assert int(profile.N) == 4 and profile.read_bytes()[36:40] == b"acsp"  # an ICC profile, CMYK
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1:2003"
        assert str(pdf.docinfo["/GTS_PDFXConformance"]) == "PDF/X-1a:2003"
        assert pdf.docinfo["/Trapped"] == "/False" and str(pdf.docinfo["/Title"])
        streams = {}
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) or isinstance(obj, pikepdf.Stream):
                assert "/SMask" not in obj and "/Group" not in obj  # no transparency anywhere
                if obj.get("/Subtype") == "/Image":
                    assert str(obj.ColorSpace) in ALLOWED_SPACES
                if obj.get("/Type") == "/Font":  # text is text, its font embedded
                    descendants = obj.get("/DescendantFonts", [obj])
                    descriptor = descendants[0].get("/FontDescriptor")
                    assert descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            if isinstance(obj, pikepdf.Stream) and obj.get("/Type") != "/Metadata":
                streams.setdefault(obj.read_bytes(), []).append(obj.objgen)
        # identical streams (a back drawn on many pages, an image, a font) are stored once
        assert all(len(objs) == 1 for objs in streams.values()), [objs for objs in streams.values() if len(objs) > 1]
        colours = drawn_colours(pdf)
        for op, operands in colours:  # every colour operator is CMYK
            assert op in ("k", "K", "cs", "CS", "sc", "SC", "scn", "SCN"), op
            if op in ("cs", "CS"):
                assert operands == ["/DeviceCMYK"]
            else:
                assert len(operands) == 4 and all(0 <= v <= 1 for v in operands)
                assert sum(operands) <= 2.4 + 1e-6  # total ink within 240 %
        worst = max((sum(v) for op, v in colours if op in ("k", "K")), default=0.0)
        for xobject in (o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"):
            image = pikepdf.PdfImage(xobject).as_pil_image()
            assert image.mode == "CMYK"
            worst = max(worst, float(np.asarray(image, dtype=np.float64).sum(axis=2).max()) / 255)
        assert 1.0 < worst <= 2.4 + 1e-6  # dark backs reach the cap, none go over
        boxes = [([float(v) for v in p.MediaBox], [float(v) for v in p.TrimBox], [float(v) for v in p.BleedBox])
                 for p in pdf.pages]
        contents = [p.Contents.objgen for p in pdf.pages]
    return {"boxes": boxes, "contents": contents}


def test_drivethrucards_pdf_passes_preflight(arkham, tmp_path):
    import pdfplumber

    folder = shop_build(arkham, "drivethrucards")
    project = Project(arkham)
    compiled = compile_game(project.cards / "arkham-gates", project)
    pdfs = sorted(folder.glob("*.pdf"))
    decks = {}
    for card in compiled.game.cards:
        decks.setdefault(compiled.layouts.by_type[card.type].size, []).append(card)
    assert len(pdfs) == len(decks)  # one PDF per deck (trim size)
    pages = 0
    for path in pdfs:
        (size, cards), = [(s, c) for s, c in decks.items() if path.stem.endswith(f"{s[0] / 72 * 25.4:.0f}x{s[1] / 72 * 25.4:.0f}mm")]
        found = preflight(path)
        # exact boxes: trim + 1/8 in (9 pt) a side; a poker card's page is 2.75 x 3.75 in = 198 x 270 pt
        w, h = round(size[0] + 18, 3), round(size[1] + 18, 3)
        for media, trim, bleed in found["boxes"]:
            assert media == bleed == [0, 0, w, h]
            assert trim == [9, 9, round(w - 9, 3), round(h - 9, 3)]
        if size[1] > 250:
            assert (w, h) == (198, 270)
        # every copy, back then front; a card's copies and a shared back are one content stream
        copies = [c for c in cards for _ in range(c.quantity)]
        assert len(found["contents"]) == 2 * len(copies)
        if len(copies) > len(cards):
            assert len(set(found["contents"])) < len(found["contents"])
        # text is real text: each page reads as the RGB face of its card reads, and each
        # poker card's front names its card
        rgb = tmp_path / f"{path.stem}-rgb.pdf"
        face_pdf(cards, compiled.game, compiled.layouts, rgb, bleed_to=9, back_first=True)
        with pdfplumber.open(path) as pdf, pdfplumber.open(rgb) as plain:
            expected = [page.extract_text() for page in plain.pages]
            index = {card.name: n for n, card in enumerate(cards)}
            assert any(expected)
            for n, card in enumerate(copies):
                for side in (0, 1):
                    assert pdf.pages[2 * n + side].extract_text() == expected[2 * index[card.name] + side]
                if size[1] > 250:
                    front = " ".join(pdf.pages[2 * n + 1].extract_text().split())
                    assert " ".join(card.name.split()) in front, (card.name, front)
        pages += len(found["contents"])
    assert pages == 2 * sum(c.quantity for c in compiled.game.cards)  # every copy, back and front


def test_drivethrucards_puts_each_back_before_its_front(arkham):
    folder = shop_build(arkham, "drivethrucards")
    with pikepdf.open(next(folder.glob("*64x89mm.pdf"))) as pdf:
        first = [p.Contents.objgen for p in pdf.pages][:4]
    # reference cards share one back: pages 1 and 3 (backs) are one stream, pages 2 and 4 (fronts) differ
    assert first[0] == first[2] and first[1] != first[3]


def test_ink_cap_and_rich_black():
    black = to_cmyk(Image.new("RGB", (4, 4), (0, 0, 0)), 240)
    assert 200 < ink(black.getpixel((0, 0))) <= 240
    assert black.getpixel((0, 0))[3] > 230  # the black is carried by K
    capped = cap_ink(Image.new("CMYK", (2, 2), (255, 255, 255, 255)), 240)
    assert ink(capped.getpixel((0, 0))) <= 240 and capped.getpixel((0, 0))[3] == 255
    paper = to_cmyk(Image.new("RGB", (2, 2), (255, 255, 255)), 240)
    assert ink(paper.getpixel((0, 0))) < 2


def test_color_cmyk_deck_is_device_cmyk_with_boxes(tmp_path):
    root = make_project(tmp_path, "arkham-gates")
    result = run_cli("build", "arkham-gates", "--root", str(root), "--color", "cmyk")
    assert result.exit_code == 0, result.output
    with pikepdf.open(root / "output/arkham-gates/deck.pdf") as pdf:
        assert pdf.Root.OutputIntents[0].S == "/GTS_PDFX"
        for page in pdf.pages:
            assert "/TrimBox" in page and "/BleedBox" in page
    preflight(root / "output/arkham-gates/deck.pdf")


def _three_pages(path, alpha: float, font: str = "sans") -> None:
    """Three identical pages of a poker card with 1/8 in bleed (the width as 63.5 mm
    computes in points, a hair over 180), each with a photo, a colour and text in ``font``
    (cardforge's embedded sans, or a standard font such as Helvetica, not embedded)."""
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render import fonts

    fonts.register_families(("sans",))
    font = fonts.pdf_name("sans") if font == "sans" else font

    photo = Image.new("RGB", (40, 30), (200, 40, 40))
    photo.paste((20, 60, 200), (0, 0, 20, 30))
    w, h = 63.5 * 72 / 25.4 + 18, 88.9 * 72 / 25.4 + 18
    canvas = Canvas(str(path), pagesize=(w, h), invariant=1, initialFontName=font)
    for _ in range(3):
        canvas.setTrimBox((9, 9, w - 9, h - 9))
        canvas.setFillColorRGB(0.1, 0.5, 0.3, alpha=alpha)
        canvas.rect(20, 20, 100, 60, fill=1, stroke=0)
        canvas.drawImage(ImageReader(photo), 20, 120, 80, 60)
        canvas.setFillColorRGB(0, 0, 0)
        canvas.setFont(font, 10)
        canvas.drawString(20, 200, "Vault Guard")
        canvas.showPage()
    canvas.save()


def test_cmyk_vector_keeps_text_and_stores_a_repeated_image_once(tmp_path):
    import pdfplumber

    from cardforge.export.cmyk import to_pdfx

    source, out = tmp_path / "rgb.pdf", tmp_path / "cmyk.pdf"
    _three_pages(source, alpha=1)
    assert to_pdfx(source, out, order=[0, 1, 2, 2]) == "vector"
    found = preflight(out)
    assert [b[0] for b in found["boxes"]] == [[0, 0, 198, 270]] * 4  # 2.75 x 3.75 in exactly
    with pikepdf.open(out) as pdf:
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert len(images) == 1 and images[0].ColorSpace == "/DeviceCMYK"  # the photo, once, in CMYK
        red = pikepdf.PdfImage(images[0]).as_pil_image().getpixel((35, 15))
        assert red[1] > 150 and red[0] < 60  # red stays red: magenta and yellow, little cyan
    with pdfplumber.open(out) as pdf:
        assert [page.extract_text() for page in pdf.pages] == ["Vault Guard"] * 4


@pytest.mark.parametrize("alpha, font", [(0.5, "sans"), (1, "Helvetica")])
def test_cmyk_transparency_is_rendered_at_exact_pixels_each_image_once(tmp_path, alpha, font):
    from cardforge.export.cmyk import to_pdfx

    source, out = tmp_path / "rgb.pdf", tmp_path / "cmyk.pdf"
    # an opacity or a font not embedded: PDF/X-1a allows neither, so the pages are flattened
    _three_pages(source, alpha=alpha, font=font)
    assert to_pdfx(source, out, dpi=300) == "raster"
    found = preflight(out)
    assert [b[0] for b in found["boxes"]] == [[0, 0, 198, 270]] * 3
    with pikepdf.open(out) as pdf:
        images = [o for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
        assert len(images) == 1  # three identical pages, one image
        assert (int(images[0].Width), int(images[0].Height)) == (825, 1125)  # 2.75 x 3.75 in at 300 ppi exactly


def test_shop_given_twice_writes_both_folders(arkham):
    """`--shop` is repeatable: each shop named writes its own folder (none is dropped), and
    a shop named twice is written once."""
    result = run_cli("build", "arkham-gates", "--root", str(arkham), "--shop", "makeplayingcards",
                     "--shop", "printerstudio", "--shop", "makeplayingcards")
    assert result.exit_code == 0, result.output
    out = arkham / "output/arkham-gates"
    made, studio = sorted((out / "shop-makeplayingcards").glob("*.png")), sorted((out / "shop-printerstudio").glob("*.png"))
    assert made and [p.name for p in made] == [p.name for p in studio]
    assert len(re.findall(r"of " + re.escape(SHOPS["makeplayingcards"].name), " ".join(result.stderr.split()))) >= 1
