"""Every in-memory memo is declared once in cardforge.cache.registry, bounded, and emptied
with the caches: a ``cardforge serve`` running for hours keeps each within its limit."""
from __future__ import annotations

import ast
from pathlib import Path

from cardforge.cache import memo, registry
from cardforge.cache.memo import Bounded, Memo
from conftest import run_cli

PACKAGE = Path(__file__).resolve().parents[1] / "cardforge"
HOME = PACKAGE / "cache" / "memo.py"  # the one module that may call lru_cache


def _memo_decorators(tree: ast.AST) -> list[int]:
    """Lines naming ``lru_cache`` or ``functools.cache`` (an import, a decorator, a call)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "functools":
            found += [node.lineno for a in node.names if a.name in ("lru_cache", "cache")]
        elif isinstance(node, ast.Attribute) and node.attr in ("lru_cache", "cache") \
                and isinstance(node.value, ast.Name) and node.value.id == "functools":
            found.append(node.lineno)
    return found


def test_no_memo_outside_the_registry():
    stray = {f"{p.relative_to(PACKAGE.parent)}:{line}" for p in PACKAGE.rglob("*.py") if p != HOME
             for line in _memo_decorators(ast.parse(p.read_text(encoding="utf-8")))}
    assert not stray, "memoise through a Memo of cardforge/cache/registry.py: " + ", ".join(sorted(stray))


def test_every_memo_is_listed_bounded_and_named_once():
    declared = [v for v in vars(registry).values() if isinstance(v, Memo)]
    assert set(map(id, declared)) == set(map(id, registry.MEMOS))
    names = [m.name for m in registry.MEMOS]
    assert len(names) == len(set(names))
    assert all(isinstance(m.limit, int) and m.limit > 0 for m in registry.MEMOS)
    assert not set(names) & {c.name for c in registry.CACHES}  # cache info tells them apart


def test_a_bounded_mapping_drops_the_least_recently_used():
    kept = Bounded(3)
    for key in "abc":
        kept[key] = key.upper()
    assert kept.get("a") == "A"  # a use: "b" is now the oldest
    kept["d"] = "D"
    assert list(kept) == ["c", "a", "d"] and kept.get("b") is None
    kept["c"] = "C2"  # setting an existing key keeps the size
    assert len(kept) == 3 and list(kept)[-1] == "c"


def test_a_memoised_function_keeps_at_most_its_limit():
    memo = Memo("test-squares", 5, "a number", "nothing")
    square = memo.function(lambda n: n * n)
    assert [square(n) for n in range(20)] == [n * n for n in range(20)]
    assert memo.entries() == 5
    memo.clear()
    assert memo.entries() == 0


def test_clearing_the_caches_empties_every_memo(tmp_path):
    from cardforge.model.fontmetrics import chars
    from cardforge.render.colors import color
    from cardforge.resolve import text

    color("#123456")
    chars("sans")
    text._FITS[("key",)] = "block"
    assert registry.COLOURS.entries() and registry.TEXT_FITS.entries() and registry.FONT_FACES.entries()
    registry.clear(tmp_path / "output", "project")
    assert all(m.entries() == 0 for m in registry.MEMOS), {m.name: m.entries() for m in registry.MEMOS if m.entries()}


def test_cache_info_lists_the_memos_with_their_limits(tmp_path):
    info = run_cli("cache", "info", "--root", str(tmp_path))
    assert info.exit_code == 0
    memos = info.stdout.split("in-memory memos", 1)[1].splitlines()[2:]
    rows = {line.split()[0]: line.split()[1] for line in memos if line.strip()}
    assert rows == {m.name: f"{m.limit:,}" for m in registry.MEMOS}


def test_a_per_object_memo_lets_go_of_an_entry_with_its_object():
    """A schema validator made again for each edit of a long serve leaves no entry (and no
    validator) behind once it is collected; the schema's key is still worked out once per
    validator."""
    import gc
    import weakref

    from jsonschema import Draft202012Validator

    from cardforge.validation import _SCHEMA_KEYS, _schema_key

    before = len(_SCHEMA_KEYS)
    kept = []
    for n in range(20):
        validator = Draft202012Validator({"type": "object", "title": f"card type {n}"})
        assert _schema_key(validator) == _schema_key(validator) is not None
        kept.append(weakref.ref(validator))
        del validator
    gc.collect()
    assert all(ref() is None for ref in kept)  # the memo held none of them alive
    assert len(_SCHEMA_KEYS) <= before
    memo = Memo("test-objects", 4, "an object", "nothing").per_object()
    holders = [{"plain": n} for n in range(6)]  # a dict takes no weak reference: kept, to the limit
    for n, obj in enumerate(holders):
        memo.keep(obj, n)
    assert len(memo) == 4 and memo.find(holders[5]) == 5 and memo.find(holders[0]) is None


def test_a_sweep_drops_what_two_rounds_did_not_use():
    memo = Memo("test-sweep", 100, "a number", "nothing")
    kept = memo.mapping()
    kept["old text"], kept["shared"], kept["other game"] = 1, 2, 3
    memo.sweep()  # round 1 ends: all three were set in it
    assert kept.get("shared") == 2  # round 2 reads one
    kept["new text"] = 4
    memo.sweep()  # round 2 ends: the others were last used in round 1, kept a round more
    assert set(kept) == {"old text", "shared", "other game", "new text"}
    kept.get("new text")
    memo.sweep()  # round 3 ends: unused in rounds 2 and 3, two are gone
    assert set(kept) == {"shared", "new text"}
    memo.sweep()
    memo.sweep()
    assert not kept


def test_giving_back_memory_keeps_what_the_last_build_used_and_changes_no_output(tmp_path):
    """``serve`` calls ``give_back`` after each round: a build right after it gives the same bytes."""
    import shutil

    from cardforge.build import BuildOptions, Project
    from cardforge.incremental import build_games
    from conftest import FIXTURES

    shutil.copytree(FIXTURES / "project", tmp_path / "p")
    project = Project(tmp_path / "p")
    memo.clear(registry.MEMOS)  # what earlier tests of this process kept is not this build's
    [first] = build_games(project, [project.cards / "mini"], BuildOptions(), use_cache=False, only=("deck.pdf",))
    before = (project.output / "mini" / "deck.pdf").read_bytes()
    fits = registry.TEXT_FITS.entries()
    registry.give_back()
    registry.give_back()  # the build's entries were used in the round before: still there
    assert registry.TEXT_FITS.entries() == fits > 0
    shutil.rmtree(project.output)
    [again] = build_games(project, [project.cards / "mini"], BuildOptions(), use_cache=False, only=("deck.pdf",))
    assert first.ok and again.ok and (project.output / "mini" / "deck.pdf").read_bytes() == before


def test_a_bounded_mapping_keeps_no_trace_of_what_it_dropped():
    """A process that never sweeps (a plain build of a large deck) must not keep the keys of
    entries dropped past the limit."""
    kept = Bounded(3)
    for n in range(100):
        kept[n] = n
    assert list(kept) == [97, 98, 99] and kept.used == {97, 98, 99}


def test_a_memo_turned_off_keeps_nothing_and_the_others_keep_theirs(monkeypatch):
    monkeypatch.setenv(memo.CACHE_OFF, "one-off, paragraphs")
    off, on = Memo("one-off", 8, "a key", "nothing"), Memo("kept-on", 8, "a key", "nothing")
    calls: list[int] = []
    square = off.function(lambda n: calls.append(n) or n * n)
    assert [square(3), square(3)] == [9, 9] and calls == [3, 3]
    mapping, kept = off.mapping(), on.mapping()
    mapping["k"] = kept["k"] = 1
    assert "k" not in mapping and kept["k"] == 1
    assert registry.PARAGRAPHS.kept == 0 and registry.TEXT_FITS.kept == registry.TEXT_FITS.limit


def test_a_rules_sheet_parses_each_markdown_text_once_however_many_sizes_it_tries(monkeypatch):
    """The rules sheet lays its Markdown out at several type sizes (and again with tables
    moved): each distinct text is parsed by mistune once (the markdown memo)."""
    from cardforge.build import Project, compile_game
    from cardforge.documents import compose, flow
    from cardforge.documents.sheet import compile_sheet
    from conftest import REPO

    monkeypatch.setenv("CARDFORGE_CACHE_OFF", "type-sizes")  # every size searched, none read from an earlier build
    project = Project(REPO)
    game = compile_game(project.cards / "through-the-gate", project).game
    parsed, sizes = [], []
    real_parse, real_sheet = flow.PARSE, compose.Sheet.__init__
    monkeypatch.setattr(flow, "PARSE", lambda text: parsed.append(text) or real_parse(text))
    monkeypatch.setattr(compose.Sheet, "__init__", lambda self, *a, **k: sizes.append(a[1].base) or real_sheet(self, *a, **k))
    memo.clear(registry.MEMOS)
    fit, _ = compile_sheet(game)
    assert fit is not None and fit.fits
    assert len(sizes) > len(set(parsed)) >= 1, "the sheet tried one layout per text: nothing to share"
    assert sorted(parsed) == sorted(set(parsed))
