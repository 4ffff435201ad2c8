"""An SVG file a game pack names (an icon, SVG art), judged before anything reads it as
a drawing: small, UTF-8, well-formed XML, an ``<svg>``, no DOCTYPE or entities, no link but
its own fragments and ``data:`` URIs. The icons check reports what :func:`inspect_svg`
finds, and the renderer (:mod:`cardforge.render.icons`) never draws a file it refuses.
"""
from __future__ import annotations

import re
from pathlib import Path
from xml.etree import ElementTree

from cardforge.util.paths import InputFileError, read_limited
from cardforge.util.diagnostics import ICON_FILE

MAX_SVG_BYTES = 2 * 1024 * 1024
_LINK = re.compile(r"^\s*(#|data:)")


def inspect_svg(svg: Path) -> tuple[str, str] | None:
    """Why ``svg`` cannot be an icon, as ``(code, message)``, or None when it can.

    The message completes "icon file X ..."; the code is ``file-special``,
    ``file-too-large`` or ``icon-file``.
    Refused: a file that is not a regular file or is over :data:`MAX_SVG_BYTES`, not UTF-8
    (a PNG named .svg), not well-formed XML, not an ``<svg>``, declaring a DOCTYPE or
    entities (which could expand without end or read other files), or linking anything
    but its own fragments and ``data:`` URIs (no network, no other files).
    """
    try:
        raw = read_limited(svg, MAX_SVG_BYTES)
    except InputFileError as exc:
        return exc.diagnostic.code, exc.diagnostic.message.removeprefix(str(svg)).strip()
    except OSError as exc:
        return ICON_FILE, f"cannot be read: {exc.strerror}"
    if raw.startswith(b"\x89PNG"):
        return ICON_FILE, "is a PNG image, not an SVG: save the icon as SVG (vector) or convert it"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        from cardforge.util.textfile import looks_like, position

        line, column = position(raw, exc.start)
        return ICON_FILE, (f"is not an SVG: not UTF-8 text from line {line}, column {column} (byte 0x{raw[exc.start]:02x}; "
                             f"the file looks like {looks_like(raw)})")
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        return ICON_FILE, "declares a DOCTYPE or entities; remove them (icons need neither)"
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as exc:
        return ICON_FILE, f"is not well-formed XML ({exc})"
    if not root.tag.endswith("svg"):
        return ICON_FILE, f"is not an SVG: its root element is <{root.tag.split('}')[-1]}>"
    for el in root.iter():
        for key, value in el.attrib.items():
            if key.split("}")[-1] in ("href", "src") and not _LINK.match(value):
                return ICON_FILE, f"links {value!r}; an icon must be self-contained (no other files, no network)"
        if el.tag.split("}")[-1] == "style" and el.text and "url(" in el.text and not re.search(r"url\(\s*['\"]?(#|data:)", el.text):
            return ICON_FILE, "loads a resource with url() in its style; an icon must be self-contained"
    return None
