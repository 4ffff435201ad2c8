"""cardforge watch: a save to a card file rebuilds that game, and only what changed."""
from __future__ import annotations

import io
import queue
import shutil
import threading

import pytest
from rich.console import Console

from cardforge.build import Project
from cardforge.incremental import build_games
from cardforge.watch import watch
from conftest import FIXTURES

ALL = ["deck.pdf", "rules.pdf", "rulebook.pdf", "rulebook.html", "reference.pdf"]


def test_a_saved_card_rebuilds_its_game(tmp_path):
    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "project", root)
    project = Project(root)
    builds: queue.Queue = queue.Queue()
    stop = threading.Event()
    said = io.StringIO()
    thread = threading.Thread(target=watch, args=(project, None), daemon=True,
                              kwargs=dict(stop=stop, built=builds.put, console=Console(file=said, width=200)))
    thread.start()
    try:
        [first] = builds.get(timeout=300)
        assert first.ok and first.rendered == ALL
        cards = root / "cards" / "mini" / "cards.yaml"
        cards.write_text(cards.read_text(encoding="utf-8").replace("Gain 1 mana", "Gain 2 mana"), encoding="utf-8")
        for _ in range(20):  # the watcher starts right after the first build: save again until it sees one
            try:
                second = builds.get(timeout=5)
                break
            except queue.Empty:
                cards.write_text(cards.read_text(encoding="utf-8"), encoding="utf-8")
        else:
            raise AssertionError("no rebuild after saving a card file")
        assert [r.slug for r in second] == ["mini"]
        assert second[0].ok and second[0].rendered == ALL
        (root / "cards" / "mini" / "notes.txt").write_text("not an input the cards print\n")
        [third] = builds.get(timeout=60)  # a new file in the pack is an input: hashed, nothing printed changed
        assert third.ok
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not thread.is_alive()
    clean_root = tmp_path / "clean"
    shutil.copytree(root, clean_root, ignore=shutil.ignore_patterns("output"))
    clean = Project(clean_root)
    build_games(clean, clean.packs(None)[0], use_cache=False)
    for name in ALL:
        assert (root / "output" / "mini" / name).read_bytes() == (clean_root / "output" / "mini" / name).read_bytes()
    text = said.getvalue()
    assert "built mini: deck.pdf" in text and "watching" in text
    first_build, rebuilds = text.split("watching", 1)
    for part in (first_build, rebuilds):  # a game's diagnostics are printed once it is checked, before its outputs
        assert part.index("checked mini:") < part.index("built mini")
    assert rebuilds.index("checked mini:") < rebuilds.index("updated")  # before the deck put in place first


def test_ctrl_c_before_the_file_watcher_starts_ends_the_watcher_as_ctrl_c_after_it(tmp_path, monkeypatch):
    """Ctrl+C between the "watching" line and the file watcher taking over SIGINT (while
    watchfiles is imported, on a busy machine) ends the watcher as it does later: it returns."""
    import cardforge.watch as watching

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    root = tmp_path / "p"
    shutil.copytree(FIXTURES / "project", root)
    monkeypatch.setattr(watching, "touched_games", interrupted)
    said = io.StringIO()
    builds: list = []
    try:
        watch(Project(root), None, built=builds.append, console=Console(file=said, width=200))
    except KeyboardInterrupt:  # caught here, or it would stop the test run itself
        pytest.fail("Ctrl+C before the file watcher started escaped the watcher (the command then exits 130)")
    assert len(builds) == 1 and "watching" in said.getvalue()


def test_watch_and_serve_share_one_watcher_and_one_filter():
    """One filter for both: an editor's autosave (#x#), backup (x~), swap (.x.swp) and hidden
    files touch no game; a card file and a layout do."""
    import inspect

    from cardforge import watch as watch_command
    from cardforge.serve import app as serve_app
    from cardforge.util import filewatch

    assert not any(filewatch.interesting(None, f"/p/cards/gate/{name}")
                   for name in ("#citizens.yaml#", "citizens.yaml~", ".citizens.yaml.swp", ".hidden", "x.tmp"))
    assert filewatch.interesting(None, "/p/cards/gate/citizens.yaml") and filewatch.interesting(None, "/p/layouts/gate.yaml")
    assert serve_app.Watcher is filewatch.Watcher
    assert "touched_games" in inspect.getsource(watch_command.watch)
