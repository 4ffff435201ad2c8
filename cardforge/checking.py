"""The incremental, parallel check of several games in their languages: what ``cardforge
check`` runs.

A game whose inputs are unchanged reports the diagnostics kept by the last build or check
(:func:`checks_entry`, under :func:`checks_key`); every other game is compiled and its diagnostics
kept. The games to compile, a translation's as well as the source's, are compiled at once by
a pool of processes when there are several (one process per core, forked or spawned as a
build's pool is: :func:`cardforge.workers.pool`): after an edit, a game and its translation
are checked side by side. The diagnostics do not depend on how many processes ran them.
"""
from __future__ import annotations

from pathlib import Path

from cardforge.build import Compiled, Project, compile_game
from cardforge.cache import Store, artefact_key, inputs_unchanged, load_digests, pack_inputs, save_digests
from cardforge.cache.registry import ARTEFACTS, DIGESTS
from cardforge import workers
from cardforge.util.diagnostics import Diagnostic, Severity

Kept = tuple  # what a diagnostics entry holds: (diagnostics, loaded, cards, the game's build: settings)


def checks_entry(lang: str | None = None) -> str:
    """The artefact store's entry holding a game's diagnostics: ``checks``, ``checks-<lang>``
    for a translation's."""
    return "checks" if lang is None else f"checks-{lang}"


def checks_kept(compiled: Compiled) -> tuple:
    """What a game's diagnostics entry (:func:`checks_entry`) keeps: (its diagnostics, whether
    its game and layouts loaded, its card count, its game.yaml ``build:`` settings)."""
    game = compiled.game
    return (list(compiled.diagnostics), game is not None and compiled.layouts is not None,
            game.total() if game else 0, game.data.get("build") if game else None)


def checks_key(inputs: str, project: Project, lang: str | None = None) -> str:
    """The key a game's diagnostics are kept under (in :func:`checks_entry`): its inputs
    (:func:`cardforge.cache.pack_inputs`, its catalogs included), not the build options,
    which change no diagnostic a check reports. ``build`` and ``check`` share the entry."""
    return artefact_key(inputs, checks_entry(lang), "", project.output)


def check_games(project: Project, packs: list[Path], *, use_cache: bool = True, lang: str | None = None,
                jobs: int = 1) -> list[Diagnostic]:
    """The diagnostics of every game of ``packs`` (what ``cardforge check`` prints), in order.

    ``use_cache``: False compiles every game and neither reads nor writes the cache.
    ``lang``: a translation of the packs: the findings about its catalog (at the catalog's
    lines) and the errors that would stop it printing, kept in a cache entry of their own.
    ``jobs``: processes compiling the games not in the cache (see :func:`check_languages`).
    """
    return check_languages(project, {lang: packs}, use_cache=use_cache, jobs=jobs)[lang]


def check_languages(project: Project, plan: dict[str | None, list[Path]], *, use_cache: bool = True,
                    jobs: int = 1) -> dict[str | None, list[Diagnostic]]:
    """``{language: diagnostics}`` for ``plan`` (language, None for the source -> its packs,
    as :func:`cardforge.cli.translate.language_plan` gives it): each as :func:`check_games`
    reports it, every game not in the cache compiled by a pool of ``jobs`` processes when
    there are two or more (the largest packs first), else in this process."""
    store = Store(project.output) if use_cache and ARTEFACTS.enabled else None
    if store and DIGESTS.enabled:
        load_digests(DIGESTS.folder(project.output))
    found: dict[tuple[str | None, Path], list[Diagnostic]] = {}
    missing: list[tuple[str | None, Path, str | None, str | None]] = []  # (lang, pack, key, inputs)
    for lang, packs in plan.items():
        name = checks_entry(lang)
        for pack in packs:
            key = inputs = None
            if store:
                try:
                    inputs = pack_inputs(pack, project.layouts)
                    key = checks_key(inputs, project, lang)
                except OSError:  # unreadable input: the loader reports it
                    key = None
                entry = store.get(pack.name, name, key) if key else None
                if entry is not None:
                    found[(lang, pack)] = entry.notes[0]
                    store.touch(pack.name, name, key)
                    continue
            missing.append((lang, pack, key, inputs))
    for (lang, pack, key, inputs), kept in zip(missing, _compiled(project, [(p, lang) for lang, p, _, _ in missing], jobs)):
        found[(lang, pack)] = kept[0]
        if store and key and inputs_unchanged(pack, project.layouts, inputs):
            store.put(pack.name, checks_entry(lang), key, None, kept)
    if store and DIGESTS.enabled:
        save_digests(DIGESTS.folder(project.output))
    return {lang: [d for pack in packs for d in found[(lang, pack)]] for lang, packs in plan.items()}


def _compiled(project: Project, items: list[tuple[Path, str | None]], jobs: int) -> list[Kept]:
    """What :func:`_check` keeps for each (pack, language) of ``items``, in order: in a pool
    of up to ``jobs`` processes for two items or more, else in this process."""
    if jobs <= 1 or len(items) < 2:
        return [_check(pack, project, lang) for pack, lang in items]
    order = workers.largest_first(list(range(len(items))), lambda i: items[i][0])
    with workers.pool(min(jobs, len(items)), None, lambda slug: 0) as pool:
        pool.ready_to_compile()
        futures = {i: pool.submit(_check, items[i][0], project, items[i][1]) for i in order}
        return [futures[i].result() for i in range(len(items))]


def _check(pack: Path, project: Project, lang: str | None) -> Kept:
    """Compile ``pack`` (in ``lang``) and return what its diagnostics entry keeps
    (:func:`checks_kept`); a translation keeps its own findings only."""
    found, *rest = checks_kept(compile_game(pack, project, lang))
    if lang is not None:  # the source's findings are the source's to report
        found = [d for d in found if d.file.endswith(".po") or d.severity is Severity.ERROR
                 or d.code.startswith("translation-")]
    return (found, *rest)
