"""The accordion rules sheet (rules.pdf), imposed on Letter or A4.

The sheet's sixteen 3.125 x 2 in cells (see :mod:`cardforge.documents.fold`) are platypus
frames taken in :data:`~cardforge.documents.fold.READING_ORDER`: the title cell, generated from
the game's metadata, then fifteen panels composed by :mod:`cardforge.documents.compose` from the
rendered ``sheet.md`` (whole paragraphs, list items and table rows per panel, headings kept
with three lines of their text, a table that fits a panel kept whole, balanced, at the
largest type size from 9 pt down to 7.5 pt that fits; tables at 7 pt or more, nothing under
6.5 pt). When the rules do not fit at 7.5 pt, the sheet moves reference tables to the helper
sheet of reference.pdf (those it prints, the longest first) and prints where they are
(:func:`move_tables`), rather than setting smaller type. If it still does not fit,
:func:`compile_sheet` says which section or spare panel does not fit and how many panels it
needs and has, and no sheet is written.
Page 1 is the front with solid cut lines and dotted fold lines; page 2 the back, laid out
for long-edge duplex (each back cell behind its front cell).
"""
from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib import colors
from reportlab.platypus import BaseDocTemplate, Frame, FrameBreak, PageTemplate, Spacer

from cardforge.util.diagnostics import (RULES_OVERFLOW, RULES_SHEET_FIT, RULES_TABLE_TOO_WIDE, RULES_UNDERFILL,
                                        Diagnostic, diag, has_errors)
from cardforge.sources.load import display_path
from cardforge.model import Game
from cardforge.render import fonts
from cardforge.render.sheet import PAPER_MM
from cardforge.documents.compose import NOTE_FLOOR, SIZES, SPARE_KINDS, Plan, compose
from cardforge.documents.flow import RULES_FACES, IconImages, Styles
from cardforge.cache.registry import RULES_SHEETS
from cardforge.documents.memo import keep_answer, keep_sheet, kept_answer, kept_sheet, sheet_key, size_key
from cardforge.documents.sheetunits import Measure
from cardforge.documents.fold import CELL, READING_ORDER, ROWS, SHEET, cell_origin
from cardforge.documents.playertext import DESIGNED_NOTE, RULING_NOTE, cites, cover_facts, has_designed
from cardforge.documents.readers import Paragraph
from cardforge.documents.source import Macros, render_source, source_path, table_sections, table_source_line
from cardforge.documents.tables import TableTooWide
from cardforge.util.units import INCH, MM
from cardforge.util.i18n import _

MIN_SIZE = SIZES[-1]
PAD = 0.09 * INCH
ROOM = CELL[1] - 2 * PAD  # pt: the height of a panel's text
WIDTH = CELL[0] - 2 * PAD  # pt: the width of a panel's text
# the title panel, largest first: the game's name, and the space above it and above its facts, in body sizes
TITLE_SCALES = ((2.3, 0.6, 0.5), (2.1, 0.3, 0.3), (1.9, 0.0, 0.2), (1.7, 0.0, 0.0), (1.5, 0.0, 0.0))
UNDERFILL = 0.5  # a text panel but the last less full than this is reported (rules-underfill)
SPARE = re.compile(r"<!-- panel: (\w+) -->")


@dataclass
class SheetFit:
    """The outcome of fitting: the type ``size`` used and the ``cells`` the text needs."""

    size: float
    cells: int
    fits: bool
    plan: Plan | None = None
    moved: list[tuple[str, str]] = field(default_factory=list)  # (table id, its name) moved to the helper sheet


