"""Diagnostics: the one currency of errors.

Every problem found anywhere (loading, schema validation, consistency checks, layout) is
a frozen :class:`Diagnostic`. Checks say *what* is wrong about a card or a path; the
driver attaches *where* (file, line, column) from the line map kept while loading.
Each code is declared once, as a module constant (``SCHEMA = _code("schema", ...)``) that every
module imports, so a mistyped code fails at import and grep finds every use; :data:`CODES`
holds them by name with the topic they belong to and a description. "Family" means only a
check family (``cardforge.checks.FAMILIES``): one code may be reported by several families
and stages, so a code has a topic (load, limits, schema, layout, ...), not a family.
"""
from __future__ import annotations

import enum
import json
import os
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path


class Severity(enum.IntEnum):
    """How bad a finding is; ``error`` stops a build, ``warning`` does with ``--strict``."""

    INFO = 0
    WARNING = 1
    ERROR = 2

    def __str__(self) -> str:  # "error", "warning", "info"
        return self.name.lower()


@dataclass(frozen=True)
class Code:
    """A stable diagnostic code: ``name`` as printed, the ``topic`` it belongs to (the stage or
    subject that reports it: load, limits, schema, layout, a check's subject ...), its default
    severity, a description."""

    name: str
    topic: str
    severity: Severity
    description: str


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

_DECLARED: list[Code] = []  # in declaration order: the order of `cardforge codes` and the docs' table


def _code(name: str, topic: str, severity: Severity, description: str) -> str:
    """Declare a code; returns its name, which modules import as a constant (``SCHEMA``)."""
    _DECLARED.append(Code(name, topic, severity, description))
    return name


