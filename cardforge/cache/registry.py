"""Every on-disk cache of cardforge, declared once: where it lives, what it is keyed by,
how large it may grow, how it is pruned and what it buys.

Two roots hold them. **Project** caches live in the project's output folder
(``output/.cache/`` and ``output/.serve-cache/``) and hold what a build of that project
made; ``--no-cache`` neither reads nor writes them. **User** caches live in
``$XDG_CACHE_HOME/cardforge/`` (``~/.cache/cardforge/``) and hold pure results shared by
every project (a parsed YAML file, a schema verdict, a font's glyph widths...), only
successes, so a problem is always reported by the code that finds it;
``CARDFORGE_NO_USER_CACHE=1`` turns them all off. Every key holds :func:`cardforge.cache.version.fingerprint`, so no entry outlives
the code or libraries that made it. A cache is only ever a shortcut: deleting any of them
(``cardforge cache clear``) changes no output, only how soon it comes.

A new cache is one :class:`Cache` added to :data:`CACHES` here and used through its
:meth:`Cache.folder`; ``tests/test_cache_registry.py`` fails on a folder that no entry
declares.
"""
from __future__ import annotations

import gc
import os
from dataclasses import dataclass
from pathlib import Path

from cardforge.cache import memo
from cardforge.cache.files import remove
from cardforge.cache.memo import Memo, turned_off

PROJECT_FOLDER = ".cache"  # in the output folder
NO_USER_CACHE = "CARDFORGE_NO_USER_CACHE"


@dataclass(frozen=True)
class Cache:
    """One on-disk cache.

    ``name``: what ``cardforge cache info`` calls it; ``scope``: ``"project"`` (below the
    output folder) or ``"user"`` (below :func:`user_root`); ``path``: its folder (or file)
    relative to that root, ``{game}`` standing for a game's slug; ``key``: what an entry is
    keyed by; ``limit``: how many entries it keeps and how it ages them out; ``buys``: what
    it saves, as measured by ``tools/bench.py``.
    """

    name: str
    scope: str
    path: str
    key: str
    limit: str
    buys: str

    def folder(self, root: Path | None = None, game: str = "") -> Path:
        """The cache's folder (or file): below ``root`` (the output folder) for a project
        cache, below :func:`user_root` for a user cache; ``game`` fills ``{game}``."""
        base = user_root() if self.scope == "user" else root
        if base is None:
            raise ValueError(f"the {self.name} cache is a project cache: give the output folder")
        return base / self.path.format(game=game)

    @property
    def enabled(self) -> bool:
        """False for a user cache while user caches are off (:func:`user_enabled`), and for
        any cache named in ``CARDFORGE_CACHE_OFF`` (how ``tools/bench.py`` measures what each
        one buys)."""
        if self.name in turned_off():
            return False
        return self.scope != "user" or user_enabled()


ARTEFACTS = Cache("artefacts", "project", ".cache/{game}", "the game's files, its layouts, the build options, "
                  "how paths print from the working folder, the fingerprint",
                  "4 newest entries per output", "an unchanged output is not drawn again; an unchanged game is not "
                  "loaded (its diagnostics are kept too)")
DIGESTS = Cache("file-digests", "project", ".cache/digests.pickle", "a file's path, size, mtime and inode",
                "one file, every input file seen", "an unchanged file is not read to hash it")
DECK_PAGES = Cache("deck-pages", "project", ".cache/{game}/deck-pages", "the cards on a sheet, the game's other "
                   "files, the deck options, the fingerprint", "the deck's sheets plus 3 builds' worth of others",
                   "after a one-card edit only the sheets holding that card are drawn")
RULES_MEMO = Cache("rules-memo", "project", ".cache/{game}/rules", "the paper and the fingerprint: the page numbers "
                   "of the rulebook's contents, a guess its layout checks", "4 answers per kind",
                   "rulebook.pdf laid out once after a one-card edit (no pass that only learns page numbers)")
