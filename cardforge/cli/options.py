"""The build options of the ``cardforge`` command, declared once.

``build``, ``watch`` and ``serve`` write the same outputs into ``output/<game>/``, so they
take the same options with the same defaults: :func:`with_build_options` adds every
parameter of :data:`PARAMETERS` (``--paper``, ``--orientation``, ``--flip``, ``--gutter``,
``--fit``, ``--duplex-shift``, ``--ink-saver``, ``--cut-guides``, ``--draft``, ``--export``,
``--dpi``, ``--shop``, ``--color``, ``--tts-url-base``) to a command and hands it the
:class:`~cardforge.build.BuildSettings` given; an option not given comes from the pack's
``build:`` in game.yaml (:data:`cardforge.build.PACK_SETTINGS`), else its default. A new
option is one parameter here and one field of :class:`~cardforge.build.BuildOptions`.

Every other option that more than one command takes is declared here too, once: the games
argument, ``--root``, ``--jobs``, ``--no-cache``, and the ``--paper`` and ``--flip`` that
``registration`` shares with the build.
"""
from __future__ import annotations

import enum
import functools
import inspect
import math
from pathlib import Path
from typing import Annotated, Optional

import typer

from cardforge.util.units import MM

SHOPS = ("the-game-crafter", "makeplayingcards", "drivethrucards", "printerstudio")  # cardforge.export.shops.SHOPS


class Paper(str, enum.Enum):
    letter = "letter"
    a4 = "a4"


class Flip(str, enum.Enum):
    long = "long"
    short = "short"


class Orientation(str, enum.Enum):
    auto = "auto"
    portrait = "portrait"
    landscape = "landscape"


class Export(str, enum.Enum):
    print_shop = "print-shop"
    tts = "tts"
    ttpg = "ttpg"
    one_sided = "one-sided"


class Color(str, enum.Enum):
    rgb = "rgb"
    cmyk = "cmyk"


class Fit(str, enum.Enum):
    cards = "cards"
    marks = "marks"


ShopName = enum.Enum("ShopName", {key.replace("-", "_"): key for key in SHOPS}, type=str)


Games = Annotated[Optional[list[str]], typer.Argument(help="Game pack slugs (folders of cards/); all packs when omitted.", show_default=False)]
Lang = Annotated[Optional[str], typer.Option("--lang", metavar="LANG", help="A language of the game's game.yaml `languages:` (docs/translations.md). build: print the game in LANG (its catalog locale/LANG.po applied, cardforge's own words in LANG) into output/<game>/LANG/; check: the findings of LANG's catalog, at its lines (default for check: every language); translate: that catalog only. `all`: the source language and every translation.", show_default=False)]
Root = Annotated[Path, typer.Option("--root", help="Project folder holding cards/, layouts/ and output/.", file_okay=False)]
Jobs = Annotated[Optional[int], typer.Option("--jobs", "-j", help="Processes building games and outputs in parallel (default: one per core; 1: no pool).", min=1, show_default=False)]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Work every game out afresh: do not read or write output/.cache (CARDFORGE_NO_USER_CACHE=1 also turns off the user caches of pure results: parsed files, measured text, type sizes, card pictures, contents pages; see `cardforge cache info`).")]
PACK = " Default: the pack's `build: {{{key}: ...}}` in game.yaml (registration: no pack), else {default}."  # see cardforge.build.PACK_SETTINGS
PaperOption = Annotated[Optional[Paper], typer.Option(help="Paper size the sheets are imposed on." + PACK.format(key="paper", default="letter"), show_default=False)]
FlipOption = Annotated[Optional[Flip], typer.Option(help="Duplex edge your printer turns the sheet on: backs are mirrored to match." + PACK.format(key="flip", default="long"), show_default=False)]


def _parameter(name: str, annotation, default) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


