#!/usr/bin/env python3
"""Benchmark: cardforge against bare ReportLab and against itself, measured in one run.

Prints one table and writes the same figures as JSON (``--json``, default
``output/bench.json``) so runs can be compared across commits:

- deck rendering, cards/s on one core: Through The Gate's deck repeated to about N cards
  (default 1,000) drawn with the full engine (layout, text fitting, icons, imposition,
  duplex backs), and its ratio to the floor, the team's ``../shared/bench/reportlab_floor.py``
  (lean mode: bare ReportLab drawing simple cards), run for the same N in the same run;
- the same deck drawn once before those, with an empty user cache (``first run``): every
  icon read from its SVG file; the runs after it write the icon forms it kept (see
  ``cardforge.render.icons.kept_form``), as a designer's later builds do;
- deck rendering of ``N`` distinct cards on one core: the same pack's cards, each copy
  with its own name and text, so no work done for one card serves another;
- deck rendering on all cores: the same deck drawn once with its sheets shared out among
  one process per core (``render_deck(jobs=N)``, page-level parallelism: the deck is one
  pack), cards/s, and its ratio to the floor's one-core rate;
- whole builds of every pack of the project, each in a fresh process as a user runs them:
  first (``--no-cache`` with an empty user cache: a designer's first build of these packs on
  the machine), cold (``--no-cache``: no project cache, the user caches of pure results
  such as type sizes and card pictures as earlier builds left them), unchanged (every
  output from the cache), one card edited (one
  game's outputs drawn again), and ``cardforge check`` unchanged (every game's diagnostics
  from the cache), after one card is edited (that game checked afresh) and ``--no-cache``;
- the designer's loop under ``cardforge watch``: ``2 x --repeat + 1`` one-card edits saved
  one by one, each timed from the save to the game checked, its deck.pdf in place and every
  output in place (``tools/watch_latency.py``), over a floor run just before;
- peak memory (max RSS) of a process drawing a 1,000-card and a 10,000-card deck;
- what each cache of the registry buys: its operation (an unchanged build, a build or a
  check after a one-card edit, a cold build) with every cache, and with that one turned off
  (``CARDFORGE_CACHE_OFF``; a memo of the registry so named keeps nothing).

Every timing is the median of ``--repeat`` runs (default 3). The machine's load average is
recorded with the figures: on a shared machine, compare ratios rather than seconds. The
floor is run beside the timings, not once for all of them: before each deck run, and once
per round of builds and checks, since a machine's speed drifts within minutes. A deck's
ratio is the median of each run's ratio to the floor run just before it; a build's or a
check's floor units, the median of each run's seconds over its round's floor (seconds for
1,000 cards). The floor unit printed is the median of every floor run (machines differ
about twofold in seconds; far less in floor units).

    python tools/bench.py [--cards 1000] [--repeat 3] [--json output/bench.json]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOOR_PLACES = [ROOT.parent / "shared", ROOT.parent.parent / "shared"]  # beside the checkout, or beside its folder
FLOOR = next((p / "bench" / "reportlab_floor.py" for p in FLOOR_PLACES if (p / "bench" / "reportlab_floor.py").is_file()),
             FLOOR_PLACES[0] / "bench" / "reportlab_floor.py")
DECK_PACK = "through-the-gate"


def deck_game(n: int, distinct: bool = False):
    """Through The Gate's compiled game with its cards repeated to about ``n`` copies; with
    ``distinct``, ``n`` cards of quantity 1 that all differ (each copy of a card gets its
    number in its name and its text), so nothing one card works out serves another."""
    from dataclasses import replace

    from cardforge.build import Project, compile_game

    compiled = compile_game(ROOT / "cards" / DECK_PACK, Project(ROOT))
    game = compiled.game
    if not distinct:
        per = max(1, round(n / game.total()))
        return replace(game, cards=[replace(c, quantity=c.quantity * per) for c in game.cards]), compiled.layouts
    cards, k = [], 0
    while len(cards) < n:
        for c in game.cards:
            if len(cards) == n:
                break
            k += 1
            data = {**c.data, "name": f"{c.name} {k}", "quantity": 1}
            for key, value in data.items():
                if key != "name" and isinstance(value, str) and len(value) > 20:
                    data[key] = f"{value} ({k})"
                    break
            cards.append(replace(c, name=data["name"], quantity=1, data=data))
    return replace(game, cards=cards), compiled.layouts


DRAWING_MODULES = ("reportlab.pdfgen.canvas", "reportlab.pdfbase.ttfonts", "PIL.Image", "cardforge.render.card",
                   "cardforge.render.deckpages", "cardforge.render.pagecache", "cardforge.render.sheet",
                   "cardforge.render.tiles", "cardforge.resolve.marks")  # what the deck imports on first use


def render_once(n: int, distinct: bool = False) -> dict:
    """Draw the ``n``-card deck once in this process (``distinct``: see :func:`deck_game`): seconds and cards.

    The clock starts after the drawing stage is imported, as the floor's starts after its
    imports: what is timed is drawing, not loading Python modules."""
    import importlib

    from cardforge.render.deck import render_deck

    for module in DRAWING_MODULES:
        importlib.import_module(module)

    game, layouts = deck_game(n, distinct)
    out = Path(tempfile.mkdtemp()) / "deck.pdf"
    started = time.perf_counter()
    render_deck(game, layouts, out)
    seconds = time.perf_counter() - started
    shutil.rmtree(out.parent, ignore_errors=True)
    return {"cards": game.total(), "seconds": seconds}


USER_CACHE = Path(tempfile.mkdtemp(prefix="cardforge-bench-cache-"))  # the deck children's user cache


def child(code: str) -> dict:
    """Run ``code`` (printing one JSON line) in a fresh Python that imports ``bench`` and
    ``cardforge`` from this checkout, whose user cache is :data:`USER_CACHE` (empty at first:
    the first deck drawn keeps its icon forms there, as a designer's first build does) and
    whose garbage collector keeps a cardforge command's pace
    (:func:`cardforge.util.processes.pace_collector`); adds its peak RSS in MiB."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    env = dict(os.environ, XDG_CACHE_HOME=str(USER_CACHE))
    code = (f"import sys; sys.path[:0] = [{str(ROOT / 'tools')!r}, {str(ROOT)!r}]; "
            f"from cardforge.util.processes import pace_collector; pace_collector(); {code}")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True, env=env)
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    result["max_rss_mib"] = round(after / 1024, 1) if after > before else None
    return result