PRINTED = Cache("printed", "project", ".cache/{game}/printed.json", "the SHA-256 of the deck.pdf it describes",
                "one file per game: the last build's", "`cardforge diff GAME` without a revision compares with what "
                "the last build printed (each card's fields and face digest)")
EXPORTS_MADE = Cache("export-record", "project", ".cache/{game}/exports.json", "each export folder's name (tts, "
                     "shop-<name>...) -> the digest of the pack's files it was written from", "one file per game: "
                     "the export folders in output/<game>/", "a build says which export folders it did not write are "
                     "older than the cards (not a speed-up: a record)")
PREVIEWS = Cache("previews", "project", ".serve-cache", "a card's fields, game.yaml, the layout file, the pack's "
                 "art and icons, the fingerprint; a PDF page by the PDF's bytes", "5,000 newest pictures",
                 "cardforge serve redraws only the cards an edit changed")
YAML = Cache("yaml", "user", "yaml", "the file's bytes and name, the fingerprint", "4,000 newest entries",
             "an unchanged YAML file is not parsed again")
SCHEMAS = Cache("builtin-schemas", "user", "builtin-schema", "the schema file's bytes, the fingerprint",
                "4,000 newest entries", "cardforge's own schemas are not parsed and checked again")
VERDICTS = Cache("schema-verdicts", "user", "verdicts", "a schema and a document, the fingerprint",
                 "one file per kind, 50,000 newest verdicts", "an unchanged card is not validated again")
CHECK_RESULTS = Cache("check-results", "user", "check-results", "a template's source and context, a text's style and box, "
              "the fingerprint", "200 newest files (one per game folder)",
              "after a one-card edit only that card's templates and text fits are worked out")
ICON_FORMS = Cache("icon-forms", "user", "icon-form", "an SVG's text and colour, the deck's fonts, the "
                   "fingerprint", "4,000 newest entries", "a deck writes its icons without reading an SVG")
ICON_PNGS = Cache("icon-pngs", "user", "icon-png", "an SVG's text (in its colour) and pixel size, the fingerprint; "
                  "a picture's PNG file: its SHA-256",
                  "4,000 newest entries (and 4,000 PNG files)", "a rules document prints its icons without importing "
                  "cairosvg, and a rebuild in the same process (watch, serve) parses its paragraphs once")
TYPE_SIZES = Cache("type-sizes", "user", "type-sizes", "the text laid out, how its icons print, the paper, the "
                   "fonts (a pack's by its file's SHA-256), the words cardforge adds, the fingerprint",
                   "4,000 newest entries",
                   "rules.pdf and reference.pdf's helper sheet are laid out at the type size a build of the same text "
                   "found, with no size search: after an edit, with --no-cache and in another project")
CARD_PICTURES = Cache("card-pictures", "user", "card-pictures", "a card's fields, or an anatomy figure's sample "
                      "cards and callouts, and everything else that draws them (the pack's files but its card files, "
                      "its layouts), the picture's size and encoding, the fingerprint", "4,000 newest entries",
                      "rulebook.html draws only the pictures no build has drawn: after a one-card edit only that "
                      "card's, and none with --no-cache or in another project of the same pack")
RULES_SHEETS = Cache("rules-sheets", "user", "rules-sheets", "sheet.md as rendered and everything else the sheet "
                     "reads but the cards (game.yaml, the card types, the icons and their SVG files, the pack's fonts, "
                     "the language, whether a printed value is designed), the paper, the fingerprint",
                     "100 newest sheets", "rules.pdf is not laid out again when a card edit leaves the rendered "
                     "sheet as it was: after a one-card edit, with --no-cache and in another project")
CONTENTS_PAGES = Cache("contents-pages", "user", "contents-pages", "the paper, the rulebook's text, its headings, its "
                       "cards' fields, the fingerprint", "4,000 newest entries",
                       "rulebook.pdf is laid out once, with the contents a build of the same book found (checked "
                       "by that layout, as the project's guess is): with --no-cache and in another project")
METRICS = Cache("font-metrics", "user", "metrics", "the font file's SHA-256, the fingerprint", "64 newest fonts",
                "a check measures text without parsing a font file or importing ReportLab")
