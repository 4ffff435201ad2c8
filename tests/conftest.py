"""Shared fixtures: a throw-away project holding copies of the real game packs.

The suite leaves the machine alone: before cardforge is imported, ``XDG_CACHE_HOME`` and
``XDG_STATE_HOME`` point into a temporary folder made for this run and removed at its end,
so no test reads or writes the user's cache or leaves an internal-error log behind. The
xdist workers share the run's user cache, as two cardforge commands on one machine share
the user's (a compiled template, a schema verdict or an icon's form one worker made is there
for the other), and each keeps a state folder of its own. Set ``CARDFORGE_TEST_CACHE_HOME``
to a folder to run the suite on a user cache that persists between runs (a full cache must
give the same results as an empty one).
"""
from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

# this module is imported as `conftest` and as `tests.conftest`: one sandbox per process
_OWNER, _, _KEPT = os.environ.get("CARDFORGE_TEST_SANDBOX", "").partition(":")
if _OWNER == str(os.getpid()):
    _SANDBOX = Path(_KEPT)
else:  # a new process (an xdist worker inherits its parent's environment): its own folder
    _SANDBOX = Path(tempfile.mkdtemp(prefix="cardforge-tests-"))
    atexit.register(shutil.rmtree, _SANDBOX, ignore_errors=True)
    os.environ["CARDFORGE_TEST_SANDBOX"] = f"{os.getpid()}:{_SANDBOX}"
# the run's user cache: the controller's, for an xdist worker (removed after the workers end)
_RUN = Path(_KEPT) if os.environ.get("PYTEST_XDIST_WORKER") and _KEPT and Path(_KEPT).is_dir() else _SANDBOX
os.environ["XDG_CACHE_HOME"] = os.environ.get("CARDFORGE_TEST_CACHE_HOME") or str(_RUN / "cache")
os.environ["XDG_STATE_HOME"] = str(_SANDBOX / "state")
os.environ.pop("CARDFORGE_NO_USER_CACHE", None)  # the tests that want it off say so
os.environ.pop("CARDFORGE_CACHE_OFF", None)  # likewise every single cache

import pytest  # noqa: E402  (after the environment above, like every import below)
from filelock import FileLock  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from cardforge.build import Project  # noqa: E402
from cardforge.cli import app  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# The packs cardforge ships, by name: a pack a user adds to cards/ is not tested by the suite.
SHIPPED = ("arkham-gates", "gate", "gatekeeper", "gateway", "through-the-gate")
# Packs the suite adds next to the shipped ones (see add_user_packs) to prove that its
# pack-wide properties hold for any pack: a fresh scaffold, and a bare pack with a one-page
# rules sheet, no rulebook and no icons.
ADDED = ("new-game", "bare-game")
EVERY = SHIPPED + ADDED


def add_user_packs(root: Path) -> None:
    """Scaffold the packs of ADDED into project ``root`` the way a user would (`cardforge new`)."""
    assert run_cli("new", "new-game", "--root", str(root)).exit_code == 0
    assert run_cli("new", "bare-game", "--players", "1", "--card-size", "mini-euro", "--root", str(root)).exit_code == 0
    pack = root / "cards" / "bare-game"
    (pack / "rulebook.md").unlink()
    shutil.rmtree(pack / "icons")
    for path in (pack / "game.yaml", pack / "cards.yaml", root / "layouts" / "bare-game.yaml"):
        text = path.read_text().replace('icons:\n  coin: {label: Coin, svg: icons/coin.svg, color: "#b8860b"}\n', "")
        path.write_text(text.replace(' {coin}"', '"').replace(" {coin}", " coins"))
    (pack / "sheet.md").write_text("## Goal\n\nCollect the most coins.\n")


def make_project(tmp: Path, *slugs: str, source: Path = REPO) -> Path:
    """Copy the packs ``slugs`` (and their layouts) from ``source`` into ``tmp``; returns tmp."""
    (tmp / "cards").mkdir(parents=True, exist_ok=True)
    (tmp / "layouts").mkdir(exist_ok=True)
    for slug in slugs:
        shutil.copytree(source / "cards" / slug, tmp / "cards" / slug)
        layout = source / "layouts" / f"{slug}.yaml"
        if layout.exists():
            shutil.copy(layout, tmp / "layouts" / layout.name)
    return tmp


def fresh_user_cache(monkeypatch, folder: Path) -> None:
    """The user caches in ``folder`` (empty) for the rest of the test: nothing of them read
    yet, no schema verdict or text fit remembered in this process."""
    from cardforge.cache import kept
    from cardforge.resolve import text

    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    monkeypatch.delenv("CARDFORGE_NO_USER_CACHE", raising=False)
    monkeypatch.setattr(kept, "VALID", kept.Verdicts("schema-valid"))
    monkeypatch.setattr(text, "_FITS", {})


