"""The pipeline: load -> validate -> check -> render -> write, for one game pack.

Read everything, then write: :func:`compile_game` loads, validates and checks the whole
game before anything is drawn; :func:`build_game` renders each output to a temporary file
beside its destination and moves it into place only when every output of the game has
been rendered, so a failed build leaves the previous output intact.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from cardforge.checks import run_checks
from cardforge.diagnostics import Diagnostic, diag, has_errors
from cardforge.errata import accept_findings, apply_errata
from cardforge.layout import LayoutSet, load_layouts
from cardforge.load import display_path, find_packs, load_game
from cardforge.model import Game
from cardforge.render.deck import DeckOptions, copies, render_deck
from cardforge.render.icons import IconError
from cardforge.render.sheet import ImpositionError
from cardforge.validate import validate_cards


@dataclass
class Project:
    """Where a project's game packs, layouts and output live (default: the working directory)."""

    root: Path = field(default_factory=Path.cwd)

    @property
    def cards(self) -> Path:
        return self.root / "cards"

    @property
    def layouts(self) -> Path:
        return self.root / "layouts"

    @property
    def output(self) -> Path:
        return self.root / "output"

    def packs(self, slugs: list[str] | None = None) -> tuple[list[Path], list[Diagnostic]]:
        """The pack folders named by ``slugs`` (all packs when empty), and a diagnostic per unknown slug."""
        found = find_packs(self.cards)
        if not slugs:
            if not found:
                return [], [diag("pack-missing", f"no game packs (folders with game.yaml) in {display_path(self.cards)}",
                                 file=display_path(self.cards))]
            return found, []
        by_slug = {p.name: p for p in found}
        packs, problems = [], []
        for slug in slugs:
            if slug in by_slug:
                packs.append(by_slug[slug])
            else:
                from cardforge.suggest import did_you_mean

                problems.append(diag("pack-missing", f"no game pack named {slug!r} in {display_path(self.cards)}",
                                     hint=did_you_mean(slug, by_slug) or f"game packs: {', '.join(by_slug) or 'none'}"))
        return packs, problems


@dataclass
class Compiled:
    """A game after the front end: the model, its layouts and every diagnostic found."""

    game: Game | None
    layouts: LayoutSet | None
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return self.game is not None and self.layouts is not None and not has_errors(self.diagnostics)


def compile_game(pack: Path, project: Project) -> Compiled:
    """Load, correct (errata), validate and check the game pack in ``pack``; never writes anything.

    The returned game is the corrected one: what is checked is what is printed.
    """
    printed, problems = load_game(pack)
    if printed is None:
        return Compiled(None, None, problems)
    game, errata_problems = apply_errata(printed)
    problems += errata_problems
    problems += validate_cards(game)
    layouts, layout_problems = load_layouts(game, project.layouts)
    problems += layout_problems
    problems += run_checks(game, layouts)
    unique = list(dict.fromkeys(problems))  # a layout shared by several types reports its problem once
    return Compiled(game, layouts, accept_findings(game, unique))


@dataclass
class BuildResult:
    slug: str
    written: list[Path]
    diagnostics: list[Diagnostic]

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


@dataclass(frozen=True)
class BuildOptions:
    """What to build: the home-print ``deck`` options, ``exports`` ("print-shop", "tts")
    and the print-shop resolution ``dpi``."""

    deck: DeckOptions = DeckOptions()
    exports: frozenset[str] = frozenset()
    dpi: int = 300


Writer = Callable[[Compiled, Path, BuildOptions, Callable[[int], None] | None], object]


