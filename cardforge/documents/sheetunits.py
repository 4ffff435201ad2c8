"""The units of the accordion rules sheet: what a panel never splits.

The rendered ``sheet.md`` is cut into units (:func:`units`): a paragraph, a list item,
one table row; a heading, a table's caption and a paragraph that ends in a colon are glued
to the unit after them, so a heading is never the last line of a panel. A paragraph taller
than :data:`LONG` of a panel may break between its sentences. Each unit carries the penalty
of a panel starting at it (cutting a table, a list, a section). Heights are in pt,
measured by ReportLab's platypus at the panel's column width (:class:`Measure`).
:mod:`cardforge.documents.compose` deals the units into panels.
"""
from __future__ import annotations

from dataclasses import dataclass

from reportlab.platypus import Flowable

from cardforge.documents.flow import Block
from cardforge.documents.readers import Paragraph
from cardforge.documents.tables import TableModel

# cut penalties (pt^2), against the squared empty space of a panel
# (a panel holds about 130 pt: a cut inside a table costs as much as a panel 60 % empty)
CUT_IN_TABLE, CUT_IN_LIST, CUT_IN_SECTION, CUT_IN_PARAGRAPH = 6000.0, 1200.0, 1000.0, 3000.0
SHORT_TABLE = 5  # rows: cutting a table this short costs three times as much
LONG = 0.4  # a paragraph taller than this share of a panel may break between its sentences


@dataclass
class Atom:
    """One printed piece: a flowable, or row ``row`` of ``table``; ``height`` with its spacing (pt),
    ``space_before`` and ``space_after`` the spacing in it (a frame overlaps the space after one
    flowable with the space before the next: see :meth:`Measure.run`)."""

    height: float
    space_before: float = 0.0
    space_after: float = 0.0
    flowable: Flowable | None = None
    table: TableModel | None = None
    row: int = -1
    kind: str = ""
    para: Paragraph | None = None  # the paragraph this is a sentence run of
    piece: int = 0
    pieces: int = 1


@dataclass
class Unit:
    """What a panel never splits; ``section`` is the heading in force, ``opens`` if it starts with one."""

    atoms: list[Atom]
    section: Block | None
    opens: bool
    cut_before: float = 0.0  # penalty for a panel starting here
    end_size: float = 0.0


class Measure:
    """Heights (pt) of flowables at one column width."""

    def __init__(self, width: float):
        self.width = width

    def atom(self, flowable: Flowable, kind: str = "") -> Atom:
        _, h = flowable.wrap(self.width, 10_000)
        before, after = flowable.getSpaceBefore(), flowable.getSpaceAfter()
        return Atom(h + before + after, before, after, flowable, kind=kind)

    @staticmethod
    def run(atoms: list[Atom], after: float | None = None) -> float:
        """Height (pt) ``atoms`` take in a platypus frame one after the other, measured the way
        :meth:`reportlab.platypus.Frame.add` places them (``overlapAttachedSpace``: the space
        between two flowables is the larger of the one's space after and the other's space
        before; nothing before the first at a frame's top; the last one's space after needs no
        room). ``after``: the space after a flowable printed above the first atom, or None
        when the first atom starts the frame."""
        h = 0.0
        for atom in atoms:
            core = atom.height - atom.space_before - atom.space_after
            h += core + atom.space_after + (max(atom.space_before - after, 0.0) if after is not None else 0.0)
            after = atom.space_after
        return h - (after or 0.0)


