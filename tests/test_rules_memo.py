"""What the rules documents remember between builds (cardforge.documents.memo): a one-card edit
lays rules.pdf, rulebook.pdf and reference.pdf out once, a build with --no-cache or in another
project takes the type sizes and card pictures of the same inputs from the user cache, and the
bytes are always those of a build that remembers nothing, also when what was remembered no
longer holds."""
from __future__ import annotations

import copy
import json
import os
import shutil
from collections import Counter
from pathlib import Path
from typing import Callable
from unittest import mock

import pytest
import yaml
from reportlab.platypus.doctemplate import BaseDocTemplate

from cardforge.build import Project, compile_game
from cardforge.incremental import build_games
from cardforge.cache import kept
from cardforge.cache.registry import CARD_PICTURES, CONTENTS_PAGES, RULES_MEMO, RULES_SHEETS, TYPE_SIZES
from cardforge.documents.memo import Memo
from conftest import edit, fresh_user_cache, make_project, shared_build

RULES = ("rules.pdf", "rulebook.pdf", "reference.pdf")
DOCS = {"_SheetDoc": "rules.pdf", "_Book": "rulebook.pdf", "_Doc": "reference.pdf",
        "_OnePage": "reference.pdf"}  # reference.pdf's helper-sheet trials


def _build(root: Path, slug: str, **kw):
    project = Project(root)
    packs, problems = project.packs([slug])
    assert not problems
    [result] = build_games(project, packs, jobs=1, **kw)
    assert result.ok or kw.get("force") and result.written, [str(d) for d in result.diagnostics]
    return result


def _passes(monkeypatch) -> Counter:
    """Count the layout passes of each rules document (by its file name) in this process."""
    counted: Counter = Counter()
    original = BaseDocTemplate.build

    def build(self, *args, **kwargs):
        counted[DOCS.get(type(self).__name__, type(self).__name__)] += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(BaseDocTemplate, "build", build)
    return counted


def _card_files(pack: Path) -> list[Path]:
    return sorted(p for p in pack.glob("*.yaml") if p.name not in ("game.yaml", "errata.yaml", "reference.yaml"))


def _edit_card(pack: Path) -> str:
    """Edit one card of the pack: append a word to the first card ``text``, or, in a pack
    without one, to the first other sentence a card prints (a bonus, an ability); returns
    the card's name."""
    def printed(key: str, value: object) -> bool:
        return isinstance(value, str) and " " in value.strip() and key not in ("name", "source", "note")

    for wanted in (lambda k, v: k == "text" and printed(k, v), printed):
        for path in _card_files(pack):
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            cards = data.get("cards") if isinstance(data, dict) else data
            for card in cards or []:
                field = next((k for k, v in card.items() if wanted(k, v)), None) if isinstance(card, dict) else None
                if field:
                    card[field] = card[field].rstrip() + " again"
                    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
                    return card["name"]
    raise AssertionError(f"no card with text in {pack}")


def _add_cards(pack: Path, count: int) -> None:
    """Add ``count`` copies of the first card with text, under new names (the counts no
    longer hold, so the game is built with ``force``)."""
    for path in _card_files(pack):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        cards = data.get("cards") if isinstance(data, dict) else data
        first = next((c for c in cards or [] if isinstance(c, dict) and c.get("text")), None)
        if first is None:
            continue
        for n in range(count):
            card = copy.deepcopy(first)
            card["name"] = f"{first['name']} copy {n + 1}"
            cards.append(card)
        path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
        return
    raise AssertionError(f"no card with text in {pack}")


def _remembering_nothing():
    """Within this block builds read and keep no type size, no card picture, no contents and no
    rules sheet (the user caches of what earlier builds found): what a clean build lays out is
    its own search's."""
    off = (TYPE_SIZES, CARD_PICTURES, CONTENTS_PAGES, RULES_SHEETS)
    return mock.patch.dict(os.environ, CARDFORGE_CACHE_OFF=",".join(cache.name for cache in off))


