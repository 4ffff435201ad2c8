"""Layouts: ``layouts/<slug>.yaml`` resolved into typed boxes, in points.

A layout file holds named card-face layouts (``layouts:``), card-back faces (``backs:``)
and extra sizes. Layouts may ``extends:`` another (deep merge; an element set to ``null``
is removed), with cycle detection. :func:`load_layouts` validates the file against
cardforge's layout schema, converts every length to points (see :mod:`cardforge.util.units`),
and returns a :class:`Layout` per card type. Rendering only draws what is resolved here.
"""
from __future__ import annotations

import copy
import dataclasses
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardforge.cache.registry import SCHEMA_VALIDATORS
from cardforge.util.diagnostics import LAYOUT_INVALID, LAYOUT_MISSING, LAYOUT_UNSAFE, Diagnostic, diag
from cardforge.elements import Element, kind_of
from cardforge.layout.chain import deep_merge, merged_chain
from cardforge.layout.faces import Face, resolve_face
from cardforge.sources.yamlfile import read_yaml
from cardforge.model import Card, Game, Source
from cardforge.sources.packfonts import font_keys
from cardforge.validation import validate
from cardforge.sandbox import choice
from cardforge.util.suggest import did_you_mean
from cardforge.util.units import parse_length

__all__ = ["SIZE_PRESETS_MM", "Element", "Face", "Layout", "LayoutSet", "card_layout", "layout_path", "load_layouts"]

# Trim sizes (width, height) in mm. Poker is 2.5 x 3.5 in exactly.
SIZE_PRESETS_MM = {
    "poker": (63.5, 88.9),
    "poker-metric": (63.0, 88.0),
    "bridge": (57.15, 88.9),
    "mini-euro": (44.0, 68.0),
    "mini-usa": (41.0, 63.0),
    "tarot": (69.85, 120.65),
    "square": (63.5, 63.5),
}


@dataclass(frozen=True)
class Layout:
    """A card type's layout and physical geometry, lengths in pt.

    ``size`` is the trim (w, h); ``bleed`` the background printed beyond the trim on each
    side; ``safe`` the margin inside the trim that text keeps clear of; ``shape`` "rect" or
    "circle" (round tokens); ``corner`` the radius of the rounded-corner cut guide.
    """

    name: str
    size: tuple[float, float]
    front: Face
    back: Face | None
    file: str
    line: int
    bleed: float = 3 * 72 / 25.4
    safe: float = 3 * 72 / 25.4
    shape: str = "rect"
    corner: float = 3 * 72 / 25.4


