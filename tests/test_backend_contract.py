"""What the adapter (cardforge/render/backend/) assumes of ReportLab, each checked on its
own: a ReportLab release that breaks one fails here, by name, instead of as a deck PDF
that differs somewhere deep."""
from __future__ import annotations

import io
import threading

import pikepdf
import pytest
from PIL import Image
from reportlab.lib.colors import CMYKColorSep
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Frame, PageTemplate, Paragraph, Table
from reportlab.platypus.tableofcontents import TableOfContents

from cardforge.render import backend, fonts

SANS = fonts.pdf_name("sans")  # a shipped TrueType face, registered with ReportLab


def canvas(path=None) -> Canvas:
    return Canvas(path or io.BytesIO(), invariant=1, pageCompression=1, initialFontName=SANS)


def draw(c: Canvas) -> None:
    c.setFillColorRGB(0.2, 0.4, 0.6)
    c.rect(10, 20, 30, 40, fill=1)
    c.setFont(SANS, 9)
    c.drawString(12, 30, "Roll a die")


def page_streams(data: bytes) -> list[bytes]:
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [page.Contents.read_bytes() for page in pdf.pages]


def saved(c: Canvas) -> bytes:
    c.save()
    return c._filename.getvalue()


def test_a_pages_content_stream_is_its_preamble_then_the_pending_operators():
    c = canvas()
    draw(c)
    ops, preamble = backend.pending_operators(c), backend.page_preamble(c)
    assert backend.has_operators(c) and "re" in ops and "Tj" in ops
    assert backend.page_size(c) == pytest.approx(c._pagesize)
    c.showPage()
    assert not backend.has_operators(c)
    assert page_streams(saved(c)) == [f"{preamble}\n{ops}\n \n".encode()], \
        "ReportLab no longer writes a page's stream as its preamble and operators joined by newlines"


def test_appended_operators_and_resources_write_what_drawing_wrote():
    gold = CMYKColorSep(0, 0.5, 1, 0, spotName="Gold", density=1)
    drawn, written = canvas(), canvas()
    for c in (drawn, written):  # the same first page: the document defines the form, colour and font
        draw(c)
        c.beginForm("dot", 0, 0, 1, 1)
        c.circle(0.5, 0.5, 0.5, fill=1)
        c.endForm()
        c.setFillColor(gold)
        c.rect(0, 0, 5, 5, fill=1)
        c.showPage()
    draw(drawn)
    drawn.setFillColor(gold)
    drawn.rect(0, 0, 5, 5, fill=1)
    drawn.doForm("dot")
    ops, used = backend.pending_operators(drawn), backend.resources(drawn)
    assert used.forms == ["dot"] and list(used.colors) == ["Gold"], "the page's resources are not listed as assumed"
    backend.append_operators(written, ops)
    backend.add_resources(written, used.forms, used.colors, used.shadings)
    assert saved(written) == saved(drawn)


def test_place_form_writes_what_the_public_calls_write():
    def form(c: Canvas) -> None:
        c.beginForm("dot", 0, 0, 1, 1)
        c.circle(0.5, 0.5, 0.5, fill=1)
        c.endForm()

    public, placed = canvas(), canvas()
    for c in (public, placed):
        form(c)
    public.saveState()
    public.translate(20.123456, 30)
    public.scale(12, 12)
    public.doForm("dot")
    public.restoreState()
    backend.place_form(placed, "dot", 20.123456, 30, 12)
    assert backend.pending_operators(placed) == backend.pending_operators(public)
    assert backend.resources(placed).forms == ["dot"]
    assert saved(placed) == saved(public)


def test_drawn_since_tells_what_was_drawn_and_when_it_cannot():
    c = canvas()
    c.translate(5, 5)
    at = backend.mark(c)
    draw(c)
    drawn = backend.drawn_since(c, at)
    assert drawn is not None and drawn.ops.endswith(" ET") and drawn.forms == [] and drawn.colors == {}
    assert drawn.ops == backend.pending_operators(c).split("\n", 1)[1]

    c.translate(3, 3)
    at = backend.mark(c)
    c.translate(1, 1)  # merged into the translation before the mark: not told apart
    assert backend.drawn_since(c, at) is None, "ReportLab no longer merges consecutive transformations"
    at = backend.mark(c)
    c.showPage()
    assert backend.drawn_since(c, at) is None  # another page


def test_operator_strings_name_fonts_and_graphics_states_as_assumed():
    c = canvas()
    backend.fill_first_subset(c, SANS, "")
    c.setFont(SANS, 9)
    c.drawString(0, 0, "x")
    c.setFont("Helvetica", 9)
    c.setFillAlpha(0.5)
    ops = backend.pending_operators(c)
    assert backend.fonts_set(ops) == [(backend.font_resource_name(c, SANS), 0),
                                      (backend.font_resource_name(c, "Helvetica"), None)]
    assert backend.uses_graphics_state(ops) and not backend.uses_graphics_state("0 0 1 1 re f")
    assert backend.has_annotations(c) is False
    c.linkURL("https://example.invalid", (0, 0, 10, 10))
    assert backend.has_annotations(c)


