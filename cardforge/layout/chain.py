"""Layouts that extend layouts: a layout merged along its ``extends:`` chain.

A layout names its parent with ``extends:``; the chain is merged from the root down (a deep
merge of mappings, an element set to ``null`` removed later by :mod:`cardforge.layout.faces`),
with a cycle (``layout-cycle``) or an unknown parent (``layout-invalid``) reported at the
``extends:`` line. Each merged element keeps the layout of the chain that last defines it, so
a diagnostic about it points at the line the designer wrote.
"""
from __future__ import annotations

import copy
from typing import Any

from cardforge.model import Source
from cardforge.util.diagnostics import LAYOUT_CYCLE, LAYOUT_INVALID, Diagnostic, diag
from cardforge.util.suggest import did_you_mean


def merged_chain(raw: dict, name: str, source: Source) -> tuple[dict | None, dict, list[Diagnostic]]:
    """Layout ``name`` merged along its ``extends`` chain, with where each of its elements
    comes from (``{"elements": {name: layout}, "back": {...}}``, for line numbers), and the
    problems of the chain (a cycle, an unknown parent: then None)."""
    chain = [name]
    current = raw[name]
    while "extends" in current:
        parent = current["extends"]
        if parent in chain:
            cycle = " -> ".join(chain + [parent])
            return None, {}, [diag(LAYOUT_CYCLE, f"layouts extend each other in a cycle: {cycle}",
                               file=source.file, line=source.line("layouts", name, "extends"))]
        if parent not in raw:
            return None, {}, [diag(LAYOUT_INVALID, f"layout {chain[-1]!r} extends {parent!r}, which does not exist",
                               file=source.file, line=source.line("layouts", chain[-1], "extends"),
                               hint=did_you_mean(parent, raw))]
        chain.append(parent)
        current = raw[parent]
    merged: dict[str, Any] = {}
    for link in reversed(chain):
        merged = deep_merge(merged, {k: v for k, v in raw[link].items() if k != "extends"})
    return merged, {key: origin_of(raw, chain, key) for key in ("elements", "back")}, []


def origin_of(raw, chain, key):
    """For each element, the layout of the chain that last defines it (for line numbers)."""
    origin = {}
    for link in reversed(chain):
        for el in (raw[link].get(key) or {}).get("elements", {}) if key == "back" else (raw[link].get(key) or {}):
            origin[el] = link
    return origin


def deep_merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out
