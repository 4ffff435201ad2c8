"""Icons and SVG art: drawn as vectors, each defined once per PDF as a form XObject.

An SVG is parsed by svglib into a ReportLab drawing (``currentColor`` replaced by the colour
asked for: the icon's ``color`` from game.yaml, or a layout's ``icon_color``), drawn once per
PDF into a form XObject in the SVG's own units, and placed with ``doForm`` wherever it
appears. A PDF therefore holds each distinct (SVG, colour) once however many cards use it,
as paths: no raster image and no soft mask. :func:`rasterise` (PNG via cairosvg) remains for
outputs that need pixels (the rules flow's inline images).
"""
from __future__ import annotations

import hashlib
import io
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from cardforge.cache.registry import ICON_DRAWINGS, ICON_FORMS_KEPT
from cardforge.render.colors import HexColor

from cardforge.model import Icon
from cardforge.util.paths import read_limited
from cardforge.sources.svgfile import MAX_SVG_BYTES, inspect_svg
from cardforge.render import backend, fonts

if TYPE_CHECKING:  # reportlab.graphics is imported when SVG art is first drawn
    from reportlab.pdfgen.canvas import Canvas
    from reportlab.graphics.shapes import Drawing

BADGE = 0.36  # a badge's type size, of the icon's size
MIN_BADGE_PT = 6.0  # never smaller than this on the page

RASTER_PX = 256  # for rasterise(): an icon is printed at most ~12 mm wide, 256 px is > 500 dpi


class IconError(Exception):
    """An icon whose SVG file is missing or cannot be drawn; ``svg`` is its path."""

    def __init__(self, message: str, svg: Path):
        super().__init__(message)
        self.svg = svg


def _svg_text(svg: Path, color: str | None) -> str:
    """The SVG's text (``currentColor`` -> ``color``), after :func:`inspect_svg`; raises :class:`IconError`."""
    problem = inspect_svg(svg)
    if problem:
        raise IconError(f"icon file {svg} {problem[1]}", svg)
    text = read_limited(svg, MAX_SVG_BYTES).decode("utf-8")
    return text.replace("currentColor", color) if color else text


def svg_text(svg: Path, color: str | None) -> str:
    """The text of the SVG file ``svg`` with ``currentColor`` as ``color`` (``#rrggbb``), once
    it passes the checks every icon file passes (size, no external reference). Raises
    :class:`IconError` when it does not."""
    return _svg_text(svg, color)


def drawing(svg: Path, color: str | None = None) -> Drawing:
    """The vector drawing of ``svg`` (``currentColor`` -> ``color``, ``#rrggbb``), in SVG units.

    Cached per process by the SVG's content (an edited file is drawn again in a
    long-running process). Raises :class:`IconError` when the file is missing or not an SVG
    svglib can read.
    """
    return _drawing(_svg_text(svg, color), svg)


@ICON_DRAWINGS.function
def _drawing(text: str, svg: Path) -> Drawing:
    from svglib.svglib import svg2rlg

    try:
        result = svg2rlg(io.BytesIO(text.encode("utf-8")))
    except Exception as exc:  # svglib/lxml raise many parser exception types
        raise IconError(f"icon file {svg} cannot be drawn: {exc}", svg) from None
    if result is None or not result.width or not result.height:
        raise IconError(f"icon file {svg} cannot be drawn: not an SVG with a size or viewBox", svg)
    # renderPDF sets the drawing's default font on the canvas: make it a shipped font, so the
    # PDF names no base-14 font that is not embedded
    result.initialFontName = fonts.pdf_name("sans")
    return result


def rasterise(svg: Path, color: str, px: int = RASTER_PX) -> bytes:
    """PNG bytes of ``svg`` recoloured to ``color`` (``#rrggbb``), ``px`` pixels square.

    Raises :class:`IconError` when the file is missing or not an SVG cairosvg can draw.
    """
    text = _svg_text(svg, color)
    try:
        return _png(text, px)
    except Exception as exc:  # cairosvg raises many parser exception types
        raise IconError(f"icon file {svg} cannot be drawn: {exc}", svg) from None


def png_file(png: bytes, folder: Path) -> Path:
    """A file holding the PNG bytes ``png``, named by their SHA-256: in the ``icon-pngs``
    user cache, the same path in every build and process (so the rules documents' paragraphs
    that name it are parsed and broken into lines once per process, a rebuild's too: see
    :mod:`cardforge.documents.readers`), else, with user caches off or unwritable, in
    ``folder``. Raises ``OSError`` when neither can be written."""
    from cardforge.cache import kept
    from cardforge.cache.registry import ICON_PNGS

    kept_path = kept.put_file(ICON_PNGS, png, ".png")
    if kept_path is not None:
        return kept_path
    path = folder / (hashlib.sha256(png).hexdigest() + ".png")
    path.write_bytes(png)
    return path


