"""``cardforge translate``: every printed string of a pack into one gettext catalog per language.

:func:`strings` lists what a pack prints, each with the ``msgctxt`` that
:mod:`cardforge.sources.catalogs` applies it by and its source file:line (relative to the
pack folder, as the ``#:`` reference): the card fields a layout prints (the name always;
``source``, ``note`` and enum-like values never), card type labels and the almanac's field
titles (and each printed field's title, as the card anatomy labels it), icon labels, terrain
labels, component names, the words a layout prints as written (``*Event*``), the glossary (each term and its
definition), the rules lists and tables of game.yaml, the reference charts' titles, and the
rules sources paragraph by
paragraph (a heading is a paragraph).

:func:`update_catalog` writes ``cards/<slug>/locale/<lang>.po`` with Babel, keeping what a
translator wrote: an entry whose source is unchanged keeps its translation; one whose source
changed keeps its translation too, marked fuzzy, with the old source as ``#| msgid`` (the
previous msgid); a string no longer printed becomes obsolete (``#~``). The header (dates,
translator, team) is kept as it was, so re-running on an unchanged pack writes the same bytes.
"""
from __future__ import annotations

import difflib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardforge.elements import kind_of
from cardforge.model import Game
from cardforge.sources.catalogs import (DATA_PREFIX, ICON_TOKEN as ICON, JINJA, LAYOUT_CONTEXT, RULES_FILES, TITLE_PREFIX,
                                        WORDS, card_context, catalog_path, data_context, paragraphs, read_catalog)
from cardforge.util.diagnostics import Diagnostic

IDENTIFIER = re.compile(r"[a-z0-9][a-z0-9_-]*")  # an enum value (`compassion`, `diary-cards`): data, not words
AUTO_FLAGS = {"python-format", "python-brace-format"}
NOT_PRINTED = {"type", "quantity", "source", "note", "provisional", "layout", "back"}


@dataclass
class Entry:
    """One string to translate: its ``msgctxt``, its text and where it is written."""

    context: str
    msgid: str
    locations: list[tuple[str, int]] = field(default_factory=list)


def _rel(game: Game, file: str) -> str:
    """A pack file as a reference names it: relative to the pack folder."""
    return Path(file).name


def _data_strings(game: Game) -> list[tuple[tuple, str]]:
    """(path, text) of the game.yaml strings a pack prints, in the file's order of sections."""
    from cardforge.documents.playertext import printed_strings

    data = game.data
    out: list[tuple[tuple, str]] = []
    for term, spec in (data.get("glossary") or {}).items():
        out.append((("glossary", term), term))
    out += list(printed_strings(game))
    for tid, spec in (data.get("card_types") or {}).items():
        if isinstance(spec, dict) and isinstance(spec.get("label"), str):
            out.append((("card_types", tid, "label"), spec["label"]))
        fields = ((spec.get("almanac") or {}).get("fields") or {}) if isinstance(spec, dict) else {}
        for name, shown in fields.items() if isinstance(fields, dict) else ():
            base = ("card_types", tid, "almanac", "fields", name)
            if isinstance(shown, str):
                out.append((base, shown))
            elif isinstance(shown, dict):
                if isinstance(shown.get("label"), str):
                    out.append((base + ("label",), shown["label"]))
                for part in ("columns", "enum"):
                    for key, text in (shown.get(part) or {}).items() if isinstance(shown.get(part), dict) else ():
                        if isinstance(text, str):
                            out.append((base + (part, key), text))
    for tid, spec in (data.get("terrains") or {}).items():
        if isinstance(spec, dict) and isinstance(spec.get("label"), str):
            out.append((("terrains", tid, "label"), spec["label"]))
    for back, spec in (data.get("backs") or {}).items():
        if isinstance(spec, dict) and isinstance(spec.get("title"), str):
            out.append((("backs", back, "title"), spec["title"]))
    charts = (data.get("reference") or {}).get("charts") if isinstance(data.get("reference"), dict) else None
    for i, spec in enumerate(charts if isinstance(charts, list) else []):
        for key in ("title", "x_default", "x_label", "y_label"):
            if isinstance(spec, dict) and isinstance(spec.get(key), str):
                out.append((("reference", "charts", i, key), spec[key]))
    for name, values in (data.get("labels") or {}).items():
        for value, text in values.items() if isinstance(values, dict) else ():
            if isinstance(text, str):
                out.append((("labels", name, value), text))
    return out


