"""The accordion rules sheet (rules.pdf), imposed on Letter or A4.

The sheet's sixteen 3.125 x 2 in cells (see :mod:`cardforge.rules.fold`) are platypus
frames taken in :data:`~cardforge.rules.fold.READING_ORDER`: the title cell, generated from
the game's metadata, then the rendered ``sheet.md`` flowing through the other fifteen. The
type steps down from 8 pt to a legible minimum of 6 pt until the text fits; if it does not
fit at 6 pt, :func:`fit_sheet` says by how many cells, and no sheet is written. Page 1 is
the front with solid cut lines and dotted fold lines; page 2 the back, laid out for
long-edge duplex (each back cell behind its front cell).
"""
from __future__ import annotations

import io
import tempfile
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib import colors
from reportlab.platypus import BaseDocTemplate, Frame, FrameBreak, PageTemplate, Paragraph, Spacer

from cardforge.diagnostics import Diagnostic, diag
from cardforge.model import Game
from cardforge.render import fonts
from cardforge.render.sheet import PAPER_MM
from cardforge.rules.flow import IconImages, Styles, flowables
from cardforge.rules.fold import CELL, READING_ORDER, ROWS, SHEET, cell_origin
from cardforge.rules.source import render_source, source_path
from cardforge.units import INCH, MM

SIZES = [8.0, 7.5, 7.0, 6.5, 6.0]  # pt, the type sizes tried, largest first
MIN_SIZE = SIZES[-1]
PAD = 0.09 * INCH


@dataclass
class SheetFit:
    """The outcome of fitting: the type ``size`` used and the ``cells`` the text needs."""

    size: float
    cells: int
    fits: bool


def _origin(paper: tuple[float, float]) -> tuple[float, float]:
    return (paper[0] - SHEET[0]) / 2, (paper[1] - SHEET[1]) / 2


def _frames(side: str, paper: tuple[float, float]) -> list[Frame]:
    origin = _origin(paper)
    frames = []
    for cell in READING_ORDER:
        if cell.side != side:
            continue
        x, y = cell_origin(cell, origin)
        frames.append(Frame(x, y, CELL[0], CELL[1], leftPadding=PAD, rightPadding=PAD, topPadding=PAD,
                            bottomPadding=PAD, id=f"{cell.side}-{cell.row}-{cell.col}", showBoundary=0))
    return frames


class _SheetDoc(BaseDocTemplate):
    def __init__(self, target, paper, game: Game, **kw):
        super().__init__(target, pagesize=paper, leftMargin=0, rightMargin=0, topMargin=0, bottomMargin=0,
                         title=f"{game.title}: rules sheet", author=game.meta.get("designer", ""),
                         creator="cardforge", invariant=1, initialFontName=fonts.pdf_name("sans"), **kw)
        self.game = game
        self.cells_used = 0
        front = PageTemplate("front", frames=_frames("front", paper), onPage=self._front_marks, autoNextPageTemplate="back")
        back = PageTemplate("back", frames=_frames("back", paper), onPage=self._back_marks, autoNextPageTemplate="back")
        self.addPageTemplates([front, back])

    def afterFlowable(self, flowable) -> None:
        frames = self.pageTemplate.frames
        index = frames.index(self.frame) if self.frame in frames else 0
        self.cells_used = max(self.cells_used, (self.page - 1) * len(frames) + index + 1)

    def _front_marks(self, canvas, doc) -> None:
        _marks(canvas, self.pagesize, cut=True, label=f"{self.game.title} · rules sheet · front")

    def _back_marks(self, canvas, doc) -> None:
        _marks(canvas, self.pagesize, cut=False, label=f"{self.game.title} · rules sheet · back (long-edge duplex)")


def _marks(canvas, paper, cut: bool, label: str) -> None:
    """Solid cut lines around the sheet, dotted fold lines between cells, and instructions."""
    x0, y0 = _origin(paper)
    w, h = SHEET
    c = canvas
    c.saveState()
    c.setStrokeColor(colors.black)
    if cut:
        c.setLineWidth(0.5)
        c.rect(x0, y0, w, h, stroke=1, fill=0)
    c.setDash(1, 2)
    c.setLineWidth(0.4)
    for r in range(1, ROWS):
        c.line(x0, y0 + r * CELL[1], x0 + w, y0 + r * CELL[1])
    c.line(x0 + CELL[0], y0, x0 + CELL[0], y0 + h)
    c.setDash()
    c.setFont(fonts.pdf_name("sans"), 7)
    c.setFillColor(colors.black)
    if cut:
        steps = ["1. Cut along the solid line to get a 6.25 x 8 in double-sided sheet.",
                 "2. Fold along the dotted lines into an accordion, the title panel on top.",
                 "3. Fold the 6.25 x 2 in strip in half, right half under, to 3.125 x 2 in."]
        for i, step in enumerate(steps):
            c.drawString(x0, y0 + h + (14 - 9 * i) * 1.0 + 6 * MM, step)
    c.drawCentredString(paper[0] / 2, y0 - 8 * MM, label)
    c.restoreState()


