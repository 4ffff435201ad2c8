"""What the preview page shows, kept up to date by one worker thread.

For each game the worker runs the library's pipeline in three steps and publishes after
each, so the page follows an edit as soon as there is something new to show:

1. :func:`cardforge.build.compile_game` (load, errata, validate, check): the diagnostics (in a
   draft, ``--draft`` or the pack's ``build: {draft: true}``, missing art is a warning, as
   ``build`` reports it, and its faces are drawn with the placeholder);
2. the card faces (:class:`~cardforge.serve.images.ImageCache`, only changed cards drawn; at
   a game's first look, the gallery's first cards are drawn and shown before the rest);
3. the incremental build (``output/<slug>/``, :mod:`cardforge.serve.builder`), then its PDFs'
   pages as images.

A game with errors keeps its last good :class:`Snapshot` (faces, pages) beside the new
diagnostics; nothing here parses a pack itself, and no error stops the worker.
"""
from __future__ import annotations

import logging
import os
import queue
import threading
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from cardforge.build import BuildOptions, BuildSettings, Compiled, Project, compile_game, drafted
from cardforge.util.diagnostics import Diagnostic, Severity, sort_key
from cardforge.layout import layout_path
from cardforge.model import Game
from cardforge.serve.builder import Builder
from cardforge.cache.registry import PREVIEWS, give_back
from cardforge.serve.images import TEXT_SUFFIXES, ImageCache, Picture, pack_key

log = logging.getLogger("cardforge.serve")
DOCUMENTS = (("rules.pdf", "Rules sheet"), ("rulebook.pdf", "Rulebook"), ("reference.pdf", "Reference pages"))
FIRST_FACES = 12  # the cards drawn and shown first (about a screenful), before the rest
PDFS = ("deck.pdf",) + tuple(name for name, _ in DOCUMENTS)


@dataclass(frozen=True)
class CardView:
    """One card entry as the page shows it; sizes in pt, ``line``/``end`` 1-based in ``file``."""

    id: str
    name: str
    type: str
    type_label: str
    quantity: int
    provisional: tuple[str, ...]
    file: str
    line: int
    end: int
    fields: tuple[tuple[str, str], ...]
    front: Picture | None
    back: Picture | None
    trim: tuple[float, float]
    bleed: float
    shape: str = "rect"


@dataclass(frozen=True)
class Problem:
    """A :class:`~cardforge.util.diagnostics.Diagnostic` with ``file`` relative to the project and
    the card it is about (``card_id``, "" when none)."""

    diagnostic: Diagnostic
    file: str
    card_id: str

    @property
    def location(self) -> str:
        return self.diagnostic.at(self.file or "<cardforge>", self.diagnostic.line, self.diagnostic.column).location


@dataclass(frozen=True)
class Snapshot:
    """The last good look of a game: its cards with faces and its documents' pages."""

    title: str
    cards: tuple[CardView, ...]
    documents: tuple[tuple[str, str, tuple[Picture, ...]], ...] = ()  # (pdf name, title, pages)


@dataclass
class GameState:
    slug: str
    status: str = "waiting"  # waiting, checking, drawing, building, ready, errors
    snapshot: Snapshot | None = None
    stale: bool = False  # the snapshot predates the current diagnostics' errors
    problems: tuple[Problem, ...] = ()
    internal: str = ""  # an unexpected exception, shown rather than crashing
    version: int = 0
    shown: int = 0  # the version at which the snapshot last changed (a page made before it is out of date)

    @property
    def errors(self) -> int:
        return sum(1 for p in self.problems if p.diagnostic.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for p in self.problems if p.diagnostic.severity is Severity.WARNING)


def card_spans(game: Game) -> dict[str, tuple[int, int]]:
    """``{card.id: (first line, last line)}`` of each card's entry in its file."""
    by_file: dict[str, list] = {}
    for card in game.cards:
        by_file.setdefault(card.source.file, []).append(card)
    spans = {}
    for cards in by_file.values():
        cards.sort(key=lambda c: c.source.line())
        text = cards[0].source.lines.text_lines
        for i, card in enumerate(cards):
            start = card.source.line()
            end = cards[i + 1].source.line() - 1 if i + 1 < len(cards) else len(text)
            while end > start and end <= len(text) and not text[end - 1].strip():
                end -= 1
            spans[card.id] = (start, max(start, end))
    return spans


def _fields(data: dict) -> tuple[tuple[str, str], ...]:
    out = []
    for key, value in data.items():
        if isinstance(value, (str, int, float, bool)):
            out.append((str(key), str(value)))
        elif isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
            out.append((str(key), ", ".join(str(v) for v in value)))
    return tuple(out)


