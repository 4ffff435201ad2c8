#!/usr/bin/env python3
"""Benchmark: cardforge's deck rendering against bare ReportLab, measured in the same run.

Renders Through The Gate's deck repeated to about N cards (default 1000) with cardforge's
full engine (layout, text fitting, inline SVG icons, imposition, duplex backs), then runs
the team's floor script (``../shared/bench/reportlab_floor.py``, lean and naive modes) for
the same N when it is present. Prints one JSON line: cards per second for each, the ratio
cardforge / floor (time), and peak memory (max RSS, MiB) of each run.

    python tools/bench.py [N]
"""
from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FLOOR = ROOT.parent / "shared" / "bench" / "reportlab_floor.py"


def cardforge_run(n: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from cardforge.build import Project, compile_game
    from cardforge.render.deck import render_deck

    project = Project(ROOT)
    compiled = compile_game(ROOT / "cards" / "through-the-gate", project)
    game = compiled.game
    per = game.total()
    game = replace(game, cards=[replace(c, quantity=c.quantity * max(1, round(n / per))) for c in game.cards])
    out = Path(tempfile.mkdtemp()) / "deck.pdf"
    started = time.perf_counter()
    render_deck(game, compiled.layouts, out)
    seconds = time.perf_counter() - started
    cards = game.total()
    return {"cards": cards, "seconds": round(seconds, 3), "cards_per_s": round(cards / seconds, 1),
            "max_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}


def floor_run(n: int, mode: str) -> dict | None:
    if not FLOOR.is_file():
        return None
    out = Path(tempfile.mkdtemp()) / "floor.pdf"
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    line = subprocess.run([sys.executable, str(FLOOR), str(n), str(out), mode], check=True,
                          capture_output=True, text=True).stdout.strip().splitlines()[-1]
    result = json.loads(line)
    result["max_rss_mib"] = round(max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024, 1)
    return result


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    ours = cardforge_run(n)
    report = {"cardforge": ours}
    for mode in ("lean", "naive"):
        floor = floor_run(ours["cards"], mode)
        if floor:
            report[f"floor_{mode}"] = floor
            report[f"ratio_to_{mode}"] = round((ours["seconds"] / ours["cards"]) / (floor["seconds"] / floor["cards"]), 2)
    if len(report) == 1:
        report["note"] = "floor script not found beside the project: no ratio"
    print(json.dumps(report))


if __name__ == "__main__":
    main()
