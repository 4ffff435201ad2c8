"""Images: every ``image`` element's file exists, and raster art prints at 300 dpi or more.

Codes: ``image-missing`` (error, on the card's line, or the field's line when the path is
a card field): the file does not exist, lies outside the pack, or is not PNG/JPEG/SVG; a
build refuses, and ``--force`` prints a MISSING placeholder. ``image-low-res`` (warning):
raster art below 300 dpi at its printed size, giving the dpi.
"""
from __future__ import annotations

from cardforge.checks.layoutfit import faces
from cardforge.util.diagnostics import IMAGE_LOW_RES, IMAGE_MISSING, Diagnostic, diag
from cardforge.elements import kind_of
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.resolve import image, repeat
from cardforge.util.units import to_mm


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    if layouts is None:
        return []
    found = []
    for card in game.cards:
        if card.type not in layouts.by_type:
            continue
        for side, face, ctx in faces(card, game, layouts):
            for el in face.elements:
                if not kind_of(el).art:
                    continue
                for copy in repeat.copies(el.box, el.repeat, ctx):
                    found += _one(card, side, el, copy, game, layouts)
    return found


def _one(card, side, el, copy, game, layouts) -> list[Diagnostic]:
    art = image.resolve(el, copy.ctx, game.root)
    line = card.source.line(el.field) if el.field else card.source.line()
    if art is None:
        return []
    if art.path is None:
        return [diag(IMAGE_MISSING, f"{card.label}: {side} image `{el.name}`: {art.problem}",
                     file=card.source.file, line=line, card=card.name,
                     hint=f"add the file under {game.root}, or fix the path (`{el.name}` in {layouts.file}, line {el.line})")]
    if art.path.suffix.lower() in image.RASTER:
        try:
            dpi = image.dpi(art.path, copy.box, el.fit)
        except OSError as exc:
            return [diag(IMAGE_MISSING, f"{card.label}: {side} image `{el.name}`: "
                         f"{art.name!r} cannot be read ({exc})", file=card.source.file, line=line, card=card.name)]
        if dpi < image.MIN_DPI - 0.5:
            _, _, w, h = copy.box
            return [diag(IMAGE_LOW_RES, f"{card.label}: {side} image {art.name!r} prints at "
                         f"{dpi:.0f} dpi in its {to_mm(w):.1f} x {to_mm(h):.1f} mm box, under {image.MIN_DPI} dpi",
                         file=card.source.file, line=line, card=card.name,
                         hint=f"use a file of at least {image.MIN_DPI} dpi at that size")]
    return []