TEMPLATES = Cache("template-code", "user", "templates", "a template's source, the sandbox's configuration, "
                  "the fingerprint", "4,000 newest templates", "a template is not compiled again by a new process")

CACHES: tuple[Cache, ...] = (ARTEFACTS, DIGESTS, DECK_PAGES, RULES_MEMO, PRINTED, EXPORTS_MADE, PREVIEWS, YAML, SCHEMAS, VERDICTS, CHECK_RESULTS,
                             ICON_FORMS, ICON_PNGS, TYPE_SIZES, RULES_SHEETS, CARD_PICTURES, CONTENTS_PAGES, METRICS,
                             TEMPLATES)


# In-memory memos of one process (see cardforge.cache.memo): each bounded, all cleared by clear().
ONCE = Memo("made-once", 8, "nothing: one value per process (a colour transform, the code's fingerprint, a stream "
            "class)", "what every build needs is made once per process")
SCHEMA_VALIDATORS = Memo("schema-validators", 64, "a schema of cardforge's own (game.yaml, layouts, an element kind, "
                         "errata, a mapping)", "a schema is not read and compiled again for the next file")
SCHEMA_KEYS = Memo("schema-keys", 256, "a validator object (its schema's digest)", "a schema is not hashed again "
                   "for each document it validates")
FONT_FACES = Memo("fonts", 64, "a font key", "a font's glyph widths and character set are read, and it is registered "
             "with ReportLab, once per process")
WORD_WIDTHS = Memo("word-widths", 32768, "a word and a font key", "a word's width at 1 pt is summed once "
                   "and scaled to every size a text fit tries")
FONT_SETS = Memo("font-sets", 256, "the faces a text style uses", "the characters every face of a style has, "
                 "worked out once")
TEXT_FITS = Memo("text-fits", 8192, "a text, its style, its box and the game's icons", "a text fitted in one box is "
                 "not fitted again by the next check or output")
ICON_KEYS = Memo("icon-keys", 64, "a game's icons mapping", "what a fit depends on in the icons, worked out once "
                 "per mapping")
ICON_DRAWINGS = Memo("icon-drawings", 512, "an SVG's text (and pixel size)", "an icon is parsed or rasterised once")
ICON_FORMS_KEPT = Memo("icon-forms-kept", 4096, "an icon form's digest", "an icon form read from the user cache is "
                       "read once per process")
TEMPLATES_COMPILED = Memo("templates-compiled", 4096, "a template's or expression's source", "a template is compiled "
                          "and its printed fields read once per process")
PATTERNS = Memo("patterns", 1024, "a regular expression's source", "a pack's pattern is compiled by RE2 once")
IMAGE_SIZES = Memo("image-sizes", 256, "an art file's path", "an art file's pixel size is read once")
IMAGE_READERS = Memo("image-readers", 256, "a PNG's SHA-256", "a picture printed on many pages is decoded once")
PARAGRAPHS = Memo("paragraphs", 4096, "a paragraph's markup, its style's settings and its bullet", "the rules "
                  "documents' markup is parsed once per process, not again for each plan, page or table tried, "
                  "and an inline icon's picture is not read again for each paragraph parsed")
LINE_BREAKS = Memo("line-breaks", 4096, "a paragraph's markup, its style's settings and the widths its lines are "
                   "broken at", "a rules document's paragraph measured again at the same size and width (a plan, "
                   "then its pages) is not broken into lines again")
MARKDOWN = Memo("markdown", 64, "a rules document's Markdown text", "a rules document's Markdown is parsed once per "
                "process, not again for each type size a sheet tries")
COLOURS = Memo("colours", 1024, "a #rrggbb colour", "a colour is parsed once")
CATALOGS = Memo("catalogs", 32, "a gettext catalog's path and its modification time", "cardforge's own catalog of "
                "fixed words (and a pack's) is parsed once per process, not once per heading")

