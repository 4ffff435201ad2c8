"""Glyphs: what the PDFs print besides card text, each string in the font it is set in.

Code ``glyph-missing`` (error), at the line where the string is written; card text is
:mod:`cardforge.checks.text`. Here:

- an ``icon`` element drawing a text icon (game.yaml ``text:``): the icon's text in the
  bold face of the element's ``font``, at the element's line in the layout file;
- the rules sources (sheet.md, rulebook.md) as rendered: a heading (``#``, ``##``) in
  serif bold, a ``###`` heading and ``**bold**`` in sans bold, ``*italic*`` in sans
  italic, the rest in sans (with a pack font of ``rules: true``, its faces instead), at
  the source line that writes the character; a ``{name}`` token (or ``icon('name')``) of a
  text icon prints the icon's text in bold, at the token's line;
- the strings game.yaml gives the rules documents (titles, labels, component names,
  definitions, table cells), at their line: the game's title in serif bold and sans,
  the rest in sans and sans bold; a text icon of the legend in bold.

A text icon whose text is only spaces prints nothing wherever it is used: an error at its
``text:`` line in game.yaml.

Characters a rules source prints from the game's data are reported where the data is
written (game.yaml here, card files by the text family). The hint lists the pack's fonts
and says which of them have the missing characters.
"""
from __future__ import annotations

import os
import re
import unicodedata
from typing import Any, Iterable, Iterator

from jinja2 import TemplateError

from cardforge.cache.registry import FONT_FACES, FONT_SETS
from cardforge.checks import common
from cardforge.elements import kind_of
from cardforge.layout import LayoutSet
from cardforge.model import Game, Icon
from cardforge.sandbox import TemplateFailure
from cardforge.sandbox import context as memo
from cardforge.sandbox.budget import BudgetExceeded
from cardforge.util.diagnostics import GLYPH_MISSING, Diagnostic, diag, display_path
from cardforge.util.markup import icons_in
from cardforge.sandbox.choice import back_of

BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
NOT_PRINTED = {"schema_defs", "rules", "sources", "fonts"}  # game.yaml keys whose strings no PDF prints
_SPANS = re.compile(r"\*\*(.+?)\*\*|\*(.+?)\*")
_ICON_CALL = re.compile(r"""icon\(\s*['"]([a-z0-9-]+)['"]\s*\)""")


@FONT_FACES.function
def font_chars(face: str) -> frozenset[int]:
    """The code points font ``face`` (a font key, :mod:`cardforge.model.typefaces`) has glyphs for
    (from its cached glyph widths, :func:`cardforge.model.fontmetrics.chars`)."""
    from cardforge.model.fontmetrics import chars

    return chars(face)


@FONT_SETS.function
def printable(faces: frozenset[str]) -> frozenset[int]:
    """The code points every face of ``faces`` has."""
    return frozenset.intersection(*(font_chars(f) for f in faces))


def missing(text: str, faces: Iterable[str]) -> list[tuple[int, str]]:
    """``(offset, character)`` of each character of ``text`` that some face of ``faces``
    lacks (spaces, control and direction characters aside: other codes report those)."""
    have = printable(frozenset(faces))
    return [(i, ch) for i, ch in enumerate(text)
            if ord(ch) not in have and not ch.isspace() and unicodedata.category(ch) != "Cc" and ord(ch) not in BIDI]


def shown(chars: str) -> str:
    """The missing characters as a message names them: ``'⛨' U+26E8``, at most eight."""
    return ", ".join(f"{ch!r} U+{ord(ch):04X}" for ch in chars[:8]) + (" ..." if len(chars) > 8 else "")


def fonts_hint(chars: str, game: Game | None, rules: bool = False) -> str:
    """The pack's fonts (the shipped DejaVu faces and its own) and which of them have ``chars``;
    how to print in one: ``font:`` in the layout, or (``rules``) ``rules: true`` in game.yaml."""
    from cardforge.model.typefaces import FONTS, FAMILIES, label

    faces = list(FONTS)
    for font in (game.fonts.values() if game is not None else ()):
        faces += [f for f in dict.fromkeys(FAMILIES[font.key])]
    having = [label(f) for f in faces if all(ord(ch) in font_chars(f) for ch in chars)]
    it = "it" if len(chars) == 1 else "them"
    use = ("the rules documents print in a pack font given `rules: true` under `fonts:` in game.yaml" if rules
           else "name it with `font:` in the layout (a pack's own font is declared under `fonts:` in game.yaml)")
    if having:
        return f"the pack's fonts: {', '.join(label(f) for f in faces)}; {', '.join(having)} " \
               f"{'has' if len(having) == 1 else 'have'} {it}: {use}"
    then = "give it `rules: true`" if rules else "name it with `font:` in the layout"
    return (f"the pack's fonts: {', '.join(label(f) for f in faces)}; none of them has {it}: declare a TrueType "
            f"font that has {it} under `fonts:` in game.yaml and {then} (docs/hostile-input.md: Fonts for other scripts)")