@dataclass
class LayoutSet:
    """Everything a game's layout file resolves to."""

    file: str
    by_type: dict[str, Layout] = field(default_factory=dict)
    backs: dict[str, Face] = field(default_factory=dict)
    raw: dict[str, dict] = field(default_factory=dict)  # each layout merged along its extends chain
    # each merged layout's elements (front, back) -> the layout of the chain that last defines it
    origins: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    sizes: dict[str, tuple[float, float]] = field(default_factory=dict)
    source: Source | None = None  # the layout file's line map (for checks that place findings)
    data: dict = field(default_factory=dict)  # the layout file as written (before extends)
    fonts: dict[str, str] = field(default_factory=dict)  # font names layouts may use -> font keys
    named: dict[str, Layout] = field(default_factory=dict)  # every layout of the file, by name
    # card types whose layout the card's data chooses -> game.yaml `layout:` (templates.choice)
    chosen: dict[str, Any] = field(default_factory=dict)
    game_data: dict = field(default_factory=dict, repr=False)
    _per_card: dict[int, tuple[Card, Layout]] = field(default_factory=dict, repr=False)

    def back(self, back_id: str) -> Face | None:
        """The face printed for the shared back ``back_id``: the layout file's ``backs:``
        entry of that id, else the one its game.yaml entry names with ``face:`` (several
        backs, such as one per tier, printing one face with their own title and colours)."""
        face = self.backs.get(back_id)
        if face is None:
            entry = (self.game_data.get("backs") or {}).get(back_id)
            if isinstance(entry, dict) and isinstance(entry.get("face"), str):
                face = self.backs.get(entry["face"])
        return face

    def back_name(self, back_id: str) -> str:
        """The name under the layout file's ``backs:`` of the face ``back_id`` prints."""
        if back_id in self.backs:
            return back_id
        entry = (self.game_data.get("backs") or {}).get(back_id)
        return entry["face"] if isinstance(entry, dict) and isinstance(entry.get("face"), str) else back_id

    def back_ids(self) -> set[str]:
        """Every id a card type may print as its shared back (see :meth:`back`)."""
        return set(self.backs) | {b for b in self.game_data.get("backs") or {} if self.back(b) is not None}

    def name_for(self, card: Card) -> str:
        """The name of the layout ``card`` prints with (before its own ``layout:`` keys): the
        one its card type's ``layout:`` chooses, else the layout named like its type."""
        spec = self.chosen.get(card.type)
        if spec is None:
            return card.type
        name = choice.chosen(spec, card, self.game_data)
        return name if name in self.named else card.type

    def for_card(self, card: Card) -> Layout:
        """The layout ``card`` prints with: its type's (or the one its data chooses), with the
        card's own ``layout:`` keys merged over it (one-offs; see :func:`card_layout`)."""
        own = isinstance(card.data.get("layout"), dict)
        if not own and card.type not in self.chosen:
            return self.by_type[card.type]
        key = id(card)
        kept = self._per_card.get(key)
        if kept is None or kept[0] is not card:
            name = self.name_for(card)
            layout = self.named.get(name) or self.by_type[card.type]
            if own:
                layout = card_layout(card, self)[0] or layout
            kept = self._per_card[key] = (card, layout)
        return kept[1]


@SCHEMA_VALIDATORS.function
def _override_validator():
    from jsonschema import Draft202012Validator

    from cardforge.validation import builtin

    return Draft202012Validator({"$defs": builtin("layout")["$defs"], "$ref": "#/$defs/override"})


def card_layout(card: Card, layouts: "LayoutSet") -> tuple[Layout | None, list[Diagnostic]]:
    """Resolve ``card``'s own ``layout:`` keys over its type's layout.

    The keys are validated like a layout (``layout-invalid`` on the card's lines); an
    element names only the keys it changes (``null`` removes it). Returns (layout or None
    when invalid, diagnostics).
    """
    override = card.data.get("layout")
    where = Source(card.source.file, card.source.lines, card.source.path + ("layout",))
    problems = validate(override, _override_validator(), where, code=LAYOUT_INVALID,
                        subject=f"{card.label}: layout")
    name = layouts.name_for(card)
    if problems or name not in layouts.raw or layouts.source is None:
        return None, problems
    merged = deep_merge(layouts.raw[name], override)
    origin = layouts.origins.get(name) or {"elements": {}, "back": {}}
    layout, more = _resolve(name, merged, origin, layouts.sizes, layouts.source, layouts.fonts)
    for d in more:  # place them on the card, which made the change
        problems.append(replace(d, file=card.source.file, line=card.source.line("layout"),
                                message=f"{card.label}: {d.message}"))
    return (None if any(d.severity >= 2 for d in problems) else layout), problems


def layout_path(layouts_dir: Path, slug: str) -> Path:
    return layouts_dir / f"{slug}.yaml"


@SCHEMA_VALIDATORS.function
def _schema_validator():
    from jsonschema import Draft202012Validator

    from cardforge.validation import builtin

    return Draft202012Validator(builtin("layout"))


