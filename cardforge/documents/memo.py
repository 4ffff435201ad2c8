"""What building a game's rules documents learnt, kept for its next build.

Laying out rules.pdf, rulebook.pdf, reference.pdf and rulebook.html involves work whose
answers rarely change when one card is edited. Two kinds of answer are kept, each in one
place:

* **pure results**, a function of their key alone, in the user caches
  (:mod:`cardforge.cache.kept`), so that every build with the same inputs uses them, a
  ``--no-cache`` build and another project of the same pack too:

  - the **type size** at which the rules sheet and the helper sheet fit (several trial
    layouts each), under a key of everything the search depends on (:func:`size_key`: the
    text laid out, how its icons print, the paper, the fonts, the words cardforge adds,
    cardforge's version), in :data:`~cardforge.cache.registry.TYPE_SIZES`;
  - rulebook.html's **pictures**, in :data:`~cardforge.cache.registry.CARD_PICTURES`: each
    card's, under a key of its fields and everything else that draws it
    (:func:`cardforge.documents.webfaces.card_faces`), and the anatomy figures, under a key
    of their sample cards' fields, their callouts and the same
    (:func:`cardforge.documents.anatomy.anatomy_pictures`);

* a **page guess**, the rulebook's contents as its project's last build found them, in a
  :class:`Memo` (``output/.cache/<slug>/rules/``, one small JSON file per kind of answer,
  the newest :data:`KEEP` answers each; not read or written by ``cardforge build
  --no-cache``), kept per paper and cardforge version, and as a build of the same book
  found them, in :data:`~cardforge.cache.registry.CONTENTS_PAGES` (under
  :func:`cardforge.documents.rulebook.contents_key`; read when the project has no guess,
  ``--no-cache`` included): the next build lays its document out once with the guess and
  keeps the result only when the pages it finds are the pages it guessed, which is then
  exactly the document a build without the guess writes; otherwise it builds as if there
  were no guess.

Each file is written to a temporary file and renamed into place, so a crash leaves the
previous answers or none; an unreadable file is a miss. A reference.pdf laid out at a
kept size is checked in the finished document (its helper sheet must fill one page) and
fitted again when it does not.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cardforge.cache import write_atomic
from cardforge.cache.files import sweep_crashed

KEEP = 4  # answers kept per kind: the current inputs' and a few to undo to
SHEETS_KEPT = 100  # rules sheets in the user cache (about 130 kB each)


class Memo:
    """Answers kept in ``folder`` (``output/.cache/<slug>/rules``), by kind and key."""

    def __init__(self, folder: Path):
        self.folder = folder

    @staticmethod
    def key(*parts: object) -> str:
        """SHA-256 of cardforge's version and ``parts`` (JSON: strings, numbers, lists)."""
        from cardforge.cache import fingerprint

        return hashlib.sha256(json.dumps([fingerprint(), *parts], ensure_ascii=False).encode()).hexdigest()

    def _file(self, kind: str) -> Path:
        return self.folder / f"{kind}.json"

    def _read(self, kind: str) -> dict:
        try:
            found = json.loads(self._file(kind).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return found if isinstance(found, dict) else {}

    def get(self, kind: str, key: str) -> object | None:
        """The answer of ``kind`` kept under ``key``, or None."""
        return self._read(kind).get(key)

    def put(self, kind: str, key: str, value: object) -> None:
        """Keep ``value`` (JSON) as the answer of ``kind`` under ``key``, with the newest
        :data:`KEEP` others. Failures are ignored: the memo only ever saves time."""
        value = json.loads(json.dumps(value))  # as it reads back: tuples become lists
        kept = self._read(kind)
        if kept and list(kept)[-1] == key and kept[key] == value:
            return  # already the newest answer
        kept.pop(key, None)
        kept[key] = value
        kept = dict(list(kept.items())[-KEEP:])
        try:
            write_atomic(self._file(kind), json.dumps(kept, ensure_ascii=False).encode("utf-8"))
        except OSError:
            return
        self._sweep()

    def _sweep(self) -> None:
        sweep_crashed(self.folder)


def size_key(kind: str, text: object, icons: dict, paper: object, faces: tuple[str, ...], *more: object) -> str:
    """The key of a type size fitted to ``text`` (``kind``: what is fitted): the text, how
    each icon of ``icons`` (the game's) prints inline (its text, or a picture of a size
    fixed by the type size), the ``paper``, each of the rules ``faces`` by its ReportLab
    name and the SHA-256 of its file (a pack's font of the same name from another file is
    another key), and ``more`` (what else the layout reads: sizes tried, spare panels...)."""
    from cardforge.render import fonts

    shown = sorted((name, icon.text) for name, icon in icons.items())
    used = [(fonts.pdf_name(face), fonts.file_digest(face)) for face in faces]
    return Memo.key(kind, text, shown, paper, used, *more)


def kept_answer(key: str) -> float | dict | None:
    """What a type-size search kept under ``key`` (:func:`size_key`, see :func:`keep_answer`),
    or None."""
    from cardforge.cache import kept
    from cardforge.cache.registry import TYPE_SIZES

    found = kept.get(TYPE_SIZES, key)
    return found if isinstance(found, (float, dict)) else None


def keep_answer(key: str, answer: float | dict) -> None:
    """Keep ``answer`` under ``key`` (:func:`size_key`): the type size (pt) a search found,
    or, when no size fits, what it found instead (a dict of plain values). A misfit is only
    a step of a larger search (the rules sheet tries its text again with tables moved): one
    that is reported is worked out afresh, so its diagnostic is made by the code that finds it."""
    from cardforge.cache import kept
    from cardforge.cache.registry import TYPE_SIZES

    kept.put(TYPE_SIZES, key, answer)


def sheet_key(game, markdown: str, paper: str, shown_as: str) -> str:
    """The key of a rules sheet (rules.pdf) kept whole in the
    :data:`~cardforge.cache.registry.RULES_SHEETS` user cache: everything its layout reads but
    the cards, which it reads only through ``markdown`` (sheet.md rendered over the game's
    data) and whether any printed value is designed. That is the paper, game.yaml's data, the
    card types, each icon with its SVG file's bytes, the pack's fonts (by their files'
    SHA-256), the language with its words, the source of sheet.md, and ``shown_as`` (how
    its diagnostics name sheet.md); the fingerprint, through :func:`cardforge.cache.kept.key`.
    Raises ``OSError`` when sheet.md or an icon's SVG file cannot be read."""
    from cardforge.cache import kept
    from cardforge.documents.playertext import has_designed
    from cardforge.documents.source import source_path

    icons = []
    for icon in game.icons.values():
        icons.append(repr(icon))
        icons.append(hashlib.sha256(icon.svg.read_bytes()).hexdigest() if icon.svg is not None else "")
    source = hashlib.sha256(source_path(game, "sheet").read_bytes()).hexdigest()
    parts = [game.slug, source, repr(game.data), repr(game.card_types), repr(sorted(game.fonts.items())), repr(game.language),
             repr(sorted(game.rules_text.items())), repr(sorted(game.fixed_words.items())),
             repr(sorted(game.field_titles.items())), repr(sorted(game.layout_text.items())), repr(has_designed(game))]
    return kept.key("rules-sheet", markdown, paper, shown_as, *icons, *parts)


def kept_sheet(key: str) -> tuple[bytes, dict, list] | None:
    """The rules sheet kept under ``key`` (:func:`sheet_key`): (its PDF's bytes, what its
    fit found: type size, cells, the tables it moved, its notes), or None."""
    from cardforge.cache import kept
    from cardforge.cache.registry import RULES_SHEETS

    found = kept.get(RULES_SHEETS, key)
    if isinstance(found, tuple) and len(found) == 3 and isinstance(found[0], bytes) and isinstance(found[1], dict):
        return found
    return None


def keep_sheet(key: str, pdf: bytes, fit: dict, notes: list) -> None:
    """Keep a rules sheet that fits, with no error, under ``key`` (see :func:`kept_sheet`)."""
    from cardforge.cache import kept
    from cardforge.cache.registry import RULES_SHEETS

    kept.put(RULES_SHEETS, key, (pdf, fit, notes), keep=SHEETS_KEPT)
