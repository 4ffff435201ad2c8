"""Translations of a game pack: one gettext catalog per language, applied at load time.

A pack lists its languages in game.yaml (``languages: [en, es]``, the first the language
its files are written in). Each other language has a catalog,
``cards/<slug>/locale/<lang>.po`` (written and updated by ``cardforge translate``, see
:mod:`cardforge.translation`), which any PO editor opens. Each entry says where its
source string is by its ``msgctxt``:

``<card id>:<field>``             a card field that prints (``encounter/gloomy-forest:text``;
                                  a nested field as ``award.label``)
``game.yaml:<path>``              a game.yaml string, its path joined by ``/``
                                  (``game.yaml:glossary/diary/definition``; a glossary term
                                  itself as ``game.yaml:glossary/diary``)
``title:<type>/<field>``          a card field's title, as the card anatomy labels it
``layout``                        the text a layout's text element prints as written (``*Event*``,
                                  ``[Seeking {{ card.seeking | tally }}]``), its template as msgid
``rulebook.md``, ``sheet.md``     a paragraph of a rules source (a heading is one)
``cardforge``                     one of cardforge's own fixed words ("Glossary"), overriding
                                  cardforge's catalog for this pack (:mod:`cardforge.util.i18n`)

:func:`translated` applies a catalog to a loaded game: a translated entry whose ``msgid`` is
still the source's text replaces that text; a fuzzy or empty entry, or one whose source has
changed since, leaves the source text (so every output still prints). It never reads
layouts and never draws.
"""
from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardforge.model import Card, Game
from cardforge.util.diagnostics import LANGUAGE_UNKNOWN, PO_INVALID, TRANSLATION_MISSING, Diagnostic, diag, display_path

LOCALE_FOLDER = "locale"
FIXED_CONTEXT = "cardforge"
DATA_PREFIX = "game.yaml:"
LAYOUT_CONTEXT = "layout"  # the text a layout's text element prints as written (its template)
TITLE_PREFIX = "title:"  # a card field's title as the card anatomy prints it: title:<type>/<field>
RULES_FILES = {"rulebook": "rulebook.md", "sheet": "sheet.md"}

HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
STATEMENT_LINE = re.compile(r"^\s*(?:\{%.*?%\}\s*|\{#.*?#\}\s*)+$")  # `{% set ... %}` alone: no words to translate
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
ICON_TOKEN = re.compile(r"\{[\w-]+\}")
COMMENT = re.compile(r"<!--.*?-->", re.S)
WORDS = re.compile(r"[^\W\d_]{2,}")
QUOTED = re.compile(r'^(?:#~\s*|#\|\s*)?(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?(".*)$')  # a string's line
CLOSED = re.compile(r'"(?:[^"\\]|\\.)*"\s*')  # one quoted string, closed


def languages(data: dict[str, Any]) -> list[str]:
    """The pack's languages (game.yaml ``languages:``), the source language first; [] when
    the pack lists none (it prints in one language, as written)."""
    value = data.get("languages")
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def catalog_path(root: Path, lang: str) -> Path:
    """``cards/<slug>/locale/<lang>.po``."""
    return root / LOCALE_FOLDER / f"{lang}.po"


def language_problems(game: Game) -> list[Diagnostic]:
    """``language-unknown`` (error) for each code of ``languages:`` that Babel (CLDR) does not
    know, at its line in game.yaml."""
    from babel import Locale, UnknownLocaleError

    problems = []
    for i, code in enumerate(languages(game.data)):
        try:
            Locale.parse(code)
        except (UnknownLocaleError, ValueError, TypeError) as exc:
            problems.append(diag(LANGUAGE_UNKNOWN, f"languages: {code!r} is no language code Babel knows ({exc})",
                                 file=game.source.file, line=game.source.line("languages", i),
                                 column=game.source.column("languages", i),
                                 hint="write an ISO 639 code, as `es`, `fr`, `de` or `pt_BR`"))
    return problems


