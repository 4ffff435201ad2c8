"""Every on-disk cache is declared once in cardforge.cache.registry, and honours its opt-out.

A build, a check and the preview's images are run in fresh processes on a throw-away
project with a user cache folder of their own; what they leave on disk is compared with
the registry: a folder no entry declares fails, so a new cache cannot be added beside it.
"""
from __future__ import annotations

import hashlib
import itertools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardforge.cache.registry import CACHES, PROJECT_FOLDER, user_root
from conftest import FIXTURES, REPO, run_cli

ARTEFACT_NAMES = {"checks", "deck.pdf", "rules.pdf", "rulebook.pdf", "rulebook.html", "reference.pdf", "print-shop", "tts"}


def cardforge(*args: str, cwd: Path, cache: Path, **env: str) -> subprocess.CompletedProcess:
    """``python -m cardforge ARGS`` in a fresh process with ``XDG_CACHE_HOME=cache``."""
    environ = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(REPO), "CARDFORGE_CACHE_OFF": "", **env}
    if "CARDFORGE_NO_USER_CACHE" not in env:
        environ.pop("CARDFORGE_NO_USER_CACHE", None)
    return subprocess.run([sys.executable, "-m", "cardforge", *args], cwd=cwd, capture_output=True, text=True,
                          env=environ, timeout=600)


