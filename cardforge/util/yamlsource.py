"""Safe YAML loading that keeps the source line of every node and rejects duplicate keys.

PyYAML's ``safe_load`` forgets where a value came from and silently keeps the last of two
equal keys (losing a card). :func:`load_yaml` composes the node tree with the safe loader
(no arbitrary tags), builds plain Python data from it, and records the 1-based line and
column of every mapping key and value in a :class:`LineMap` keyed by the value's path
(``("cards", 3, "text")``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from cardforge.util.diagnostics import (VALUE_TOO_LARGE, YAML_DUPLICATE_KEY, YAML_SYNTAX, YAML_TOO_COMPLEX,
                                        Diagnostic, diag)

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


MAX_NODES = 200_000      # values in one file, aliases expanded (a "billion laughs" file has 10**9)
MAX_ALIASES = 10_000     # alias uses in one file
MAX_DEPTH = 64           # levels of nesting (libyaml's own composer would overflow the C stack)
MAX_STRING = 100_000     # characters in one string value


def _reader_error(exc: yaml.reader.ReaderError, text: str, name: str) -> Diagnostic:
    pos = exc.position
    line = text.count("\n", 0, pos) + 1
    column = pos - (text.rfind("\n", 0, pos) + 1) + 1
    char = exc.character if isinstance(exc.character, str) else chr(exc.character or 0)
    return diag(YAML_SYNTAX, f"character U+{ord(char):04X} is not allowed in YAML ({exc.reason})",
                file=name, line=line, column=column,
                hint="remove the character; write a tab or a line break as \\t or \\n inside double quotes")


_OPENS_QUOTE = re.compile(r"""^\s*(?:-\s+)*(?:[^\s#'"][^#]*?:\s+)?(["'])""")


def _unclosed_quote(lines: list[str], upto: int) -> tuple[int, int] | None:
    """The last line before ``upto`` (0-based) whose value opens a quote that the line does not close."""
    for n in range(min(upto, len(lines) - 1), -1, -1):
        m = _OPENS_QUOTE.match(lines[n])
        if not m:
            continue
        quote, rest = m.group(1), lines[n][m.end():]
        closed = re.search(r'(?<!\\)"' if quote == '"' else r"'(?!')", rest.replace("''", ""))
        if not closed:
            return n, m.start(1)
    return None


def _syntax_error(exc: yaml.MarkedYAMLError, name: str, text: str = "") -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    ctx = exc.context_mark
    if "nesting depth" in str(exc.problem or ""):
        # PyYAML 6.0.2+ (its libyaml) refuses deep nesting itself, while scanning ahead of
        # the events that would reach MAX_DEPTH: the same limit, so the same diagnostic
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        return diag(YAML_TOO_COMPLEX, f"values nested more than the YAML parser allows ({exc.problem})",
                    file=name, line=line, column=col)
    if exc.context and ctx and ("quoted scalar" in exc.context or "flow" in exc.context):
        # an unclosed quote or bracket: report where it opens, not where the file ends
        what = "a quoted string" if "quoted" in exc.context else "a [list] or {mapping} written inline"
        return diag(YAML_SYNTAX, f"{what} is not closed: {exc.problem}", file=name, line=ctx.line + 1,
                    column=ctx.column + 1,
                    hint="close it on the same value (use a block scalar `|` for text over several lines)")
    line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
    message = str(exc.problem or "invalid YAML")
    if exc.context:
        where = f" (line {ctx.line + 1})" if ctx and mark and ctx.line != mark.line else ""
        message = f"{exc.context}{where}: {message}"
    opened = _unclosed_quote(text.splitlines(), line - 1) if text and mark else None
    if opened and opened[0] + 1 < line:  # a quote left open swallows the lines below it
        return diag(YAML_SYNTAX, f"a quoted string opened here is not closed (YAML reads on to line {line}: {message})",
                    file=name, line=opened[0] + 1, column=opened[1] + 1,
                    hint="close the quote on this line (use a block scalar `|` for text over several lines)")
    return diag(YAML_SYNTAX, message, file=name, line=line, column=col)


def _measure(text: str, name: str) -> None:
    """Walk the event stream (no tree yet): refuse nesting, node and alias counts past the limits.

    Raises :class:`YamlError` (``yaml-too-complex``, ``yaml-syntax``).
    """
    loader = Loader(text)
    depth = nodes = aliases = 0
    start = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    end = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, start):
                depth += 1
                nodes += 1
                if depth > MAX_DEPTH:
                    m = event.start_mark
                    raise YamlError([diag(YAML_TOO_COMPLEX, f"values nested more than {MAX_DEPTH} levels deep",
                                          file=name, line=m.line + 1, column=m.column + 1)])
            elif isinstance(event, end):
                depth -= 1
            elif isinstance(event, yaml.ScalarEvent):
                nodes += 1
                if len(event.value) > MAX_STRING:
                    m = event.start_mark
                    raise YamlError([diag(VALUE_TOO_LARGE, f"a string of {len(event.value):,} characters; "
                                          f"values hold at most {MAX_STRING:,}", file=name, line=m.line + 1,
                                          column=m.column + 1)])
            elif isinstance(event, yaml.AliasEvent):
                aliases += 1
                if aliases > MAX_ALIASES:
                    m = event.start_mark
                    raise YamlError([diag(YAML_TOO_COMPLEX, f"more than {MAX_ALIASES:,} aliases (*name)",
                                          file=name, line=m.line + 1, column=m.column + 1)])
            if nodes > MAX_NODES:
                m = event.start_mark
                raise YamlError([diag(YAML_TOO_COMPLEX, f"more than {MAX_NODES:,} values in one file",
                                      file=name, line=m.line + 1, column=m.column + 1,
                                      hint="split the cards over several files")])
    except yaml.reader.ReaderError as exc:
        raise YamlError([_reader_error(exc, text, name)]) from None
    except yaml.MarkedYAMLError as exc:
        raise YamlError([_syntax_error(exc, name, text)]) from None
    finally:
        loader.dispose()


def load_yaml(path: Path, display: str | None = None) -> tuple[Any, LineMap]:
    """Load ``path`` as YAML; return ``(data, line_map)``.

    Raises :class:`YamlError` with ``yaml-syntax`` for a parse error (an unclosed quote is
    placed where it opens), ``yaml-duplicate-key`` (one per repeated key, all reported) for
    repeated keys (keys brought in by a merge key ``<<: *base`` may be overridden),
    ``yaml-too-complex`` past :data:`MAX_DEPTH`, :data:`MAX_NODES` (aliases expanded) or
    :data:`MAX_ALIASES`, ``value-too-large`` for a string past :data:`MAX_STRING`, and
    ``file-special`` / ``file-too-large`` (see :func:`cardforge.util.paths.read_limited`).
    Raises ``OSError`` when the file cannot be read. ``display`` is the file name used in
    diagnostics (default: ``str(path)``). A file loaded before (the same bytes under the
    same name) is read from the user cache (:mod:`cardforge.cache.kept`).
    """
    from cardforge.util.paths import InputFileError, read_limited

    from cardforge.cache import kept
    from cardforge.cache.registry import YAML

    name = display or str(path)
    try:
        raw = read_limited(path, display=name)
    except InputFileError as exc:
        raise YamlError([exc.diagnostic]) from None
    digest = kept.key("yaml", name, raw)
    found = kept.get(YAML, digest)  # these bytes loaded before, under this name
    if found is not kept.MISS:
        return found
    data, lines = _load(raw, name)
    kept.put(YAML, digest, (data, lines))
    return data, lines


def _load(raw: bytes, name: str) -> tuple[Any, LineMap]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        from cardforge.util.textfile import undecodable

        raise YamlError([undecodable(raw, exc, YAML_SYNTAX, name)]) from None
    _measure(text, name)
    loader = Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.reader.ReaderError as exc:
        raise YamlError([_reader_error(exc, text, name)]) from None
    except yaml.MarkedYAMLError as exc:
        raise YamlError([_syntax_error(exc, name, text)]) from None
    finally:
        loader.dispose()
    lines = LineMap(Path(name), text_lines=text.splitlines())
    if node is None:
        return None, lines
    problems: list[Diagnostic] = []
    builder = _Builder(lines, loader, problems, name)
    try:
        data = builder.build(node, ())
    except _TooComplex as exc:
        raise YamlError([exc.diagnostic]) from None
    if problems:
        raise YamlError(problems)
    return data, lines


class _TooComplex(Exception):
    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


MERGE_TAG = "tag:yaml.org,2002:merge"


class _Builder:
    """Plain data from a node tree, recording positions; counts values with aliases expanded."""

    def __init__(self, lines: LineMap, loader: Any, problems: list[Diagnostic], name: str):
        self.lines, self.loader, self.problems, self.name = lines, loader, problems, name
        self.count = 0
        self.active: set[int] = set()   # nodes being built (a recursive alias comes back to one)
        self.merged: dict[int, int] = {}  # mapping node -> how many leading entries came from `<<`

    def _where(self, node: yaml.Node) -> dict:
        return dict(file=self.name, line=node.start_mark.line + 1, column=node.start_mark.column + 1)

    def _scalar(self, node: yaml.Node) -> Any:
        try:  # the safe constructor refuses every tag it does not know (no arbitrary objects)
            return self.loader.construct_object(node, deep=True)
        except yaml.YAMLError as exc:
            problem = getattr(exc, "problem", None) or str(exc)
            self.problems.append(diag(YAML_SYNTAX, f"unsupported YAML tag {node.tag!r}: {problem}"
                                      if node.tag not in SAFE_TAGS else f"bad {node.tag.rsplit(':', 1)[-1]} value: {problem}",
                                      **self._where(node)))
            return None
        except (ValueError, OverflowError, TypeError) as exc:  # e.g. a timestamp out of range
            self.problems.append(diag(YAML_SYNTAX, f"bad value {node.value!r}: {exc}", **self._where(node)))
            return None

    def build(self, node: yaml.Node, path: PathKey) -> Any:
        self.count += 1
        if self.count > MAX_NODES:
            raise _TooComplex(diag(YAML_TOO_COMPLEX, f"more than {MAX_NODES:,} values once aliases are expanded "
                                   "(an alias bomb?)", **self._where(node)))
        self.lines.positions.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
        if id(node) in self.active:
            raise _TooComplex(diag(YAML_TOO_COMPLEX, "an alias refers to the value that contains it (a recursive alias)",
                                   **self._where(node)))
        if node.tag not in SAFE_TAGS or isinstance(node, yaml.ScalarNode):
            if not isinstance(node, yaml.ScalarNode) and node.tag not in SAFE_TAGS:
                self.problems.append(diag(YAML_SYNTAX, f"unsupported YAML tag {node.tag!r}", **self._where(node)))
                return None
            return self._scalar(node)
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path)
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        finally:
            self.active.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, path: PathKey) -> dict:
        if id(node) not in self.merged:
            own = sum(1 for k, _ in node.value if k.tag != MERGE_TAG)
            try:
                self.loader.flatten_mapping(node)  # resolves YAML merge keys (<<) the safe way
            except yaml.YAMLError as exc:
                self.problems.append(diag(YAML_SYNTAX, f"bad merge key: {getattr(exc, 'problem', exc)}",
                                          **self._where(node)))
                node.value = [(k, v) for k, v in node.value if k.tag != MERGE_TAG]
            self.merged[id(node)] = len(node.value) - own
        n_merged = self.merged[id(node)]
        result: dict[Any, Any] = {}
        first_seen: dict[Any, int] = {}
        for i, (key_node, value_node) in enumerate(node.value):
            if not isinstance(key_node, yaml.ScalarNode):
                self.problems.append(diag(YAML_SYNTAX, "a list or mapping cannot be a key; keys are names or numbers",
                                          **self._where(key_node)))
                continue
            key = self._scalar(key_node)
            try:
                hash(key)
            except TypeError:
                self.problems.append(diag(YAML_SYNTAX, f"{key!r} cannot be a key", **self._where(key_node)))
                continue
            inherited = i < n_merged
            if key in result and not inherited and key in first_seen:
                self.problems.append(diag(
                    YAML_DUPLICATE_KEY,
                    f"duplicate key {key!r} (first at line {first_seen[key]}); YAML would keep only the last",
                    **self._where(key_node)))
                continue
            if not inherited:
                first_seen[key] = key_node.start_mark.line + 1
            self.lines.positions[path + (key,)] = (value_node.start_mark.line + 1, value_node.start_mark.column + 1)
            self.lines.key_positions[path + (key,)] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            result[key] = self.build(value_node, path + (key,))
        return result