def run_cli(*args: str):
    """Run the cardforge command in-process; returns typer's Result (exit_code, stdout, stderr)."""
    return CliRunner().invoke(app, list(args), catch_exceptions=False)


def build_only(root: Path, slug: str, *only: str, **given: object) -> None:
    """Build only the outputs ``only`` (named as in ``cardforge.build.artefacts``: "deck.pdf",
    "tts" ...) of pack ``slug`` in project ``root``, as ``cardforge build SLUG`` builds them
    with the options ``given`` (by their command-line names, ``paper="a4"``,
    ``export=["tts"]``; the command hands them over the same way, tests/test_cli_options.py).
    For a test that reads a few outputs of a build: the others are not drawn."""
    from cardforge.build import BuildSettings
    from cardforge.incremental import build_games

    (result,) = build_games(Project(root), [root / "cards" / slug], BuildSettings.of(**given), only=only)
    assert result.ok and sorted(p.name for p in result.written) == sorted(only), [d.format() for d in result.diagnostics]


def edit(path: Path, old: str, new: str) -> None:
    """Replace the one occurrence of ``old`` in a test's copy of a file (fails if it is not there once)."""
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} must occur once in {path.name}"
    path.write_text(text.replace(old, new))


def line_of(path: Path, marker: str) -> int:
    """The 1-based line of a file on which ``marker`` first starts."""
    text = path.read_text()
    return text[:text.index(marker)].count("\n") + 1


def findings(root: Path, slug: str) -> tuple[int, list[dict]]:
    """``cardforge check SLUG --format json`` in a test project: its exit code and diagnostics."""
    result = run_cli("check", slug, "--root", str(root), "--format", "json")
    return result.exit_code, json.loads(result.stdout)["diagnostics"]


