#!/usr/bin/env python3
"""How long ``cardforge serve`` takes to show a game's cards, and from saving a one-card edit
to the updated card in the browser.

Copies the project's packs and layouts to a temporary folder, starts ``python -m cardforge
serve GAME`` there (a fresh process, as a designer runs it) and opens the game's card gallery in
Debian's chromium through Playwright as soon as the server answers. The start-up figures
are the seconds from starting the server to the first card picture shown in the gallery,
and to every card of the game in the gallery with its picture (the pictures in view
loaded; the page loads the others as they are scrolled to). It then waits for the first
build to end, and ``--edits`` times: appends a word to one card's text in the game's card
file (or, for a pack made from a sheet with ``--from``, to one row's text in the sheet),
saves, and waits until the browser shows that card's new front image (its ``src``
changed and the image loaded). Prints each latency, their median and the machine's load
average, and every figure in floor units too: seconds divided by the seconds the team's
bare-ReportLab floor (``tools/bench.py``'s ``reportlab_floor.py``, lean mode) takes to draw
1,000 cards, run once before the server starts; ``--json`` writes the same.

    python tools/serve_latency.py [GAME] [--edits 7] [--settle 12] [--json FILE]
    python tools/serve_latency.py harvest --from examples/harvest.csv   # a pack made from a sheet

Needs chromium (``CARDFORGE_CHROMIUM`` names another binary) and Playwright for Python.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # cardforge from this checkout
FIELD = ["text"]  # the field edited (--field)
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str:
    for candidate in (os.environ.get("CARDFORGE_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and Path(candidate).is_file():
            return candidate
    raise SystemExit("no chromium: install it (apt-get install chromium) or name it in CARDFORGE_CHROMIUM")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def state(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/api/state", timeout=5) as response:
        return json.load(response)


def wait_ready(url: str, slug: str, timeout: float = 300) -> None:
    """Until the server answers and ``slug`` is ready (checked, drawn and built)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if state(url)["games"][slug]["status"] == "ready":
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"{slug} was not ready after {timeout:.0f} s")


def card_to_edit(pack: Path) -> tuple[Path, str, int]:
    """A card file, the name of its first card with a ``text: |-`` block, and that block's first
    line; for a pack whose cards are a CSV sheet, the sheet, its first card's name and row."""
    sheets = sorted(pack.glob("*.csv"))
    if sheets and not any(p.name not in ("game.yaml", "errata.yaml") for p in pack.glob("*.yaml")):
        from cardforge.build import Project, compile_game

        game = compile_game(pack, Project(pack.parent.parent)).game
        card = next(c for c in game.cards if c.source.file.endswith(sheets[0].name))
        return sheets[0], card.name, card.source.line() - 1
    for path in sorted(pack.glob("*.yaml")):
        if path.name in ("game.yaml", "errata.yaml"):
            continue
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            key = f"{FIELD[0]}: "
            block = line.rstrip().endswith(f"{FIELD[0]}: |-")
            value = line.split(key, 1)[1].rstrip() if line.lstrip().startswith(key) else ""
            plain = bool(value) and (value[:1] not in "|>'\"{[&*!%@`" or (value[0] == '"' and value.endswith('"')))
            if block or plain:
                name = next(lines[j].split("name:", 1)[1].strip().strip("'\"") for j in range(i, -1, -1)
                            if lines[j].lstrip("- ").startswith("name:"))
                return path, name, i + 1 if block else i
    raise SystemExit(f"no card with a `{FIELD[0]}:` block or plain value in {pack} (try --field)")


def edit(path: Path, line: int, n: int) -> None:
    """Append a word to line ``line`` (0-based) of ``path``, saved in place as an editor does;
    in a CSV sheet, to the longest cell of that row (its text)."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    if path.suffix == ".csv":
        import csv
        import io

        (cells,) = list(csv.reader([lines[line]]))
        longest = max(range(len(cells)), key=lambda i: len(cells[i]))
        cells[longest] += f" w{n}"
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(cells)
        lines[line] = out.getvalue()
    elif lines[line].rstrip().endswith('"'):  # inside a double-quoted value
        lines[line] = lines[line].rstrip()[:-1] + f' w{n}"\n'
    else:
        lines[line] = lines[line].rstrip("\n") + f" w{n}\n"
    path.write_text("".join(lines), encoding="utf-8")


FIRST = """() => Array.from(document.querySelectorAll('article.card img.front')).some(
  img => img.complete && img.naturalWidth > 0)"""
EVERY = """() => {
  const cards = document.querySelectorAll('article.card');
  const fronts = Array.from(document.querySelectorAll('article.card img.front'));
  const inView = fronts.filter(img => { const r = img.getBoundingClientRect();
                                        return r.bottom > 0 && r.top < innerHeight; });
  return cards.length > 0 && fronts.length === cards.length && inView.every(img => img.complete && img.naturalWidth > 0);
}"""


def start_up(page, url: str, slug: str, started: float, timeout: float = 300) -> dict:
    """Open the gallery as soon as the server answers; seconds from ``started`` to its first
    card picture shown and to every card with its picture (see the module docstring)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            state(url)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit(f"the server did not answer after {timeout:.0f} s")
            time.sleep(0.05)
    answered = time.perf_counter() - started
    page.goto(f"{url}/g/{slug}")
    page.wait_for_function(FIRST, timeout=timeout * 1000, polling=50)
    first = time.perf_counter() - started
    page.wait_for_function(EVERY, timeout=timeout * 1000, polling=50)
    every = time.perf_counter() - started
    cards = page.evaluate("() => document.querySelectorAll('article.card').length")
    return {"answered_s": round(answered, 3), "first_picture_s": round(first, 3), "every_picture_s": round(every, 3),
            "cards": cards}


