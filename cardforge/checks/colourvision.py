"""Colour vision: what players must tell apart by colour still differs for the common
colour-vision deficiencies.

Each colour is simulated for protanopia, deuteranopia and tritanopia with the matrices of
Machado, Oliveira and Fernandes (2009, "A physiologically-based model for simulation of
color vision deficiency", severity 1.0), applied in linear sRGB, and compared in CIELAB
(CIE76 ΔE, D65). Two colours *collapse* when they differ to normal sight (ΔE at least
:data:`THRESHOLD`) but not under a simulation (ΔE below it).

Code ``colour-collapse`` (warning):

* **backs**: two card backs of game.yaml whose every colour collapses and that carry no
  other cue (their other player-facing values, such as ``title``, are equal), at the
  second back's line in game.yaml;
* **suits**: on a layout whose front background is chosen by a card field (``background:
  "{{ game.elements[card.element].hex }}"``), two values of that field whose backgrounds
  collapse, when the face shows the field no other way (no icon or text element prints it),
  at the layout's line.
"""
from __future__ import annotations

import re
from itertools import combinations

from cardforge.elements import kind_of
from cardforge.elements.text import CARD_FIELD, printed_fields
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.sandbox import context as cardcontext
from cardforge.util.diagnostics import COLOUR_COLLAPSE, Diagnostic, diag

THRESHOLD = 10.0  # CIE76 ΔE: under this, two flat colours are hard to tell apart at a glance
HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
NOT_CUES = {"note", "source", "provisional", "id"}  # values of a back that players do not see

# Machado et al. (2009), severity 1.0, linear RGB -> linear RGB
MACHADO = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    """CIELAB (D65) of a linear sRGB colour (components 0..1)."""
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def linear_rgb(hex_colour: str) -> tuple[float, float, float]:
    value = hex_colour.lstrip("#")
    return tuple(_linear(int(value[i:i + 2], 16) / 255) for i in (0, 2, 4))  # type: ignore[return-value]


def simulate(rgb: tuple[float, float, float], deficiency: str) -> tuple[float, float, float]:
    """``rgb`` (linear) as seen with ``deficiency`` (a key of :data:`MACHADO`), clipped to 0..1."""
    m = MACHADO[deficiency]
    return tuple(min(1.0, max(0.0, sum(m[i][j] * rgb[j] for j in range(3)))) for i in range(3))  # type: ignore[return-value]


def delta_e(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """CIE76 ΔE between two linear sRGB colours."""
    la, lb = _lab(a), _lab(b)
    return sum((p - q) ** 2 for p, q in zip(la, lb)) ** 0.5


def collapses(a: str, b: str) -> tuple[str, float] | None:
    """(the deficiency, its ΔE) under which the hex colours ``a`` and ``b`` collapse, or None
    (also when they are alike to normal sight)."""
    ra, rb = linear_rgb(a), linear_rgb(b)
    if delta_e(ra, rb) < THRESHOLD:
        return None
    worst = min(((d, delta_e(simulate(ra, d), simulate(rb, d))) for d in MACHADO), key=lambda t: t[1])
    return worst if worst[1] < THRESHOLD else None


def _backs(game: Game) -> list[Diagnostic]:
    out = []
    src = game.source
    for (id_a, a), (id_b, b) in combinations(sorted(game.backs.items()), 2):
        if not isinstance(a, dict) or not isinstance(b, dict):
            continue
        cues = {k for k in set(a) | set(b) if k not in NOT_CUES and not (isinstance(a.get(k), str) and HEX.match(a[k]))
                and not (isinstance(b.get(k), str) and HEX.match(b[k]))}
        if any(a.get(k) != b.get(k) for k in cues):
            continue  # a title, a label or an icon tells them apart
        colours = [k for k in set(a) & set(b) if isinstance(a[k], str) and isinstance(b[k], str)
                   and HEX.match(a[k]) and HEX.match(b[k]) and a[k].lower() != b[k].lower()]
        found = [collapses(a[k], b[k]) for k in sorted(colours)]
        if colours and all(found):
            deficiency, de = min(found, key=lambda t: t[1])
            try:
                line = src.line("backs", id_b)
            except (KeyError, IndexError, TypeError, ValueError):
                line = src.line()
            out.append(diag(COLOUR_COLLAPSE, f"the backs {id_a} and {id_b} differ only by colour, and their colours "
                            f"collapse under {deficiency} (ΔE {de:.1f} < {THRESHOLD:g})", file=src.file, line=line,
                            hint="give one back another cue a player sees (a title, an icon, a pattern), or colours "
                                 "that differ in lightness"))
    return out


def _suits(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    out = []
    if layouts is None:
        return out
    for type_id in game.card_types:
        cards = game.cards_of(type_id)
        if not cards or type_id not in layouts.by_type:  # no usable layout: the layout checks say why
            continue
        layout = layouts.for_card(cards[0])
        face = layout.front
        if face is None or "{{" not in (face.background or ""):
            continue
        fields = {a or b for a, b in CARD_FIELD.findall(face.background)}
        if len(fields) != 1:
            continue
        field = fields.pop()
        shown = any((kind_of(el).sets_text and field in printed_fields(el))
                    or field in kind_of(el).shows(el)
                    for el in face.elements)
        if shown:
            continue  # an icon or a word says the suit too
        colours: dict[str, str] = {}
        for card in cards:
            value = card.data.get(field)
            if value is None or str(value) in colours or layouts.for_card(card) is not layout:
                continue
            from cardforge.resolve.face import context

            try:
                colour = cardcontext.rendered(face.background, context(card, game)).strip()
            except Exception:  # a template error is the faces check's to report
                continue
            if HEX.match(colour):
                colours[str(value)] = colour
        for (va, ca), (vb, cb) in combinations(sorted(colours.items()), 2):
            found = collapses(ca, cb)
            if found:
                out.append(diag(COLOUR_COLLAPSE, f"{type_id}: cards with {field} {va} and {vb} differ only by their "
                                f"background ({ca} / {cb}), which collapses under {found[0]} (ΔE {found[1]:.1f} < "
                                f"{THRESHOLD:g})", file=layouts.file, line=layout.line,
                                hint=f"print the {field} on the card too (an icon or a word), or choose colours that "
                                     "differ in lightness"))
    return out


def check(game: Game, layouts: LayoutSet | None = None) -> list[Diagnostic]:
    return _backs(game) + _suits(game, layouts)
