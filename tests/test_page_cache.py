"""The deck's page cache and its sheets drawn by several processes: the same bytes as a
clean, one-process build, and a one-card edit draws only the sheets that hold the card."""
from __future__ import annotations

import shutil
import threading
from dataclasses import replace
from pathlib import Path

import pikepdf
import pytest

from cardforge.build import Project, compile_game
from cardforge.incremental import build_games
from cardforge.render import deck as deck_render
from cardforge.render.deck import plan, render_deck
from cardforge.render.pagecache import PageStore, context_digest
from cardforge.util.processes import fork_safe
from tests.conftest import SHIPPED, make_project

SLUG = "through-the-gate"
DECK = ("deck.pdf",)  # what these tests read: the other outputs are left unbuilt


def _count_drawn(monkeypatch) -> list:
    """Record every sheet or board the deck draws in this process (not replayed)."""
    drawn = []
    original = deck_render._Drawer.unit

    def unit(self, u):
        drawn.append(u)
        return original(self, u)

    monkeypatch.setattr(deck_render._Drawer, "unit", unit)
    return drawn


def _edit_card(pack: Path) -> str:
    """Append a word to the first card with a text block in the pack's first card file;
    returns that card's name."""
    import yaml

    files = sorted(p for p in pack.glob("*.yaml") if p.name not in ("game.yaml", "errata.yaml"))
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        cards = data.get("cards") if isinstance(data, dict) else data
        for card in cards or []:
            if isinstance(card, dict) and isinstance(card.get("text"), str) and card["text"].strip():
                old = card["text"].strip().splitlines()[0]
                text = path.read_text(encoding="utf-8")
                assert old in text
                path.write_text(text.replace(old, old + " again", 1), encoding="utf-8")
                return card["name"]
    raise AssertionError(f"no card with text in {pack}")


def test_a_one_card_edit_draws_only_its_sheets_and_matches_a_clean_build(tmp_path, monkeypatch):
    root = make_project(tmp_path / "work", SLUG)
    project = Project(root)
    packs, _ = project.packs([SLUG])
    [first] = build_games(project, packs, jobs=1, only=DECK)
    assert first.ok and "deck.pdf" in first.rendered
    assert any((root / "output" / ".cache" / SLUG / "deck-pages").glob("*.pickle"))

    name = _edit_card(root / "cards" / SLUG)
    drawn = _count_drawn(monkeypatch)
    [again] = build_games(project, packs, jobs=1, only=DECK)
    assert again.ok and "deck.pdf" in again.rendered

    compiled = compile_game(root / "cards" / SLUG, project)
    units = plan(compiled.game, compiled.layouts, deck_render.DeckOptions())
    holding = [u for u in units if u.batch is not None and any(c.name == name for c in u.batch)]
    assert holding and len(units) > len(holding)
    assert [u.label for u in drawn] == [u.label for u in holding]  # only the edited card's sheets

    clean = make_project(tmp_path / "clean", SLUG)
    shutil.copytree(root / "cards" / SLUG, clean / "cards" / SLUG, dirs_exist_ok=True)
    [fresh] = build_games(Project(clean), Project(clean).packs([SLUG])[0], jobs=1, use_cache=False, only=DECK)
    assert fresh.ok
    ours = (root / "output" / SLUG / "deck.pdf").read_bytes()
    assert ours == (clean / "output" / SLUG / "deck.pdf").read_bytes()
    with pikepdf.open(root / "output" / SLUG / "deck.pdf") as pdf:
        assert len(pdf.pages) == 2 * sum(1 for u in units if u.batch is not None)


