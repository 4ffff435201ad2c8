"""Panel-aware composition of the accordion rules sheet.

The rendered ``sheet.md`` is cut into *units*, the pieces a panel never splits: a
paragraph, a list item, one table row; a heading, a table's caption and a paragraph that
ends in a colon are glued to the unit after them, so a heading is never the last line of a
panel. Units are dealt into the panels (3.125 x 2 in cells, in :data:`~cardforge.documents.fold.READING_ORDER`
after the title cell) whole, so no sentence runs from one panel to the next, or across the sheet:

* a panel that continues a section starts with the section's heading and "(continued)",
  as the *Gate* seed's own sheet gives every panel its heading;
* a table that continues on the next panel repeats its header row;
* a section that fits one panel is never cut: it prints whole on one panel;
* a table that fits one panel (with its caption, and its heading with the lines kept under
  it) is never cut; a heading keeps :data:`KEEP_LINES` lines of its section with it;
* the cut points are chosen by dynamic programming: first the fewest panels but the last
  under :data:`CONTINUED_FILL` full, then the least sum of squared empty space plus the
  penalty of each cut inside a section, a list or a table (a panel left over for notes
  counts as one :data:`SPARE_COST` empty);
* the type size is the largest of :data:`SIZES` (9 pt down to 7.5 pt) at which the units
  fit, or a smaller one of them when that under-fills fewer panels, or cuts fewer tables.

Panels the text does not need are *spare panels*, printed at the end: ``sheet.md`` asks for
them with ``{{ spare_panel('notes') }}`` (or ``'components'``, ``'turn'``), and any other
panel left over prints as a notes panel (the ``rules-sheet-fit`` note counts them).
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

from reportlab.lib import colors
from reportlab.platypus import Flowable

from cardforge.documents.flow import Block, Heading, IconImages, Styles, blocks
from cardforge.documents.sheetunits import Atom, Joins, Measure, Unit, joined, units
from cardforge.util.i18n import gettext

SIZES = [9.0, 8.75, 8.5, 8.25, 8.0, 7.75, 7.5]  # pt, largest first: a quick-reference's body is never smaller
KEEP_LINES = 3  # body lines of its section a heading keeps with it on its panel
SPARE_KINDS = {"notes": "Notes", "components": "Components", "turn": "Turn summary"}
PANEL_MARK = "<!-- panel: {} -->"
CONTINUED_FILL = 0.5  # least fill of every panel but the last (as its frame places it: ink half full)
AIM_FILL = 0.55  # the fill aimed at, after CONTINUED_FILL: a margin over half full
SPARE_COST = 0.6  # a panel the rules leave for notes weighs as one this share empty
NOTE_FLOOR = 6.5  # pt: nothing a player reads on the sheet is smaller (notes, "(continued)")


@dataclass
class Plan:
    """A composed sheet: the type ``size`` (pt), the panels' flowables, and how it went."""

    size: float
    panels: list[list[Flowable]]
    fits: bool
    text_panels: int
    spare: list[str] = field(default_factory=list)
    undeclared_spare: int = 0
    fill: list[float] = field(default_factory=list)  # each text panel's height / the room (0..1)
    sections: list[str] = field(default_factory=list)  # the section each text panel starts in
    too_tall: str = ""
    section: str = ""  # when the text does not fit: the first section past the last panel
    spare_too_tall: str = ""  # when a spare panel does not fit: its kind, and the panels it would need
    spare_need: int = 0
    under: int = 0  # text panels but the last under CONTINUED_FILL full


