"""Translations on real catalogs: `cardforge translate` writes locale/<lang>.po with Babel,
`build --lang` prints the translated pack with cardforge's fixed words in that language, and
each check of a translation fires at its entry's line in the catalog (docs/translations.md).

The packs are copies of Through The Gate (it ships `languages: [en, es]`); the catalogs the
checks read are written by the tests, a few entries each."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pdfplumber
import pytest
from babel.messages.pofile import read_po

from cardforge.build import Project, compile_game
from cardforge.sources.catalogs import paragraphs, read_catalog
from cardforge.util.i18n import SHIPPED, catalog_file, own_words
from tests.conftest import edit, make_project, run_cli

SLUG = "through-the-gate"


def catalog(root):
    """The pack's Spanish catalog as cardforge reads it (Babel, previous msgids included)."""
    found, problems = read_catalog(root / "cards" / SLUG / "locale" / "es.po", "es")
    assert found is not None and not problems
    return found


@pytest.fixture
def fresh(tmp_path):
    """A copy of the pack with no catalog yet."""
    root = make_project(tmp_path, SLUG)
    shutil.rmtree(root / "cards" / SLUG / "locale", ignore_errors=True)
    return root


def test_translate_writes_every_printed_string_with_its_reference_and_is_idempotent(fresh):
    result = run_cli("translate", SLUG, "--root", str(fresh))
    assert result.exit_code == 0, result.output
    pack = fresh / "cards" / SLUG
    po = pack / "locale" / "es.po"
    first = po.read_bytes()
    cat = catalog(fresh)
    messages = [m for m in cat if m.id]
    game = compile_game(pack, Project(fresh)).game
    by_context = {m.context: m for m in messages}
    # every card's name, at the card's own line of its file
    for card in game.cards:
        m = by_context[f"{card.id}:name"]
        assert m.id == card.name
        (file, line), = m.locations
        assert (pack / file).read_text().splitlines()[line - 1].strip().endswith(card.name) or card.name in \
            (pack / file).read_text().splitlines()[line - 1]
    # every glossary term and definition, and every paragraph of the rules sources, at its line
    for term, spec in game.glossary.items():
        assert by_context[f"game.yaml:glossary/{term}"].id == term
        assert by_context[f"game.yaml:glossary/{term}/definition"].id == spec["definition"]
    for name in ("sheet.md", "rulebook.md"):
        text = (pack / name).read_text()
        wanted = paragraphs(text)
        found = [m for m in messages if m.context == name]
        assert {p.text for p in wanted} == {m.id for m in found}
        for m in found:
            for file, line in m.locations:
                assert file == name and text.splitlines()[line - 1] == m.id.split("\n")[0]
    assert all(not m.string and not m.fuzzy for m in messages)
    # again, unchanged: the same bytes
    again = run_cli("translate", SLUG, "--root", str(fresh))
    assert again.exit_code == 0 and "unchanged" in again.output
    assert po.read_bytes() == first


def _set(po_path, context: str, string: str, fuzzy: bool = False) -> None:
    """A translator's edit: the msgstr of the entry of ``context`` (through Babel, as a PO editor saves)."""
    from cardforge.translation import render_catalog

    with open(po_path, "rb") as fh:
        cat = read_po(fh)
    hit = [m for m in cat if m.id and m.context == context]
    assert len(hit) == 1, context
    hit[0].string = string
    if fuzzy:
        hit[0].flags.add("fuzzy")
    po_path.write_bytes(render_catalog(cat))


