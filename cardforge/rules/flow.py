"""Markdown (parsed by mistune) to ReportLab flowables, with the game's icons inline.

:class:`Styles` scales every paragraph style from one base type size (pt), so the rules
sheet can step its type down to fit. :func:`flowables` turns rendered rules Markdown into
platypus flowables: headings (``##``, ``###``) that report to a table of contents,
paragraphs, bullet and numbered lists, and tables. ``{icon}`` tokens become inline images
of the icon's SVG, rasterised once per build into ``icon_dir``.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import mistune
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from cardforge.markup import TOKEN
from cardforge.model import Game
from cardforge.render import fonts
from cardforge.render.icons import rasterise

PARSE = mistune.create_markdown(renderer=None, plugins=["table"])
INK = colors.HexColor("#212121")
ACCENT = colors.HexColor("#5d4037")


@dataclass
class Styles:
    """Paragraph styles for rules text at ``base`` pt."""

    base: float = 9.0

    def __post_init__(self) -> None:
        s = self.base
        sans, bold, italic = fonts.pdf_name("sans"), fonts.pdf_name("sans-bold"), fonts.pdf_name("sans-italic")
        serif = fonts.pdf_name("serif-bold")
        fonts.register_families()
        self.body = ParagraphStyle("body", fontName=sans, fontSize=s, leading=s * 1.25, textColor=INK,
                                   spaceAfter=s * 0.45, bulletFontName=sans)
        self.h1 = ParagraphStyle("h1", fontName=serif, fontSize=s * 1.8, leading=s * 2.1, textColor=ACCENT,
                                 spaceBefore=s * 0.8, spaceAfter=s * 0.5, keepWithNext=1)
        self.h2 = ParagraphStyle("h2", fontName=serif, fontSize=s * 1.3, leading=s * 1.55, textColor=ACCENT,
                                 spaceBefore=s * 0.7, spaceAfter=s * 0.3, keepWithNext=1)
        self.h3 = ParagraphStyle("h3", fontName=bold, fontSize=s * 1.08, leading=s * 1.3, textColor=INK,
                                 spaceBefore=s * 0.45, spaceAfter=s * 0.15, keepWithNext=1)
        self.item = ParagraphStyle("item", parent=self.body, leftIndent=s * 1.3, bulletIndent=s * 0.2,
                                   spaceAfter=s * 0.2)
        self.cell = ParagraphStyle("cell", parent=self.body, fontSize=s * 0.9, leading=s * 1.08, spaceAfter=0)
        self.head_cell = ParagraphStyle("head", parent=self.cell, fontName=bold)
        self.italic = ParagraphStyle("italic", parent=self.body, fontName=italic)
        self.title = ParagraphStyle("title", fontName=serif, fontSize=s * 2.6, leading=s * 2.9, textColor=ACCENT,
                                    alignment=1)
        self.subtitle = ParagraphStyle("subtitle", parent=self.body, alignment=1, fontSize=s * 1.05)


class IconImages:
    """PNG files of the game's icons for inline use, written once into ``folder``."""

    def __init__(self, game: Game, folder: Path):
        self.game = game
        self.folder = folder
        self.files: dict[str, Path] = {}

    def markup(self, name: str, size: float) -> str:
        icon = self.game.icons.get(name)
        if icon is None:
            return html.escape("{" + name + "}")
        if icon.text is not None:
            return f"<b>{html.escape(icon.text)}</b>"
        if name not in self.files:
            path = self.folder / f"{name}.png"
            path.write_bytes(rasterise(icon.svg, icon.color, 96))
            self.files[name] = path
        return f'<img src="{self.files[name]}" width="{size * 1.15:.2f}" height="{size * 1.15:.2f}" valign="{-size * 0.22:.2f}"/>'


def inline(children: list[dict], icons: IconImages, size: float) -> str:
    """Mistune inline tokens as ReportLab paragraph markup."""
    out = []
    for tok in children:
        kind = tok["type"]
        if kind == "text":
            out.append(_text(tok["raw"], icons, size))
        elif kind == "strong":
            out.append(f"<b>{inline(tok['children'], icons, size)}</b>")
        elif kind == "emphasis":
            out.append(f"<i>{inline(tok['children'], icons, size)}</i>")
        elif kind == "codespan":
            out.append(html.escape(tok.get("raw", "")))
        elif kind == "linebreak":
            out.append("<br/>")
        elif kind == "softbreak":
            out.append(" ")
        elif "children" in tok:
            out.append(inline(tok["children"], icons, size))
        elif "raw" in tok:
            out.append(_text(tok["raw"], icons, size))
    return "".join(out)


