"""The incremental build: what is reused, what is rendered again, and that the bytes are
the bytes of a clean build whatever the cache and the number of processes."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardforge import cache
from cardforge.build import BuildOptions, Project
from cardforge.cache import Store, version
from cardforge.cache.registry import PROJECT_FOLDER as CACHE_FOLDER
from cardforge.checking import check_games
from cardforge.incremental import build_games
from cardforge.render.deck import DeckOptions
from cardforge.util.diagnostics import Severity
from cardforge.util.units import MM
from conftest import FIXTURES, SHIPPED, make_project, run_cli

ALL = ["deck.pdf", "rules.pdf", "rulebook.pdf", "rulebook.html", "reference.pdf"]


def mini(folder: Path) -> Project:
    """A copy of the small clean fixture pack ``mini``."""
    shutil.copytree(FIXTURES / "project", folder)
    return Project(folder)


def build(project: Project, options: BuildOptions = BuildOptions(), **kw):
    packs, problems = project.packs(None)
    assert not problems
    return build_games(project, packs, options, **kw)


def outputs(project: Project) -> dict[str, bytes]:
    """Every file written under output/, cache and build locks (``.<game>.lock``) excluded,
    by relative path."""
    root = project.output
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and CACHE_FOLDER not in p.relative_to(root).parts and p.suffix != ".lock"}


def test_unchanged_rebuild_renders_nothing_and_is_a_clean_build(tmp_path):
    project = mini(tmp_path / "a")
    [first] = build(project)
    assert first.ok and first.rendered == ALL and first.reused == []
    built = outputs(project)
    assert sorted(built) == sorted(f"mini/{name}" for name in ALL)
    stamps = {p: p.stat().st_mtime_ns for p in first.written}
    [again] = build(project)
    assert again.ok and again.rendered == [] and again.reused == ALL
    assert sorted(again.written) == sorted(first.written)
    assert {p: p.stat().st_mtime_ns for p in again.written} == stamps  # nothing rewritten
    assert [d.format() for d in again.diagnostics] == [d.format() for d in first.diagnostics]
    clean = mini(tmp_path / "b")
    [fresh] = build(clean, use_cache=False)
    assert fresh.ok and not (clean.output / CACHE_FOLDER).exists()
    assert outputs(clean) == built


def test_an_output_deleted_or_edited_is_restored_from_the_cache(tmp_path):
    project = mini(tmp_path / "p")
    build(project)
    built = outputs(project)
    (project.output / "mini" / "rules.pdf").unlink()
    (project.output / "mini" / "deck.pdf").write_bytes(b"scribbled over")
    [again] = build(project)
    assert again.rendered == [] and outputs(project) == built


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


CHANGES = {
    "card": lambda p, mp: _edit(p.cards / "mini" / "cards.yaml", "Gain 1 mana", "Gain 2 mana"),
    "layout": lambda p, mp: _edit(p.layouts / "mini.yaml", "size: 12pt", "size: 11pt"),
    "icon": lambda p, mp: _edit(p.cards / "mini" / "icons" / "sun.svg", "<path", '<circle cx="256" cy="256" r="90"/><path'),
    "version": lambda p, mp: mp.setattr(version, "fingerprint", lambda: "another cardforge"),
    "shared layout file": lambda p, mp: (p.layouts / "presets.yaml").write_text("# shared by every game\n"),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_kind_of_input_change_renders_again(tmp_path, monkeypatch, change):
    project = mini(tmp_path / "p")
    build(project)
    before = outputs(project)
    CHANGES[change](project, monkeypatch)
    [again] = build(project)
    assert again.ok and again.rendered == ALL and again.reused == []
    after = outputs(project)
    if change in ("version", "shared layout file"):
        assert after == before  # drawn again, same bytes: nothing printed changed
    else:
        assert after["mini/deck.pdf"] != before["mini/deck.pdf"]
        clean = mini(tmp_path / "clean")
        CHANGES[change](clean, monkeypatch)
        build(clean, use_cache=False)
        assert outputs(clean) == after
    [third] = build(project)
    assert third.rendered == []


def test_an_option_change_renders_again_and_both_stay_cached(tmp_path):
    project = mini(tmp_path / "p")
    gutter = BuildOptions(deck=DeckOptions(gutter=3 * MM))
    build(project)
    butted = outputs(project)
    [wide] = build(project, gutter)
    assert wide.rendered == ALL
    assert outputs(project)["mini/deck.pdf"] != butted["mini/deck.pdf"]
    [back] = build(project)
    assert back.rendered == [] and outputs(project) == butted
    [again] = build(project, gutter)
    assert again.rendered == []


def test_a_change_to_any_file_of_cardforge_changes_its_version(tmp_path):
    package = tmp_path / "cardforge"
    shutil.copytree(version.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    fingerprint = version.fingerprint.__wrapped__
    first = fingerprint(package)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "x.cpython-311.pyc").write_bytes(b"bytecode")
    assert fingerprint(package) == first  # bytecode is not an input
    font = package / "fonts" / "DejaVuSans.ttf"
    data = bytearray(font.read_bytes())
    data[-1] ^= 0xFF
    font.write_bytes(bytes(data))
    second = fingerprint(package)
    assert second != first
    (package / "util" / "units.py").write_text((package / "util" / "units.py").read_text() + "\n# changed\n")
    assert fingerprint(package) not in (first, second)


def test_a_crashed_cache_write_is_never_served(tmp_path, monkeypatch):
    project = mini(tmp_path / "p")
    original = shutil.copy2

    def crash(src, dst, *a, **kw):
        if CACHE_FOLDER in Path(dst).parts and Path(src).name == "deck.pdf":
            raise OSError("disk full")
        return original(src, dst, *a, **kw)

    monkeypatch.setattr(shutil, "copy2", crash)
    [first] = build(project)
    assert first.ok  # the cache failing costs time, never the build
    monkeypatch.setattr(shutil, "copy2", original)
    entries = project.output / CACHE_FOLDER / "mini" / "deck.pdf"
    assert not [p for p in entries.iterdir() if not p.name.startswith(".tmp-")]
    [again] = build(project)
    assert again.rendered == ["deck.pdf"] and again.reused == ["rules.pdf", "rulebook.pdf", "rulebook.html", "reference.pdf"]
    # an entry folder without its meta file (written last) is a miss, not a half entry
    [entry] = [p for p in entries.iterdir() if not p.name.startswith(".")]
    (entry / "meta.pickle").unlink()
    assert Store(project.output).get("mini", "deck.pdf", entry.name) is None


def test_a_game_with_errors_reports_the_same_from_the_cache(tmp_path):
    project = mini(tmp_path / "p")
    _edit(project.cards / "mini" / "cards.yaml", "power: 3", "power: 9")
    [first] = build(project)
    [again] = build(project)
    assert not first.ok and first.written == [] and not (project.output / "mini" / "deck.pdf").exists()
    assert "rule-failed" in {d.code for d in first.diagnostics}
    assert [d.format() for d in again.diagnostics] == [d.format() for d in first.diagnostics]
    assert again.written == [] and again.loaded


def test_output_is_the_same_bytes_for_one_and_two_processes(tmp_path):
    one = Project(make_project(tmp_path / "one", "through-the-gate"))
    two = Project(make_project(tmp_path / "two", "through-the-gate"))
    for project in (one, two):
        shutil.copytree(FIXTURES / "project" / "cards" / "mini", project.cards / "mini")
        shutil.copy(FIXTURES / "project" / "layouts" / "mini.yaml", project.layouts)
    serial = build(one, use_cache=False, jobs=1)
    parallel = build(two, use_cache=False, jobs=2)
    assert [r.ok for r in serial] == [r.ok for r in parallel] == [True, True]
    said = [[d.format().replace(str(one.root), "") for d in r.diagnostics] for r in serial]
    assert said == [[d.format().replace(str(two.root), "") for d in r.diagnostics] for r in parallel]
    assert outputs(one) == outputs(two) and len(outputs(one)) == 10  # 5 outputs each


def test_beside_another_thread_a_build_never_forks_and_writes_the_same_bytes(tmp_path, monkeypatch):
    """A fork copies the locks other threads hold at that instant (a module one is importing,
    a library's allocator) into a child that then waits for them for ever. Beside a running
    thread (a server's, a notebook's) the build's pool is spawned and a deck's sheets are
    drawn in this process (cardforge.util.processes.fork_safe); the bytes are a forked build's."""
    import os
    import threading

    forked = Project(make_project(tmp_path / "forked", "gate"))  # 6 sheets: a deck pool of 2 draws some
    beside = Project(make_project(tmp_path / "beside", "gate"))
    assert all(r.ok for r in build(forked, use_cache=False, jobs=2))
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    monkeypatch.setattr(os, "fork", lambda: pytest.fail("forked beside a running thread"))
    try:
        rebuilt = build(beside, use_cache=False, jobs=2, early=("deck.pdf",), here=True)  # as a watcher rebuilds
    finally:
        stop.set()
        thread.join()
    assert [r.ok for r in rebuilt] == [True], [d.format() for r in rebuilt for d in r.diagnostics]
    assert outputs(beside) == outputs(forked) and len(outputs(forked)) == 5


def _worker_state() -> tuple[int, int, str]:
    """A pool task: this worker's process id, its parent's, and what the build's process had
    marked as warmed up when the worker was forked (see the test below)."""
    import os

    return os.getpid(), os.getppid(), os.environ.get("CARDFORGE_TEST_WARMED", "")


def test_after_a_lone_compile_the_outputs_are_drawn_by_workers_forked_from_the_warmed_build(monkeypatch):
    """Fewer games to compile than workers (one game edited): the build's own process gets
    ready to draw beside the compile (workers.Pool.warm_up runs the warm-up here, not in a
    worker), and the pool, once idle, forks its workers again from it (Pool.draw): the
    outputs run in new workers that have what it warmed up, not in the ones forked before."""
    import os

    from cardforge import workers

    def warm_up() -> None:  # marks this process (a forked worker inherits its environment)
        monkeypatch.setenv("CARDFORGE_TEST_WARMED", str(os.getpid()))

    monkeypatch.setattr(workers, "_warm_up", warm_up)
    with workers.Pool(2, None, lambda slug: 0) as pool:
        before = pool.submit(_worker_state).result()
        assert pool.forked and before[2] == ""
        pool.warm_up(1)
        assert os.environ["CARDFORGE_TEST_WARMED"] == str(os.getpid())  # warmed here
        pool.draw(idle=True)
        after = {pool.submit(_worker_state).result() for _ in range(4)}
    assert before[0] not in {pid for pid, _, _ in after}
    assert {(parent, warmed) for _, parent, warmed in after} == {(os.getpid(), str(os.getpid()))}


def test_build_command_jobs_and_no_cache(tmp_path):
    project = mini(tmp_path / "p")
    result = run_cli("build", "--no-cache", "--jobs", "2", "--root", str(project.root))
    assert result.exit_code == 0, result.output
    assert not (project.output / CACHE_FOLDER).exists()
    assert "wrote" in result.output
    run_cli("build", "--root", str(project.root))
    result = run_cli("build", "-j", "1", "--root", str(project.root))
    assert result.exit_code == 0 and "cached" in result.output and "wrote" not in result.output


def _compile_with(monkeypatch, compile_game) -> None:
    """Compile every game with ``compile_game``: the build's and the check's (cardforge.checking)."""
    import cardforge.checking as checking
    import cardforge.incremental as incremental

    monkeypatch.setattr(incremental, "compile_game", compile_game)
    monkeypatch.setattr(checking, "compile_game", compile_game)


def test_check_reports_stored_diagnostics_until_a_file_changes(tmp_path, monkeypatch):
    import cardforge.incremental as incremental

    project = mini(tmp_path / "p")
    packs, _ = project.packs(None)
    first = check_games(project, packs)
    assert first == []  # the fixture pack is clean

    def no_compile(*args):
        raise AssertionError("compiled a game whose files did not change")

    real = incremental.compile_game
    _compile_with(monkeypatch, no_compile)
    assert check_games(project, packs) == first
    _edit(project.cards / "mini" / "cards.yaml", "power: 3", "power: 9")
    _compile_with(monkeypatch, real)
    broken = check_games(project, packs)
    assert [d.code for d in broken] == ["rule-failed"] and broken[0].line > 0
    _compile_with(monkeypatch, no_compile)
    assert check_games(project, packs) == broken
    [built] = build(project)  # the build reads the same entry: not built, same diagnostics
    assert built.diagnostics == broken and built.written == []


@pytest.mark.parametrize("command", ["build", "check"])
def test_a_file_saved_while_the_game_is_read_is_not_stored_as_the_older_files(tmp_path, monkeypatch, command):
    """A designer saves while the game compiles (after its inputs were hashed, before the
    file is read; under ``serve`` a build runs beside every edit): what was read from the new
    file must not be stored under the older files' key, or undoing the save brings back the
    new file's errors from the cache."""
    import cardforge.incremental as incremental

    project = mini(tmp_path / "p")
    packs, _ = project.packs(None)
    cards = project.cards / "mini" / "cards.yaml"
    good = cards.read_bytes()
    real = incremental.compile_game

    def saved_meanwhile(pack, *args):
        cards.write_bytes(good.replace(b"power: 3", b"power: 9", 1))  # breaks a rule
        return real(pack, *args)

    def codes(results) -> list[str]:  # the errors
        return [d.code for d in (results if command == "check" else results[0].diagnostics)
                if d.severity is Severity.ERROR]

    def run():
        return check_games(project, packs) if command == "check" else build(project)

    _compile_with(monkeypatch, saved_meanwhile)
    assert codes(run()) == ["rule-failed"]  # what was read: the new file
    _compile_with(monkeypatch, real)
    cards.write_bytes(good)  # the designer undoes the save
    again = run()
    assert codes(again) == []
    if command == "build":
        assert again[0].ok and (project.output / "mini" / "deck.pdf").is_file()


def test_check_no_cache_writes_nothing(tmp_path):
    project = mini(tmp_path / "p")
    result = run_cli("check", "--no-cache", "--root", str(project.root))
    assert result.exit_code == 0, result.output
    assert not project.output.exists()


def test_text_is_measured_as_reportlab_measures_it():
    from reportlab.pdfbase import pdfmetrics

    from cardforge.render import fonts

    samples = ["", "Gloomy Forest", "If {roll} < speed: discard.", "Œuvre — “quoted” ½ ✓ ☃ 漢字", "x" * 200]
    for face in fonts.FONTS:
        for text in samples:
            for size in (6, 8.5, 12):
                # equal to the last bit or two: ReportLab's C and Python paths round differently
                assert fonts.width(text, face, size) == pytest.approx(
                    pdfmetrics.stringWidth(text, fonts.pdf_name(face), size), rel=1e-12, abs=1e-12)


def test_a_font_or_image_file_in_the_pack_is_an_input(tmp_path):
    project = mini(tmp_path / "p")
    pack = project.cards / "mini"
    keys = [cache.pack_inputs(pack, project.layouts)]
    (pack / "fonts").mkdir()
    (pack / "fonts" / "Display.ttf").write_bytes(b"\0\1\0\0 a font")
    (pack / "images").mkdir()
    (pack / "images" / "art.png").write_bytes(b"\x89PNG one picture")
    keys.append(cache.pack_inputs(pack, project.layouts))
    for path in (pack / "fonts" / "Display.ttf", pack / "images" / "art.png"):
        data = bytearray(path.read_bytes())
        data[-1] ^= 0xFF
        path.write_bytes(bytes(data))
        keys.append(cache.pack_inputs(pack, project.layouts))
    assert len(set(keys)) == len(keys)


def test_the_same_project_from_another_folder_is_served_from_the_cache(tmp_path, monkeypatch):
    import cardforge.incremental as incremental

    project = mini(tmp_path / "p")
    _edit(project.cards / "mini" / "cards.yaml", "power: 3", "power: 9")  # an error, located in a file
    packs, _ = project.packs(None)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "again").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    first = check_games(project, packs)
    assert first[0].file == str(project.cards / "mini" / "cards.yaml")  # printed whole from outside
    real = incremental.compile_game

    def no_compile(*args):
        raise AssertionError("compiled a game whose files did not change")

    _compile_with(monkeypatch, no_compile)
    monkeypatch.chdir(tmp_path / "again")
    assert check_games(project, packs) == first
    # from the project folder the same files print otherwise: checked afresh, never the stored text
    monkeypatch.chdir(project.root)
    _compile_with(monkeypatch, real)
    here = check_games(project, packs)
    assert here == check_games(project, packs, use_cache=False)
    assert here[0].file == "cards/mini/cards.yaml"
    _edit(project.cards / "mini" / "cards.yaml", "power: 9", "power: 3")
    monkeypatch.chdir(tmp_path / "elsewhere")
    [built] = build(project)
    monkeypatch.chdir(tmp_path / "again")
    [again] = build(project)
    assert built.rendered == ALL and again.rendered == [] and again.reused == ALL


