"""rulebook.html, the rulebook as one web page: the same headings and glossary as
rulebook.pdf, and, in Debian's chromium driven by Playwright, a page that stands alone (no
request outside the file, no broken image or link), reads from 360 px wide, finds cards,
works without script and passes axe-core with no serious or critical violation.

Needs chromium (see tests/test_serve_browser.py); the browser tests are marked slow.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from pypdf import PdfReader

from cardforge.almanac.odds import ODDS_HEADING
from conftest import SHIPPED
from test_serve_browser import ARGS, chromium


def book(all_built: Path, slug: str) -> Path:
    path = all_built / "output" / slug / "rulebook.html"
    assert path.is_file(), f"{slug}: no rulebook.html beside rulebook.pdf"
    return path


class _Outline(HTMLParser):
    """The contents entries (``nav#contents`` links), headings and glossary terms of a page."""

    def __init__(self):
        super().__init__()
        self.contents: list[str] = []
        self.headings: list[tuple[str, str]] = []
        self.terms: list[str] = []
        self._in: list[str] = []
        self._text = ""
        self._nav = False

    def handle_starttag(self, tag, attrs):
        if tag == "nav" and dict(attrs).get("id") == "contents":
            self._nav = True
        if tag in ("h2", "h3", "dt") or (tag == "a" and self._nav):
            self._in.append(tag)
            self._text = ""
            self._href = dict(attrs).get("href", "")

    def handle_endtag(self, tag):
        if tag == "nav":
            self._nav = False
        if self._in and self._in[-1] == tag:
            self._in.pop()
            text = re.sub(r"\s+", " ", self._text).strip()
            if tag == "a" and not self._href.startswith("#odds-"):  # the odds are the web page's own
                self.contents.append(text)
            elif tag == "dt":
                self.terms.append(text)
            else:
                self.headings.append((tag, text))

    def handle_data(self, data):
        if self._in:
            self._text += data


def outline(path: Path) -> _Outline:
    parser = _Outline()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def pdf_text(path: Path) -> list[str]:
    return [re.sub(r"[ \t]+", " ", page.extract_text() or "") for page in PdfReader(path).pages]


def contents_entries(pages: list[str]) -> list[str]:
    """The entries of rulebook.pdf's contents page(s), without their dot leaders and page numbers."""
    entries: list[str] = []
    for text in pages:
        lines = [line.strip() for line in text.splitlines() if line.strip() and " · rulebook" not in line]
        if "Contents" in lines and not entries:
            lines = lines[lines.index("Contents") + 1:]
        elif not entries or not any(re.fullmatch(r"[ .]*\d+", line) for line in lines):
            continue
        entries += [line for line in lines if not re.fullmatch(r"[ .\d]*", line)]
        if not re.fullmatch(r"[ .]*\d+", lines[-1]):
            break  # the rules start on this page
    return entries


@pytest.mark.parametrize("slug", SHIPPED)
def test_the_web_page_has_the_pdfs_contents_and_glossary(all_built, slug):
    found = outline(book(all_built, slug))
    pages = pdf_text(all_built / "output" / slug / "rulebook.pdf")
    squash = lambda s: re.sub(r"\s+", "", s)  # noqa: E731 - pypdf may drop or add spaces at line ends
    web = [squash(e) for e in found.contents if e != ODDS_HEADING]  # rulebook.pdf prints no odds: reference.pdf does
    assert web == [squash(e) for e in contents_entries(pages)]
    assert len(found.contents) >= 5
    glossary = next(i for i, p in enumerate(pages) if "Glossary" in [line.strip() for line in p.splitlines()])
    text = squash(" ".join(pages[glossary:]))
    assert found.terms, slug
    for term in found.terms:
        assert squash(term + ":") in text, (slug, term)


def test_every_pack_with_a_rulebook_has_its_web_page(all_built):
    for pack in sorted((all_built / "cards").iterdir()):
        html = all_built / "output" / pack.name / "rulebook.html"
        assert html.is_file() == (pack / "rulebook.md").is_file(), pack.name


@pytest.fixture(scope="module")
def browser():
    path = chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=ARGS)
        yield browser
        browser.close()


def _open(browser, path: Path, width: int, script: bool = True):
    context = browser.new_context(viewport={"width": width, "height": 800}, java_script_enabled=script)
    page = context.new_page()
    page.problems = []
    page.on("pageerror", lambda exc: page.problems.append(f"script error: {exc}"))
    page.on("console", lambda msg: page.problems.append(f"console: {msg.text}") if msg.type == "error" else None)
    url = path.resolve().as_uri()
    page.on("request", lambda r: None if r.url == url or r.url.startswith("data:")
            else page.problems.append(f"request: {r.url}"))
    page.goto(url, wait_until="load")
    return context, page