def _run_folder(tmp_path_factory) -> Path:
    """The test run's temporary folder, shared by its xdist workers (each has its own below it)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base  # basetemp is <run>/popen-gwN


@pytest.fixture(scope="session", autouse=True)
def _pdf_readings(tmp_path_factory):
    """What a PDF prints, as read by tests/pdftext.py, is kept for the whole run, every worker (tests/pdftext.py)."""
    import tests.pdftext

    tests.pdftext.FOLDER = _run_folder(tmp_path_factory) / "pdf-readings"


def shared_build(tmp_path_factory, name: str, make: Callable[[Path], None]) -> Path:
    """A project made once per test run and shared by every xdist worker: ``make(folder)``
    fills ``folder`` (under the run's temporary folder, beside the workers' own) the first
    time any worker asks for ``name``, under a file lock; the others wait for it and read the
    same files. A ``make`` that fails leaves nothing behind, so the next worker to ask tries
    again (and fails the same way, at its own test). Tests only read a shared build."""
    folder = _run_folder(tmp_path_factory) / f"shared-{name}"
    with FileLock(str(folder) + ".lock"):
        if not (folder / ".made").is_file():
            shutil.rmtree(folder, ignore_errors=True)
            try:
                make(folder)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            (folder / ".made").write_text("made\n")
    return folder


def _build(*args: str) -> Callable[[Path], None]:
    """A ``make`` for :func:`shared_build`: ``cardforge build ARGS --root folder``, which must succeed."""
    def make(root: Path) -> None:
        result = run_cli("build", *args, "--root", str(root))
        assert result.exit_code == 0, result.output
    return make


@pytest.fixture(scope="session")
def ttg_build(tmp_path_factory) -> Project:
    """Through The Gate built once (Letter) into a temporary project."""
    def make(root: Path) -> None:
        make_project(root, "through-the-gate")
        _build("through-the-gate")(root)

    return Project(shared_build(tmp_path_factory, "ttg", make))


@pytest.fixture(scope="session")
def all_built(tmp_path_factory) -> Path:
    """Every game pack of the repository (the shipped ones and any a user adds: the tests
    that read this build are parametrised over them all), and the packs of ADDED, built once
    (Letter) into a temporary project, with the Tabletop Simulator and Tabletop Playground
    exports (tts/, ttpg/)."""
    from cardforge.sources.load import find_packs

    def make(root: Path) -> None:
        make_project(root, *(p.name for p in find_packs(REPO / "cards")))
        add_user_packs(root)
        _build("--export", "tts", "--export", "ttpg")(root)

    return shared_build(tmp_path_factory, "all", make)


@pytest.fixture(scope="session")
def a4_built(tmp_path_factory) -> Path:
    """Every game pack of the repository with its deck.pdf built once on A4 into a temporary
    project (the one output the A4 tests read: the other documents on A4 are built by
    ``tests/test_sheet_design.py``)."""
    import os

    from cardforge.build import BuildSettings
    from cardforge.incremental import build_games
    from cardforge.sources.load import find_packs

    def make(root: Path) -> None:
        make_project(root, *(p.name for p in find_packs(REPO / "cards")))
        project = Project(root)
        packs, problems = project.packs(None)
        results = build_games(project, packs, BuildSettings.of(paper="a4"), only=("deck.pdf",), jobs=os.cpu_count() or 1)
        assert not problems and all(r.ok and r.written for r in results), [d.format() for r in results for d in r.diagnostics]

    return shared_build(tmp_path_factory, "a4", make)


@pytest.fixture(scope="session")
def served_gate(tmp_path_factory):
    """`cardforge serve` on a copy of the gate pack, in-process on a free loopback port, once its
    cards are checked and drawn (its PDFs may still be building: wait for "ready" to need them).
    Stopped after the last test using it (``pytest_runtest_teardown``), not at the end of the
    run: the worker's later builds then fork their pools as ``cardforge build`` does, with no
    server thread beside them (cardforge.util.processes.fork_safe)."""
    from serving import serving

    root = make_project(tmp_path_factory.mktemp("serve"), "gate")
    with serving(root, "gate") as server:
        server.wait_for("gate", "building", "ready")
        yield server


# Fixtures that each xdist worker would make for itself (a running server, a project built
# twice, a module's documents laid out or read once: every rules sheet on both papers, 21 s;
# every rulebook's text, 10 s; two almanacs, 5 s): the test modules using one are kept on one
# worker as one group, so it is made once a run, not once a worker. Fixture -> its modules.
ONE_WORKER = {
    "served_gate": ("test_serve.py", "test_serve_browser.py"),
    "states": ("test_output_placement.py",),
    "sheet_fits": ("test_sheet_design.py",),
    "books": ("test_rulebook_pictures.py",),
    "references": ("test_almanac_for_players.py",),
}
_GROUP = {f"tests/{module}": fixture for fixture, modules in ONE_WORKER.items() for module in modules}


def pytest_collection_modifyitems(config, items):
    for item in items:
        for name in ONE_WORKER.keys() & set(getattr(item, "fixturenames", ())):
            assert item.path.name in ONE_WORKER[name], f"{item.nodeid} uses {name}: add its module to conftest.ONE_WORKER"


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist (absent with -p no:xdist)
def pytest_xdist_make_scheduler(config, log):
    """``--dist loadgroup`` (pyproject.toml) with the groups of ONE_WORKER, by module. The
    xdist_group mark does not group under pytest 9.2 (xdist 3.8 writes the group into a node
    id field pytest no longer reads: pytest-dev/pytest-xdist#1386), so the groups are given
    to the scheduler here; every other test is a unit of its own, as with loadgroup."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class ByModule(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _GROUP.get(nodeid.split("::", 1)[0], nodeid)

    return ByModule(config, log)


_LAST_SERVED = pytest.StashKey[str]()  # the node id of the last test using served_gate ("" for none)


def pytest_runtest_teardown(item, nextitem):
    """Stop the server of ``served_gate`` after the last test of the run that uses it (its
    tests run in collection order on one worker: ONE_WORKER); stopping it twice is harmless."""
    stash = item.session.stash
    if _LAST_SERVED not in stash:
        users = [i.nodeid for i in item.session.items if "served_gate" in getattr(i, "fixturenames", ())]
        stash[_LAST_SERVED] = users[-1] if users else ""
    if item.nodeid == stash[_LAST_SERVED] and item.funcargs.get("served_gate") is not None:
        item.funcargs["served_gate"].stop()


def _output_state() -> dict[str, int]:
    """Every file under the checkout's output/ with its modification time (ns)."""
    folder = REPO / "output"
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()} \
        if folder.is_dir() else {}


def pytest_configure(config):
    config._cardforge_output = _output_state()


def pytest_sessionfinish(session, exitstatus):
    """Fail the run when a test wrote into the checkout's output/ (tests build in temporary
    projects; a check of the checkout itself runs with --no-cache)."""
    if hasattr(session.config, "workerinput"):  # an xdist worker: the controller compares once
        return
    before, after = session.config._cardforge_output, _output_state()
    changed = sorted(name for name in after.keys() | before.keys() if before.get(name) != after.get(name))
    if changed:
        print(f"\nthe tests wrote into {REPO / 'output'}: {', '.join(changed[:5])}"
              + (f" and {len(changed) - 5} more" if len(changed) > 5 else ""))
        session.exitstatus = 1
