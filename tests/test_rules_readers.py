"""Inline icon pictures in the rules documents are decoded once per picture, and the PDF
is the one ReportLab writes when every paragraph reads its pictures itself."""
from __future__ import annotations

from reportlab.lib.utils import ImageReader

from cardforge.build import Project, compile_game
from cardforge.render import backend
from cardforge.documents import readers
from cardforge.documents.reference import render_reference
from conftest import make_project


def _decodes(monkeypatch) -> list:
    """Record each picture file decoded (a reader's first getRGBData; its alpha channel,
    a reader of its own, apart)."""
    decoded = []
    original = ImageReader.getRGBData

    def getRGBData(self):
        if self._data is None and str(self.fileName).endswith(".png"):
            decoded.append(self.fileName)
        return original(self)

    monkeypatch.setattr(ImageReader, "getRGBData", getRGBData)
    return decoded


def test_icons_are_decoded_once_and_the_pdf_is_unchanged(tmp_path, monkeypatch):
    slug = "through-the-gate"
    root = make_project(tmp_path, slug)
    compiled = compile_game(root / "cards" / slug, Project(root))
    game = compiled.game
    monkeypatch.setattr(readers, "_BY_CONTENT", {})  # nothing decoded by the tests before
    decoded = _decodes(monkeypatch)
    render_reference(game, tmp_path / "shared.pdf")
    shared = list(decoded)
    assert shared and len(shared) == len(set(shared)) <= len(game.icons)  # one decode per picture

    decoded.clear()
    with monkeypatch.context() as m:
        m.setattr(backend, "paragraph_images", lambda paragraph: [])  # ReportLab's own: a reader per <img>
        render_reference(game, tmp_path / "own.pdf")
    assert len(decoded) > 5 * len(shared)
    assert (tmp_path / "shared.pdf").read_bytes() == (tmp_path / "own.pdf").read_bytes()