def previews(root: Path, cache: Path) -> None:
    """Draw the preview images of the mini pack (what ``cardforge serve`` shows: its faces and
    the pages of its built deck.pdf) in a fresh process."""
    code = ("from pathlib import Path\n"
            "from cardforge.build import Project, compile_game\n"
            "from cardforge.cache.registry import PREVIEWS\n"
            "from cardforge.layout import layout_path\n"
            "from cardforge.serve.images import ImageCache\n"
            f"project = Project(Path({str(root)!r}))\n"
            "game = compile_game(project.cards / 'mini', project)\n"
            "images = ImageCache(PREVIEWS.folder(project.output))\n"
            "images.faces(game.game, game.layouts, layout_path(project.layouts, 'mini'))\n"
            "images.pages(project.output / 'mini' / 'deck.pdf')\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr


def pdf_sums(output: Path) -> dict[str, str]:
    return {p.relative_to(output).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in output.rglob("*.pdf") if PROJECT_FOLDER not in p.relative_to(output).parts}


@pytest.fixture
def project(tmp_path) -> Path:
    shutil.copytree(FIXTURES / "project", tmp_path / "p")
    return tmp_path / "p"


def declared_user_folders() -> set[str]:
    return {Path(c.path).parts[0] for c in CACHES if c.scope == "user"}


def test_every_folder_a_build_check_and_preview_leave_is_a_registered_cache(project, tmp_path):
    cache = tmp_path / "user-cache"
    assert cardforge("build", "--root", str(project), "--export", "tts", cwd=project, cache=cache).returncode == 0
    assert cardforge("check", "--root", str(project), cwd=project, cache=cache).returncode == 0
    previews(project, cache)
    users = {p.name for p in (cache / "cardforge").iterdir()}
    assert users and users <= declared_user_folders(), users - declared_user_folders()
    output = project / "output"
    hidden = {p.name for p in output.iterdir() if p.name.startswith(".") and not p.name.endswith(".lock")}
    assert hidden == {PROJECT_FOLDER, ".serve-cache"}
    nested = {Path(c.path).name for c in CACHES if c.scope == "project" and c.path.startswith(".cache/{game}/")}
    for game in (output / PROJECT_FOLDER).iterdir():
        if game.is_dir():
            assert {p.name for p in game.iterdir()} <= ARTEFACT_NAMES | nested, game
    # cardforge cache info names every cache, and each one this run used holds entries
    info = run_cli("cache", "info", "--root", str(project))
    assert info.exit_code == 0
    rows = {line.split()[0]: line.split() for line in itertools.takewhile(str.strip, info.stdout.splitlines()[3:])}
    assert set(rows) == {c.name for c in CACHES}
    for name in ("artefacts", "file-digests", "deck-pages", "rules-memo", "previews"):
        assert int(rows[name][3]) > 0, name


def test_clearing_every_cache_changes_no_output(project, tmp_path):
    cache = tmp_path / "user-cache"
    assert cardforge("build", "--root", str(project), cwd=project, cache=cache).returncode == 0
    before = pdf_sums(project / "output")
    cleared = cardforge("cache", "clear", "--root", str(project), cwd=project, cache=cache)
    assert cleared.returncode == 0 and "deleted" in cleared.stdout
    assert not (project / "output" / PROJECT_FOLDER).exists() and not (cache / "cardforge").exists()
    assert set(pdf_sums(project / "output")) == set(before)  # the outputs themselves stay
    rebuilt = cardforge("build", "--root", str(project), cwd=project, cache=cache)
    assert rebuilt.returncode == 0 and "wrote" in rebuilt.stderr and "cached" not in rebuilt.stderr
    assert pdf_sums(project / "output") == before


def test_no_user_cache_writes_nothing_to_the_user_cache_and_no_cache_nothing_to_the_project(project, tmp_path):
    cache = tmp_path / "user-cache"
    built = cardforge("build", "--root", str(project), "--no-cache", cwd=project, cache=cache,
                      CARDFORGE_NO_USER_CACHE="1")
    assert built.returncode == 0, built.stderr
    assert not (cache / "cardforge").exists() or not any((cache / "cardforge").rglob("*"))
    assert not (project / "output" / PROJECT_FOLDER).exists()
    checked = cardforge("check", "--root", str(project), "--no-cache", cwd=project, cache=cache,
                        CARDFORGE_NO_USER_CACHE="1")
    assert checked.returncode == 0
    assert not (cache / "cardforge").exists() or not any((cache / "cardforge").rglob("*"))


def test_template_code_compiled_by_another_sandbox_is_never_run(tmp_path, monkeypatch):
    """Code generated by a sandbox that does not intercept ``*`` (as an older cardforge's
    did) and kept in the user cache must not be served to the current, budgeted sandbox."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    from cardforge import sandbox
    from cardforge.sandbox.budget import BudgetExceeded, budgeted

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    source = "{{ 'a' * 6000000 }}"
    loader = sandbox._SourceLoader()

    class Unbudgeted(ImmutableSandboxedEnvironment):  # an older sandbox: no intercepted operators
        pass

    old = Unbudgeted(loader=loader, cache_size=0)
    old.bytecode_cache = sandbox._CompiledCode(sandbox.sandbox_signature(old))
    assert len(old.get_template(loader.name(source)).render()) == 6_000_000
    assert list((tmp_path / "cardforge" / "templates").glob("*.code"))  # its code was kept

    current = sandbox.environment()  # the same cache folder, another sandbox signature
    assert sandbox.sandbox_signature(current) != sandbox.sandbox_signature(old)
    with pytest.raises(BudgetExceeded), budgeted():
        current.get_template(current.loader.name(source)).render()
    # and the same sandbox finds its own code again: the cache still works
    kept = len(list((tmp_path / "cardforge" / "templates").glob("*.code")))
    again = sandbox.environment()
    with pytest.raises(BudgetExceeded), budgeted():
        again.get_template(again.loader.name(source)).render()
    assert len(list((tmp_path / "cardforge" / "templates").glob("*.code"))) == kept


def test_user_caches_live_below_the_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert user_root() == tmp_path / "cardforge"
    for cache in CACHES:
        root = tmp_path / "cardforge" if cache.scope == "user" else tmp_path / "output"
        assert cache.folder(tmp_path / "output", "mini").is_relative_to(root), cache.name


def test_a_cache_named_in_cardforge_cache_off_is_neither_read_nor_written(project, tmp_path):
    """How tools/bench.py measures what each cache buys: one cache off, the others working."""
    cache = tmp_path / "user-cache"
    built = cardforge("build", "--root", str(project), cwd=project, cache=cache,
                      CARDFORGE_CACHE_OFF="deck-pages,yaml")
    assert built.returncode == 0, built.stderr
    assert not any((project / "output" / PROJECT_FOLDER).rglob("deck-pages"))
    assert any((project / "output" / PROJECT_FOLDER).rglob("rules"))  # the others still work
    assert not (cache / "cardforge" / "yaml").exists() and (cache / "cardforge" / "verdicts").exists()


def _build_reports_cairosvg(root: Path, cache: Path) -> bool:
    """Build ``root`` with ``--no-cache`` in one fresh process (``--jobs 1``: nothing drawn
    elsewhere) with ``XDG_CACHE_HOME=cache``; whether that process imported cairosvg."""
    code = ("import sys\n"
            "from cardforge.cli import app\n"
            f"sys.argv = ['cardforge', 'build', '--no-cache', '--jobs', '1', '--root', {str(root)!r}]\n"
            "try:\n    app()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
            "print('cairosvg imported:', 'cairosvg' in sys.modules)\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(REPO), "CARDFORGE_CACHE_OFF": ""}
    env.pop("CARDFORGE_NO_USER_CACHE", None)
    proc = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip().splitlines()[-1] == "cairosvg imported: True"


def test_icons_kept_as_pngs_print_the_same_rules_documents_without_importing_cairosvg(project, tmp_path):
    """The rules documents' inline icons are rasterised once into the icon-pngs user cache: a
    later build, --no-cache included, writes the same bytes without importing cairosvg."""
    cache = tmp_path / "user-cache"
    assert _build_reports_cairosvg(project, cache), "the pack's rules documents print no rasterised icon"
    assert any((cache / "cardforge" / "icon-png").glob("*.pickle"))
    first = pdf_sums(project / "output")
    assert not _build_reports_cairosvg(project, cache)
    assert pdf_sums(project / "output") == first