@pytest.mark.parametrize("slug", SHIPPED)
def test_deck_is_the_same_bytes_drawn_by_one_or_two_processes_and_from_the_page_cache(tmp_path, slug):
    """Every shipped deck, its cards repeated so that each process draws several sheets."""
    project = Project(make_project(tmp_path, slug))
    compiled = compile_game(project.cards / slug, project)
    game = replace(compiled.game, cards=[replace(c, quantity=c.quantity * 3) for c in compiled.game.cards])
    one, two, cached, replayed = (tmp_path / f"{n}.pdf" for n in ("one", "two", "cached", "replayed"))
    render_deck(game, compiled.layouts, one, jobs=1)
    render_deck(game, compiled.layouts, two, jobs=2)
    store = tmp_path / "pages"
    context = context_digest(project.cards / slug, project.layouts)
    render_deck(game, compiled.layouts, cached, page_store=PageStore(store, context), jobs=2)
    stored = sorted(store.glob("*.pickle"))
    assert stored
    render_deck(game, compiled.layouts, replayed, page_store=PageStore(store, context), jobs=1)
    assert one.read_bytes() == two.read_bytes() == cached.read_bytes() == replayed.read_bytes()


def test_a_damaged_cache_entry_is_a_miss_and_no_cache_writes_none(tmp_path, monkeypatch):
    root = make_project(tmp_path, SLUG)
    project = Project(root)
    packs, _ = project.packs([SLUG])
    build_games(project, packs, jobs=1, use_cache=False, only=DECK)
    assert not (root / "output" / ".cache").exists()  # --no-cache neither reads nor writes it
    clean = (root / "output" / SLUG / "deck.pdf").read_bytes()

    build_games(project, packs, jobs=1, only=DECK)
    entries = sorted((root / "output" / ".cache" / SLUG / "deck-pages").glob("*.pickle"))
    entries[0].write_bytes(entries[0].read_bytes()[:40])  # a torn write under a valid key
    (root / "output" / SLUG / "deck.pdf").unlink()
    shutil.rmtree(root / "output" / ".cache" / SLUG / "deck.pdf")  # the whole deck must be put together again
    drawn = _count_drawn(monkeypatch)
    [result] = build_games(project, packs, jobs=1, only=DECK)
    assert result.ok
    assert len(drawn) == 1  # the damaged sheet, drawn again; the others replayed
    assert (root / "output" / SLUG / "deck.pdf").read_bytes() == clean


def test_a_sheet_that_fails_in_a_worker_fails_the_deck_as_it_does_in_one_process(tmp_path, monkeypatch):
    """The error a build reports (an icon that cannot be drawn) comes out of render_deck,
    whichever process met it first."""
    from cardforge.render.icons import IconError

    project = Project(make_project(tmp_path, SLUG))
    compiled = compile_game(project.cards / SLUG, project)
    game = replace(compiled.game, cards=[replace(c, quantity=c.quantity * 3) for c in compiled.game.cards])
    units = plan(game, compiled.layouts, deck_render.DeckOptions())
    last = units[-1].label  # drawn by the worker with two processes
    original = deck_render._Drawer.unit

    def unit(self, u):
        if u.label == last:
            raise IconError("icon file broken.svg cannot be drawn", Path("broken.svg"))
        return original(self, u)

    monkeypatch.setattr(deck_render._Drawer, "unit", unit)
    for jobs in (1, 2):
        with pytest.raises(IconError, match="broken.svg"):
            render_deck(game, compiled.layouts, tmp_path / f"deck-{jobs}.pdf", jobs=jobs)


def test_sheets_a_worker_delivers_are_written_from_it_and_the_rest_drawn_here(tmp_path, monkeypatch):
    """The process writing the deck never waits: slowed down here, it finds the back of the
    deck drawn by the worker and writes it from there; the bytes are a one-process deck's."""
    import time

    project = Project(make_project(tmp_path, SLUG))
    compiled = compile_game(project.cards / SLUG, project)
    game = replace(compiled.game, cards=[replace(c, quantity=c.quantity * 3) for c in compiled.game.cards])
    units = plan(game, compiled.layouts, deck_render.DeckOptions())
    render_deck(game, compiled.layouts, tmp_path / "one.pdf", jobs=1)
    here = []
    original = deck_render._Drawer.unit

    def unit(self, u):
        if not self.scratch:  # this process, not a worker
            here.append(u.label)
            time.sleep(0.05)
        return original(self, u)

    monkeypatch.setattr(deck_render._Drawer, "unit", unit)
    assert fork_safe(), f"a thread an earlier test left running: {threading.enumerate()}"  # else no worker
    render_deck(game, compiled.layouts, tmp_path / "two.pdf", jobs=2)
    assert 0 < len(here) < len(units)
    assert units[-1].label not in here and units[0].label in here
    assert (tmp_path / "two.pdf").read_bytes() == (tmp_path / "one.pdf").read_bytes()


