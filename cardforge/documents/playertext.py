"""Player-facing text: what every printed page says the same way.

* :data:`DESIGNED` (†) marks a designed value (one the pack marks ``provisional``) on every
  output that prints it; :data:`DESIGNED_NOTE` explains it in one line.
* :data:`CITATION` finds a citation of a ruling or erratum ("[R3]", "[E1]", see
  :mod:`cardforge.checks.rulings`); :data:`RULING_NOTE` explains the mark in one line, printed
  once by each output that cites one (the rulebook's "About this edition" lists them).
* :func:`players` gives a player count in words that agree in number ("1 player",
  "2 players", "1–5 players").
* :func:`internal_words` finds words addressed to the pack's maintainers (the seed,
  ERRATA.md, "provisional", raw field names) in text meant for players; the
  ``rules-internal-text`` check runs it over the rules sources, the game.yaml strings
  that print, and the rendered rules.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from cardforge.model import DESIGNED_MARK as DESIGNED  # the one mark of every output, card faces included
from cardforge.model import DESIGNED_NOTE  # noqa: F401  (the rules documents import it from here)
from cardforge.util.i18n import _

CITATION = re.compile(r"\[[RE]\d+\]")
RULING_NOTE = "[R1] marks a ruling of this edition where the original rules leave a question open (the rulebook's About this edition lists them)"

# (pattern, a regular expression every match of it contains, why): words for the pack's maintainers, never for players
INTERNAL = [
    (re.compile(r"\bseeds?\b(?!\s+(?:of|from)\b)", re.I), "seed", "the seed is the pack's source document"),
    (re.compile(r"\bERRATA\.md\b|\berrata\.ya?ml\b", re.I), "errata", "names a maintainer's file"),
    (re.compile(r"\bprovisional\b", re.I), "provisional", "mark designed values with † instead"),
    (re.compile(r"\b(?:game pack|the pack's|this pack's)\b", re.I), "pack", "speaks of the data pack, not the game"),
    (re.compile(r"\b(?:TODO|FIXME|TBD|XXX)\b"), "todo|fixme|tbd|xxx", "a note to the maintainers"),
    (re.compile(r"\bmaintainers?\b", re.I), "maintainer", "a note to the maintainers"),
    (re.compile(r"(?<![{\w/.-])[a-z]+(?:_[a-z0-9]+)+(?![\w}/-]|\.\w)"), "_", "a raw field name"),
]
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
TOKEN = re.compile(r"\{[\w-]+\}")
# a text holding none of what the patterns' matches hold (case folded as re.I folds) has
# nothing to find: blanking templates and tokens only removes text
_NEEDED = re.compile("|".join(needs for _pattern, needs, _why in INTERNAL), re.I)


def players(meta: dict[str, Any]) -> str:
    """The game's player count in words: "1 player", "2 players", "2–4 players"."""
    count = meta.get("players") or {}
    low, high = count.get("min"), count.get("max", count.get("min"))
    if low is None:
        return ""
    if low == high:
        return (_("{n} player") if low == 1 else _("{n} players")).format(n=low)
    return _("{low}–{high} players").format(low=low, high=high)


def cover_facts(meta: dict[str, Any], short: bool = False) -> list[str]:
    """The facts a cover gives (the rulebook's, PDF and web page alike, and the rules sheet's
    title panel, ``short``), from game.yaml's ``game:``: the players, the play time ("20–30
    minutes", short "20–30 min") and the youngest age ("ages 10+"), in the game's language,
    each marked designed where the pack says it is provisional."""
    lines = [players(meta)]
    if meta.get("play_time"):
        t = meta["play_time"]
        span = f"{t.get('min')}–{t.get('max')}" if t.get("min") != t.get("max") else f"{t.get('min')}"
        lines.append(designed((_("{span} min") if short else _("{span} minutes")).format(span=span), t.get("provisional")))
    if meta.get("ages"):
        lines.append(designed(_("ages {age}+").format(age=meta["ages"].get("min")), meta["ages"].get("provisional")))
    return lines