def test_a_warm_check_prints_exactly_what_a_cold_check_prints(tmp_path):
    root = make_project(tmp_path / "p", *SHIPPED)
    shutil.copytree(FIXTURES / "project" / "cards" / "mini", root / "cards" / "mini")
    shutil.copy(FIXTURES / "project" / "layouts" / "mini.yaml", root / "layouts")
    _edit(root / "cards" / "mini" / "cards.yaml", "power: 3", "power: 9")  # an error beside the notes
    for form in (["--format", "json"], []):
        cold = run_cli("check", *form, "--no-cache", "--root", str(root))
        filling = run_cli("check", *form, "--root", str(root))
        warm = run_cli("check", *form, "--root", str(root))
        assert cold.exit_code == filling.exit_code == warm.exit_code == 1
        assert "rule-failed" in cold.output and "info" in cold.output
        assert warm.output == filling.output == cold.output
    assert (root / "output" / CACHE_FOLDER / "gate" / "checks").is_dir()



def test_a_parallel_build_hands_the_pool_the_largest_pack_first_and_reports_in_the_order_asked(tmp_path):
    from cardforge import workers

    root = make_project(tmp_path / "p", "mini", source=FIXTURES / "project")
    for name in ("big", "same"):
        shutil.copytree(root / "cards" / "mini", root / "cards" / name)
        shutil.copy(root / "layouts" / "mini.yaml", root / "layouts" / f"{name}.yaml")
    (root / "cards" / "big" / "notes.md").write_text("A designer's long notes.\n" * 400, encoding="utf-8")
    packs = [root / "cards" / n for n in ("mini", "same", "big")]
    assert [p.name for p in workers.largest_first(packs, lambda p: p)] == ["big", "mini", "same"]
    results = build_games(Project(root), packs, jobs=2, use_cache=False, only=("deck.pdf",))
    assert [r.slug for r in results] == ["mini", "same", "big"] and all(r.ok for r in results)