def test_a_changed_source_keeps_the_translation_fuzzy_with_the_previous_msgid(fresh):
    assert run_cli("translate", SLUG, "--root", str(fresh)).exit_code == 0
    pack = fresh / "cards" / SLUG
    po = pack / "locale" / "es.po"
    game = compile_game(pack, Project(fresh)).game
    def once(c) -> bool:  # a one-line text written once in its file, by no other card
        text = c.data.get("text")
        return (isinstance(text, str) and "\n" not in text and sum(d.data.get("text") == text for d in game.cards) == 1
                and (pack / c.source.file.split("/")[-1]).read_text().count(text) == 1)
    card = next(c for c in game.cards if once(c))
    old = card.data["text"]
    _set(po, f"{card.id}:text", "TRADUCCIÓN " + old)
    edit(pack / card.source.file.split("/")[-1], old, old + " Then rest.")
    removed = next(c for c in game.cards if c is not card and c.type == card.type
                   and (pack / c.source.file.split("/")[-1]).read_text().count(f"name: {c.name}\n") == 1)
    assert run_cli("translate", SLUG, "--root", str(fresh)).exit_code == 0
    cat = catalog(fresh)
    entry = cat.get(old + " Then rest.", f"{card.id}:text")
    assert entry is not None and entry.fuzzy and entry.previous_id == [old] and entry.string == "TRADUCCIÓN " + old
    assert "#| msgid " in po.read_text()
    assert cat.get(old, f"{card.id}:text") is None
    before = po.read_bytes()  # the previous msgid survives another run: the same bytes
    assert run_cli("translate", SLUG, "--root", str(fresh)).exit_code == 0 and po.read_bytes() == before
    # a fuzzy entry prints the source text
    translated = compile_game(pack, Project(fresh), "es").game
    assert next(c for c in translated.cards if c.source_name == card.name or c.name == card.name).data["text"] == old + " Then rest."
    # a string no longer printed (its card renamed) becomes obsolete, its translation kept
    _set(po, f"{removed.id}:name", "NOMBRE")
    edit(pack / removed.source.file.split("/")[-1], f"name: {removed.name}\n", f"name: {removed.name} Renamed\n")
    assert run_cli("translate", SLUG, "--root", str(fresh)).exit_code == 0
    assert any(m.id == removed.name and m.string == "NOMBRE" for m in catalog(fresh).obsolete.values())
    assert "#~ msgid" in po.read_text()


def pdf_text(path) -> str:
    with pdfplumber.open(path) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


def test_build_lang_es_prints_the_translation_and_spanish_fixed_words(tmp_path):
    root = make_project(tmp_path, SLUG)  # the shipped Spanish catalog
    result = run_cli("build", SLUG, "--lang", "es", "--root", str(root))
    assert result.exit_code == 0, result.output
    out = root / "output" / SLUG / "es"
    assert not (root / "output" / SLUG / "deck.pdf").exists()  # only the Spanish build was asked for
    cat = catalog(root)
    done = [m for m in cat if m.id and m.string and not m.fuzzy]
    names = [m.string for m in done if m.context.endswith(":name") and "/" in m.context.split(":")[0]]
    assert names, "the shipped catalog translates some card names"
    words = own_words("es")
    deck, sheet, book = pdf_text(out / "deck.pdf"), pdf_text(out / "rules.pdf"), pdf_text(out / "rulebook.pdf")
    flat = lambda s: " ".join(s.split())  # noqa: E731
    for name in names:
        assert flat(name) in flat(deck)
    worded = [m for m in done if m.context == "layout" and "{{" not in m.string]  # words the layouts print
    assert worded and all(m.string.strip("*") in deck for m in worded)
    # the rules sheet: its translated headings and cardforge's fold steps in Spanish
    for m in done:
        if m.context == "sheet.md" and m.id.startswith("## "):
            assert m.string[3:] in sheet
    assert words["1. Cut along the solid line to get a 6.25 x 8 in double-sided sheet."][:30] in flat(sheet)
    assert "Cut along the solid line" not in sheet
    # the rulebook: cardforge's headings in Spanish, the English ones gone
    for english in ("Glossary", "Appendix: every card", "Contents"):
        assert words[english] in book and english not in book
    game = compile_game(root / "cards" / SLUG, Project(root)).game
    translated_terms = [m.string for m in done if re.fullmatch(r"game\.yaml:glossary/[^/]+", m.context)]
    assert translated_terms and all(t in book for t in translated_terms)
    titles = [m.string for m in done if m.context.startswith("title:")]  # the card anatomy's labels
    assert titles and all(t in book for t in titles)
    assert all(term not in {t for t in translated_terms} for term in game.glossary)


