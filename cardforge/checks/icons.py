"""Icons: every ``{icon}`` token is declared; every declared icon is used; SVGs exist.

Codes: ``icon-unknown`` (error, at the token's line and column, with a did-you-mean),
``icon-unused`` (warning, at the icon's line in game.yaml), ``icon-file`` (error),
``icon-color-ignored`` (warning: an SVG without currentColor drawn with a layout's
``icon_color``). An icon counts as used when a card's text holds its token, a card's data
names it (stat counts, elements), or a layout draws it for some card (an ``icon:`` element
or a token in a template, templated names rendered per card: :mod:`cardforge.checks.icon_use`).
"""
from __future__ import annotations

import os
import re

from cardforge.util.paths import InputFileError, read_limited
from cardforge.checks.common import card_texts, icon_keys
from cardforge.util.diagnostics import ICON_COLOR_IGNORED, ICON_FILE, ICON_UNKNOWN, ICON_UNUSED, Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.util.markup import icons_in
from cardforge.model import Game
from cardforge.sources.svgfile import inspect_svg
from cardforge.util.suggest import did_you_mean



def layout_icons(layouts: LayoutSet | None) -> set[str]:
    """Icon names a layout draws by itself: tokens in templates, names in ``icon:``."""
    found: set[str] = set()
    if layouts is None:
        return found
    faces = [f for lay in layouts.by_type.values() for f in (lay.front, lay.back) if f] + list(layouts.backs.values())
    for face in faces:
        for el in face.elements:
            if el.template:
                found.update(name for name, _ in icons_in(el.template))
                found.update(re.findall(r"'([a-z0-9-]+)'", el.template))  # names chosen by a template
            if el.icon and "{{" not in el.icon:  # templated names: see icon_use.drawn
                found.add(el.icon)
    return found


def _takes_colour(svg) -> bool:
    try:
        return "currentcolor" in read_limited(svg).decode("utf-8", "replace").lower()
    except (OSError, InputFileError):
        return True  # unreadable files are icon-file errors


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    declared = set(game.icons)
    found, used = [], set()
    for card in game.cards:
        used |= icon_keys(card, declared)
        for field in card_texts(card):
            for name, offset in icons_in(field.text):
                used.add(name)
                if name not in declared:
                    line, col = field.position(offset)
                    found.append(diag(ICON_UNKNOWN, f"{card.label} uses the icon {{{name}}}, "
                                      "which game.yaml does not declare", file=card.source.file, line=line, column=col,
                                      hint=did_you_mean(name, declared), card=card.name))
    used |= layout_icons(layouts)
    from cardforge.checks.icon_use import drawn

    rendered, coloured = drawn(game, layouts)
    used |= rendered
    src = game.source
    for name, icon in game.icons.items():
        where = dict(file=src.file, line=src.line("icons", name, "svg"), column=src.column("icons", name, "svg"))
        if icon.svg is not None and not os.path.lexists(icon.svg):
            found.append(diag(ICON_FILE, f"icon {name!r}: SVG file {icon.svg.name} does not exist", **where))
        elif icon.svg is not None:
            problem = inspect_svg(icon.svg)
            if problem:
                found.append(diag(problem[0], f"icon {name!r}: {icon.svg.name} {problem[1]}", **where))
            elif name in coloured and not _takes_colour(icon.svg):
                found.append(diag(ICON_COLOR_IGNORED, f"icon {name!r}: {icon.svg.name} does not use currentColor, so the "
                                  "colour a layout asks for (icon_color) is not applied", **where,
                                  hint='draw the SVG with fill="currentColor" (and stroke="currentColor") where it should take the colour'))
        if name not in used:
            found.append(diag(ICON_UNUSED, f"icon {name!r} ({icon.label}) is used by no card and no layout",
                              file=src.file, line=src.line("icons", name)))
    return found