@pytest.mark.slow
@pytest.mark.parametrize("slug", SHIPPED)
def test_the_web_page_stands_alone_and_reads_on_a_phone(browser, all_built, slug):
    path = book(all_built, slug)
    context, page = _open(browser, path, 360)
    try:
        page.evaluate("() => Promise.all([...document.images].map(i => { i.loading = 'eager'; return i.decode(); }))")
        broken = page.evaluate("[...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.alt)")
        assert broken == []
        assert page.locator("img").count() >= page.locator("article.card").count() >= 1  # every card shows its front
        # every link and icon reference stays in the page and lands on an element that exists
        targets = page.evaluate("""[...document.querySelectorAll('a[href], use')].map(a => a.getAttribute('href'))""")
        assert targets and all(t.startswith("#") for t in targets), [t for t in targets if not t.startswith("#")]
        missing = page.evaluate("""hrefs => hrefs.filter(h => !document.getElementById(decodeURIComponent(h.slice(1))))""",
                                sorted(set(targets)))
        assert missing == []
        assert page.locator("a.term").count() >= 1  # rules and cards link to the glossary
        # no horizontal scroll at 360 px
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), \
            page.evaluate("[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 361)"
                          ".slice(0, 3).map(e => e.outerHTML.slice(0, 120))")
        # the almanac's search box and type filter
        cards = page.locator("article.card")
        total = cards.count()
        first = page.locator("article.card h4").first.inner_text().split(" × ")[0].rstrip("†")  # † : a designed name
        page.fill("#q", first)
        shown = page.locator("article.card:visible")
        assert 1 <= shown.count() < total or total == 1
        assert first in [n.split(" × ")[0].rstrip("†") for n in page.locator("article.card:visible h4").all_inner_texts()]
        assert all(first.lower() in c.get_attribute("data-search") for c in shown.all())  # only cards that match
        page.fill("#q", "")
        kinds = page.locator("#type option").all()
        value = kinds[1].get_attribute("value")
        page.select_option("#type", value)
        assert page.locator("article.card:visible").count() == page.locator(f'article.card[data-type="{value}"]').count()
        assert page.locator(f'article.card:visible:not([data-type="{value}"])').count() == 0
        page.select_option("#type", "")
        assert page.locator("article.card:visible").count() == total
        # axe-core: no serious or critical violation
        from axe_playwright_python.sync_playwright import Axe

        results = Axe().run(page)
        serious = [(v["id"], v["impact"], len(v["nodes"])) for v in results.response["violations"]
                   if v["impact"] in ("serious", "critical")]
        assert serious == []
        assert page.problems == []
    finally:
        context.close()


@pytest.mark.slow
def test_the_web_page_without_script_wide_and_printed(browser, all_built):
    slug = "gate"
    path = book(all_built, slug)
    context, page = _open(browser, path, 1200, script=False)
    try:
        cards = page.locator("article.card")
        assert cards.count() >= 1 and page.locator("article.card:visible").count() == cards.count()
        assert not page.locator(".finder").is_visible()  # no control that cannot work
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.emulate_media(media="print")
        assert not page.locator("nav#contents").is_visible() and page.locator("article.card").first.is_visible()
        assert page.problems == []
    finally:
        context.close()


def test_after_a_one_card_edit_the_web_page_draws_one_card(tmp_path, monkeypatch):
    """rulebook.html's card pictures are kept per card in the user cache (card-pictures): an
    edit draws the edited card again, and the page is byte for byte what a build that keeps
    no picture writes."""
    import cardforge.export.faces as faces
    from cardforge.build import Project, compile_game
    from cardforge.cache.registry import CARD_PICTURES
    from cardforge.documents.webbook import render_rulebook_html
    from conftest import fresh_user_cache, make_project

    fresh_user_cache(monkeypatch, tmp_path / "cache")  # no picture kept by another test's build
    root = make_project(tmp_path / "project", "gate")
    drawn: list[list[str]] = []
    real = faces.face_pdf
    monkeypatch.setattr(faces, "face_pdf", lambda cards, *a, **k: (drawn.append([c.name for c in cards]),
                                                                   real(cards, *a, **k))[1])

    def page(keeping: bool) -> bytes:
        compiled = compile_game(root / "cards" / "gate", Project(root))
        out = tmp_path / "rulebook.html"
        monkeypatch.setenv("CARDFORGE_CACHE_OFF", "" if keeping else CARD_PICTURES.name)
        render_rulebook_html(compiled.game, compiled.layouts, out)
        return out.read_bytes()

    first = page(True)
    assert len(drawn[-1]) == len({c.id for c in compile_game(root / "cards" / "gate", Project(root)).game.cards})
    assert page(True) == first and len(drawn) == 1  # nothing drawn again
    citizens = root / "cards" / "gate" / "citizens.yaml"
    text = citizens.read_text()
    name = re.search(r"name: (.+)", text).group(1).strip()
    citizens.write_text(text.replace(f"name: {name}", f"name: {name} Elder", 1))
    edited = page(True)
    assert drawn[-1] == [f"{name} Elder"] and edited != first
    assert edited == page(False) and len(drawn[-1]) > 1  # the same bytes as a build that keeps nothing


