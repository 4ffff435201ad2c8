"""Values: numbers that parse but make no sense, found at check time with their line.

Layouts (``layout-invalid``, at the key's line in the layout file): a card size of zero,
negative or over :data:`MAX_CARD_MM`; a bleed, safe margin, corner or border outside its
range; a text size of zero, negative or over :data:`MAX_FONT_PT`; ``min_size`` above
``size``; a line spacing (``leading``) or icon scale of zero or less; a negative stroke.
game.yaml (``value-invalid``, at the key's line): players ``min`` above ``max``; a
component whose ``parts`` include itself, directly or through other parts.

:func:`insane_layouts` names the card types whose layout has such a value, so that
measuring (text fit) skips them instead of trying a 10,000 pt font.
"""
from __future__ import annotations

import math

from cardforge.util.diagnostics import LAYOUT_INVALID, VALUE_INVALID, Diagnostic, diag
from cardforge.elements import kind_of
from cardforge.layout import Layout, LayoutSet
from cardforge.model import Game
from cardforge.util.units import MM

MAX_CARD_MM = 600.0     # a poster-sized board tile still fits
MAX_BLEED_MM = 13.0     # half an inch: more is not a bleed
MAX_FONT_PT = 300.0     # a 10 cm letter
MAX_LEADING = 10.0
MAX_ICON_SCALE = 10.0


def _chain(data: dict, name: str) -> list[str]:
    chain, current = [name], name
    layouts = data.get("layouts") or {}
    while isinstance(layouts.get(current), dict) and layouts[current].get("extends") in layouts:
        current = layouts[current]["extends"]
        if current in chain:
            break
        chain.append(current)
    return chain


def _line(layouts: LayoutSet, layout: Layout, key: str) -> int:
    """The line of ``key`` where the layout (or the first layout it extends that has it) sets it."""
    if layouts.source is None:
        return layout.line
    for name in _chain(layouts.data, layout.name):
        path = ("layouts", name, key)
        if path in layouts.source.lines.key_positions:
            return layouts.source.lines.key_positions[path][0]
    return layout.line


def _bad(value: float, low: float, high: float, low_open: bool = False) -> bool:
    return not math.isfinite(value) or value < low or (low_open and value <= low) or value > high


def layout_problems(layouts: LayoutSet) -> dict[str, list[Diagnostic]]:
    """Card type -> the senseless values of its layout."""
    out: dict[str, list[Diagnostic]] = {}
    for type_id, layout in layouts.by_type.items():
        found = []

        def add(key_or_line, message: str) -> None:
            line = key_or_line if isinstance(key_or_line, int) else _line(layouts, layout, key_or_line)
            found.append(diag(LAYOUT_INVALID, f"layout {layout.name!r}: {message}", file=layouts.file, line=line))

        w, h = layout.size
        if any(_bad(v, 0, MAX_CARD_MM * MM, low_open=True) for v in (w, h)):
            add("size", f"card size {w / MM:g} x {h / MM:g} mm: each side must be more than 0 and at most {MAX_CARD_MM:g} mm")
            out[type_id] = found
            continue
        for key, value, high in (("bleed", layout.bleed, MAX_BLEED_MM * MM), ("safe", layout.safe, min(w, h) / 2),
                                 ("corner", layout.corner, min(w, h) / 2)):
            if _bad(value, 0, high):
                add(key, f"{key} {value / MM:g} mm: it must be between 0 and {high / MM:.1f} mm")
        for face in (layout.front, layout.back):
            if face is None:
                continue
            if _bad(face.border_width, 0, min(w, h) / 2):
                add("border", f"border width {face.border_width / MM:g} mm: between 0 and half the card")
            for el in face.elements:
                if _bad(el.stroke_width, 0, min(w, h) / 2):
                    add(el.line, f"element {el.name!r}: stroke width {el.stroke_width:g} pt is not between 0 and half the card")
                if not kind_of(el).sets_text:
                    continue
                st = el.style
                if _bad(st.size, 0, MAX_FONT_PT, low_open=True):
                    add(el.line, f"element {el.name!r}: text size {st.size:g} pt must be more than 0 and at most {MAX_FONT_PT:g} pt")
                elif _bad(st.min_size, 0, st.size, low_open=True):
                    add(el.line, f"element {el.name!r}: min_size {st.min_size:g} pt must be more than 0 and at most "
                                 f"its size {st.size:g} pt")
                if not isinstance(st.leading, (int, float)) or _bad(st.leading, 0, MAX_LEADING, low_open=True):
                    add(el.line, f"element {el.name!r}: leading {st.leading!r} must be more than 0 and at most {MAX_LEADING:g}")
                if not isinstance(st.icon_scale, (int, float)) or _bad(st.icon_scale, 0, MAX_ICON_SCALE, low_open=True):
                    add(el.line, f"element {el.name!r}: icon_scale {st.icon_scale!r} must be more than 0 and at most {MAX_ICON_SCALE:g}")
        if found:
            out[type_id] = found
    return out


def insane_layouts(layouts: LayoutSet | None) -> set[str]:
    """Card types whose layout has a senseless value (see module doc)."""
    return set(layout_problems(layouts)) if layouts is not None else set()


def _game_values(game: Game) -> list[Diagnostic]:
    found = []
    src = game.source
    players = game.meta.get("players")
    if isinstance(players, dict) and isinstance(players.get("min"), int) and isinstance(players.get("max"), int):
        if players["min"] > players["max"]:
            found.append(diag(VALUE_INVALID, f"players: min {players['min']} is more than max {players['max']}",
                              file=src.file, line=src.line("game", "players"), column=src.column("game", "players")))
    parts = {c.get("id"): c.get("parts") or [] for c in game.components if isinstance(c, dict)}
    for i, component in enumerate(game.components):
        cid = component.get("id")
        seen, todo = set(), list(parts.get(cid, []))
        while todo:
            part = todo.pop()
            if part == cid:
                found.append(diag(VALUE_INVALID, f"component {cid!r} is one of its own parts"
                                  f"{'' if cid in parts.get(cid, []) else ' (through other parts)'}",
                                  file=src.file, line=src.line("components", i, "parts"),
                                  column=src.column("components", i, "parts")))
                break
            if part not in seen:
                seen.add(part)
                todo.extend(parts.get(part, []))
    return found


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found = _game_values(game)
    if layouts is not None:
        seen = set()
        for problems in layout_problems(layouts).values():
            for d in problems:
                if d not in seen:
                    seen.add(d)
                    found.append(d)
    return found
