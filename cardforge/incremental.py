"""The incremental, parallel build of several games: what ``cardforge build`` and
``cardforge watch`` run, and what a live preview calls (``cardforge check`` runs
:mod:`cardforge.checking`, which reads and writes the same diagnostics entries).

For each game the inputs are hashed first (:mod:`cardforge.cache`); a game whose checks
and outputs are all in the cache is neither loaded nor drawn: its stored diagnostics are
reported and only outputs that differ from the cached bytes are copied back into
``output/<slug>/``. Otherwise the game is compiled, and every output missing from the cache
is rendered. Compiling and rendering run in a pool of ``jobs`` processes (games and
outputs in parallel); the result does not depend on ``jobs``. Every file of a game goes to
a staging folder first and is moved into place only when every output of that game
succeeded (:mod:`cardforge.staging`), but for those asked ``early`` (a watcher's deck), put in
place as soon as drawn. This is the only build: ``build``, ``watch`` and ``serve`` run it.
"""
from __future__ import annotations

import shutil
from collections.abc import Callable
from contextlib import ExitStack
from typing import TYPE_CHECKING
from dataclasses import dataclass, field
from pathlib import Path

from cardforge.build import (BuildOptions, BuildResult, BuildSettings, Compiled, Project, RenderError, artefacts,
                             compile_game, drafted, render_artefact, tasks)
from cardforge.cache import (Entry, Store, artefact_key, inputs_unchanged, load_digests, pack_inputs, same_content,
                             save_digests)
from cardforge.cache.registry import ARTEFACTS, DECK_PAGES, DIGESTS, RULES_MEMO
from cardforge import workers
from cardforge.workers import Progress
from cardforge.checking import checks_entry, checks_key, checks_kept
from cardforge.util.diagnostics import BUILD_FORCED, Diagnostic, has_errors
from cardforge.staging import (OutputError, build_lock, discard, forced, leftovers, place, place_now, placing_failed,
                               prepare, stale_exports, staging_folder, sweep_when_free)

if TYPE_CHECKING:  # imported when a task runs: a build served from the cache runs none
    from concurrent.futures import Future

Checked = Callable[[str, list[Diagnostic]], None]  # (a game's slug, its diagnostics): see build_games
Placed = Callable[[str, Path], None]  # (a game's slug, an output put in place ahead of the rest): see build_games
_CHECKS = checks_entry()  # the cache entry holding a game's diagnostics
_COST = {"deck.pdf": 0, "reference.pdf": 1, "print-shop": 0, "tts": 0}  # slow outputs start first

_RECENT: dict[str, tuple[str, Compiled]] = {}  # slug -> (inputs key, the game last compiled from them)