def _is_break(flowable) -> bool:
    """Whether ``flowable`` is platypus's FrameBreak (an action flowable, not a class of its own)."""
    return (getattr(flowable, "action", None) or ("",))[0] == "frameEnd"


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

        self.ends: list[int] = [-1]  # per panel (the title's first): the cell its last line went on (from 0)

    def afterFlowable(self, flowable) -> None:
        if _is_break(flowable):
            self.ends.append(-1)
            return
        frames = self.pageTemplate.frames
        index = frames.index(self.frame) if self.frame in frames else 0
        self.ends[-1] = (self.page - 1) * len(frames) + index
        self.cells_used = max(self.cells_used, self.ends[-1] + 1)

    def _front_marks(self, canvas, doc) -> None:
        _marks(canvas, self.pagesize, cut=True, label=f"{self.game.title} · {_('rules sheet · front')}")

    def _back_marks(self, canvas, doc) -> None:
        _marks(canvas, self.pagesize, cut=False, label=f"{self.game.title} · {_('rules sheet · back (long-edge duplex)')}")


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
        steps = [_("1. Cut along the solid line to get a 6.25 x 8 in double-sided sheet."),
                 _("2. Fold along the dotted lines into an accordion, the title panel on top."),
                 _("3. Fold the 6.25 x 2 in strip in half, right half under, to 3.125 x 2 in.")]
        for i, step in enumerate(steps):
            c.drawString(x0, y0 + h + (14 - 9 * i) * 1.0 + 6 * MM, step)
    c.drawCentredString(paper[0] / 2, y0 - 8 * MM, label)
    c.restoreState()


def _title(game: Game, size: float) -> list:
    """The title panel's flowables at body ``size`` (pt): the game's name at the largest of
    :data:`TITLE_SCALES` at which the panel holds it all, measured as its frame places it
    (:meth:`~cardforge.documents.sheetunits.Measure.run`)."""
    for scale, above, gap in TITLE_SCALES:
        styles = Styles(size)
        styles.title.fontSize, styles.title.leading = size * scale, size * (scale + 0.3)
        story = _title_at(game, styles, above, gap)
        measure = Measure(WIDTH)
        if Measure.run([measure.atom(f) for f in story if not _is_break(f)]) <= ROOM:
            break
    return story


def _title_at(game: Game, styles: Styles, above: float, gap: float) -> list:
    meta = game.meta
    facts = cover_facts(meta, short=True)
    version = (game.data.get("rules_sheet") or {}).get("version", "full")
    out = [Spacer(1, styles.base * above), Paragraph(game.title, styles.title)]
    if meta.get("tagline"):
        out.append(Paragraph(f"<i>{meta['tagline']}</i>", styles.subtitle))
    out.append(Spacer(1, styles.base * gap))
    out.append(Paragraph(" · ".join(facts), styles.subtitle))
    if meta.get("designer"):
        out.append(Paragraph(_("by {designer}").format(designer=meta["designer"]), styles.subtitle))
    out.append(Paragraph(_("<b>Quick-start rules</b> (the full rules are in the rulebook)") if version == "quick-start"
                         else f"<b>{_('Rules')}</b>", styles.subtitle))
    if has_designed(game):
        out.append(Paragraph(f"<font size='{max(styles.base * 0.85, NOTE_FLOOR):.2f}'>{_(DESIGNED_NOTE)}</font>",
                             styles.subtitle))
    out.append(FrameBreak())
    return out


def _plan(game: Game, markdown: str, icon_dir: Path, made: dict | None = None, kept: bool = True) -> Plan:
    """The plan of ``markdown`` on the sheet's panels, at the type size kept for the same
    inputs (:func:`cardforge.documents.memo.kept_answer`) or searched for (and kept). When no
    size fits, what the search found is kept too and read back (``kept``) or searched afresh."""
    width, room = WIDTH, ROOM
    spares = SPARE.findall(markdown)
    macros = Macros(game)
    spare_md = {"components": macros.components_list(), "turn": macros.turn_sequence()}
    if cites(markdown) or any(cites(md) for md in spare_md.values()):  # the mark explained once, fitted with the rules
        markdown = markdown.rstrip() + f"\n\n*{_(RULING_NOTE)}.*\n"
    text, panels = SPARE.sub("", markdown), len(READING_ORDER) - 1
    words = [_(title) for title in SPARE_KINDS.values()] + [_("(continued)")]  # what the panels print besides the text
    key = size_key("sheet-size", text, game.icons, [width, room], RULES_FACES, SIZES, spares, panels, spare_md, words)
    answer = kept_answer(key)
    if isinstance(answer, dict) and kept:  # no size fits: what the search found (its panels are none)
        return Plan(**answer)
    plan = compose(text, spares, panels, width, room, IconImages(game, icon_dir), spare_md,
                   size=answer if answer in SIZES else None, made=made)
    keep_answer(key, plan.size if plan.fits else dict(vars(plan)))
    return plan