# load: reading YAML files and the game pack's structure
YAML_SYNTAX = _code("yaml-syntax", "load", E, "a YAML file does not parse")
YAML_DUPLICATE_KEY = _code("yaml-duplicate-key", "load", E, "a mapping repeats a key (YAML would silently keep the last)")
PACK_MISSING = _code("pack-missing", "load", E, "a game pack, or a file it needs, does not exist")
PACK_STRUCTURE = _code("pack-structure", "load", E, "a game pack file does not have the expected shape")
CARD_TYPE_UNKNOWN = _code("card-type-unknown", "load", E, "a card names a type that game.yaml does not declare")
CARD_DUPLICATE = _code("card-duplicate", "load", E, "two card entries of one type share a name (use quantity)")
# limits and confinement: hostile or broken input is refused before it costs anything
PATH_OUTSIDE_PACK = _code("path-outside-pack", "limits", E, "a file a pack names lies outside the pack and project (or is a URL)")
FILE_SPECIAL = _code("file-special", "limits", E, "a file a pack names is not a regular file (a FIFO, device or folder)")
FILE_TOO_LARGE = _code("file-too-large", "limits", E, "an input file is larger than cardforge reads")
YAML_TOO_COMPLEX = _code("yaml-too-complex", "limits", E, "a YAML file has too many nodes, aliases or levels of nesting")
VALUE_TOO_LARGE = _code("value-too-large", "limits", E, "a quantity or a string is larger than a card can hold")
VALUE_INVALID = _code("value-invalid", "limits", E, "a value makes no sense: min above max, a part of itself, NaN, a bad colour")
TEXT_CONTROL = _code("text-control", "limits", E, "card text holds a control or bidirectional-override character")
GLYPH_MISSING = _code("glyph-missing", "limits", E, "text a PDF prints (card text, a text icon, a rules source, a game.yaml title or label) holds characters its font cannot print (the hint names the pack's fonts that have them)")
FONT_INVALID = _code("font-invalid", "load", E, "a font game.yaml declares is not a TrueType font the PDFs can embed (CFF outlines, a collection, damaged) or takes a shipped font's name")
TEMPLATE_INVALID = _code("template-invalid", "limits", E, "a layout template does not render for a card (undefined field, error)")
TEMPLATE_BUDGET = _code("template-budget", "limits", E, "a layout template or rules source ran over its operation or time budget")
RULE_BUDGET = _code("rule-budget", "limits", E, "a declarative rule ran over its operation or time budget")
SCHEMA_REMOTE_REF = _code("schema-remote-ref", "limits", E, "a JSON Schema $ref points at a URL (never fetched)")
SCHEMA_PATTERN = _code("schema-pattern", "limits", E, "a JSON Schema pattern cannot run without backtracking (RE2)")
# schema: every card against its type's JSON Schema
SCHEMA = _code("schema", "schema", E, "a card breaks its card type's JSON Schema")
SCHEMA_INVALID = _code("schema-invalid", "schema", E, "a card type's JSON Schema is itself not a valid schema")
FIELD_SHAPE = _code("field-shape", "schema", E, "a card field a chart, the almanac or a layout reads holds a value of the wrong shape (not reported again where the schema says so)")
# layout: the layout file of a game
LAYOUT_MISSING = _code("layout-missing", "layout", E, "a card type has no layout")
LAYOUT_INVALID = _code("layout-invalid", "layout", E, "a layout entry is unknown or has a bad value")
LAYOUT_CYCLE = _code("layout-cycle", "layout", E, "layouts extend each other in a cycle")
LAYOUT_UNSAFE = _code("layout-unsafe", "layout", W, "a text box reaches into the safe margin inside the trim")
ICON_FILE = _code("icon-file", "layout", E, "an icon's SVG file is missing or cannot be drawn")
# errata: explicit corrections of the seed as printed (errata.yaml)
ERRATA_APPLIED = _code("errata-applied", "errata", I, "an erratum from errata.yaml corrects a card as printed")
ERRATA_STALE = _code("errata-stale", "errata", E, "an erratum does not match the card as printed (fixed twice, or mistyped)")
FINDING_ACCEPTED = _code("finding-accepted", "errata", I, "a finding left as printed, with the reason given in errata.yaml")
# references: names in card text and lists resolve to something that exists
REF_UNKNOWN = _code("ref-unknown", "references", W, "card text or a list names a card, type or term that does not exist")
# counts: the component list against the database, declared totals against their parts
COUNT_MISMATCH = _code("count-mismatch", "counts", E, "a component's count differs from the quantities of its cards")
TOTAL_MISMATCH = _code("total-mismatch", "counts", E, "a declared total differs from the sum of its parts")
# stacks: card types shuffled together face down look alike from behind
STACK_BACKS_DIFFER = _code("stack-backs-differ", "stacks", E, "card types shuffled into one face-down stack differ in back, size or shape")
BACK_FIELD_DIFFERS = _code("back-field-differs", "stacks", E, "a shared back prints a card field that differs between cards of one face-down stack")
BACK_UNKNOWN = _code("back-unknown", "stacks", E, "a card's data chooses no back of the layout file (its type's back: template or by: value)")
LAYOUT_UNKNOWN = _code("layout-unknown", "stacks", E, "a card's data chooses no layout of the layout file (its type's layout: template or by: value)")
# components: every listed component is printed by the pack or supplied by the players
COMPONENT_UNPRINTED = _code("component-unprinted", "components", E, "a component is neither printed by the pack nor marked supply: true")
# icons
ICON_UNKNOWN = _code("icon-unknown", "icons", E, "card text uses an icon token the game does not declare")
ICON_UNUSED = _code("icon-unused", "icons", W, "a declared icon is used by no card and no layout")
ICON_COLOR_IGNORED = _code("icon-color-ignored", "icons", W, "an icon's SVG ignores currentColor while a layout asks for a colour")
MARKUP_UNMATCHED = _code("markup-unmatched", "markup", W, "card text has an unmatched * or ** or a { that is not an icon token")
# colour vision: what players tell apart by colour still differs for colour-blind players
COLOUR_COLLAPSE = _code("colour-collapse", "colour-vision", W, "two card backs, or two suits of a card type, differ only by colours that collapse for a common colour-vision deficiency")
# raw values: what the almanac prints of an enum value
ALMANAC_RAW_VALUE = _code("almanac-raw-value", "raw-values", W, "the almanac would print an enum value as the data writes it (a slug), for want of a display label")
# glossary
TERM_MISSPELT = _code("term-misspelt", "glossary", W, "a word in card text is a near miss of a glossary term")
TERM_UNUSED = _code("term-unused", "glossary", W, "a glossary term appears on no card")
# text fit: card text against its layout box
TEXT_OVERFLOW = _code("text-overflow", "text-fit", E, "card text does not fit its layout box at the minimum type size")
# layout fit: repeated elements, type sizes and images of each card against its layout
LAYOUT_OVERFLOW = _code("layout-overflow", "layout-fit", E, "a repeated element has more items than fit its space on a card")
IMAGE_MISSING = _code("image-missing", "images", E, "an image element's file does not exist, lies outside the pack, or is not PNG/JPEG/SVG (a `--force` build prints a MISSING placeholder)")
IMAGE_LOW_RES = _code("image-low-res", "images", W, "raster art prints below 300 dpi at its printed size (the dpi is given)")
TEXT_TOO_SMALL = _code("text-too-small", "text-fit", W, "card text prints under 6 pt (the size, the element and the card are named)")
LAYOUT_HIERARCHY = _code("layout-hierarchy", "text-fit", E, "a card's title prints smaller than its body text, even with the body shrunk to the title's size")
# declarative rules of the game pack
RULE_FAILED = _code("rule-failed", "rules", E, "a declarative rule of the game pack does not hold")
RULE_INVALID = _code("rule-invalid", "rules", E, "a declarative rule's expression does not compile or evaluate")
# rules compiler
RULES_MISSING = _code("rules-missing", "rules-compiler", W, "a game pack has no rules source (rulebook.md, sheet.md)")
RULES_TEMPLATE = _code("rules-template", "rules-compiler", E, "a rules source does not render (jinja2 syntax or data error)")
RULES_NUMBER = _code("rules-number", "rules-compiler", W, "the rules print a number that no data of the pack holds")
RULES_OVERFLOW = _code("rules-overflow", "rules-compiler", E, "the rules do not fit the accordion sheet at the minimum type size (7.5 pt), reference tables moved to the helper sheet")
# sources: spreadsheets (CSV card files, cardforge import)
SOURCE_UNREADABLE = _code("source-unreadable", "sources", E, "a spreadsheet file cannot be read (not UTF-8, not a workbook, bad JSON)")
SOURCE_VALUE = _code("source-value", "sources", E, "a cell does not fit its field (not a number, no name, unknown card type)")
SOURCE_COLUMN = _code("source-column", "sources", W, "a spreadsheet column is not a field of the card type and is not read")
SOURCE_MAPPING = _code("source-mapping", "sources", E, "a source mapping names a column or card type that does not exist")
SOURCE_COMPUTED = _code("source-computed", "sources", E, "a source mapping's computed field or skip_when does not parse, names no column, or fails on a row")
SOURCE_PULL = _code("source-pull", "sources", E, "cardforge pull could not fetch a sheet: no url in the mapping, no network, an HTTP error, or an answer that is not a sheet")
IMPORT_REFUSED = _code("import-refused", "sources", E, "cardforge import would overwrite a card file that is not an import of that sheet")
FILE_UNREAD = _code("file-unread", "load", W, "a file in a game pack that cardforge does not read")
CHECKS_SKIPPED = _code("checks-skipped", "load", I, "checks not run because a file they read could not be read or used (a card file, errata.yaml, the layouts, a rules source)")
RULES_TABLE_TOO_WIDE = _code("rules-table-too-wide", "rules-compiler", E, "a rules table's unbreakable words are wider than its column or panel (names the table and its line)")
RULES_SHEET_FIT = _code("rules-sheet-fit", "rules-compiler", I, "the type size and panel fill of the accordion rules sheet (printed by `build`)")
RULES_UNDERFILL = _code("rules-underfill", "rules-compiler", W, "a panel of the accordion rules sheet other than the last is under half full (names the panel and the section it starts in)")
RULES_INTERNAL_TEXT = _code("rules-internal-text", "rules-compiler", W, "printed rules text speaks to the pack's maintainers (the seed, ERRATA.md, provisional, a raw field name)")
ODDS_INVALID = _code("odds-invalid", "rules-compiler", E, "an odds: entry in game.yaml cannot be worked out (unknown stack, a test naming an unknown field, more draws than cards)")
CHART_TOO_MANY_SERIES = _code("chart-too-many-series", "rules-compiler", E, "a composition chart has more series than colours that stay apart in grey")
RULING_UNPRINTED = _code("ruling-unprinted", "rulings", W, "a ruling or erratum ERRATA.md tags (**Ruling R1**) is cited by no rule players read, or missing from the rulebook's \"About this edition\"")
RULING_UNKNOWN = _code("ruling-unknown", "rulings", W, "a citation [R1] in the rules or a card names no ruling or erratum that ERRATA.md tags")
MARK_MISSING = _code("mark-missing", "marks", W, "the rules sheet or rulebook prints a designed card value (a card's provisional field) without its †")
QUESTION_UNANSWERED = _code("question-unanswered", "questions", W, "a question of QUESTIONS.md has no answer, or its answer is not in print (a ruling \"About this edition\" does not list, words the named rules source or card does not print)")
RULES_MARKDOWN_HAZARD = _code("rules-markdown-hazard", "rules-compiler", E, 'a rules line continuing a paragraph would print as a list item or heading ("1 + 1" over "• 2 + 2 Gold")')
# translations: a pack's locale/<lang>.po catalogs (cardforge translate, build --lang, check --lang)
LANGUAGE_UNKNOWN = _code("language-unknown", "translations", E, "game.yaml `languages:` lists a code Babel (CLDR) knows no language by")
PO_INVALID = _code("po-invalid", "translations", E, "a pack's locale/<lang>.po does not parse, is not UTF-8 or cannot be read")
TRANSLATION_MISSING = _code("translation-missing", "translations", W, "a language of the pack has no catalog, or an entry of its catalog is untranslated (the source text prints; an error with --strict)")
TRANSLATION_FUZZY = _code("translation-fuzzy", "translations", W, "an entry of a catalog is marked fuzzy: its source changed since it was translated, or a translator doubts it (the source text prints; an error with --strict)")
TRANSLATION_TOKEN = _code("translation-token", "translations", E, "a translation drops or adds an icon token ({speed}), a markup tag (**, *) or a jinja expression of its source")
TRANSLATION_NAME = _code("translation-name", "translations", W, "a translation cites a card or glossary term by a name that is not that language's name of any card or term")
TRANSLATION_NUMBER = _code("translation-number", "translations", W, "a translation prints other numbers than its source")
# new: scaffolding a game pack (cardforge new)
SLUG_INVALID = _code("slug-invalid", "new", E, "a new game pack's name is not a valid folder name")
PACK_EXISTS = _code("pack-exists", "new", E, "cardforge new would overwrite an existing game pack or layout")
# build
SHEET_TIGHT = _code("sheet-tight", "build", I, "a card size leaves too little paper for printable crop marks or bleed between cards (the message names the choices)")
EXPORT_STALE = _code("export-stale", "build", W, "an export folder in output/<game>/ (tts/, ttpg/, print-shop/, one-sided/, shop-<name>/) that this build did not write was made from other cards: it may hold old card text")
BUILD_FORCED = _code("build-forced", "build", W, "the build went on despite errors because of --force")
WRITE_FAILED = _code("write-failed", "build", E, "an output file could not be written")
BUILD_LOCKED = _code("build-locked", "build", E, "another build of the same game is running (output/<game>/.lock)")
REVISION_INVALID = _code("revision-invalid", "reprint", E, "`diff` or `--changed-since` names a git revision that cannot be read (no git, not a repository, an unknown revision)")
BUILD_RECORD_MISSING = _code("build-record-missing", "reprint", E, "`diff` without a revision finds no record of what the game's last build printed (never built, or its deck.pdf was not written by the build that recorded it)")
INTERNAL_ERROR = _code("internal-error", "build", E, "cardforge itself failed: a bug to report, with the log file named")