def _in_child(target) -> tuple[bool, int]:
    """Run ``target`` in a forked child given 120 s: (whether it hung and was killed, its
    exit code), so that a hang fails the test instead of the suite."""
    import multiprocessing

    child = multiprocessing.get_context("fork").Process(target=target)
    child.start()
    child.join(120)
    hung = child.exitcode is None
    if hung:
        child.kill()
        child.join()
    return hung, child.exitcode


@pytest.mark.parametrize("dies", ["first sheet", "last sheet"])
def test_a_worker_killed_mid_deck_leaves_the_deck_whole_and_no_process_behind(tmp_path, monkeypatch, dies):
    """A worker killed outright (out of memory, a signal) while it draws: the sheets it held
    are drawn here, the deck is a one-process deck's bytes, and render_deck returns without
    waiting on the dead worker (run in a child process given 120 s, so that a hang fails
    the test instead of the suite) and leaves no worker running."""
    import multiprocessing
    import os
    import signal

    project = Project(make_project(tmp_path, SLUG))
    compiled = compile_game(project.cards / SLUG, project)
    game = replace(compiled.game, cards=[replace(c, quantity=c.quantity * 3) for c in compiled.game.cards])
    units = plan(game, compiled.layouts, deck_render.DeckOptions())
    render_deck(game, compiled.layouts, tmp_path / "one.pdf", jobs=1)
    fatal = units[-1].label if dies == "first sheet" else units[len(units) // 2].label
    original = deck_render._Drawer.unit

    def unit(self, u):
        if self.scratch and u.label == fatal:  # in a worker only
            os.kill(os.getpid(), signal.SIGKILL)
        return original(self, u)

    def deck() -> None:
        render_deck(game, compiled.layouts, tmp_path / "two.pdf", jobs=2)
        os._exit(1 if multiprocessing.active_children() else 0)

    monkeypatch.setattr(deck_render._Drawer, "unit", unit)
    assert fork_safe(), f"a thread an earlier test left running: {threading.enumerate()}"  # else no worker
    hung, code = _in_child(deck)
    assert code == 0, "render_deck hung on the dead worker" if hung else "workers left running"
    assert (tmp_path / "two.pdf").read_bytes() == (tmp_path / "one.pdf").read_bytes()


def test_a_deck_is_drawn_whole_here_when_no_worker_process_can_be_started(tmp_path, monkeypatch):
    """fork failing (a limit on processes: EAGAIN) costs the deck its second process, not the deck."""
    import os

    project = Project(make_project(tmp_path, SLUG))
    compiled = compile_game(project.cards / SLUG, project)
    game = replace(compiled.game, cards=[replace(c, quantity=c.quantity * 3) for c in compiled.game.cards])
    render_deck(game, compiled.layouts, tmp_path / "one.pdf", jobs=1)
    drawn = _count_drawn(monkeypatch)

    def no_fork():
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    assert fork_safe(), f"a thread an earlier test left running: {threading.enumerate()}"  # else no pool is tried
    render_deck(game, compiled.layouts, tmp_path / "two.pdf", jobs=2)
    assert len(drawn) == len(plan(game, compiled.layouts, deck_render.DeckOptions()))  # every sheet, here
    assert (tmp_path / "two.pdf").read_bytes() == (tmp_path / "one.pdf").read_bytes()


def test_a_fork_that_fails_after_one_worker_started_leaves_no_worker_behind(tmp_path, monkeypatch):
    """Three jobs, the second fork failing: the deck is drawn here, the same bytes, and the
    worker forked first is ended (an idle worker of an abandoned pool would keep the build
    from exiting). Run in a child given 120 s."""
    import multiprocessing
    import os

    project = Project(make_project(tmp_path, SLUG))
    compiled = compile_game(project.cards / SLUG, project)
    game = replace(compiled.game, cards=[replace(c, quantity=c.quantity * 3) for c in compiled.game.cards])
    assert len(plan(game, compiled.layouts, deck_render.DeckOptions())) >= 6  # else no pool of three is tried
    render_deck(game, compiled.layouts, tmp_path / "one.pdf", jobs=1)

    def deck() -> None:
        real, forks = os.fork, []

        def fork_once():
            if forks:
                raise BlockingIOError(11, "Resource temporarily unavailable")
            forks.append(1)
            return real()

        os.fork = fork_once
        render_deck(game, compiled.layouts, tmp_path / "three.pdf", jobs=3)
        os.fork = real
        os._exit(0 if forks and not multiprocessing.active_children() else 1)

    assert fork_safe(), f"a thread an earlier test left running: {threading.enumerate()}"  # else no pool is tried
    hung, code = _in_child(deck)
    assert code == 0, "render_deck hung" if hung else "no fork tried, or a worker left running"
    assert (tmp_path / "three.pdf").read_bytes() == (tmp_path / "one.pdf").read_bytes()


@pytest.mark.parametrize("change", ["icon", "layout", "game"])
def test_a_change_outside_the_card_files_draws_every_sheet_again(tmp_path, monkeypatch, change):
    """An icon file, the layout file or game.yaml: every page is drawn again, none replayed
    from the page cache, and the deck is a clean build's."""
    root = make_project(tmp_path / "work", SLUG)
    project = Project(root)
    packs, _ = project.packs([SLUG])
    build_games(project, packs, jobs=1, only=DECK)
    pack = root / "cards" / SLUG
    if change == "icon":
        svg = pack / "icons" / "compassion.svg"
        svg.write_text(svg.read_text(encoding="utf-8").replace("</svg>", '<circle cx="9" cy="9" r="9"/></svg>'),
                       encoding="utf-8")
    elif change == "layout":
        layout = root / "layouts" / f"{SLUG}.yaml"
        layout.write_text(layout.read_text(encoding="utf-8").replace('background: "#fbf7ee"', 'background: "#fbf7ef"', 1),
                          encoding="utf-8")
    else:
        game = pack / "game.yaml"
        game.write_text(game.read_text(encoding="utf-8").replace("title: Through The Gate", "title: Through The Gates", 1),
                        encoding="utf-8")
    drawn = _count_drawn(monkeypatch)
    [again] = build_games(project, packs, jobs=1, only=DECK)
    assert again.ok and "deck.pdf" in again.rendered
    compiled = compile_game(pack, project)
    units = plan(compiled.game, compiled.layouts, deck_render.DeckOptions())
    assert len(drawn) == len(units)
    clean = tmp_path / "clean"
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns("output"))
    build_games(Project(clean), Project(clean).packs([SLUG])[0], jobs=1, use_cache=False, only=DECK)
    assert (root / "output" / SLUG / "deck.pdf").read_bytes() == (clean / "output" / SLUG / "deck.pdf").read_bytes()


