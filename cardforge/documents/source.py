"""Rules sources: Markdown with jinja2, rendered with the game's data in scope.

A game pack's ``rulebook.md`` (the full rulebook) and ``sheet.md`` (the condensed accordion
rules sheet) are jinja2 templates (sandboxed) over the same data the cards use, so every
number, list and table in the rules comes from game.yaml and the card database. Macros
(documented for designers in docs/rules-sources.md, which a test keeps equal to
:meth:`Macros.context`):

``components_list()``   the component list with counts (game.yaml ``components``): printed, then "You also need:"
``setup_steps()``       the numbered setup (game.yaml ``setup``: list of steps)
``turn_sequence(detail=False, summary=True)``  the turn's phases (game.yaml ``turn``: ``{name, summary, detail?}``)
``game_end()``          how the game ends and is won (game.yaml ``end``: list)
``table(id)``           a table from game.yaml ``tables.<id>`` (``{title, columns, rows}``)
``icon_legend()``       every icon with its label
``glossary_list()``     every glossary term with its definition
``count(type, ...)``    how many cards of the given types (sum of quantities)
``cards_of(type, ...)`` the cards of the given types, as dicts (``source_name``: the name in the
                        pack's source language, the same in every translation: select cards by it)
``icon(name)``          an inline icon token, ``{name}``
``n(name)``             a named number from game.yaml ``numbers.<name>`` (``{value, source}``)
``spare_panel(kind)``   (sheet.md) keep a panel of the rules sheet for "notes", "components" or "turn"

Strings in ``setup``, ``turn``, ``end`` and table cells may themselves use these macros
(``"Give each player {{ n('start_tokens') }} tokens."``): every number the rules print is
a value of the data, so the rulebook, the rules sheet and the reference sheet agree.

The result is Markdown whose ``{icon}`` tokens the PDF renderer draws as inline icons.
Raises nothing: template errors become ``rules-template`` diagnostics on the source file.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from jinja2 import TemplateError, TemplateSyntaxError

from cardforge.util.diagnostics import CHECKS_SKIPPED, RULES_MISSING, RULES_TEMPLATE, TEMPLATE_BUDGET, Diagnostic, diag
from cardforge.sources.load import display_path
from cardforge.model import Game
from cardforge.sandbox.budget import BudgetExceeded
from cardforge.util.paths import InputFileError, read_limited, resolve_inside
from cardforge.sandbox import TemplateFailure, environment, evaluate
from cardforge.util.textfile import undecodable
from cardforge.util.i18n import _

SOURCES = {"rulebook": "rulebook.md", "sheet": "sheet.md"}
STRICT = environment(strict=True)


def strict_template(source: str):
    """A compiled template of the strict sandbox (an undefined name is an error), cached."""
    return STRICT.get_template(STRICT.loader.name(source))


def _md_cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


class Macros:
    """The data macros a rules source can call; each returns Markdown."""

    def __init__(self, game: Game):
        self.game = game
        self.data = game.data
        self.failure: Diagnostic | None = None  # the first data string that failed, placed in game.yaml

    def _t(self, text: Any, *where: Any) -> str:
        """Render a data string (at ``where`` in game.yaml) that may use the macros itself;
        when it fails, :attr:`failure` places the error at the string's line in game.yaml."""
        text = str(text)
        if "{{" not in text and "{%" not in text:
            return text
        try:
            return strict_template(text).render(self.context())
        except Exception as exc:
            if self.failure is None:
                self.failure = data_failure(self.game, where, text, exc)
            raise

    def n(self, name: str) -> Any:
        value = (self.data.get("numbers") or {})[name]
        return value["value"] if isinstance(value, dict) else value

    def components_list(self) -> str:
        """What the pack prints, then what the players supply (``supply: true``) under
        "You also need:", so nobody looks for a die among the printed sheets."""
        from cardforge.model import DESIGNED_MARK

        def item(c: dict) -> str:
            mark = DESIGNED_MARK if c.get("provisional") is True else ""  # a designed count (docs/marks.md)
            if isinstance(c.get("listed"), str):  # the pack's own wording of the line
                return f"- {c['listed']}{mark}"
            per = " " + _("per player") if c.get("per") == "player" else ""
            return f"- {c['count']}{mark} {c['name']}{per}"
        printed = [item(c) for c in self.game.components if c.get("supply") is not True]
        supply = [item(c) for c in self.game.components if c.get("supply") is True]
        if not supply:
            return "\n".join(printed)
        return "\n".join(printed + ["", _("**You also need** (not printed):"), ""] + supply)

    def setup_steps(self) -> str:
        return "\n".join(f"{i}. {self._t(step, 'setup', i - 1)}"
                         for i, step in enumerate(self.data.get("setup") or [], 1))

    def turn_sequence(self, detail: bool = False, summary: bool = True) -> str:
        """The turn's steps, numbered: each its name and summary; with ``detail`` its long
        version after the summary (``summary=False``: instead of it, for a long version
        written to restate the summary)."""
        out = []
        for i, phase in enumerate(self.data.get("turn") or [], 1):
            parts = []
            long = detail and phase.get("detail")
            if not long or summary:
                parts.append(self._t(phase.get("summary", ""), "turn", i - 1, "summary"))
            if long:
                parts.append(self._t(phase["detail"], "turn", i - 1, "detail"))
            out.append(f"{i}. **{phase['name']}.** {' '.join(p for p in parts if p)}".rstrip())
        return "\n".join(out)

    def game_end(self) -> str:
        return "\n".join(f"- {self._t(item, 'end', i)}" for i, item in enumerate(self.data.get("end") or []))

    def table(self, table_id: str) -> str:
        spec = (self.data.get("tables") or {})[table_id]
        columns = spec["columns"]
        lines = ["| " + " | ".join(_md_cell(c) for c in columns) + " |",
                 "|" + "---|" * len(columns)]
        for r, row in enumerate(spec["rows"]):
            keys = columns if isinstance(row, dict) else range(len(row))
            cells = [row.get(c, "") for c in columns] if isinstance(row, dict) else row
            lines.append("| " + " | ".join(_md_cell(self._t(c, "tables", table_id, "rows", r, k))
                                           for c, k in zip(cells, keys)) + " |")
        title = f"**{spec['title']}**\n\n" if spec.get("title") else ""
        return f"<!-- table: {table_id} -->\n" + title + "\n".join(lines)

    def icon_legend(self) -> str:
        return "\n".join(f"- {{{name}}} {icon.label}" for name, icon in self.game.icons.items() if icon.legend)

    def glossary_list(self) -> str:
        return "\n".join(f"- **{term}**: {spec['definition']}" for term, spec in sorted(self.game.glossary.items()))

    def count(self, *types: str) -> int:
        return self.game.total(*types)

    def cards_of(self, *types: str) -> list[dict]:
        out = []
        for card in self.game.cards_of(*types):
            view = dict(card.data)
            view.update(name=card.name, type=card.type, quantity=card.quantity, source_name=card.source_name or card.name)
            out.append(view)
        return out

    def icon(self, name: str) -> str:
        return "{" + name + "}"

    def mark(self, cards: Any, *fields: str) -> str:
        """The designed mark (†) when any of ``cards`` (a card of :meth:`cards_of`, or a list of
        them) lists any of ``fields`` as ``provisional``, else ''. Write it after a value a
        rules source prints from card data: ``{{ d.name }}{{ mark(d, 'ability') }}``."""
        from cardforge.model import DESIGNED_MARK

        for card in cards if isinstance(cards, list) else [cards]:
            designed = card.get("provisional") if isinstance(card, dict) else None
            if isinstance(designed, list) and set(fields) & set(designed):
                return DESIGNED_MARK
        return ""

    def spare_panel(self, kind: str = "notes") -> str:
        """Ask for a spare panel on the rules sheet: "notes", "components" or "turn"."""
        if kind not in ("notes", "components", "turn"):
            raise ValueError(f"spare_panel({kind!r}): the kinds are 'notes', 'components' and 'turn'")
        return f"<!-- panel: {kind} -->"

    def context(self) -> dict[str, Any]:
        names = ["components_list", "setup_steps", "turn_sequence", "game_end", "table", "icon_legend",
                 "glossary_list", "count", "cards_of", "icon", "mark", "n", "spare_panel"]
        ctx: dict[str, Any] = {n: getattr(self, n) for n in names}
        ctx.update(game=self.data, components={c["id"]: c for c in self.game.components},
                   title=self.game.title)
        return ctx


