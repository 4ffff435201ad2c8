"""Faces: every layout template, condition, colour and icon name works for every card.

A layout's templates run against each card's data when the deck is drawn; this family runs
them at check time, so a card missing a field its layout reads is found by ``check``, not
as a failed build. Codes, each at the element's line in the layout file, naming the card:
``template-invalid`` (a template or ``when`` raises: undefined field, wrong type),
``template-budget`` (it runs over its budget, see :mod:`cardforge.sandbox.budget`),
``layout-invalid`` (a template does not parse, or a colour renders to something that is
not ``#rrggbb``), ``icon-unknown`` (an ``icon:`` element names an icon the game lacks).
Each problem is reported once per element, for the first card that shows it.
"""
from __future__ import annotations

import re

from jinja2 import TemplateSyntaxError

from cardforge import sandbox
from cardforge.checks import common
from cardforge.sandbox.budget import BudgetExceeded
from cardforge.util.diagnostics import ICON_UNKNOWN, LAYOUT_INVALID, TEMPLATE_BUDGET, TEMPLATE_INVALID, Diagnostic, diag
from cardforge.elements import kind_of
from cardforge.layout import Element, Face, LayoutSet
from cardforge.model import Card, Game
from cardforge.sandbox import context as memo
from cardforge.resolve.face import back_face
from cardforge.util.suggest import did_you_mean
from cardforge.sandbox.choice import back_of

COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _colors(face: Face, el: Element | None) -> list[tuple[str, str]]:
    if el is None:
        return [("background", face.background), ("border color", face.border_color)]
    found = kind_of(el).templates_of(el, "colour") + [("color", el.style.color), ("icon_color", el.style.icon_color)]
    return [(what, value) for what, value in found if value]


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    if layouts is None:
        return []
    found: dict[tuple, Diagnostic] = {}
    for card in game.cards:
        if card.type not in layouts.by_type:
            continue
        layout = layouts.for_card(card)
        where = ("layouts", layout.name)
        faces = [(layout.front, common.front(card, game), where)]
        back_id = back_of(card, game)
        try:
            back = back_face(card, game, layouts)
        except KeyError:
            back = None  # a missing back is layout-missing, reported by loading
        if back is not None:
            faces.append((back, common.back(card, game), where + ("back",) if back_id == "own" else ("backs", layouts.back_name(back_id))))
        for face, ctx, path in faces:
            _face(face, ctx, card, game, layouts, found, _key_line(layouts, path))
    return list(found.values())


def _key_line(layouts: LayoutSet, path: tuple):
    """A function: face key ("background", "border") -> its line, through the layout's `extends` chain."""
    from cardforge.checks.values import _chain

    def line(*keys: str) -> int:
        if layouts.source is None:
            return 0
        paths = [path]
        if path[0] == "layouts":
            paths = [("layouts", name) + path[2:] for name in _chain(layouts.data, path[1])]
        for candidate in paths:
            for n in range(len(keys), 0, -1):
                if candidate + keys[:n] in layouts.source.lines.key_positions:
                    return layouts.source.lines.key_positions[candidate + keys[:n]][0]
        return layouts.source.line(*path)

    return line


def _face(face: Face, ctx: dict, card: Card, game: Game, layouts: LayoutSet, found: dict, key_line) -> None:
    file = layouts.file
    line = 0

    def report(key: tuple, code: str, message: str, **extra) -> None:
        if key not in found:
            found[key] = diag(code, f"{card.label}: {message}", file=file, line=line,
                              card=card.name, **extra)

    def run(what: str, source: str, is_expression: bool = False):
        try:
            if is_expression:  # remembered in the context, for the other families (and they for this one)
                return memo.holds(source, ctx)
            return memo.rendered(source, ctx)
        except TemplateSyntaxError as exc:
            report((line, what, "syntax"), LAYOUT_INVALID, f"the {what} {source!r} does not parse: {exc.message}")
        except BudgetExceeded as exc:
            report((line, what, "budget"), TEMPLATE_BUDGET, f"the {what} {source!r} was stopped: {exc}")
        except sandbox.TemplateFailure as exc:
            report((line, what, "fails"), TEMPLATE_INVALID, f"the {what} {source!r} fails: {exc}",
                   hint="give the card the field, or guard the template with `{% if card.x is defined %}`")
        return None

    for el in (None, *face.elements):
        if el is not None and el.repeat is not None:
            continue  # its templates read the repeated item: the layout-fit family draws those per item
        line = el.line if el is not None else 0
        if el is not None:
            if el.when and not run("`when`", el.when, is_expression=True):
                continue
            for _, template in kind_of(el).templates_of(el, "template"):
                run("template", template)
            for _, icon in kind_of(el).templates_of(el, "icon"):
                name = run("icon name", icon)
                if name is not None and name.strip() and name.strip() not in game.icons:
                    report((line, "icon", name.strip()), ICON_UNKNOWN,
                           f"the layout element {el.name!r} draws the icon {name.strip()!r}, which game.yaml does not declare",
                           hint=did_you_mean(name.strip(), game.icons))
        for what, value in _colors(face, el):
            if el is None:
                line = key_line("border", "color") if what == "border color" else key_line("background")
            color = run(what, value)
            if color is not None and not COLOR.match(color.strip()):
                report((line, what, "color"), LAYOUT_INVALID,
                       f"the {what} {value!r} gives {color.strip()!r}, which is not a colour (#rrggbb)")