def test_a_full_first_subset_is_never_added_to():
    c = canvas()
    chars = "".join(chr(n) for n in range(0x21, 0x180))
    assert backend.fill_first_subset(c, SANS, chars), "the first subset did not fill to 256 codes"
    font = pdfmetrics.getFont(SANS)
    state = font.state[c._doc]
    before = (state.nextCode, dict(state.assignments))
    c.setFont(SANS, 9)
    c.drawString(0, 0, "Roll a die; café ½")
    assert (state.nextCode, dict(state.assignments)) == before
    assert not backend.fill_first_subset(canvas(), SANS, "ab")  # a few characters leave room


def test_declare_transparency_makes_the_pdf_version_1_4():
    c = canvas()
    backend.declare_transparency(c)
    assert saved(c).startswith(b"%PDF-1.4")


def test_glyph_widths_add_up_to_stringwidth():
    widths, default = backend.glyph_widths(SANS)
    text = "Roll a die: ½ café"
    assert sum(widths.get(ord(ch), default) for ch in text) * 0.001 * 9 == pytest.approx(
        pdfmetrics.stringWidth(text, SANS, 9), abs=1e-9)


def test_a_sealed_page_and_the_streamed_save_are_reportlabs_own_bytes(tmp_path):
    theirs, ours = canvas(), canvas()
    for c in (theirs, ours):
        draw(c)
        c.showPage()
        draw(c)
        c.showPage()
    assert all(page.Contents is None and page.stream for page in ours._doc.Pages.pages)
    content = backend.last_page_stream(ours)
    spill = (tmp_path / "spill").open("w+b")
    spill.write(b"before" + content)
    backend.seal_last_page(ours, spill, 6, len(content))
    assert backend.last_page_stream(ours) is None  # sealed already
    out = io.BytesIO()
    backend.save_streamed(ours, out)
    expected = saved(theirs)
    with pikepdf.open(io.BytesIO(expected)) as pdf:
        assert pdf.pages[1].Contents.read_raw_bytes() == content, "a page's sealed bytes are not what the PDF holds"
    assert out.getvalue() == expected, "the streamed save wrote other bytes than canvas.save()"
    assert all(p.Resources is None and p.MediaBox is None for p in ours._doc.Pages.pages)  # dropped once written