def one_core(n: int, distinct: bool = False) -> dict:
    return child(f"import json, bench; print(json.dumps(bench.render_once({n}, {distinct})))")


def rss(n: int) -> float:
    """Peak RSS (MiB) of a fresh process drawing an ``n``-card deck (read in the child itself)."""
    code = (f"import json, resource, bench; r = bench.render_once({n}); "
            "r['rss'] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024; print(json.dumps(r))")
    return round(child(code)["rss"], 1)


def render_pooled(n: int, jobs: int) -> dict:
    """Draw the ``n``-card deck once in this process with its sheets shared out among
    ``jobs`` processes (page-level parallelism): seconds and cards."""
    from cardforge.render.deck import render_deck

    game, layouts = deck_game(n)
    out = Path(tempfile.mkdtemp()) / "deck.pdf"
    started = time.perf_counter()
    render_deck(game, layouts, out, jobs=jobs)
    seconds = time.perf_counter() - started
    shutil.rmtree(out.parent, ignore_errors=True)
    return {"cards": game.total(), "seconds": seconds}


def all_cores(n: int, jobs: int) -> dict:
    """One deck of ``n`` cards drawn by ``jobs`` processes at once (its sheets shared out): cards/s."""
    return child(f"import json, bench; print(json.dumps(bench.render_pooled({n}, {jobs})))")


def floor(n: int, script: Path, mode: str = "lean") -> dict | None:
    if not script.is_file():
        return None
    out = Path(tempfile.mkdtemp()) / "floor.pdf"
    line = subprocess.run([sys.executable, str(script), str(n), str(out), mode], check=True, capture_output=True,
                          text=True).stdout.strip().splitlines()[-1]
    shutil.rmtree(out.parent, ignore_errors=True)
    return json.loads(line)