def _draw_pages(canvas, n: int, sealed: bool) -> None:
    from cardforge.render import pagecache as pages

    pages.prepare(canvas)
    for i in range(n):
        canvas.setFont("CF-DejaVuSans", 12)
        canvas.drawString(72, 720, f"Page {i}: Roll a die; “quotes”, café and ½")
        canvas.roundRect(72, 72, 200, 300, 8, stroke=1, fill=0)
        if sealed:
            pages.finish(canvas)
        else:
            canvas.showPage()


def test_pages_sealed_into_the_spill_file_and_streamed_out_are_reportlabs_own_bytes(tmp_path):
    """A deck's finished pages wait in a temporary file, not in memory, and the PDF is
    written object by object: the file is byte for byte what ReportLab's save writes."""
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render import fonts
    from cardforge.render import pagecache as pages

    fonts.pdf_name("sans")  # registered with ReportLab
    ours = Canvas(str(tmp_path / "unused.pdf"), invariant=1, pageCompression=1)
    _draw_pages(ours, 40, sealed=True)
    held = [p.Contents for p in ours._doc.Pages.pages]
    assert len(held) == 40 and all(p.stream is None for p in ours._doc.Pages.pages)
    assert all(getattr(c, "content", b"x") is None and c.length > 0 for c in held)  # only offsets in memory
    assert ours._cardforge_spill.seek(0, 2) == sum(c.length for c in held)
    pages.save(ours, tmp_path / "ours.pdf")
    assert ours._cardforge_spill.closed

    theirs = Canvas(str(tmp_path / "theirs.pdf"), invariant=1, pageCompression=1)
    _draw_pages(theirs, 40, sealed=False)
    theirs.save()
    assert (tmp_path / "ours.pdf").read_bytes() == (tmp_path / "theirs.pdf").read_bytes()
    assert len(pikepdf.open(tmp_path / "ours.pdf").pages) == 40


