"""``cardforge new``: a new game pack that checks clean and builds as it stands.

:func:`new_pack` writes ``cards/<slug>/`` (game.yaml with one card type, a card file with
two example cards, sheet.md, rulebook.md, icons/ with a licence note) and
``layouts/<slug>.yaml`` from the commented templates in this package's ``pack/`` folder,
then the editor schemas (``schemas/`` and ``schemas/<slug>/``, see :mod:`cardforge.validation.export`).
It writes nothing when any file it would write exists or the slug is not a valid folder
name; the refusal is a diagnostic (``pack-exists``, ``slug-invalid``). ``new --from SHEET``
makes the pack from a spreadsheet instead (:mod:`cardforge.scaffold.fromsheet`, with what the
sheet holds worked out in :mod:`cardforge.scaffold.sheetplan`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from jinja2 import Environment, StrictUndefined

from cardforge.util.diagnostics import PACK_EXISTS, SLUG_INVALID, Diagnostic, diag
from cardforge.sources.load import display_path

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
PACK_FILES = ["game.yaml", "cards.yaml", "sheet.md", "rulebook.md", "icons/coin.svg", "icons/LICENSE.md"]
# mm; the presets the layout engine knows (cardforge.layout.SIZE_PRESETS_MM)
_SIZE_ARG = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*[x×,]\s*(\d+(?:\.\d+)?)\s*(mm)?\s*$")


class ScaffoldError(Exception):
    """``cardforge new`` refused; carries the diagnostics saying why."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


@dataclass(frozen=True)
class NewGame:
    """What ``cardforge new`` asks for: players as (min, max), card size as a preset name or
    (width, height) in mm."""

    slug: str
    title: str
    players: tuple[int, int] = (2, 4)
    card_size: str | tuple[float, float] = "poker"


def parse_players(text: str) -> tuple[int, int]:
    """``"2-4"`` -> (2, 4); ``"1"`` -> (1, 1). Raises ValueError."""
    parts = re.split(r"\s*[-–]\s*", text.strip())
    if len(parts) not in (1, 2) or not all(p.isdigit() for p in parts):
        raise ValueError(f"{text!r} is not a player count: write 2-4, or 1 for a solitaire game")
    low, high = int(parts[0]), int(parts[-1])
    if low < 1 or high < low:
        raise ValueError(f"{text!r}: the least players must be 1 or more and not above the most")
    return low, high


def parse_card_size(text: str) -> str | tuple[float, float]:
    """A size preset name (``poker``) or ``WxH`` in mm (``70x120``). Raises ValueError."""
    from cardforge.layout import SIZE_PRESETS_MM

    if text in SIZE_PRESETS_MM:
        return text
    match = _SIZE_ARG.match(text)
    if match:
        w, h = float(match.group(1)), float(match.group(2))
        if 20 <= w <= 400 and 20 <= h <= 400:
            return w, h
    raise ValueError(f"{text!r} is not a card size: name a preset ({', '.join(SIZE_PRESETS_MM)}) "
                     "or give width x height in mm, for example 70x120")


def _size_mm(size: str | tuple[float, float]) -> tuple[float, float]:
    from cardforge.layout import SIZE_PRESETS_MM

    return SIZE_PRESETS_MM[size] if isinstance(size, str) else size


def _mm(*values: float) -> str:
    return "[" + ", ".join(f"{round(v, 1):g}mm" for v in values) + "]"


def _context(new: NewGame) -> dict[str, str | int]:
    w, h = _size_mm(new.card_size)
    m = 4.0  # text keeps 1 mm clear of the 3 mm safe margin
    title_h = min(10.0, h * 0.12)
    cost_w = min(16.0, w * 0.3)
    art_top = m + title_h + 1
    text_h = h * 0.33
    art_h = h - art_top - text_h - m - 2
    return {
        "slug": new.slug, "title": new.title.replace('"', "'"),
        "players_min": new.players[0], "players_max": new.players[1],
        "size": new.card_size if isinstance(new.card_size, str) else f"[{w:g}mm, {h:g}mm]",
        "box_title": _mm(m, m, w - 2 * m - cost_w, title_h),
        "box_cost": _mm(w - m - cost_w, m, cost_w, title_h),
        "box_art": _mm(m, art_top, w - 2 * m, art_h),
        "box_text": _mm(m, h - m - text_h, w - 2 * m, text_h),
        "box_back": _mm(m + 2, h / 2 - 12, w - 2 * m - 4, 24),
        "icon_example": "{coin}",
    }


def _render(name: str, ctx: dict) -> str:
    env = Environment(variable_start_string="[[", variable_end_string="]]", block_start_string="[%",
                      block_end_string="%]", comment_start_string="[#", comment_end_string="#]",
                      undefined=StrictUndefined, keep_trailing_newline=True, autoescape=False)
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return env.from_string(text).render(ctx)


def planned(root: Path, slug: str) -> list[Path]:
    """Every file ``cardforge new SLUG`` writes under project folder ``root``."""
    return [root / "cards" / slug / f for f in PACK_FILES] + [root / "layouts" / f"{slug}.yaml"]


def new_pack(root: Path, new: NewGame) -> list[Path]:
    """Write a new game pack under project folder ``root``; returns the files written.

    Raises :class:`ScaffoldError` (``slug-invalid``, ``pack-exists``) before writing
    anything when the slug is not a lowercase folder name or any file exists.
    """
    if not SLUG.match(new.slug):
        raise ScaffoldError([diag(SLUG_INVALID, f"{new.slug!r} is not a valid game pack name",
                                  hint="use lowercase letters, digits and hyphens, starting with a letter or "
                                       "digit, for example `my-game`")])
    pack = root / "cards" / new.slug
    clashes = [p for p in planned(root, new.slug) if p.exists()]
    if pack.exists():
        clashes.insert(0, pack)
    if clashes:
        raise ScaffoldError([diag(PACK_EXISTS, f"{display_path(p)} already exists; nothing was written",
                                  file=display_path(p), hint="choose another name, or remove the old pack first")
                             for p in clashes[:1]])
    ctx = _context(new)
    written = []
    for name in PACK_FILES:
        target = pack / name
        target.parent.mkdir(parents=True, exist_ok=True)
        source = f"pack/{name}"
        if name.endswith(".svg"):
            target.write_bytes(resources.files(__package__).joinpath(source).read_bytes())
        else:
            target.write_text(_render(source, ctx), encoding="utf-8")
        written.append(target)
    layout = root / "layouts" / f"{new.slug}.yaml"
    layout.parent.mkdir(parents=True, exist_ok=True)
    layout.write_text(_render("layout.yaml", ctx), encoding="utf-8")
    written.append(layout)
    return written
