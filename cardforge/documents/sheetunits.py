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
    """One printed piece: a flowable, or row ``row`` of ``table``; ``height`` with its spacing (pt)."""

    height: float
    space_before: float = 0.0
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
        return Atom(h + before + after, before, flowable, kind=kind)


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
                emit([Atom(h + (model.space_after if i == len(model.row_heights) - 1 else 0.0), table=model, row=i,
                           kind="row") for i, h in enumerate(model.row_heights)], "table-start")
                continue
            for i, h in enumerate(model.row_heights):
                atom = Atom(h + (model.space_after if i == len(model.row_heights) - 1 else 0.0),
                            table=model, row=i, kind="row")
                emit([atom], "row" if i else "table-start")
            if not model.row_heights:  # a header without rows
                emit([Atom(model.header_height + model.space_after, table=model, row=-1, kind="row")], "table-start")
            continue
        if block.glue:
            pending.append(measure.atom(block.flowable, block.kind))
            continue
        for k, atom in enumerate(_pieces(block, measure, room)):
            emit([atom], "piece" if k else block.kind)
    if pending:
        out.append(Unit(pending, section, opens, 0.0 if opens else CUT_IN_SECTION))
    return out
