"""Fitting marked-up text with inline icons into a fixed box, without drawing it.

:func:`fit` measures: it wraps the text greedily and steps the type size down from the
layout's size to its minimum (in 0.25 pt steps) until the text fits its box; the result
(:class:`Block`: lines, type size, height and width in pt, overflow) says whether it fits
and by how much it overflows at the minimum size. The checks' text-fit family and the
renderer (:func:`cardforge.render.text.draw`) use the same :func:`fit`, so what is reported
is what is printed. All lengths are in points.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from cardforge.cache.registry import TEXT_FITS
from cardforge.sandbox import results as checkresults
from cardforge.model import fontmetrics
from cardforge.elements.specs import TextStyle
from cardforge.util.markup import Run, parse
from cardforge.model import Icon
from cardforge.model.typefaces import styled

STEP = 0.25  # pt, the type-size step when shrinking to fit
ASCENT = 0.76  # of the type size: DejaVu's cap height plus a little, for the first baseline
DESCENT = 0.24
ICON_DROP = 0.2  # share of an inline icon below the baseline


@dataclass
class Piece:
    kind: str  # "text" or "icon"
    value: str
    face: str
    width: float
    icon: Icon | None = None
    scale: float = 1.0  # of the block's type size (a <small> or <big> span)


@dataclass
class Line:
    pieces: list[Piece] = field(default_factory=list)
    width: float = 0.0

    def extents(self, size: float, icon_scale: float) -> tuple[float, float]:
        """(above, below) the baseline in pt: type ascent/descent, or an inline icon's."""
        big = max((p.scale for p in self.pieces), default=1.0)
        above, below = size * ASCENT * big, size * DESCENT * big
        icons = [p.scale for p in self.pieces if p.kind == "icon"]
        if icons:
            icon_h = size * icon_scale * max(icons)
            above, below = max(above, icon_h * (1 - ICON_DROP)), max(below, icon_h * ICON_DROP)
        return above, below


def baselines(lines: list[Line], size: float, style: "TextStyle") -> tuple[list[float], float]:
    """Offsets (pt, downwards from the block's top) of each line's baseline, and the block height.

    Lines are ``style.leading`` apart, or further where inline icons would otherwise touch.
    """
    offsets, y, prev_below = [], 0.0, 0.0
    for i, line in enumerate(lines):
        above, below = line.extents(size, style.icon_scale)
        if i == 0:
            y = above
        else:
            y += max(size * style.leading, prev_below + above + size * 0.12)
        offsets.append(y)
        prev_below = below
    return offsets, (y + prev_below if lines else 0.0)


@dataclass
class Block:
    """Text set at ``size`` pt: its lines, total ``height`` (pt), and how it fits."""

    lines: list[Line]
    size: float
    height: float
    width: float
    fits: bool
    overflow_h: float = 0.0  # pt of height beyond the box at the final size
    overflow_w: float = 0.0  # pt of the widest unbreakable word beyond the box width
    unknown_icons: tuple[str, ...] = ()

    @property
    def smallest(self) -> float:
        """The smallest type size printed (pt): ``size``, or less inside a <small> span."""
        scales = [p.scale for line in self.lines for p in line.pieces if p.kind == "text" and p.value.strip()]
        return self.size * min(scales, default=1.0)


@dataclass
class Figures(Block):
    """A fit known from an earlier check (:mod:`cardforge.sandbox.results`): its figures, with no
    lines; the checks read it, the renderer never draws it."""

    least: float = 0.0  # pt, the smallest type size printed

    @property
    def smallest(self) -> float:
        return self.least


def _words(runs: list[Run]) -> list[list[Run] | None]:
    """Runs regrouped into words (lists of runs with no space between); None is a hard break."""
    words: list[list[Run] | None] = []
    current: list[Run] = []
    for run in runs:
        if run.kind == "break":
            if current:
                words.append(current)
                current = []
            words.append(None)
        elif run.kind == "icon":
            current.append(run)
        else:
            parts = run.value.split(" ")
            for i, part in enumerate(parts):
                if i > 0 and current:
                    words.append(current)
                    current = []
                if part:
                    current.append(Run("text", part, run.bold, run.italic, run.offset, run.scale))
    if current:
        words.append(current)
    return words


