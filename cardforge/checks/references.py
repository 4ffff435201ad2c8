"""References: names in card text and in lists resolve to something that exists.

Two sources of references:

* **Card text.** Runs of capitalised words ("Silver Apple", "Bag of Fairy Dust") are
  compared with the game's card names (leading articles ignored). Only fields a card face
  prints are read (a text element's ``field``, or a ``card.FIELD`` its template names), and
  not a field whose schema allows only a few words (``enum``: a category, a deck's name on
  its back, never a reference). A run that nearly
  matches a card name without being one is a ``ref-unknown`` warning with a did-you-mean;
  a run that is like no card name is ordinary prose and is left alone.
* **Declared lists.** ``references:`` in game.yaml names data paths whose values must
  resolve, for example every revolution card a scenario lists::

      references:
        - in: game                        # game.yaml data, or a list of card types
          path: scenarios.*.revolution_cards.*
          to: cards                       # cards | icons | card_types | terms | <key>.*.<field>
          types: [revolution]             # (to: cards) which card types count

  A value that resolves to nothing is ``ref-unknown`` (warning), with a did-you-mean.
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any


from cardforge.sandbox import results as checkresults
from cardforge.checks.common import card_texts
from cardforge.util.diagnostics import REF_UNKNOWN, Diagnostic, diag
from cardforge.elements import kind_of
from cardforge.layout import LayoutSet
from cardforge.util.markup import TOKEN
from cardforge.model import Game, Source
from cardforge.util.suggest import did_you_mean

WORD = r"[A-Z][\w'’-]*"
CONNECTOR = r"(?:of|the|by|in|on|de|du|la)"
RUN = re.compile(rf"{WORD}(?:\s+(?:{CONNECTOR}\s+)*{WORD})*")
ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.I)
NEAR = 85.0


def _norm(name: str) -> str:
    return " ".join(ARTICLE.sub("", name.strip()).lower().replace("’", "'").split())


def check(game: Game, layouts: LayoutSet | None) -> list[Diagnostic]:
    return _text_references(game, layouts) + _declared(game)


def _printed(game: Game, layouts: LayoutSet | None, card) -> set[str] | None:
    """The top-level fields of ``card`` that read as card text: printed by its layout, no enum
    of its schema (None: every field, when there is no layout or it prints through a table)."""
    from cardforge.elements.text import CARD_FIELD

    if layouts is None:
        return None
    try:
        layout = layouts.for_card(card)
    except Exception:  # a card without a layout is reported by the layout checks
        return None
    fields: set[str] = set()
    for face in (layout.front, layout.back):
        for el in face.elements if face is not None else ():
            if kind_of(el).has_rows:
                return None
            if kind_of(el).sets_text:
                fields |= {el.field} if el.field else {a or b for a, b in CARD_FIELD.findall(el.template or "")}
    card_type = game.card_types.get(card.type)
    schema = card_type.schema if card_type is not None else None
    props = schema.get("properties") if isinstance(schema, dict) else None
    if isinstance(props, dict):
        fields -= {k for k, v in props.items() if isinstance(v, dict) and "enum" in v}
    return fields


def _text_references(game: Game, layouts: LayoutSet | None = None) -> list[Diagnostic]:
    names = {_norm(c.name): c.name for c in game.cards}
    found = []
    near: dict[str, str | None] = {}  # run -> the card name it is a near miss of (None: none); runs recur
    vocabulary = checkresults.words_digest(names)
    printed: dict[tuple[str, int], set[str] | None] = {}
    for card in game.cards:
        key = (card.type, layouts.name_for(card) if layouts is not None else "",
               id(card) if isinstance(card.data.get("layout"), dict) else 0)
        if key not in printed:
            printed[key] = _printed(game, layouts, card)
        for field in card_texts(card):
            if printed[key] is not None and field.path[0] not in printed[key]:
                continue
            text = TOKEN.sub(lambda m: " " * len(m.group(0)), field.text)  # hide icon tokens, keep offsets
            for match in RUN.finditer(text):
                run = _norm(match.group(0))
                if run not in near:
                    near[run] = _near(run, vocabulary, names)
                best = near[run]
                if best is not None:
                    line, col = field.position(match.start())
                    found.append(diag(REF_UNKNOWN, f"{card.label}: \"{match.group(0)}\" names no card",
                                      file=card.source.file, line=line, column=col,
                                      hint=f'did you mean "{names[best]}"?', card=card.name))
    return found


def _near(run: str, vocabulary: bytes, names: dict[str, str]) -> str | None:
    """:func:`_near_miss`, or None when ``run`` was no near miss of the same card names
    before (:mod:`cardforge.sandbox.results`: a near miss is found afresh every time)."""
    best: list[str | None] = [None]

    def clean() -> bool:
        best[0] = _near_miss(run, names)
        return best[0] is None
    return None if checkresults.passed(("near-name", run, vocabulary) if vocabulary else (), clean) else best[0]


def _near_miss(run: str, names: dict[str, str]) -> str | None:
    """The (normalised) card name ``run`` is a near miss of, or None (a name, its plural or first words)."""
    if run in names or run.rstrip("s") in names or len(run) < 4:  # a name, or its plural
        return None
    if any(n.startswith(run + " ") for n in names):  # the first words of a name ("Infamy" of "Infamy 1")
        return None
    from rapidfuzz import fuzz

    best = max(names, key=lambda n: fuzz.ratio(run, n))
    return best if fuzz.ratio(run, best) >= NEAR else None


def _walk(value: Any, parts: list[str], path: tuple) -> Iterator[tuple[tuple, Any]]:
    if not parts:
        yield path, value
        return
    head, rest = parts[0], parts[1:]
    if head == "*":
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        for key, sub in items:
            yield from _walk(sub, rest, path + (key,))
    elif isinstance(value, dict) and head in value:
        yield from _walk(value[head], rest, path + (head,))


def _targets(game: Game, spec: dict) -> set[str] | None:
    to = spec.get("to", "cards")
    if to == "cards":
        types = spec.get("types")
        return {c.name for c in game.cards if not types or c.type in types}
    if to == "icons":
        return set(game.icons)
    if to == "card_types":
        return set(game.card_types)
    if to == "terms":
        return set(game.glossary)
    values = {v for _, v in _walk(game.data, to.split("."), ())}
    return {str(v) for v in values} if values else None


def _declared(game: Game) -> list[Diagnostic]:
    found = []
    src = game.source
    for n, spec in enumerate(game.data.get("references") or []):
        targets = _targets(game, spec)
        where = dict(file=src.file, line=src.line("references", n))
        if targets is None:
            found.append(diag(REF_UNKNOWN, f"reference rule #{n + 1}: `to: {spec.get('to')}` finds nothing in game.yaml", **where))
            continue
        parts = str(spec.get("path", "")).split(".")
        scope = spec.get("in", "game")
        places: list[tuple[Source, Any, str]] = []
        if scope == "game":
            places.append((src, game.data, ""))
        else:
            scope_types = scope if isinstance(scope, list) else [scope]
            places += [(c.source, c.data, c.name) for c in game.cards if c.type in scope_types]
        for source, data, card_name in places:
            for path, value in _walk(data, parts, ()):
                items = value if isinstance(value, list) else [value]
                for k, item in enumerate(items):
                    if str(item) in targets:
                        continue
                    at = path + ((k,) if isinstance(value, list) else ())
                    label = "/".join(str(p) for p in at)
                    found.append(diag(REF_UNKNOWN,
                                      f"{(card_name + ': ') if card_name else ''}{label}: \"{item}\" names no "
                                      f"{spec.get('to', 'cards') if spec.get('to', 'cards') != 'cards' else 'card'}"
                                      f"{' of type ' + '/'.join(spec['types']) if spec.get('types') else ''}",
                                      file=source.file, line=source.line(*at), column=source.column(*at),
                                      hint=did_you_mean(str(item), targets), card=card_name))
    return found
