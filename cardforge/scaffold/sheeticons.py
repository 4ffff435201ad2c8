"""Text icons for what a spreadsheet's card text writes and cardforge's fonts cannot print.

For ``cardforge new SLUG --from SHEET``: :func:`token_icons` gives an icon for each
``{Token}`` the text writes, :func:`symbol_icons` one for each symbol (an emoji, say) the
shipped fonts lack, each printed as its label's first letters until the designer draws it
(an SVG under ``icons/``) or names a font that has it.
"""
from __future__ import annotations

import re

from cardforge.scaffold.sheetcolumns import slug

_IGNORED = {0x200D, 0x20E3} | set(range(0xFE00, 0xFE10))  # joiners and variation selectors print nothing


_TOKEN = re.compile(r"\{([A-Za-z0-9][A-Za-z0-9_ -]{0,23})\}")


def token_icons(texts: list[str], taken: set[str]) -> dict[str, dict[str, str]]:
    """Text icons for the ``{Token}``s the sheet writes (``{Y}``, ``{coin}``, ``{Gold}``): ``{icon
    name: {label, text, color, symbol}}``, each printed as its first letters until the designer
    draws it; ``symbol`` is the token as the sheet writes it when that is not already the icon
    token (``{Y}`` -> ``{y}``: the mapping's ``icons:`` turns it), else empty."""
    found: dict[str, dict[str, str]] = {}
    for text in texts:
        for match in _TOKEN.finditer(text):
            word = match.group(1)
            name = slug(word, "")
            if not name or name in taken:
                continue
            if name in found:  # {y} and {Y}: the mapping turns either (it ignores case)
                if match.group(0) != "{" + name + "}":
                    found[name]["symbol"] = match.group(0)
                continue
            found[name] = {"label": word, "text": word[:2] if len(word) <= 2 else word[0].upper(), "color": "#4b3a6b",
                           "symbol": "" if match.group(0) == "{" + name + "}" else match.group(0)}
    return found


def symbol_icons(texts: list[str]) -> dict[str, dict[str, str]]:
    """Text icons for the symbols in ``texts`` that cardforge's fonts cannot print (emoji, say):
    ``{icon name: {label, text, color, symbol}}``, the name and label from the symbol's Unicode
    name (``🪙`` -> ``coin``, "Coin"), printed as its label's first letter until the designer
    draws it (an SVG) or names a font that has it."""
    import unicodedata

    from cardforge.model.fontmetrics import chars

    printable = chars("sans") & chars("sans-bold")
    found: dict[str, dict[str, str]] = {}
    taken: set[str] = set()
    for text in texts:
        for ch in text:
            if ord(ch) in printable or ord(ch) in _IGNORED or ch.isspace() or any(v["symbol"] == ch for v in found.values()):
                continue
            label = unicodedata.name(ch, f"symbol {ord(ch):04X}").lower()
            base = name = slug(label, f"symbol-{ord(ch):04x}")
            n = 1
            while name in taken:
                n += 1
                name = f"{base}-{n}"
            taken.add(name)
            found[name] = {"label": label.capitalize(), "text": label[0].upper(), "color": "#7a5a12", "symbol": ch}
    return found