def _clean(tmp: Path, root: Path, slug: str, **kw) -> Path:
    """A clean build (no cache, nothing remembered) of the pack as it is now in ``root``, in a
    project of its own: of its rules documents, the outputs compared with it (:func:`_same_rules`)."""
    clean = make_project(tmp, slug)
    shutil.rmtree(clean / "cards" / slug)
    shutil.copytree(root / "cards" / slug, clean / "cards" / slug)
    with _remembering_nothing():
        _build(clean, slug, use_cache=False, only=RULES, **kw)
    return clean


@pytest.fixture(scope="session")
def built(tmp_path_factory, ttg_build):
    """``built(slug, tmp)``: a copy in ``tmp`` of a project holding the pack as shipped, built once
    per run (with its rules memo) and shared by the tests, with what that build keeps in the
    user cache kept in this process's too; Through The Gate's is the suite's shared build
    (``ttg_build``)."""
    def make(slug: str) -> Callable[[Path], None]:
        def made(root: Path) -> None:
            make_project(root, slug)
            _build(root, slug)
        return made

    def copy(slug: str, tmp: Path) -> Path:
        source = ttg_build.root if slug == "through-the-gate" else shared_build(tmp_path_factory, f"memo-{slug}",
                                                                                 make(slug))
        shutil.copytree(source, tmp, ignore=shutil.ignore_patterns(".made"))
        # the helper sheet's type size and the rules sheet in this process's user cache too: the
        # shared build may be another worker's, made with another user cache (the same files, laid out again)
        _build(tmp, slug, use_cache=False, only=("reference.pdf", "rules.pdf"))
        return tmp

    return copy


@pytest.fixture(scope="session")
def clean_edited(tmp_path_factory) -> Path:
    """A clean build (no cache) of Through The Gate's rules documents with the card edit of
    :func:`_edit_card`, made once per run: what the tests that make that edit compare with."""
    def make(root: Path) -> None:
        make_project(root, "through-the-gate")
        _edit_card(root / "cards" / "through-the-gate")
        with _remembering_nothing():
            _build(root, "through-the-gate", use_cache=False, only=RULES)

    return shared_build(tmp_path_factory, "memo-ttg-edited", make)


def _same_pack(root: Path, other: Path, slug: str) -> None:
    files = {p.relative_to(root): p.read_bytes() for p in (root / "cards" / slug).rglob("*") if p.is_file()}
    assert files == {p.relative_to(other): p.read_bytes() for p in (other / "cards" / slug).rglob("*") if p.is_file()}


def _edited(root: Path, slug: str, clean_edited: Path, tmp: Path) -> Path:
    """A clean build of the pack of ``root`` after :func:`_edit_card`: the shared one for
    Through The Gate (its pack checked to be the same, file by file), else one made in ``tmp``."""
    if slug != "through-the-gate":
        return _clean(tmp / "clean", root, slug)
    _same_pack(root, clean_edited, slug)
    return clean_edited


def _same_rules(root: Path, clean: Path, slug: str) -> None:
    for name in RULES:
        ours, theirs = root / "output" / slug / name, clean / "output" / slug / name
        assert ours.is_file() and ours.read_bytes() == theirs.read_bytes(), name


def _memo(root: Path, slug: str) -> Path:
    return RULES_MEMO.folder(root / "output", slug)


def _icon_png(svg: Path, slug: str, root: Path) -> Path:
    """Where the icon-pngs user cache keeps the inline picture of icon file ``svg`` of the pack."""
    from cardforge.cache import kept
    from cardforge.cache.registry import ICON_PNGS
    from cardforge.render.icons import svg_text

    project = Project(root)
    icons = compile_game(project.cards / slug, project).game.icons.values()
    icon = next(i for i in icons if i.svg is not None and Path(i.svg).resolve() == svg.resolve())
    return ICON_PNGS.folder() / f"{kept.key('icon-png', svg_text(svg, icon.color), '96')}.pickle"