def test_a_pack_without_languages_builds_and_checks_as_before(tmp_path):
    root = make_project(tmp_path, SLUG)
    edit(root / "cards" / SLUG / "game.yaml", "languages: [en, es]\n", "")
    checked = run_cli("check", SLUG, "--root", str(root), "--format", "json")
    found = json.loads(checked.stdout)["diagnostics"]
    assert not any(d["code"].startswith(("translation-", "po-", "language-")) for d in found)
    # a catalog of a language the pack does not list is a file it does not read
    assert [d["file"].rsplit(SLUG + "/", 1)[1] for d in found if d["code"] == "file-unread"] == ["locale/es.po"]
    refused = run_cli("build", SLUG, "--lang", "es", "--root", str(root))
    assert refused.exit_code == 1 and "language-unknown" in refused.output
    assert not (root / "output" / SLUG / "es").exists()


def test_every_fixed_word_cardforge_prints_is_in_each_shipped_catalog():
    import importlib.util

    from babel.messages.extract import extract_from_dir

    spec = importlib.util.spec_from_file_location("fixed_words", Path(__file__).parents[1] / "tools" / "fixed_words.py")
    fixed_words = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fixed_words)  # tools/ is no package: the table that writes the catalogs
    WORDS = fixed_words.WORDS

    literal = {message for _, _, message, _, _ in extract_from_dir(
        str(catalog_file("en").parents[3]), keywords={"_": None, "gettext": None}, comment_tags=())
        if isinstance(message, str)}
    assert literal and literal <= set(WORDS)
    for lang in SHIPPED:
        assert set(own_words(lang)) == set(WORDS), lang
        if lang != "en":
            assert all(own_words(lang)[w] != w for w in ("Glossary", "Contents", "Components"))


ENTRY = 'msgctxt "{ctx}"\nmsgid "{msgid}"\nmsgstr "{msgstr}"\n'


def _po(entries: list[tuple[str, str, str, bool]]) -> str:
    out = ['msgid ""\nmsgstr ""\n"Language: es\\n"\n"Content-Type: text/plain; charset=utf-8\\n"\n']
    for ctx, msgid, msgstr, fuzzy in entries:
        esc = lambda s: s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")  # noqa: E731
        out.append(("#, fuzzy\n" if fuzzy else "") + ENTRY.format(ctx=ctx, msgid=esc(msgid), msgstr=esc(msgstr)))
    return "\n".join(out)