TABLE_BLOCK = re.compile(r"<!-- table: ([\w.-]+) -->\n(?:\*\*[^\n]*\*\*\n\n)?(?:\|[^\n]*(?:\n|$))+")


def helper_tables(game: Game) -> list[str]:
    """The ids of the game.yaml tables the helper sheet of reference.pdf prints
    (``reference.tables``, by default every table): those the rules sheet may move there."""
    tables = (game.data.get("reference") or {}).get("tables", list((game.data.get("tables") or {}).keys()))
    return [t for t in tables if t in (game.data.get("tables") or {})]


def movable(game: Game, markdown: str) -> list[tuple[str, str]]:
    """(table id, what the pointer calls it) of each table in the rendered ``markdown`` that the
    helper sheet also prints, the longest first: what the sheet moves there, one at a time,
    when the rules do not fit at the smallest type size (:data:`MIN_SIZE`)."""
    helper = set(helper_tables(game))
    sections = table_sections(game, "sheet")
    found = []
    for m in TABLE_BLOCK.finditer(markdown):
        if m.group(1) not in helper:
            continue
        spec = (game.data.get("tables") or {}).get(m.group(1)) or {}
        name = sections.get(m.group(1)) or spec.get("title") or m.group(1)
        found.append((len(m.group(0)), m.group(1), re.sub(r"[*_`]", "", str(name))))
    return [(table_id, name) for _, table_id, name in sorted(found, key=lambda f: -f[0])]


def move_tables(markdown: str, moved: list[tuple[str, str]]) -> str:
    """``markdown`` with each table of ``moved`` replaced by a line pointing to the helper sheet."""
    ids = dict(moved)

    def point(m: re.Match) -> str:
        if m.group(1) not in ids:
            return m.group(0)
        return f"*{ids[m.group(1)]}: {_('see the helper sheet (reference.pdf).')}*\n"
    return TABLE_BLOCK.sub(point, markdown)


def _story(game: Game, plan: Plan) -> list:
    story = _title(game, plan.size)
    for n, panel in enumerate(plan.panels):
        story += panel
        if n + 1 < len(plan.panels):
            story.append(FrameBreak())
    return story


def _build(game: Game, plan: Plan, paper: tuple[float, float], target) -> int | None:
    """Lay the planned panels out on their cells. Returns None when each panel kept to its own
    cell, else the first panel whose text ran into the next cell (0 the title panel, ``n`` the
    plan's ``panels[n - 1]``)."""
    doc = _SheetDoc(target, paper, game)
    doc.build(_story(game, plan))
    return next((panel for panel, cell in enumerate(doc.ends) if cell > panel), None)


def _under(plan: Plan) -> int:
    """How many text panels but the last are less than :data:`UNDERFILL` full."""
    return sum(full < UNDERFILL for full in plan.fill[:-1])


def _fit(plan: Plan) -> SheetFit:
    return SheetFit(plan.size, plan.text_panels + len(plan.spare) + plan.undeclared_spare + 1, plan.fits, plan)