def build_games(project: Project, packs: list[Path], options: BuildOptions | BuildSettings = BuildOptions(), *,
                force: bool = False, jobs: int = 1, use_cache: bool = True,
                progress: Progress | None = None, only: tuple[str, ...] | None = None,
                deck_jobs: int | None = None, lang: str | None = None, pool: workers.Pool | None = None,
                checked: Checked | None = None, early: tuple[str, ...] = (), placed: Placed | None = None,
                here: bool = False) -> list[BuildResult]:
    """Build the game packs ``packs`` (folders of ``cards/``, see :meth:`Project.packs`) into
    ``project.output``; returns one :class:`BuildResult` per pack, in the order given.

    ``options``: the same :class:`BuildOptions` for every pack, or the :class:`BuildSettings`
    of the command line, which each pack completes with its ``build:`` in game.yaml.

    ``jobs``: processes to use (1: everything in this process; more starts a pool, forked,
    or spawned when this process runs other threads: :func:`cardforge.util.processes.fork_safe`).
    ``use_cache``: False renders every output afresh and neither reads nor writes ``output/.cache``.
    ``progress(slug, cards drawn, cards in all)`` is called as decks are drawn, and with
    the full count for a deck taken from the cache. A game with errors is not built unless
    ``force`` (then with a ``build-forced`` warning). ``only``: the outputs to build (by
    name, see :func:`cardforge.build.artefacts`; the others are left as they are). ``early``:
    outputs put in place as soon as drawn, the others still drawing, and told to ``placed(slug,
    path)`` (a failure after leaves them in place); ``here``: compile and draw ``early`` in this
    process (a watcher's, whose memos hold the last compile) before the pool gets the rest. A
    game compiled by an earlier call in this process from the same inputs is not compiled
    again. ``deck_jobs``: processes a deck's sheets may be drawn by (default ``jobs``).
    ``lang``: a language of the packs' ``languages:`` but their source: each game is built as it
    prints in it (see :func:`cardforge.build.compile_game`) into ``output/<slug>/<lang>/``, uncached.
    ``pool``: a pool the caller keeps across builds (:func:`cardforge.workers.kept_pool`, of
    ``jobs``). ``checked(slug, diagnostics)``: told each game's diagnostics before its outputs.
    Never raises for bad input: every problem is a diagnostic in the results.
    """
    store = Store(project.output) if use_cache and ARTEFACTS.enabled and lang is None else None
    if store and DIGESTS.enabled:
        load_digests(DIGESTS.folder(project.output))
    games = [_Game(pack, project, options, store, only=only, lang=lang, checked=checked, early=early, placed=placed)
             for pack in packs]
    totals = {game.slug: game for game in games}

    def count(slug: str) -> int:
        return totals[slug].total

    own = pool.reuse(progress, count) if pool is not None else workers.pool(jobs, progress, count)
    with ExitStack() as locks, own as pool:
        for game in games:
            game.locks = locks
        running: dict[Future, tuple[_Game, str]] = {}

        def start(game: _Game) -> None:
            if game.compiled is None:
                compiled = game.recent()
                if compiled is None and not here:
                    pool.ready_to_compile()
                    running[pool.submit(_compile, game.pack, project, game.lang)] = (game, _CHECKS)
                    return
                if game.compiled_now(compiled or _compile(game.pack, project, game.lang), force, progress):
                    start(game)
                return
            pool.draw(idle=not running)
            names = tasks(sorted(game.missing, key=lambda n: _COST.get(n, 2)))  # tts+ttpg drawn once
            mine = [name for name in names if here and name in early]  # drawn here and in place before the pool ...
            for name in mine + [name for name in names if name not in mine]:
                runs = workers.Inline(progress, count) if name in mine else pool
                future = runs.submit(_render, game.compiled, name, game.staging, game.options, game.caches(),
                                     deck_jobs or jobs)
                if future.done() and name in early:  # drawn here (or by the one job): in place before the rest
                    ended(game, name, future)
                else:
                    running[future] = (game, name)
            game.record(early=True)  # ... gets the rest: the deck's record is kept while it draws

        def ended(game: _Game, name: str, future: Future) -> None:
            game.rendered_now(name, *future.result())
            if progress and name == "deck.pdf" and game.total:
                progress(game.slug, game.total, game.total)

        for game in workers.largest_first(games, lambda g: g.pack) if jobs > 1 else games:
            if game.plan(force, progress):
                start(game)
        compiles = sum(name == _CHECKS for _, name in running.values())
        if compiles:
            pool.warm_up(compiles)  # what the compiles leave idle gets ready to draw meanwhile
        if running:
            from concurrent.futures import FIRST_COMPLETED, wait
        while running:
            done, _ = wait(running, timeout=0.1, return_when=FIRST_COMPLETED)
            pool.drain()
            for future in done:
                game, name = running.pop(future)
                if name == _CHECKS:
                    if game.compiled_now(future.result(), force, progress):
                        start(game)
                else:
                    ended(game, name, future)
        pool.drain()
        results = [game.finish() for game in games]  # still holding the games' locks
    if store and DIGESTS.enabled:
        save_digests(DIGESTS.folder(project.output))
    return results


