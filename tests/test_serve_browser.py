"""The preview page in a real browser (Debian's chromium driven by Playwright): the gallery,
live updates after a save, a broken file's diagnostic, and refused paths.

Needs chromium (``apt-get install chromium``; ``CARDFORGE_CHROMIUM`` names another binary).
Without one these tests are skipped on a workstation and fail under CI (``CI`` set).
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from cardforge.build import Project, compile_game
from conftest import REPO

pytestmark = pytest.mark.slow  # starts chromium for each test

SLUG = "gate"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCREENSHOT = REPO / "docs" / "serve.png"


def chromium() -> str:
    for candidate in (os.environ.get("CARDFORGE_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file():
            return candidate
    message = ("no chromium browser for the preview tests: install it (apt-get install chromium) "
               "or name it in CARDFORGE_CHROMIUM")
    if os.environ.get("CI"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser():
    path = chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: pip install -e '.[test]'", pytrace=False)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def served(served_gate):
    return served_gate


@pytest.fixture
def page(browser, served):
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    yield page
    context.close()
    assert not errors, errors  # no script errors, no refused resources (CSP) on any page


def game(served):
    return compile_game(served.root / "cards" / SLUG, Project(served.root)).game


def a_card_named_once(served):
    """A card whose name appears nowhere else in the pack, so renaming it breaks no rule."""
    pack = served.root / "cards" / SLUG
    text = "\n".join(line for p in sorted(pack.glob("*.*")) if p.suffix in (".yaml", ".md", ".csv")
                     for line in p.read_text().splitlines() if not line.lstrip().startswith("#"))
    return next(c for c in game(served).cards if len(re.findall(rf"\b{re.escape(c.name)}\b", text)) == 1)


def screenshot(page, served) -> None:
    """The README's picture of the page: saved to docs/serve.png when CARDFORGE_UPDATE_SCREENSHOT is set."""
    page.evaluate("window.scrollTo(0, 0)")
    shot = served.root / "serve.png"
    page.screenshot(path=str(shot))
    if os.environ.get("CARDFORGE_UPDATE_SCREENSHOT"):
        from PIL import Image

        SCREENSHOT.parent.mkdir(exist_ok=True)
        Image.open(shot).convert("RGB").quantize(colors=128).save(SCREENSHOT, optimize=True)


def as_text(value) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def test_the_gallery_shows_every_card_grouped_by_type(page, served):
    loaded = game(served)
    page.goto(f"{served.url}/g/{SLUG}")
    cards = page.locator("article.card")
    assert cards.count() == len(loaded.cards)
    assert page.locator("article.card img.front").count() == len(loaded.cards)
    # the first three pictures load (waited for: a live update may swap a card's <img> for a new one)
    page.wait_for_function("() => Array.from(document.querySelectorAll('article.card img.front')).slice(0, 3)"
                           ".every(i => i.complete && i.naturalWidth > 100)", timeout=15_000)
    groups = page.locator("section.type-group")
    assert groups.count() == len({c.type for c in loaded.cards})
    first = loaded.cards[0]
    tile = page.locator(f'article.card[data-id="{first.id}"]')
    assert first.name in tile.inner_text() and f"×{first.quantity}" in tile.inner_text()
    provisional = [c for c in loaded.cards if c.provisional]
    assert page.locator("article.card .mark.provisional").count() == len(provisional)
    # filtering by a card's name shows it and hides the cards whose fields do not match
    page.fill("#q", first.name)
    visible = page.locator("article.card:visible")
    assert 1 <= visible.count() < len(loaded.cards)
    assert first.id in [v.get_attribute("data-id") for v in visible.all()]
    # field:value keeps the cards whose field contains the value
    key, value = next((k, v) for k, v in first.data.items()
                      if k not in ("name", "type", "source", "note") and isinstance(v, (int, str)) and len(str(v)) < 12)
    page.fill("#q", f"{key}:{value}")
    shown = {v.get_attribute("data-id") for v in page.locator("article.card:visible").all()}
    assert shown == {c.id for c in loaded.cards if key in c.data and str(value).lower() in as_text(c.data[key]).lower()}
    page.fill("#q", "")
    page.locator(".chip", has_text=loaded.card_types[first.type].label).click()
    assert page.locator("article.card:visible").count() == len([c for c in loaded.cards if c.type == first.type])


