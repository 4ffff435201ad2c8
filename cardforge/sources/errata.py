"""Errata: explicit, documented corrections of a seed as printed.

``cards/<slug>/errata.yaml`` holds two lists (each entry documented in the pack's ERRATA.md):

``errata``
    corrections the build applies: ``{card, type?, field, printed, corrected, reason}``. In
    a string field, the ``printed`` text is replaced by ``corrected``; in any other field the
    whole value must equal ``printed``. Card data keeps the value as printed; the corrected
    game is what is checked and rendered: an erratum of ``name`` (or ``quantity``) changes the
    card's name and id (or count) too. Errata name cards as printed. An erratum that no
    longer matches is ``errata-stale``.
``accepted``
    findings left as printed on purpose: ``{code, card?, match?, reason}`` (``match``: a
    piece of the message); a matching diagnostic is reported as ``finding-accepted`` (info).
"""
from __future__ import annotations

import copy
import os
from dataclasses import replace

from cardforge.cache.registry import SCHEMA_VALIDATORS
from cardforge.util.diagnostics import (ERRATA_APPLIED, ERRATA_STALE, FINDING_ACCEPTED, PACK_STRUCTURE, Diagnostic,
                                        Severity, diag, has_errors)
from cardforge.util.diagnostics import display_path
from cardforge.sources.yamlfile import read_yaml
from cardforge.model import Game, Source
from cardforge.util.paths import resolve_inside
from cardforge.validation import validate

ERRATA_FILE = "errata.yaml"
_TEXT = {"type": "string"}
SCHEMA = {  # the shape of errata.yaml (JSON Schema 2020-12)
    "type": "object",
    "properties": {
        "errata": {"type": "array", "items": {
            "type": "object", "required": ["card", "field"],
            "properties": {"card": _TEXT, "type": _TEXT, "field": _TEXT, "reason": _TEXT, "source": _TEXT}}},
        "accepted": {"type": "array", "items": {
            "type": "object", "required": ["code"],
            "properties": {"code": _TEXT, "card": _TEXT, "match": _TEXT, "reason": _TEXT}}},
    },
}


def read_errata(game: Game) -> tuple[dict, Source | None, list[Diagnostic]]:
    """errata.yaml of ``game`` as ``(data, source, diagnostics)``; ``({}, None, ...)`` when absent or malformed."""
    path = game.root / ERRATA_FILE
    if not os.path.lexists(path):
        return {}, None, []
    inside = resolve_inside(game.root, ERRATA_FILE, file=display_path(path), what=ERRATA_FILE)
    if isinstance(inside, Diagnostic):
        return {}, None, [inside]
    data, source, problems = read_yaml(path)
    if source is None:
        return {}, None, problems
    if not isinstance(data, dict):
        return {}, None, [diag(PACK_STRUCTURE, "errata.yaml must be a mapping with `errata:` and/or `accepted:` lists",
                               file=source.file, line=1)]
    shape = validate(data, _validator(), source, code=PACK_STRUCTURE, subject=ERRATA_FILE)
    if shape:
        return {}, None, problems + shape
    return data, source, problems


@SCHEMA_VALIDATORS.function
def _validator():
    from jsonschema import Draft202012Validator

    return Draft202012Validator(SCHEMA)


def apply_errata(game: Game) -> tuple[Game, list[Diagnostic]]:
    """The game with every erratum applied (a new Game; the loaded one is not changed)."""
    data, source, problems = read_errata(game)
    if has_errors(problems):  # refused whole: the checks do not judge cards it may correct or accept
        game = replace(game, unread={**game.unread, display_path(game.root / ERRATA_FILE): "errata"})
    entries = data.get("errata") or []
    if not entries:
        return game, problems
    by_name: dict[str, list[int]] = {}
    for i, card in enumerate(game.cards):
        by_name.setdefault(card.name, []).append(i)
    cards = list(game.cards)
    for n, entry in enumerate(entries):
        where = dict(file=source.file, line=source.line("errata", n))
        name, field = entry.get("card"), entry.get("field")
        matches = [i for i in by_name.get(name, []) if not entry.get("type") or cards[i].type == entry["type"]]
        if not matches or not field:
            problems.append(diag(ERRATA_STALE, f"erratum #{n + 1} names no card {name!r}" if not matches
                                 else f"erratum #{n + 1} has no `field`", **where))
            continue
        card = cards[matches[0]]
        printed, corrected = entry.get("printed"), entry.get("corrected")
        value = card.data.get(field)
        if isinstance(value, str) and isinstance(printed, str) and printed in value:
            new_value = value.replace(printed, corrected)
        elif value == printed:
            new_value = corrected
        else:
            problems.append(diag(ERRATA_STALE, f"erratum #{n + 1}: {card.type} card {name!r} field `{field}` "
                                 f"does not contain the printed value {printed!r}", card=name, **where))
            continue
        new_data = copy.deepcopy(card.data)
        new_data[field] = new_value
        cards[matches[0]] = replace(card, data=new_data, **_identity(field, new_value))
        problems.append(diag(ERRATA_APPLIED, f"{card.type} card {name!r}: `{field}` {printed!r} -> {corrected!r} "
                             f"({entry.get('reason', 'no reason given')})", file=card.source.file,
                             line=card.source.line(field), card=name))
    return replace(game, cards=cards), problems


def _identity(field: str, value: object) -> dict:
    """The :class:`~cardforge.model.Card` attributes an erratum of ``field`` changes besides
    its data: a corrected ``name`` or ``quantity`` is the card's name (and so its id) or
    count everywhere, so checks, decks and every other output see the same card."""
    if field == "name" and isinstance(value, str) and value:
        return {"name": value}
    if field == "quantity" and isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return {"quantity": value}
    return {}


def accept_findings(game: Game, found: list[Diagnostic]) -> list[Diagnostic]:
    """Downgrade the findings listed under ``accepted:`` to ``finding-accepted`` (info)."""
    data, _, _ = read_errata(game)
    accepted = data.get("accepted") or []
    if not accepted:
        return found
    out = []
    for d in found:
        reason = next((a.get("reason", "") for a in accepted
                       if a.get("code") == d.code and (not a.get("card") or a.get("card") == d.card)
                       and (not a.get("match") or a["match"] in d.message)), None)
        if reason is not None:
            out.append(replace(d, severity=Severity.INFO, code=FINDING_ACCEPTED,
                               message=f"[{d.code}] {d.message} (left as printed: {reason})", hint=""))
        else:
            out.append(d)
    return out


