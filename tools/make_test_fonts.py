"""Make the small CJK fonts of tests/fixtures/fonts/ from Noto Sans CJK (SIL OFL 1.1).

Run once by hand, not by the tests (needs ``pip install fonttools`` and Debian's
``fonts-noto-cjk``)::

    python3 tools/make_test_fonts.py /usr/share/fonts/opentype/noto tests/fixtures/fonts

Writes, each holding only the glyphs of :data:`TEXT` (ASCII, Latin-1 and the few Chinese
characters the tests print):

- ``cjk-test-regular.ttf`` and ``cjk-test-bold.ttf``: Noto Sans CJK SC Regular and Bold,
  their PostScript (CFF) outlines converted to TrueType quadratic outlines (fontTools
  ``cu2qu``), the outlines ReportLab embeds;
- ``cjk-test-cff.otf``: the Regular kept as CFF, the kind of font ReportLab refuses.

The fonts are renamed "Cardforge Test CJK": the OFL asks that a modified font not carry
the original's name.
"""
from __future__ import annotations

import sys
from pathlib import Path

CJK = "月之女巫抽一张牌。规则每回合打出，太阳骑士：二三"
TEXT = "".join(map(chr, range(0x20, 0x7F))) + "".join(map(chr, range(0xA0, 0x100))) + "–—‘’“”•…†" + CJK
NAME = "Cardforge Test CJK"


def subset(source: Path, index: int, text: str):
    from fontTools import subset as fsubset
    from fontTools.ttLib import TTFont

    font = TTFont(source, fontNumber=index)
    options = fsubset.Options()
    options.layout_features = []  # ReportLab shapes no text: no GSUB or GPOS features
    options.drop_tables += ["GSUB", "GPOS", "GDEF", "BASE", "vhea", "vmtx", "VORG", "DSIG"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.notdef_outline = True
    sub = fsubset.Subsetter(options)
    sub.populate(text=text)
    sub.subset(font)
    return font


def to_truetype(font) -> None:
    """Replace the CFF table by glyf/loca with quadratic outlines (fontTools' otf2ttf recipe)."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import newTable

    order = font.getGlyphOrder()
    glyphs = {}
    glyph_set = font.getGlyphSet()
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyphs[name] = pen.glyph()
    font["loca"] = newTable("loca")
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = glyphs
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    font["maxp"] = maxp = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for attr in ("maxZones", "maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                 "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, attr, 0)
    maxp.maxZones = 1
    maxp.maxComponentDepth = 0
    post = font["post"]
    post.formatType, post.extraNames, post.mapping = 2.0, [], {}
    post.glyphOrder = order
    font["head"].indexToLocFormat = 0
    font["head"].glyphDataFormat = 0
    font.sfntVersion = "\x00\x01\x00\x00"
    font.recalcBBoxes = True


def rename(font, style: str) -> None:
    table = font["name"]
    for record in list(table.names):
        if record.nameID in (1, 3, 4, 6, 16, 17):
            table.removeNames(nameID=record.nameID)
    table.setName(NAME, 1, 3, 1, 0x409)
    table.setName(style, 2, 3, 1, 0x409)
    table.setName(f"{NAME} {style}; subset of Noto Sans CJK SC", 3, 3, 1, 0x409)
    table.setName(f"{NAME} {style}", 4, 3, 1, 0x409)
    table.setName(f"{NAME.replace(' ', '')}-{style}", 6, 3, 1, 0x409)


def main(noto: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    sc = 2  # Simplified Chinese in the collection
    for style, file in (("Regular", "NotoSansCJK-Regular.ttc"), ("Bold", "NotoSansCJK-Bold.ttc")):
        font = subset(noto / file, sc, TEXT)
        rename(font, style)
        to_truetype(font)
        font.save(out / f"cjk-test-{style.lower()}.ttf")
    font = subset(noto / "NotoSansCJK-Regular.ttc", sc, CJK)
    rename(font, "Regular")
    font.save(out / "cjk-test-cff.otf")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