def test_the_card_page_shows_print_size_and_its_source_line(page, served):
    card = game(served).cards[0]
    page.goto(f"{served.url}/g/{SLUG}/card/{card.id}")
    box = page.locator(".bleedbox").first.bounding_box()
    layout_w = float(page.locator(".bleedbox").first.evaluate("b => parseFloat(b.style.width)"))
    assert abs(box["width"] - layout_w * 96 / 72) < 1.5  # CSS pt: the card at print size
    line = card.source.line()
    assert page.locator(f"#L{line}").inner_text().strip().endswith(f"name: {card.name}")
    link = page.locator("a", has_text="Open in VS Code").get_attribute("href")
    assert link == f"vscode://file{(served.root / card.source.file).resolve() if not Path(card.source.file).is_absolute() else Path(card.source.file)}:{line}"


def test_a_saved_edit_appears_without_reloading_and_keeps_the_scroll(page, served):
    card = a_card_named_once(served)
    path = Path(card.source.file)
    page.goto(f"{served.url}/g/{SLUG}")
    page.evaluate("window.__sameDocument = true; window.scrollTo(0, 600)")
    y = page.evaluate("window.scrollY")
    original = path.read_text()
    renamed = f"{card.name} Revised"
    path.write_text(re.sub(rf"name: {re.escape(card.name)}\b", f"name: {renamed}", original, count=1))
    try:
        from playwright.sync_api import expect

        expect(page.locator(".caption .name", has_text=renamed)).to_have_count(1, timeout=3000)
        assert page.evaluate("window.__sameDocument") is True  # updated in place, not reloaded
        assert page.evaluate("window.scrollY") == y
    finally:
        path.write_text(original)
    expect(page.locator(".caption .name", has_text=renamed)).to_have_count(0, timeout=15000)


def test_a_broken_yaml_file_shows_its_diagnostic_and_keeps_the_last_good_images(page, served):
    card = a_card_named_once(served)
    path = Path(card.source.file)
    page.goto(f"{served.url}/g/{SLUG}")
    images = sorted(i.get_attribute("src") for i in page.locator("article.card img.front").all())
    original = path.read_text()
    path.write_text(original.replace(f"name: {card.name}", f"name: [{card.name}", 1))
    try:
        expected = next(d for d in compile_game(served.root / "cards" / SLUG, Project(served.root)).diagnostics
                        if d.code == "yaml-syntax")
        from playwright.sync_api import expect

        location = f"cards/{SLUG}/{path.name}:{expected.line}"
        problem = page.locator(".side .problem.sev-error", has_text="yaml-syntax")
        expect(problem).to_contain_text(location, timeout=15000)
        assert abs(expected.line - card.source.line()) <= 2
        assert sorted(i.get_attribute("src") for i in page.locator("article.card img.front").all()) == images
        expect(page.locator("#banner")).to_contain_text("last good build")
        screenshot(page, served)
        problem.locator("a.loc").click()
        expect(page.locator(f"#L{expected.line}")).to_have_class(re.compile("marked"))
    finally:
        path.write_text(original)
    served.wait_for(SLUG, "building", "ready", timeout=120)


def test_the_rules_sheet_and_documents_are_shown_as_pages(page, served):
    served.wait_for(SLUG, "ready")
    page.goto(f"{served.url}/g/{SLUG}/documents")
    sheet = page.locator(".doc-rules .page img")
    assert sheet.count() == 2  # both sides of the accordion sheet
    for name in ("rulebook", "reference"):
        assert page.locator(f".doc-{name} .page img").count() >= 1
    for link in page.locator(".downloads a").all():
        href = link.get_attribute("href")
        response = page.request.get(served.url + href)
        assert response.status == 200 and response.body().startswith(b"<!doctype html>" if href.endswith(".html") else b"%PDF")
    assert page.locator(f'.downloads a[href="/g/{SLUG}/rulebook.html"]').count() == 1  # the rulebook as a web page


def test_the_browser_is_refused_paths_outside_the_project(browser, served):
    page = browser.new_page()
    for path in (f"/g/{SLUG}/file/%2e%2e/%2e%2e/%2e%2e/etc/passwd", f"/g/{SLUG}/file//etc/passwd",
                 f"/g/{SLUG}/pdf/..%2f..%2f..%2fetc%2fpasswd", "/static/%2e%2e/%2e%2e/build.py"):
        response = page.request.get(served.url + path)
        assert response.status in (403, 404), path
        assert "root:" not in response.text()
    response = page.goto(f"{served.url}/g/{SLUG}/file/../../../../etc/passwd")
    assert response.status in (403, 404)
    page.close()
