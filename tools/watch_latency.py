#!/usr/bin/env python3
"""How long ``cardforge watch`` takes from saving a one-card edit to an updated deck.pdf.

Copies the project's packs and layouts to a temporary folder, starts ``python -m cardforge
watch GAME`` there (a fresh process, as a designer runs it), waits for its first build, then
``--edits`` times: appends a word to one card's text in the game's card file, saves, and
waits until ``output/GAME/deck.pdf`` changes (its modification time and size, polled every
5 ms). Prints each latency, their median and the machine's load average; ``--json`` writes
the same.

    python tools/watch_latency.py [GAME] [--edits 5] [--jobs N] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size


def wait_change(path: Path, before, timeout: float) -> float | None:
    """Seconds until ``path``'s (mtime, size) differs from ``before`` (None after ``timeout``)."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        now = stamp(path)
        if now is not None and now != before:
            return time.perf_counter() - started
        time.sleep(0.005)
    return None


def card_file(pack: Path) -> Path:
    return next(p for p in sorted(pack.glob("*.yaml")) if p.name not in ("game.yaml", "errata.yaml")
                and "text: |-" in p.read_text(encoding="utf-8"))


def edit(path: Path, n: int) -> None:
    """Append a word to the first text block of ``path`` (saved as an editor would: in place)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if line.rstrip().endswith("text: |-"))
    lines[first + 1] = lines[first + 1].rstrip("\n") + f" {n}\n"
    path.write_text("".join(lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="through-the-gate")
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--jobs", type=int, default=None, help="passed to cardforge watch --jobs")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="cardforge-watch-"))
    shutil.copytree(ROOT / "cards", root / "cards")
    shutil.copytree(ROOT / "layouts", root / "layouts")
    deck = root / "output" / args.game / "deck.pdf"
    cmd = [sys.executable, "-m", "cardforge", "watch", args.game, "--root", str(root)]
    if args.jobs:
        cmd += ["--jobs", str(args.jobs)]
    log = open(root / "watch.log", "w")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    latencies = []
    try:
        if wait_change(deck, None, 300) is None:
            raise SystemExit("the first build wrote no deck.pdf")
        while "watching" not in (root / "watch.log").read_text():
            time.sleep(0.05)
        time.sleep(1.0)  # the watcher is listening
        path = card_file(root / "cards" / args.game)
        for n in range(args.edits):
            before = stamp(deck)
            edit(path, n)
            took = wait_change(deck, before, 60)
            latencies.append(round(took, 3) if took is not None else None)
            print(f"edit {n + 1}: deck.pdf updated after {took:.2f} s" if took is not None else f"edit {n + 1}: no update")
            time.sleep(15)  # let the rest of the rebuild (rules, reference) finish
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        shutil.rmtree(root, ignore_errors=True)
    done = [t for t in latencies if t is not None]
    report = {"game": args.game, "latencies_s": latencies, "median_s": round(statistics.median(done), 3) if done else None,
              "load_average": os.getloadavg()[0]}
    print(f"median {report['median_s']} s over {len(done)} edits (load average {report['load_average']:.1f})")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