def cardforge(root: Path, *args: str, off: str = "", user_cache: Path | None = None) -> float:
    """Seconds a fresh ``python -m cardforge ARGS --root ROOT`` takes (it must succeed);
    ``off``: caches to leave unused (``CARDFORGE_CACHE_OFF``); ``user_cache``: the
    ``XDG_CACHE_HOME`` it runs with (the machine's own when None)."""
    env = dict(os.environ, CARDFORGE_CACHE_OFF=off)
    if user_cache is not None:
        env["XDG_CACHE_HOME"] = str(user_cache)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardforge", *args, "--root", str(root)], cwd=ROOT, check=True,
                   capture_output=True, env=env)
    return time.perf_counter() - started


# what each cache of cardforge.cache.registry is for, measured on: an unchanged build, a
# build after one card is edited, a check after one card is edited, a cold build (the
# previews cache serves cardforge serve, which the benchmark does not run); "paragraphs",
# "line-breaks" and "markdown" are memos of one process: the parses and broken lines of the
# ReportLab adapter (cardforge.render.backend) and the rules documents' Markdown parsed
GAINS = {"artefacts": "unchanged", "file-digests": "unchanged", "deck-pages": "one_card",
         "rules-memo": "one_card", "icon-forms": "one_card", "icon-pngs": "one_card", "type-sizes": "cold",
         "card-pictures": "cold", "rules-sheets": "one_card", "contents-pages": "cold",
         "template-code": "check_one_card",
         "font-metrics": "check_one_card", "yaml": "check_one_card", "builtin-schemas": "check_one_card",
         "schema-verdicts": "check_one_card", "check-results": "check_one_card", "paragraphs": "cold",
         "line-breaks": "cold", "markdown": "cold"}


def timed(root: Path, what: str, round_no: int, off: str = "") -> float:
    """One run of ``what`` (see :data:`GAINS`) on project ``root`` with the caches ``off`` unused."""
    if what == "unchanged":
        cardforge(root, "build", off=off)
        return cardforge(root, "build", off=off)
    if what == "cold":
        return cardforge(root, "build", "--no-cache", off=off)
    edit_one_card(root, round_no)
    if what == "one_card":
        return cardforge(root, "build", off=off)
    return cardforge(root, "check", off=off)


def cache_gains(repeat: int) -> dict:
    """For each cache: the median seconds of its operation with every cache, and without it."""
    root = project_copy()
    gains = {}
    try:
        cardforge(root, "build")  # fill every cache
        n = 1000
        for name, what in GAINS.items():
            with_it, without = [], []
            for _ in range(repeat):
                n += 1
                with_it.append(timed(root, what, n))
                n += 1
                without.append(timed(root, what, n, off=name))
            gains[name] = {"on": what, "with": median(with_it), "without": median(without)}
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return gains


def project_copy() -> Path:
    root = Path(tempfile.mkdtemp(prefix="cardforge-bench-"))
    shutil.copytree(ROOT / "cards", root / "cards")
    shutil.copytree(ROOT / "layouts", root / "layouts")
    return root


def edit_one_card(root: Path, round_no: int) -> None:
    """Change one card's printed text in Through The Gate (a word added to its first text block)."""
    append_word(root / "cards" / DECK_PACK / "deck.yaml", str(round_no))