PARAMETERS: tuple[inspect.Parameter, ...] = (
    _parameter("paper", PaperOption, None),
    _parameter("orientation", Annotated[Optional[Orientation], typer.Option(help="Sheet orientation; auto picks the one holding more cards." + PACK.format(key="orientation", default="auto"), show_default=False)], None),
    _parameter("flip", FlipOption, None),
    _parameter("gutter", Annotated[Optional[float], typer.Option(help="Gap between cards in mm (0: butted; bleed shows in up to half of it)." + PACK.format(key="gutter", default="chosen per sheet, as wide as the paper allows up to twice the bleed"), min=0, max=20, show_default=False)], None),
    _parameter("fit", Annotated[Optional[Fit], typer.Option(help="cards: the most cards a sheet (3 x 3 poker on Letter and A4); marks: full bleed between cards and crop marks clear of it, fewer cards where the paper is tight." + PACK.format(key="fit", default="cards"), show_default=False)], None),
    _parameter("duplex_shift", Annotated[Optional[str], typer.Option("--duplex-shift", help="DX,DY in mm: move every back to correct your printer's offset (measure it with `cardforge registration`).")], None),
    _parameter("ink_saver", Annotated[bool, typer.Option("--ink-saver", help="No full-bleed backgrounds; frames as thin lines (also `build: {ink_saver: true}` in game.yaml).")], False),
    _parameter("cut_guides", Annotated[bool, typer.Option("--cut-guides", help="Thin rounded-corner cut lines on every card (also `build: {cut_guides: true}`).")], False),
    _parameter("draft", Annotated[bool, typer.Option("--draft", help="Draft: art that is missing is a warning and prints as a labelled placeholder, so the rest of the deck can be tried (also `build: {draft: true}`); a build without it still refuses.")], False),
    _parameter("version_mark", Annotated[Optional[str], typer.Option("--version-mark", metavar="TEXT", help="Print TEXT (a revision such as $(git rev-parse --short HEAD), a date, 'v3') small and grey in a free corner of every card front's safe area, to tell two printings apart (also `build: {version_mark: ...}`).", show_default=False)], None),
    _parameter("export", Annotated[Optional[list[Export]], typer.Option("--export", help="Also write print-shop PNGs (one per face, with bleed), Tabletop Simulator objects, Tabletop Playground card templates (ttpg), and/or one-sided deck-fronts.pdf + deck-backs.pdf for printers without duplex. Repeatable.")], None),
    _parameter("dpi", Annotated[Optional[int], typer.Option(help="Resolution of print-shop PNGs: 300 or 600." + PACK.format(key="dpi", default="300"), min=72, max=1200, show_default=False)], None),
    _parameter("shop", Annotated[Optional[list[ShopName]], typer.Option("--shop", help="Also write the cards as this print shop takes them, into output/<game>/shop-<name>/ (repeatable, one folder each): the-game-crafter (PNG, 825 x 1125 px poker), makeplayingcards and printerstudio (PNG, 822 x 1122 px poker), drivethrucards (one CMYK PDF/X-1a:2003 per deck, back before front, total ink 240 %). Sources in docs/print-production.md.", show_default=False)], None),
    _parameter("color", Annotated[Optional[Color], typer.Option("--color", help="cmyk: deck.pdf (and shop PDFs) converted to DeviceCMYK through the shipped ICC profile, total ink capped, PDF/X-1a:2003 output intent; text and icons stay vectors, each colour converted once (a page with transparency becomes a 300 dpi image)." + PACK.format(key="color", default="rgb"), show_default=False)], None),
    _parameter("tts_url_base", Annotated[Optional[str], typer.Option("--tts-url-base", help="Address (URL) where you will upload the Tabletop Simulator images; the saved objects point there. Default: file names relative to the saved object.", show_default=False)], None),
)
NAMES = tuple(p.name for p in PARAMETERS)


def parse_shift(value: str | None) -> tuple[float, float]:
    """``"DX,DY"`` in mm as (dx, dy) in pt; ``(0, 0)`` for none. Raises ``typer.BadParameter``
    for anything but two finite numbers of at most 20 mm."""
    if not value:
        return (0.0, 0.0)
    try:
        dx, dy = (float(v) for v in value.split(","))
    except ValueError:
        raise typer.BadParameter("write the shift as DX,DY in mm, for example 0.8,-0.5") from None
    if not all(math.isfinite(v) and abs(v) <= 20 for v in (dx, dy)):
        raise typer.BadParameter(f"{value!r}: each of DX,DY is a number of mm between -20 and 20")
    return dx * MM, dy * MM


def build_settings(**values):
    """The :class:`~cardforge.build.BuildSettings` of the command-line values: only the
    options given (an enum as its word). Raises ``typer.BadParameter`` for a bad shift."""
    from cardforge.build import BuildSettings

    parse_shift(values.get("duplex_shift"))  # refused here, with the option named
    mark = values.get("version_mark")
    if mark is not None and (len(mark) > 40 or not all(" " <= ch <= "~" for ch in mark)):
        raise typer.BadParameter(f"{mark!r}: a version mark is up to 40 printable ASCII characters "
                                 "(letters, digits, punctuation, spaces)", param_hint="--version-mark")
    plain = {k: (v.value if isinstance(v, enum.Enum) else [e.value for e in v] if isinstance(v, list) else v)
             for k, v in values.items()}
    return BuildSettings.of(**plain)


def with_build_options(command):
    """Give ``command`` every build option: its signature gains :data:`PARAMETERS` (after
    its game argument, ``games`` or ``game``) and, called, it receives ``options`` (the
    :class:`~cardforge.build.BuildSettings` given, which each pack resolves with its own
    ``build:`` defaults) instead of them. ``command`` must take a keyword ``options``."""
    own = inspect.signature(command, eval_str=True)
    params = [p for p in own.parameters.values() if p.name != "options"]
    at = next((i + 1 for i, p in enumerate(params) if p.name in ("games", "game")), 0)
    params = params[:at] + list(PARAMETERS) + params[at:]
    params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in params]

    @functools.wraps(command)
    def wrapper(**kwargs):
        values = {name: kwargs.pop(name) for name in NAMES if name in kwargs}
        return command(**kwargs, options=build_settings(**values))

    wrapper.__signature__ = own.replace(parameters=params)
    wrapper.__annotations__ = {p.name: p.annotation for p in params} | {"return": own.return_annotation}
    del wrapper.__wrapped__  # typer reads the signature above, not the command's own
    return wrapper
