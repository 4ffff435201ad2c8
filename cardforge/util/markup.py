r"""Card text markup: plain text with ``{icon}`` tokens, ``**bold**``, ``*italic*`` line breaks,
and ``<small>...</small>`` / ``<big>...</big>`` spans (type 0.8x / 1.25x the element's size).

A backslash makes the next ``*``, ``{``, ``}`` or ``\\`` a literal character (``\*``,
``\{wood}``); a ``{`` that does not open an icon token (``{ 3 }``) is printed as it is.

Parsing is separate from drawing so the checker can read icon tokens and words with their
offsets, and the layout engine can measure and draw the same runs. A ``{name}`` token is an
icon of the game's legend (its key in game.yaml); ``{{ ... }}`` is never produced here
(jinja2 templates are rendered before markup is parsed).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

TOKEN = re.compile(r"\{([a-z0-9][a-z0-9-]*)\}|(\*\*|\*)|(\n)|\\([*{}\\])")
_PARSE = re.compile(TOKEN.pattern + r"|<(/?)(small|big)>")
SCALES = {"small": 0.8, "big": 1.25}


@dataclass(frozen=True)
class Run:
    """A piece of card text: ``kind`` is ``"text"``, ``"icon"`` or ``"break"``.

    ``value`` is the text or the icon name; ``bold``/``italic`` the emphasis in force;
    ``offset`` the character offset of the run in the source string.
    """

    kind: str
    value: str
    bold: bool = False
    italic: bool = False
    offset: int = 0
    scale: float = 1.0  # of the element's type size (<small>, <big>)


def parse(text: str) -> list[Run]:
    """Split marked-up card text into runs. Unmatched ``*`` toggles stay in force to the end."""
    runs: list[Run] = []
    bold = italic = False
    scale = 1.0
    pos = 0
    for match in _PARSE.finditer(text):
        if match.start() > pos:
            runs.append(Run("text", text[pos:match.start()], bold, italic, pos, scale))
        icon, emphasis, newline, escaped, closing, span = match.groups()
        if span:
            scale = 1.0 if closing else SCALES[span]
        elif escaped:  # \* \{ \} \\ : the character itself
            runs.append(Run("text", escaped, bold, italic, match.start(), scale))
        elif icon:
            runs.append(Run("icon", icon, bold, italic, match.start(), scale))
        elif emphasis == "**":
            bold = not bold
        elif emphasis == "*":
            italic = not italic
        elif newline:
            runs.append(Run("break", "\n", bold, italic, match.start()))
        pos = match.end()
    if pos < len(text):
        runs.append(Run("text", text[pos:], bold, italic, pos, scale))
    return runs


def icons_in(text: str) -> list[tuple[str, int]]:
    """Every icon token of ``text`` as ``(name, offset)``."""
    return [(m.group(1), m.start()) for m in TOKEN.finditer(text) if m.group(1)]


def plain(text: str, icon_label=lambda name: f"[{name}]") -> str:
    """``text`` without markup; icons replaced by ``icon_label(name)``."""
    out = []
    for run in parse(text):
        out.append(icon_label(run.value) if run.kind == "icon" else run.value)
    return "".join(out)


def line_col(text: str, offset: int) -> tuple[int, int]:
    """0-based line and column of ``offset`` inside ``text``."""
    before = text[:offset]
    line = before.count("\n")
    return line, offset - (before.rfind("\n") + 1)
