"""Stage 3, check: rule-consistency checks over a whole game pack.

Each check family is a function ``(game, layouts) -> list[Diagnostic]`` registered in
:data:`FAMILIES`; checks say what is wrong about a card or a path and place it with the
line map kept by loading. Checks never draw: the text-fit family asks the layout engine to
measure. See each module for its codes.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Callable

from cardforge.sandbox import results as checkresults
from cardforge.util.diagnostics import (CHECKS_SKIPPED, FIELD_SHAPE, RULES_MISSING, SCHEMA, Diagnostic, diag,
                                        display_path)
from cardforge.layout import LayoutSet
from cardforge.model import Game
from cardforge.checks import (charts, colourvision, common, components, counts, faces, glossary, glyphs, icons, images,
                              layoutfit, markup, marks, odds, packfiles, playertext, questions, rawvalues, references,
                              rulenumbers, declared, rulesource, rulings, stacks, text, textfit, values)

Check = Callable[[Game, LayoutSet | None], list[Diagnostic]]

# family -> check; the schema family runs before these (cardforge.validation.cards)
FAMILIES: dict[str, Check] = {
    "values": values.check,  # first: later families skip layouts with senseless values
    "references": references.check,
    "counts": counts.check,
    "stacks": stacks.check,
    "components": components.check,
    "icons": icons.check,
    "markup": markup.check,
    "glossary": glossary.check,
    "text": text.check,
    "faces": faces.check,
    "glyphs": glyphs.check,
    "text-fit": textfit.check,
    "layout-fit": layoutfit.check,
    "images": images.check,
    "rules": declared.check,
    "odds": odds.check,
    "raw-values": rawvalues.check,
    "colour-vision": colourvision.check,
    "rules-source": rulesource.check,
    "player-text": playertext.check,
    "rulings": rulings.check,
    "questions": questions.check,
    "marks": marks.check,
    "charts": charts.check,
    "rules-numbers": rulenumbers.check,
    "pack-files": packfiles.check,
}


# families that judge the set of cards as a whole: with a card file unread they would only
# report its missing cards again (count-mismatch, rule-failed, icon-unused, ...)
WHOLE_SET = ("references", "counts", "stacks", "components", "icons", "glossary", "rules", "rules-source",
             "charts", "rules-numbers", "rulings", "questions", "marks")
# what each kind of unread file (Game.unread) takes from the checks, and why
NEEDS: dict[str, tuple[tuple[str, ...], str]] = {
    "cards": (WHOLE_SET, "its cards are missing"),
    "errata": (WHOLE_SET, "the corrections and accepted findings it holds are missing"),
    "layouts": (("faces", "text-fit", "layout-fit", "images", "stacks", "icons", "glossary"),
                "no card can be measured or drawn, and what the layouts print is unknown"),
    "rules": (("rules-numbers", "glossary", "rulings", "questions", "marks"), "what the rules print is unknown"),
}


def unread_rules(game: Game) -> dict[str, str]:
    """The rules sources of ``game`` that exist but could not be read or rendered -> "rules"."""
    from cardforge.documents.source import SOURCES, source_path

    out = {}
    for kind in SOURCES:
        markdown, problems = common.rules_source(game, kind)
        if markdown is None and any(d.code != RULES_MISSING for d in problems):
            out[display_path(source_path(game, kind))] = "rules"
    return out


def skipped(unread: dict[str, str]) -> tuple[set[str], list[Diagnostic]]:
    """The families not run because of the ``unread`` files, and one ``checks-skipped`` note
    per file saying which and why (at the file's first line)."""
    names: set[str] = set()
    notes = []
    for file, kind in unread.items():
        families, why = NEEDS[kind]
        names.update(families)
        notes.append(diag(CHECKS_SKIPPED, f"{', '.join(families)} checks not run: {file} could not be {'used' if kind == 'rules' else 'read'}, "
                          f"so {why}", file=file, line=1, hint="fix the error reported for that file first"))
    return names, notes


def run_checks(game: Game, layouts: LayoutSet | None, layout_file: str = "") -> list[Diagnostic]:
    """Run every check family on ``game``; returns all findings.

    The families that read a file which could not be read do not run (one root cause, one
    error): card files and errata.yaml refused whole (``game.unread``), the layout file
    ``layout_file`` when ``layouts`` is None for its errors, a rules source that does not
    render; :data:`NEEDS` says which. One ``checks-skipped`` note per file says which were
    skipped and why, so the file's own error stands alone.
    """
    found: list[Diagnostic] = []
    insane = values.insane_layouts(layouts)
    sane = layouts
    if insane:  # measuring a zero-size card or a 10,000 pt font is pointless (and slow)
        sane = dataclasses.replace(layouts, by_type={t: lay for t, lay in layouts.by_type.items() if t not in insane})
    with common.shared_contexts(), checkresults.kept(game):
        unread = dict(game.unread)
        if layouts is None and layout_file:
            unread[layout_file] = "layouts"
        if not any(kind in ("cards", "errata") for kind in unread.values()):  # else the rules are not judged
            unread.update(unread_rules(game))
        names, notes = skipped(unread)
        found += notes
        for name, check in FAMILIES.items():
            if name in names:
                continue
            found += check(game, layouts if name == "values" else sane)
    return found

def without_echoes(found: list[Diagnostic]) -> list[Diagnostic]:
    """``found`` less each ``field-shape`` error placed where a ``schema`` error already is:
    the card's schema said the field has the wrong shape; a chart or a layout reading it
    would only say it again (one root cause, one error)."""
    schema_at = {(d.file, d.line) for d in found if d.code == SCHEMA}
    return [d for d in found if d.code != FIELD_SHAPE or (d.file, d.line) not in schema_at]