def test_a_worker_whose_parent_died_before_it_asked_to_die_with_it_ends_at_once():
    """A build killed between starting a worker and the worker's call to die_with_parent is
    gone before the kernel was asked to end the worker with it: the worker sees that its
    parent is not the process that started it and ends, instead of waiting for tasks for ever."""
    import subprocess
    import sys

    code = "import os; from cardforge.util.processes import die_with_parent; die_with_parent({}); print('alive')"
    alive = subprocess.run([sys.executable, "-c", code.format("os.getppid()")], capture_output=True, text=True)
    orphan = subprocess.run([sys.executable, "-c", code.format("os.getppid() + 1")], capture_output=True, text=True)
    assert (alive.returncode, alive.stdout) == (0, "alive\n")
    assert (orphan.returncode, orphan.stdout) == (1, "")


def test_a_check_of_a_game_and_its_translation_side_by_side_reports_what_one_process_reports(tmp_path, monkeypatch):
    """``cardforge check`` compiles the games it has no diagnostics for in a pool (after an
    edit: the game and its translation at once); what it reports, and what it keeps for the
    next check, is what one process finds."""
    from cardforge.checking import check_languages
    from cardforge.cli.translate import language_plan

    root = make_project(tmp_path, "through-the-gate")
    project = Project(root)
    packs, _ = project.packs(None)
    plan, _ = language_plan(packs, "all")
    assert len(plan) == 2, "through-the-gate ships one translation"
    alone = check_languages(project, plan, use_cache=False, jobs=1)
    assert all(alone.values()), "each language has findings to compare"
    side_by_side = check_languages(project, plan, jobs=2)
    assert side_by_side == alone

    def no_compile(*args):
        raise AssertionError("compiled a game whose diagnostics the pool kept")

    _compile_with(monkeypatch, no_compile)
    assert check_languages(project, plan, jobs=2) == alone
    result = run_cli("check", "--lang", "all", "--format", "json", "--root", str(root))
    monkeypatch.undo()
    one = run_cli("check", "--lang", "all", "--format", "json", "--no-cache", "--jobs", "1", "--root", str(root))
    assert result.stdout == one.stdout and result.exit_code == one.exit_code