def _pieces(word: list[Run], style: TextStyle, size: float, icons: dict[str, Icon], unknown: set[str]) -> list[Piece]:
    pieces = []
    for run in word:
        k = run.scale
        if run.kind == "icon":
            icon = icons.get(run.value)
            if icon is None:
                unknown.add(run.value)
                text = "{" + run.value + "}"
                face = styled(style.font, run.bold, run.italic)
                pieces.append(Piece("text", text, face, fontmetrics.width(text, face, size * k), scale=k))
            elif icon.text is not None:
                face = styled(style.font, True, False)
                pieces.append(Piece("text", icon.text, face, fontmetrics.width(icon.text, face, size * k), icon, k))
            else:
                pieces.append(Piece("icon", icon.name, "", size * k * style.icon_scale * 1.05, icon, k))
        else:
            face = styled(style.font, run.bold, run.italic)
            pieces.append(Piece("text", run.value, face, fontmetrics.width(run.value, face, size * k), scale=k))
    return pieces


_ALNUM = re.compile(r"[^\W_]")  # a letter or digit: what str.isalnum accepts


def _symbolic(word: list[Run]) -> bool:
    """A word of icons, operators and punctuation only ("{roll}", "<", "{speed}.", "=")."""
    return all(run.kind == "icon" or not _ALNUM.search(run.value) for run in word)


def _glue(words) -> list[bool]:
    """For each word, whether it binds to the word before it (never starts a line after it).

    A symbolic word binds to its left neighbour, so "{roll} < {speed}" and "{speed}." stay
    with the words they belong to and no line holds only icons and punctuation.
    """
    glue = []
    for i, word in enumerate(words):
        prev = words[i - 1] if i else None
        glue.append(word is not None and prev is not None and _symbolic(word))
    return glue


def _measure(words, style: TextStyle, size: float, icons, unknown) -> list[tuple[list[Piece], float] | None]:
    out = []
    for word in words:
        if word is None:
            out.append(None)
        else:
            pieces = _pieces(word, style, size, icons, unknown)
            out.append((pieces, sum(p.width for p in pieces)))
    return out


def _break(measured, glue: list[bool], space: float, box_w: float) -> list[list[int]]:
    """Greedy line breaking over measured words: lists of word indices, one per line.

    A word that does not fit starts a new line; if it is glued to the words before it, the
    glued chain moves down with it when the chain fits a line on its own.
    """
    lines: list[list[int]] = [[]]
    width = 0.0
    for i, item in enumerate(measured):
        if item is None:
            lines.append([])
            width = 0.0
            continue
        w = item[1]
        line = lines[-1]
        if line and width + space + w > box_w:
            k, nxt = len(line), i
            while k > 0 and glue[nxt]:  # the words the new one is glued to move down with it
                k -= 1
                nxt = line[k]
            chain = line[k:] if glue[i] else []
            chain_w = sum(measured[j][1] for j in chain) + space * len(chain) + w
            if chain and k > 0 and chain_w <= box_w:
                del line[k:]
                lines.append(chain + [i])
                width = chain_w
            else:
                lines.append([i])
                width = w
            continue
        width += (space if line else 0.0) + w
        line.append(i)
    return lines


def _lines(indices: list[list[int]], measured, style: TextStyle, size: float) -> list[Line]:
    space = fontmetrics.width(" ", style.font, size)
    lines = []
    for idx in indices:
        line = Line()
        for i in idx:
            if line.pieces:
                line.pieces.append(Piece("text", " ", style.font, space))
                line.width += space
            line.pieces.extend(measured[i][0])
            line.width += measured[i][1]
        lines.append(line)
    return lines


RUNT = 0.25  # a last line narrower than this share of the box (or of one word) is a runt


def _runt(line: list[int], measured, space: float, box_w: float) -> bool:
    width = sum(measured[i][1] for i in line) + space * max(0, len(line) - 1)
    return len(line) == 1 or width < RUNT * box_w


