"""Layout element kinds: a registry of one module per kind, each declaring its keys once.

A kind (:class:`Kind`) says which YAML keys its elements take (:class:`Key`: name, JSON
Schema of the value, default, unit and a one-line description), how a raw mapping becomes
a typed :class:`Element` (:func:`parse`), what box it occupies (``bounds``, for the trim and
safe-area checks) and how it is drawn (``draw``, with what the renderer hands it: see
:class:`cardforge.render.card.At`; no kind imports the renderer). The layout schema's per-kind branches
(:mod:`cardforge.elements.schema`) and docs/layout.md's key tables are generated from these
declarations. The keys every kind shares (:data:`COMMON`) are declared here.

To add a kind: write ``cardforge/elements/<kind>.py`` calling :func:`register` once (it is
found by itself, after the kinds of :data:`MODULES`); a kind with keys of its own gives
its elements a subclass of :class:`Element` holding them (``Kind(element=...)``).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING, Any, Callable

from cardforge.elements.specs import Repeat, TextStyle
from cardforge.util.units import parse_length

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

Box = tuple[float, float, float, float]


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Key:
    """One YAML key of an element: ``schema`` is the JSON Schema of its value; ``default`` is
    the value as written in YAML when the key is left out (None: no value); ``unit`` says in
    words what is written (docs); ``attr`` is the :class:`Element` field it fills (None: the
    kind's ``build`` uses it); ``convert`` turns a written value into the field's value;
    ``holds`` says what a template in it gives (``"template"``: what the element shows, ``"icon"``:
    an icon name, ``"colour"``: a colour, ``"condition"``: whether it is drawn; empty: no template),
    so every check that runs, reads or compares templates finds them without knowing the kind."""

    name: str
    schema: dict[str, Any]
    default: Any
    doc: str
    unit: str
    attr: str | None = ""
    convert: Callable[[Any], Any] = _same
    shown_default: str = ""  # the default as the docs say it, when not the YAML value
    holds: str = ""  # what a template in the key gives: template, icon, colour, condition ("": not a template)

    @property
    def field_name(self) -> str | None:
        return self.name if self.attr == "" else self.attr


def length(name: str, default: str | None, doc: str, **more: Any) -> Key:
    """A key holding one length (``9pt``, ``3mm``): its field holds pt."""
    return Key(name, {"$ref": "#/$defs/length"}, default, doc, "length", convert=parse_length, **more)


def colour(name: str, doc: str, default: str | None = None) -> Key:
    """A key holding a colour, ``#rrggbb`` or a template giving one."""
    return Key(name, {"$ref": "#/$defs/color"}, default, doc, "colour", holds="colour")


def enum(name: str, options: list, default: Any, doc: str, **more: Any) -> Key:
    return Key(name, {"enum": options}, default, doc, ", ".join(f"`{o}`" for o in options), **more)


def lengths(value: Any) -> tuple[float, ...]:
    return tuple(parse_length(v) for v in value)


def corners(value: Any) -> tuple[tuple[float, float], ...]:
    return tuple((parse_length(px), parse_length(py)) for px, py in value)


def _repeat(spec: dict | None) -> Repeat | None:
    if not spec:
        return None

    def pair(value):
        return (parse_length(value[0]), parse_length(value[1])) if value else (0.0, 0.0)
    within = spec.get("within")
    return Repeat(over=spec["over"], alias=spec.get("as", "item"), step=pair(spec.get("step")),
                  columns=spec.get("columns"), row_step=pair(spec.get("row_step")),
                  nested=bool(spec.get("nested", False)),
                  within=tuple(parse_length(v) for v in within) if within else None)


# The keys every kind shares (an element's name is its key under `elements:`).
KIND = Key("kind", {}, None, "what the element draws", "a kind (above)", attr=None)
BOX = Key("box", {"$ref": "#/$defs/box"}, None, "where, from the top-left trim corner", "`[x, y, width, height]`, lengths",
          attr=None)
WHEN = Key("when", {"type": "string", "description": "a jinja2 expression; the element is drawn only when true"},
           None, "draw the element only for cards where it is true", "jinja2 expression", shown_default="always",
           holds="condition")
REPEAT = Key("repeat", {"$ref": "#/$defs/repeat"}, None, "draw the element once per item of a list or number",
             "mapping (below)", convert=_repeat)
COMMON = (KIND, BOX, WHEN, REPEAT)

# Keys several kinds take, declared once here.
FILL = colour("fill", "fill colour", None)
STROKE = colour("stroke", "outline colour")
STROKE_WIDTH = length("stroke_width", "0.5pt", "outline width")
RADIUS = length("radius", "0pt", "corner radius (half the side makes a circle)")
DASH = Key("dash", {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/length"},
                    "description": "stroke dash pattern: lengths of dash, gap, ..."},
           (), "stroke dash pattern: lengths of dash, gap, ...", "list of lengths", convert=lengths, shown_default="solid")
OPACITY = Key("opacity", {"type": "number", "minimum": 0, "maximum": 1}, 1.0, "of the fill and stroke, 0 (invisible) to 1 (opaque)",
              "number, 0 to 1", convert=float)
FIELD = Key("field", {"type": "string"}, None, "the card field shown", "a card field")
TEMPLATE = Key("template", {"type": "string"}, None, "a jinja2 template giving what is shown (card fields as `card.FIELD`)",
               "jinja2 template", holds="template")
# Keys that make a TextStyle (text, and a table's cells); built by the kind (attr=None).
FONT = Key("font", {"type": "string"}, "sans", "the typeface (a font name, below)", "a font name", attr=None)
SIZE = length("size", "9pt", "the type size tried first", attr=None)
MIN_SIZE = length("min_size", None, "the smallest size the type may shrink to", attr=None, shown_default="`size`")
LEADING = Key("leading", {"type": "number", "minimum": 0.8, "maximum": 3}, 1.2, "line spacing, as a multiple of the type size",
              "number, 0.8 to 3", attr=None)
COLOR = replace(colour("color", "the text colour", "#000000"), attr=None)
ALIGN = enum("align", ["left", "center", "right"], "center", "horizontal alignment", attr=None)
VALIGN = enum("valign", ["top", "middle", "bottom"], "top", "vertical alignment in the box", attr=None)
ICON_SCALE = Key("icon_scale", {"type": "number", "minimum": 0.5, "maximum": 3}, 1.3,
                 "height of inline icons, in ems of the type size", "number, 0.5 to 3", attr=None)
ICON_COLOR = replace(colour("icon_color", "draw icons in this colour (the SVG must use `currentColor`: "
                            "`icon-color-ignored` warns)"), attr=None, shown_default="the icon's own")
STYLE = (FONT, SIZE, MIN_SIZE, LEADING, COLOR, ALIGN, VALIGN, ICON_SCALE, ICON_COLOR)


def style(raw: dict[str, Any], fonts: dict[str, str]) -> TextStyle:
    """The text style of a raw element (every key left out takes its declared default)."""
    size = parse_length(raw.get("size", SIZE.default))
    return TextStyle(font=fonts[raw.get("font", FONT.default)], size=size,
                     min_size=parse_length(raw["min_size"]) if "min_size" in raw else size,
                     leading=raw.get("leading", LEADING.default), color=raw.get("color", COLOR.default),
                     align=raw.get("align", ALIGN.default), valign=raw.get("valign", VALIGN.default),
                     icon_scale=raw.get("icon_scale", ICON_SCALE.default), icon_color=raw.get("icon_color"))


@dataclass(frozen=True)
class Element:
    """A resolved element: ``box`` is (x, y, w, h) in pt from the card's top-left trim corner.

    One frozen, hashable value (caches key on its ``repr``): its kind's :func:`parse` fills
    the fields of the keys it declares, with their declared defaults; the others keep the
    neutral values below (no fill, no points, ...). A kind with keys no other kind has
    gives its elements a frozen subclass holding them (``text``, ``image``, ``table``,
    ``line``, ``polygon`` and ``star``, ``track``). ``style`` is the
    text style (text and table; the others keep the default style). Lengths in pt.
    """

    name: str
    kind: str
    box: Box
    line: int = 0
    field: str | None = None
    template: str | None = None
    when: str | None = None
    icon: str | None = None
    style: TextStyle = TextStyle()
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    radius: float = 0.0
    dash: tuple[float, ...] = ()
    opacity: float = 1.0
    repeat: Repeat | None = None


def _box_of(raw: dict[str, Any]) -> Box:
    return tuple(parse_length(v) for v in raw["box"])


@dataclass(frozen=True)
class Kind:
    """One element kind: its name, a one-line ``doc`` of what it draws, and its own ``keys``
    (with :data:`COMMON`, all it takes).

    ``build(raw, fonts)`` gives the fields its keys do not fill directly (e.g. ``style``);
    ``require(raw)`` says what a complete element lacks (a message) or None; ``needs_box(raw)``
    whether it must have a ``box`` (False for a line or polygon given by ``points``);
    ``place(raw)`` its box and the fields that depend on it; ``draw(canvas, el, copy, at)``
    draws one copy (see :class:`cardforge.render.card.At`); ``fonts(el)`` the font keys it
    sets type in (for the deck's embedded fonts). Capabilities the checks ask
    about: ``sets_text`` (card markup fitted in the box: text-overflow, type sizes),
    ``keeps_safe`` (must stay in the safe area), ``allows_flat`` (a box of 0 height or width
    draws something), ``has_rows`` (rows from card data: the table fit check), ``art``
    (draws an image file: the image checks), ``covers`` (the version mark keeps off its box;
    a kind that ``sets_text`` is kept off by its fitted ink), ``shows(el)`` the card fields it
    shows other than as set text (an icon named from a field: the designed marks, the
    colour-vision check), ``ground(el)`` the flat fill it paints over its whole box (what a
    mark on it is inked against), ``badge(el)`` whether it is a shape a printed value may sit
    in (the designed mark goes beside it), ``whole_icons`` (draws each of its ``icons`` on its
    own, a text icon in the bold face of its font: the glyph check). ``element``: the class of its
    elements, :class:`Element` or a frozen subclass holding the fields only this kind has. Which of its fields hold
    templates, and what each gives, its keys say (:attr:`Key.holds`, :attr:`templates`).
    """

    name: str
    doc: str
    keys: tuple[Key, ...]
    draw: Callable[[Canvas, Element, Any, Any], None]
    build: Callable[[dict[str, Any], dict[str, str]], dict[str, Any]] = lambda raw, fonts: {}
    require: Callable[[dict[str, Any]], str | None] = lambda raw: None
    needs_box: Callable[[dict[str, Any]], bool] = lambda raw: True
    place: Callable[[dict[str, Any]], dict[str, Any]] = lambda raw: {"box": _box_of(raw)}
    icons: Callable[[Element, dict[str, Any]], set[str]] = lambda el, ctx: set()
    icons_vary: Callable[[Element], bool] = lambda el: False
    fonts: Callable[[Element], tuple[str | None, ...]] = lambda el: (el.style.font,)
    sets_text: bool = False
    keeps_safe: bool = False
    allows_flat: bool = False
    has_rows: bool = False
    art: bool = False
    covers: bool = False
    shows: Callable[[Element], set[str]] = lambda el: set()
    ground: Callable[[Element], str | None] = lambda el: None
    badge: Callable[[Element], bool] = lambda el: False
    whole_icons: bool = False
    element: type = Element  # its elements' class: Element, or a subclass adding the kind's own fields
    module: str = field(default="", compare=False)

    # worked out once per kind: the checks ask them of every element of every card
    @cached_property
    def all_keys(self) -> tuple[Key, ...]:
        return COMMON + self.keys

    @cached_property
    def key_names(self) -> tuple[str, ...]:
        return tuple(k.name for k in self.all_keys)

    @cached_property
    def templates(self) -> tuple[tuple[str, str], ...]:
        """``(field, what it gives)`` of each field of its elements that holds a template: its
        own keys first, in the order declared, then the keys every kind shares (``when``)."""
        return tuple((k.field_name, k.holds) for k in self.keys + COMMON if k.holds and k.field_name)

    def templates_of(self, el: Element, *gives: str) -> list[tuple[str, str]]:
        """``(field, template)`` of each template ``el`` is given (of the ``gives`` sorts, or every
        sort when none is named), in :attr:`templates` order."""
        return [(name, value) for name, what in self.templates if not gives or what in gives
                if isinstance(value := getattr(el, name), str) and value]

    def bounds(self, el: Element) -> Box:
        """The box ``el`` occupies, (x, y, w, h) pt from the top-left trim corner."""
        return el.box


KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """Add ``kind`` to the registry (once: a second kind of the same name is a mistake)."""
    if kind.name in KINDS:
        raise ValueError(f"element kind {kind.name!r} registered twice")
    names = [k.name for k in kind.all_keys]
    if len(set(names)) != len(names):
        raise ValueError(f"element kind {kind.name!r} declares a key twice")
    KINDS[kind.name] = kind
    return kind


def kind_of(el: Element) -> Kind:
    """The kind of a resolved element."""
    return KINDS[el.kind]


def owners(key: str) -> list[str]:
    """The kinds that take ``key``, in registry order."""
    return [kind.name for kind in KINDS.values() if key in kind.key_names]


def stray_key(kind: str, key: str) -> str:
    """Words for ``key`` written on an element of ``kind``, which does not take it: the kinds
    whose key it is, or (a key of no kind) the kind's key it most looks like."""
    import re

    from cardforge.util.suggest import closest

    others = owners(key)
    if others:
        return f"a {kind} element has no key {key!r} ({key} belongs to {', '.join(others)})"
    known = KINDS[kind].key_names
    last = re.split(r"[_\-\s]+", key)[-1]  # font_size -> size: the noun of the key
    best = last if last in known and last != key else closest(key, known, cutoff=60)
    return f"unknown key {key!r}" + (f"; did you mean {best!r}?" if best else f"; a {kind} element takes "
                                     f"{', '.join(known)}")


def parse(name: str, raw: dict[str, Any], line: int, fonts: dict[str, str]) -> Element:
    """The typed element of a complete, valid raw mapping (``kind`` known, box or points
    given): every declared key left out takes its declared default; lengths become pt."""
    kind = KINDS[raw["kind"]]
    values: dict[str, Any] = {}
    for key in kind.all_keys:
        attr = key.field_name
        if attr is None:
            continue
        value = raw.get(key.name, key.default)
        values[attr] = None if value is None else key.convert(value)
    values.update(kind.place(raw))
    values.update(kind.build(raw, fonts))
    values.setdefault("style", style(raw, fonts))
    return kind.element(name=name, kind=kind.name, line=line, **values)


# The kinds' modules: these first, in this order (the order of the kinds in the layout
# schema and the docs), then every other module of this package but the helpers, by name,
# so a new kind is its own module and nothing else.
MODULES = ("text", "icon", "image", "table", "shapes", "star")
HELPERS = ("schema", "specs")


def _kind_modules() -> tuple[str, ...]:
    import pkgutil

    found = {m.name for m in pkgutil.iter_modules(__path__)} - set(MODULES) - set(HELPERS)
    return MODULES + tuple(sorted(found))


for _module in _kind_modules():
    import_module(f"cardforge.elements.{_module}")
