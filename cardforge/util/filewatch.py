"""The one file watcher of ``cardforge watch`` and ``cardforge serve``: saves to a project's
``cards/`` and ``layouts/`` folders (watchfiles), collected in bursts and named by the games
they touch.

An editor's save is a burst of events a few ms apart (a temporary file, a rename, the
file itself): :data:`DEBOUNCE_MS` collects one burst. Files no game reads are left out by
:func:`interesting`: hidden files, editors' backups and swap files (``x~``, ``.x.swp``,
``#x#`` autosaves), temporary files and ``__pycache__``.
"""
from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

DEBOUNCE_MS = 60  # ms: one burst of an editor's save


def interesting(change, path: str) -> bool:
    """True for a changed file that a game may read (watchfiles' filter: ``change`` is
    unused, ``path`` the file's path)."""
    name = Path(path).name
    return not (name.startswith((".", "#")) or name.endswith(("~", ".swp", ".tmp")) or "__pycache__" in path)


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


def folders(root: Path) -> list[Path]:
    """The folders of the project at ``root`` that are watched: ``cards/`` and ``layouts/``, those that exist."""
    return [p for p in (root / "cards", root / "layouts") if p.is_dir()]


def touched_games(root: Path, slugs: Callable[[], list[str]], stop: threading.Event | None = None) -> Iterator[set[str]]:
    """Each burst of saves under :func:`folders` of ``root``, as the games it touches
    (``slugs()``: the games known at that moment), until ``stop`` is set; nothing when
    neither folder exists. A burst that touches no game yields nothing."""
    from watchfiles import watch

    watched = [str(p) for p in folders(root)]
    if not watched:
        return
    for changes in watch(*watched, watch_filter=interesting, stop_event=stop, debounce=DEBOUNCE_MS, step=20,
                         rust_timeout=500, yield_on_timeout=False, raise_interrupt=False):
        touched = games_touched(root, (path for _, path in changes), slugs())
        if touched:
            yield touched


class Watcher:
    """A thread calling ``changed(games)`` after each burst of saves that touches one of
    ``slugs`` (what ``serve`` runs beside its web server)."""

    def __init__(self, root: Path, slugs: list[str], changed: Callable[[set[str]], None]):
        self.root, self.slugs, self.changed = root, slugs, changed
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="cardforge-watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        for touched in touched_games(self.root, lambda: self.slugs, self._stop):
            self.changed(touched)