@pytest.mark.parametrize("slug", ["through-the-gate", "gate"])
def test_a_one_card_edit_lays_each_rules_document_out_once_and_matches_a_clean_build(tmp_path, monkeypatch, slug,
                                                                                    built, clean_edited):
    root = built(slug, tmp_path / "work")
    assert {p.name for p in _memo(root, slug).glob("*.json")} == {"rulebook-contents.json"}

    sheet = _rendered_sheet(root, slug)
    _edit_card(root / "cards" / slug)
    passes = _passes(monkeypatch)
    again = _build(root, slug)
    assert set(RULES) <= set(again.rendered)
    # no size search, no second pass; the rules sheet not laid out at all while it renders as before
    laid_out = {"rules.pdf": 0 if _rendered_sheet(root, slug) == sheet else 1, "rulebook.pdf": 1, "reference.pdf": 1}
    assert passes == +Counter(laid_out)
    _same_rules(root, _edited(root, slug, clean_edited, tmp_path), slug)


def _rendered_sheet(root: Path, slug: str) -> str:
    """The pack's sheet.md as the project's game renders it now."""
    from cardforge.documents.source import render_source

    return render_source(compile_game(root / "cards" / slug, Project(root)).game, "sheet")[0]


@pytest.mark.parametrize("change", ["icon picture", "tagline"])
def test_a_kept_rules_sheet_is_laid_out_again_when_what_it_prints_besides_the_cards_changes(tmp_path, monkeypatch,
                                                                                          built, change):
    """The rules sheet kept whole (the rules-sheets user cache) is keyed on more than its
    rendered text: an icon's SVG redrawn under the same name, or game.yaml's tagline (the
    title panel), lays it out again, and the result is a clean build's."""
    slug = "through-the-gate"
    root = built(slug, tmp_path / "work")
    before = (root / "output" / slug / "rules.pdf").read_bytes()
    pack = root / "cards" / slug
    if change == "icon picture":  # companion.svg is printed in sheet.md
        edit(pack / "icons" / "companion.svg", "</svg>", '<rect width="100%" height="40%"/></svg>')
    else:
        edit(pack / "game.yaml", "tagline: A game of", "tagline: A card game of")
    passes = _passes(monkeypatch)
    _build(root, slug, only=("rules.pdf",))
    assert passes["rules.pdf"] == 1
    after = (root / "output" / slug / "rules.pdf").read_bytes()
    assert after != before
    clean = _clean(tmp_path / "clean", root, slug)
    assert after == (clean / "output" / slug / "rules.pdf").read_bytes()


def test_cards_added_move_the_index_and_the_output_is_still_a_clean_build(tmp_path, monkeypatch, built):
    slug = "through-the-gate"
    root = built(slug, tmp_path / "work")
    before = _index_pages(root / "output" / slug / "reference.pdf")

    _add_cards(root / "cards" / slug, 12)
    passes = _passes(monkeypatch)
    _build(root, slug, force=True)
    assert passes["reference.pdf"] == 1  # one layout: the index is made when the layout reaches it
    found = _index_pages(root / "output" / slug / "reference.pdf")
    assert len(found) == len(before) + 12
    assert any(before[name] != pages for name, pages in found.items() if name in before)  # pages moved, not only names
    _same_rules(root, _clean(tmp_path / "clean", root, slug, force=True), slug)


def _index_pages(pdf: Path) -> dict[str, str]:
    """The card index of a reference.pdf as printed: ``{card name: its pages}`` ("6, 8")."""
    from tests.test_rulebook_html import pdf_text

    pages = pdf_text(pdf)
    start = max(i for i, text in enumerate(pages) if "Index" in map(str.strip, text.splitlines()))
    lines = "\n".join(pages[start:]).splitlines()
    return dict(line.rsplit(" · ", 1) for line in lines if " · " in line and line.rsplit(" · ", 1)[1][:1].isdigit())


def _shift_pages(file: Path, at: int) -> None:
    """Make every remembered page number in a memo file of page guesses one too high."""
    kept = json.loads(file.read_text())
    for entries in kept.values():
        for entry in entries:
            entry[at] += 1
    file.write_text(json.dumps(kept))


def test_wrong_remembered_pages_are_laid_out_again_and_match_a_clean_build(tmp_path, monkeypatch, built, clean_edited):
    slug = "through-the-gate"
    root = built(slug, tmp_path / "work")
    _shift_pages(_memo(root, slug) / "rulebook-contents.json", 2)

    _edit_card(root / "cards" / slug)
    passes = _passes(monkeypatch)
    _build(root, slug)
    assert passes["rulebook.pdf"] == 3  # the guess, then the passes as without one
    assert passes["reference.pdf"] == 1  # it guesses no page numbers
    _same_rules(root, _edited(root, slug, clean_edited, tmp_path), slug)


