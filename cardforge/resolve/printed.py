"""What a build prints of each card, as data: its fields and a digest of its printed faces.

:func:`snapshot` records, for every card of a compiled game, its fields as printed (errata
applied, computed fields worked out), where each is written (file and line), and a
SHA-256 of everything else its front and back print from (:func:`face_digests`). Two
snapshots compared field by field say which cards were added, removed or changed; two
cards with equal fields but different face digests "print differently" (their layout, a
back, an icon, a piece of art, a font or game.yaml changed).

The face digest of a card holds: its layout (trim, bleed, safe area, shape and every
element of its front and of the back it prints, without their line numbers, so moving a
layout's lines is no change), the game.yaml entry of its back, game.yaml itself (templates
see it; its ``build:`` defaults and ``odds:`` are left out: they print on no card), the
pack fonts, the SVG of every icon, the art files the card's own fields name, and every
other file of the pack that is no card file, no errata and no rules source (shared art
and pictures). It does not hold cardforge's own version: an upgrade of cardforge is no
change to the cards.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardforge.resolve.face import back_face
from cardforge.sandbox.choice import back_of

if TYPE_CHECKING:
    from cardforge.layout import Face, LayoutSet
    from cardforge.model import Card, Game

FORMAT = 1  # bump when what a snapshot holds changes meaning
_NOT_PRINTED = ("build", "odds")  # game.yaml keys no card face prints
_NOT_ON_CARDS = {".md"}  # rules sources, ERRATA.md
_NOT_ON_CARDS_NAMES = {"errata.yaml"}


def plain(value: Any) -> Any:
    """``value`` as JSON holds it (dates and other values as their text)."""
    return json.loads(json.dumps(value, sort_keys=True, default=str))


def _digest(path: Path) -> bytes:
    from cardforge.cache.files import file_digest

    return file_digest(path)


def _face_repr(face: Face | None) -> str:
    if face is None:
        return "-"
    return repr(replace(face, elements=tuple(replace(el, line=0) for el in face.elements)))


def _named_files(value: Any, root: Path) -> list[Path]:
    """The files of the pack in ``root`` that the strings in ``value`` name (art paths)."""
    found = []
    if isinstance(value, str):
        if 0 < len(value) < 300 and "\n" not in value and "." in value:
            try:
                path = (root / value).resolve()
                if path.is_file() and path.is_relative_to(root.resolve()):
                    found.append(path)
            except (OSError, ValueError):
                pass
    elif isinstance(value, dict):
        for item in value.values():
            found += _named_files(item, root)
    elif isinstance(value, list):
        for item in value:
            found += _named_files(item, root)
    return found


def face_digests(game: Game, layouts: LayoutSet) -> dict[int, str]:
    """The face digest (hex SHA-256, see the module's docstring) of each card of ``game``,
    by the card's index in ``game.cards``."""
    from cardforge.cache.files import input_files
    from cardforge.sources.load import NOT_CARD_FILES

    root = game.root
    named = {i: _named_files(card.data, root) for i, card in enumerate(game.cards)}
    art = {p for paths in named.values() for p in paths}
    card_files = {(root / f).resolve() for f in game.card_files} if game.card_files else set()
    shared = hashlib.sha256(f"{FORMAT}".encode())
    shared.update(json.dumps(plain({k: v for k, v in game.data.items() if k not in _NOT_PRINTED}),
                             sort_keys=True).encode())
    for name, icon in sorted(game.icons.items()):
        shared.update(f"\0icon {name} {icon.text!r}".encode() + (_digest(icon.svg) if icon.svg else b""))
    for name, font in sorted(game.fonts.items()):
        shared.update(f"\0font {name} {font.digest}".encode())
    shared.update(repr(sorted(layouts.fonts.items())).encode())
    for path in input_files(root):
        resolved = path.resolve()
        if (path.parent == root and (path.suffix in (".yaml", ".csv", ".xlsx", ".json") or path.name in NOT_CARD_FILES)
                or path.suffix in _NOT_ON_CARDS or path.name in _NOT_ON_CARDS_NAMES or resolved in card_files
                or resolved in art):
            continue
        shared.update(b"\0" + path.relative_to(root).as_posix().encode() + b"\0" + _digest(path))
    base = shared.hexdigest()
    digests = {}
    faces: dict[int, bytes] = {}  # id(face) -> its repr: most cards share a face (every face outlives the loop)

    def face_repr(face: Face | None) -> bytes:
        if id(face) not in faces:
            faces[id(face)] = _face_repr(face).encode()
        return faces[id(face)]

    for i, card in enumerate(game.cards):
        layout = layouts.for_card(card)
        back_id = back_of(card, game)
        h = hashlib.sha256(base.encode())
        h.update(json.dumps(plain([card.type, card.data]), sort_keys=True).encode())
        h.update(repr((layout.size, layout.bleed, layout.safe, layout.shape, layout.corner)).encode())
        h.update(face_repr(layout.front))
        h.update(face_repr(back_face(card, game, layouts)))
        h.update(json.dumps(plain([back_id, game.backs.get(back_id)]), sort_keys=True).encode())
        for path in named[i]:
            h.update(b"\0" + path.relative_to(root.resolve()).as_posix().encode() + b"\0" + _digest(path))
        digests[i] = h.hexdigest()
    return digests


def card_key(card: Card) -> str:
    """How a card is told apart from the others across versions: its type and name
    (:attr:`Card.id`). A card renamed is one removed and one added."""
    return card.id


def snapshot(game: Game, layouts: LayoutSet) -> dict[str, Any]:
    """What the deck of ``game`` prints, card by card: ``{"format", "game", "cards": [{"key",
    "name", "type", "quantity", "fields" (name -> value, as printed), "file", "line",
    "lines" (field -> line), "face" (the face digest)}]}``, in deck order. Card files are
    named as diagnostics name them (relative to the working folder)."""
    digests = face_digests(game, layouts)
    cards = []
    for i, card in enumerate(game.cards):
        lines = {}
        for name in card.data:
            try:
                lines[name] = card.source.line(name)
            except (KeyError, IndexError, TypeError, ValueError):
                lines[name] = card.source.line()
        cards.append({"key": card_key(card), "name": card.name, "type": card.type, "quantity": card.quantity,
                      "fields": plain(card.data), "file": card.source.file, "line": card.source.line(),
                      "lines": lines, "face": digests[i]})
    return {"format": FORMAT, "game": game.slug, "cards": cards}