def has_designed(game) -> bool:
    """Whether any value the outputs print is designed (marked provisional in the pack)."""
    meta = game.meta
    if any(isinstance(meta.get(k), dict) and meta[k].get("provisional") for k in ("play_time", "ages", "players")):
        return True
    if any(c.get("provisional") is True for c in game.components):
        return True
    if any(isinstance(e, dict) and e.get("provisional") is True for e in game.data.get("odds") or []):
        return True
    return any(card.provisional for card in game.cards)


def cites(text: str) -> bool:
    """Whether ``text`` cites a ruling or erratum ("[R3]")."""
    return bool(CITATION.search(text))


def designed(value: str, provisional: bool) -> str:
    """``value`` with the designed mark when ``provisional``."""
    return f"{value}{DESIGNED}" if provisional else value


def internal_words(text: str, allowed: set[str] = frozenset()) -> Iterator[tuple[int, str, str]]:
    """(offset, word, why) for every maintainer word in ``text`` (jinja and icon tokens skipped).

    ``allowed`` are words the game itself uses (glossary terms, card names): never flagged.
    """
    if not _NEEDED.search(text):  # most strings
        return
    blank = JINJA.sub(lambda m: " " * len(m.group(0)), text)
    blank = TOKEN.sub(lambda m: " " * len(m.group(0)), blank)
    blank = re.sub(r"<!--.*?-->", lambda m: " " * len(m.group(0)), blank, flags=re.S)
    for pattern, _needs, why in INTERNAL:
        for match in pattern.finditer(blank):
            if match.group(0).lower() in allowed:
                continue
            yield match.start(), match.group(0), why


def allowed_words(game) -> set[str]:
    """Words the game's own vocabulary uses: glossary terms and card names, lower case."""
    words = {t.lower() for t in game.glossary}
    words |= {c.name.lower() for c in game.cards}
    return words


def printed_strings(game) -> Iterator[tuple[tuple, str]]:
    """(path in game.yaml, text) of every game.yaml string that the rules or helper sheets print."""
    data = game.data
    meta = data.get("game") or {}
    for key in ("title", "tagline"):
        if isinstance(meta.get(key), str):
            yield ("game", key), meta[key]
    for i, comp in enumerate(data.get("components") or []):
        for key in ("name", "listed"):
            if isinstance(comp.get(key), str):
                yield ("components", i, key), comp[key]
    for i, step in enumerate(data.get("setup") or []):
        if isinstance(step, str):
            yield ("setup", i), step
    for i, phase in enumerate(data.get("turn") or []):
        for key in ("name", "summary", "detail"):
            if isinstance(phase, dict) and isinstance(phase.get(key), str):
                yield ("turn", i, key), phase[key]
    for i, item in enumerate(data.get("end") or []):
        if isinstance(item, str):
            yield ("end", i), item
    for table_id, spec in (data.get("tables") or {}).items():
        if isinstance(spec.get("title"), str):
            yield ("tables", table_id, "title"), spec["title"]
        for i, col in enumerate(spec.get("columns") or []):
            yield ("tables", table_id, "columns", i), str(col)
        for r, row in enumerate(spec.get("rows") or []):
            cells = row.items() if isinstance(row, dict) else enumerate(row)
            for key, cell in cells:
                if isinstance(cell, str):
                    yield ("tables", table_id, "rows", r, key), cell
    for i, entry in enumerate(data.get("odds") or []):
        for key in ("title", "cards"):
            if isinstance(entry, dict) and isinstance(entry.get(key), str):
                yield ("odds", i, key), entry[key]
    for term, spec in (data.get("glossary") or {}).items():
        if isinstance(spec, dict) and isinstance(spec.get("definition"), str):
            yield ("glossary", term, "definition"), spec["definition"]
    for name, icon in (data.get("icons") or {}).items():
        if isinstance(icon, dict) and isinstance(icon.get("label"), str):
            yield ("icons", name, "label"), icon["label"]