def _card_strings(card, printed: set[str] | None) -> list[tuple[tuple, str]]:
    out: list[tuple[tuple, str]] = [(("name",), card.name)]

    def walk(value: Any, path: tuple) -> None:
        if isinstance(value, str):
            if len(path) == 1 or not IDENTIFIER.fullmatch(value):
                out.append((path, value))
        elif isinstance(value, dict):
            for key, sub in value.items():
                walk(sub, path + (key,))
        elif isinstance(value, list):
            for i, sub in enumerate(value):
                walk(sub, path + (i,))

    for key, value in card.data.items():
        if key == "name" or key in NOT_PRINTED or (printed is not None and key not in printed):
            continue
        if isinstance(value, str) and printed is None and IDENTIFIER.fullmatch(value):
            continue  # an enum value of a card printed through a table
        walk(value, (key,))
    return out


def strings(game: Game, layouts) -> list[Entry]:
    """Every printed string of ``game`` (its source language, errata applied), in order:
    game.yaml, the cards in file order, then the rulebook and the rules sheet."""
    from cardforge.checks.references import _printed
    from cardforge.documents.anatomy import field_label

    entries: dict[tuple[str, str], Entry] = {}

    def add(context: str, msgid: str, file: str, line: int) -> None:
        if not msgid.strip():
            return
        entry = entries.setdefault((context, msgid), Entry(context, msgid))
        if (file, line) not in entry.locations:
            entry.locations.append((file, line))

    for path, text in _data_strings(game):
        add(data_context(path), text, "game.yaml", game.source.line(*path))
    printed: dict[tuple, set[str] | None] = {}
    titled: set[tuple[str, str]] = set()
    for card in game.cards:
        key = (card.type, layouts.name_for(card) if layouts is not None else "")
        if key not in printed:
            printed[key] = _printed(game, layouts, card)
        for path, text in _card_strings(card, printed[key]):
            add(card_context(card, path), text, _rel(game, card.source.file), card.source.line(*path))
        for name in card.data:  # each printed field's title, as the card anatomy labels it
            if (card.type, name) not in titled and name not in NOT_PRINTED and (printed[key] is None or name in printed[key]
                                                                               or name == "name"):
                titled.add((card.type, name))
                add(f"{TITLE_PREFIX}{card.type}/{name}", field_label(game, card.type, str(name)), "game.yaml",
                    game.source.line("card_types", card.type))
    for face, file in _faces(layouts):  # words a layout prints as written
        for el in face.elements:
            bare = ICON.sub(" ", JINJA.sub(" ", el.template or ""))
            if kind_of(el).sets_text and WORDS.search(bare):
                add(LAYOUT_CONTEXT, el.template, file, el.line)
    for kind, filename in RULES_FILES.items():
        source = game.root / filename
        try:
            text = source.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        for par in paragraphs(text):
            add(filename, par.text, filename, par.first)
    return list(entries.values())


def _faces(layouts) -> list:
    """(face, the layout file as a reference names it, from the pack folder) of every layout and back."""
    if layouts is None:
        return []
    file = f"../../layouts/{Path(layouts.file).name}"  # layouts/<slug>.yaml beside cards/
    faces = [face for layout in layouts.named.values() for face in (layout.front, layout.back) if face is not None]
    return [(face, file) for face in faces + list(layouts.backs.values())]


def _similar(msgid: str, candidates: list[str]) -> str | None:
    found = difflib.get_close_matches(msgid, candidates, n=1, cutoff=0.6)
    return found[0] if found else None