def test_anatomy_pictures_are_drawn_again_only_when_a_sample_card_changes(tmp_path, monkeypatch):
    """rulebook.html's anatomy figures are kept in the user cache (card-pictures) under their
    sample cards' fields: renaming another card draws none of them again, renaming a sample
    card draws them again, and the page is each time byte for byte what a build that keeps
    no picture writes."""
    import pickle

    import cardforge.documents.anatomy as anatomy
    from cardforge.build import Project, compile_game
    from cardforge.cache import kept
    from cardforge.cache.registry import CARD_PICTURES
    from cardforge.documents.webbook import render_rulebook_html
    from conftest import fresh_user_cache, make_project

    fresh_user_cache(monkeypatch, tmp_path / "cache")  # no picture kept by another test's build
    root = make_project(tmp_path / "project", "gate")
    pack = root / "cards" / "gate"
    drawn: list[int] = []
    real = anatomy._drawn
    monkeypatch.setattr(anatomy, "_drawn", lambda figures, *a: (drawn.append(len(figures)), real(figures, *a))[1])

    def page(keeping: bool) -> bytes:
        compiled = compile_game(pack, Project(root))
        out = tmp_path / "rulebook.html"
        monkeypatch.setenv("CARDFORGE_CACHE_OFF", "" if keeping else CARD_PICTURES.name)
        render_rulebook_html(compiled.game, compiled.layouts, out)
        return out.read_bytes()

    def rename(card_name: str) -> None:
        path = next(p for p in sorted(pack.glob("*.yaml")) if f"name: {card_name}\n" in p.read_text())
        path.write_text(path.read_text().replace(f"name: {card_name}\n", f"name: {card_name} Elder\n", 1))

    first = page(True)
    assert drawn and drawn[0] >= 2 and first.count(b'<figure class="anatomy-figure">') == drawn[0]
    assert page(True) == first and len(drawn) == 1  # nothing drawn again
    figures = [f.stem for f in CARD_PICTURES.folder().glob("*.pickle")
               if isinstance(pickle.loads(f.read_bytes())[1], list)]  # the anatomy entry (a card's is a pair)
    assert len(figures) == 1
    kept.put(CARD_PICTURES, figures[0], [("not a picture",)])  # the right key, a wrong shape
    assert page(True) == first and len(drawn) == 2  # a miss: drawn again, kept again
    assert page(True) == first and len(drawn) == 2

    game = compile_game(pack, Project(root))
    samples = {anatomy.sample(game.game, t, game.layouts).name for t in game.game.card_types}
    other = next(c.name for c in game.game.cards if c.name not in samples and f"name: {c.name}\n" in
                 "".join(p.read_text() for p in pack.glob("*.yaml")))
    rename(other)
    assert page(True) == page(False) and len(drawn) == 3  # only the page that keeps nothing drew them
    rename(sorted(samples)[0])
    again = page(True)
    assert len(drawn) == 4 and again != first
    assert again == page(False)


def test_a_back_every_card_shares_is_drawn_once_and_each_card_shows_the_back_it_prints(tmp_path):
    """face_pdf's shared backs (rulebook.html's pictures, serve's images): a back that prints
    alike on every card is one page, and card_pages gives each card the images of the pages
    drawn for that card alone (every back drawn), backs first or last."""
    from pypdfium2 import PdfDocument

    from cardforge.build import Project, compile_game
    from cardforge.export.faces import card_pages, face_pdf, rasterise
    from conftest import make_project

    root = make_project(tmp_path / "project", "gate")
    compiled = compile_game(root / "cards" / "gate", Project(root))
    cards = compiled.game.cards[:30]
    every = tmp_path / "every.pdf"
    plain = face_pdf(cards, compiled.game, compiled.layouts, every, bleed=False)
    assert plain == [(2 * i, 2 * i + 1) for i in range(len(cards))]
    drawn = [image.tobytes() for image in rasterise(every, 40)]
    for back_first in (False, True):
        shared = tmp_path / f"shared-{back_first}.pdf"
        placed = face_pdf(cards, compiled.game, compiled.layouts, shared, bleed=False, shared_backs=True,
                          back_first=back_first)
        assert len(PdfDocument(str(shared))) == len({n for pair in placed for n in pair}) < 2 * len(cards)
        for (own_front, own_back), ((_, front), (_, back)) in zip(plain, card_pages(placed, rasterise(shared, 40))):
            assert front.tobytes() == drawn[own_front] and back.tobytes() == drawn[own_back]
