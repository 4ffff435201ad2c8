"""Watching a project's pack and layout files (watchfiles) and naming the games a change touches."""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from watchfiles import watch


def games_touched(root: Path, changed: Iterable[str], slugs: list[str]) -> set[str]:
    """The games among ``slugs`` that a change to the files ``changed`` may alter.

    ``cards/<slug>/...`` and ``layouts/<slug>.yaml`` touch one game; any other file under
    ``layouts/`` (a shared preset) touches every game.
    """
    touched: set[str] = set()
    for name in changed:
        try:
            parts = Path(name).resolve().relative_to(root.resolve()).parts
        except ValueError:
            continue
        if len(parts) >= 3 and parts[0] == "cards" and parts[1] in slugs:
            touched.add(parts[1])
        elif len(parts) >= 2 and parts[0] == "layouts":
            stem = Path(parts[-1]).stem
            touched.update([stem] if len(parts) == 2 and stem in slugs else slugs)
    return touched


def _interesting(change, path: str) -> bool:
    name = Path(path).name
    return not (name.startswith(".") or name.endswith(("~", ".swp", ".tmp")) or "__pycache__" in path)


class Watcher:
    """A thread calling ``changed(slugs)`` after each burst of saves to the project's
    ``cards/`` or ``layouts/`` folder."""

    def __init__(self, root: Path, slugs: list[str], changed: Callable[[set[str]], None]):
        self.root, self.slugs, self.changed = root, slugs, changed
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cardforge-serve-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        folders = [str(p) for p in (self.root / "cards", self.root / "layouts") if p.is_dir()]
        if not folders:
            return
        for changes in watch(*folders, watch_filter=_interesting, stop_event=self._stop, debounce=400,
                             step=50, rust_timeout=500, yield_on_timeout=False):
            touched = games_touched(self.root, (path for _, path in changes), self.slugs)
            if touched:
                self.changed(touched)
