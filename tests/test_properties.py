"""Property tests: random and mutated card files, game.yaml and layouts never crash cardforge.

Hypothesis mutates the small fixture pack (``tests/fixtures/project``, game ``mini``) -- the
text of its card file byte by byte, and the data of its card file, game.yaml and layout
value by value -- and runs loading, schema validation and the checks on each result. Any
exception is a failure: broken input must come back as diagnostics with registered codes.
Derandomised (the same examples on every run, in CI too); a few thousand examples in all.
"""
from __future__ import annotations

import copy
import shutil
import tempfile
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardforge.checks import counts, faces, icons, references, declared, text, textfit, values
from cardforge.util.diagnostics import CODES, Diagnostic
from cardforge.sources.errata import apply_errata
from cardforge.layout import load_layouts
from cardforge.sources.load import _load_card_file, load_game
from cardforge.validation import validate
from cardforge.validation.cards import card_type_validators, validate_cards
from tests.conftest import FIXTURES

SETTINGS = dict(derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
WORK = Path(tempfile.mkdtemp(prefix="cardforge-properties-", dir="/dev/shm" if Path("/dev/shm").is_dir() else None))
ROOT = WORK / "project"
shutil.copytree(FIXTURES / "project", ROOT)
PACK = ROOT / "cards" / "mini"
BASE = {name: (PACK / name).read_text(encoding="utf-8") for name in ("cards.yaml", "game.yaml")}
BASE["layout"] = (ROOT / "layouts" / "mini.yaml").read_text(encoding="utf-8")
GAME, _ = load_game(PACK)
LAYOUTS, _ = load_layouts(GAME, ROOT / "layouts")
VALIDATORS, _ = card_type_validators(GAME)  # built once: the schemas do not change here
TRICKY = ["\x00", "\x01", "\x07", "\x1b", "\t", "\n", "\r", " ", ":", "- ", "[", "]", "{", "}", "&a ", "*a", "<<: *a",
          "!!python/object/apply:os.system ['true']", "!!binary", "|", ">", "'", '"', "#", "%", "@", "`", ",", "?",
          "\\", "\u202e", "\u2066", "\ufeff", "\U0001f525", "太", "é", "{sun", "{Sun}", "{{", "}}", "{% for %}",
          "1e999", ".nan", "-.inf", "0x1F", "2026-13-45", "~", "null", "true", "quantity: 999999999", "    "]
SCALARS = (st.none() | st.booleans() | st.integers(min_value=-10**12, max_value=10**12) | st.floats(allow_nan=True)
           | st.sampled_from(TRICKY) | st.text(max_size=12))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=6) | st.integers(0, 9), inner, max_size=3), max_leaves=6)
CHECKS = (text.check, icons.check, references.check, counts.check, declared.check)


def assert_diagnostics(found: list) -> None:
    for d in found:
        assert isinstance(d, Diagnostic), d
        assert d.code in CODES, d.code


def paths(data, prefix=()):
    """Every path to a value inside ``data`` (mappings and lists)."""
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, prefix + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from paths(value, prefix + (i,))


@st.composite
def text_mutation(draw, base: str) -> str:
    text = base
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "duplicate-line"]))
        piece = draw(st.sampled_from(TRICKY) | st.text(max_size=3))
        if op == "insert":
            text = text[:at] + piece + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)):]
        elif op == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        else:
            lines = text.splitlines(keepends=True)
            if lines:
                n = draw(st.integers(0, len(lines) - 1))
                lines.insert(draw(st.integers(0, len(lines))), lines[n])
                text = "".join(lines)
    return text


@st.composite
def data_mutation(draw, base: str) -> str:
    data = yaml.safe_load(base)
    for _ in range(draw(st.integers(1, 3))):
        all_paths = list(paths(data))
        path = all_paths[draw(st.integers(0, len(all_paths) - 1))]
        value = draw(VALUES)
        if not path:
            data = value
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()) or not isinstance(parent, dict):
            parent[path[-1]] = value
        else:
            parent[draw(st.text(max_size=6) | st.sampled_from(["name", "type", "quantity", "size", "font", "<<"]))] = value
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def check_card_file(text_: str, tmp: Path) -> None:
    path = tmp / "cards.yaml"
    path.write_text(text_, encoding="utf-8", errors="surrogatepass")
    game = copy.copy(GAME)
    game.cards = []
    found = _load_card_file(game, path)
    for card in game.cards:
        found += validate(card.data, VALIDATORS[card.type], card.source)
    game, more = apply_errata(game)
    found += more
    for check in CHECKS + (faces.check,):
        found += check(game, LAYOUTS)
    assert_diagnostics(found)


@settings(max_examples=700, **SETTINGS)
@given(text_mutation(BASE["cards.yaml"]))
def test_mutated_card_file_text_gives_diagnostics(mutated):
    check_card_file(mutated, WORK)


@settings(max_examples=500, **SETTINGS)
@given(data_mutation(BASE["cards.yaml"]))
def test_mutated_card_data_gives_diagnostics(mutated):
    check_card_file(mutated, WORK)


@settings(max_examples=300, **SETTINGS)
@given(st.lists(st.dictionaries(st.sampled_from(["name", "type", "power", "cost", "text", "quantity"]) | st.text(max_size=4),
                                VALUES, max_size=6), max_size=4))
def test_random_cards_give_diagnostics(cards):
    check_card_file(yaml.safe_dump({"cards": cards}, allow_unicode=True), WORK)


@settings(max_examples=300, **SETTINGS)
@given(data_mutation(BASE["game.yaml"]) | text_mutation(BASE["game.yaml"]))
def test_mutated_game_yaml_gives_diagnostics(mutated):
    pack = WORK / "game-pack"
    if not pack.exists():
        shutil.copytree(PACK, pack)
    (pack / "game.yaml").write_text(mutated, encoding="utf-8", errors="surrogatepass")
    game, found = load_game(pack)
    if game is not None:
        found += validate_cards(game)
        for check in CHECKS + (values.check,):
            found += check(game, None)
    assert_diagnostics(found)


@settings(max_examples=400, **SETTINGS)
@given(data_mutation(BASE["layout"]) | text_mutation(BASE["layout"]))
def test_mutated_layout_gives_diagnostics(mutated):
    folder = WORK / "layouts"
    folder.mkdir(exist_ok=True)
    (folder / "mini.yaml").write_text(mutated, encoding="utf-8", errors="surrogatepass")
    layouts, found = load_layouts(GAME, folder)
    if layouts is not None:
        found += values.check(GAME, layouts)
        insane = values.insane_layouts(layouts)
        layouts.by_type = {t: lay for t, lay in layouts.by_type.items() if t not in insane}
        found += faces.check(GAME, layouts)
        found += textfit.check(GAME, layouts)
    assert_diagnostics(found)