def test_the_streamed_save_relies_on_the_save_loops_names_and_changes_no_module():
    from reportlab.pdfbase import pdfdoc

    code = pdfdoc.PDFDocument.format.__code__
    assert {"PDFFile", "PDFIndirectObject"} <= set(code.co_names) and not code.co_freevars, \
        "ReportLab's save loop no longer makes its output collector and objects by these global names"
    before = {name: value for name, value in vars(pdfdoc).items() if not name.startswith("__")}
    results = []

    def save(streamed: bool) -> None:
        c = canvas()
        draw(c)
        out = io.BytesIO()
        if streamed:
            backend.save_streamed(c, out)
        else:
            c._filename = out
            c.save()
        results.append(out.getvalue())

    threads = [threading.Thread(target=save, args=(n % 2 == 0,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(results)) == 1 and len(results) == 8
    assert {name: value for name, value in vars(pdfdoc).items() if not name.startswith("__")} == before


def test_table_row_heights_are_the_rows_drawn():
    table = Table([["one"], ["two\nlines"], ["three"]])
    width, height = table.wrap(200, 1000)
    heights = backend.table_row_heights(table)
    assert len(heights) == 3 and heights[1] > heights[0] == heights[2]
    assert sum(heights) == pytest.approx(height), "the row heights read do not add up to the table's"


def test_contents_entries_are_the_entries_of_the_pass_built(tmp_path):
    toc = TableOfContents()
    style = ParagraphStyle("h", fontName=SANS)

    class Doc(BaseDocTemplate):
        def afterFlowable(self, flowable):
            if isinstance(flowable, Paragraph) and flowable.style is style:
                self.canv.bookmarkPage("k" + flowable.getPlainText())
                self.notify("TOCEntry", (0, flowable.getPlainText(), self.page, "k" + flowable.getPlainText()))

    doc = Doc(str(tmp_path / "toc.pdf"), invariant=1)
    doc.addPageTemplates([PageTemplate("p", frames=[Frame(72, 72, 400, 600)])])
    doc.multiBuild([toc, Paragraph("Setup", style), Paragraph("Turns", style)])
    assert backend.contents_entries(toc) == [(0, "Setup", 1, "kSetup"), (0, "Turns", 1, "kTurns")]


def test_a_paragraphs_pictures_are_drawn_from_the_reader_they_hold(tmp_path):
    small, large = tmp_path / "small.png", tmp_path / "large.png"
    Image.new("RGB", (2, 2), "red").save(small)
    Image.new("RGB", (3, 5), "blue").save(large)
    para = Paragraph(f'Pay <img src="{small}" width="9" height="9"/> now', ParagraphStyle("b", fontName=SANS))
    pictures = backend.paragraph_images(para)
    assert [p.src for p in pictures] == [str(small)] and isinstance(pictures[0].image, ImageReader)
    pictures[0].image = ImageReader(str(large))
    c = canvas()
    para.wrapOn(c, 200, 100)
    para.drawOn(c, 10, 10)
    with pikepdf.open(io.BytesIO(saved(c))) as pdf:
        images = [x for x in pdf.pages[0].Resources.XObject.values() if x.Subtype == "/Image"]
    assert [(int(i.Width), int(i.Height)) for i in images] == [(3, 5)], "the paragraph drew another reader"


def test_a_parse_kept_gives_each_paragraph_reportlabs_fragments_of_its_own():
    style = ParagraphStyle("p", fontName=SANS, fontSize=9, leading=11, textTransform="uppercase")
    text = "Pay <b>two</b>   coins,\n then <i>draw</i>."
    own = Paragraph(text, style)
    made = [backend.parse_paragraph(text, style, None) for _ in range(2)]
    assert made[0][0] == made[1][0] == own.text
    first, second = made[0][1], made[1][1]
    assert [vars(f) for f in first] == [vars(f) for f in second] == [vars(f) for f in own.frags]
    assert all(a is not b for a, b in zip(first, second)), "two paragraphs share a fragment"
    parsed = Paragraph(made[0][0], style, frags=first)
    assert parsed.wrap(60, 1000) == own.wrap(60, 1000) and parsed.getPlainText() == own.getPlainText()
    style.fontSize = 12  # a style changed in place is parsed afresh
    assert {f.fontSize for f in backend.parse_paragraph(text, style, None)[1]} == {12}


def test_a_parse_with_pictures_is_kept_only_while_the_caller_says_they_are_the_same(tmp_path):
    picture = tmp_path / "coin.png"
    Image.new("RGB", (2, 2), "red").save(picture)
    text = f'Pay <img src="{picture}" width="9" height="9"/> now'
    style = ParagraphStyle("q", fontName=SANS)
    kept = backend.parse_paragraph(text, style, None, reusable=lambda pictures: True)[1]
    again = backend.parse_paragraph(text, style, None, reusable=lambda pictures: True)[1]
    assert kept[1].cbDefn is not again[1].cbDefn and kept[1].cbDefn.image is again[1].cbDefn.image
    Image.new("RGB", (3, 5), "blue").save(picture)
    fresh = backend.parse_paragraph(text, style, None, reusable=lambda pictures: False)[1]
    assert fresh[1].cbDefn.image.getSize() == (3, 5), "a picture that may have changed was not read again"


def test_a_paragraph_wrapped_again_at_its_width_keeps_reportlabs_lines_and_height():
    from cardforge.documents.readers import Paragraph as Ours

    style = ParagraphStyle("b", fontName=SANS, fontSize=9, leading=11)
    text = "Draw two cards, then discard one of them face up beside the market row. " * 3
    para = Ours(text, style)
    first = para.wrap(150, 1000)
    lines = para.blPara
    assert para.wrap(150, 1000) == first and para.blPara is lines
    fresh = Paragraph(text, style)
    assert fresh.wrap(150, 1000) == first, "the height differs from ReportLab's own wrap"
    narrower = para.wrap(100, 1000)
    assert narrower[1] > first[1] and para.blPara is not lines, "another width kept the old lines"
    assert para.wrap(150, 1000) == first
    style.leading = 14  # a style changed in place is wrapped afresh, as ReportLab wraps it
    assert para.wrap(150, 1000) == fresh.wrap(150, 1000)
    assert fresh.height > first[1]


def _drawn(paragraphs) -> bytes:
    """The page ``paragraphs`` (wrapped already) draw one below the other."""
    c = canvas()
    y = 700
    for para in paragraphs:
        para.drawOn(c, 20, y - para.height)
        y -= para.height + 10
    c.showPage()
    return saved(c)


def test_paragraphs_of_one_markup_break_their_lines_once_and_a_split_leaves_the_shared_lines_whole(monkeypatch):
    from cardforge.documents.readers import Paragraph as Ours

    broken = []
    original = Paragraph.breakLines
    monkeypatch.setattr(Paragraph, "breakLines", lambda self, widths: broken.append(widths) or original(self, widths))
    style = ParagraphStyle("s", fontName=SANS, fontSize=9, leading=11, alignment=4)  # justified: words re-spaced
    text = "Draw <b>two</b> cards, then discard one of them face up beside the market row. " * 4
    first, second = Ours(text, style), Ours(text, style)
    assert first.wrap(140, 1000) == second.wrap(140, 1000)
    assert len(broken) == 1 and first.blPara is second.blPara, "the same markup at the same width was broken twice"
    own = Paragraph(text, style)
    assert own.wrap(140, 1000) == first.wrap(140, 1000) and own._width_max == second._width_max

    parts = first.split(140, 3 * 11)  # ReportLab's split rewrites the words of the lines it cuts
    assert len(parts) == 2 and first.blPara is not second.blPara, "a split worked on the shared lines"
    third = Ours(text, style)
    third.wrap(140, 1000)
    assert third.blPara is second.blPara
    assert _drawn([second, third]) == _drawn([own, _wrapped(Paragraph(text, style))]), "the shared lines changed"


def _wrapped(para):
    para.wrap(140, 1000)
    return para
