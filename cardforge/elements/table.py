"""The ``table`` element: rows from card data (``rows``: an expression), columns sized by
their content so that no number or short word breaks (see :mod:`cardforge.render.table`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardforge.elements import (COLOR, FILL, FONT, ICON_COLOR, ICON_SCALE, LEADING, MIN_SIZE, RADIUS, SIZE, STROKE,
                                STROKE_WIDTH, Element, Key, Kind, length, register)

COLUMNS = {
    "type": "array", "minItems": 1,
    "items": {
        "type": "object", "additionalProperties": False, "required": ["cell"],
        "properties": {
            "header": {"type": "string", "description": "header row text (template); a table has a header row when "
                                                        "any column has one"},
            "cell": {"type": "string", "description": "cell text (card markup template; sees row and index)"},
            "align": {"enum": ["left", "center", "right"]},
            "color": {"$ref": "#/$defs/color"},
        },
    },
}


def _draw(c, el: Element, copy, at) -> None:
    at.draw_table(c, el, copy)


@dataclass(frozen=True)
class Table(Element):
    """A table element: :class:`Element` with the keys only a table has (``rows``, ``columns``,
    its header's font and size, pt)."""

    rows: str | None = None
    columns: tuple[dict, ...] = ()
    header_font: str | None = None
    header_size: float | None = None


def _build(raw: dict[str, Any], fonts: dict[str, str]) -> dict[str, Any]:
    return {"header_font": fonts.get(raw.get("header_font"))}


KIND = register(Kind(
    "table", "rows from card data, columns sized by their content so no number or short word breaks",
    keys=(Key("rows", {"type": "string"}, None, "an expression giving the list of rows (each cell template sees `row` "
                                                "and `index`)", "jinja2 expression"),
          Key("columns", COLUMNS, (), "the columns, left to right, each with `cell`, optional `header`, `align`, "
                                      "`color`", "list of mappings", convert=tuple),
          Key("header_font", {"type": "string"}, None, "font of the header row", "a font name", attr=None,
              shown_default="the bold of `font`"),
          length("header_size", None, "type size of the header row (never larger than the body as it shrinks)",
                 shown_default="`size`"),
          FONT, SIZE, MIN_SIZE, LEADING, COLOR, ICON_SCALE, ICON_COLOR, FILL,
          STROKE, STROKE_WIDTH, RADIUS),
    draw=_draw, build=_build, element=Table, fonts=lambda el: (el.style.font, el.header_font),
    require=lambda raw: None if raw.get("rows") and raw.get("columns") else "needs `rows:` and `columns:`",
    has_rows=True, covers=True))
