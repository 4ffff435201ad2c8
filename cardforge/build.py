"""The pipeline's stages for one game pack: load -> validate -> check, then render.

Read everything, then write: :func:`compile_game` loads, validates and checks the whole
game before anything is drawn; :func:`render_artefact` draws one output (:func:`artefacts`
names them) into a staging folder. :func:`cardforge.incremental.build_games` is the one
build that runs them (for ``build``, ``watch`` and ``serve``): it puts a game's staging
folder in place in one step only when every output has been rendered, so a failed build
leaves the previous output intact (:mod:`cardforge.staging`).
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from typing import TYPE_CHECKING

from cardforge.util.diagnostics import (ICON_FILE, IMAGE_MISSING, LAYOUT_INVALID, PACK_MISSING, RULES_TABLE_TOO_WIDE,
                                        TEMPLATE_BUDGET, TEMPLATE_INVALID, WRITE_FAILED, Diagnostic, diag,
                                        Severity, display_path, has_errors)
from cardforge.util.i18n import speaking
from cardforge.render.deck import DeckOptions

if TYPE_CHECKING:  # the stages are imported when first used: a build served from the cache needs none
    from cardforge.layout import LayoutSet
    from cardforge.model import Game


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
        from cardforge.util.paths import find_packs

        found = find_packs(self.cards)
        if not slugs:
            if not found:
                return [], [diag(PACK_MISSING, f"no game packs (folders with game.yaml) in {display_path(self.cards)}",
                                 file=display_path(self.cards))]
            return found, []
        by_slug = {p.name: p for p in found}
        packs, problems = [], []
        for slug in slugs:
            if slug in by_slug:
                packs.append(by_slug[slug])
            else:
                from cardforge.util.suggest import did_you_mean

                problems.append(diag(PACK_MISSING, f"no game pack named {slug!r} in {display_path(self.cards)}",
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


def compile_game(pack: Path, project: Project, lang: str | None = None) -> Compiled:
    """Load, correct (errata), validate and check the game pack in ``pack``; never writes anything.

    The returned game is the corrected one: what is checked is what is printed (in ``lang``: see ``in_language``)."""
    from cardforge.sandbox.budget import budget_session

    from cardforge.cache import kept

    with budget_session():  # thousands of templates are evaluated: their time limit's handler is installed once
        result = _compile(pack, project, lang)
    kept.VALID.save()
    return result


def _compile(pack: Path, project: Project, lang: str | None = None) -> Compiled:
    from cardforge.checks import run_checks, without_echoes
    from cardforge.checks.translations import translation_findings
    from cardforge.sources.errata import accept_findings, apply_errata
    from cardforge.layout import load_layouts
    from cardforge.sources.load import load_game
    from cardforge.sources.catalogs import in_language
    from cardforge.validation.cards import validate_cards

    printed, problems = load_game(pack)
    if printed is None:
        return Compiled(None, None, problems)
    source, errata_problems = apply_errata(printed)
    problems += errata_problems
    game, applied, language_problems = in_language(source, lang)
    problems += language_problems + validate_cards(game)
    layouts, layout_problems = load_layouts(game, project.layouts)
    problems += layout_problems
    with speaking(game):
        problems = without_echoes(problems + run_checks(game, layouts, layout_problems[0].file if layout_problems else ""))
    problems = translation_findings(problems, source, game, applied)
    unique = list(dict.fromkeys(problems))  # a layout shared by several types reports its problem once
    return Compiled(game, layouts, accept_findings(game, unique))


@dataclass
class BuildResult:
    """What building one game did: the ``written`` paths of its outputs (all current on
    success, none on failure), its diagnostics, which outputs were ``rendered`` and which
    ``reused`` from the cache, and whether the game ``loaded`` far enough to be forced."""

    slug: str
    written: list[Path]
    diagnostics: list[Diagnostic]
    rendered: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)
    loaded: bool = True

    @property
    def ok(self) -> bool:
        return not has_errors(self.diagnostics)


@dataclass(frozen=True)
class BuildOptions:
    """What to build: the home-print ``deck`` options, ``exports`` ("print-shop", "tts", "ttpg", "one-sided")
    and the print-shop resolution ``dpi``."""

    deck: DeckOptions = DeckOptions()
    exports: frozenset[str] = frozenset()
    dpi: int = 300
    shops: tuple[str, ...] = ()  # keys of cardforge.export.shops.SHOPS, each written into shop-<key>/
    color: str = "rgb"  # "cmyk": deck.pdf and shop PDFs in CMYK, PDF/X-1a:2003
    tts_url_base: str | None = None  # where Tabletop Simulator images will be uploaded
    draft: bool = False  # missing art is a warning and prints as a labelled placeholder


# what a pack may set under ``build:`` in game.yaml (docs/game-yaml.md), each used unless the
# command line gives it: how the deck prints, not which outputs are written
PACK_SETTINGS = ("paper", "orientation", "flip", "gutter", "fit", "ink_saver", "cut_guides", "dpi", "color", "draft",
                 "version_mark")


@dataclass(frozen=True)
class BuildSettings:
    """The build options given on the command line (``given``: name -> value, the
    command's words: ``paper="a4"``, ``gutter`` in mm, ``duplex_shift="0.5,-0.2"``,
    ``export=("tts",)``...); every other option comes from the pack's ``build:`` in
    game.yaml (:data:`PACK_SETTINGS`), else its default. :meth:`resolve` makes the
    :class:`BuildOptions` of one pack; ``build``, ``watch`` and ``serve`` resolve alike."""

    given: tuple[tuple[str, object], ...] = ()

    @classmethod
    def of(cls, **given: object) -> BuildSettings:
        """Settings from the options given (None: not given)."""
        return cls(tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in given.items()
                                if v is not None and v is not False)))

    def resolve(self, pack: dict | None = None) -> BuildOptions:
        """The options of a pack whose game.yaml says ``build: pack`` (None: no such key).
        Raises ``ValueError`` for a value the command line could not have given (the game
        schema reports a pack's own bad values first)."""
        values: dict[str, object] = {k: v for k, v in (pack or {}).items() if k in PACK_SETTINGS}
        values.update(self.given)
        return options_from(**values)


def drafted(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``diagnostics`` as a draft build reports them: missing art (``image-missing``) is a
    warning, its placeholder printed in its place; everything else unchanged."""
    return [replace(d, severity=Severity.WARNING, message=d.message + " (draft: a placeholder prints in its place)")
            if d.code == IMAGE_MISSING and d.severity is Severity.ERROR else d for d in diagnostics]


def options_from(paper: str = "letter", orientation: str = "auto", flip: str = "long", gutter: float | None = None,
                 fit: str = "cards", duplex_shift: str | tuple | None = None, ink_saver: bool = False,
                 cut_guides: bool = False, export: tuple[str, ...] = (), dpi: int = 300, shop: str | tuple[str, ...] | None = None,
                 color: str = "rgb", tts_url_base: str | None = None, draft: bool = False,
                 version_mark: str = "") -> BuildOptions:
    """:class:`BuildOptions` from plain values as the command line and game.yaml write them:
    ``gutter`` in mm, ``duplex_shift`` as ``"DX,DY"`` in mm (or a pair), ``shop`` one print
    shop's key or several (each written once, in the order first given)."""
    from cardforge.util.units import MM

    if isinstance(duplex_shift, str):
        dx, dy = (float(v) for v in duplex_shift.split(","))
    else:
        dx, dy = duplex_shift or (0.0, 0.0)
    deck = DeckOptions(paper=paper, orientation=orientation, flip=flip, gutter=None if gutter is None else gutter * MM,
                       fit=fit, shift=(dx * MM, dy * MM), ink_saver=ink_saver, cut_guides=cut_guides,
                       version_mark=version_mark or "")
    return BuildOptions(deck=deck, exports=frozenset(export), dpi=dpi, color=color,
                        shops=tuple(dict.fromkeys((shop,) if isinstance(shop, str) else shop or ())),
                        tts_url_base=tts_url_base, draft=draft)


Writer = Callable[[Compiled, Path, BuildOptions, Callable[[int], None] | None], object]


class RenderError(Exception):
    """An output that cannot be written; carries its diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def _deck(compiled: Compiled, staging: Path, options: BuildOptions, progress, page_store=None, jobs: int = 1) -> object:
    from cardforge.render.deck import render_deck, sheet_notes

    render_deck(compiled.game, compiled.layouts, staging / "deck.pdf", options.deck, progress=progress, page_store=page_store,
                jobs=jobs)
    if options.color == "cmyk":
        from cardforge.export.cmyk import to_pdfx

        to_pdfx(staging / "deck.pdf", staging / "deck.pdf", title=f"{compiled.game.title}: deck")
    return sheet_notes(compiled.game, compiled.layouts, options.deck)


def _shop(compiled: Compiled, staging: Path, options: BuildOptions, progress, key: str = "") -> object:
    from cardforge.export.shops import SHOPS, export_shop, safe_area_notes

    shop = SHOPS[key]
    export_shop(compiled.game, compiled.layouts, staging / f"shop-{shop.key}", shop,
                color="cmyk" if options.color == "cmyk" else None)
    return safe_area_notes(compiled.game, compiled.layouts, shop)


def _one_sided(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    from cardforge.render.deck import render_deck

    folder = staging / "one-sided"
    folder.mkdir()
    for sides in ("fronts", "backs"):
        render_deck(compiled.game, compiled.layouts, folder / f"deck-{sides}.pdf", replace(options.deck, sides=sides))
    return []


def _rules_sheet(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    from cardforge.documents.sheet import compile_sheet
    from cardforge.documents.source import source_path

    if not source_path(compiled.game, "sheet").is_file():  # no sheet.md: nothing to write
        return compile_sheet(compiled.game)[1]
    _, problems = compile_sheet(compiled.game, staging / "rules.pdf", options.deck.paper, reuse=True)
    if has_errors(problems):
        raise RenderError(problems)
    return problems


def _rulebook(compiled: Compiled, staging: Path, options: BuildOptions, progress, memo=None) -> object:
    from cardforge.documents.rulebook import render_rulebook
    from cardforge.documents.source import source_path

    if not source_path(compiled.game, "rulebook").is_file():
        return []
    with _table_errors(compiled.game, "rulebook"):
        render_rulebook(compiled.game, staging / "rulebook.pdf", options.deck.paper, memo=memo, layouts=compiled.layouts)
    return []


def _rulebook_html(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    from cardforge.documents.source import source_path
    from cardforge.documents.webbook import render_rulebook_html

    if not source_path(compiled.game, "rulebook").is_file():
        return []
    render_rulebook_html(compiled.game, compiled.layouts, staging / "rulebook.html")
    return []


@contextmanager
def _table_errors(game, kind: str):
    """A rules table too wide for its page becomes ``rules-table-too-wide`` on its source line."""
    from cardforge.documents.source import table_source_line
    from cardforge.documents.tables import TableTooWide

    try:
        yield
    except TableTooWide as exc:
        file, line = table_source_line(game, kind, exc.name)
        if kind == "reference" or line == 1 and exc.name in (game.data.get("tables") or {}):
            file, line = game.source.file, game.source.line("tables", exc.name)
        raise RenderError([diag(RULES_TABLE_TOO_WIDE, str(exc), file=file, line=line)]) from exc


def _print_shop(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    from cardforge.export.printshop import export_print_shop

    return export_print_shop(compiled.game, compiled.layouts, staging / "print-shop", options.dpi)


def _tabletop(compiled: Compiled, staging: Path, options: BuildOptions, progress, names=()) -> object:
    """The Tabletop exports ``names`` (``tts``, ``ttpg``), both from one drawing of the cards."""
    from cardforge.export.ttpg import export_tabletop

    return export_tabletop(compiled.game, compiled.layouts, staging, tuple(names), url_base=options.tts_url_base)


def _reference(compiled: Compiled, staging: Path, options: BuildOptions, progress) -> object:
    from cardforge.documents.reference import render_reference

    with _table_errors(compiled.game, "reference"):
        render_reference(compiled.game, staging / "reference.pdf", options.deck.paper)
    return []


TABLETOP = ("tts", "ttpg")  # drawn once for both when a build writes both: one task, "tts+ttpg" (see tasks)


def tasks(names: list[str]) -> list[str]:
    """The outputs ``names`` as render tasks for :func:`render_artefact`: one each, but the
    two Tabletop exports as one task ``tts+ttpg`` when both are among them."""
    if not all(name in names for name in TABLETOP):
        return list(names)
    return ["+".join(TABLETOP) if name == TABLETOP[0] else name for name in names if name not in TABLETOP[1:]]


def artefacts(options: BuildOptions) -> list[tuple[str, Writer]]:
    """The outputs a build writes, in order: (name, writer)."""
    chosen: list[tuple[str, Writer]] = [("deck.pdf", _deck), ("rules.pdf", _rules_sheet), ("rulebook.pdf", _rulebook),
                                         ("rulebook.html", _rulebook_html), ("reference.pdf", _reference)]
    if "print-shop" in options.exports:
        chosen.append(("print-shop", _print_shop))
    chosen += [(name, functools.partial(_tabletop, names=(name,))) for name in TABLETOP if name in options.exports]
    chosen += [(f"shop-{key}", functools.partial(_shop, key=key)) for key in options.shops]
    if "one-sided" in options.exports:
        chosen.append(("one-sided", _one_sided))
    return chosen


def failure(exc: Exception, game: Game) -> Diagnostic:
    """The diagnostic of an output that could not be drawn or written (placed on the icon's
    line in game.yaml for a broken icon)."""
    from cardforge.sandbox.budget import BudgetExceeded
    from cardforge.render.icons import IconError
    from cardforge.sandbox import TemplateFailure

    code = (WRITE_FAILED if isinstance(exc, OSError) else ICON_FILE if isinstance(exc, IconError)
            else TEMPLATE_INVALID if isinstance(exc, TemplateFailure)
            else TEMPLATE_BUDGET if isinstance(exc, BudgetExceeded) else LAYOUT_INVALID)
    where = {}
    if isinstance(exc, IconError):
        name = next((n for n, icon in game.icons.items() if icon.svg == exc.svg), None)
        if name:
            where = dict(file=game.source.file, line=game.source.line("icons", name, "svg"))
    return diag(code, f"{game.slug}: {exc}", **where)


def render_artefact(compiled: Compiled, name: str, staging: Path, options: BuildOptions,
                    progress: Callable[[int], None] | None = None, *, page_store=None, jobs: int = 1,
                    memo=None) -> list[Diagnostic]:
    """Render the output ``name`` (see :func:`artefacts`; or a task of :func:`tasks` naming
    several) of a compiled game into the folder ``staging``; returns the notes its writer
    reported. For ``deck.pdf``, ``page_store`` is the page cache
    (:class:`cardforge.render.pagecache.PageStore`) and ``jobs`` the processes that may draw
    its sheets; for rulebook.pdf, ``memo`` is what its last build learnt
    (:class:`cardforge.documents.memo.Memo`). The files are the same either way.

    Raises :class:`RenderError` carrying located diagnostics when it cannot be drawn or written.
    """
    from cardforge.sandbox.budget import BudgetExceeded
    from cardforge.render.icons import IconError
    from cardforge.render.sheet import ImpositionError
    from cardforge.sandbox import TemplateFailure

    writer = dict(artefacts(options))[name] if "+" not in name else functools.partial(_tabletop, names=name.split("+"))
    if writer is _deck and (page_store is not None or jobs > 1):
        from functools import partial

        writer = partial(_deck, page_store=page_store, jobs=jobs)
    elif memo is not None and writer is _rulebook:
        from functools import partial

        writer = partial(writer, memo=memo)
    try:
        with speaking(compiled.game):  # cardforge's fixed words in the game's language
            notes = writer(compiled, staging, options, progress)
    except (ImpositionError, IconError, OSError, TemplateFailure, BudgetExceeded) as exc:
        raise RenderError([failure(exc, compiled.game)]) from exc
    return [d for d in notes if isinstance(d, Diagnostic)] if isinstance(notes, list) else []
