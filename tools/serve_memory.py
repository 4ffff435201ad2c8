#!/usr/bin/env python3
"""Memory of a long ``cardforge serve``: its resident size after the first build and after
many one-card edits, each waited for until the game is ready again.

Copies the project's packs and layouts to a temporary folder, starts ``python -m cardforge
serve GAME`` there (a fresh process, as a designer runs it), waits for the first build to
end (``/api/state`` says the game is ``ready``), then ``--edits`` times: adds a word to one
card's text (``--field``) in the game's card file (a different card each time, so each edit is a
new face to draw and a new build), saves, and waits until the game is ready at a newer
version. It samples the resident set size (RSS, ``/proc/<pid>/status``) of the serve
process and of every process it started (its build workers) after the first build and
every ``--every`` edits, and prints them with the growth from the first sample; ``--json``
writes the same. The goal: the last sample within 20 % of the first.

    python tools/serve_memory.py [GAME] [--edits 500] [--every 50] [--json FILE]

Linux only (it reads ``/proc``).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rss_kib(pid: int) -> int:
    """Resident set size of ``pid`` in KiB (0 when the process is gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    found = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
    return int(found.group(1)) if found else 0


def family(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int(re.search(r"^PPid:\s+(\d+)", (entry / "status").read_text(), re.M).group(1))
            except (OSError, AttributeError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def state(port: int, slug: str) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=10) as answer:
        return json.loads(answer.read())["games"][slug]


def wait_ready(port: int, slug: str, after: int, limit: float = 300.0) -> int:
    """Wait until ``slug`` is ready at a version above ``after``; returns that version."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        try:
            game = state(port, slug)
            if game["status"] in ("ready", "errors") and game["version"] > after:
                return game["version"]
        except OSError:
            pass
        time.sleep(0.05)
    raise SystemExit(f"serve did not finish a build of {slug} within {limit:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="through-the-gate")
    parser.add_argument("--edits", type=int, default=500)
    parser.add_argument("--every", type=int, default=50, help="sample RSS every this many edits")
    parser.add_argument("--field", default="text", help="the card field whose one-line values are edited")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cardforge-serve-memory-"))
    shutil.copytree(ROOT / "cards" / args.game, work / "cards" / args.game)
    (work / "layouts").mkdir()
    shutil.copy(ROOT / "layouts" / f"{args.game}.yaml", work / "layouts")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen([sys.executable, "-m", "cardforge", "serve", args.game, "--port", str(port)], cwd=work,
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    samples = []
    try:
        version = wait_ready(port, args.game, 0)
        card_file = next(p for p in sorted((work / "cards" / args.game).glob("*.yaml"))
                         if p.name != "game.yaml" and f"{args.field}:" in p.read_text(encoding="utf-8"))
        original = card_file.read_text(encoding="utf-8")
        # the end of each one-line text value, before its closing quote if it has one
        texts = [m.end() - (1 if original[m.end() - 1] in "\"'" else 0)
                 for m in re.finditer(rf"^\s+{re.escape(args.field)}: [^|>\n][^\n]*", original, re.M)]

        def sample(edits: int) -> None:
            kib = sum(rss_kib(p) for p in family(server.pid))
            samples.append({"edits": edits, "rss_mib": round(kib / 1024, 1)})
            first = samples[0]["rss_mib"]
            print(f"{edits:5d} edits: {kib / 1024:7.1f} MiB ({(kib / 1024 - first) / first * 100:+.1f} %)", flush=True)

        sample(0)
        for n in range(1, args.edits + 1):
            at = texts[n % len(texts)]
            edited = original[:at] + f" (edit {n})" + original[at:]
            card_file.write_text(edited, encoding="utf-8")
            version = wait_ready(port, args.game, version)
            if n % args.every == 0 or n == args.edits:
                sample(n)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)
    growth = (samples[-1]["rss_mib"] - samples[0]["rss_mib"]) / samples[0]["rss_mib"] * 100
    print(f"growth after {samples[-1]['edits']} edits: {growth:+.1f} % (goal: within 20 %)")
    if args.json:
        args.json.write_text(json.dumps({"game": args.game, "samples": samples, "growth_percent": round(growth, 1),
                                         "load": os.getloadavg()}, indent=2))


if __name__ == "__main__":
    main()
