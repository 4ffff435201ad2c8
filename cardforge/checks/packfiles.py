"""Pack files: every file in a game pack is one cardforge reads, or is named by one it reads.

Code: ``file-unread`` (warning, on the file). cardforge reads game.yaml, errata.yaml, card
files (``*.yaml``, ``*.csv``), sheet.md, rulebook.md and the catalog ``locale/<lang>.po`` of
each language game.yaml lists after the first; a file is also in use when
game.yaml, a card file or the layout file names it (icons, images, an imported spreadsheet).
Notes for people (``*.md`` such as ERRATA.md or an icon LICENSE.md, ``*.txt``) and hidden
files are never reported. A path written as a template (``art/art_{{ card.icon }}.svg`` in the
layout) names every file it can match: its literal parts must match, each ``{{ ... }}`` may
stand for any text. Anything else (a spreadsheet saved as .xls, a card file spelt
``.yml``, a stray image) would otherwise be silently ignored.
"""
from __future__ import annotations

import re
from pathlib import Path

from cardforge.util.paths import InputFileError, read_limited
from cardforge.util.diagnostics import FILE_UNREAD, Diagnostic, diag
from cardforge.layout import LayoutSet
from cardforge.sources.load import display_path
from cardforge.model import Game
from cardforge.sources.catalogs import catalog_path, languages

READ = {"game.yaml", "errata.yaml", "sheet.md", "rulebook.md"}
NOTES = {".md", ".txt"}
HINTS = {".yml": "cardforge reads card files ending in .yaml: rename it",
         ".xls": "save it as .xlsx or CSV, then `cardforge import` it (or keep the CSV in the pack)",
         ".xlsx": "import it with `cardforge import`, or save it as CSV in the pack",
         ".json": "import it with `cardforge import`"}


# a match starts where a run of path characters starts (the lookbehind): tried from every
# character of a long run instead, it took time growing with the square of the run's length
_TEMPLATED = re.compile(r"(?<![\w./-])[\w./-]*(?:\{\{[^{}]*\}\}[\w./-]*)+")
_PLACE = re.compile(r"\{\{[^{}]*\}\}")


def templated_paths(texts: str) -> list[re.Pattern]:
    """The paths written as templates in ``texts`` (``art/art_{{ card.icon }}.svg``), each as a
    pattern a pack-relative path matches: literal parts as written, a placeholder any text. A
    template with no literal folder or file ending (``{{ card.art }}``) names nothing by itself."""
    found = {}
    for match in _TEMPLATED.finditer(texts):
        literal = _PLACE.sub("", match.group(0))
        if "/" not in literal and not re.search(r"\.\w+$", literal):
            continue
        pattern = ".+".join(re.escape(part) for part in _PLACE.split(match.group(0)))
        found[pattern] = re.compile(rf"(?:^|/){pattern}$")
    return list(found.values())


def _texts(game: Game) -> str:
    parts = []
    for path in [game.root / "game.yaml", *(game.root.glob("*.yaml")), *(game.root.glob("*.csv")),
                 game.root.parent.parent / "layouts" / f"{game.slug}.yaml"]:
        try:
            parts.append(read_limited(path).decode("utf-8", "replace"))
        except (OSError, InputFileError):  # the loader reports it; a FIFO is never opened
            continue
    return "\n".join(parts)


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    texts = None
    patterns: list[re.Pattern] | None = None  # worked out for the first file no text names as written
    found = []
    catalogs = {catalog_path(Path("."), lang).as_posix() for lang in languages(game.data)[1:]}  # locale/<lang>.po
    for path in sorted(game.root.rglob("*")):
        rel = path.relative_to(game.root)
        if not path.is_file() or any(part.startswith(".") for part in rel.parts):
            continue
        if rel.parent == Path(".") and (rel.name in READ or path.suffix in (".yaml", ".csv")):
            continue
        if path.suffix.lower() in NOTES or rel.as_posix() in catalogs:
            continue
        if texts is None:
            texts = _texts(game)
        if rel.as_posix() in texts or path.name in texts:
            continue
        if patterns is None:
            patterns = templated_paths(texts)
        if any(p.search(rel.as_posix()) for p in patterns):
            continue
        found.append(diag(FILE_UNREAD, f"cardforge does not read {rel.as_posix()}, and no file of the pack names it",
                          file=display_path(path),
                          hint=HINTS.get(path.suffix.lower(), "remove it, or name it in game.yaml (an icon's `svg:`) or the layout")
                          if path.suffix.lower() != ".po" else f"add {path.stem!r} to `languages:` in game.yaml to print it"))
    return found