def _overflow(game: Game, plan: Plan, where: dict) -> Diagnostic:
    """``rules-overflow`` in plain words: what does not fit, where, how many panels it needs and has."""
    text_panels = len(READING_ORDER) - 1 - len(plan.spare)
    asked = (f" ({len(READING_ORDER) - 1} beside the title, less the {len(plan.spare)} spare panel"
             f"{'s' if len(plan.spare) != 1 else ''} sheet.md asks for)") if plan.spare else " beside the title"
    if plan.spare_too_tall:
        title = SPARE_KINDS.get(plan.spare_too_tall, "Notes")
        return diag(RULES_OVERFLOW, f"the rules sheet of {game.slug}: the {title} panel that sheet.md asks for with "
                    f"spare_panel('{plan.spare_too_tall}') needs {plan.spare_need} panels at {MIN_SIZE:g} pt and has 1",
                    **where, hint=f"remove spare_panel('{plan.spare_too_tall}') from sheet.md (rulebook.md can "
                                  f"print it in full with {'components_list()' if plan.spare_too_tall == 'components' else 'turn_sequence()'})")
    place = f"from the section \"{plan.section}\" on" if plan.section else "at its end"
    return diag(RULES_OVERFLOW, f"the rules sheet of {game.slug} does not fit at {MIN_SIZE:g} pt: the rules need "
                f"{plan.text_panels} panels and the sheet has {text_panels}{asked}; {place}, "
                f"{plan.text_panels - text_panels} panel{'s' if plan.text_panels - text_panels != 1 else ''} "
                "of text would be left out", **where,
                hint="condense sheet.md, or move a section to rulebook.md (the sheet can point to it)"
                + ("; fewer spare_panel(...) lines leave more panels for the rules" if plan.spare else ""))


def render_sheet(game: Game, out: Path, paper: str = "letter") -> SheetFit:
    """Write rules.pdf for ``game``. Raises ``ValueError`` if the sheet cannot be composed."""
    fit, problems = compile_sheet(game, out, paper)
    if fit is None or not fit.fits:
        raise ValueError("; ".join(d.message for d in problems if d.severity.name == "ERROR") or "no sheet")
    return fit


@fonts.in_rules_font  # a pack font with `rules: true` prints these pages
def compile_sheet(game: Game, out: Path | None = None, paper: str = "letter",
                  reuse: bool = False) -> tuple[SheetFit | None, list[Diagnostic]]:
    """Compose the game's sheet.md and, given ``out``, write rules.pdf there. The type size
    found for the same text, spare panels, icons and fonts by an earlier build is read back
    from the user cache instead of searched for (the same sheet: :func:`_plan`). With
    ``reuse``, a sheet an earlier build wrote from the same rendered sheet.md and everything
    else it reads (:func:`~cardforge.documents.memo.sheet_key`) is written again as it was,
    with its notes, and not laid out: its fit then has no ``plan``.

    Diagnostics: ``rules-overflow`` when it does not fit at 7.5 pt with its reference tables
    moved (naming the section, or the spare panel, that does not fit), ``rules-table-too-wide``
    for a table wider than a panel, and a ``rules-sheet-fit`` note with the type size, how
    full each panel is, the emptiest panel but the last and the section it starts in, the
    tables moved to the helper sheet and how many panels the rules leave for notes. Nothing
    is written when there is an error.
    """
    markdown, problems = render_source(game, "sheet")
    if markdown is None:
        return None, problems
    where = dict(file=display_path(source_path(game, "sheet")), line=1)
    key = None
    if reuse and out is not None and RULES_SHEETS.enabled:
        try:
            key = sheet_key(game, markdown, paper, where["file"])
        except OSError:  # a file that cannot be read: reported by the layout
            key = None
        kept = kept_sheet(key) if key else None
        if kept is not None:
            Path(out).write_bytes(kept[0])
            return SheetFit(**kept[1]), problems + kept[2]
    fit, notes = _compiled(game, markdown, out, paper, where)
    if key and fit is not None and fit.fits and not has_errors(notes) and Path(out).is_file():
        keep_sheet(key, Path(out).read_bytes(), dict(size=fit.size, cells=fit.cells, fits=True, moved=fit.moved), notes)
    return fit, problems + notes