def append_word(path: Path, word: str) -> None:
    """Append ``word`` to the first line of the first ``text: |-`` block of the card file
    ``path``, saved in place as an editor saves (one card's printed text changed)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.rstrip().endswith("text: |-"))
    lines[first + 1] = lines[first + 1].rstrip("\n") + f" {word}\n"
    path.write_text("".join(lines), encoding="utf-8")


def median(values: list[float]) -> float:
    return round(statistics.median(values), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=1000, help="cards in the rendering benchmark's deck")
    parser.add_argument("--big", type=int, default=10000, help="cards in the deck whose peak memory is measured")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (the median is reported)")
    parser.add_argument("--floor", type=Path, default=FLOOR, help="the floor script (reportlab_floor.py)")
    parser.add_argument("--json", type=Path, default=ROOT / "output" / "bench.json", help="where to write the JSON")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from cardforge.util.processes import default_jobs

    jobs = default_jobs()
    report: dict = {"cores": jobs, "load_average_before": os.getloadavg()[0]}
    try:
        report["commit"] = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                          text=True).stdout.strip()
    except OSError:
        pass

    floors: list[float] = []  # the floor's seconds for 1,000 cards, each run beside a timing

    def floor_unit(cards: int) -> float | None:
        """A floor run now, for the timing made next to it: its seconds for 1,000 cards."""
        found = floor(cards, args.floor)
        if found is None:
            return None
        floors.append(found["seconds"] * 1000 / found["cards"])
        return floors[-1]

    def rates(runs: list[tuple[dict, float | None]]) -> tuple[float, float | None]:
        """(median cards/s, median of each run's ratio to the floor run beside it)."""
        ratios = [r["cards"] / r["seconds"] * unit / 1000 for r, unit in runs if unit]
        return median([r["cards"] / r["seconds"] for r, _ in runs]), median(ratios) if ratios else None

    first = one_core(args.cards)  # nothing kept yet: every icon is read from its SVG file
    cards = first["cards"]
    first_unit = floor_unit(cards)
    ours, pooled, distinct = [], [], []
    for _ in range(args.repeat):  # each deck run right after a floor run: the machine's speed drifts
        ours.append((one_core(args.cards), floor_unit(cards)))
        pooled.append((all_cores(cards, jobs), floor_unit(cards)))
        distinct.append((one_core(args.cards, distinct=True), floor_unit(cards)))
    (one_rate, one_ratio), (pool_rate, pool_ratio) = rates(ours), rates(pooled)
    distinct_rate, distinct_ratio = rates(distinct)
    report["deck"] = {"cards": cards, "first_one_core_cards_per_s": round(first["cards"] / first["seconds"], 1),
                      "one_core_cards_per_s": round(one_rate, 1),
                      "all_cores_cards_per_s": round(pool_rate, 1),
                      "distinct_cards": distinct[0][0]["cards"], "distinct_one_core_cards_per_s": round(distinct_rate, 1)}
    if floors:
        report["floor_1000_s"] = median(floors)
        report["deck"].update(floor_cards_per_s=round(1000 / median(floors), 1), one_core_ratio=round(one_ratio, 2),
                              first_one_core_ratio=round(rates([(first, first_unit)])[1], 2),
                              all_cores_ratio=round(pool_ratio, 2), distinct_one_core_ratio=round(distinct_ratio, 2))

    root = project_copy()
    names = ("first", "cold", "unchanged", "one_card", "check", "check_one_card", "check_no_cache")
    timings: dict[str, list[tuple[float, float | None]]] = {name: [] for name in names}
    try:
        for i in range(args.repeat):
            unit = floor_unit(1000)  # this round's floor, for the builds and checks beside it
            shutil.rmtree(root / "output", ignore_errors=True)
            empty = Path(tempfile.mkdtemp(prefix="cardforge-bench-empty-"))
            timings["first"].append((cardforge(root, "build", "--no-cache", user_cache=empty), unit))
            shutil.rmtree(empty, ignore_errors=True)
            timings["cold"].append((cardforge(root, "build", "--no-cache"), unit))
            cardforge(root, "build")  # fills the cache
            timings["unchanged"].append((cardforge(root, "build"), unit))
            edit_one_card(root, i)
            timings["one_card"].append((cardforge(root, "build"), unit))
            timings["check"].append((cardforge(root, "check"), unit))  # nothing changed since that build
            edit_one_card(root, i + args.repeat)
            timings["check_one_card"].append((cardforge(root, "check"), unit))  # that game afresh, the others cached
            timings["check_no_cache"].append((cardforge(root, "check", "--no-cache"), unit))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    report["build_s"] = {name: median([s for s, _ in runs]) for name, runs in timings.items()}
    if floors:  # each time over the floor of its own round, then the median
        report["build_fu"] = {name: median([s / u for s, u in runs if u]) for name, runs in timings.items()}
    import watch_latency

    unit = floor_unit(1000)  # the designer's loop: one-card edits saved under cardforge watch
    report["watch_s"] = watch_latency.medians(watch_latency.latency(DECK_PACK, edits=2 * args.repeat + 1))
    if unit:
        report["watch_fu"] = {k: round(v / unit, 2) for k, v in report["watch_s"].items() if v is not None}
    report["peak_rss_mib"] = {str(args.cards): rss(args.cards), str(args.big): rss(args.big)}
    report["cache_gains_s"] = cache_gains(args.repeat)
    report["load_average_after"] = os.getloadavg()[0]
    shutil.rmtree(USER_CACHE, ignore_errors=True)

    print(table(report))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"\nwritten to {args.json}")