@ICON_DRAWINGS.function
def _png(svg_text: str, px: int) -> bytes:
    """PNG bytes of an SVG document, ``px`` pixels square: kept by its content in the
    ``icon-pngs`` user cache, so a process that finds its icons there never imports cairosvg."""
    from cardforge.cache import kept
    from cardforge.cache.registry import ICON_PNGS

    digest = kept.key("icon-png", svg_text, str(px))
    found = kept.get(ICON_PNGS, digest)
    if isinstance(found, bytes):
        return found
    import cairosvg  # slow to import (cairocffi, about 0.25 s): only when pixels must be drawn

    png = cairosvg.svg2png(bytestring=svg_text.encode("utf-8"), output_width=px, output_height=px, unsafe=False)
    kept.put(ICON_PNGS, digest, png)
    return png


class IconStamp:
    """Draws icons and SVG art on one canvas, defining each form XObject on first use."""

    def __init__(self, canvas: Canvas):
        self.canvas = canvas
        self.defined: set[str] = set()
        self.kept: dict = {}  # see replay()
        self.specs: dict[str, tuple] = {}  # form name -> how define() draws it again
        self.icons: dict[str, Icon] = {}  # the game's icons, for define()
        self.sizes: dict[str, tuple[float, float]] = {}  # SVG art form name -> (w, h)

    def form_name(self, icon: Icon, color: str | None = None, badge: float = BADGE) -> str:
        color = color or icon.color
        name = f"icon-{icon.name}-{color.lstrip('#')}"
        if icon.badge and badge != BADGE:
            name += f"-b{round(badge * 100)}"
        if name not in self.defined:
            self._define(name, icon, color, badge)
            self.defined.add(name)
        return name

    def define(self, name: str, spec: tuple) -> None:
        """Define the form ``name`` as another canvas's stamp did (``spec`` from its
        :attr:`specs`), unless this canvas has it already."""
        if name in self.defined:
            return
        if spec[0] == "icon":
            _, icon, color, badge = spec
            self.form_name(self.icons[icon], color, badge)
        else:
            _, svg, color = spec
            self.svg_form(Path(svg), color)

    def _define(self, name: str, icon: Icon, color: str, badge: float = BADGE) -> None:
        self.specs[name] = ("icon", icon.name, color, badge)
        text = _svg_text(icon.svg, color) if icon.svg is not None else ""

        def draw() -> None:
            c = self.canvas
            if icon.svg is not None:
                _draw_unit(c, _drawing(text, icon.svg))
            if icon.badge:
                r = badge * 2 / 3  # the disc behind the badge's figure
                from reportlab.lib.colors import white

                c.setFillColor(white)
                c.setStrokeColor(HexColor(color))
                c.setLineWidth(0.06)
                c.circle(1 - r, r, r, stroke=1, fill=1)
                c.setFillColor(HexColor(color))
                c.setFont(fonts.pdf_name("sans-bold"), badge)
                c.drawCentredString(1 - r, r - badge * 0.35, icon.badge)

        self._form(name, ("icon", text, color, icon.badge or "", repr(badge)), draw)

    def _form(self, name: str, parts: tuple[str, ...], draw: Callable[[], None],
              size: Callable[[], tuple[float, float]] = lambda: (1.0, 1.0)) -> tuple[float, float]:
        """Define the form ``name`` (bounding box (0, 0, w, h) in its own units, ``size()``)
        as ``draw()`` draws it, or write again what it drew before for the same ``parts``
        (see :func:`kept_form`); returns (w, h)."""
        from cardforge.render import pagecache

        c = self.canvas
        digest = _form_digest(c, parts)
        kept = kept_form(digest)
        if kept is not None:
            ops, colors, w, h = kept
            c.beginForm(name, lowerx=0, lowery=0, upperx=w, uppery=h)
            if ops:
                backend.append_operators(c, ops)
            backend.add_resources(c, colors=colors)
            c.endForm()
            return w, h
        w, h = size()
        c.beginForm(name, lowerx=0, lowery=0, upperx=w, uppery=h)
        before = backend.resources(c)
        draw()
        ops, now = backend.pending_operators(c), backend.resources(c)
        if (not now.forms and not backend.has_annotations(c) and now.shadings == before.shadings
                and not backend.uses_graphics_state(ops) and pagecache.replayable_fonts(c, ops)):
            _keep_form(digest, (ops, {k: v for k, v in now.colors.items() if k not in before.colors}, w, h))
        c.endForm()
        return w, h

    def draw(self, icon: Icon, x: float, y: float, size: float, color: str | None = None) -> None:
        """Stamp ``icon`` with its lower-left corner at (x, y) pt, ``size`` pt square.

        A badge (a figure on the icon) is drawn at 0.36 of the icon's size, or larger on a
        small icon so that it never prints under :data:`MIN_BADGE_PT`.
        """
        badge = BADGE
        if icon.badge and size * BADGE < MIN_BADGE_PT:
            badge = min(0.6, round(MIN_BADGE_PT / size + 0.005, 2))
        name = self.form_name(icon, color, badge)
        backend.place_form(self.canvas, name, x, y, size)

    def replay(self, key: tuple, keep: object, x: float, y: float, draw: Callable[[], None]) -> None:
        """Run ``draw()`` with the origin moved to (x, y) pt, or replay what it wrote the first
        time it ran under ``key`` on this canvas.

        ``draw`` must draw the same for the same ``key`` (``keep`` is held so that ids in the
        key stay unique) and leave the graphics state as it found it; the operators are
        replayed with the forms, colours and shadings the page must list. Text set in a
        subsetted font is encoded the same way for the whole document, so it replays as is.
        """
        c = self.canvas
        c.saveState()
        c.translate(x, y)
        kept = self.kept.get(key)
        if kept is None:
            at = backend.mark(c)  # a transform drawn first would be merged into the translation: then nothing is kept
            draw()
            drawn = backend.drawn_since(c, at)
            if drawn is not None:
                self.kept[key] = (keep, *drawn)
        else:
            _, ops, forms, colors, shadings = kept
            if ops:
                backend.append_operators(c, ops)
            backend.add_resources(c, forms, colors, shadings)
        c.restoreState()

    def svg_form(self, svg: Path, color: str | None = None) -> tuple[str, float, float]:
        """(form name, width, height) of SVG art, its form defined on first use (SVG units).
        Raises :class:`IconError` when the file is missing or cannot be drawn."""
        name = "svg-" + hashlib.sha1(f"{svg}|{color}".encode()).hexdigest()[:12]
        if name not in self.defined:
            text = _svg_text(svg, color)
            self.specs[name] = ("svg", str(svg), color)

            def size() -> tuple[float, float]:
                d = _drawing(text, svg)
                return d.width, d.height

            self.sizes[name] = self._form(name, ("svg", text), lambda: _render(_drawing(text, svg), self.canvas), size)
            self.defined.add(name)
        return (name, *self.sizes[name])


