"""True bleed, measured on rendered output: on every card edge of every pack, the colour
1 mm outside the trim is the colour 1 mm inside it (deck sheets at 300 dpi on Letter and A4,
and single faces as the print-shop export renders them)."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardforge.build import Project, compile_game
from cardforge.export.faces import face_pdf, rasterise
from cardforge.render.deck import DeckOptions, card_groups, sheet_for
from cardforge.render.sheet import MIN_BLEED
from tests.conftest import REPO
from tests.conftest import SHIPPED as SLUGS

MM = 72 / 25.4
DPI = 300
PROBE = 1 * MM
TOLERANCE = 24  # per RGB channel, 0-255: anti-aliasing and icon edges far from the probe stay well under


def page_image(path: Path, index: int):
    document = pdfium.PdfDocument(str(path))
    try:
        page = document[index]
        image = page.render(scale=DPI / 72).to_pil().convert("RGB")
        return image, page.get_height()
    finally:
        document.close()


def colour(image, height, x, y):
    """RGB at (x, y) pt, PDF coordinates (lower-left origin)."""
    return image.getpixel((round(x / 72 * DPI), round((height - y) / 72 * DPI)))


def probes(x, y, size, shape, sides):
    """(inside, outside) point pairs, pt, across every edge whose bleed (left, bottom, right,
    top) reaches past the probe; and the edges skipped."""
    w, h = size
    left, bottom, right, top = sides
    pairs, skipped = [], []
    fractions = (0.5,) if shape == "circle" else (0.25, 0.5, 0.75)
    for name, bleed, points in (
            ("left", left, [((x + PROBE, y + f * h), (x - PROBE, y + f * h)) for f in fractions]),
            ("right", right, [((x + w - PROBE, y + f * h), (x + w + PROBE, y + f * h)) for f in fractions]),
            ("bottom", bottom, [((x + f * w, y + PROBE), (x + f * w, y - PROBE)) for f in fractions]),
            ("top", top, [((x + f * w, y + h - PROBE), (x + f * w, y + h + PROBE)) for f in fractions])):
        if bleed >= MIN_BLEED - 0.01:
            pairs += points
        else:
            skipped.append(name)
    return pairs, skipped


def differs(a, b) -> bool:
    return max(abs(p - q) for p, q in zip(a, b)) > TOLERANCE


def check_sheets(root: Path, slug: str, options: DeckOptions) -> tuple[int, list]:
    project = Project(root)
    compiled = compile_game(project.cards / slug, project)
    pdf = project.output / slug / "deck.pdf"
    page, checked, bad = 0, 0, []
    for key, cards in card_groups(compiled.game, compiled.layouts).items():
        sheet = sheet_for(key, options)
        size, shape, _ = key
        batch = cards[:sheet.per_sheet]
        for back in (False, True):
            image, height = page_image(pdf, page + back)
            for i, card in enumerate(batch):
                x, y = sheet.back_slot(i, options.flip) if back else sheet.slot(i)
                pairs, skipped = probes(x, y, size, shape, sheet.bleeds(i, back=back, flip=options.flip))
                if skipped:  # only where the paper is too tight, and then said so
                    assert sheet.tight(), (slug, card.name, skipped)
                for inside, outside in pairs:
                    checked += 1
                    a, b = colour(image, height, *inside), colour(image, height, *outside)
                    if differs(a, b):
                        bad.append((slug, card.name, "back" if back else "front", inside, a, b))
        page += 2 * -(-len(cards) // sheet.per_sheet)
    return checked, bad


@pytest.mark.parametrize("slug", SLUGS)
def test_sheet_bleed_matches_the_trim_on_letter(all_built, slug):
    checked, bad = check_sheets(all_built, slug, DeckOptions())
    assert checked > 0 and bad == []


@pytest.mark.parametrize("slug", SLUGS)
def test_sheet_bleed_matches_the_trim_on_a4(a4_built, slug):
    checked, bad = check_sheets(a4_built, slug, DeckOptions(paper="a4"))
    assert checked > 0 and bad == []


@pytest.mark.parametrize("slug", SLUGS)
def test_print_shop_faces_bleed_on_every_edge(tmp_path, slug):
    project = Project(REPO)
    compiled = compile_game(project.cards / slug, project)
    game, layouts = compiled.game, compiled.layouts
    firsts = list({card.type: card for card in reversed(game.cards)}.values())  # one card of each type
    pdf = tmp_path / "faces.pdf"
    face_pdf(firsts, game, layouts, pdf)
    images = rasterise(pdf, DPI)
    bad, checked = [], 0
    for card in firsts:
        layout = layouts.by_type[card.type]
        b = layout.bleed
        for side in ("front", "back"):
            image = next(images)
            height = (layout.size[1] + 2 * b)
            pairs, skipped = probes(b, b, layout.size, layout.shape, (b, b, b, b))
            assert skipped == []
            for inside, outside in pairs:
                checked += 1
                a, c = colour(image, height, *inside), colour(image, height, *outside)
                if differs(a, c):
                    bad.append((card.name, side, inside, a, c))
    assert checked >= 6 * len(firsts) and bad == []
