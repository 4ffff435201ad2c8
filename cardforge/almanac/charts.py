"""Composition charts of the card almanac (``reference.charts`` in game.yaml).

A chart is a stacked bar chart of card counts (by quantity): ``x`` field on the axis (in the
order of ``order`` when given), bars stacked by the ``stack`` field, or by the keys of the
mapping at ``value`` (summing its numbers). Each series has its own colour from
:data:`PALETTE`, whose greys (luminance) are at least 10 % apart, so the bars stay apart
when printed in black and white; an icon's colour is used for its series only when all the
series' icon colours are that far apart too. A chart with more series than the palette
has colours is a ``chart-too-many-series`` diagnostic (and prints without its extra
series' colours repeating: the build refuses it). Legend, title and axis titles sit inside
the drawing, which sits inside the page margins.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from cardforge.model import Game
from cardforge.render import fonts
from cardforge.util.units import MM
from cardforge.util.i18n import gettext

# dark to light: navy, red, green, orange, light blue, yellow; grey levels (ITU-R BT.709
# luma of the sRGB values) 0.11, 0.24, 0.40, 0.55, 0.66, 0.83
PALETTE = ["#101a5c", "#b71c1c", "#2e7d32", "#f57c00", "#64b5f6", "#fdd835"]
MIN_GREY_STEP = 0.10

if TYPE_CHECKING:  # ReportLab's graphics are imported to draw a chart: the checks need only series()
    from reportlab.graphics.shapes import Drawing


def luminance(hex_colour: str) -> float:
    """The grey level (0 black .. 1 white) a colour prints as in black and white."""
    from reportlab.lib import colors

    c = colors.HexColor(hex_colour)
    return 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue


def _scalar(value) -> bool:
    return isinstance(value, (str, int, float)) or value is None


def misshapen(card, spec: dict) -> tuple[str, str] | None:
    """(field, what it should be) when ``card`` holds a value of the wrong shape in a field
    the chart ``spec`` reads (``x``, ``stack``, ``value``), else None."""
    data = card.data
    for key in ("x", "stack"):
        if isinstance(spec.get(key), str) and not _scalar(data.get(spec[key])):
            return spec[key], "one value (a word or a number)"
    if isinstance(spec.get("value"), str):
        mapping, parts = data, spec["value"].split(".")
        for n, part in enumerate(parts):
            mapping = mapping.get(part) if isinstance(mapping, dict) else None
            if mapping is not None and not isinstance(mapping, dict):
                return ".".join(parts[:n + 1]), "a mapping" + (" of names to numbers" if n == len(parts) - 1 else "")
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in (mapping or {}).values()):
            return spec["value"], "a mapping of names to numbers"
    return None


def series(game: Game, spec: dict) -> tuple[list, list, dict]:
    """(x values in order, series names, {(x, series): count}) of a chart spec.

    A card holding a value of the wrong shape where the chart reads (:func:`misshapen`) is
    left out: the charts check reports it."""
    default = spec.get("x_default", "none")
    xs: list = []
    stacks: list = []
    counts: dict = {}
    for card in game.cards_of(spec["type"]):
        if misshapen(card, spec):
            continue
        x = card.data.get(spec["x"], default)
        if spec.get("value"):
            mapping = card.data
            for part in spec["value"].split("."):
                mapping = (mapping or {}).get(part, {})
            pairs = [(k, v * card.quantity) for k, v in (mapping or {}).items()]
        else:
            pairs = [(card.data.get(spec.get("stack"), "all") if spec.get("stack") else "all", card.quantity)]
        for stack, amount in pairs:
            if x not in xs:
                xs.append(x)
            if stack not in stacks:
                stacks.append(stack)
            counts[(x, stack)] = counts.get((x, stack), 0) + amount
    order = spec.get("order")
    order = order if isinstance(order, list) else []
    xs.sort(key=lambda v: (order.index(v) if v in order else len(order),) + (
        (0, v) if isinstance(v, (int, float)) else (1, str(v))))
    return xs, stacks, counts


def series_colours(game: Game, stacks: list) -> list[str]:
    """One colour per series: the icons' colours when they stay apart in grey, else the palette."""
    icon_colours = []
    for stack in stacks:
        icon = game.icons.get(str(stack))
        icon_colours.append(icon.color if icon is not None and icon.color else None)
    if all(icon_colours) and len(set(icon_colours)) == len(icon_colours):
        greys = sorted(luminance(c) for c in icon_colours)
        if all(b - a >= MIN_GREY_STEP for a, b in zip(greys, greys[1:])) and greys[-1] < 0.93:
            return icon_colours
    return [PALETTE[i % len(PALETTE)] for i in range(len(stacks))]