def source_path(game: Game, kind: str) -> Path:
    return game.root / SOURCES[kind]


def table_sections(game: Game, kind: str = "sheet") -> dict[str, str]:
    """The heading each ``table('ID')`` call of the game's ``kind`` source stands under (ID ->
    the heading's text, Markdown marks left out); {} when the source cannot be read."""
    try:
        text = game.rules_text.get(kind) or source_path(game, kind).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    out, heading = {}, ""
    for line in text.splitlines():
        found = re.match(r"#{1,3} +(.+?)\s*$", line)
        if found:
            heading = re.sub(r"[*_`]", "", found.group(1))
        for table_id in re.findall(r"table\(\s*['\"]([\w.-]+)['\"]", line):
            out.setdefault(table_id, heading)
    return out


def render_source(game: Game, kind: str) -> tuple[str | None, list[Diagnostic]]:
    """The Markdown of the game's ``kind`` source ("rulebook" or "sheet"), or None if absent/broken."""
    path = source_path(game, kind)
    name = display_path(path)
    if not os.path.lexists(path):
        return None, [diag(RULES_MISSING, f"{game.slug} has no {SOURCES[kind]}", file=name,
                           hint=f"write the {kind} as Markdown with jinja2 in {name}")]
    inside = resolve_inside(game.root, SOURCES[kind], file=name, what="rules source", must_exist=True)
    if isinstance(inside, Diagnostic):
        return None, [inside]
    macros = Macros(game)
    try:
        raw = read_limited(path, display=name)
        text = game.rules_text.get(kind) or raw.decode("utf-8")  # a translated game: its translated source
        template = strict_template(text)
        return evaluate(template.render, macros.context()), []
    except InputFileError as exc:
        return None, [exc.diagnostic]
    except TemplateSyntaxError as exc:
        if macros.failure is not None:  # a template in game.yaml data: at its line there
            return None, [macros.failure]
        return None, [diag(RULES_TEMPLATE, exc.message or str(exc), file=name, line=exc.lineno or 0)]
    except UnicodeDecodeError as exc:
        return None, [undecodable(raw, exc, RULES_TEMPLATE, name)]
    except BudgetExceeded as exc:
        if macros.failure is not None:
            return None, [macros.failure]
        return None, [diag(TEMPLATE_BUDGET, f"{SOURCES[kind]} was stopped: {exc}", file=name,
                           line=_template_line(exc.__cause__ or exc),
                           hint="the rules render the game's data once; simplify the template")]
    except (TemplateFailure, TemplateError, KeyError, TypeError, ValueError, OSError) as exc:
        cause = exc.__cause__ or exc if isinstance(exc, TemplateFailure) else exc
        message = str(exc) if isinstance(exc, TemplateFailure) else f"{type(exc).__name__}: {exc}"
        if macros.failure is not None:  # a template in game.yaml data: at its line there
            return None, [macros.failure]
        if game.misshapen:  # it read a card field of the wrong shape, most likely: the schema error says so
            return None, [diag(CHECKS_SKIPPED, f"{SOURCES[kind]} not rendered ({message}): "
                               f"{len(game.misshapen)} card(s) break their schema", file=name,
                               line=_template_line(cause), hint="fix the schema errors of the cards first")]
        return None, [diag(RULES_TEMPLATE, message, file=name, line=_template_line(cause))]