def read_catalog(path: Path, lang: str):
    """The Babel catalog in ``path`` and the problems reading it: ``(catalog, [])``, or
    ``(None, [po-invalid error at the file's line])`` for a file that does not parse,
    is no UTF-8 text or cannot be read; ``(None, [])`` when there is no such file."""
    from babel.messages.pofile import PoFileError, read_po

    where = display_path(path)
    if not path.is_file():
        return None, []
    try:
        raw = path.read_bytes()
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        return None, [diag(PO_INVALID, f"{where} is not UTF-8 text: {exc.reason}", file=where, line=line,
                           hint="save the catalog as UTF-8, as every PO editor does")]
    except OSError as exc:
        return None, [diag(PO_INVALID, f"{where} cannot be read: {exc.strerror}", file=where)]
    lines = raw.decode("utf-8").splitlines()
    for n, line in enumerate(lines, 1):  # Babel reads an unclosed string as if it were closed: say so first
        text = line.strip()
        quoted = QUOTED.match(text)
        if quoted and not CLOSED.fullmatch(quoted.group(1)):
            return None, [diag(PO_INVALID, f"{where} does not parse: the string on line {n} is not closed by a "
                               "quotation mark", file=where, line=n,
                               hint='end the line with " (a quotation mark inside the text is written \\")')]
    try:
        catalog = read_po(raw.splitlines(keepends=True), locale=None, abort_invalid=True)
    except PoFileError as exc:
        message = str(exc).rsplit(" on ", 1)[0]
        return None, [diag(PO_INVALID, f"{where} does not parse: {message}", file=where,
                           line=(exc.lineno or 0) + 1,  # Babel counts lines from 0
                           hint="check the line in a PO editor; `cardforge translate` writes a valid catalog")]
    except Exception as exc:  # Babel raises ValueError and others on a malformed header or entry
        return None, [diag(PO_INVALID, f"{where} does not parse: {exc}", file=where, line=1,
                           hint="check the file in a PO editor; `cardforge translate` writes a valid catalog")]
    _previous_ids(catalog, lines)
    return catalog, []


def _previous_ids(catalog, lines: list[str]) -> None:
    """Give each message of ``catalog`` the previous msgid written above it (``#| msgid "..."``),
    which Babel's reader skips as a comment; ``lines``: the file's lines."""
    from babel.messages.pofile import unescape

    for message in catalog:
        if not message.id or not message.lineno:
            continue
        i, found = message.lineno - 2, []
        while i >= 0 and lines[i].strip() and (lines[i].startswith(("#", "msgctxt")) or lines[i].startswith('"')):
            if lines[i].startswith("#|"):
                found.insert(0, lines[i][2:].strip())
            i -= 1
        parts, seen = [], False
        for line in found:
            if line.startswith("msgid "):
                seen, line = True, line[len("msgid "):]
            elif line.startswith(("msgid_plural", "msgctxt")):
                seen = False
                continue
            if seen and line.startswith('"'):
                parts.append(unescape(line))
        if parts:
            message.previous_id = ["".join(parts)]


# ---- the paragraphs of a rules source, as translators see them


@dataclass(frozen=True)
class Paragraph:
    """A translatable unit of a rules source: its ``text`` (the exact lines, joined with
    newlines), its first and last line (1-based)."""

    text: str
    first: int
    last: int


def paragraphs(source: str) -> list[Paragraph]:
    """The units of a rules source a translator translates: paragraphs separated by blank
    lines, each heading a unit of its own, without lines that are only a jinja statement
    (``{% set ... %}``); a unit with no words outside jinja and comments (``{{ setup_steps() }}``)
    is none."""
    lines = source.split("\n")
    out: list[Paragraph] = []
    run: list[int] = []

    def flush() -> None:
        if run:
            text = "\n".join(lines[run[0]:run[-1] + 1])
            bare = ICON_TOKEN.sub(" ", COMMENT.sub(" ", JINJA.sub(" ", text)))
            if WORDS.search(bare):
                out.append(Paragraph(text, run[0] + 1, run[-1] + 1))
        run.clear()

    for i, line in enumerate(lines):
        if not line.strip() or STATEMENT_LINE.match(line):
            flush()
        elif HEADING.match(line):
            flush()
            run.append(i)
            flush()
        else:
            run.append(i)
    flush()
    return out