def test_contents_longer_than_their_page_are_never_taken_from_the_memo(tmp_path, monkeypatch):
    """A rulebook whose contents run onto a second page: the remembered contents are laid
    out once, seen to push the pages after them, and the book is built as without them."""
    slug = "through-the-gate"
    root = make_project(tmp_path / "work", slug)
    book = root / "cards" / slug / "rulebook.md"
    book.write_text(book.read_text(encoding="utf-8") + "".join(
        f"\n\n## Variant {n}\n\nPlay as usual, with house rule number {n}.\n" for n in range(1, 61)), encoding="utf-8")
    _build(root, slug)
    [contents] = json.loads((_memo(root, slug) / "rulebook-contents.json").read_text()).values()
    assert len(contents) > 60

    _edit_card(root / "cards" / slug)
    passes = _passes(monkeypatch)
    _build(root, slug)
    assert passes["rulebook.pdf"] > 1
    _same_rules(root, _clean(tmp_path / "clean", root, slug), slug)


def test_edited_rules_text_and_icon_are_composed_again_and_match_a_clean_build(tmp_path, monkeypatch, built):
    slug = "through-the-gate"
    root = built(slug, tmp_path / "work")
    fresh_user_cache(monkeypatch, tmp_path / "cache")
    pack = root / "cards" / slug
    sheet = (pack / "sheet.md").read_text(encoding="utf-8")
    sections = sheet.split("\n## ")
    (pack / "sheet.md").write_text("\n## ".join(sections[:-2]) + "\n", encoding="utf-8")  # two sections fewer
    icon = sorted((pack / "icons").glob("*.svg"))[0]
    icon.write_text(icon.read_text(encoding="utf-8").replace("<svg", "<svg opacity=\"0.5\"", 1), encoding="utf-8")
    edited = _icon_png(icon, slug, root)
    assert not edited.exists() and not TYPE_SIZES.folder().exists()

    _build(root, slug)
    assert any(TYPE_SIZES.folder().glob("*.pickle"))  # the new text's type sizes, searched for and kept
    assert edited.is_file()  # the edited icon rasterised again, kept under its new text
    _same_rules(root, _clean(tmp_path / "clean", root, slug), slug)


def test_no_cache_reads_and_writes_no_memo(tmp_path, monkeypatch, built, clean_edited):
    slug = "through-the-gate"
    root = built(slug, tmp_path / "work")
    _shift_pages(_memo(root, slug) / "rulebook-contents.json", 2)
    before = {p: p.read_bytes() for p in _memo(root, slug).rglob("*") if p.is_file()}
    fresh_user_cache(monkeypatch, tmp_path / "cache")  # no type size kept by an earlier build either

    def refused(*args, **kwargs):
        raise AssertionError("the memo was used")

    for name in ("get", "put"):
        monkeypatch.setattr(Memo, name, refused)
    _edit_card(root / "cards" / slug)
    passes = _passes(monkeypatch)
    _build(root, slug, use_cache=False)
    assert passes["reference.pdf"] >= 2 and passes["rulebook.pdf"] >= 2  # searched and laid out as always
    assert {p: p.read_bytes() for p in _memo(root, slug).rglob("*") if p.is_file()} == before
    monkeypatch.undo()
    _same_rules(root, _edited(root, slug, clean_edited, tmp_path), slug)


