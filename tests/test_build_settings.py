"""A pack's own build defaults (game.yaml ``build:``) and draft mode, as build, watch and
serve use them: the command line wins, the pack's settings come next, then the defaults."""
from __future__ import annotations

import functools
import shutil
import threading

import pdfplumber

from conftest import FIXTURES, run_cli

A4 = (595.28, 841.89)  # pt
LETTER = (612.0, 792.0)


def mini(tmp_path, name: str = "p", build: str = ""):
    root = shutil.copytree(FIXTURES / "project", tmp_path / name)
    if build:
        game = root / "cards/mini/game.yaml"
        game.write_text(game.read_text(encoding="utf-8") + f"build: {build}\n", encoding="utf-8")
    return root


def page_size(pdf_path) -> tuple[float, float]:
    with pdfplumber.open(pdf_path) as pdf:
        page = pdf.pages[0]
        return round(float(page.width), 2), round(float(page.height), 2)


def test_a_pack_that_says_a4_prints_a4_unless_the_command_line_says_otherwise(tmp_path):
    root = mini(tmp_path, build="{paper: a4}")
    assert run_cli("build", "--root", str(root)).exit_code == 0
    assert page_size(root / "output/mini/deck.pdf") == A4
    assert run_cli("build", "--paper", "letter", "--root", str(root)).exit_code == 0
    assert page_size(root / "output/mini/deck.pdf") == LETTER
    assert run_cli("build", "--root", str(root)).exit_code == 0  # back to the pack's, from the cache
    assert page_size(root / "output/mini/deck.pdf") == A4


def test_watch_and_serve_print_what_build_prints_with_the_pack_defaults(tmp_path, monkeypatch):
    import cardforge.serve
    import cardforge.watch

    built = mini(tmp_path, "built", build="{paper: a4, cut_guides: true}")
    watched = mini(tmp_path, "watched", build="{paper: a4, cut_guides: true}")
    assert run_cli("build", "--jobs", "1", "--root", str(built)).exit_code == 0
    stop = threading.Event()
    stop.set()  # build once, then stop watching
    monkeypatch.setattr(cardforge.watch, "watch", functools.partial(cardforge.watch.watch, stop=stop))
    assert run_cli("watch", "--jobs", "1", "--root", str(watched)).exit_code == 0
    for name in ("deck.pdf", "rules.pdf", "rulebook.pdf", "reference.pdf"):
        assert (watched / "output/mini" / name).read_bytes() == (built / "output/mini" / name).read_bytes(), name
    seen = {}
    monkeypatch.setattr(cardforge.serve, "run", lambda project, slugs, **kw: seen.setdefault("serve", kw["options"]))
    assert run_cli("serve", "mini", "--root", str(watched)).exit_code == 0
    options = seen["serve"].resolve({"paper": "a4", "cut_guides": True})
    assert options.deck.paper == "a4" and options.deck.cut_guides  # the builder it starts resolves the same


def test_a_bad_build_setting_is_located_in_game_yaml(tmp_path):
    root = mini(tmp_path, build="{paper: a5}")
    result = run_cli("check", "--root", str(root))
    assert result.exit_code == 1
    line = (root / "cards/mini/game.yaml").read_text(encoding="utf-8").splitlines().index("build: {paper: a5}") + 1
    assert f"game.yaml:{line}" in result.stderr and "a5" in result.stderr


def _missing_art(root) -> None:
    layout = root / "layouts/mini.yaml"
    layout.write_text(layout.read_text(encoding="utf-8").replace(
        "      text: {kind: text, box: [6mm, 20mm, 51.5mm, 30mm], field: text, size: 10pt, min_size: 7pt}\n",
        "      text: {kind: text, box: [6mm, 20mm, 51.5mm, 30mm], field: text, size: 10pt, min_size: 7pt}\n"
        "      art: {kind: image, box: [6mm, 52mm, 51.5mm, 30mm], template: \"art/{{ card.name }}.png\"}\n", 1),
        encoding="utf-8")


def test_a_draft_prints_missing_art_as_a_placeholder_and_a_final_build_refuses(tmp_path):
    root = mini(tmp_path)
    _missing_art(root)
    refused = run_cli("build", "--root", str(root))
    assert refused.exit_code == 1 and "error[image-missing]" in refused.stderr
    assert not (root / "output/mini/deck.pdf").exists()
    draft = run_cli("build", "--draft", "--root", str(root))
    assert draft.exit_code == 0, draft.stderr
    assert "warning[image-missing]" in draft.stderr and "placeholder" in draft.stderr
    with pdfplumber.open(root / "output/mini/deck.pdf") as pdf:
        assert "MISSING" in pdf.pages[0].extract_text()
    checked = run_cli("check", "--root", str(root))  # the checks judge the final print
    assert checked.exit_code == 1 and "error[image-missing]" in checked.stderr


def test_a_pack_in_draft_builds_with_placeholders_from_its_own_setting(tmp_path):
    root = mini(tmp_path, build="{draft: true}")
    _missing_art(root)
    result = run_cli("build", "--root", str(root))
    assert result.exit_code == 0, result.stderr
    assert "warning[image-missing]" in result.stderr


def test_serve_draws_a_draft_packs_faces_with_placeholders_and_calls_missing_art_a_warning(tmp_path):
    from cardforge.build import BuildSettings, Project
    from cardforge.serve.state import Workspace

    root = mini(tmp_path, build="{draft: true}")
    _missing_art(root)
    for settings, status in ((BuildSettings.of(), "building"), (BuildSettings.of(draft=True), "building")):
        space = Workspace(Project(root), ["mini"], options=settings)
        space.check("mini")  # what the worker thread does after a save: check, then draw the faces
        state = space.games["mini"]
        codes = {(p.diagnostic.code, str(p.diagnostic.severity)) for p in state.problems}
        assert ("image-missing", "warning") in codes and ("image-missing", "error") not in codes
        assert state.status == status and state.snapshot and all(c.front and c.back for c in state.snapshot.cards)
        space.builder.close()
    root = mini(tmp_path, "final")  # not a draft: missing art stays an error, and no faces are drawn
    _missing_art(root)
    space = Workspace(Project(root), ["mini"], options=BuildSettings.of())
    space.check("mini")
    state = space.games["mini"]
    assert state.status == "errors" and ("image-missing", "error") in {
        (p.diagnostic.code, str(p.diagnostic.severity)) for p in state.problems}
    space.builder.close()