def _translate_source(source: str, found: dict[str, str]) -> str:
    """``source`` with each paragraph that ``found`` translates replaced (line ranges from the end)."""
    lines = source.split("\n")
    for par in reversed(paragraphs(source)):
        if par.text in found:
            lines[par.first - 1:par.last] = found[par.text].split("\n")
    return "\n".join(lines)


# ---- applying a catalog


@dataclass
class Applied:
    """What applying a catalog did: the language, the catalog file (display path), for
    each source position it translated, the catalog line of its entry (``placed``:
    (file, line) -> line in the .po), so a check of the translated game reports there, and
    the Babel catalog applied (``catalog``, None without one), which the catalog check
    reads instead of parsing the file again."""

    lang: str
    file: str
    placed: dict[tuple[str, int], int] = field(default_factory=dict)
    catalog: object = field(default=None, compare=False, repr=False)


def card_context(card: Card, path: tuple) -> str:
    """The ``msgctxt`` of a card field: ``encounter/gloomy-forest:text``, ``victory/knight:award.label``."""
    return f"{card.id}:{'.'.join(str(p) for p in path)}"


def data_context(path: tuple) -> str:
    """The ``msgctxt`` of a game.yaml string: ``game.yaml:glossary/diary/definition``."""
    return DATA_PREFIX + "/".join(str(p) for p in path)


def entries_of(catalog) -> Iterator[tuple[str | None, str, str, bool, int]]:
    """(context, msgid, msgstr, fuzzy, line) of every entry of ``catalog`` but the header and plurals."""
    for m in catalog:
        if not m.id or not isinstance(m.id, str):
            continue
        string = m.string if isinstance(m.string, str) else ""
        yield m.context, m.id, string, m.fuzzy, m.lineno or 1


def _walk(value: Any, path: tuple) -> tuple[Any, Any] | None:
    """(container, key) of ``path`` inside ``value``; None when it is not there."""
    *head, last = path
    for part in head:
        value = _step(value, part)
        if value is None:
            return None
    key = _key(value, last)
    return (value, key) if key is not None else None


def _key(value: Any, part: str) -> Any:
    if isinstance(value, dict):
        return part if part in value else None
    if isinstance(value, list) and part.isdigit() and int(part) < len(value):
        return int(part)
    return None


def _step(value: Any, part: str) -> Any:
    key = _key(value, part)
    return None if key is None else value[key]