def data_failure(game: Game, where: tuple, text: str, exc: BaseException) -> Diagnostic:
    """The diagnostic of a template in game.yaml data (``where``: its path there) that failed
    while a rules source rendered it: at the string's line in game.yaml, plus the template's
    own line inside the string when it has several."""
    src = game.source
    line, column = src.line(*where), src.column(*where)
    inner = _template_line(exc.__cause__ or exc) if not isinstance(exc, TemplateSyntaxError) else exc.lineno or 0
    if isinstance(exc, (BudgetExceeded, RecursionError)):
        code, message = TEMPLATE_BUDGET, f"was stopped: {exc if isinstance(exc, BudgetExceeded) else 'it calls itself without end (recursion)'}"
    elif isinstance(exc, TemplateSyntaxError):
        code, message = RULES_TEMPLATE, f"does not parse: {exc.message}"
    else:
        code, message = RULES_TEMPLATE, f"fails: {exc if isinstance(exc, TemplateFailure) else f'{type(exc).__name__}: {exc}'}"
    if inner > 1 and "\n" in text:
        line, column = src.lines.in_string(src.path + tuple(where), text, len("\n".join(text.split("\n")[:inner - 1])) + 1)
    return diag(code, f"the template {text[:60]!r} in {'.'.join(map(str, where))} {message}", file=src.file,
                line=line, column=column, hint="the rules print this game.yaml string; fix its jinja2 there")


def table_source_line(game: Game, kind: str, name: str) -> tuple[str, int]:
    """(file, line) of a table in a rules source: the ``table('name')`` call, or the Markdown
    table whose header names it; line 1 when it cannot be told."""
    path = source_path(game, kind)
    try:
        lines = read_limited(path, display=display_path(path)).decode("utf-8").splitlines()
    except (OSError, UnicodeDecodeError, InputFileError):
        return display_path(path), 1
    call = re.compile(r"table\(\s*['\"]" + re.escape(name) + r"['\"]")
    first = name.split(" | ")[0].strip()
    for n, line in enumerate(lines, 1):
        if call.search(line):
            return display_path(path), n
    for n, line in enumerate(lines, 1):
        if line.lstrip().startswith("|") and first and first in line:
            return display_path(path), n
    return display_path(path), 1


def _template_line(exc: BaseException) -> int:
    tb = exc.__traceback__
    line = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


if __name__ == "__main__":  # python -m cardforge.documents.source <slug> [rulebook|sheet]
    import sys

    from cardforge.sources.load import load_game

    game, problems = load_game(Path("cards") / sys.argv[1])
    text, more = render_source(game, sys.argv[2] if len(sys.argv) > 2 else "rulebook")
    for d in problems + more:
        print(d.format(), file=sys.stderr)
    print(text or "")