CODES: dict[str, Code] = {c.name: c for c in _DECLARED}


@dataclass(frozen=True)
class Diagnostic:
    """One finding.

    ``file`` is a path (relative to the project root where possible), ``line`` and
    ``column`` are 1-based (0 when unknown). ``hint`` is an optional suggestion, such as a
    did-you-mean.
    """

    severity: Severity
    code: str
    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    hint: str = ""
    related: tuple[str, ...] = field(default=())
    card: str = ""  # the card the finding is about, when there is one

    def at(self, file: str | Path, line: int = 0, column: int = 0) -> "Diagnostic":
        """The same diagnostic placed at ``file:line:column``."""
        return replace(self, file=str(file), line=line, column=column)

    @property
    def location(self) -> str:
        parts = [self.file or "<cardforge>"]
        if self.line:
            parts.append(str(self.line))
            if self.column:
                parts.append(str(self.column))
        return ":".join(parts)

    def format(self) -> str:
        """``path:line:col: severity[code]: message`` plus an indented hint line."""
        text = f"{self.location}: {self.severity}[{self.code}]: {self.message}"
        if self.hint:
            text += f"\n    hint: {self.hint}"
        return text

    def to_json(self) -> dict:
        data = asdict(self)
        data["severity"] = str(self.severity)
        data["related"] = list(self.related)
        return data