def load_layouts(game: Game, layouts_dir: Path) -> tuple[LayoutSet | None, list[Diagnostic]]:
    """Load and resolve ``layouts/<slug>.yaml`` for ``game``.

    Returns ``(layouts, diagnostics)``; ``layouts`` is None when the file is missing or
    invalid. Every card type of the game must have a layout (``layout-missing``).
    """
    path = layout_path(layouts_dir, game.slug)
    if not os.path.lexists(path):
        return None, [diag(LAYOUT_MISSING, f"no layout file for {game.slug!r}", file=str(path),
                           hint=f"create {path} with a layout for each card type")]
    data, source, problems = read_yaml(path)
    if source is None:
        return None, problems
    if data is None:
        return None, [diag(LAYOUT_MISSING, f"{source.file} is empty", file=source.file, line=1,
                           hint="give it `layouts:` with a layout for each card type")]
    problems += validate(data, _schema_validator(), source, code=LAYOUT_INVALID)
    if problems:
        return None, problems
    data = data or {}
    sizes = {name: (parse_length(w), parse_length(h)) for name, (w, h) in (data.get("sizes") or {}).items()}
    result = LayoutSet(file=source.file, sizes=sizes, source=source, data=data, fonts=font_keys(game))
    raw = data.get("layouts") or {}
    for name in raw:
        merged, origin, chain_problems = merged_chain(raw, name, source)
        problems += chain_problems
        if merged is None:
            continue
        result.raw[name] = copy.deepcopy(merged)
        result.origins[name] = origin
        layout, layout_problems = _resolve(name, merged, origin, sizes, source, result.fonts)
        problems += layout_problems
        if layout and game.layout_text:  # a translated game: the words its layouts print, in its language
            layout = dataclasses.replace(layout, front=_worded(layout.front, game.layout_text),
                                         back=_worded(layout.back, game.layout_text))
        if layout:
            result.named[name] = layout
        if layout and name in game.card_types:
            result.by_type[name] = layout
    result.game_data = game.data
    for type_id, card_type in game.card_types.items():
        if card_type.layout is None:
            continue
        if not choice.is_data_chosen(card_type.layout):
            if card_type.layout in result.named:
                result.by_type[type_id] = result.named[card_type.layout]
            elif card_type.layout not in raw:
                problems.append(diag(LAYOUT_MISSING, f"card type {type_id!r} prints with the layout {card_type.layout!r}, which {source.file} does not define under `layouts:`",
                                     file=game.source.file, line=game.source.line("card_types", type_id, "layout"),
                                     hint=did_you_mean(card_type.layout, raw)))
            continue
        result.chosen[type_id] = card_type.layout
        if type_id not in result.by_type:  # its cards' layouts stand for the type (sizes, stacks)
            names = [n for n in choice.possible(card_type.layout) if n in result.named]
            names += [choice.chosen(card_type.layout, c, game.data) for c in game.cards if c.type == type_id]
            first = next((n for n in names if n in result.named), None)
            if first is not None:
                result.by_type[type_id] = result.named[first]
    for back_id, face in (data.get("backs") or {}).items():
        resolved, face_problems = resolve_face(face, source, ("backs", back_id), fonts=result.fonts)
        problems += face_problems
        result.backs[back_id] = _worded(resolved, game.layout_text)
    for type_id, card_type in game.card_types.items():
        if type_id not in result.by_type and type_id in raw:
            continue  # reported while resolving
        if type_id not in result.by_type:
            problems.append(diag(LAYOUT_MISSING, f"card type {type_id!r} has no layout in {source.file}",
                                 file=source.file, line=1, hint=f"add `layouts: {{{type_id}: ...}}`"))
            continue
        back = card_type.back
        if choice.is_data_chosen(back):  # each id it lists; what a template gives is checked per card (back-unknown)
            for listed in choice.possible(back):
                if listed != "own" and result.back(listed) is None:
                    problems.append(diag(LAYOUT_MISSING, f"card type {type_id!r} chooses the back {listed!r} by its cards' data, which {source.file} does not define under `backs:`",
                                         file=game.source.file, line=game.source.line("card_types", type_id, "back"),
                                         hint=did_you_mean(listed, result.back_ids())))
        elif back == "own":
            if result.by_type[type_id].back is None:
                problems.append(diag(LAYOUT_MISSING, f"card type {type_id!r} prints its own back but its layout has no `back:`",
                                     file=source.file, line=source.line("layouts", type_id)))
        elif result.back(back) is None:
            problems.append(diag(LAYOUT_MISSING, f"card type {type_id!r} uses the back {back!r}, which {source.file} does not define under `backs:`",
                                 file=source.file, line=1))
    return (None if any(d.severity >= 2 for d in problems) else result), problems