def merge(old, entries: list[Entry], lang: str, title: str):
    """A new Babel catalog of ``entries`` for ``lang``, keeping the translations, header and
    obsolete entries of ``old`` (a Babel catalog, or None)."""
    from babel.messages.catalog import Catalog, Message

    if old is not None:
        catalog = Catalog(locale=lang, header_comment=old.header_comment, project=old.project, version=old.version,
                          copyright_holder=old.copyright_holder, msgid_bugs_address=old.msgid_bugs_address,
                          creation_date=old.creation_date, revision_date=old.revision_date,
                          last_translator=old.last_translator, language_team=old.language_team, fuzzy=old.fuzzy)
        previous = [m for m in old if m.id and isinstance(m.id, str)]
        obsolete = list(old.obsolete.values())
    else:
        catalog = Catalog(locale=lang, project=title, version=None, fuzzy=False,
                          header_comment=f"# {title}: translation into {lang}.\n# Written by `cardforge translate`; "
                                         "edit the msgstr lines (any PO editor opens this file).\n#")
        previous, obsolete = [], []
    exact = {(m.context, m.id): m for m in previous}
    by_context: dict[str | None, list] = {}
    for m in previous:
        by_context.setdefault(m.context, []).append(m)
    used: set[tuple[str | None, str]] = set()
    for entry in entries:
        key = (entry.context, entry.msgid)
        flags, string, previous_id = (), "", ()
        if key in exact:
            m = exact[key]
            string, flags, previous_id = m.string, tuple(f for f in m.flags if f == "fuzzy"), m.previous_id
            used.add(key)
        else:
            same = [m for m in by_context.get(entry.context, []) if (m.context, m.id) not in used
                    and (m.context, m.id) not in {(e.context, e.msgid) for e in entries if e is not entry}]
            if entry.context in RULES_FILES.values():  # many paragraphs share one context: the closest text
                best = _similar(entry.msgid, [m.id for m in same])
                same = [m for m in same if m.id == best]
            if same and same[0].string:
                m = same[0]
                string, flags, previous_id = m.string, ("fuzzy",), m.id
                used.add((m.context, m.id))
            elif same:
                used.add((same[0].context, same[0].id))
        message = Message(entry.msgid, string, locations=entry.locations, flags=flags, previous_id=previous_id,
                          context=entry.context)
        catalog[entry.msgid] = message
    for m in previous:
        if (m.context, m.id) not in used and (m.context, m.id) not in {(e.context, e.msgid) for e in entries} and m.string:
            catalog.obsolete[(m.id, m.context) if m.context else m.id] = Message(m.id, m.string, context=m.context,
                                                                                  flags=m.flags, locations=())
    for m in obsolete:
        key = (m.id, m.context) if m.context else m.id
        if catalog.get(m.id, m.context) is None and key not in catalog.obsolete:
            catalog.obsolete[key] = m
    return catalog


def render_catalog(catalog) -> bytes:
    """The .po text of ``catalog`` (previous msgids kept, references with lines)."""
    from babel.messages.pofile import write_po

    for message in catalog:
        message.flags -= AUTO_FLAGS  # Babel's guess from "{...}" and "%": icon tokens are no Python formats
    out = io.BytesIO()
    write_po(out, catalog, width=76, include_previous=True, include_lineno=True, sort_output=False)
    return out.getvalue()


def update_catalog(game: Game, layouts, lang: str) -> tuple[Path, bool, list[Diagnostic], dict[str, int]]:
    """Write (or update) ``locale/<lang>.po`` of ``game`` (compiled, source language; ``layouts``
    say which card fields print, None: every text field).

    Returns (its path, whether the file changed, the problems reading the old catalog, counts
    of its entries: ``entries``, ``translated``, ``fuzzy``, ``untranslated``, ``obsolete``).
    A catalog that does not parse is not overwritten (a ``po-invalid`` error is returned).
    """
    from cardforge.cache.files import write_atomic

    path = catalog_path(game.root, lang)
    old, problems = read_catalog(path, lang)
    if problems:
        return path, False, problems, {}
    catalog = merge(old, strings(game, layouts), lang, game.title)
    data = render_catalog(catalog)
    changed = not path.is_file() or path.read_bytes() != data
    if changed:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data)
    messages = [m for m in catalog if m.id]
    counts = {"entries": len(messages), "translated": sum(1 for m in messages if m.string and not m.fuzzy),
              "fuzzy": sum(1 for m in messages if m.fuzzy), "untranslated": sum(1 for m in messages if not m.string),
              "obsolete": len(catalog.obsolete)}
    return path, changed, [], counts


__all__ = ["DATA_PREFIX", "Entry", "merge", "render_catalog", "strings", "update_catalog"]