_KEPT: dict[str, tuple | None] = ICON_FORMS_KEPT.mapping()  # form digest -> kept form (see kept_form), in this process


def _form_digest(canvas: Canvas, parts: tuple[str, ...]) -> str:
    """The key of a form drawn from ``parts`` on ``canvas``: the parts, the fonts the
    canvas's document was prepared with (their internal names appear in the operators),
    the drawing libraries and cardforge itself (the fingerprint, see :func:`cardforge.cache.kept.key`)."""
    from cardforge.cache import kept

    return kept.key("icon-form", repr(getattr(canvas, "_cardforge_prepared", ())), *parts)


def kept_form(digest: str) -> tuple | None:
    """What a form with key ``digest`` was drawn as, ``(operators, colours, w, h)``, kept in
    this process and in the :data:`~cardforge.cache.registry.ICON_FORMS` user cache, or
    None. Only forms that can be written into another PDF as they are are kept: no images,
    nested forms, shadings, transparency, or fonts but the document's prepared faces (see
    :func:`cardforge.render.pagecache.replayable_fonts`), so a form written from here is the
    same bytes as the form drawn."""
    if digest not in _KEPT:
        from cardforge.cache import kept
        from cardforge.cache.registry import ICON_FORMS

        found = kept.get(ICON_FORMS, digest)
        well_formed = (isinstance(found, tuple) and len(found) == 4 and isinstance(found[0], str)
                       and isinstance(found[1], dict) and all(isinstance(v, (int, float)) for v in found[2:]))
        _KEPT[digest] = found if well_formed else None  # a foreign or damaged entry is a miss
    return _KEPT[digest]


def _keep_form(digest: str, form: tuple) -> None:
    from cardforge.cache import kept
    from cardforge.cache.registry import ICON_FORMS

    _KEPT[digest] = form
    kept.put(ICON_FORMS, digest, form)


def _render(d: Drawing, c: Canvas) -> None:
    """Draw ``d`` with its origin at the canvas's current origin."""
    from reportlab.graphics import renderPDF

    renderPDF.draw(d, c, 0, 0, showBoundary=False)


def _draw_unit(c: Canvas, d: Drawing) -> None:
    """Draw ``d`` into the unit square, keeping its aspect ratio and centring it."""
    k = 1.0 / max(d.width, d.height)
    c.saveState()
    c.translate((1 - d.width * k) / 2, (1 - d.height * k) / 2)
    c.scale(k, k)
    _render(d, c)
    c.restoreState()