class Sheet:
    """Units at one size and the cost of putting a run of them on one panel."""

    def __init__(self, found: list[Unit], styles: Styles, measure: Measure, room: float):
        self.units = found
        self.styles = styles
        self.measure = measure
        self.room = room
        self._cont: dict[int, Atom] = {}
        # each unit's height as a frame places it after the unit before (spaces overlapped, see
        # Measure.run), and the share of that its first atom's space before takes
        self.heights, self.lead = [], []
        after = None
        for unit in found:
            self.heights.append(Measure.run(unit.atoms, after) + unit.atoms[-1].space_after)
            self.lead.append(max(unit.atoms[0].space_before - after, 0.0) if after is not None else 0.0)
            after = unit.atoms[-1].space_after
        # prefix sums: unit heights, and the header height of each table where its rows begin
        self.tables = [next((a.table for a in u.atoms if a.table is not None), None) for u in found]
        self.joins = Joins(found, measure)
        self.sums, self.heads = [0.0], [0.0]
        for k, unit in enumerate(found):
            self.sums.append(self.sums[-1] + self.heights[k])
            starts = self.tables[k] is not None and (k == 0 or self.tables[k - 1] is not self.tables[k])
            self.heads.append(self.heads[-1] + (self.tables[k].header_height if starts else 0.0))
        self.under = self.table_cuts = self.under_aim = 0  # of the last balance: see flaws()
        self.allowed = self.whole_sections()
        self.keep_with_heading()
        self.keep_whole_tables()

    def continuation(self, section: Block) -> Atom:
        key = id(section)
        if key not in self._cont:
            style = self.styles.h2 if section.level <= 2 else self.styles.h3
            small = max(style.fontSize * 0.7, NOTE_FLOOR)
            text = f"{html.escape(section.plain)} <font size='{small:.2f}'>{gettext('(continued)')}</font>"
            self._cont[key] = self.measure.atom(Heading(text, style, 9, section.plain))
        return self._cont[key]

    def height(self, i: int, j: int) -> float:
        """Height (pt) units i..j-1 take on one panel, with a continued heading and table header,
        as the panel's frame places them (:meth:`Measure.run`): what must fit the room."""
        first = self.units[i]
        h = self.sums[j] - self.sums[i] - self.lead[i] - self.units[j - 1].atoms[-1].space_after
        if not first.opens and first.section is not None:
            cont = self.continuation(first.section)
            h += Measure.run([cont]) + cont.space_after + max(first.atoms[0].space_before - cont.space_after, 0.0)
        h += self.joins.correction(i, j)  # a paragraph's sentence runs on one panel print joined
        h += self.heads[j] - self.heads[i]  # each table whose rows begin here prints its header
        if i > 0 and self.tables[i] is not None and self.tables[i] is self.tables[i - 1]:
            h += self.tables[i].header_height  # a table continued from the panel before repeats it
        return h

    def whole_sections(self) -> list[bool]:
        """For each unit, whether a panel may start there: never inside a section that fits one panel."""
        n = len(self.units)
        starts = [k for k in range(n) if self.units[k].opens or k == 0] + [n]
        allowed = [True] * (n + 1)
        for a, b in zip(starts, starts[1:]):
            if self.height(a, b) <= self.room:  # a short section: no cut inside it
                for k in range(a + 1, b):
                    allowed[k] = False
        return allowed

    def keep_whole_tables(self) -> None:
        """No panel starts inside a table that fits one panel with what must print before it on
        the same panel (its caption, and its heading with the lines kept under it), or alone on
        a panel under its section's continued heading (then its heading keeps only the lines
        before the table); a table that cannot splits between rows, its header repeated."""
        n, a = len(self.units), 0
        while a < n:
            b = a + 1
            if self.tables[a] is not None:
                while b < n and self.tables[b] is self.tables[a]:
                    b += 1
                start = next(k for k in range(a, -1, -1) if self.allowed[k])
                alone = self.height(a, b) <= self.room  # on a panel of its own, under its continued heading
                if self.height(start, b) <= self.room or alone:
                    for k in range(a + 1, b):
                        self.allowed[k] = False
                    if self.height(start, b) > self.room:  # whole beats a heading's three lines (kept: one)
                        self.allowed[a] = True
            a = b

    def keep_with_heading(self) -> None:
        """No panel starts within the first :data:`KEEP_LINES` body lines after a heading."""
        keep = KEEP_LINES * self.styles.body.leading
        start = None
        for k, unit in enumerate(self.units):
            if unit.opens:
                start = k
                head = unit.atoms[0].height if len(unit.atoms) > 1 else 0.0
            elif start is not None and self.height(start, k) - head < keep:
                self.allowed[k] = False

    def greedy(self) -> int | None:
        """Panels needed when each is filled to the brim; None if a unit alone is too tall."""
        count, i, n = 0, 0, len(self.units)
        while i < n:
            j = i + 1
            if self.height(i, j) > self.room:
                return None
            while j < n and self.height(i, j + 1) <= self.room:
                j += 1
            while j > i + 1 and not self.allowed[j]:  # back to the start of a short section
                j -= 1
            if j < n and not self.allowed[j]:  # no cut the rules allow fits a panel
                return None
            count += 1
            i = j
        return count

    def overflow(self, panels: int) -> tuple[str, int]:
        """Where the greedy dealing runs past ``panels``: the first section not printed whole, and the panels needed."""
        i, n, starts = 0, len(self.units), []
        while i < n:
            starts.append(i)
            j = i + 1
            while j < n and self.height(i, j + 1) <= self.room:
                j += 1
            while j > i + 1 and not self.allowed[j]:
                j -= 1
            i = j
        first = starts[panels] if panels < len(starts) else n
        section = self.units[first].section if first < n else None
        return (section.plain if section is not None else ""), len(starts)

    def balance(self, panels: int) -> list[tuple[int, int]] | None:
        """Cut the units into at most ``panels`` runs: first the fewest panels (but the last)
        under :data:`CONTINUED_FILL` full, then under :data:`AIM_FILL`, then the least squared empty space plus cut penalties,
        each panel left over for notes counted as one :data:`SPARE_COST` empty (dynamic
        programming); None when no cut keeps the rules."""
        n = len(self.units)
        k_max = min(panels, n)
        cost: dict[tuple[int, int], tuple[int, float]] = {}
        for i in range(n):
            for j in range(i + 1, n + 1):
                h = self.height(i, j)
                if h > self.room:
                    break
                if j < n and not self.allowed[j]:  # inside a short section or a table that fits a panel
                    continue
                under = (1000 * (h < self.room * CONTINUED_FILL) + (h < self.room * AIM_FILL)) * (j < n)
                cost[(i, j)] = (under, (self.room - h) ** 2 + (self.units[j].cut_before if j < n else 0.0))
        inf = (math.inf, math.inf)
        best = [[inf] * (n + 1) for _ in range(k_max + 1)]
        back = [[-1] * (n + 1) for _ in range(k_max + 1)]
        best[0][0] = (0, 0.0)
        for k in range(1, k_max + 1):
            for j in range(k, n + 1):
                for i in range(k - 1, j):
                    c = cost.get((i, j))
                    if c is None or best[k - 1][i] == inf:
                        continue
                    total = (best[k - 1][i][0] + c[0], best[k - 1][i][1] + c[1])
                    if total < best[k][j]:
                        best[k][j], back[k][j] = total, i
        found = [k for k in range(1, k_max + 1) if best[k][n] < inf]
        if not found:
            return None
        spare = (self.room * SPARE_COST) ** 2  # a panel left for notes costs as much as one this share empty
        k = min(found, key=lambda k: (best[k][n][0], best[k][n][1] + (k_max - k) * spare))
        self.under, self.under_aim = divmod(best[k][n][0], 1000)
        cuts, j = [], n
        for kk in range(k, 0, -1):
            i = back[kk][j]
            cuts.append((i, j))
            j = i
        self.table_cuts = sum(1 for i, j in cuts if 0 < i and self.tables[i] is not None
                              and self.tables[i] is self.tables[i - 1])
        return list(reversed(cuts))

    def flaws(self) -> tuple[int, int, int]:
        """(panels but the last under half full, tables cut, panels under :data:`AIM_FILL`) of
        the last :meth:`balance`."""
        return self.under, self.table_cuts, self.under_aim

    def panel(self, i: int, j: int) -> list[Flowable]:
        """The flowables of units i..j-1 on one panel."""
        first = self.units[i]
        out: list[Flowable] = []
        if not first.opens and first.section is not None:
            out.append(self.continuation(first.section).flowable)
        run: list[Atom] = []

        def flush() -> None:
            if run:
                model = run[0].table
                rows = [a.row for a in run if a.row >= 0]
                out.append(model.table(rows[0], rows[-1] + 1) if rows else model.table(0, 0))
                run.clear()

        pieces: list[Atom] = []

        def join() -> None:
            if pieces:
                out.append(joined(pieces))
                pieces.clear()

        for unit in self.units[i:j]:
            for atom in unit.atoms:
                if atom.para is None:
                    join()
                if atom.table is not None:
                    if run and run[0].table is not atom.table:
                        flush()
                    run.append(atom)
                elif atom.para is not None:
                    flush()
                    if pieces and pieces[-1].para is not atom.para:
                        join()
                    pieces.append(atom)
                else:
                    flush()
                    out.append(atom.flowable)
        flush()
        join()
        return out