def _title(game: Game, styles: Styles) -> list:
    meta = game.meta
    players = meta.get("players", {})
    who = f"{players.get('min')}–{players.get('max')} players" if players.get("min") != players.get("max") else \
        f"{players.get('min')} player{'s' if players.get('min') != 1 else ''}"
    facts = [who]
    if meta.get("ages"):
        facts.append(f"ages {meta['ages'].get('min')}+")
    if meta.get("play_time"):
        t = meta["play_time"]
        facts.append(f"{t.get('min')}–{t.get('max')} min" if t.get("min") != t.get("max") else f"{t.get('min')} min")
    version = (game.data.get("rules_sheet") or {}).get("version", "full")
    out = [Spacer(1, styles.base * 0.6), Paragraph(game.title, styles.title)]
    if meta.get("tagline"):
        out.append(Paragraph(f"<i>{meta['tagline']}</i>", styles.subtitle))
    out.append(Spacer(1, styles.base * 0.5))
    out.append(Paragraph(" · ".join(facts), styles.subtitle))
    if meta.get("designer"):
        out.append(Paragraph(f"by {meta['designer']}", styles.subtitle))
    out.append(Paragraph("<b>Quick-start rules</b> (the full rules are in the rulebook)" if version == "quick-start"
                         else "<b>Rules</b>", styles.subtitle))
    out.append(FrameBreak())
    return out


def _story(game: Game, markdown: str, size: float, icon_dir: Path) -> list:
    styles = Styles(size)
    styles.title.fontSize, styles.title.leading = size * 2.3, size * 2.6
    width = CELL[0] - 2 * PAD
    return _title(game, styles) + flowables(markdown, styles, IconImages(game, icon_dir), width)


def _build(game: Game, markdown: str, size: float, paper: tuple[float, float], target, icon_dir: Path) -> int:
    doc = _SheetDoc(target, paper, game)
    doc.build(_story(game, markdown, size, icon_dir))
    return doc.cells_used


def fit_sheet(game: Game, markdown: str, paper: str = "letter") -> SheetFit:
    """Find the largest type size at which ``markdown`` fits the sheet's 16 cells."""
    size_pt = tuple(v * MM for v in PAPER_MM[paper])
    with tempfile.TemporaryDirectory() as tmp:
        cells = 0
        for size in SIZES:
            cells = _build(game, markdown, size, size_pt, io.BytesIO(), Path(tmp))
            if cells <= len(READING_ORDER):
                return SheetFit(size, cells, True)
    return SheetFit(MIN_SIZE, cells, False)


def check_sheet(game: Game) -> list[Diagnostic]:
    """``rules-overflow`` when the game's sheet.md does not fit the accordion sheet at 6 pt."""
    markdown, problems = render_source(game, "sheet")
    if markdown is None:
        return problems
    fit = fit_sheet(game, markdown)
    if not fit.fits:
        extra = fit.cells - len(READING_ORDER)
        problems.append(diag("rules-overflow",
                             f"the rules sheet of {game.slug} needs {fit.cells} cells of 3.125 x 2 in at {MIN_SIZE:g} pt; "
                             f"the accordion has {len(READING_ORDER)} ({extra} cell{'s' if extra != 1 else ''} too many, "
                             f"about {extra * 100 // len(READING_ORDER)} % of the sheet)",
                             file=str(source_path(game, "sheet")), line=1,
                             hint="condense sheet.md, or make it a quick-start (rules_sheet: {version: quick-start})"))
    return problems


def render_sheet(game: Game, out: Path, paper: str = "letter") -> SheetFit:
    """Write rules.pdf for ``game``. Raises ``ValueError`` if the sheet does not fit."""
    markdown, problems = render_source(game, "sheet")
    if markdown is None:
        raise ValueError("; ".join(d.message for d in problems))
    fit = fit_sheet(game, markdown, paper)
    if not fit.fits:
        raise ValueError(f"the rules sheet of {game.slug} does not fit at {MIN_SIZE:g} pt")
    size_pt = tuple(v * MM for v in PAPER_MM[paper])
    with tempfile.TemporaryDirectory() as tmp:
        _build(game, markdown, fit.size, size_pt, str(out), Path(tmp))
    return fit