def test_each_check_of_a_translation_fires_at_its_entry_in_the_catalog(tmp_path):
    root = make_project(tmp_path, SLUG)
    pack = root / "cards" / SLUG
    game = compile_game(pack, Project(root)).game
    cards = {c.name: c for c in game.cards}

    def text_of(name):
        return cards[name].data["text"]
    long = "Una frase larga que no cabe en la carta por mucho que se reduzca la letra. " * 30
    entries = [
        ("encounter/dank-cavern:name", "Dank Cavern", "", False),  # untranslated
        ("encounter/lost:name", "Lost", "Perdido", True),  # fuzzy
        ("encounter/gloomy-forest:text", text_of("Gloomy Forest"), text_of("Gloomy Forest").replace(" {discard-1}", ""), False),
        ("item/knapsack:name", "Knapsack", "Mochila", False),
        ("item/knapsack:text", text_of("Knapsack"), text_of("Knapsack").replace("If someone", "Si alguien"), False),
        ("companion/regal-unicorn:text", text_of("Regal Unicorn"), text_of("Regal Unicorn").replace("+1", "+2"), False),
        ("companion/golden-falcon:text", text_of("Golden Falcon"), long, False),
        ("item/quickness-potion:name", "Quickness Potion", "Poción 龍", False),
    ]
    po = pack / "locale" / "es.po"
    po.write_text(_po(entries), encoding="utf-8")
    lines = po.read_text().splitlines()

    def line(ctx):  # the line of the entry's msgid
        return lines.index(f'msgctxt "{ctx}"') + 2

    result = run_cli("check", SLUG, "--lang", "es", "--root", str(root), "--format", "json")
    found = json.loads(result.stdout)["diagnostics"]
    at = {(d["code"], d["line"]) for d in found if d["file"].endswith("locale/es.po")}
    expected = {("translation-missing", line("encounter/dank-cavern:name")),
                ("translation-fuzzy", line("encounter/lost:name")),
                ("translation-token", line("encounter/gloomy-forest:text")),
                ("translation-name", line("item/knapsack:text")),
                ("translation-number", line("companion/regal-unicorn:text")),
                ("text-overflow", line("companion/golden-falcon:text")),
                ("glyph-missing", line("item/quickness-potion:name"))}
    assert expected <= at, sorted(at)
    assert result.exit_code == 1  # a dropped token, an overflow and a missing glyph are errors
    # nothing of the source is reported twice, and a good entry draws no finding
    assert not any(d["line"] == line("item/knapsack:name") for d in found if d["file"].endswith(".po"))
    # --strict: an untranslated or fuzzy entry is an error
    strict = json.loads(run_cli("check", SLUG, "--lang", "es", "--strict", "--root", str(root), "--format", "json").stdout)
    assert {d["severity"] for d in strict["diagnostics"] if d["code"] in ("translation-missing", "translation-fuzzy")} == {"error"}


@pytest.mark.parametrize("text, bad_line", [
    ('msgid ""\nmsgstr ""\n\nmsgctxt "x"\nmsgid "a"\nmsgstr "b"\nnot a keyword\n', 7),
    ('msgid ""\nmsgstr ""\n\nmsgid "unclosed\nmsgstr "b"\n', 4),
])
def test_a_catalog_that_does_not_parse_is_an_error_at_its_line(tmp_path, text, bad_line):
    root = make_project(tmp_path, SLUG)
    po = root / "cards" / SLUG / "locale" / "es.po"
    po.write_text(text)
    for command in (["check", SLUG, "--lang", "es"], ["build", SLUG, "--lang", "es"], ["translate", SLUG]):
        result = run_cli(*command, "--root", str(root))
        assert result.exit_code == 1, command
        assert f"locale/es.po:{bad_line}: error[po-invalid]" in result.output, (command, result.output)
    assert po.read_text() == text  # translate does not overwrite a catalog it cannot read
    assert not (root / "output" / SLUG / "es").exists()


def test_a_language_babel_does_not_know_is_an_error_at_its_line(tmp_path):
    root = make_project(tmp_path, SLUG)
    game_yaml = root / "cards" / SLUG / "game.yaml"
    edit(game_yaml, "languages: [en, es]", "languages: [en, xq]")
    line = game_yaml.read_text().splitlines().index("languages: [en, xq]") + 1
    for command in (["check", SLUG], ["translate", SLUG]):
        result = run_cli(*command, "--root", str(root))
        assert result.exit_code == 1
        assert f"game.yaml:{line}:" in result.output and "error[language-unknown]" in result.output


def test_a_pack_overrides_cardforge_s_own_words_in_its_catalog(tmp_path):
    from cardforge.util.i18n import gettext, speaking

    root = make_project(tmp_path, SLUG)
    po = root / "cards" / SLUG / "locale" / "es.po"
    po.write_text(_po([("cardforge", "Glossary", "Vocabulario", False)]), encoding="utf-8")
    game = compile_game(root / "cards" / SLUG, Project(root), "es").game
    with speaking(game):
        assert gettext("Glossary") == "Vocabulario"  # the pack's word
        assert gettext("Contents") == own_words("es")["Contents"] != "Contents"  # cardforge's Spanish
    assert gettext("Glossary") == "Glossary"  # outside the translated game: English