class RuledLines(Flowable):
    """Writing lines filling the rest of a panel (a notes panel)."""

    def __init__(self, gap: float):
        super().__init__()
        self.gap = gap

    def wrap(self, aw, ah):
        self.width, self.height = aw, max(0.0, ah - 2)
        return self.width, self.height

    def draw(self):
        c = self.canv
        c.saveState()
        c.setStrokeColor(colors.HexColor("#9e9e9e"))
        c.setLineWidth(0.3)
        y = self.height - self.gap
        while y > 0:
            c.line(0, y, self.width, y)
            y -= self.gap
        c.restoreState()


def spare_panel(kind: str, styles: Styles, extra: list[Flowable] | None = None) -> list[Flowable]:
    """A spare panel's flowables: its heading, what the pack asked for, then writing lines."""
    title = gettext(SPARE_KINDS.get(kind, "Notes"))
    return [Heading(html.escape(title), styles.h2, 9, title)] + (extra or []) + [RuledLines(styles.base * 2.2)]


def compose(markdown: str, spares: list[str], panels: int, width: float, room: float, icons: IconImages,
            spare_markdown: dict[str, str], size: float | None = None, made: dict | None = None) -> Plan:
    """Compose ``markdown`` into ``panels`` panels of ``width`` x ``room`` pt (the title cell apart).

    ``spares`` are the spare panels sheet.md asked for, filled from ``spare_markdown`` (kind
    -> Markdown). Tries :data:`SIZES` largest first (binary search: fewer panels are needed at
    a smaller size) and balances at the largest that fits; ``size`` (pt), when given, is that
    search's answer for these same inputs, found before; ``made``: see :func:`blocks`.
    Raises :class:`~cardforge.documents.tables.TableTooWide` for a table too wide for a panel.
    """
    text_panels = panels - len(spares)
    sheets: dict[float, Sheet] = {}

    def sheet_at(size: float) -> Sheet:
        if size not in sheets:
            styles = Styles(size)
            measure = Measure(width)
            found = units(blocks(markdown, styles, icons, width, made), measure, room)
            sheets[size] = Sheet(found, styles, measure, room)
        return sheets[size]

    def fits(size: float) -> bool:
        need = sheet_at(size).greedy()
        return need is not None and need <= text_panels and _spares_fit(size)

    def _spare_heights(size: float) -> dict[str, float]:
        styles, measure = Styles(size), Measure(width)
        return {kind: Measure.run([measure.atom(f) for f in spare_panel(kind, styles, _spare_flow(kind, styles))[:-1]])
                for kind in spares}

    def _spares_fit(size: float) -> bool:
        return all(h <= room for h in _spare_heights(size).values())

    def _spare_flow(kind: str, styles: Styles) -> list[Flowable]:
        text = spare_markdown.get(kind, "")
        return [b.table.table() if b.table else b.flowable for b in blocks(text, styles, icons, width)] if text else []

    lo, hi = 0, len(SIZES) - 1
    chosen = None
    if size is not None:
        chosen = size
    elif fits(SIZES[0]):
        chosen = SIZES[0]
    elif fits(SIZES[-1]):
        while hi - lo > 1:  # SIZES[lo] does not fit, SIZES[hi] does
            mid = (lo + hi) // 2
            if fits(SIZES[mid]):
                hi = mid
            else:
                lo = mid
        chosen = SIZES[hi]
    if chosen is None:
        sheet = sheet_at(SIZES[-1])
        need = sheet.greedy()
        if need is None:
            tall = next((u.atoms[-1].flowable.getPlainText()[:60] for k, u in enumerate(sheet.units)
                         if sheet.height(k, k + 1) > room and u.atoms[-1].flowable is not None), "a table row")
            return Plan(SIZES[-1], [], False, 0, too_tall=tall)
        if need > text_panels:
            section, need = sheet.overflow(text_panels)
            return Plan(SIZES[-1], [], False, need, list(spares), section=section)
        kind, h = max(_spare_heights(SIZES[-1]).items(), key=lambda kv: kv[1])
        return Plan(SIZES[-1], [], False, need, list(spares), spare_too_tall=kind, spare_need=math.ceil(h / room))
    sheet = sheet_at(chosen)
    cuts = sheet.balance(text_panels) or []
    for smaller in SIZES[SIZES.index(chosen) + 1:] if any(sheet.flaws()) and size is None else []:
        if not fits(smaller):  # a smaller size that under-fills fewer panels, or cuts fewer tables
            continue
        other = sheet_at(smaller)
        other_cuts = other.balance(text_panels) or []
        if other_cuts and other.flaws() < sheet.flaws():
            chosen, sheet, cuts = smaller, other, other_cuts
            if not any(sheet.flaws()):
                break
    styles = sheet.styles
    out = [sheet.panel(i, j) for i, j in cuts]
    fill = [sheet.height(i, j) / room for i, j in cuts]
    sections = [sheet.units[i].section.plain if sheet.units[i].section is not None else "" for i, _ in cuts]
    undeclared = text_panels - len(cuts)
    for _ in range(undeclared):
        out.append(spare_panel("notes", styles))
    for kind in spares:
        out.append(spare_panel(kind, styles, _spare_flow(kind, styles)))
    return Plan(chosen, out, True, len(cuts), list(spares), undeclared, fill, sections, under=sheet.flaws()[0])