def label(value) -> str:
    """A data value as a chart label: "city-guard" -> "City guard"; a number as written ("-3")."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    text = str(value).replace("-", " ").replace("_", " ")
    return text[:1].upper() + text[1:]


def chart(game: Game, spec: dict, width: float) -> Drawing:
    """The chart of ``spec`` as a drawing ``width`` pt wide (62 mm high)."""
    xs, stacks, counts = series(game, spec)
    return bars(xs, stacks, counts, series_colours(game, stacks), width, spec.get("title", ""),
                spec.get("x_label", label(spec["x"])), spec.get("y_label", gettext("cards")))


def composition(result, width: float) -> Drawing:
    """The make-up of an odds entry's stack (:class:`cardforge.almanac.odds.Odds`): a bar
    per card type, the cards of interest stacked under the others, ``width`` pt wide."""
    xs = [t for t, _, _ in result.stack]
    names = [result.cards, gettext("other cards")]
    counts = {}
    for t, hits, others in result.stack:
        counts[(t, names[0])], counts[(t, names[1])] = hits, others
    return bars(xs, names, counts, [PALETTE[0], PALETTE[4]], width,
                gettext("{stack}: {size} cards").format(stack=result.stack_name[:1].upper() + result.stack_name[1:], size=result.size),
                gettext("card type"), gettext("cards"),
                labels=str)


def bars(xs: list, stacks: list, counts: dict, palette: list[str], width: float, title: str, x_label: str,
         y_label: str, labels=label) -> Drawing:
    """A stacked bar chart ``width`` pt wide (62 mm high): a bar per value of ``xs``, a
    series per value of ``stacks`` in its colour of ``palette``, ``counts[(x, stack)]``
    high; ``labels`` prints a value."""
    from reportlab.graphics.charts.barcharts import VerticalBarChart
    from reportlab.graphics.charts.legends import Legend
    from reportlab.graphics.shapes import Drawing, Group, String
    from reportlab.lib import colors
    from reportlab.pdfbase.pdfmetrics import stringWidth

    height = 62 * MM
    sans, bold = fonts.pdf_name("sans"), fonts.pdf_name("sans-bold")
    d = Drawing(width, height)
    d.initialFontName = sans  # the renderer's starting font: no base-14 font in the PDF
    legend_w = 0.0
    show_legend = len(stacks) > 1 or stacks != ["all"]
    if show_legend:
        legend_w = max(stringWidth(labels(s), sans, 7) for s in stacks) + 18
    bc = VerticalBarChart()
    bc.x, bc.y = 14 * MM, 12 * MM
    bc.width = width - bc.x - (legend_w + 8 * MM if show_legend else 4 * MM)
    bc.height = height - 22 * MM
    bc.data = [[counts.get((x, s), 0) for x in xs] for s in stacks]
    bc.categoryAxis.style = "stacked"
    bc.categoryAxis.categoryNames = [labels(x) for x in xs]
    for axis in (bc.categoryAxis, bc.valueAxis):
        axis.labels.fontName, axis.labels.fontSize = sans, 7
    bc.valueAxis.valueMin = 0
    bc.barWidth = 6
    for i in range(len(stacks)):
        bc.bars[i].fillColor = colors.HexColor(palette[i])
        bc.bars[i].strokeColor = colors.white
        bc.bars[i].strokeWidth = 0.8
    d.add(bc)
    d.add(String(bc.x, height - 6 * MM, title, fontName=bold, fontSize=9))
    d.add(String(bc.x + bc.width / 2, 2 * MM, x_label, fontName=sans, fontSize=7, textAnchor="middle"))
    y_title = String(0, 0, y_label, fontName=sans, fontSize=7, textAnchor="middle")
    rotated = Group(y_title)
    rotated.transform = (0, 1, -1, 0, 4 * MM, bc.y + bc.height / 2)
    d.add(rotated)
    if show_legend:
        legend = Legend()
        legend.x, legend.y = width - legend_w, height - 14 * MM
        legend.fontName, legend.fontSize = sans, 7
        legend.alignment = "right"
        legend.columnMaximum = 12
        legend.colorNamePairs = [(colors.HexColor(palette[i]), labels(s)) for i, s in enumerate(stacks)]
        d.add(legend)
    return d
