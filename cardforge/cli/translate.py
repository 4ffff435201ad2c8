"""``cardforge translate``: write or update the gettext catalogs of a pack's languages."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardforge.cli.options import Lang, Root
from cardforge.util.diagnostics import LANGUAGE_UNKNOWN, Diagnostic, diag, display_path, has_errors


def translate(
    game: Annotated[str, typer.Argument(help="Game pack slug.")],
    lang: Lang = None,
    root: Root = Path("."),
) -> None:
    """Write or update cards/<game>/locale/<lang>.po for each language game.yaml lists after its source language.

    Each catalog holds every string the pack prints (card fields, card type and field titles, icon labels, component names, the glossary, the rules lists and tables, the rules sources paragraph by paragraph), each with its file:line as the reference. Translations already written are kept; an entry whose source changed keeps its translation marked fuzzy with the old source as the previous msgid; a string no longer printed becomes obsolete. An unchanged pack gives the same file, byte for byte. Any PO editor (Poedit, Weblate, Lokalize) opens it; `cardforge build --lang LANG` prints it.
    """
    from cardforge.cli import compiled_or_exit, err
    from cardforge.sources.catalogs import language_problems, languages
    from cardforge.translation import update_catalog
    from cardforge.util.report import print_diagnostics

    _, compiled = compiled_or_exit(root, game, layouts=False)
    pack = compiled.game
    listed = languages(pack.data)
    problems = language_problems(pack)
    if len(listed) < 2:
        problems.append(diag(LANGUAGE_UNKNOWN, f"{game} lists no language to translate into",
                             file=pack.source.file, line=1,
                             hint="add `languages: [en, es]` to game.yaml: the source language first, then the others"))
    elif lang is not None and lang not in listed[1:]:
        problems.append(diag(LANGUAGE_UNKNOWN, f"{lang!r} is not among the languages {game} is translated into "
                             f"({', '.join(listed[1:])})", file=pack.source.file, line=pack.source.line("languages"),
                             hint="add it to `languages:` in game.yaml to translate into it"))
    if has_errors(problems):
        print_diagnostics(err, problems)
        raise typer.Exit(1)
    failed = False
    for code in [lang] if lang else listed[1:]:
        path, changed, read_problems, counts = update_catalog(pack, compiled.layouts, code)
        if read_problems:
            print_diagnostics(err, read_problems)
            failed = True
            continue
        err.print(f"{'[green]wrote[/]' if changed else '[dim]unchanged[/]'} {display_path(path)}: "
                  f"{counts['entries']} entries, {counts['translated']} translated, {counts['fuzzy']} fuzzy, "
                  f"{counts['untranslated']} untranslated, {counts['obsolete']} obsolete", highlight=False)
    if failed:
        raise typer.Exit(1)


def language_plan(packs: list[Path], lang: str | None) -> tuple[dict[str | None, list[Path]], list]:
    """Which packs to build or check in which language for ``--lang LANG``: language (None:
    the source, as written) -> packs, the source first; and a ``language-unknown`` error for
    each pack that does not list ``LANG``. ``all``: the source and every translation of each
    pack (a pack listing no languages: its source alone); None: the source of every pack."""
    if lang is None:
        return {None: list(packs)}, []
    from cardforge.util.paths import GAME_FILE

    plan: dict[str | None, list[Path]] = {None: []}
    problems = []
    for pack in packs:
        data, source, listed = None, None, []
        if lang != "all" or _lists_languages(pack / GAME_FILE):  # no `languages:` line: one language, game.yaml unread
            from cardforge.sources.catalogs import languages
            from cardforge.sources.yamlfile import read_yaml

            data, source, _ = read_yaml(pack / GAME_FILE)
            listed = languages(data) if source is not None and isinstance(data, dict) else []
        if lang == "all":
            codes: list[str | None] = [None, *listed[1:]]
        elif listed and lang == listed[0] or not listed and source is None:
            codes = [None]
        elif lang in listed[1:]:
            codes = [lang]
        else:
            problems.append(diag(LANGUAGE_UNKNOWN, f"{pack.name} is not translated into {lang!r}"
                                 + (f" (its languages: {', '.join(listed)})" if listed else " (game.yaml lists no `languages:`)"),
                                 file=display_path(pack / GAME_FILE), line=source.line("languages") if listed else 1,
                                 hint="add the language to `languages:` in game.yaml, then run `cardforge translate`"))
            continue
        for code in codes:
            plan.setdefault(code, []).append(pack)
    return {code: chosen for code, chosen in plan.items() if chosen}, problems


def _lists_languages(path: Path) -> bool:
    """Whether game.yaml ``path`` has a top-level ``languages:`` line (cheap: no YAML parsed)."""
    import re

    try:
        return re.search(rb"^languages\s*:", path.read_bytes(), re.M) is not None
    except OSError:
        return False


def register(app: typer.Typer) -> None:
    app.command("translate")(translate)


def unrepeated(found: list[Diagnostic], source_found: list[Diagnostic]) -> list[Diagnostic]:
    """``found`` (a translation's findings) less each one the source language already reported
    at the same place of a pack file (code, file, line, column): a card that breaks its schema
    in game.yaml's source language breaks it in every translation too, and is one root cause,
    one error (the translated message names the card by its translated name). Findings in the
    catalog itself (``locale/<lang>.po``) are the translation's own and always kept."""
    reported = {(d.code, d.file, d.line, d.column) for d in source_found if d.file}
    return [d for d in found if d.file.endswith(".po") or (d.code, d.file, d.line, d.column) not in reported]
