"""Rulings and errata in print: each one ERRATA.md records is printed where players read it.

The link is an id. ERRATA.md gives an entry that the print must carry a bold tag,
``**Ruling R3**`` (this edition's ruling where the original rules are open, ambiguous or
contradictory, or its reading of them) or ``**Erratum E1**`` (a correction). The
player-facing sources cite it by the id in square brackets, ``[R3]``, beside the rule they
print: rulebook.md, sheet.md, a game.yaml string the rules print (setup, turn, end, tables,
glossary...) or a card field (not its ``note``, ``source`` or ``provisional``). The
rulebook's "About this edition" section lists every id with its wording, so a citation
always leads somewhere.

Codes:

``ruling-unprinted`` (warning, on the tag's line in ERRATA.md)
    a tagged ruling or erratum that no player-facing source cites, or that the rulebook's
    "About this edition" does not list (a pack with a rulebook.md).
``ruling-unknown`` (warning, on the citation)
    a citation ``[R9]`` in a player-facing source that no ERRATA.md tag defines.
"""
from __future__ import annotations

import re
from collections.abc import Iterator

from cardforge.util.diagnostics import RULING_UNKNOWN, RULING_UNPRINTED, Diagnostic, diag
from cardforge.util.paths import InputFileError, read_limited
from cardforge.layout import LayoutSet
from cardforge.sources.load import display_path
from cardforge.model import Game
from cardforge.documents.playertext import printed_strings
from cardforge.documents.source import SOURCES, source_path

ERRATA_NOTES = "ERRATA.md"
TAG = re.compile(r"\*\*(?:Ruling|Erratum) ([RE]\d+)\*\*")
CITE = re.compile(r"\[([RE]\d+)\]")
COMMENT = re.compile(r"<!--.*?-->|\{#.*?#\}", re.S)
ABOUT = re.compile(r"^#{1,6}\s+About this edition\s*$", re.M | re.I)
HEADING = re.compile(r"^#{1,6}\s", re.M)
UNPRINTED = {"note", "source", "provisional", "also_printed"}  # card fields kept for the pack's readers, never printed


def tags(text: str) -> dict[str, int]:
    """The ids ERRATA.md text ``text`` tags, each with the line of its first tag (1-based)."""
    found: dict[str, int] = {}
    for n, line in enumerate(text.splitlines(), 1):
        for match in TAG.finditer(line):
            found.setdefault(match.group(1), n)
    return found


def about_section(text: str) -> str | None:
    """The "About this edition" section of rulebook text ``text`` (to the next heading of any
    level), or None when it has none."""
    match = ABOUT.search(text)
    if not match:
        return None
    rest = text[match.end():]
    following = HEADING.search(rest)
    return rest[:following.start()] if following else rest


def _read(path) -> str | None:
    try:
        return read_limited(path, display=display_path(path)).decode("utf-8")
    except (OSError, UnicodeDecodeError, InputFileError):
        return None  # absent, or reported by the loader and the rules checks


def _strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    notes_path = game.root / ERRATA_NOTES
    notes = _read(notes_path)
    defined = tags(notes) if notes else {}
    cited: dict[str, list[tuple[str, int, int]]] = {}  # id -> (file, line, column) of each citation
    sources: dict[str, str] = {}
    for kind in SOURCES:
        text = _read(source_path(game, kind))
        if text is None:
            continue
        sources[kind] = text
        blank = COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
        for n, line in enumerate(blank.splitlines(), 1):
            for match in CITE.finditer(line):
                cited.setdefault(match.group(1), []).append((display_path(source_path(game, kind)), n, match.start() + 1))
    for where, text in printed_strings(game):
        for match in CITE.finditer(text):
            line, col = game.source.lines.in_string(where, text, match.start())
            cited.setdefault(match.group(1), []).append((game.source.file, line, col))
    for card in game.cards:
        for text in _strings({k: v for k, v in card.data.items() if k not in UNPRINTED}):
            for match in CITE.finditer(text):
                cited.setdefault(match.group(1), []).append((card.source.file, card.source.line(), 0))
    found = []
    about = about_section(sources["rulebook"]) if "rulebook" in sources else None
    listed = set(CITE.findall(about or ""))
    for rid, line in defined.items():
        where = dict(file=display_path(notes_path), line=line)
        if rid not in cited:
            found.append(diag(RULING_UNPRINTED, f"{rid} is recorded in {ERRATA_NOTES} but no rule, table or card "
                              "players read cites it", hint=f"write [{rid}] beside the rule it settles (rulebook.md, "
                              "sheet.md, a game.yaml string the rules print) and list it in the rulebook's "
                              "\"About this edition\"", **where))
        elif "rulebook" in sources and rid not in listed:
            found.append(diag(RULING_UNPRINTED, f"{rid} is cited but the rulebook's \"About this edition\" "
                              + ("does not list it" if about is not None else "section is missing"),
                              hint=f"add a line \"[{rid}] ...\" in its words to \"## About this edition\" in rulebook.md",
                              **where))
    for rid, places in sorted(cited.items()):
        if rid in defined:
            continue
        for file, line, col in places:
            found.append(diag(RULING_UNKNOWN, f"[{rid}] cites a ruling or erratum that {ERRATA_NOTES} does not tag",
                              hint=f"tag its entry in {ERRATA_NOTES} with **Ruling {rid}** (or **Erratum {rid}**), "
                              "or remove the citation", file=file, line=line, column=col))
    return found