def test_a_command_and_the_workers_it_starts_collect_garbage_at_cardforge_pace(tmp_path, monkeypatch):
    """Every command sets the collector's pace (cardforge.util.processes.pace_collector); a
    forked worker inherits it, a spawned one (a build beside another thread) sets it itself."""
    import gc
    import multiprocessing

    from cardforge import workers
    from cardforge.util import processes

    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        assert run_cli("check", "--root", str(make_project(tmp_path, "gate"))).exit_code == 0
        assert gc.get_threshold() == (processes.COLLECT_EVERY, 10, 10)
        gc.set_threshold(700, 10, 10)
        monkeypatch.setattr(workers, "pool_context", lambda: multiprocessing.get_context("spawn"))
        with workers.pool(2, None, lambda slug: 0) as pool:
            assert pool.submit(gc.get_threshold).result() == (processes.COLLECT_EVERY, 10, 10)
    finally:
        gc.set_threshold(*before)


@pytest.mark.parametrize("jobs, here", [(1, False), (1, True), (2, False), (2, True)])
def test_an_early_output_is_in_place_before_the_rest_and_stays_after_a_later_failure(tmp_path, monkeypatch, jobs, here):
    """``early=("deck.pdf",)`` (what cardforge watch asks after a save, with ``here``): the new deck.pdf is
    in place, and said, while the game's other outputs are still the previous ones (drawn in
    this process, before any of them is drawn); when another output then fails, the deck
    stays in place and the rest is the previous build's, and the deck's record (``cardforge
    diff``) describes the deck in place."""
    import cardforge.incremental as incremental
    from cardforge.reprint import recorded
    from cardforge.util.diagnostics import diag

    project = mini(tmp_path / "p")
    [first] = build(project)
    before = outputs(project)
    cards = project.root / "cards" / "mini" / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8").replace("Gain 1 mana", "Gain 2 mana"), encoding="utf-8")
    seen, drawn = [], []
    real = incremental._render

    def drawing(compiled, name, *args):  # what this process draws (one job: everything)
        drawn.append(name)
        return real(compiled, name, *args)

    def placed(slug, path):
        placed_now = {name: body for name, body in outputs(project).items() if name.startswith("mini/")}  # not staged
        seen.append((slug, path.name, {name: body == before[name] for name, body in placed_now.items()}, list(drawn)))

    if jobs == 1:  # a pool's workers are handed the function by name: it must stay the module's own
        monkeypatch.setattr(incremental, "_render", drawing)
    [again] = build(project, jobs=jobs, early=("deck.pdf",), placed=placed, here=here)
    monkeypatch.setattr(incremental, "_render", real)
    assert again.ok and again.rendered == ALL and project.output / "mini" / "deck.pdf" in again.written
    [(slug, name, same, drawn_before)] = seen
    assert (slug, name) == ("mini", "deck.pdf")
    assert drawn_before == (["deck.pdf"] if jobs == 1 else [])  # nothing else drawn before it
    assert same == {f"mini/{n}": n != "deck.pdf" for n in ALL}  # the deck new, the rest as before
    assert recorded(project.output, "mini")
    built = outputs(project)

    def rulebook_fails(compiled, name, *args):
        if name == "rulebook.pdf":
            return [], [diag("write-failed", "the rulebook cannot be written", file="rulebook.pdf")]
        return real(compiled, name, *args)

    monkeypatch.setattr(incremental, "_render", rulebook_fails)
    cards.write_text(cards.read_text(encoding="utf-8").replace("Gain 2 mana", "Gain 3 mana"), encoding="utf-8")
    seen.clear()
    [failed] = build(project, early=("deck.pdf",), placed=placed)  # one job: the patched render runs here
    assert not failed.ok and failed.written == [] and [d.code for d in failed.diagnostics if d.code == "write-failed"]
    assert [name for _, name, _, _ in seen] == ["deck.pdf"]
    now = outputs(project)
    assert now["mini/deck.pdf"] != built["mini/deck.pdf"]
    assert {n: now[n] for n in now if n != "mini/deck.pdf"} == {n: built[n] for n in built if n != "mini/deck.pdf"}
    assert recorded(project.output, "mini")
    assert not list(project.output.glob(".mini.build-*"))  # no staging folder left behind