def test_a_no_cache_build_in_another_project_takes_the_kept_sizes_pictures_and_contents(tmp_path, monkeypatch):
    """Type sizes and card pictures are pure results of their inputs, and a book's contents a
    guess its layout checks, kept in the user cache: a --no-cache build of the same pack in
    another project searches no size, draws no card of rulebook.html, lays rulebook.pdf out
    once, and writes the same bytes."""
    from cardforge.documents import compose
    from cardforge.export import faces

    slug = "through-the-gate"
    documents = RULES + ("rulebook.html",)
    fresh_user_cache(monkeypatch, tmp_path / "cache")
    laid: Counter = Counter()
    drawn: list = []
    sheet, face_pdf = compose.Sheet.__init__, faces.face_pdf

    def counted_sheet(self, *args, **kwargs):
        laid["sheets"] += 1
        return sheet(self, *args, **kwargs)

    def counted_faces(cards, *args, **kwargs):
        drawn.extend(card.name for card in cards)
        return face_pdf(cards, *args, **kwargs)

    monkeypatch.setattr(compose.Sheet, "__init__", counted_sheet)
    monkeypatch.setattr(faces, "face_pdf", counted_faces)
    first = make_project(tmp_path / "one", slug)
    passes = _passes(monkeypatch)
    _build(first, slug, use_cache=False, only=documents)
    searched, first_passes, first_drawn = laid["sheets"], Counter(passes), list(drawn)
    assert first_passes["reference.pdf"] >= 2 and first_drawn  # the helper sheet's trials; every card drawn
    assert first_passes["rulebook.pdf"] >= 2  # a first pass that only learns the contents' pages
    assert all(any(cache.folder().glob("*.pickle")) for cache in (TYPE_SIZES, CARD_PICTURES, CONTENTS_PAGES))

    for counts in (laid, passes, drawn):
        counts.clear()
    other = make_project(tmp_path / "two", slug)
    _build(other, slug, use_cache=False, only=documents)
    assert passes["reference.pdf"] == 1  # laid out once, at the kept size
    assert passes["rulebook.pdf"] == 1  # once, with the kept contents
    assert laid["sheets"] < searched  # the rules sheet's versions at their kept sizes
    assert drawn == []  # every card picture of rulebook.html from the user cache
    for name in documents:
        assert (other / "output" / slug / name).read_bytes() == (first / "output" / slug / name).read_bytes(), name


def test_a_damaged_memo_is_a_miss(tmp_path):
    memo = Memo(tmp_path / "rules")
    key = Memo.key("x", 1)
    memo.put("sheet-size", key, 8.5)
    assert memo.get("sheet-size", key) == 8.5
    (tmp_path / "rules" / "sheet-size.json").write_text('{"' + key + '": 8.')  # cut short by a crash
    assert memo.get("sheet-size", key) is None
    memo.put("sheet-size", key, 8.0)
    assert memo.get("sheet-size", key) == 8.0
    assert Memo.key("x", 1) != Memo.key("x", 2)


def test_a_failed_memo_write_keeps_the_previous_answers(tmp_path, monkeypatch):
    memo = Memo(tmp_path / "rules")
    memo.put("helper-size", "a", 9.0)

    def crash(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", crash)  # the atomic write (cardforge.cache.write_atomic) fails
    memo.put("helper-size", "b", 7.5)
    assert memo.get("helper-size", "a") == 9.0 and memo.get("helper-size", "b") is None
    assert [p.name for p in (tmp_path / "rules").iterdir()] == ["helper-size.json"]  # no temporary file left


def test_a_remembered_helper_size_that_does_not_fit_is_searched_again(tmp_path, monkeypatch, built, clean_edited):
    """A helper sheet size that spills onto a second page (kept by another version of the
    layout, say) is noticed in the finished document and fitted again."""
    from cardforge.documents import reference
    from cardforge.render.sheet import PAPER_MM
    from cardforge.util.units import MM

    slug = "through-the-gate"
    root = built(slug, tmp_path / "work")
    fresh_user_cache(monkeypatch, tmp_path / "cache")
    _build(root, slug, use_cache=False, only=("reference.pdf",))  # keeps the helper sheet's size
    game = compile_game(root / "cards" / slug, Project(root)).game
    key = reference._fit_key(game, tuple(v * MM for v in PAPER_MM["letter"]), reference._helper_text(game))
    size = kept.get(TYPE_SIZES, key)
    assert size < 9.0  # the sheet does not fit at the largest size
    kept.put(TYPE_SIZES, key, 9.0)

    _edit_card(root / "cards" / slug)
    _build(root, slug)
    assert kept.get(TYPE_SIZES, key) == size
    _same_rules(root, _edited(root, slug, clean_edited, tmp_path), slug)