def codes_table() -> str:
    """Every code of :data:`CODES` as a Markdown table (topic, code, severity, meaning), in
    declaration order: the table of docs/checks.md is this text, kept equal by ``tests/test_docs.py``
    (``cardforge codes --format markdown`` prints it)."""
    rows = ["| topic | code | severity | meaning |", "|---|---|---|---|"]
    rows += [f"| {c.topic} | `{c.name}` | {c.severity} | {c.description} |" for c in CODES.values()]
    return "\n".join(rows) + "\n"


def diag(code: str, message: str, *, hint: str = "", severity: Severity | None = None,
         file: str | Path = "", line: int = 0, column: int = 0,
         related: tuple[str, ...] = (), card: str = "") -> Diagnostic:
    """Make a diagnostic for a registered ``code``; its severity defaults to the code's.

    Raises ``KeyError`` for an unregistered code (a programming error, caught by tests).
    """
    registered = CODES[code]
    return Diagnostic(severity if severity is not None else registered.severity, code, message,
                      str(file), line, column, hint, related, card)


def display_path(path: str | Path) -> str:
    """``path`` relative to the working directory when it lies below it (for diagnostics)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def has_errors(diagnostics: list[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diagnostics)


def sort_key(d: Diagnostic) -> tuple:
    return (d.file, d.line, d.column, -int(d.severity), d.code, d.message)


def format_json(diagnostics: list[Diagnostic]) -> str:
    """All diagnostics as one JSON document: ``{"diagnostics": [...], "summary": {...}}``."""
    summary = {str(s): sum(1 for d in diagnostics if d.severity is s) for s in Severity}
    return json.dumps({"diagnostics": [d.to_json() for d in sorted(diagnostics, key=sort_key)],
                       "summary": summary}, indent=2, ensure_ascii=False)