class RenderError(Exception):
    """An output that cannot be written; carries its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def _deck(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    return render_deck(compiled.game, compiled.layouts, staging / "deck.pdf", options.deck, progress=progress)


def _rules_sheet(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    from cardforge.rules.sheet import compile_sheet
    from cardforge.rules.source import source_path

    if not source_path(compiled.game, "sheet").is_file():  # no sheet.md: nothing to write
        return compile_sheet(compiled.game)[1]
    _, problems = compile_sheet(compiled.game, staging / "rules.pdf", options.deck.paper)
    if has_errors(problems):
        raise RenderError(problems)
    return problems


def _rulebook(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    from cardforge.rules.rulebook import render_rulebook
    from cardforge.rules.source import source_path

    if not source_path(compiled.game, "rulebook").is_file():
        return []
    with _table_errors(compiled.game, "rulebook"):
        render_rulebook(compiled.game, staging / "rulebook.pdf", options.deck.paper)
    return []


@contextmanager
def _table_errors(game, kind: str):
    """A rules table too wide for its page becomes ``rules-table-too-wide`` on its source line."""
    from cardforge.rules.source import table_source_line
    from cardforge.rules.tables import TableTooWide

    try:
        yield
    except TableTooWide as exc:
        file, line = table_source_line(game, kind, exc.name)
        if kind == "reference" or line == 1 and exc.name in (game.data.get("tables") or {}):
            file, line = game.source.file, game.source.line("tables", exc.name)
        raise RenderError([diag("rules-table-too-wide", str(exc), file=file, line=line)]) from exc


def _print_shop(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    from cardforge.export.printshop import export_print_shop

    return export_print_shop(compiled.game, compiled.layouts, staging / "print-shop", options.dpi)


def _tts(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    from cardforge.export.tts import export_tts

    return export_tts(compiled.game, compiled.layouts, staging / "tts", final=staging.parent / "tts")


def _reference(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    from cardforge.rules.reference import render_reference

    with _table_errors(compiled.game, "reference"):
        render_reference(compiled.game, staging / "reference.pdf", options.deck.paper)
    return []


def artefacts(options: BuildOptions) -> list[tuple[str, Writer]]:
    """The outputs a build writes, in order: (name, writer)."""
    chosen: list[tuple[str, Writer]] = [("deck.pdf", _deck), ("rules.pdf", _rules_sheet), ("rulebook.pdf", _rulebook),
                                         ("reference.pdf", _reference)]
    if "print-shop" in options.exports:
        chosen.append(("print-shop", _print_shop))
    if "tts" in options.exports:
        chosen.append(("tts", _tts))
    return chosen


def build_game(compiled: Compiled, project: Project, options: BuildOptions = BuildOptions(), force: bool = False,
               progress: Callable[[int, int], None] | None = None) -> BuildResult:
    """Render and write ``output/<slug>/`` for a compiled game.

    Refuses (writes nothing) when the game has errors, unless ``force`` is set and a model
    and layouts exist, in which case a ``build-forced`` warning is added. Every output is
    rendered into a staging folder first and moved into place only when all succeeded.
    ``progress`` is called with (cards drawn, cards in all).
    """
    game, layouts = compiled.game, compiled.layouts
    slug = game.slug if game else "?"
    problems = list(compiled.diagnostics)
    if game is None or layouts is None:
        return BuildResult(slug, [], problems)
    if has_errors(problems):
        if not force:
            return BuildResult(slug, [], problems)
        problems.append(diag("build-forced", f"{slug}: built despite errors because of --force; check the output"))
    target = project.output / slug
    target.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".build-", dir=target))
    total = len(copies(game))
    try:
        for _, writer in artefacts(options):
            notes = writer(compiled, staging, options, (lambda n: progress(n, total)) if progress else None)
            if isinstance(notes, list):
                problems += [d for d in notes if isinstance(d, Diagnostic)]
    except RenderError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        return BuildResult(slug, [], [d for d in problems if d.code != "build-forced"] + exc.diagnostics)
    except (ImpositionError, IconError, OSError) as exc:
        shutil.rmtree(staging, ignore_errors=True)
        code = "write-failed" if isinstance(exc, OSError) else ("icon-file" if isinstance(exc, IconError) else "layout-invalid")
        where = {}
        if isinstance(exc, IconError):  # place it on the icon's line in game.yaml
            name = next((n for n, icon in game.icons.items() if icon.svg == exc.svg), None)
            if name:
                where = dict(file=game.source.file, line=game.source.line("icons", name, "svg"))
        problems.append(diag(code, f"{slug}: {exc}", **where))
        return BuildResult(slug, [], [d for d in problems if d.code != "build-forced"])
    written = []
    for produced in sorted(staging.iterdir()):
        destination = target / produced.name
        if destination.is_dir():
            shutil.rmtree(destination)
        os.replace(produced, destination)
        written.append(destination)
    shutil.rmtree(staging, ignore_errors=True)
    return BuildResult(slug, written, problems)
