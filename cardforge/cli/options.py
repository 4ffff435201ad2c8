"""The build options of the ``cardforge`` command, declared once.

``build``, ``watch`` and ``serve`` write the same outputs into ``output/<game>/``, so they
take the same options with the same defaults: :func:`with_build_options` adds every
parameter of :data:`PARAMETERS` (``--paper``, ``--orientation``, ``--flip``, ``--gutter``,
``--fit``, ``--duplex-shift``, ``--ink-saver``, ``--cut-guides``, ``--export``, ``--dpi``,
``--shop``, ``--color``, ``--tts-url-base``) to a command and hands it one
:class:`~cardforge.build.BuildOptions` made by :func:`build_options`. A new option is one
parameter here and one field there; every command that writes outputs gets it.
"""
from __future__ import annotations

import enum
import functools
import inspect
import math
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
    one_sided = "one-sided"


class Color(str, enum.Enum):
    rgb = "rgb"
    cmyk = "cmyk"


class Fit(str, enum.Enum):
    cards = "cards"
    marks = "marks"


ShopName = enum.Enum("ShopName", {key.replace("-", "_"): key for key in SHOPS}, type=str)


def _parameter(name: str, annotation, default) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default)


PARAMETERS: tuple[inspect.Parameter, ...] = (
    _parameter("paper", Annotated[Paper, typer.Option(help="Paper size the sheets are imposed on.")], Paper.letter),
    _parameter("orientation", Annotated[Orientation, typer.Option(help="Sheet orientation; auto picks the one holding more cards.")], Orientation.auto),
    _parameter("flip", Annotated[Flip, typer.Option(help="Duplex edge your printer turns the sheet on: backs are mirrored to match.")], Flip.long),
    _parameter("gutter", Annotated[Optional[float], typer.Option(help="Gap between cards in mm (0: butted; bleed shows in up to half of it). Default: chosen per sheet, as wide as the paper allows up to twice the bleed.", min=0, max=20, show_default=False)], None),
    _parameter("fit", Annotated[Fit, typer.Option(help="cards: the most cards a sheet (3 x 3 poker on Letter and A4); marks: full bleed between cards and crop marks clear of it, fewer cards where the paper is tight.")], Fit.cards),
    _parameter("duplex_shift", Annotated[Optional[str], typer.Option("--duplex-shift", help="DX,DY in mm: move every back to correct your printer's offset (measure it with `cardforge registration`).")], None),
    _parameter("ink_saver", Annotated[bool, typer.Option("--ink-saver", help="No full-bleed backgrounds; frames as thin lines.")], False),
    _parameter("cut_guides", Annotated[bool, typer.Option("--cut-guides", help="Thin rounded-corner cut lines on every card.")], False),
    _parameter("export", Annotated[Optional[list[Export]], typer.Option("--export", help="Also write print-shop PNGs (one per face, with bleed), Tabletop Simulator objects, and/or one-sided deck-fronts.pdf + deck-backs.pdf for printers without duplex. Repeatable.")], None),
    _parameter("dpi", Annotated[int, typer.Option(help="Resolution of print-shop PNGs: 300 or 600.", min=72, max=1200)], 300),
    _parameter("shop", Annotated[Optional[ShopName], typer.Option("--shop", help="Also write the cards as this print shop takes them, into output/<game>/shop-<name>/: the-game-crafter (PNG, 825 x 1125 px poker), makeplayingcards and printerstudio (PNG, 822 x 1122 px poker), drivethrucards (one CMYK PDF/X-1a:2003 per deck, back before front, total ink 240 %). Sources in the README.", show_default=False)], None),
    _parameter("color", Annotated[Color, typer.Option("--color", help="cmyk: deck.pdf (and shop PDFs) converted to DeviceCMYK through the shipped ICC profile, total ink capped, PDF/X-1a:2003 output intent; pages become 300 dpi images.")], Color.rgb),
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


def build_options(paper: Paper = Paper.letter, orientation: Orientation = Orientation.auto, flip: Flip = Flip.long,
                  gutter: float | None = None, fit: Fit = Fit.cards, duplex_shift: str | None = None,
                  ink_saver: bool = False, cut_guides: bool = False, export: list[Export] | None = None,
                  dpi: int = 300, shop: ShopName | None = None, color: Color = Color.rgb,
                  tts_url_base: str | None = None):
    """The :class:`~cardforge.build.BuildOptions` of the command-line values (``gutter`` in
    mm; see :data:`PARAMETERS` for each). Raises ``typer.BadParameter`` for a bad shift."""
    from cardforge.build import BuildOptions
    from cardforge.render.deck import DeckOptions

    deck = DeckOptions(paper=paper.value, orientation=orientation.value, flip=flip.value,
                       gutter=None if gutter is None else gutter * MM, fit=fit.value,
                       shift=parse_shift(duplex_shift), ink_saver=ink_saver, cut_guides=cut_guides)
    return BuildOptions(deck=deck, exports=frozenset(e.value for e in export or []), dpi=dpi,
                        shop=shop.value if shop else None, color=color.value, tts_url_base=tts_url_base)


def with_build_options(command):
    """Give ``command`` every build option: its signature gains :data:`PARAMETERS` (after
    its game argument, ``games`` or ``game``) and, called, it receives ``options`` (a
    BuildOptions) instead of them. ``command`` must take a keyword ``options``."""
    own = inspect.signature(command, eval_str=True)
    params = [p for p in own.parameters.values() if p.name != "options"]
    at = next((i + 1 for i, p in enumerate(params) if p.name in ("games", "game")), 0)
    params = params[:at] + list(PARAMETERS) + params[at:]
    params = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in params]

    @functools.wraps(command)
    def wrapper(**kwargs):
        values = {name: kwargs.pop(name) for name in NAMES if name in kwargs}
        return command(**kwargs, options=build_options(**values))

    wrapper.__signature__ = own.replace(parameters=params)
    wrapper.__annotations__ = {p.name: p.annotation for p in params} | {"return": own.return_annotation}
    del wrapper.__wrapped__  # typer reads the signature above, not the command's own
    return wrapper
