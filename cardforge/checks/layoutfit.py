"""Layout fit: repeated elements whose data does not fit the space the layout gives them.

A card's own ``layout:`` keys are validated here (``layout-invalid`` on the card's lines).

Codes: ``layout-overflow`` (error) when a copy of a repeated element (``repeat:``) falls
outside its ``within`` box (default: the card's trim), naming the card, the element and
how many items the card has; nothing is silently dropped.
"""
from __future__ import annotations

import re
from typing import Any

from jinja2 import TemplateError

from cardforge.sandbox.budget import BudgetExceeded
from cardforge.checks import common
from cardforge.sandbox import results as checkresults
from cardforge.util.diagnostics import FIELD_SHAPE, LAYOUT_INVALID, LAYOUT_OVERFLOW, TEMPLATE_BUDGET, Diagnostic, diag
from cardforge.elements import kind_of
from cardforge.layout import Face, Layout, LayoutSet, card_layout
from cardforge.model import Card, Game
from cardforge import sandbox
from cardforge.resolve import repeat, table
from cardforge.util.units import to_mm
from cardforge.resolve.face import back_face


def faces(card: Card, game: Game, layouts: LayoutSet) -> list[tuple[str, Face, dict[str, Any]]]:
    """(side, face, template context) of every face printed for ``card``: front and back.

    A shared back (``back:`` naming an entry of ``backs:``) is included with the back's
    context, so it is measured like a front.
    """
    layout = layouts.for_card(card)
    out = [("front", layout.front, common.front(card, game))]
    back = back_face(card, game, layouts)
    if back is not None:
        out.append(("back", back, common.back(card, game)))
    return out


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    if layouts is None:
        return []
    found = []
    for card in game.cards:
        if card.type not in layouts.by_type:
            continue
        if "layout" in card.data:  # the card's own layout keys, validated like a layout
            custom, problems = card_layout(card, layouts)
            found += problems
            if custom is None:
                continue
        layout = layouts.for_card(card)
        for side, face, ctx in faces(card, game, layouts):
            found += _overflow(card, side, face, ctx, layout, layouts.file, game)
    return found


def _table(card: Card, side: str, el, ctx: dict, file: str, game: Game) -> list[Diagnostic]:
    """``layout-overflow`` for a table that does not fit its box at its minimum type size."""
    if el.when and not sandbox.expression(el.when)(**ctx):
        return []
    _, _, bw, bh = el.box
    fitted = None

    def fits() -> bool:
        nonlocal fitted
        fitted = table.fit(el, ctx, bw, bh, game.icons)
        return fitted.fits
    if checkresults.passed(checkresults.table_key(el, ctx, bw, bh, game.icons), fits):
        return []
    need_w = sum(fitted.widths)
    return [diag(LAYOUT_OVERFLOW,
                 f"{card.label}: {side} table `{el.name}` ({fitted.rows} rows) does not fit its "
                 f"{to_mm(bw):.1f} x {to_mm(bh):.1f} mm box at the minimum {fitted.size:g} pt "
                 f"(it needs {to_mm(need_w):.1f} mm across, {to_mm(sum(fitted.heights)):.1f} mm down)",
                 file=card.source.file, line=card.source.line(), card=card.name,
                 hint=f"fewer rows, or a larger box or smaller min_size for `{el.name}` in {file} (line {el.line})")]


# what a repeated element or a table raises for a card whose data it cannot use
UNDRAWN = (TemplateError, sandbox.TemplateFailure, BudgetExceeded)


def _undrawn(card: Card, side: str, el, over: str, exc: Exception, file: str) -> Diagnostic:
    """``field-shape`` (``template-budget``) for an element whose ``over``/``rows`` expression
    fails on ``card``, at the line of the card field it reads (``card.rows``); ``layout-invalid``
    at the element's line when the expression does not parse."""
    if isinstance(exc, TemplateError):  # the expression itself: at its line in the layout file
        return diag(LAYOUT_INVALID, f"{card.label}: `{el.name}` reads `{over}`, which does not "
                    f"parse: {exc.message}", file=file, line=el.line, card=card.name)
    named = re.search(r"\bcard\.([A-Za-z_][A-Za-z0-9_]*)", over)
    field = named.group(1) if named and named.group(1) in card.data else None
    line = card.source.line(field) if field else card.source.line()
    column = card.source.column(field) if field else 0
    code = TEMPLATE_BUDGET if isinstance(exc, BudgetExceeded) else FIELD_SHAPE
    message = str(exc)
    return diag(code, f"{card.label}: {side} `{el.name}` cannot be drawn: {message}",
                file=card.source.file, line=line, column=column, card=card.name,
                hint=f"give the card's `{field or over}` the shape `{el.name}` reads ({file}, line {el.line})")


def _overflow(card: Card, side: str, face: Face, ctx: dict, layout: Layout, file: str, game: Game) -> list[Diagnostic]:
    found = []
    w, h = layout.size
    reported: set[str] = set()  # elements repeating over the same list overflow together: one report
    for el in face.elements:
        if kind_of(el).has_rows:
            try:
                found += _table(card, side, el, ctx, file, game)
            except UNDRAWN as exc:
                found.append(_undrawn(card, side, el, el.rows, exc, file))
        if el.repeat is None or el.repeat.over in reported:
            continue
        area = el.repeat.within or (0.0, 0.0, w, h)
        try:
            placed = repeat.copies(el.box, el.repeat, ctx)
        except UNDRAWN as exc:
            reported.add(el.repeat.over)  # the elements repeating over the same field fail together
            found.append(_undrawn(card, side, el, el.repeat.over, exc, file))
            continue
        out = [c for c in placed if repeat.outside(c, area)]
        if out:
            reported.add(el.repeat.over)
            fits = len(placed) - len(out)
            found.append(diag(
                LAYOUT_OVERFLOW,
                f"{card.label}: {side} `{el.name}` has {len(placed)} items but only "
                f"{fits} fit its space; item {out[0].index + 1} onwards would print outside it",
                file=card.source.file, line=card.source.line(), card=card.name,
                hint=f"shorten the list, or give `{el.name}` in {file} (line {el.line}) a smaller step or a larger `within`"))
    return found