def _unrunt(indices: list[list[int]], measured, glue, space: float, box_w: float) -> list[list[int]]:
    """Rewrap each paragraph whose last line is a runt (one word, or very short) at a
    narrower measure, when that keeps its number of lines and cures the runt."""
    out: list[list[int]] = []
    paragraph: list[list[int]] = []

    def flush():
        if len(paragraph) >= 2 and _runt(paragraph[-1], measured, space, box_w):
            words = [i for ln in paragraph for i in ln]
            sub = [measured[i] for i in words]
            sub_glue = [glue[i] and n > 0 for n, i in enumerate(words)]
            width = box_w
            while width > box_w * 0.6:
                width -= box_w * 0.02
                trial = _break(sub, sub_glue, space, width)
                if len(trial) > len(paragraph):
                    break
                if not _runt(trial[-1], sub, space, box_w):
                    out.extend([[words[j] for j in ln] for ln in trial])
                    paragraph.clear()
                    return
        out.extend(paragraph)
        paragraph.clear()

    for n, line in enumerate(indices):
        if n > 0 and _hard_break_before(line, indices[n - 1], measured):
            flush()
        paragraph.append(line)
    flush()
    return out


def _hard_break_before(line: list[int], previous: list[int], measured) -> bool:
    """Whether a hard line break (a None word) lies between ``previous`` and ``line``."""
    if not line or not previous:
        return True
    return any(measured[j] is None for j in range(previous[-1] + 1, line[0]))


def _wrap(words, style: TextStyle, size: float, box_w: float, icons, unknown) -> tuple[list[Line], float, Callable]:
    """``words`` broken greedily into lines at ``size`` pt for a ``box_w`` pt measure: the
    lines, the widest word (pt), and a function giving the same lines rewrapped so that no
    paragraph ends on a runt (the same number of lines; the words measured once for both)."""
    space = fontmetrics.width(" ", style.font, size)
    measured = _measure(words, style, size, icons, unknown)
    glue = _glue(words)
    indices = _break(measured, glue, space, box_w)
    widest = max((m[1] for m in measured if m is not None), default=0.0)

    lines = _lines(indices, measured, style, size)

    def unrunted() -> list[Line]:
        rewrapped = _unrunt(indices, measured, glue, space, box_w)  # nothing cured: the lines above, as trimmed
        return lines if rewrapped == indices else _lines(rewrapped, measured, style, size)

    return lines, widest, unrunted


def fit(text: str, style: TextStyle, box_w: float, box_h: float, icons: dict[str, Icon]) -> Block:
    """Set ``text`` (card markup) in a ``box_w`` x ``box_h`` pt box, shrinking to fit.

    Tries ``style.size`` down to ``style.min_size``; returns the first size that fits, or
    the minimum size with ``fits=False`` and the overflow in pt. The result is shared:
    the same text, style, box and icons give the same :class:`Block` object for the rest
    of the process (the checks, the deck and a rebuild in ``cardforge watch`` fit each
    text once); it must not be modified.
    """
    key = (text, style, box_w, box_h, checkresults.icons_key(icons))
    block = _FITS.get(key)
    if block is None:
        known = checkresults.known_fit(*key)  # inside a check: the figures of an earlier success
        if known is not None:
            size, height, width, smallest = known
            return Figures([], size, height, width, True, least=smallest)
        block = _FITS[key] = _fit(text, style, box_w, box_h, icons)
    checkresults.learnt_fit(*key, block)  # inside a check: kept for the next one if a success
    return block


_FITS: dict[tuple, "Block"] = TEXT_FITS.mapping()  # the least recently used dropped past its limit
def _fit(text: str, style: TextStyle, box_w: float, box_h: float, icons: dict[str, Icon]) -> Block:
    words = _words(parse(text))
    unknown: set[str] = set()
    size = style.size
    while True:
        lines, widest, unrunted = _wrap(words, style, size, box_w, icons, unknown)
        lines = _trim_empty_edges(lines)
        _, height = baselines(lines, size, style)
        width = max((ln.width for ln in lines), default=0.0)
        fits = height <= box_h + 0.01 and widest <= box_w + 0.01
        if fits or size - STEP < style.min_size - 1e-9:
            if fits:  # the same size, rewrapped so no paragraph ends on a runt (same line count)
                lines = _trim_empty_edges(unrunted())
            return Block(lines, size, height, width, fits, max(0.0, height - box_h), max(0.0, widest - box_w),
                         tuple(sorted(unknown)))
        size = round(size - STEP, 4)


def _trim_empty_edges(lines: list[Line]) -> list[Line]:
    while lines and not lines[-1].pieces:
        lines.pop()
    while lines and not lines[0].pieces:
        lines.pop(0)
    return lines