MEMOS: tuple[Memo, ...] = (ONCE, SCHEMA_VALIDATORS, SCHEMA_KEYS, FONT_FACES, WORD_WIDTHS, FONT_SETS, TEXT_FITS, ICON_KEYS, ICON_DRAWINGS,
                           ICON_FORMS_KEPT, TEMPLATES_COMPILED, PATTERNS, IMAGE_SIZES, IMAGE_READERS, PARAGRAPHS, LINE_BREAKS, MARKDOWN,
                           COLOURS, CATALOGS)


def user_root() -> Path:
    """``$XDG_CACHE_HOME/cardforge`` (``~/.cache/cardforge`` when the variable is unset)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cardforge"


def user_enabled() -> bool:
    """False while ``CARDFORGE_NO_USER_CACHE`` is set to anything but ``0``."""
    return os.environ.get(NO_USER_CACHE, "") in ("", "0")


@dataclass(frozen=True)
class Usage:
    """What one cache holds on disk now: ``where`` (its folders), ``entries`` and ``size`` (bytes)."""

    cache: Cache
    where: tuple[Path, ...]
    entries: int
    size: int


def _places(cache: Cache, output: Path) -> list[Path]:
    """The folders (or file) of ``cache`` that exist now: one per game for a ``{game}`` path."""
    if "{game}" not in cache.path:
        place = cache.folder(output)
        return [place] if place.exists() else []
    head = cache.path.partition("{game}")[0]
    games = (output if cache.scope == "project" else user_root()) / head
    try:
        slugs = sorted(p.name for p in games.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:
        return []
    return [p for p in (cache.folder(output, slug) for slug in slugs) if p.exists()]


def _size(path: Path) -> int:
    try:
        return path.stat().st_size if path.is_file() else sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
    except OSError:
        return 0


def usage(output: Path) -> list[Usage]:
    """What every cache of :data:`CACHES` holds now (project caches below ``output``): an
    entry is a file of the cache's folder, or for the artefact store one kept output (its
    ``<output>/<key>/`` folders; the deck pages and rules memo inside it count apart)."""
    nested = {Path(c.path).name for c in CACHES if c.path.startswith(ARTEFACTS.path + "/")}
    found = []
    for cache in CACHES:
        where = _places(cache, output)
        items: list[Path] = []
        for place in where:
            if place.is_file():
                items.append(place)
            elif cache is ARTEFACTS:
                items += [k for a in place.iterdir() if a.is_dir() and a.name not in nested for k in a.iterdir()
                          if not k.name.startswith(".")]
            else:
                items += [i for i in place.rglob("*") if i.is_file() and not i.name.startswith(".")]
        found.append(Usage(cache, tuple(where), len(items), sum(_size(i) for i in items)))
    return found


def give_back() -> None:
    """After one round of a long-running process (a save checked by ``serve``, a build of its
    worker): sweep every memo of :data:`MEMOS` (:meth:`Memo.sweep`: what the last edit left
    behind, such as the fit of a card's former text), collect garbage and return the freed
    heap to the system (glibc's ``malloc_trim``; elsewhere nothing more), so a session of
    hundreds of edits does not keep what each one left."""
    for kept in MEMOS:
        kept.sweep()
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@ONCE.function
def _malloc_trim():
    """glibc's ``malloc_trim``, or None (another C library or system)."""
    try:
        import ctypes

        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def clear(output: Path, scope: str | None = None) -> list[Path]:
    """Delete the caches of ``scope`` (``"project"``, ``"user"`` or both when None): the
    project's ``output/.cache`` and ``output/.serve-cache``, and the user cache folder; and
    empty every in-memory memo of :data:`MEMOS` in this process. Returns what was deleted.
    Never touches the outputs themselves."""
    memo.clear(MEMOS)
    gone = []
    roots = []
    if scope in (None, "project"):
        roots += [output / PROJECT_FOLDER, PREVIEWS.folder(output)]
    if scope in (None, "user"):
        roots.append(user_root())  # every user cache, and what older versions of cardforge left there
    for root in roots:
        if root.exists():
            remove(root)
            gone.append(root)
    return gone
