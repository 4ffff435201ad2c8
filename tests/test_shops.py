"""Print-shop presets (--shop) and the CMYK PDF/X-1a print file (--color cmyk), preflighted."""
from __future__ import annotations

import re

import numpy as np
import pikepdf
import pytest
from PIL import Image

from cardforge.build import Project, compile_game
from cardforge.export.cmyk import cap_ink, ink, to_cmyk
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


def images_of(pdf: pikepdf.Pdf):
    for page in pdf.pages:
        for name, xobject in page.Resources.get("/XObject", {}).items():
            yield page, xobject


def test_drivethrucards_pdf_passes_preflight(arkham):
    folder = shop_build(arkham, "drivethrucards")
    project = Project(arkham)
    compiled = compile_game(project.cards / "arkham-gates", project)
    pdfs = sorted(folder.glob("*.pdf"))
    sizes = {compiled.layouts.by_type[c.type].size for c in compiled.game.cards}
    assert len(pdfs) == len(sizes)  # one PDF per deck (trim size)
    pages = 0
    for path in pdfs:
        with pikepdf.open(path) as pdf:
            intents = pdf.Root.OutputIntents
            assert len(intents) == 1 and intents[0].S == "/GTS_PDFX"
            profile = intents[0].DestOutputProfile
            assert int(profile.N) == 4 and profile.read_bytes()[36:40] == b"acsp"  # an ICC profile, CMYK
            assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1:2003"
            assert str(pdf.docinfo["/GTS_PDFXConformance"]) == "PDF/X-1a:2003"
            assert pdf.docinfo["/Trapped"] == "/False" and str(pdf.docinfo["/Title"])
            for obj in pdf.objects:
                if isinstance(obj, pikepdf.Dictionary) or isinstance(obj, pikepdf.Stream):
                    assert "/SMask" not in obj and "/Group" not in obj  # no transparency anywhere
                    if obj.get("/Subtype") == "/Image":
                        assert str(obj.ColorSpace) in ALLOWED_SPACES
            for page in pdf.pages:
                media = [float(v) for v in page.MediaBox]
                trim, bleed = [float(v) for v in page.TrimBox], [float(v) for v in page.BleedBox]
                assert bleed == pytest.approx(media)
                assert trim == pytest.approx([media[0] + 9, media[1] + 9, media[2] - 9, media[3] - 9])  # 1/8 in
                assert "/Font" not in page.Resources  # text flattened: nothing left in RGB
            worst = 0.0
            for _, xobject in images_of(pdf):
                image = pikepdf.PdfImage(xobject).as_pil_image()
                assert image.mode == "CMYK"
                worst = max(worst, float(np.asarray(image, dtype=np.float64).sum(axis=2).max()) / 255 * 100)
            assert 100 < worst <= 240.01  # dark backs reach the cap, none go over
            pages += len(pdf.pages)
    assert pages == 2 * sum(c.quantity for c in compiled.game.cards)  # every copy, back and front


def test_drivethrucards_puts_each_back_before_its_front(arkham):
    folder = shop_build(arkham, "drivethrucards")
    with pikepdf.open(next(folder.glob("*64x89mm.pdf"))) as pdf:
        first = [pikepdf.PdfImage(x).as_pil_image() for _, x in images_of(pdf)][:4]
    # reference cards share one back: pages 1 and 3 (backs) match, pages 2 and 4 (fronts) differ
    assert first[0].tobytes() == first[2].tobytes() and first[1].tobytes() != first[3].tobytes()


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
        spaces = {str(x.ColorSpace) for _, x in images_of(pdf)}
        assert spaces == {"/DeviceCMYK"}