class Workspace:
    """The games being served, the worker thread that checks and draws them, and the
    :class:`~cardforge.serve.builder.Builder` that writes their PDFs.

    ``notify(slug)`` is called (from the worker thread) after each step that changed what a
    game's page shows. All state changes happen on the worker thread.
    """

    def __init__(self, project: Project, slugs: list[str], notify: Callable[[str], None] = lambda slug: None,
                 options: BuildOptions = BuildOptions()):
        self.root = project.root.resolve()
        self.project = project = Project(self.root)
        self.slugs = slugs
        self.games = {slug: GameState(slug) for slug in slugs}
        self.notify = notify
        self.cache = ImageCache(PREVIEWS.folder(project.output))
        self.options = options
        self.builder = Builder(self.root, options, lambda *done: self._queue.put(("built",) + done))
        self._queue: queue.Queue[tuple | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._generation = {slug: 0 for slug in slugs}
        self._checked: dict[str, tuple[list[Diagnostic], Game | None]] = {}
        self.version = 0

    # -- the worker ---------------------------------------------------------------------
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="cardforge-serve-check", daemon=True)
        self._thread.start()
        self.request(self.slugs)

    def stop(self) -> None:
        self._queue.put(None)
        if self._thread:
            self._thread.join(timeout=30)
        self.builder.close()

    def request(self, slugs) -> None:
        """Ask for ``slugs`` to be checked and rebuilt (requests made meanwhile are merged)."""
        for slug in slugs:
            if slug in self.games:
                self._queue.put(("check", slug))

    def _run(self) -> None:
        while True:
            tasks = [self._queue.get()]
            while True:  # merge a burst of saves into one check per game
                try:
                    tasks.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            if None in tasks:
                return
            checks = list(dict.fromkeys(t[1] for t in tasks if t[0] == "check"))
            for task in [t for t in tasks if t[0] == "built"] + [("check", slug) for slug in checks]:
                try:
                    self.check(task[1]) if task[0] == "check" else self.built(*task[1:])
                except Exception as exc:  # a bug must show in the page, not stop the server
                    log.exception("updating %s failed", task[1])
                    self._publish(task[1], status="errors", internal=_one_line(exc))
            if checks:
                give_back()  # what this round's edits left behind in memory

    def _publish(self, slug: str, **changes) -> None:
        with self._lock:
            self.version += 1
            if "snapshot" in changes:
                changes["shown"] = self.version
            self.games[slug] = replace(self.games[slug], version=self.version, **changes)
        self.notify(slug)

    # -- one rebuild --------------------------------------------------------------------
    def check(self, slug: str) -> None:
        """Check ``slug`` and draw its faces (at the first look, the first :data:`FIRST_FACES`
        cards of the gallery first, shown before the rest), then ask the builder for its PDFs."""
        self._generation[slug] += 1
        self._publish(slug, status="checking")
        compiled = compile_game(self.project.cards / slug, self.project)
        if compiled.game is not None and self._draft(compiled.game):  # missing art: a warning and a placeholder
            compiled = replace(compiled, diagnostics=drafted(compiled.diagnostics))
        self._checked[slug] = (compiled.diagnostics, compiled.game)
        problems = self.problems(compiled.diagnostics, compiled.game)
        old = self.games[slug].snapshot
        if not compiled.ok:  # keep the last good faces; before any, show the cards that loaded
            good = old is not None and any(c.front for c in old.cards)
            self._publish(slug, status="errors", problems=problems, stale=good, internal="",
                          snapshot=old if good else self._bare(compiled))
            return
        self._publish(slug, status="drawing", problems=problems, stale=False, internal="")
        game, layouts = compiled.game, compiled.layouts
        layout_file = layout_path(self.project.layouts, slug)
        by_id = {card.id: card for card in game.cards}
        ordered = [by_id[view.id] for view in self._cards(compiled, {})]  # as the gallery shows them
        # the first look at a game shows its first cards as soon as they are drawn; later
        # looks (after an edit) draw every card before showing any, so none blinks out
        first = old is None or not any(c.front for c in old.cards)
        batches = (ordered[:FIRST_FACES], ordered[FIRST_FACES:]) if first else (ordered,)
        faces: dict = {}
        try:
            shared = pack_key(game, layouts, layout_file)
            for n, batch in enumerate(batches):
                if not batch:
                    continue
                faces.update(self.cache.faces(game, layouts, layout_file, batch, shared))
                done = n == len(batches) - 1 or not batches[-1]
                documents = old.documents if old and old.documents else self._documents(slug)
                self._publish(slug, status="building" if done else "drawing",
                              snapshot=Snapshot(game.title, self._cards(compiled, faces), documents))
        except Exception as exc:  # e.g. an icon that does not draw: the build names it, with its line
            log.exception("drawing %s failed", slug)
            self._publish(slug, status="building", stale=old is not None, internal=_one_line(exc))
        self.builder.request(slug, self._generation[slug])

    def _draft(self, game: Game) -> bool:
        """Whether ``game`` is built as a draft: ``--draft``, or its game.yaml ``build: {draft: true}``."""
        options = self.options
        if isinstance(options, BuildSettings):
            try:
                options = options.resolve(game.data.get("build") if isinstance(game.data.get("build"), dict) else None)
            except ValueError:  # a bad build: value, reported by the checks
                return False
        return bool(getattr(options, "draft", False))

    def built(self, slug: str, generation: int, written: list[str] | None, diagnostics: list) -> None:
        """A build of ``slug`` as checked at ``generation`` ended: show its pages, and its
        diagnostics when no newer check has happened since."""
        state = self.games[slug]
        changes: dict = {}
        if written and state.snapshot:
            changes["snapshot"] = replace(state.snapshot, documents=self._documents(slug))
        if generation == self._generation[slug] and not self.builder.busy(slug):
            if written is None:
                changes.update(status="errors", internal=_one_line(diagnostics[0]))
            else:
                checked, game = self._checked[slug]
                known = set(checked)
                extra = [d for d in diagnostics if d not in known]
                changes.update(status="ready" if written and not state.internal else "errors",
                               stale=not written or state.stale,
                               problems=self.problems(checked + extra, game))
                if not written and extra:
                    changes["internal"] = ""  # the build's diagnostics say what went wrong
        if changes:
            self._publish(slug, **changes)

    def _bare(self, compiled: Compiled) -> Snapshot | None:
        """Before any good build: the cards that loaded, without faces."""
        if compiled.game is None:
            return None
        return Snapshot(compiled.game.title, self._cards(compiled, {}), self._documents(compiled.game.slug))

    def _cards(self, compiled: Compiled, faces: dict) -> tuple[CardView, ...]:
        game, layouts = compiled.game, compiled.layouts
        spans = card_spans(game)
        order = {t: i for i, t in enumerate(game.card_types)}
        views = []
        for card in sorted(game.cards, key=lambda c: order.get(c.type, 0)):  # stable: file order within a type
            layout = layouts.by_type.get(card.type) if layouts else None
            front, back = faces.get(card.id, (None, None))
            views.append(CardView(
                id=card.id, name=card.name, type=card.type, type_label=game.card_types[card.type].label,
                quantity=card.quantity, provisional=tuple(str(p) for p in card.provisional),
                file=self.relative(card.source.file), line=spans[card.id][0], end=spans[card.id][1],
                fields=_fields(card.data), front=front, back=back,
                trim=layout.size if layout else (180.0, 252.0), bleed=layout.bleed if layout else 0.0,
                shape=layout.shape if layout else "rect"))
        return tuple(views)

    def _documents(self, slug: str) -> tuple:
        out = self.project.output / slug
        documents = []
        for name, title in DOCUMENTS:
            if (out / name).is_file():
                documents.append((name, title, tuple(self.cache.pages(out / name))))
        return tuple(documents)

    # -- paths --------------------------------------------------------------------------
    def pdfs(self, slug: str) -> list[str]:
        """The PDFs of :data:`PDFS` that ``output/<slug>/`` holds."""
        return [name for name in PDFS if (self.project.output / slug / name).is_file()]

    def has_web_book(self, slug: str) -> bool:
        """Whether ``output/<slug>/`` holds rulebook.html."""
        return (self.project.output / slug / "rulebook.html").is_file()

    def relative(self, file: str) -> str:
        """A diagnostic's or source's file as a path relative to the project root ("" if outside)."""
        if not file:
            return ""
        path = Path(file)
        if not path.is_absolute():
            path = Path(os.getcwd()) / path
        try:
            return path.resolve().relative_to(self.root).as_posix()
        except ValueError:
            return ""

    def problems(self, diagnostics: list[Diagnostic], game: Game | None) -> tuple[Problem, ...]:
        spans = card_spans(game) if game else {}
        by_name = {c.name: c.id for c in reversed(game.cards)} if game else {}
        files = {c.id: self.relative(c.source.file) for c in game.cards} if game else {}
        out = []
        for d in sorted(dict.fromkeys(diagnostics), key=sort_key):
            rel = self.relative(d.file)
            card_id = by_name.get(d.card, "")
            if not card_id and rel and d.line:
                card_id = next((cid for cid, (a, b) in spans.items() if files[cid] == rel and a <= d.line <= b), "")
            out.append(Problem(d, rel, card_id))
        out.sort(key=lambda p: (-int(p.diagnostic.severity), p.file, p.diagnostic.line))
        return tuple(out)

    def files(self, slug: str) -> dict[str, Path]:
        """The pack's text files and its layout file, ``{path relative to the root: path}``:
        the only source files the server shows."""
        allowed = {}
        pack = self.root / "cards" / slug
        candidates = [p for p in pack.rglob("*") if p.suffix.lower() in TEXT_SUFFIXES] if pack.is_dir() else []
        candidates.append(layout_path(self.project.layouts, slug))
        for path in candidates:
            try:
                real = path.resolve(strict=True)
                rel = path.relative_to(self.root).as_posix()
            except (OSError, ValueError):
                continue
            if real.is_file() and real.is_relative_to(self.root):
                allowed[rel] = real
        return allowed


def _one_line(exc: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(exc), exc)).strip().splitlines()[-1]

