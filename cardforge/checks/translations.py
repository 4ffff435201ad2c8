"""Checks of a translation: each finding at its entry's line in ``locale/<lang>.po``.

Run by :func:`cardforge.build.compile_game` for a language of the pack (``check --lang``,
``build --lang``), on the catalog and on the game as it prints in that language:

* ``translation-missing`` / ``translation-fuzzy`` (warnings; errors with ``--strict``): an
  entry with no translation, or marked fuzzy (its source changed since, or a translator
  doubts it); the source text prints in its place.
* ``translation-token`` (error): the translation drops or adds an icon token (``{speed}``), a
  markup tag (``**``, ``*``, an HTML tag) or a jinja expression (``{{ n('keep') }}``) of
  its source.
* ``translation-number`` (warning): the translation prints other numbers than the source.
* ``translation-name`` (warning): a run of capitalised words that is a card's or term's
  name in the source language where that language names it otherwise, or that nearly
  matches a name of that language without being one.

The text-fit and glyph checks run on the translated game itself (every check family does);
:func:`relocated` moves their findings about a translated string to its catalog entry.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from cardforge.model import Game
from cardforge.sources.catalogs import Applied, entries_of
from cardforge.util.diagnostics import (TRANSLATION_FUZZY, TRANSLATION_MISSING, TRANSLATION_NAME, TRANSLATION_NUMBER,
                                        TRANSLATION_TOKEN, Diagnostic, Severity, diag)

ICON_TOKEN = re.compile(r"(?<!\\)\{[a-z0-9][a-z0-9-]*\}")
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
TAG = re.compile(r"\*\*|(?<![\\*])\*(?!\*)|</?[a-zA-Z][^>]*>")
NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)?(?![\w])")
NEAR = 88.0


def _tokens(text: str) -> Counter:
    jinja = [" ".join(m.split()) for m in JINJA.findall(text)]
    bare = JINJA.sub(" ", text)
    return Counter(ICON_TOKEN.findall(bare) + TAG.findall(ICON_TOKEN.sub(" ", bare)) + jinja)


def _numbers(text: str) -> Counter:
    bare = ICON_TOKEN.sub(" ", JINJA.sub(" ", text))
    bare = re.sub(r"<!--.*?-->|\[[RE]\d+\]", " ", bare, flags=re.S)  # a comment, a ruling's citation
    return Counter(n.replace(",", ".") for n in NUMBER.findall(bare))


def _norm(name: str) -> str:
    return " ".join(re.sub(r"^(?:a|an|the|el|la|los|las|un|una|le|les|der|die|das)\s+", "", name.strip(), flags=re.I)
                    .lower().replace("’", "'").split())


def _names(source: Game, translated: Game) -> tuple[dict[str, str], dict[str, str]]:
    """(the card names of the language: normalised -> as written, what a near miss is
    judged against; the source names of cards and terms that the language calls otherwise:
    normalised -> the translated name)."""
    ours: dict[str, str] = {}
    renamed: dict[str, str] = {}
    for before, after in zip(source.cards, translated.cards):
        ours[_norm(after.name)] = after.name
        if _norm(before.name) != _norm(after.name):
            renamed[_norm(before.name)] = after.name
    for before, after in zip(source.glossary, translated.glossary):
        if _norm(before) != _norm(after):
            renamed[_norm(before)] = after
    return ours, renamed


def check_catalog(source: Game, translated: Game, applied: Applied) -> list[Diagnostic]:
    """The findings about the catalog ``applied`` came from (see the module), in its order."""
    from cardforge.checks.references import RUN
    from rapidfuzz import fuzz

    catalog = applied.catalog
    if catalog is None:  # missing or not parsed: translated() reported it
        return []
    where = applied.file
    lang = applied.lang
    ours, renamed = _names(source, translated)
    found: list[Diagnostic] = []
    for context, msgid, string, fuzzy, line in entries_of(catalog):
        what = f"{lang}: {context or 'entry'}" if context else f"{lang}: entry"
        if not string.strip():
            found.append(diag(TRANSLATION_MISSING, f"{what} is not translated: {msgid[:60]!r} prints as written",
                              file=where, line=line, hint="write its msgstr (a PO editor shows it)"))
            continue
        if fuzzy:
            found.append(diag(TRANSLATION_FUZZY, f"{what} is fuzzy: the source prints until the entry is reviewed",
                              file=where, line=line,
                              hint="compare with the previous source (#| msgid), correct it and remove the fuzzy flag"))
            continue
        lost, added = _tokens(msgid) - _tokens(string), _tokens(string) - _tokens(msgid)
        if lost or added:
            parts = ([f"drops {', '.join(sorted(lost))}"] if lost else []) + ([f"adds {', '.join(sorted(added))}"] if added else [])
            found.append(diag(TRANSLATION_TOKEN, f"{what}: the translation {' and '.join(parts)} of its source",
                              file=where, line=line, hint="icon tokens, markup and {{ ... }} stay as the source writes them"))
        if _numbers(msgid) != _numbers(string):
            found.append(diag(TRANSLATION_NUMBER, f"{what}: the translation prints the numbers "
                              f"{sorted(_numbers(string).elements()) or 'none'}, the source "
                              f"{sorted(_numbers(msgid).elements()) or 'none'}", file=where, line=line,
                              hint="write numbers as digits, as the source does"))
        if context and context.endswith(":name") or context and context.startswith("game.yaml:glossary/") \
                and context.count("/") == 1:
            continue  # a name itself
        bare = ICON_TOKEN.sub(lambda m: " " * len(m.group(0)), JINJA.sub(lambda m: " " * len(m.group(0)), string))
        for match in RUN.finditer(bare):
            run = _norm(match.group(0))
            if run in renamed and run not in ours:
                found.append(diag(TRANSLATION_NAME, f"{what} cites {match.group(0)!r}, which {lang} calls "
                                  f"{renamed[run]!r}", file=where, line=line, hint=f"write {renamed[run]!r}"))
            elif run not in ours and len(run) >= 5 and ours:
                best = max(ours, key=lambda n: fuzz.ratio(run, n))
                if fuzz.ratio(run, best) >= NEAR:
                    found.append(diag(TRANSLATION_NAME, f"{what}: {match.group(0)!r} is no card or term of {lang}",
                                      file=where, line=line, hint=f"did you mean {ours[best]!r}?"))
    return found


def translation_findings(problems: list[Diagnostic], source: Game, translated: Game,
                         applied: Applied | None) -> list[Diagnostic]:
    """What a translated game reports of ``problems`` (every finding of its compile; ``applied``
    None: the source language, ``problems`` as they are), with the
    catalog's own findings: each finding about a translated string at its catalog entry
    (:func:`relocated`), and of the rest only errors and notes. The source's warnings are the
    source build's to report, and the checks of English words (an unused glossary term, a
    question's quoted answer) mean nothing in another language."""
    if applied is None:
        return problems
    kept = [d for d in relocated(problems, applied) if d.file == applied.file or d.severity is not Severity.WARNING]
    return kept + check_catalog(source, translated, applied)


def relocated(problems: list[Diagnostic], applied: Applied) -> list[Diagnostic]:
    """``problems`` of a translated game with each finding about a translated string moved to
    its catalog entry (the language named in the message), the others as they were."""
    out = []
    for d in problems:
        line = applied.placed.get((d.file, d.line))
        if line is not None:
            d = replace(d, file=applied.file, line=line, column=0, message=f"{applied.lang}: {d.message}")
        out.append(d)
    return out