SHOWN = """([name, old]) => {
  const card = Array.from(document.querySelectorAll('article.card')).find(c => c.dataset.name === name);
  const img = card && card.querySelector('img.front');
  return !!img && img.getAttribute('src') !== old && img.complete && img.naturalWidth > 0;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="through-the-gate")
    parser.add_argument("--edits", type=int, default=7)
    parser.add_argument("--settle", type=float, default=12.0,
                        help="seconds between edits, for the build the edit started to end")
    parser.add_argument("--from", dest="sheet", type=Path, default=None,
                        help="serve a pack made from this sheet (`cardforge new GAME --from SHEET`) and edit the sheet")
    parser.add_argument("--field", default="text", help="the card field the edit appends a word to")
    parser.add_argument("--busy", action="store_true",
                        help="edit again while the build the last edit started is still writing the PDFs")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    FIELD[0] = args.field
    sys.path.insert(0, str(ROOT / "tools"))
    import bench

    measured = bench.floor(1000, bench.FLOOR)
    floor_s = round(measured["seconds"] * 1000 / measured["cards"], 3) if measured else None
    from playwright.sync_api import sync_playwright

    root = Path(tempfile.mkdtemp(prefix="cardforge-serve-"))
    if args.sheet:
        (root / "cards").mkdir()
        (root / "layouts").mkdir()
        subprocess.run([sys.executable, "-m", "cardforge", "new", args.game, "--from", str(args.sheet.resolve()),
                        "--root", str(root)], cwd=ROOT, check=True, capture_output=True)
    else:
        shutil.copytree(ROOT / "cards", root / "cards")
        shutil.copytree(ROOT / "layouts", root / "layouts")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(root / "serve.log", "w")
    latencies: list[float | None] = []
    startup: dict = {}
    proc = None
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=ARGS)  # before the clock starts
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            started = time.perf_counter()
            proc = subprocess.Popen([sys.executable, "-m", "cardforge", "serve", args.game, "--root", str(root),
                                     "--port", str(port)], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)
            startup = start_up(page, url, args.game, started)
            print(f"start-up: first card picture after {startup['first_picture_s']:.2f} s, all "
                  f"{startup['cards']} cards with their pictures after {startup['every_picture_s']:.2f} s")
            wait_ready(url, args.game)
            if args.edits:  # --edits 0: the start-up figures only (a pack with no text to edit too)
                path, name, line = card_to_edit(root / "cards" / args.game)
                page.reload()
                selector = f"article.card[data-name={json.dumps(name.lower())}] img.front"
                page.wait_for_selector(selector, timeout=60_000)
                page.locator(selector).scroll_into_view_if_needed()
                time.sleep(1.0)  # the watcher is listening
            for n in range(args.edits):
                old = page.get_attribute(selector, "src")
                edit(path, line, n)
                started = time.perf_counter()
                try:
                    page.wait_for_function(SHOWN, arg=[name.lower(), old], timeout=60_000, polling="raf")
                    took = time.perf_counter() - started
                except Exception:  # noqa: BLE001 - a timeout: reported as no update
                    took = None
                latencies.append(round(took, 3) if took is not None else None)
                print(f"edit {n + 1}: {name!r} shown updated after {took:.2f} s" if took is not None
                      else f"edit {n + 1}: not shown updated")
                if not args.busy:
                    wait_ready(url, args.game)
                time.sleep(args.settle)
            browser.close()
    finally:
        if proc is not None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        shutil.rmtree(root, ignore_errors=True)
    done = [t for t in latencies if t is not None]
    report = {"game": args.game, "startup": startup, "latencies_s": latencies,
              "median_s": round(statistics.median(done), 3) if done else None,
              "floor_1000_s": floor_s, "load_average": os.getloadavg()[0]}
    if floor_s:
        report["startup_floor_units"] = {k: round(v / floor_s, 2) for k, v in startup.items() if k.endswith("_s")}
        report["median_floor_units"] = round(report["median_s"] / floor_s, 2) if done else None
        print(f"floor: 1,000 cards in {floor_s:.2f} s; start-up in floor units: first picture "
              f"{report['startup_floor_units'].get('first_picture_s')}, every picture "
              f"{report['startup_floor_units'].get('every_picture_s')}; edit median {report['median_floor_units']}")
    print(f"median {report['median_s']} s over {len(done)} edits (load average {report['load_average']:.1f})")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