def report(text: str, faces: Iterable[str], what: str, game: Game | None, where: dict, base: str = "",
           rules: bool = False) -> list[Diagnostic]:
    """One ``glyph-missing`` for the characters of ``text`` that ``faces`` cannot print."""
    from cardforge.model.typefaces import label

    gone = missing(text, faces)
    if not gone:
        return []
    chars = "".join(dict.fromkeys(ch for _, ch in gone))
    names = sorted({label(f) for f in faces})
    return [diag(GLYPH_MISSING, f"{what} has {len(chars)} character{'s' if len(chars) != 1 else ''} the "
                 f"font{'s' if len(names) > 1 else ''} {', '.join(names)} cannot print ({shown(chars)}); "
                 "they would print as empty boxes", hint=(base + "; " if base else "") + fonts_hint(chars, game, rules),
                 **where)]


def rules_faces(game: Game) -> dict[str, str]:
    """Built-in face -> the face the rules documents print it in (a pack font of ``rules: true``)."""
    from cardforge.model.typefaces import FAMILIES

    font = next((f for f in game.fonts.values() if f.rules), None)
    names = ("sans", "sans-bold", "sans-italic", "serif-bold")
    if font is None:
        return {n: n for n in names}
    regular, bold, italic, _ = FAMILIES[font.key]
    return {"sans": regular, "sans-bold": bold, "sans-italic": italic, "serif-bold": bold}


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found = _icon_elements(game, layouts)
    found += _layout_templates(game, layouts)
    found += _rules_sources(game)
    found += _game_strings(game)
    for name, icon in game.icons.items():
        if icon.svg is None and icon.text is not None and not icon.text.strip():
            found.append(diag(GLYPH_MISSING, f"icon {name!r} is drawn as the text {icon.text!r}, which prints nothing",
                              hint="give it a character to print, or an SVG (`svg:`)", file=game.source.file,
                              line=game.source.line("icons", name, "text"),
                              column=game.source.column("icons", name, "text")))
    return found


