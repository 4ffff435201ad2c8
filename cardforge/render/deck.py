"""The deck PDF: every card of a game, fronts and backs, imposed for duplex printing.

Cards are laid out in database order (card files by name, cards in file order), each
repeated ``quantity`` times, grouped by trim size; each sheet of fronts is followed by its
sheet of backs with every back behind its own front (see :mod:`cardforge.render.sheet`).
A card type whose ``back`` is ``own`` prints its layout's ``back:`` face (for example the
teal side of a double-sided card); other types print the shared back named by ``back``.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING
from cardforge.util.i18n import gettext
from cardforge.util.diagnostics import SHEET_TIGHT

if TYPE_CHECKING:  # drawing modules are imported when a deck is drawn: DeckOptions alone stays light
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.util.diagnostics import Diagnostic
    from cardforge.layout import LayoutSet
    from cardforge.model import Card, Game
    from cardforge.resolve.face import Contexts
    from cardforge.render.pagecache import PageStore
    from cardforge.render.sheet import Sheet


@dataclass(frozen=True)
class DeckOptions:
    """How a deck is printed at home.

    ``paper``: "letter" or "a4"; ``orientation``: "auto", "portrait" or "landscape";
    ``flip``: the duplex edge, "long" or "short"; ``gutter``: pt between cards (None: chosen
    per sheet, see :func:`~cardforge.render.sheet.impose`; bleed shows in up to half of it);
    ``fit``: "cards" (most cards a sheet) or "marks" (full bleed between cards and crop marks
    clear of it, fewer cards where needed); ``shift``: (dx, dy) pt moving every back to
    correct a printer's measured duplex offset; ``ink_saver``: no full-bleed backgrounds;
    ``cut_guides``: a thin rounded-corner cut line on every trim (always on for round tokens);
    ``sides``: "both" (each fronts page followed by its backs page, for duplex), "fronts" or
    "backs" (one side only, for printers without duplex: print the fronts, turn the stack
    over on the ``flip`` edge, feed it again and print the backs).
    """

    paper: str = "letter"
    orientation: str = "auto"
    flip: str = "long"
    gutter: float | None = None
    shift: tuple[float, float] = (0.0, 0.0)
    ink_saver: bool = False
    cut_guides: bool = False
    fit: str = "cards"
    sides: str = "both"
    version_mark: str = ""  # printed small and grey in a free corner of each front's safe area (see version_mark)


def copies(game: Game) -> list[Card]:
    """Every physical card, in deck order (a card with quantity 3 appears 3 times)."""
    return [card for card in game.cards for _ in range(card.quantity)]


def render_deck(game: Game, layouts: LayoutSet, out: Path, options: DeckOptions = DeckOptions(),
                progress: Callable[[int], None] | None = None, page_store: PageStore | None = None, jobs: int = 1) -> int:
    """Write the deck PDF of ``game`` to ``out``; returns the number of pages.

    ``progress`` is called with the number of cards drawn after each sheet.
    A card larger than the paper (a board) is tiled across pages with overlap and alignment
    marks (see :mod:`cardforge.render.tiles`), its front tiles then its back tiles.
    ``page_store``: the page cache; a sheet whose cards and inputs it holds is written from it,
    and each sheet drawn is stored in it (see :mod:`cardforge.render.pagecache`). ``jobs``: with
    more than one, the sheets to draw are shared out among that many processes (forked, see
    :func:`_pool`).
    The PDF is byte-identical whatever ``page_store`` holds and whatever ``jobs`` is.
    """
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.sandbox.budget import budget_session
    from cardforge.render import fonts
    from cardforge.render import pagecache as page_cache

    units = plan(game, layouts, options)
    stored: set[int] = set()
    if page_store is not None:
        for i, unit in enumerate(units):
            if unit.batch is not None:
                unit.key = page_cache.sheet_key(page_store.context, unit.label, unit.sheet, options, unit.batch)
                if page_store.has(unit.key):
                    stored.add(i)
    missing = [i for i, unit in enumerate(units) if unit.batch is not None and i not in stored]
    canvas = Canvas(str(out), invariant=1, pageCompression=1, initialFontName=fonts.pdf_name("sans"))
    canvas.setTitle(f"{game.title}: deck")
    canvas.setAuthor(game.meta.get("designer", ""))
    canvas.setCreator("cardforge")
    page_cache.prepare(canvas, page_cache.deck_fonts(layouts))
    drawer = _Drawer(canvas, game, layouts, options)
    finish_pool, drawn_elsewhere = _pool(game, layouts, options, units, missing, jobs)
    try:
        with budget_session():  # every card's templates run on the budget: its alarm handler installed once
            pages_out = _write(canvas, drawer, units, page_store, stored, drawn_elsewhere, progress)
    finally:
        if finish_pool is not None:
            finish_pool()
    page_cache.save(canvas, out)
    if page_store is not None:
        page_store.prune(keep_others=3 * len(units))
    return pages_out


def _write(canvas: Canvas, drawer: _Drawer, units: list[Unit], page_store: PageStore | None, stored: set[int],
           drawn_elsewhere, progress: Callable[[int], None] | None) -> int:
    """Every unit of the deck on ``canvas``: replayed from the page cache or from a worker,
    or drawn here (and stored); returns the pages written."""
    from cardforge.render import pagecache as page_cache

    pages_out, cards = 0, 0
    for i, unit in enumerate(units):
        rec = (page_store.get(unit.key) if i in stored else None) or drawn_elsewhere(i)
        if rec is not None and rec.fits(canvas):
            for page in rec.pages:
                page_cache.replay(canvas, page, lambda name, specs=rec.specs: drawer.stamp.define(name, specs[name]))
        else:
            rec = drawer.unit(unit)
        if page_store is not None and rec is not None and i not in stored:
            page_store.put(unit.key, rec)
        pages_out += unit.pages
        cards += unit.cards
        if progress:
            progress(cards)
    return pages_out


@dataclass
class Unit:
    """What the deck prints next: one sheet (``batch``: its cards, fronts page then backs
    page) or one board (``board``: the card, tiled); ``label`` is the sheet's page label."""

    group: tuple
    cards: int
    pages: int
    batch: list[Card] | None = None
    board: Card | None = None
    sheet: Sheet | None = None
    tiling: object = None
    label: str = ""
    key: str = ""