@dataclass
class _Game:
    """One game through the incremental build."""

    pack: Path
    project: Project
    options: BuildOptions | BuildSettings  # BuildOptions once the pack's own build: settings are known
    store: Store | None
    only: tuple[str, ...] | None = None
    slug: str = ""
    keys: dict[str, str] = field(default_factory=dict)
    hits: dict[str, Entry] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    notes: dict[str, list[Diagnostic]] = field(default_factory=dict)
    compiled: Compiled | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    errors: list[Diagnostic] | None = None  # set when an output failed
    result: BuildResult | None = None
    staging: Path | None = None
    total: int = 0
    locks: ExitStack | None = None  # where the game's output lock is held (see claim)
    lang: str | None = None  # a translation's language: built into output/<slug>/<lang>/
    inputs: str = ""  # the digest of the inputs the keys were made from (see inputs_unchanged)
    checked: Checked | None = None  # told the diagnostics once they are known (see build_games)
    early: tuple[str, ...] = ()  # outputs put in place as soon as drawn (see build_games) ...
    placed: Placed | None = None  # ... and told to this
    written: list[Path] = field(default_factory=list)  # the outputs put in place so far
    recorded: bool = False  # the deck's record is kept (see record)

    @property
    def target(self) -> Path:
        """The game's output folder: ``output/<slug>/``, or ``output/<slug>/<lang>/`` for a translation."""
        return self.project.output / self.slug / self.lang if self.lang else self.project.output / self.slug

    def __post_init__(self):
        self.slug = self.pack.name
        self.settings = self.options if isinstance(self.options, BuildSettings) else None
        if self.settings is not None:
            self.options = self.settings.resolve()  # which outputs: the command line's, whatever the pack sets
        self.names = [name for name, _ in artefacts(self.options) if self.only is None or name in self.only]

    def settled(self, pack_settings: dict | None, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
        """Complete the options with the pack's ``build:`` settings; returns ``diagnostics``
        as this build reports them (in a draft, missing art is a warning)."""
        if self.settings is not None:
            self.options = self.settings.resolve(pack_settings if isinstance(pack_settings, dict) else None)
        return drafted(diagnostics) if self.options.draft else diagnostics

    def plan(self, force: bool, progress: Progress | None) -> bool:
        """Look the game up in the cache; True when it needs compiling (or rendering)."""
        if self.store is None:
            return True
        try:
            inputs = pack_inputs(self.pack, self.project.layouts)
        except OSError:  # unreadable input: the loader reports it
            self.store = None
            return True
        self.inputs = inputs
        given = self.settings if self.settings is not None else self.options  # game.yaml is among the inputs
        self.keys = {name: artefact_key(inputs, name, given, self.project.output) for name in self.names}
        self.keys[_CHECKS] = checks_key(inputs, self.project)
        checked = self.store.get(self.slug, _CHECKS, self.keys[_CHECKS])
        if checked is not None:
            self.store.touch(self.slug, _CHECKS, self.keys[_CHECKS])
            diagnostics, loaded, self.total, pack_settings = checked.notes
            self.diagnostics = self.settled(pack_settings, diagnostics)
            self.tell()
            if not loaded or (has_errors(self.diagnostics) and not force):  # not built: no output needed
                self.result = BuildResult(self.slug, [], self.diagnostics, loaded=loaded)
                return False
        self.hits = {name: entry for name in self.names if (entry := self.store.get(self.slug, name, self.keys[name]))}
        if checked is None or len(self.hits) < len(self.names):
            return True
        if has_errors(self.diagnostics):
            self.diagnostics = self.diagnostics + [forced(self.slug)]
        if progress:
            progress(self.slug, self.total, self.total)
        return False

    def compiled_now(self, compiled: Compiled, force: bool, progress: Progress | None) -> bool:
        """The game is compiled: store its diagnostics; True when outputs must be rendered."""
        self.compiled = compiled
        kept = bool(self.keys) and inputs_unchanged(self.pack, self.project.layouts, self.inputs)
        if kept:
            _RECENT[self.slug] = (self.keys[_CHECKS], compiled)
        entry = checks_kept(compiled)
        _, loaded, self.total, pack_settings = entry
        if self.store is not None and kept:
            self.store.put(self.slug, _CHECKS, self.keys[_CHECKS], None, entry)
        self.diagnostics = self.settled(pack_settings, list(compiled.diagnostics))
        self.tell()
        if not loaded or (has_errors(self.diagnostics) and not force):
            self.result = BuildResult(self.slug, [], self.diagnostics, loaded=loaded)
            return False
        if has_errors(self.diagnostics):
            self.diagnostics.append(forced(self.slug))
        self.missing = [name for name in self.names if name not in self.hits]
        if progress:
            progress(self.slug, 0 if "deck.pdf" in self.missing else self.total, self.total)
        if self.missing and not self.claim():
            return False
        return bool(self.missing)

    def tell(self) -> None:
        if self.checked is not None:
            self.checked(self.slug, list(self.diagnostics))

    def caches(self) -> tuple[Path, Path] | None:
        """(the output folder, the layouts folder) for the deck page cache and the rules
        memo (:data:`~cardforge.cache.registry.DECK_PAGES`, ``RULES_MEMO``), None without the cache."""
        return (self.store.output, self.project.layouts) if self.store is not None else None

    def claim(self) -> bool:
        """Make ``output/<slug>`` a writable folder, hold its lock until the build ends and
        make the staging folder (:mod:`cardforge.staging`); False, with the result set to the
        diagnostic, when another build holds it or the folder cannot be written."""
        target = self.target
        try:
            prepare(target)
            if self.locks is not None:
                self.locks.enter_context(build_lock(target))
            self.staging = staging_folder(target)
        except OutputError as exc:
            kept = [d for d in self.diagnostics if d.code != BUILD_FORCED]
            self.result = BuildResult(self.slug, [], kept + [exc.diagnostic])
            return False
        return True

    def rendered_now(self, task: str, notes: list[Diagnostic], errors: list[Diagnostic] | None) -> None:
        """A render task (one output, or several: see :func:`cardforge.build.tasks`) ended:
        keep its notes (on its first output) and store each output in the cache."""
        if errors is not None:
            self.errors = (self.errors or []) + errors
            return
        unchanged = self.store is not None and inputs_unchanged(self.pack, self.project.layouts, self.inputs)
        for n, name in enumerate(task.split("+")):
            self.notes[name] = notes if n == 0 else []
            if unchanged:
                produced = self.staging / name
                self.store.put(self.slug, name, self.keys[name], produced if produced.exists() else None, self.notes[name])
        now = [name for name in task.split("+") if name in self.early and (self.staging / name).exists()]
        if now and self.errors is None:
            self.place_early(now)

    def place_early(self, names: list[str]) -> None:
        """Put the staged outputs ``names`` in place ahead of the rest and tell :attr:`placed`."""
        try:
            written = place_now(self.staging, names, self.target, self.slug)
        except OutputError as exc:
            self.errors = (self.errors or []) + [exc.diagnostic]
            return
        self.written += written
        for path in written if self.placed is not None else []:
            self.placed(self.slug, path)

    def finish(self) -> BuildResult:
        """Move the staged outputs into place (or drop them all if one failed)."""
        if self.result is not None:
            return self.result
        self.record(early=True)  # a deck put in place early is described, whatever comes of the rest
        if self.errors is not None:
            if self.staging:
                discard(self.staging)
            kept = [d for d in self.diagnostics if d.code != BUILD_FORCED]
            return BuildResult(self.slug, [], kept + self.errors)
        target = self.target
        current = []
        for name in self.names:
            entry = self.hits.get(name)
            if entry is None or entry.payload is None:
                continue
            self.store.touch(self.slug, name, self.keys[name])
            if not same_content(entry.payload, target / name):
                if self.staging is None and not self.claim():
                    return self.result
                copy = shutil.copytree if entry.payload.is_dir() else shutil.copy2
                copy(entry.payload, self.staging / name)
            else:
                current.append(target / name)
        if self.staging is None and leftovers(target):
            sweep_when_free(target)  # a killed build's staging folder, though nothing is written now
        problems = list(self.diagnostics)
        for name in self.names:
            problems += self.hits[name].notes if name in self.hits else self.notes.get(name, [])
        try:
            if self.staging and any(self.staging.iterdir()):
                self.written += place(self.staging, target)
            elif self.staging:  # everything drawn is in place already
                discard(self.staging)
        except OSError as exc:
            discard(self.staging)
            kept = [d for d in self.diagnostics if d.code != BUILD_FORCED]
            return BuildResult(self.slug, [], kept + [placing_failed(self.slug, target, exc)])
        if "deck.pdf" in self.names:
            self.record()
        problems += stale_exports(self.project.output, self.slug, self.names,
                                  self.keys.get(_CHECKS) if self.store is not None else None)
        return BuildResult(self.slug, sorted(self.written + current), problems,
                           rendered=[n for n in self.names if n not in self.hits],
                           reused=[n for n in self.names if n in self.hits])

    def recent(self) -> Compiled | None:
        """The game as an earlier build in this process compiled it from the same inputs, or None."""
        recent = _RECENT.get(self.slug)
        return recent[1] if recent is not None and self.keys and recent[0] == self.keys[_CHECKS] else None

    def record(self, early: bool = False) -> None:
        """Keep the record of what deck.pdf prints current (``cardforge diff`` without a
        revision compares with it, see :func:`cardforge.reprint.record`), once a build:
        written from the game compiled now, or, when the deck came from the cache without
        compiling and the record describes another deck, from the game compiled for it.
        ``early``: only for a deck put in place ahead of the rest (see :meth:`place_early`)."""
        from cardforge.reprint import record, recorded

        if self.recorded or self.store is None or early and self.target / "deck.pdf" not in self.written:
            return
        self.recorded = True
        output = self.project.output
        compiled = self.compiled
        if compiled is None:
            if recorded(output, self.slug):
                return
            compiled = self.recent() or _compile(self.pack, self.project)
        if compiled.game is not None:
            record(output, compiled)


def _compile(pack: Path, project: Project, lang: str | None = None) -> Compiled:
    return compile_game(pack, project, lang)


def _render(compiled: Compiled, name: str, staging: Path, options: BuildOptions,
            caches: tuple[Path, Path] | None = None, jobs: int = 1) -> tuple[list[Diagnostic], list[Diagnostic] | None]:
    """Render one output; returns (notes, None) or ([], the diagnostics of its failure).
    ``caches``: (the output folder, the layouts folder) of the deck page cache and the rulebook's
    memo (:mod:`cardforge.documents.memo`), or None; ``jobs``: processes drawing the deck's sheets."""
    slug = compiled.game.slug
    queue = workers.progress_queue
    report = (lambda n: queue.put((slug, n))) if queue is not None and name == "deck.pdf" else None
    store = memo = None
    if caches is not None and name == "deck.pdf" and DECK_PAGES.enabled:
        from cardforge.render.pagecache import PageStore, context_digest

        try:
            store = PageStore(DECK_PAGES.folder(caches[0], slug), context_digest(compiled.game.root, caches[1]))
        except OSError:  # an unreadable input: drawn without the page cache
            store = None
    elif caches is not None and name == "rulebook.pdf" and RULES_MEMO.enabled:  # its contents' page numbers
        from cardforge.documents.memo import Memo

        memo = Memo(RULES_MEMO.folder(caches[0], slug))
    try:
        return render_artefact(compiled, name, staging, options, report, page_store=store, jobs=jobs, memo=memo), None
    except RenderError as exc:
        return [], exc.diagnostics