def _icon_elements(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    """Text icons drawn by ``icon`` elements, in the element's bold face, at its line."""
    from cardforge.model.typefaces import styled

    if layouts is None:
        return []
    found: dict[tuple, list[Diagnostic]] = {}
    for card in game.cards:
        layout = layouts.by_type.get(card.type)
        if layout is None:
            continue
        sides = [(layout.front, lambda: common.front(card, game))]
        back_id = back_of(card, game)
        back = layout.back if back_id == "own" else layouts.back(back_id)
        if back is not None:
            sides.append((back, lambda: common.back(card, game)))
        for face, context in sides:
            for el in face.elements:
                if not kind_of(el).whole_icons:
                    continue
                try:
                    ctx = context()
                    if not memo.holds(el.when, ctx):
                        continue
                    names = kind_of(el).icons(el, ctx)
                except (TemplateError, TemplateFailure, BudgetExceeded, TypeError, ValueError, KeyError, AttributeError):
                    continue  # reported by the faces family
                for name in names:
                    icon = game.icons.get(name.strip())
                    key = (el.line, el.name, name.strip())
                    if icon is None or icon.svg is not None or not icon.text or key in found:
                        continue
                    at = game.source.line("icons", icon.name, "text")
                    found[key] = report(icon.text, {styled(el.style.font, True, False)},
                                        f"{card.label}: the layout element {el.name!r} draws the "
                                        f"text icon {icon.name!r} ({icon.text!r}, game.yaml line {at}), which",
                                        game, dict(file=layouts.file, line=el.line, card=card.name))
    return [d for ds in found.values() for d in ds]


def _layout_templates(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    """What a text element's template writes itself (``"↘"``, ``"{coin} {{ card.cost }}"``),
    in the element's font (``**bold**`` in its bold, ``*italic*`` in its italic, a text
    icon's token in its bold), at the element's line. What it prints from card data is
    checked where the data is written (:mod:`cardforge.checks.text`)."""
    from cardforge.model.typefaces import styled

    if layouts is None:
        return []
    sides = [f for lay in layouts.by_type.values() for f in (lay.front, lay.back) if f] + list(layouts.backs.values())
    found: dict[tuple, list[Diagnostic]] = {}
    for face in sides:
        for el in face.elements:
            kind = kind_of(el)
            templates = [t for _, t in kind.templates_of(el, "template")] if kind.sets_text else []
            if not templates or (el.line, el.name) in found:
                continue
            font = el.style.font
            pieces = []
            for template in templates:
                pieces += [(m.group(1), styled(font, True, False)) if m.group(1) is not None
                           else (m.group(2), styled(font, False, True)) for m in _SPANS.finditer(template)]
                pieces.append((_SPANS.sub("", template), font))
                pieces += [(game.icons[n].text, styled(font, True, False)) for n, _ in icons_in(template)
                           if n in game.icons and game.icons[n].svg is None and game.icons[n].text]
            found[(el.line, el.name)] = [d for text, face_ in pieces if text and not text.isascii()
                                         for d in report(text, {face_}, f"the template of the layout element {el.name!r}",
                                                         game, dict(file=layouts.file, line=el.line))]
    return [d for ds in found.values() for d in ds]


def _rules_sources(game: Game) -> list[Diagnostic]:
    from cardforge.documents.source import SOURCES, source_path

    faces = rules_faces(game)
    found = []
    for kind in SOURCES:
        markdown, _ = common.rules_source(game, kind)
        path = source_path(game, kind)
        if markdown is None or not os.path.isfile(path):
            continue
        try:
            raw = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue  # reported by the rules-source family
        name = display_path(path)
        seen: set[tuple] = set()
        for line in markdown.splitlines():
            for text, face in _set_in(line, faces, game.icons):
                for _, ch in missing(text, {face}):
                    at = _source_line(raw, ch)
                    if at and (at, face) not in seen:
                        seen.add((at, face))
                        found += report(raw[at - 1], {face}, f"{SOURCES[kind]} line {at}", game,
                                        dict(file=name, line=at), base="it prints in the rules documents", rules=True)
        found += _rules_tokens(raw, name, kind, faces, game)
    return found


def _set_in(line: str, faces: dict[str, str], icons: dict[str, Icon]) -> Iterator[tuple[str, str]]:
    """The pieces of one rendered Markdown line with the face each prints in (text icons left out)."""
    line = re.sub(r"\{([a-z0-9-]+)\}", lambda m: "" if m.group(1) in icons else m.group(0), line)
    stripped = line.lstrip()
    if stripped.startswith(("# ", "## ")):
        yield stripped.lstrip("#"), faces["serif-bold"]
        return
    if stripped.startswith("#"):
        yield stripped.lstrip("#"), faces["sans-bold"]
        return
    for m in _SPANS.finditer(line):
        yield (m.group(1), faces["sans-bold"]) if m.group(1) is not None else (m.group(2), faces["sans-italic"])
    yield _SPANS.sub("", line), faces["sans"]


def _source_line(raw: list[str], ch: str) -> int:
    return next((n for n, text in enumerate(raw, 1) if ch in text), 0)


def _rules_tokens(raw: list[str], name: str, kind: str, faces: dict[str, str], game: Game) -> list[Diagnostic]:
    """Text icons a rules source writes as ``{name}`` or ``icon('name')``: their text in bold."""
    from cardforge.documents.source import SOURCES

    found = []
    for n, text in enumerate(raw, 1):
        names = {name_ for name_, _ in icons_in(text)} | set(_ICON_CALL.findall(text))
        for icon_name in sorted(names):
            icon = game.icons.get(icon_name)
            if icon is not None and icon.svg is None and icon.text:
                found += report(icon.text, {faces["sans-bold"]},
                                f"{SOURCES[kind]} line {n} prints the text icon {icon_name!r} ({icon.text!r}), which",
                                game, dict(file=name, line=n, column=text.find(icon_name)), rules=True)
    return found


def _game_strings(game: Game) -> list[Diagnostic]:
    """Strings of game.yaml the PDFs print, at their lines."""
    src = game.source
    found = []
    for path, text in _strings(game.data, ()):
        if path[0] in NOT_PRINTED or (path[0] == "card_types" and "schema" in path) or path[-1] in ("svg", "color", "glyph"):
            continue
        if path[0] == "icons" and path[-1] == "text":
            icon = game.icons.get(str(path[1]))
            if icon is None or icon.svg is not None or not icon.legend:
                continue  # an icon left out of the legend prints where cards, layouts and rules use it
            faces = {rules_faces(game)["sans-bold"]}
        elif path == ("game", "title"):
            faces = {rules_faces(game)["serif-bold"], rules_faces(game)["sans"]}
        else:
            faces = {rules_faces(game)["sans"], rules_faces(game)["sans-bold"]}
        found += report(text, faces, f"game.yaml `{'/'.join(map(str, path))}`", game,
                        dict(file=src.file, line=src.line(*path), column=src.column(*path)),
                        base=f"the {'icon legend of the ' if path[0] == 'icons' else ''}rules documents print"
                             f"{'s' if path[0] == 'icons' else ''} it", rules=True)
    return found


def _strings(value: Any, path: tuple) -> Iterator[tuple[tuple, str]]:
    if isinstance(value, str):
        if path and not value.isascii():
            yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _strings(item, path + (i,))