def _text(raw: str, icons: IconImages, size: float) -> str:
    parts, pos = [], 0
    for match in TOKEN.finditer(raw):
        if match.group(1):
            parts.append(html.escape(raw[pos:match.start()]))
            parts.append(icons.markup(match.group(1), size))
            pos = match.end()
    parts.append(html.escape(raw[pos:]))
    return "".join(parts)


class Heading(Paragraph):
    """A heading paragraph that the rulebook's table of contents lists (levels 1 and 2)."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, plain: str):
        super().__init__(text, style)
        self.toc_level = level
        self.toc_text = plain


def _plain(children: list[dict]) -> str:
    return re.sub(r"\s+", " ", "".join(t.get("raw", "") if t["type"] == "text" else _plain(t.get("children", []))
                                     for t in children)).strip()


def flowables(markdown: str, styles: Styles, icons: IconImages, width: float) -> list[Flowable]:
    """The flowables of ``markdown`` for a column ``width`` pt wide."""
    return _blocks(PARSE(markdown), styles, icons, width)


def _blocks(tokens: list[dict], styles: Styles, icons: IconImages, width: float) -> list[Flowable]:
    out: list[Flowable] = []
    for tok in tokens:
        kind = tok["type"]
        if kind == "heading":
            level = tok["attrs"]["level"]
            style = {1: styles.h1, 2: styles.h2}.get(level, styles.h3)
            out.append(Heading(inline(tok["children"], icons, style.fontSize), style, min(level, 3) - 1,
                               _plain(tok["children"])))
        elif kind == "paragraph":
            out.append(Paragraph(inline(tok["children"], icons, styles.base), styles.body))
        elif kind == "list":
            ordered = tok["attrs"].get("ordered")
            start = tok["attrs"].get("start", 1) or 1
            for n, item in enumerate(tok["children"], start):
                text = " ".join(inline(block.get("children", []), icons, styles.base) for block in item["children"])
                out.append(Paragraph(text, styles.item, bulletText=f"{n}." if ordered else "•"))
            out.append(Spacer(1, styles.base * 0.3))
        elif kind == "table":
            out.append(_table(tok, styles, icons, width))
        elif kind == "block_quote":
            out += _blocks(tok["children"], styles, icons, width)
        elif kind == "thematic_break":
            out.append(Spacer(1, styles.base))
    return out


def _table(tok: dict, styles: Styles, icons: IconImages, width: float) -> Table:
    head = next((c for c in tok["children"] if c["type"] == "table_head"), None)
    body = next((c for c in tok["children"] if c["type"] == "table_body"), {"children": []})
    rows = []
    if head:
        rows.append([Paragraph(inline(c["children"], icons, styles.cell.fontSize), styles.head_cell)
                     for c in head["children"]])
    for row in body["children"]:
        rows.append([Paragraph(inline(c["children"], icons, styles.cell.fontSize), styles.cell)
                     for c in row["children"]])
    cols = max(len(r) for r in rows) if rows else 1
    texts = [[_plain_cell(r[i]) for r in rows if i < len(r)] for i in range(cols)]
    # a column is at least as wide as its longest word, and grows with its text up to a cap
    weights = [max(max((len(w) for t in col for w in t.split()), default=1) + 1, min(max(map(len, col), default=1), 32) * 0.7)
               for col in texts]
    widths = [width * w / sum(weights) for w in weights]
    table = Table(rows, colWidths=widths, repeatRows=1 if head else 0, hAlign="LEFT")
    pad = styles.base * 0.25
    table.setStyle(TableStyle([
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, ACCENT),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.HexColor("#bdbdbd")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("FONTNAME", (0, 0), (-1, -1), styles.cell.fontName),  # empty cells too: no base-14 font
        ("LEFTPADDING", (0, 0), (-1, -1), pad), ("RIGHTPADDING", (0, 0), (-1, -1), pad),
        ("TOPPADDING", (0, 0), (-1, -1), pad * 0.6), ("BOTTOMPADDING", (0, 0), (-1, -1), pad * 0.6),
    ]))
    table.spaceAfter = styles.base * 0.5
    return table


def _plain_cell(p: Paragraph) -> str:
    return re.sub(r"<[^>]+>", "", p.text)


def page_footer(canvas, page_width: float, margin: float, label: str, page: int, size: float = 8) -> None:
    """A document page's footer: ``label`` at the left, the page number at the right."""
    canvas.saveState()
    canvas.setFont(fonts.pdf_name("sans"), size)
    canvas.setFillColor(colors.HexColor("#616161"))
    canvas.drawString(margin, margin / 2, label)
    canvas.drawRightString(page_width - margin, margin / 2, str(page))
    canvas.restoreState()
