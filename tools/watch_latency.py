#!/usr/bin/env python3
"""How long ``cardforge watch`` takes from saving a one-card edit to its diagnostics, to an
updated deck.pdf and to every output of the game in place.

Copies the project's packs and layouts to a temporary folder, starts ``python -m cardforge
watch GAME`` there (a fresh process, as a designer runs it), waits for its first build, then
``--edits`` times: appends a word to one card's text in the game's card file, saves, and
times three moments from the save: the watcher prints that the game is **checked** (its
errors and warnings are on screen), ``output/GAME/deck.pdf`` **changes** (its modification
time and size, polled every 5 ms), and the watcher prints the rebuild's summary line (every
output **in place**). Prints each latency, the medians and the machine's load average, and
each median in floor units too: seconds divided by the seconds the team's bare-ReportLab
floor (``tools/bench.py``'s ``reportlab_floor.py``, lean mode) takes to draw 1,000 cards, run
once before the watcher starts (when that script is there); ``--json`` writes the same.

    python tools/watch_latency.py [GAME] [--edits 7] [--jobs N] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
SUMMARY = re.compile(r"^(?:\d+ errors?, .*|no problems found) \(\d+\.\d+ s\)$", re.M)  # a rebuild's last line
MOMENTS = ("checked", "deck", "in_place")


def stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def card_file(pack: Path) -> Path:
    return next(p for p in sorted(pack.glob("*.yaml")) if p.name not in ("game.yaml", "errata.yaml")
                and "text: |-" in p.read_text(encoding="utf-8"))


def counts(log: Path, game: str) -> tuple[int, int]:
    """(lines saying ``game`` is checked, rebuild summary lines) the watcher has printed so far."""
    text = log.read_text(encoding="utf-8", errors="replace")
    return text.count(f"checked {game}:"), len(SUMMARY.findall(text))


def moments(log: Path, game: str, deck: Path, timeout: float = 60) -> dict[str, float | None]:
    """Seconds from now until each of :data:`MOMENTS` (None for one not seen in ``timeout``)."""
    started = time.perf_counter()
    checked0, summaries0 = counts(log, game)
    before = stamp(deck)
    seen: dict[str, float | None] = dict.fromkeys(MOMENTS)
    while time.perf_counter() - started < timeout and seen["in_place"] is None:
        now = time.perf_counter() - started
        checked, summaries = counts(log, game)
        if seen["checked"] is None and checked > checked0:
            seen["checked"] = now
        if seen["deck"] is None and stamp(deck) != before:
            seen["deck"] = now
        if summaries > summaries0:
            seen["in_place"] = now
        time.sleep(0.005)
    return {k: round(v, 3) if v is not None else None for k, v in seen.items()}


def latency(game: str = "through-the-gate", edits: int = 7, jobs: int | None = None) -> list[dict[str, float | None]]:
    """Start ``cardforge watch game`` in a copy of the project's packs and layouts, wait for
    its first build, then save ``edits`` one-card edits one by one: for each, the seconds from
    the save to each of :data:`MOMENTS` (see the module's docstring), printed as it goes."""
    root = Path(tempfile.mkdtemp(prefix="cardforge-watch-"))
    shutil.copytree(ROOT / "cards", root / "cards")
    shutil.copytree(ROOT / "layouts", root / "layouts")
    deck, log_path = root / "output" / game / "deck.pdf", root / "watch.log"
    cmd = [sys.executable, "-m", "cardforge", "watch", game, "--root", str(root)]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    log = open(log_path, "w")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                            env=dict(os.environ, COLUMNS="200"))
    runs = []
    try:
        deadline = time.monotonic() + 300
        while "watching" not in log_path.read_text(encoding="utf-8", errors="replace"):
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("the watcher did not finish its first build:\n" + log_path.read_text())
            time.sleep(0.05)
        time.sleep(1.0)  # the watcher is listening
        path = card_file(root / "cards" / game)
        import bench

        for n in range(edits):
            bench.append_word(path, str(n))
            seen = moments(log_path, game, deck)
            runs.append(seen)
            shown = (f"{k} {v:.2f} s" if v is not None else f"{k} -" for k, v in seen.items())
            print(f"edit {n + 1}: " + ", ".join(shown))
            time.sleep(1.0)
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        shutil.rmtree(root, ignore_errors=True)
    return runs


def medians(runs: list[dict[str, float | None]]) -> dict[str, float | None]:
    """The median seconds of each of :data:`MOMENTS` over ``runs`` (None when never seen)."""
    found = {}
    for key in MOMENTS:
        done = [r[key] for r in runs if r[key] is not None]
        found[key] = round(statistics.median(done), 3) if done else None
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="through-the-gate")
    parser.add_argument("--edits", type=int, default=7)
    parser.add_argument("--jobs", type=int, default=None, help="passed to cardforge watch --jobs")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    import bench

    measured = bench.floor(1000, bench.FLOOR)
    floor_s = round(measured["seconds"] * 1000 / measured["cards"], 3) if measured else None
    runs = latency(args.game, args.edits, args.jobs)
    middle = medians(runs)
    report = {"game": args.game, "edits": runs, "median_s": middle, "floor_1000_s": floor_s,
              "load_average": os.getloadavg()[0]}
    print("median: " + ", ".join(f"{k} {v} s" for k, v in middle.items())
          + f" (load average {report['load_average']:.1f})")
    if floor_s:
        report["median_floor_units"] = {k: round(v / floor_s, 2) if v is not None else None for k, v in middle.items()}
        print(f"floor: 1,000 cards in {floor_s:.2f} s; in floor units: "
              + ", ".join(f"{k} {v}" for k, v in report["median_floor_units"].items()))
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")

if __name__ == "__main__":
    main()
