"""Safe YAML loading that keeps the source line of every node and rejects duplicate keys.

PyYAML's ``safe_load`` forgets where a value came from and silently keeps the last of two
equal keys (losing a card). :func:`load_yaml` composes the node tree with the safe loader
(no arbitrary tags), builds plain Python data from it, and records the 1-based line and
column of every mapping key and value in a :class:`LineMap` keyed by the value's path
(``("cards", 3, "text")``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardforge.diagnostics import Diagnostic, diag

PathKey = tuple[Any, ...]
# libyaml's C parser when PyYAML was built with it (same safe constructor, same marks)
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SAFE_TAGS = {"tag:yaml.org,2002:" + t for t in
             ("map", "seq", "str", "int", "float", "bool", "null", "timestamp", "binary")}


@dataclass
class LineMap:
    """Where each value of a YAML document came from: path -> (line, column), 1-based."""

    file: Path
    positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[PathKey, tuple[int, int]] = field(default_factory=dict)
    text_lines: list[str] = field(default_factory=list)

    def locate(self, path: PathKey) -> tuple[int, int]:
        """The position of ``path`` (its key, for a mapping entry), or of its nearest ancestor."""
        path = tuple(path)
        while path:
            if path in self.key_positions:
                return self.key_positions[path]
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), (1, 1))

    def line(self, path: PathKey) -> int:
        return self.locate(path)[0]

    def in_string(self, path: PathKey, value: str, offset: int) -> tuple[int, int]:
        """Line and column of character ``offset`` of the string ``value`` found at ``path``.

        Exact for block scalars (``|``) and single-line scalars; for folded or multi-line
        flow scalars, the position of the value's start.
        """
        line, col = self.positions.get(tuple(path)) or self.locate(path)
        raw = self.text_lines[line - 1] if 0 < line <= len(self.text_lines) else ""
        start = raw[col - 1:col] if col else ""
        before = value[:offset]
        nth, at = before.count("\n"), offset - (before.rfind("\n") + 1)
        if start == "|":
            body = self.text_lines[line] if line < len(self.text_lines) else ""
            indent = len(body) - len(body.lstrip(" "))
            return line + 1 + nth, indent + at + 1
        if "\n" not in value:
            return line, col + at + (1 if start in ("'", '"') else 0)
        return line, col


class YamlError(Exception):
    """A YAML file that cannot be loaded; carries its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.format() for d in diagnostics))
        self.diagnostics = diagnostics


def load_yaml(path: Path, display: str | None = None) -> tuple[Any, LineMap]:
    """Load ``path`` as YAML; return ``(data, line_map)``.

    Raises :class:`YamlError` with ``yaml-syntax`` for a parse error and
    ``yaml-duplicate-key`` (one per repeated key, all reported) for repeated keys.
    ``display`` is the file name used in diagnostics (default: ``str(path)``).
    """
    name = display or str(path)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise YamlError([diag("yaml-syntax", f"not UTF-8 text: byte 0x{raw[exc.start]:02x} cannot be read",
                              file=name, line=line, column=column,
                              hint="save the file as UTF-8")]) from None
    loader = Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        message = str(exc.problem or "invalid YAML")
        if exc.context:
            ctx = exc.context_mark
            where = f" (line {ctx.line + 1})" if ctx and mark and ctx.line != mark.line else ""
            message = f"{exc.context}{where}: {message}"
        raise YamlError([diag("yaml-syntax", message, file=name, line=line, column=col)]) from None
    finally:
        loader.dispose()
    lines = LineMap(Path(name), text_lines=text.splitlines())
    if node is None:
        return None, lines
    problems: list[Diagnostic] = []
    data = _build(node, (), lines, loader, problems, name)
    if problems:
        raise YamlError(problems)
    return data, lines


def _build(node: yaml.Node, path: PathKey, lines: LineMap, loader: Any,
           problems: list[Diagnostic], name: str) -> Any:
    lines.positions.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
    if node.tag not in SAFE_TAGS:
        try:  # the safe constructor refuses every tag it does not know (no arbitrary objects)
            return loader.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            problems.append(diag("yaml-syntax", f"unsupported YAML tag {node.tag!r}: {exc.problem}", file=name,
                                 line=node.start_mark.line + 1, column=node.start_mark.column + 1))
            return None
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # resolves YAML merge keys (<<) the safe way
        result: dict[Any, Any] = {}
        first_seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            if isinstance(key, list):
                key = tuple(key)
            if key in result:
                problems.append(diag(
                    "yaml-duplicate-key",
                    f"duplicate key {key!r} (first at line {first_seen[key]}); YAML would keep only the last",
                    file=name, line=key_node.start_mark.line + 1, column=key_node.start_mark.column + 1))
                continue
            first_seen[key] = key_node.start_mark.line + 1
            lines.positions[path + (key,)] = (value_node.start_mark.line + 1, value_node.start_mark.column + 1)
            lines.key_positions[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            result[key] = _build(value_node, path + (key,), lines, loader, problems, name)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), lines, loader, problems, name) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)