def plan(game: Game, layouts: LayoutSet, options: DeckOptions) -> list[Unit]:
    """The deck's sheets and boards in print order (see :func:`card_groups`)."""
    from cardforge.render import tiles
    from cardforge.render.sheet import ImpositionError

    groups = card_groups(game, layouts)
    sheets, boards = {}, {}
    for key in groups:
        try:
            sheets[key] = sheet_for(key, options)
        except ImpositionError:  # larger than the paper: a board, tiled across pages
            boards[key] = tiles.plan(options.paper, key[0], options.orientation)
    sheets_total = sum(-(-len(cards) // sheets[key].per_sheet) for key, cards in groups.items() if key in sheets)
    sides = 2 if options.sides == "both" else 1
    from cardforge.model import DESIGNED_NOTE
    from cardforge.resolve.marks import may_mark

    units, sheet_no = [], 0
    for key, cards in groups.items():
        if key in boards:
            units += [Unit(key, 1, 0, board=card, tiling=boards[key]) for card in cards]
            continue
        sheet = sheets[key]
        for start in range(0, len(cards), sheet.per_sheet):
            batch = cards[start:start + sheet.per_sheet]
            sheet_no += 1
            marked = any(may_mark(card.data, layouts.for_card(card)) for card in batch)
            note = f" · {gettext(DESIGNED_NOTE)}" if marked else ""  # once on each sheet whose fronts print a †
            units.append(Unit(key, len(batch), sides, batch=batch, sheet=sheet,
                              label=f"{game.title} · deck · sheet {sheet_no} of {sheets_total}{note}"))
    return units


class _Drawer:
    """Draws units on one canvas, recording the sheets' pages."""

    def __init__(self, canvas: Canvas, game: Game, layouts: LayoutSet, options: DeckOptions,
                 contexts: Contexts | None = None):
        from cardforge.render.icons import IconStamp

        self.canvas, self.game, self.layouts, self.options = canvas, game, layouts, options
        self.stamp = IconStamp(canvas)
        self.stamp.icons = game.icons
        from cardforge.resolve.face import Contexts

        self.contexts = contexts or Contexts(game)
        self.sheets = 0
        self.scratch = False  # a worker's canvas, never saved: its pages are recorded, not kept

    def unit(self, unit: Unit):
        """Draw ``unit``; returns the record of its pages (None for a board, or a sheet that
        cannot be replayed elsewhere)."""
        from cardforge.render import pagecache as page_cache
        from cardforge.render.deckpages import draw_board, draw_side

        c, options = self.canvas, self.options
        if unit.board is not None:
            unit.pages = draw_board(c, unit.tiling, unit.board, self.game, self.layouts, self.stamp, options, self.contexts)
            return None
        self.sheets += 1
        rec: page_cache.Record | None = page_cache.Record()
        sides = []
        if options.sides in ("both", "fronts"):
            sides.append((True, f"{unit.label} · fronts"))
        if options.sides in ("both", "backs"):
            turn = "duplex" if options.sides == "both" else "turn"
            from cardforge.model import DESIGNED_NOTE

            label = unit.label.replace(f" · {gettext(DESIGNED_NOTE)}", "") if sides else unit.label  # the note once
            sides.append((False, f"{label} · backs ({options.flip}-edge {turn})"))
        for front, label in sides:
            c.setPageSize(unit.sheet.paper)
            draw_side(c, unit.sheet, unit.batch, self.game, self.layouts, self.stamp, options, self.contexts,
                  front=front, label=label)
            page = page_cache.finish(c, keep=not self.scratch, specs=self.stamp.specs)
            if page is None:
                rec = None
            elif rec is not None:
                rec.pages.append(page)
        if rec is not None:
            rec.specs = {name: self.stamp.specs[name] for page in rec.pages for name in page.forms}
        return rec


_POOL_JOB: tuple | None = None  # (game, layouts, options, units, the stop flag) in the forked workers
_WORKER_DRAWER: _Drawer | None = None  # a worker's scratch canvas, kept for all its runs
WORKER_SHEETS = 128  # sheets a worker's scratch canvas holds before it starts another
CHUNK_SHEETS = 4  # at most this many consecutive sheets to a worker's run


def _pool(game: Game, layouts: LayoutSet, options: DeckOptions, units: list[Unit], missing: list[int], jobs: int):
    """(a function ending the pool, or None; a function giving the record a pool of
    ``jobs`` - 1 forked processes has drawn for unit ``i`` by the time this process writes
    it, or None). No pool when none can be started (no process to be had).

    The workers draw the sheets ``missing`` in runs of a few consecutive sheets, from the
    back of the deck, while this process writes the deck from the front: a sheet no worker
    has delivered when its turn comes (not drawn yet, being drawn, failed, lost with a
    worker that died, or not replayable) is drawn here. This process never waits for a
    worker while it writes, so a busy machine costs at most the runs being drawn twice
    where the two meet. Ending the pool tells the workers to stop at their next sheet and
    waits for them to leave (at most the sheet each is drawing): no worker is killed, so
    none can die holding a lock of the pool's queues, which would leave the pool waiting for
    it for ever. No pool beside another thread of this process (a program serving pages, a
    notebook): a fork is not safe there (:func:`cardforge.util.processes.fork_safe`), and
    the workers need this process's state, which only a fork gives them."""
    from cardforge.util.processes import fork_safe, worker_started

    if jobs < 2 or len(missing) < 2 * jobs or not fork_safe():
        return None, lambda i: None
    import multiprocessing
    import os
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    global _POOL_JOB
    size = max(1, min(CHUNK_SHEETS, len(missing) // (4 * jobs)))
    chunks = [missing[k:k + size] for k in range(0, len(missing), size)][::-1]
    context = multiprocessing.get_context("fork")
    stop = context.RawValue("b", 0)  # shared memory the workers read before each sheet
    _POOL_JOB = (game, layouts, options, units, stop)
    finished: deque = deque()  # runs the pool's thread has finished, appended as they finish
    before = set(multiprocessing.active_children())
    executor = ProcessPoolExecutor(jobs - 1, mp_context=context, initializer=worker_started, initargs=(os.getpid(),))
    try:  # the workers are forked at the first submit, with _POOL_JOB as it is now
        for chunk in chunks:
            executor.submit(_draw_chunk, chunk).add_done_callback(finished.append)
    except OSError:  # no process to be had (a limit on processes or memory): every sheet is drawn here
        executor.shutdown(wait=True, cancel_futures=True)
        for worker in set(multiprocessing.active_children()) - before:  # forked before a later fork failed
            worker.terminate()  # idle, and its pool abandoned: else it would keep this process from exiting
            worker.join()
        return None, lambda i: None
    finally:
        _POOL_JOB = None
    ready: dict[int, object] = {}

    def drawn(i: int):
        while finished:
            future = finished.popleft()
            if not future.cancelled() and future.exception() is None:  # a worker that died lost its run
                ready.update(future.result())
        for j in [j for j in ready if j < i]:  # drawn here meanwhile
            del ready[j]
        return ready.pop(i, None)

    def finish() -> None:
        stop.value = 1
        executor.shutdown(wait=True, cancel_futures=True)
    return finish, drawn


def _draw_chunk(indices: list[int]) -> dict[int, object]:
    """In a worker: draw the sheets ``indices`` on a scratch canvas, returning their records
    (up to the first that fails: the parent draws that one and the rest itself)."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render import fonts
    from cardforge.render import pagecache as page_cache

    global _WORKER_DRAWER
    game, layouts, options, units, stop = _POOL_JOB
    if _WORKER_DRAWER is None or _WORKER_DRAWER.sheets >= WORKER_SHEETS:  # a fresh scratch canvas now and then
        canvas = Canvas(io.BytesIO(), invariant=1, pageCompression=1, initialFontName=fonts.pdf_name("sans"))
        page_cache.prepare(canvas, page_cache.deck_fonts(layouts))
        _WORKER_DRAWER = _Drawer(canvas, game, layouts, options, _WORKER_DRAWER.contexts if _WORKER_DRAWER else None)
        _WORKER_DRAWER.scratch = True
    from cardforge.sandbox.budget import budget_session

    drawn = {}
    with budget_session():
        drawn.update(_draw_each(indices, units, stop))
    return drawn


def _draw_each(indices: list[int], units: list[Unit], stop) -> dict[int, object]:
    """The records of the sheets ``indices``, up to the first that fails or until the parent
    sets ``stop`` (a shared byte): it has written the deck and waits for this worker."""
    global _WORKER_DRAWER
    drawn = {}
    for i in indices:
        if stop.value:
            break
        try:
            drawn[i] = _WORKER_DRAWER.unit(units[i])
        except Exception:  # noqa: BLE001 - the sheet is left to the parent, which raises the same error where it is reported
            _WORKER_DRAWER = None  # its canvas may be mid-page
            break
    return drawn


def card_groups(game: Game, layouts: LayoutSet) -> dict[tuple, list[Card]]:
    """Every physical card grouped by (trim size, shape, bleed) pt, in deck order: each group
    is imposed on sheets of its own."""
    groups: dict[tuple, list[Card]] = {}
    for card in copies(game):
        layout = layouts.for_card(card)
        groups.setdefault((layout.size, layout.shape, layout.bleed), []).append(card)
    return groups


def sheet_for(key: tuple, options: DeckOptions) -> Sheet:
    """The sheet a group (see :func:`card_groups`) is imposed on with ``options``."""
    from cardforge.render.sheet import impose

    size, shape, bleed = key
    return impose(options.paper, size, bleed=bleed, shape=shape, gutter=options.gutter,
                  orientation=options.orientation, fit=options.fit)


def sheet_notes(game: Game, layouts: LayoutSet, options: DeckOptions) -> list[Diagnostic]:
    """A ``sheet-tight`` warning for each card size whose sheet cannot give printable crop
    marks or bleed between cards, naming the user's choices."""
    from cardforge.util.diagnostics import diag
    from cardforge.util.units import MM

    from cardforge.render.sheet import ImpositionError

    notes = []
    for key in card_groups(game, layouts):
        try:
            sheet = sheet_for(key, options)
        except ImpositionError:  # a board: tiled, not imposed
            continue
        why = sheet.tight()
        if not why:
            continue
        roomy = sheet_for(key, replace(options, fit="marks", gutter=None))
        other = "a4" if options.paper == "letter" else "letter"
        alt = sheet_for(key, replace(options, paper=other))
        choices = [f"--fit marks prints {roomy.per_sheet} a sheet with full bleed and printable marks"]
        if not alt.tight():
            choices.append(f"--paper {other} prints {alt.per_sheet} a sheet with both")
        notes.append(diag(SHEET_TIGHT,
                          f"{game.slug}: {sheet.cols} x {sheet.rows} cards of {key[0][0] / MM:.1f} x {key[0][1] / MM:.1f} mm "
                          f"on {options.paper}: {'; '.join(why)}",
                          hint="; ".join(choices), file=layouts.file))
    return notes