def translated(game: Game, lang: str) -> tuple[Game, list[Diagnostic], Applied]:
    """``game`` in language ``lang``: a new Game whose card fields, game.yaml strings, rules
    sources, card type and icon labels are replaced by the translations of
    ``locale/<lang>.po`` (the loaded game is not changed). Without a catalog, a
    ``translation-missing`` warning and the game as written; a catalog that does not parse
    is a ``po-invalid`` error."""
    path = catalog_path(game.root, lang)
    where = display_path(path)
    applied = Applied(lang, where)
    catalog, problems = read_catalog(path, lang)
    applied.catalog = catalog
    if catalog is None:
        if not problems:
            problems = [diag(TRANSLATION_MISSING, f"{game.slug} lists {lang!r} among its languages but has no {where}",
                             file=game.source.file, line=game.source.line("languages"),
                             hint=f"run `cardforge translate {game.slug}` to write it, then translate its entries")]
        return replace(game, language=lang), problems, applied
    found: dict[str | None, dict[str, tuple[str, int]]] = {}
    for context, msgid, string, fuzzy, line in entries_of(catalog):
        if string.strip() and not fuzzy:
            found.setdefault(context, {})[msgid] = (string, line)
    data = copy.deepcopy(game.data)
    renamed_terms: dict[str, str] = {}
    for context, strings in found.items():
        if not context or not context.startswith(DATA_PREFIX):
            continue
        path = tuple(context[len(DATA_PREFIX):].split("/"))
        if len(path) == 2 and path[0] == "glossary":  # a term itself: renamed below, its definition first
            for msgid, (string, line) in strings.items():
                if msgid == path[1] and isinstance((data.get("glossary") or {}).get(msgid), dict):
                    renamed_terms[msgid] = string
                    applied.placed[(game.source.file, game.source.line("glossary", msgid))] = line
            continue
        spot = _walk(data, path)
        if spot is None:
            continue
        container, key = spot
        value = container[key]
        if isinstance(value, str) and value in strings:
            container[key] = strings[value][0]
            applied.placed[(game.source.file, game.source.line(*_typed(game.data, path)))] = strings[value][1]
    if renamed_terms:
        data["glossary"] = {renamed_terms.get(t, t): spec for t, spec in data["glossary"].items()}
    cards = []
    for card in game.cards:
        new_data, name = None, card.name
        prefix = card.id + ":"
        for context, strings in found.items():
            if not context or not context.startswith(prefix):
                continue
            path = tuple(context[len(prefix):].split("."))
            spot = _walk(new_data if new_data is not None else card.data, path)
            if spot is None:
                continue
            value = spot[0][spot[1]]
            if not isinstance(value, str) or value not in strings:
                continue
            if new_data is None:
                new_data = copy.deepcopy(card.data)
                spot = _walk(new_data, path)
            spot[0][spot[1]] = strings[value][0]
            if path == ("name",):
                name = strings[value][0]
            applied.placed[(card.source.file, card.source.line(*_typed(card.data, path)))] = strings[value][1]
        cards.append(card if new_data is None else replace(card, name=name, data=new_data, source_name=card.name))
    rules_text = {}
    for kind, filename in RULES_FILES.items():
        strings = found.get(filename)
        source = game.root / filename
        if not strings or not source.is_file():
            continue
        try:
            text = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # the rules source's own check reports it
        rules_text[kind] = _translate_source(text, {k: v[0] for k, v in strings.items()})
        for par in paragraphs(text):
            if par.text in strings:
                for n in range(par.first, par.last + 1):
                    applied.placed[(display_path(source), n)] = strings[par.text][1]
    card_types = {tid: replace(ct, label=data["card_types"][tid]["label"]) if isinstance(data["card_types"].get(tid), dict)
                  and isinstance(data["card_types"][tid].get("label"), str) else ct
                  for tid, ct in game.card_types.items()}
    icons = {name: replace(icon, label=(data.get("icons") or {}).get(name, {}).get("label", icon.label))
             for name, icon in game.icons.items()}
    fixed = {msgid: s for msgid, (s, _) in found.get(FIXED_CONTEXT, {}).items()}
    titles = {context[len(TITLE_PREFIX):]: s for context, strings in found.items()
              if context and context.startswith(TITLE_PREFIX) for s, _ in strings.values()}
    worded = {msgid: s for msgid, (s, _) in found.get(LAYOUT_CONTEXT, {}).items()}
    return (replace(game, data=data, cards=cards, card_types=card_types, icons=icons, language=lang,
                    rules_text=rules_text, fixed_words=fixed, field_titles=titles, layout_text=worded), problems, applied)


def _typed(data: Any, path: tuple) -> tuple:
    """``path`` (strings, as a msgctxt writes it) with list indexes as ints, as line maps key them."""
    out = []
    for part in path:
        if isinstance(data, list) and isinstance(part, str) and part.isdigit():
            part = int(part)
        out.append(part)
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            data = None
    return tuple(out)


def source_language(game: Game) -> str | None:
    """The language the pack's files are written in (``languages[0]``), None when it lists none."""
    found = languages(game.data)
    return found[0] if found else None


def in_language(game: Game, lang: str | None) -> tuple[Game, Applied | None, list[Diagnostic]]:
    """``game`` as it prints in ``lang`` (None: its source language, cardforge's fixed words in
    that language), what applying the catalog did (None for the source) and the problems:
    the ``languages:`` codes Babel does not know, then those of the catalog."""
    problems = language_problems(game)
    if lang is None:
        code = source_language(game)
        return (replace(game, language=code) if code else game), None, problems
    translation, more, applied = translated(game, lang)
    return translation, applied, problems + more
