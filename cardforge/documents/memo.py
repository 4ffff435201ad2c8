"""What building a game's rules documents learnt, kept for its next build.

Laying out rules.pdf, rulebook.pdf and reference.pdf involves searches whose answers
rarely change when one card is edited: the type size at which the rules sheet and the
helper sheet fit (several trial layouts each), and the page numbers of the rulebook's
contents (a first pass that only learns them; reference.pdf's card index, last in its
document, is made in its one pass). A
:class:`Memo` keeps those answers in ``output/.cache/<slug>/rules/`` (one small JSON
file per kind of answer, the newest :data:`KEEP` answers each):

* a **fitted size** is kept under a key hashed from everything the search depends on
  (:meth:`Memo.key`: the text laid out, the paper, the fonts, cardforge's version), so it
  is only ever read back for the same inputs;
* **card faces** of rulebook.html, kept per card under a key of its fields and of
  everything else that draws it (:func:`cardforge.documents.webfaces.card_faces`), and its
  **anatomy figures**, kept under a key of their sample cards' fields, their callouts and
  the same (:func:`cardforge.documents.anatomy.anatomy_pictures`);
* a **page guess** (the rulebook's contents) is kept per paper and cardforge version: the next
  build lays its document out once with the guess and keeps the result only when the
  pages it finds are the pages it guessed, which is then exactly the document a build
  without the guess writes; otherwise it builds as if there were no guess.

Each file is written to a temporary file and renamed into place, so a crash leaves the
previous answers or none; an unreadable file is a miss. ``cardforge build --no-cache``
uses no memo.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from cardforge.cache import write_atomic
from cardforge.cache.files import prune_newest, sweep_crashed

KEEP = 4  # answers kept per kind: the current inputs' and a few to undo to
FACES = "faces"  # rulebook.html's card faces, <key>-front.webp and <key>-back.webp
KEEP_FACES = 4000  # files: two per card, every pack's cards and a few edits back


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

    def get_faces(self, key: str) -> tuple[bytes, bytes] | None:
        """A card's two faces (front, back: WebP bytes) kept by :meth:`keep_faces` under
        ``key``, or None."""
        try:
            return tuple((self.folder / FACES / f"{key}-{side}.webp").read_bytes() for side in ("front", "back"))
        except OSError:
            return None

    def keep_faces(self, key: str, faces: list[bytes]) -> None:
        """Keep a card's (front, back) WebP bytes under ``key`` (then :meth:`prune_faces`)."""
        try:
            for side, data in zip(("front", "back"), faces):
                write_atomic(self.folder / FACES / f"{key}-{side}.webp", data)
        except OSError:
            return

    def prune_faces(self) -> None:
        """Keep the newest :data:`KEEP_FACES` face files."""
        prune_newest(self.folder / FACES, KEEP_FACES, pattern="*.webp")

    def _sweep(self) -> None:
        sweep_crashed(self.folder)
