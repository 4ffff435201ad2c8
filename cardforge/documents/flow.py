"""Markdown (parsed by mistune) to ReportLab flowables, with the game's icons inline.

:class:`Styles` scales every paragraph style from one base type size (pt), so the rules
sheet can step its type down to fit. :func:`flowables` turns rendered rules Markdown into
platypus flowables: headings (``##``, ``###``) that report to a table of contents,
paragraphs, bullet and numbered lists, and tables. ``{icon}`` tokens become inline images
of the icon's SVG, rasterised once (:func:`cardforge.render.icons.png_file` says where the
picture's file is).
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

import mistune
from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Spacer


from cardforge.cache.registry import MARKDOWN
from cardforge.util.markup import TOKEN
from cardforge.model import Game
from cardforge.render import fonts
from cardforge.render.icons import png_file, rasterise
from cardforge.documents.readers import Paragraph, share
from cardforge.documents.tables import TableModel, column_widths

PARSE = mistune.create_markdown(renderer=None, plugins=["table"])
INK = colors.HexColor("#212121")
ACCENT = colors.HexColor("#5d4037")


TABLE_FLOOR = 7.0  # pt: the smallest table type of a body at 7 pt or more
RULES_FACES = ("sans", "sans-bold", "sans-italic", "serif-bold")  # the font keys :class:`Styles` prints with


@dataclass
class Styles:
    """Paragraph styles for rules text at ``base`` pt."""

    base: float = 9.0

    def __post_init__(self) -> None:
        s = self.base
        sans, bold, italic = fonts.pdf_name("sans"), fonts.pdf_name("sans-bold"), fonts.pdf_name("sans-italic")
        serif = fonts.pdf_name("serif-bold")
        fonts.register_families(("sans", "serif"))  # the rules documents print no condensed face
        self.body = ParagraphStyle("body", fontName=sans, fontSize=s, leading=s * 1.25, textColor=INK,
                                   spaceAfter=s * 0.45, bulletFontName=sans, bulletFontSize=s)
        self.h1 = ParagraphStyle("h1", fontName=serif, fontSize=s * 1.8, leading=s * 2.1, textColor=ACCENT,
                                 spaceBefore=s * 0.8, spaceAfter=s * 0.5, keepWithNext=1)
        self.h2 = ParagraphStyle("h2", fontName=serif, fontSize=s * 1.3, leading=s * 1.55, textColor=ACCENT,
                                 spaceBefore=s * 0.7, spaceAfter=s * 0.3, keepWithNext=1)
        self.h3 = ParagraphStyle("h3", fontName=bold, fontSize=s * 1.08, leading=s * 1.3, textColor=INK,
                                 spaceBefore=s * 0.45, spaceAfter=s * 0.15, keepWithNext=1)
        self.item = ParagraphStyle("item", parent=self.body, leftIndent=s * 1.3, bulletIndent=s * 0.2,
                                   spaceAfter=s * 0.2)
        cell = max(s * 0.9, min(s, TABLE_FLOOR))  # a table's type: a little under the body, never under 7 pt
        self.cell = ParagraphStyle("cell", parent=self.body, fontSize=cell, leading=cell * 1.2, spaceAfter=0)
        self.head_cell = ParagraphStyle("head", parent=self.cell, fontName=bold)
        self.item_last = ParagraphStyle("item_last", parent=self.item, spaceAfter=s * 0.5)
        self.caption = ParagraphStyle("caption", parent=self.body, fontName=bold, spaceAfter=s * 0.25, keepWithNext=1)
        self.italic = ParagraphStyle("italic", parent=self.body, fontName=italic)
        self.title = ParagraphStyle("title", fontName=serif, fontSize=s * 2.6, leading=s * 2.9, textColor=ACCENT,
                                    alignment=1)
        self.subtitle = ParagraphStyle("subtitle", parent=self.body, alignment=1, fontSize=s * 1.05)


class IconImages:
    """PNG files of the game's icons for inline use, one per picture, each named by its
    content in the user cache, or written into ``folder`` when user caches are off (see
    :func:`cardforge.render.icons.png_file`), and decoded once per process (see
    :mod:`cardforge.documents.readers`)."""

    def __init__(self, game: Game, folder: Path):
        self.game = game
        self.folder = folder
        self.files: dict[str, Path] = {}
        self.readers: dict[str, object] = {}  # name -> the shared reader of its file (kept alive with it)

    def markup(self, name: str, size: float) -> str:
        icon = self.game.icons.get(name)
        if icon is None or not icon.printable:
            return html.escape("{" + name + "}")
        if icon.text is not None:
            return f"<b>{html.escape(icon.text)}</b>"
        if name not in self.files:
            png = rasterise(icon.svg, icon.color, 96)  # kept in the icon-pngs user cache
            path = png_file(png, self.folder)  # the same path in every build: paragraphs parsed once a process
            self.files[name] = path
            self.readers[name] = share(path, png)
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


@dataclass
class Block:
    """One block of rules text: ``kind`` is "heading", "caption", "para", "item" or "table".

    ``flowable`` is what prints (None for a table: its ``table`` model prints); ``level``
    is a heading's Markdown level; ``plain`` its text; ``glue`` keeps it with the block after
    (a heading, a table's caption, a paragraph that introduces a list with a colon).
    """

    kind: str
    flowable: Flowable | None = None
    table: TableModel | None = None
    level: int = 0
    plain: str = ""
    glue: bool = False


def flowables(markdown: str, styles: Styles, icons: IconImages, width: float) -> list[Flowable]:
    """The flowables of ``markdown`` for a column ``width`` pt wide.

    Raises :class:`~cardforge.documents.tables.TableTooWide` for a table that cannot fit.
    """
    out: list[Flowable] = []
    for block in blocks(markdown, styles, icons, width):
        out.append(block.table.table() if block.table else block.flowable)
    return out


def blocks(markdown: str, styles: Styles, icons: IconImages, width: float, made: dict | None = None) -> list[Block]:
    """``markdown`` as :class:`Block` s for a column ``width`` pt wide (tables sized by content).

    ``made``: a dict the caller keeps while it lays out versions of one document (the same
    text with a table moved out, at each type size it tries), with the same ``icons``: a
    block whose Markdown, place and type size were made before is taken from it, its
    paragraphs already measured, instead of made again (see :func:`_made_blocks`)."""
    return _dedupe_captions(_blocks(_tokens(markdown), styles, icons, width, made))


@MARKDOWN.function
def _tokens(markdown: str) -> list[dict]:
    """mistune's tokens of ``markdown``, parsed once a process: shared, read and never changed."""
    return PARSE(markdown)


def _blocks(tokens: list[dict], styles: Styles, icons: IconImages, width: float,
            made: dict | None = None) -> list[Block]:
    out: list[Block] = []
    table_name = None
    seen: dict[tuple, int] = {}
    for tok in tokens:
        kind = tok["type"]
        if kind == "block_html":
            found = TABLE_MARK.search(tok.get("raw", ""))
            if found:
                table_name = found.group(1)
            continue
        name = table_name if kind == "table" else None
        if made is None:
            out += _token_blocks(tok, styles, icons, width, name)
        else:
            out += _made_blocks(tok, styles, icons, width, name, made, seen)
        if kind == "table":
            table_name = None
    return out


def _made_blocks(tok: dict, styles: Styles, icons: IconImages, width: float, name: str | None, made: dict,
                 seen: dict[tuple, int]) -> list[Block]:
    """The blocks of ``tok`` from ``made`` when a block of the same Markdown, table name, type
    size and width was made before (the n-th such block of a document gets the n-th one made,
    so that two equal paragraphs of one document are never one object), else made and kept."""
    key = (repr(tok), name, styles.base, width)
    n = seen[key] = seen.get(key, -1) + 1
    if (key, n) not in made:
        made[key, n] = _token_blocks(tok, styles, icons, width, name)
    return made[key, n]


def _token_blocks(tok: dict, styles: Styles, icons: IconImages, width: float, table_name: str | None) -> list[Block]:
    """The blocks of one Markdown block token (``table_name``: the name a table is given)."""
    kind = tok["type"]
    if kind == "heading":
        level = tok["attrs"]["level"]
        style = {1: styles.h1, 2: styles.h2}.get(level, styles.h3)
        plain = _plain(tok["children"])
        heading = Heading(inline(tok["children"], icons, style.fontSize), style, min(level, 3) - 1, plain)
        return [Block("heading", heading, level=level, plain=plain, glue=True)]
    if kind == "paragraph":
        children = tok["children"]
        if len(children) == 1 and children[0]["type"] == "strong":  # a table's caption, a bold lead-in
            return [Block("caption", Paragraph(inline(children, icons, styles.base), styles.caption),
                          plain=_plain(children), glue=True)]
        plain = _plain(children)
        return [Block("para", Paragraph(inline(children, icons, styles.base), styles.body), plain=plain,
                      glue=plain.endswith(":"))]
    if kind == "list":
        ordered = tok["attrs"].get("ordered")
        start = tok["attrs"].get("start", 1) or 1
        items = tok["children"]
        out = []
        for n, item in enumerate(items, start):
            text = " ".join(inline(block.get("children", []), icons, styles.base) for block in item["children"])
            style = styles.item_last if n == start + len(items) - 1 else styles.item
            out.append(Block("item", Paragraph(text, style, bulletText=f"{n}." if ordered else "•"),
                             plain=" ".join(_plain(b.get("children", [])) for b in item["children"])))
        return out
    if kind == "table":
        model = table_model(tok, styles, icons, width, table_name)
        return [Block("table", table=model, plain=model.name)]
    if kind == "block_quote":
        return _blocks(tok["children"], styles, icons, width)
    if kind == "thematic_break":
        return [Block("para", Spacer(1, styles.base))]
    return []


TABLE_MARK = re.compile(r"<!--\s*table:\s*(.*?)\s*-->")


def _dedupe_captions(found: list[Block]) -> list[Block]:
    """Drop a table caption that repeats its section's heading; keep what it adds."""
    out: list[Block] = []
    section = ""
    for block in found:
        if block.kind == "heading":
            section = block.plain.strip().lower()
        if block.kind == "caption" and section and block.plain.strip().lower() == section:
            continue
        if block.kind == "caption" and out and out[-1].kind == "heading":
            head, cap = out[-1].plain.strip().lower(), block.plain.strip()
            if cap.lower().startswith(head + " (") and cap.endswith(")"):
                rest = cap[len(head) + 2:-1]
                style = block.flowable.style
                block = Block("caption", Paragraph(html.escape(rest[:1].upper() + rest[1:]), style), plain=rest,
                              glue=True)
        out.append(block)
    return out


def table_model(tok: dict, styles: Styles, icons: IconImages, width: float, name: str | None = None) -> TableModel:
    """A Markdown table token as a :class:`TableModel` sized by content for ``width`` pt.

    Raises :class:`~cardforge.documents.tables.TableTooWide` (named ``name``, or by its header).
    """
    head = next((c for c in tok["children"] if c["type"] == "table_head"), None)
    body = next((c for c in tok["children"] if c["type"] == "table_body"), {"children": []})
    header = None
    if head:
        header = [Paragraph(inline(c["children"], icons, styles.cell.fontSize), styles.head_cell)
                  for c in head["children"]]
    rows = [[Paragraph(inline(c["children"], icons, styles.cell.fontSize), styles.cell) for c in row["children"]]
            for row in body["children"]]
    cols = max([len(r) for r in rows] + [len(header or [])] + [1])
    empty = Paragraph("", styles.cell)
    rows = [r + [empty] * (cols - len(r)) for r in rows]
    label = name or " | ".join(_plain(c["children"]) for c in (head or {"children": []})["children"]) or "table"
    pad = styles.base * 0.25
    columns = [[r[i] for r in ([header] if header else []) + rows] for i in range(cols)]
    best = None
    for widths in column_widths(columns, width, pad, label):  # the shortest of the candidates
        model = TableModel(label, header, rows, widths, pad, styles.base * 0.5)
        model.measure()
        if best is None or sum(model.row_heights) < sum(best.row_heights) - 0.1:
            best = model
    return best


def page_footer(canvas, page_width: float, margin: float, label: str, page: int, size: float = 8) -> None:
    """A document page's footer: ``label`` at the left, the page number at the right."""
    canvas.saveState()
    canvas.setFont(fonts.pdf_name("sans"), size)
    canvas.setFillColor(colors.HexColor("#616161"))
    canvas.drawString(margin, margin / 2, label)
    canvas.drawRightString(page_width - margin, margin / 2, str(page))
    canvas.restoreState()