WATCH_ROWS = (("checked", "checked"), ("deck", "deck.pdf in place"), ("in_place", "every output in place"))


def table(r: dict) -> str:
    d, b, m = r["deck"], r["build_s"], r["peak_rss_mib"]
    ratio = (lambda key: f"{d[key]:.2f}x floor" if key in d else "no floor script")
    unit, units = r.get("floor_1000_s"), r.get("build_fu", {})
    fu = (lambda seconds: f"{seconds / unit:5.2f} floor units, " if unit else "")
    fu_of = (lambda key: f"{units[key]:5.2f} floor units, " if key in units else fu(b[key]))
    watched, watch_fu = r.get("watch_s", {}), r.get("watch_fu", {})
    rows = [
        ("deck, one core, first run", f"{d['first_one_core_cards_per_s']:,.0f} cards/s", ratio("first_one_core_ratio")),
        ("deck, one core", f"{d['one_core_cards_per_s']:,.0f} cards/s", ratio("one_core_ratio")),
        (f"deck, all {r['cores']} cores", f"{d['all_cores_cards_per_s']:,.0f} cards/s", ratio("all_cores_ratio")),
        (f"deck, one core, {d['distinct_cards']:,} distinct cards", f"{d['distinct_one_core_cards_per_s']:,.0f} cards/s",
         ratio("distinct_one_core_ratio")),
        ("floor (bare ReportLab, one core)", f"{d['floor_cards_per_s']:,.0f} cards/s" if "floor_cards_per_s" in d else "-", ""),
        ("floor, 1,000 cards (the floor unit)", f"{unit:.3f} s" if unit else "-", ""),
        ("build, first (--no-cache, empty user cache)", f"{b['first']:.2f} s", fu_of('first') + "every pack"),
        ("build, cold (--no-cache)", f"{b['cold']:.2f} s", fu_of('cold') + "every pack"),
        ("build, unchanged", f"{b['unchanged']:.2f} s", fu_of('unchanged') + "every pack"),
        ("build, one card edited", f"{b['one_card']:.2f} s", fu_of('one_card') + "every pack"),
        ("check, unchanged", f"{b['check']:.2f} s", fu_of('check') + "every pack"),
        ("check, one card edited", f"{b['check_one_card']:.2f} s", fu_of('check_one_card') + "every pack"),
        ("check --no-cache", f"{b['check_no_cache']:.2f} s", fu_of('check_no_cache') + "every pack"),
    ] + [(f"watch, one card edited: {label}", f"{watched[key]:.2f} s" if watched.get(key) is not None else "-",
          (f"{watch_fu[key]:5.2f} floor units, " if key in watch_fu else "") + "from the save")
         for key, label in WATCH_ROWS] + [
        (f"peak RSS, {int(n):,} cards", f"{v:.0f} MiB", "") for n, v in m.items()] + [
        (f"cache {name}", f"{g['with']:.2f} s", f"{fu(g['with'])}{g['without']:.2f} s without it "
         f"({g['on'].replace('_', ' ')})")
        for name, g in r.get("cache_gains_s", {}).items()]
    width = max(len(a) for a, _, _ in rows)
    lines = [f"cardforge benchmark ({d['cards']:,}-card deck, commit {r.get('commit', '?')}, "
             f"load average {r['load_average_before']:.1f} -> {r['load_average_after']:.1f})"]
    lines += [f"  {a:<{width}}  {v:>14}  {c}" for a, v, c in rows]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
