"""Inline icon pictures in the rules documents are read and decoded once per picture, and the PDF
is the one ReportLab writes when every paragraph reads its pictures itself."""
from __future__ import annotations

from reportlab.lib.utils import ImageReader

from cardforge.build import Project, compile_game
from cardforge.cache.memo import Bounded
from cardforge.render import backend
from cardforge.render.backend import flowables
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


def _opened(monkeypatch) -> list:
    """Record each picture file a reader opens (ReportLab's parser makes one per ``<img>``)."""
    opened = []
    original = ImageReader._read_image

    def read_image(self, fp):
        opened.append(self.fileName)
        return original(self, fp)

    monkeypatch.setattr(ImageReader, "_read_image", read_image)
    return opened


def test_icons_are_decoded_once_and_the_pdf_is_unchanged(tmp_path, monkeypatch):
    slug = "through-the-gate"
    root = make_project(tmp_path, slug)
    compiled = compile_game(root / "cards" / slug, Project(root))
    game = compiled.game
    monkeypatch.setattr(readers, "_BY_CONTENT", {})  # nothing decoded by the tests before
    monkeypatch.setattr(flowables, "_PARSED", Bounded(4096))  # every paragraph parsed here
    decoded, opened = _decodes(monkeypatch), _opened(monkeypatch)
    render_reference(game, tmp_path / "shared.pdf")
    shared = list(decoded)
    assert shared and len(shared) == len(set(shared)) <= len(game.icons)  # one decode per picture
    assert len(opened) <= len(game.icons)  # and one read: a paragraph parsed takes the shared reader

    decoded.clear()
    opened.clear()
    with monkeypatch.context() as m:
        m.setattr(backend, "paragraph_images", lambda paragraph: [])  # ReportLab's own: a reader per <img>,
        m.setattr(flowables, "_PARSED", Bounded(0))  # each paragraph parsed afresh (the paragraphs memo off)
        render_reference(game, tmp_path / "own.pdf")
    assert len(decoded) > 5 * len(shared) and len(opened) > 5 * len(game.icons)
    assert (tmp_path / "shared.pdf").read_bytes() == (tmp_path / "own.pdf").read_bytes()


def test_paragraphs_share_their_lines_only_while_their_pictures_are_the_same(tmp_path):
    from PIL import Image
    from reportlab.lib.styles import ParagraphStyle

    from cardforge.render import fonts

    picture = tmp_path / "coin.png"
    style = ParagraphStyle("p", fontName=fonts.pdf_name("sans"), fontSize=9, leading=11)
    text = f'Pay <img src="{picture}" width="9" height="9"/> to draw two cards, then discard one of them. ' * 2
    made = []
    for color in ("red", "red", "blue"):  # the same file, written again
        Image.new("RGB", (4, 4), color).save(picture)
        reader = readers.share(picture, picture.read_bytes())  # held while the paragraph is laid out
        para = readers.Paragraph(text, style)
        pixels = backend.paragraph_images(para)[0].image.getRGBData()
        para.wrap(150, 1000)
        made.append((reader, para, pixels))
    (_, red, red_pixels), (_, red_again, _), (_, blue, blue_pixels) = made
    assert red_pixels != blue_pixels
    assert red_again.blPara is red.blPara, "the same markup and picture was broken into lines twice"
    assert blue.blPara is not red.blPara, "a picture of other content was drawn from lines kept for the first"


def test_a_rebuild_in_the_same_process_parses_no_paragraph_again(tmp_path, monkeypatch):
    """The icon pictures' files are named by their content in the user cache, so the second
    reference.pdf's paragraphs hold the same markup as the first's: ``cardforge watch`` and
    ``serve`` redraw a game without parsing its rules text again. With user caches off, each
    document writes its pictures into a folder of its own, as before."""
    from reportlab.platypus.paraparser import ParaParser

    slug = "through-the-gate"
    root = make_project(tmp_path, slug)
    game = compile_game(root / "cards" / slug, Project(root)).game
    monkeypatch.setattr(flowables, "_PARSED", Bounded(4096))
    parsed = []
    original = ParaParser.parse

    def parse(self, text, style):
        parsed.append(text)
        return original(self, text, style)

    monkeypatch.setattr(ParaParser, "parse", parse)
    render_reference(game, tmp_path / "first.pdf")
    first = list(parsed)
    assert sum("<img" in text for text in first) > 20
    parsed.clear()
    render_reference(game, tmp_path / "again.pdf")
    assert parsed == []
    assert (tmp_path / "first.pdf").read_bytes() == (tmp_path / "again.pdf").read_bytes()

    monkeypatch.setenv("CARDFORGE_NO_USER_CACHE", "1")
    render_reference(game, tmp_path / "own-folder.pdf")
    assert sum("<img" in text for text in parsed) > 20  # a folder of its own: its markup is new
    assert (tmp_path / "own-folder.pdf").read_bytes() == (tmp_path / "first.pdf").read_bytes()