def _worded(face: Face | None, words: dict[str, str]) -> Face | None:
    """``face`` with each element's ``template`` that ``words`` translates replaced (a
    translated game's layout text, :attr:`cardforge.model.Game.layout_text`)."""
    if face is None or not words or not any(el.template in words for el in face.elements):
        return face
    return dataclasses.replace(face, elements=tuple(dataclasses.replace(el, template=words[el.template])
                                                    if el.template in words else el for el in face.elements))


def _resolve(name: str, merged: dict, origin: dict, sizes: dict, source: Source, fonts: dict[str, str]
             ) -> tuple[Layout | None, list[Diagnostic]]:
    problems = []
    size_value = merged.get("size", "poker")
    if isinstance(size_value, list):
        size = (parse_length(size_value[0]), parse_length(size_value[1]))
    elif size_value in sizes:
        size = sizes[size_value]
    elif size_value in SIZE_PRESETS_MM:
        w, h = SIZE_PRESETS_MM[size_value]
        size = (parse_length(f"{w}mm"), parse_length(f"{h}mm"))
    else:
        from cardforge.util.suggest import did_you_mean

        return None, [diag(LAYOUT_INVALID, f"layout {name!r} has unknown size {size_value!r}",
                           file=source.file, line=source.line("layouts", name, "size"),
                           hint=did_you_mean(size_value, list(SIZE_PRESETS_MM) + list(sizes)))]
    if not all(0 < side <= 600 * 72 / 25.4 for side in size):  # NaN fails too
        return None, [diag(LAYOUT_INVALID, f"layout {name!r}: card size {size[0] / 72 * 25.4:g} x "
                           f"{size[1] / 72 * 25.4:g} mm; each side must be more than 0 and at most 600 mm",
                           file=source.file, line=source.line("layouts", name, "size"))]
    front, face_problems = resolve_face(merged, source, ("layouts", name), origin["elements"], fonts=fonts)
    problems += face_problems
    back = None
    if merged.get("back") is not None:
        back, back_problems = resolve_face(merged["back"], source, ("layouts", name, "back"), origin["back"], back=True,
                                    fonts=fonts)
        problems += back_problems
    layout = Layout(name=name, size=size, front=front, back=back, file=source.file,
                    line=source.line("layouts", name),
                    bleed=parse_length(merged.get("bleed", "3mm")), safe=parse_length(merged.get("safe", "3mm")),
                    shape=merged.get("shape", "rect"), corner=parse_length(merged.get("corner", "3mm")))
    problems += _check_boxes(layout, source)
    return layout, problems


def _check_boxes(layout: Layout, source: Source) -> list[Diagnostic]:
    """Every element box lies inside the trim, and every text box inside the safe area."""
    w, h = layout.size
    s = layout.safe
    problems = []
    for face in (layout.front, layout.back):
        for el in (face.elements if face else ()):
            kind = kind_of(el)
            x, y, bw, bh = kind.bounds(el)
            flat = bw < 0 or bh < 0 or (bw == 0 and bh == 0) if kind.allows_flat else bw <= 0 or bh <= 0
            if x < -0.01 or y < -0.01 or x + bw > w + 0.01 or y + bh > h + 0.01 or flat:
                problems.append(diag(LAYOUT_INVALID,
                                     f"element {el.name!r} of layout {layout.name!r} lies outside the card's trim "
                                     f"({w / 72 * 25.4:.1f} x {h / 72 * 25.4:.1f} mm)",
                                     file=source.file, line=el.line))
            elif kind.keeps_safe and (x < s - 0.01 or y < s - 0.01 or x + bw > w - s + 0.01 or y + bh > h - s + 0.01):
                problems.append(diag(LAYOUT_UNSAFE,
                                     f"{el.kind} element {el.name!r} of layout {layout.name!r} reaches into the "
                                     f"{s / 72 * 25.4:.1f} mm safe margin inside the trim, where a cut may clip it",
                                     file=source.file, line=el.line))
    return problems