def _compiled(game: Game, markdown: str, out: Path | None, paper: str,
              where: dict) -> tuple[SheetFit | None, list[Diagnostic]]:
    """What :func:`compile_sheet` finds and writes for the rendered ``markdown``: the fit and
    the diagnostics of the layout (``where``: the file and line they name)."""
    problems: list[Diagnostic] = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            made: dict = {}  # blocks made at each size, for the versions of the text tried next
            plan = _plan(game, markdown, Path(tmp), made)
        except TableTooWide as exc:
            file, line = table_source_line(game, "sheet", exc.name)
            return None, problems + [diag(RULES_TABLE_TOO_WIDE, f"{exc} (a panel is 3.125 in wide)", file=file,
                                          line=line, hint="fewer columns, shorter words, or move the table to the rulebook")]
        moved: list[tuple[str, str]] = []
        for table in movable(game, markdown) if not plan.fits else []:
            moved.append(table)  # reference material to the helper sheet rather than smaller type
            plan = _plan(game, move_tables(markdown, moved), Path(tmp), made)
            if plan.fits:
                break
        more = list(moved)  # a larger type size fills a short first section's panel: more on the helper sheet
        for table in [t for t in movable(game, markdown) if t not in moved] if plan.fits and _under(plan) else []:
            more.append(table)
            trial = _plan(game, move_tables(markdown, more), Path(tmp), made)
            if trial.fits and _under(trial) < _under(plan):  # fewer panels under half full
                moved, plan = list(more), trial
                if not _under(plan):
                    break
        if not plan.fits:  # reported: worked out afresh, never taken from the cache
            plan = _plan(game, move_tables(markdown, moved), Path(tmp), made, kept=False)
        fit = _fit(plan)
        fit.moved = moved
        if not plan.fits:
            if plan.too_tall:
                problems.append(diag(RULES_OVERFLOW, f"the rules sheet of {game.slug}: a block is taller than a "
                                     f"panel at {MIN_SIZE:g} pt: \"{plan.too_tall}…\"", **where,
                                     hint="split it into shorter paragraphs"))
                return fit, problems
            problems.append(_overflow(game, plan, where))
            return fit, problems
        ran = _build(game, plan, tuple(v * MM for v in PAPER_MM[paper]), str(out)) if out is not None else None
        if ran is not None:  # the plan measures as the panels' frames place text: a disagreement is a fault
            what = "the title panel" if ran == 0 else f"panel {ran + 1} ({plan.sections[ran - 1] or 'untitled'})" \
                if ran <= len(plan.sections) else f"panel {ran + 1} (a spare panel)"
            problems.append(diag(RULES_OVERFLOW, f"the rules sheet of {game.slug}: laid out, {what} runs into the "
                                 "next panel", **where,
                                 hint="condense that section of sheet.md, or move it to rulebook.md"))
            fit.fits = False
            return fit, problems
        for k, full in enumerate(plan.fill[:-1]):
            if full < UNDERFILL:
                problems.append(diag(RULES_UNDERFILL, f"rules.pdf of {game.slug}: panel {k + 2} "
                                     f"({plan.sections[k] or 'untitled'}) is {full * 100:.0f} % full, under half",
                                     **where, hint="a shorter or longer section before it, or a table the helper "
                                                   "sheet prints (reference.tables in game.yaml), lets the panels balance"))
        fill = ", ".join(f"{f * 100:.0f}" for f in plan.fill)
        asked = f" + {len(plan.spare)} spare as sheet.md asks" if plan.spare else ""
        room = (f"; {plan.undeclared_spare} panel{'s' if plan.undeclared_spare != 1 else ''} the rules do not need "
                f"print{'s' if plan.undeclared_spare == 1 else ''} as notes at the end") if plan.undeclared_spare else ""
        went = (f"; moved to the helper sheet, where the sheet points: {', '.join(name for _, name in moved)}"
                if moved else "")
        emptiest = ""
        if len(plan.fill) > 1:
            k = min(range(len(plan.fill) - 1), key=lambda n: plan.fill[n])
            emptiest = (f"; the emptiest but the last: panel {k + 2} ({plan.sections[k] or 'untitled'}), "
                        f"{plan.fill[k] * 100:.0f} %")
        problems.append(diag(RULES_SHEET_FIT, f"rules.pdf of {game.slug}: type {plan.size:g} pt (the largest that "
                             f"fits, or a smaller one that under-fills fewer panels or cuts fewer tables); {plan.text_panels} panels of rules{asked}{room}; panels filled {fill} %"
                             f"{emptiest}{went}", **where))
    return fit, problems