def sentences(markup: str) -> list[str]:
    """Paragraph markup cut after each sentence (outside any tag pair)."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(markup):
        ch = markup[i]
        if ch == "<":
            end = markup.find(">", i)
            tag = markup[i:end + 1]
            if not tag.endswith("/>"):
                depth += -1 if tag.startswith("</") else 1
            i = end + 1
            continue
        if ch in ".!?" and depth == 0 and markup[i + 1:i + 2] == " " and markup[i + 2:i + 3][:1].isupper():
            out.append(markup[start:i + 1])
            start = i + 2
        i += 1
    out.append(markup[start:])
    return [t for t in out if t.strip()]


def _pieces(block: Block, measure: Measure, room: float) -> list[Atom]:
    """A long paragraph as runs of sentences (rejoined when they land on one panel)."""
    whole = measure.atom(block.flowable, block.kind)
    para = block.flowable
    if block.kind not in ("para", "item") or whole.height <= room * LONG or not isinstance(para, Paragraph):
        return [whole]
    parts = sentences(para.text)
    if len(parts) < 2:
        return [whole]
    atoms = []
    for k, text in enumerate(parts):
        style = para.style.clone(f"{para.style.name}-{k}", spaceBefore=para.style.spaceBefore if k == 0 else 0,
                                 spaceAfter=para.style.spaceAfter if k == len(parts) - 1 else 0)
        piece = Paragraph(text, style, bulletText=para.bulletText if k == 0 else None)
        atom = measure.atom(piece, block.kind)
        atom.para, atom.piece, atom.pieces = para, k, len(parts)
        atoms.append(atom)
    return atoms


def _row(model: TableModel, i: int) -> Atom:
    """Row ``i`` of a table (the table's space after with its last row)."""
    after = model.space_after if i == len(model.row_heights) - 1 else 0.0
    return Atom(model.row_heights[i] + after, 0.0, after, table=model, row=i, kind="row")


def units(found: list[Block], measure: Measure, room: float = 10_000) -> list[Unit]:
    """The sheet's :class:`Unit` s from its blocks."""
    out: list[Unit] = []
    pending: list[Atom] = []
    section: Block | None = None
    opens = False
    previous = ""

    def emit(atoms: list[Atom], kind: str) -> None:
        nonlocal pending, opens, previous
        if opens:
            penalty = 0.0
        elif kind == "piece":
            penalty = CUT_IN_PARAGRAPH
        elif kind == "row" and previous in ("row", "table-start"):
            penalty = CUT_IN_TABLE * (3 if len(atoms[0].table.row_heights) <= SHORT_TABLE else 1)
        elif kind == "item" and previous == "item":
            penalty = CUT_IN_LIST
        else:
            penalty = CUT_IN_SECTION
        out.append(Unit(pending + atoms, section, opens, penalty))
        pending, opens, previous = [], False, kind

    for block in found:
        if block.kind == "heading" and block.level <= 2:
            if pending and not opens:  # a dangling caption before a new section prints with it
                pass
            section, opens = block, True
        if block.table is not None:
            model = block.table
            whole = model.header_height + sum(model.row_heights) + model.space_after
            if 0 < len(model.row_heights) <= SHORT_TABLE and whole <= room * LONG * 1.5:  # a short table stays whole
                emit([_row(model, i) for i in range(len(model.row_heights))], "table-start")
                continue
            for i in range(len(model.row_heights)):
                emit([_row(model, i)], "row" if i else "table-start")
            if not model.row_heights:  # a header without rows
                emit([Atom(model.header_height + model.space_after, 0.0, model.space_after, table=model, row=-1,
                           kind="row")], "table-start")
            continue
        if block.glue:
            pending.append(measure.atom(block.flowable, block.kind))
            continue
        for k, atom in enumerate(_pieces(block, measure, room)):
            emit([atom], "piece" if k else block.kind)
    if pending:
        out.append(Unit(pending, section, opens, 0.0 if opens else CUT_IN_SECTION))
    return out


def joined(pieces: list[Atom]) -> Paragraph:
    """Sentence runs of one paragraph that print on one panel, as one paragraph again (the
    first run's space before, the last one's space after, the bullet if the first run has it)."""
    para, first, last = pieces[0].para, pieces[0], pieces[-1]
    style = para.style.clone(f"{para.style.name}-joined", spaceBefore=first.flowable.style.spaceBefore,
                             spaceAfter=last.flowable.style.spaceAfter)
    return Paragraph(" ".join(a.flowable.text for a in pieces), style,
                     bulletText=para.bulletText if first.piece == 0 else None)


class Joins:
    """How much less height (pt, zero or negative) a paragraph's sentence runs take when a
    panel holds several of them, which print :func:`joined`: the correction to the sum of
    their heights, so that a panel's measure is the height its frame gives it."""

    def __init__(self, found: list[Unit], measure: Measure):
        self.width = measure.width
        self.piece = [next((a for a in u.atoms if a.para is not None), None) for u in found]
        self.first: dict[int, int] = {}
        self.last: dict[int, int] = {}
        for k, atom in enumerate(self.piece):
            if atom is not None:
                self.first.setdefault(id(atom.para), k)
                self.last[id(atom.para)] = k
        self._runs: dict[tuple[int, int], float] = {}
        self.sums = [0.0]  # the correction of each paragraph printed whole, counted at its last run
        for k, atom in enumerate(self.piece):
            whole = atom is not None and k == self.last[id(atom.para)]
            self.sums.append(self.sums[-1] + (self.run(self.first[id(atom.para)], k) if whole else 0.0))

    def run(self, a: int, b: int) -> float:
        """The correction for the runs in units a..b (inclusive) of one paragraph printed together."""
        if a == b:
            return 0.0
        if (a, b) not in self._runs:
            atoms = self.piece[a:b + 1]
            _, h = joined(atoms).wrap(self.width, 10_000)
            self._runs[a, b] = h - sum(x.height - x.space_before - x.space_after for x in atoms)
        return self._runs[a, b]

    def correction(self, i: int, j: int) -> float:
        """The correction for a panel holding units i..j-1."""
        c = self.sums[j] - self.sums[i]
        seen = set()
        for k in (i, j - 1):  # a paragraph cut at the panel's top or foot: only its runs on the panel
            atom = self.piece[k]
            if atom is None or id(atom.para) in seen:
                continue
            p = id(atom.para)
            seen.add(p)
            first, last = self.first[p], self.last[p]
            a, b = max(i, first), min(j - 1, last)
            if (a, b) == (first, last):
                continue
            if i <= last < j:
                c -= self.run(first, last)
            c += self.run(a, b)
        return c
