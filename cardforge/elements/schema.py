"""The layout schema's element branches and docs/layout.md's key tables, both generated from
the kinds' declarations (:mod:`cardforge.elements`).

:func:`element_defs` gives ``$defs`` entries: ``element`` (an element as written: with a
``kind``, checked against that kind's branch ``element-<kind>``, which takes only its keys;
without one, as an extending layout or a card's ``layout:`` writes it, against
``element-partial``, the keys of every kind) and the branches. :func:`with_elements` puts
them into the layout schema. :func:`markdown` is the per-kind key tables of docs/layout.md;
``python3 -m cardforge.elements.schema docs/layout.md`` writes them there.
"""
from __future__ import annotations

import copy
import sys
from typing import Any

from cardforge.elements import COMMON, KINDS, Key

BEGIN = "<!-- element keys: generated from cardforge/elements/ by `python3 -m cardforge.elements.schema docs/layout.md` -->"
END = "<!-- end of the generated element keys -->"
TABLE_BEGIN = "<!-- element kinds: generated from cardforge/elements/ by `python3 -m cardforge.elements.schema docs/elements.md` -->"
TABLE_END = "<!-- end of the generated element kinds -->"


def _property(key: Key) -> dict[str, Any]:
    schema = copy.deepcopy(key.schema)
    schema.setdefault("description", key.doc)
    return schema


def element_defs() -> dict[str, Any]:
    """The ``$defs`` of elements: ``element``, ``element-partial`` and ``element-<kind>``."""
    kinds = list(KINDS)
    defs: dict[str, Any] = {"element": {
        "description": "an element of a face; `kind` and `box` (`points` may stand for it) are required once the "
                       "layouts it extends are merged (an element of an extending layout names only the keys it "
                       "changes)",
        "type": "object",
        "properties": {"kind": {"description": "what the element draws", "enum": kinds}},
        "allOf": [{"if": {"properties": {"kind": {"const": name}}, "required": ["kind"]},
                   "then": {"$ref": f"#/$defs/element-{name}"}} for name in kinds]
                 + [{"if": {"not": {"required": ["kind"]}}, "then": {"$ref": "#/$defs/element-partial"}}],
    }}
    union: dict[str, list[dict[str, Any]]] = {}
    for name, kind in KINDS.items():
        props = {key.name: _property(key) for key in kind.all_keys}
        props["kind"] = {"const": name}
        defs[f"element-{name}"] = {"description": f"a {name} element: {kind.doc}", "type": "object",
                                   "additionalProperties": False, "x-kind": name, "properties": props}
        for key in kind.all_keys:
            options = union.setdefault(key.name, [])
            if key.name != "kind" and _property(key) not in options:
                options.append(_property(key))
    partial = {key: (options[0] if len(options) == 1 else {"anyOf": options}) for key, options in union.items()}
    partial["kind"] = {"enum": kinds}
    defs["element-partial"] = {"description": "an element that names only the keys it changes (no `kind`)",
                               "type": "object", "additionalProperties": False, "properties": partial}
    return defs


def with_elements(schema: dict[str, Any]) -> dict[str, Any]:
    """The layout schema ``schema`` with its element definitions generated (a new dict)."""
    out = dict(schema)
    out["$defs"] = {**{k: v for k, v in schema["$defs"].items() if k != "element"}, **element_defs()}
    return out


def _default(key: Key) -> str:
    if key.shown_default:
        return key.shown_default
    if key.default is None:
        return "none" if key.name not in ("kind", "box") else "required"
    if key.default == ():
        return "none"
    if isinstance(key.default, bool):
        return f"`{str(key.default).lower()}`"
    return f"`{key.default}`"


def _row(key: Key) -> str:
    return f"| `{key.name}` | {key.unit} | {_default(key)} | {key.doc} |"


def markdown() -> str:
    """docs/layout.md's element key tables, between :data:`BEGIN` and :data:`END`."""
    head = "| key | unit / values | default | what it does |\n|---|---|---|---|"
    parts = [BEGIN, "", *(f"- `{name}`: {kind.doc}." for name, kind in KINDS.items()), "",
             "Every kind takes:", "", head, *(_row(k) for k in COMMON), ""]
    for name, kind in KINDS.items():
        parts += [f"### `{name}` keys", "", head, *(_row(k) for k in kind.keys), ""]
    return "\n".join(parts + [END])


def table() -> str:
    """docs/elements.md's table of the element kinds (one row a kind: what it draws, its own
    keys), between :data:`TABLE_BEGIN` and :data:`TABLE_END`."""
    rows = [f"| `{name}` | {kind.doc} | {', '.join(f'`{k.name}`' for k in kind.keys)} |" for name, kind in KINDS.items()]
    return "\n".join([TABLE_BEGIN, "", "| kind | draws | its own keys |", "|---|---|---|", *rows, "", TABLE_END])


def write_docs(path: str) -> None:
    """Replace the generated parts of ``path``: the key tables (from :data:`BEGIN` to
    :data:`END`) and the kinds' table (from :data:`TABLE_BEGIN` to :data:`TABLE_END`),
    whichever it holds."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for begin, end_mark, made in ((BEGIN, END, markdown), (TABLE_BEGIN, TABLE_END, table)):
        if begin in text:
            start, end = text.index(begin), text.index(end_mark) + len(end_mark)
            text = text[:start] + made() + text[end:]
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    for name in sys.argv[1:]:
        write_docs(name)