def test_a_streamed_save_leaves_reportlab_alone_while_another_canvas_saves(tmp_path, monkeypatch):
    """The streamed save changes nothing of ReportLab's module, even while it runs: a canvas
    saved meanwhile (another thread's build) writes its own bytes; a failed save still
    closes the spill file."""
    from reportlab.pdfbase import pdfdoc
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render import fonts
    from cardforge.render import pagecache as pages

    fonts.pdf_name("sans")
    original = pdfdoc.PDFFile
    reference = Canvas(str(tmp_path / "reference.pdf"), invariant=1, pageCompression=1)
    _draw_pages(reference, 3, sealed=False)
    reference.save()
    canvas = Canvas(str(tmp_path / "x.pdf"), invariant=1, pageCompression=1)
    _draw_pages(canvas, 2, sealed=True)
    seen = []

    def broken(self, document):
        seen.append(pdfdoc.PDFFile)
        other = Canvas(str(tmp_path / "meanwhile.pdf"), invariant=1, pageCompression=1)
        _draw_pages(other, 3, sealed=False)
        other.save()
        raise RuntimeError("disk gone")

    monkeypatch.setattr(type(canvas._doc.Pages.pages[0].Contents), "format", broken)
    with pytest.raises(RuntimeError):
        pages.save(canvas, tmp_path / "x.pdf")
    assert seen == [original]  # the save was under way, with ReportLab's module as it is
    assert (tmp_path / "meanwhile.pdf").read_bytes() == (tmp_path / "reference.pdf").read_bytes()
    assert pdfdoc.PDFFile is original and canvas._cardforge_spill.closed


def test_a_page_is_replayed_only_into_a_canvas_that_starts_its_pages_alike(tmp_path):
    """A recorded page holds its stream with the canvas's preamble in it: it fits a canvas
    made alike, never one that starts its pages otherwise (the deck then draws it)."""
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.render import fonts
    from cardforge.render import pagecache as pages

    def canvas(name: str, bottomup: int = 1) -> Canvas:
        c = Canvas(str(tmp_path / name), invariant=1, pageCompression=1, initialFontName=fonts.pdf_name("sans"),
                   bottomup=bottomup)
        pages.prepare(c)
        return c

    first = canvas("first.pdf")
    first.roundRect(72, 72, 200, 300, 8)
    page = pages.finish(first, specs={})
    assert page is not None and page.stream and page.preamble == first._preamble
    record = pages.Record([page])
    alike, other = canvas("alike.pdf"), canvas("other.pdf", bottomup=0)
    assert record.fits(alike) and not record.fits(other)
    pages.replay(alike, page, define=lambda name: None)
    pages.save(alike, tmp_path / "alike.pdf")
    pages.save(first, tmp_path / "first.pdf")
    assert (tmp_path / "alike.pdf").read_bytes() == (tmp_path / "first.pdf").read_bytes()
