"""Icon forms kept in the user cache: a deck drawn with them is the same bytes as one drawn
from the SVG files, a warm deck never imports the SVG reader, and a form that cannot be
written into another PDF as it is (a font outside the prepared faces) is never kept."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO, make_project

SLUGS = ("through-the-gate", "gateway")

DRAW = """
import json, sys
from pathlib import Path
from cardforge.build import Project, compile_game
from cardforge.render.deck import render_deck
root, slug, out = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
compiled = compile_game(root / "cards" / slug, Project(root))
render_deck(compiled.game, compiled.layouts, out)
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("svglib", "lxml"))))
"""


def _draw(root: Path, slug: str, out: Path, cache: Path) -> list[str]:
    """Draw ``slug``'s deck into ``out`` in a fresh process whose user cache is ``cache``;
    returns the SVG-reading modules it imported."""
    proc = subprocess.run([sys.executable, "-c", DRAW, str(root), slug, str(out)], capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "HOME": str(root),
                               "XDG_CACHE_HOME": str(cache)}, check=False)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("slug", SLUGS)
def test_a_deck_drawn_from_kept_forms_is_the_same_bytes_and_reads_no_svg(tmp_path, slug):
    root = make_project(tmp_path / "p", slug)
    cache = tmp_path / "user-cache"
    cold = _draw(root, slug, tmp_path / "cold.pdf", cache)
    assert "svglib" in cold  # the first deck reads its icon files
    kept = list((cache / "cardforge" / "icon-form").glob("*.pickle"))
    assert kept
    warm = _draw(root, slug, tmp_path / "warm.pdf", cache)
    assert warm == []
    assert (tmp_path / "warm.pdf").read_bytes() == (tmp_path / "cold.pdf").read_bytes()


def test_an_edited_icon_file_is_drawn_again(tmp_path):
    slug = "through-the-gate"
    root = make_project(tmp_path / "p", slug)
    cache = tmp_path / "user-cache"
    _draw(root, slug, tmp_path / "before.pdf", cache)
    icon = sorted((root / "cards" / slug / "icons").glob("*.svg"))[0]
    icon.write_text(icon.read_text(encoding="utf-8").replace("<svg", "<svg data-edited='1'", 1), encoding="utf-8")
    after = _draw(root, slug, tmp_path / "after.pdf", cache)
    assert "svglib" in after  # that icon's form is drawn from its file again
    _draw(root, slug, tmp_path / "fresh.pdf", tmp_path / "empty-cache")
    assert (tmp_path / "after.pdf").read_bytes() == (tmp_path / "fresh.pdf").read_bytes()


def test_a_form_in_a_font_outside_the_prepared_faces_is_not_kept(tmp_path, monkeypatch):
    from reportlab.pdfgen.canvas import Canvas

    from cardforge.model import Icon
    from cardforge.render import icons
    from cardforge.render import pagecache as pages

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(icons, "_KEPT", {})
    prepared = Canvas(str(tmp_path / "a.pdf"), invariant=1)
    pages.prepare(prepared, ("sans", "sans-bold"))
    bare = Canvas(str(tmp_path / "b.pdf"), invariant=1)  # not prepared: its fonts differ from PDF to PDF
    badge = Icon(name="two", label="Two", badge="2", color="#336699")
    for canvas in (prepared, bare):
        stamp = icons.IconStamp(canvas)
        stamp.form_name(badge)
    kept = [v for v in icons._KEPT.values() if v is not None]
    assert len(kept) == 1 and "Tf" in kept[0][0]  # the badge's figure, set in the prepared bold face
