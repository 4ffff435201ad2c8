"""A card face resolved: its background, border and elements, each complete and typed.

:func:`resolve_face` turns a face's mapping (a layout's front, its ``back:``, or an entry of
``backs:``), already merged along its layout's ``extends:`` chain, into a :class:`Face` of
typed elements (see :mod:`cardforge.elements`), lengths in pt. An element that cannot be
drawn (no ``kind:`` or ``box:``, a key its kind does not take, an unknown font, what its
kind requires) is left out with a ``layout-invalid`` diagnostic at its line.
"""
from __future__ import annotations

from dataclasses import dataclass

from cardforge.cache.registry import SCHEMA_VALIDATORS
from cardforge.elements import KINDS, Element, parse, stray_key
from cardforge.model import Source
from cardforge.model.typefaces import FONTS
from cardforge.util.diagnostics import LAYOUT_INVALID, Diagnostic, diag
from cardforge.util.suggest import did_you_mean
from cardforge.util.units import parse_length
from cardforge.validation import validate


@dataclass(frozen=True)
class Face:
    background: str = "#ffffff"
    border_width: float = 0.0
    border_color: str = "#000000"
    border_radius: float = 0.0
    elements: tuple[Element, ...] = ()

@SCHEMA_VALIDATORS.function
def _kind_validator(kind: str):
    from jsonschema import Draft202012Validator

    from cardforge.validation import builtin

    return Draft202012Validator({"$defs": builtin("layout")["$defs"], "$ref": f"#/$defs/element-{kind}"})

def resolve_face(spec: dict, source: Source, path: tuple, origin: dict | None = None, back: bool = False,
          fonts: dict[str, str] | None = None) -> tuple[Face, list[Diagnostic]]:
    problems = []
    fonts = fonts or {name: name for name in FONTS}
    border = spec.get("border") or {}
    elements = []
    for el_name, el in (spec.get("elements") or {}).items():
        if el is None:
            continue
        owner = (origin or {}).get(el_name)
        if owner is not None:
            el_path = ("layouts", owner, "back", "elements", el_name) if back else ("layouts", owner, "elements", el_name)
        else:
            el_path = path + ("elements", el_name)
        line = source.line(*el_path)
        problem = incomplete(el_name, el, fonts, source, el_path)
        if problem is not None:
            problems.append(problem)
            continue
        elements.append(parse(el_name, el, line, fonts))
    face = Face(background=spec.get("background", "#ffffff"),
                border_width=parse_length(border.get("width", "0pt")),
                border_color=border.get("color", "#000000"),
                border_radius=parse_length(border.get("radius", "0pt")),
                elements=tuple(elements))
    return face, problems


def incomplete(el_name: str, el: dict, fonts: dict[str, str], source: Source, el_path: tuple) -> Diagnostic | None:
    """What keeps an element, merged along its layout's extends chain (and a card's own
    ``layout:``), from being drawn: a missing ``kind:`` or ``box:``, a key its kind does not
    take (written where no ``kind:`` was, so the schema could not tell), an unknown font, or
    what its kind requires (``layout-invalid``); None when complete."""
    kind = KINDS.get(el.get("kind"))
    missing = "kind" if kind is None else "box" if "box" not in el and kind.needs_box(el) else None
    if missing:
        return diag(LAYOUT_INVALID, f"element {el_name!r} has no `{missing}:`, and no layout it "
                    "extends gives one", file=source.file, line=source.line(*el_path),
                    hint="an element of an extending layout may name only the keys it changes, "
                         "but the element must exist in the layout it extends")
    for key in el:
        if key not in kind.key_names:
            return diag(LAYOUT_INVALID, f"element {el_name!r}: {stray_key(kind.name, key)}", file=source.file,
                        line=source.line(*el_path, key), column=source.column(*el_path, key))
    wrong = validate(el, _kind_validator(kind.name), Source(source.file, source.lines, el_path), code=LAYOUT_INVALID,
                     subject=f"element {el_name!r}")
    if wrong:  # a value of the merged element's kind's wrong shape (written where no kind was)
        return wrong[0]
    for key in ("header_font", "font"):
        if el.get(key) and el[key] not in fonts:
            return diag(LAYOUT_INVALID, f"element {el_name!r} uses unknown font {el[key]!r}",
                        file=source.file, line=source.line(*el_path, key),
                        hint=(did_you_mean(el[key], fonts) if key == "font" else "") or f"fonts: {', '.join(fonts)} "
                             "(a pack declares its own under `fonts:` in game.yaml)")
    needs = kind.require(el)
    if needs:
        return diag(LAYOUT_INVALID, f"{kind.name} element {el_name!r} {needs}", file=source.file,
                    line=source.line(*el_path))
    return None
