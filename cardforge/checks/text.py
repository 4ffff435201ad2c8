"""Text: card text that would print wrong, found before printing.

Codes, at the character's line and column in the card file:

``text-control`` (error)
    a control character (other than line break and tab) or a bidirectional override,
    embedding or isolate (U+202A-U+202E, U+2066-U+2069): invisible in an editor, able to
    reorder what a reader sees, and never meant for a printed card.
``glyph-missing`` (error)
    characters that no font of the card's layout can print (emoji, CJK with the shipped
    DejaVu fonts): they would print as empty boxes. The message names the characters, the
    hint the pack's fonts that have them. The fonts are the layout's, with a pack's own
    fonts (game.yaml ``fonts:``) read from their files: a CJK font declared and named by the
    layout prints CJK text. A ``{name}`` token of a text icon (game.yaml ``text:``) prints
    the icon's text in the bold of those fonts, checked at the token. What else prints
    (icon elements, rules sources, game.yaml strings) is :mod:`cardforge.checks.glyphs`.
``icon-unknown`` (error)
    an icon token that is not one: ``{Sun}`` (icon names are lower case) or an unclosed
    ``{sun``.
"""
from __future__ import annotations

import re
import unicodedata

from cardforge.sandbox import results as checkresults
from cardforge.checks.common import TextField, card_texts
from cardforge.checks.glyphs import missing, printable, report
from cardforge.util.diagnostics import ICON_UNKNOWN, TEXT_CONTROL, Diagnostic, diag
from cardforge.elements import kind_of
from cardforge.layout import LayoutSet
from cardforge.model import Card, Game
from cardforge.util.markup import icons_in
from cardforge.util.suggest import did_you_mean

BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A))
# what _control reports: a control character (category Cc: U+0000-U+001F, U+007F-U+009F) but
# line break and tab, or a character of BIDI
_UNSEEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_BAD_TOKEN = re.compile(r"\{(?!\{)([^{}\s]*[A-Z][^{}\s]*)\}|\{([a-z0-9][a-z0-9-]*)(?=[^a-z0-9}-]|$)")


def _faces(card: Card, layouts: LayoutSet | None, field: str) -> set[str]:
    """The fonts that print ``field`` of ``card`` (with their bold and italic faces)."""
    from cardforge.model.typefaces import FAMILIES, FAMILY_OF, known

    faces = set()
    layout = layouts.by_type.get(card.type) if layouts else None
    for face in (layout.front, layout.back) if layout else ():
        for el in face.elements if face else ():
            if kind_of(el).sets_text and (el.field == field or (el.template and f"card.{field}" in el.template)):
                faces.add(el.style.font)
    faces = faces or {"sans"}  # with its bold and italic, which **markup** picks
    return {f for face in faces for f in (FAMILIES[FAMILY_OF[face]] if face in FAMILY_OF else (face,)) if known(f)}


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    found = []
    faces: dict[tuple[str, str], set[str]] = {}  # (card type, field) -> the fonts printing it
    for card in game.cards:
        fields = list(card_texts(card))
        fields.append(TextField(card, ("name",), card.name))
        for field in fields:
            found += _control(field)
            where = (card.type, str(field.path[0]))
            if where not in faces:
                faces[where] = _faces(card, layouts, where[1])
            found += _glyphs(field, faces[where], game)
            found += _icon_glyphs(field, faces[where], game)
            if field.path != ("name",):
                found += _tokens(field, game)
    return found


def _where(field: TextField, offset: int) -> dict:
    line, col = field.position(offset)
    return dict(file=field.card.source.file, line=line, column=col, card=field.card.name)


def _control(field: TextField) -> list[Diagnostic]:
    if not _UNSEEN.search(field.text):  # most texts: no control or direction character
        return []
    for i, ch in enumerate(field.text):
        code = ord(ch)
        if code in BIDI or (unicodedata.category(ch) == "Cc" and ch not in "\n\t"):
            name = unicodedata.name(ch, "control character")
            return [diag(TEXT_CONTROL, f"{field.card.label}: `{'/'.join(map(str, field.path))}` "
                         f"holds U+{code:04X} ({name}), which is invisible and must not be printed",
                         hint="delete the character (retype the text around it)", **_where(field, i))]
    return []


def _glyphs(field: TextField, faces: set[str], game: Game) -> list[Diagnostic]:
    if checkresults.passed(checkresults.glyphs_key(field.text, faces),  # most texts: every character printable
                        lambda: printable(frozenset(faces)).issuperset(map(ord, field.text))):
        return []
    gone = missing(field.text, faces)
    if not gone:
        return []
    return report(field.text, faces, f"{field.card.label}: `{'/'.join(map(str, field.path))}`",
                  game, _where(field, gone[0][0]), base="replace them, or draw them as an icon ({name})")


def _icon_glyphs(field: TextField, faces: set[str], game: Game) -> list[Diagnostic]:
    """A ``{name}`` token of a text icon prints the icon's text in the bold of the field's fonts."""
    from cardforge.model.typefaces import styled

    found = []
    for name, offset in icons_in(field.text) if "{" in field.text else ():
        icon = game.icons.get(name)
        if icon is None or icon.svg is not None or not icon.text:
            continue
        bold = {styled(face, True, False) for face in faces}
        found += report(icon.text, bold, f"{field.card.label}: `{'/'.join(map(str, field.path))}` "
                        f"prints the text icon {{{name}}} ({icon.text!r}), which", game, _where(field, offset))
    return found


def _tokens(field: TextField, game: Game) -> list[Diagnostic]:
    found = []
    for m in _BAD_TOKEN.finditer(field.text):
        upper, unclosed = m.groups()
        if upper is not None:
            if upper.lower() not in game.icons and not re.fullmatch(r"[a-z0-9-]+", upper.lower()):
                continue  # braces used as prose, not a token
            message = f"the icon token {{{upper}}} is not lower case; icon names are written as declared"
            hint = did_you_mean(upper.lower(), game.icons)
        else:
            if unclosed not in game.icons:
                continue
            message = f"the icon token {{{unclosed} is not closed with }}"
            hint = f"write {{{unclosed}}}"
        found.append(diag(ICON_UNKNOWN, f"{field.card.label}: {message}", hint=hint,
                          **_where(field, m.start())))
    return found
