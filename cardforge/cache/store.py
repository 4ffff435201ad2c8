"""The artefact store: built outputs kept in ``output/.cache/`` under a hash of their inputs.

An artefact (``deck.pdf``, ``rules.pdf``, ``rulebook.pdf``, ``reference.pdf``,
``print-shop/``, ``tts/``, and a game's diagnostics) is a pure function of: every file of
its game pack (``cards/<slug>/``: game.yaml, card files, rules sources, errata, icons,
images, fonts), the game's layout file (``layouts/<slug>.yaml``) and any shared file of
``layouts/``, the build options, and cardforge itself
(:func:`cardforge.cache.version.fingerprint`). :func:`pack_inputs` and
:func:`artefact_key` hash exactly that into a SHA-256 key; a build asks the
:class:`Store` for the key first and renders only on a miss.

Entries live in ``output/.cache/<slug>/<artefact>/<key>/`` (the
:data:`~cardforge.cache.registry.ARTEFACTS` cache). An entry is written into a temporary
folder and renamed into place when complete, so a crash never leaves a half-written entry
under a valid key; an entry is never modified after that. The newest :data:`KEEP` entries
of each artefact are kept.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cardforge.cache import version
from cardforge.cache.files import digest_files, input_files, prune_newest
from cardforge.cache.registry import ARTEFACTS, PROJECT_FOLDER

KEEP = 4  # entries kept per game and artefact: the current one and a few to undo to


def pack_inputs(pack: Path, layouts: Path) -> str:
    """SHA-256 of a game's own inputs: every file of the pack folder ``pack`` and every file
    of the ``layouts`` folder but the other games' (``<slug>.yaml`` and ``<slug>/`` of the
    other packs beside ``pack``), so a shared layout preset counts for every game."""
    h = hashlib.sha256()
    h.update(digest_files(input_files(pack), pack).encode())
    h.update(layout_inputs(pack, layouts).encode())
    return h.hexdigest()


def inputs_unchanged(pack: Path, layouts: Path, inputs: str) -> bool:
    """Whether the game in ``pack`` still has the inputs ``inputs`` (:func:`pack_inputs`).
    A file saved while a game is read or drawn may be read in its new form: what was made
    from it must not be stored under the older inputs' key (the next build makes it again)."""
    try:
        return pack_inputs(pack, layouts) == inputs
    except OSError:
        return False


def layout_inputs(pack: Path, layouts: Path) -> str:
    """SHA-256 of the files of the ``layouts`` folder the game in ``pack`` may use: all but
    the other games' (``<slug>.yaml`` and ``<slug>/`` of the other packs beside ``pack``)."""
    slug = pack.name
    try:
        others = {p.name for p in pack.parent.iterdir() if p.is_dir() and p.name != slug}
    except OSError:
        others = set()

    def shared_or_own(path: Path) -> bool:
        parts = path.relative_to(layouts).parts
        return not (parts[0] in others if len(parts) > 1 else Path(parts[0]).stem in others)

    return digest_files([f for f in input_files(layouts) if shared_or_own(f)], layouts) if layouts.is_dir() else "-"


def artefact_key(inputs: str, artefact: str, options: object, output: Path) -> str:
    """The key of one artefact: cardforge's version, the game's inputs, the artefact's
    name, the build options (their ``repr``), the output folder (Tabletop Simulator
    objects name it) and how the project's paths print from the working directory
    (:func:`seen_from`; the project folder is the output folder's parent)."""
    parts = (version.fingerprint(), inputs, artefact, repr(options), str(output), seen_from(output.parent))
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def seen_from(root: Path) -> str:
    """How diagnostics print paths of the project folder ``root`` (and of cardforge's own
    files) from the working directory: relative to it when below it, whole otherwise
    (:func:`cardforge.util.diagnostics.display_path`). Working directories that print every
    such path alike give the same answer, so the same project checked from another folder
    outside it is served from the cache; from a folder that prints its paths otherwise it
    is not (the stored diagnostics would name files wrongly)."""
    cwd = os.getcwd()
    below = os.path.relpath(root, cwd)
    if below.startswith(".."):
        inside = os.path.relpath(cwd, root)
        where = "apart" if inside.startswith("..") else f"inside:{inside}"
    else:
        where = f"below:{below}"
    own = os.path.relpath(version.PACKAGE, cwd)
    return f"{where};{'apart' if own.startswith('..') else own}"


@dataclass(frozen=True)
class Entry:
    """A stored artefact: ``payload`` (the file or folder, None if the writer produced
    nothing) and ``notes`` (what the build kept with it: the diagnostics its writer returned)."""

    payload: Path | None
    notes: object


class Store:
    """Built artefacts on disk under ``root`` (``output/.cache``), keyed by :func:`artefact_key`."""

    def __init__(self, output: Path):
        self.output = output
        self.root = output / PROJECT_FOLDER

    def _folder(self, slug: str, artefact: str) -> Path:
        return ARTEFACTS.folder(self.output, slug) / artefact

    def get(self, slug: str, artefact: str, key: str) -> Entry | None:
        """The entry stored under ``key``, or None (a missing or unreadable entry is a miss)."""
        entry = self._folder(slug, artefact) / key
        try:
            with open(entry / "meta.pickle", "rb") as fh:
                produced, notes = pickle.load(fh)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError, ImportError):
            return None
        payload = entry / artefact if produced else None
        if payload is not None and not payload.exists():
            return None
        return Entry(payload, notes)

    def put(self, slug: str, artefact: str, key: str, produced: Path | None, notes: object) -> None:
        """Store a copy of ``produced`` (a file or folder, or None) and ``notes`` under ``key``.

        Written to a temporary folder beside the entry and renamed into place; if another
        build stored the same key meanwhile, that entry is kept. Failures to write the
        cache are ignored: the cache only ever saves time.
        """
        folder = self._folder(slug, artefact)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=folder))
        except OSError:
            return
        try:
            if produced is not None:
                if produced.is_dir():
                    shutil.copytree(produced, tmp / artefact)
                else:
                    shutil.copy2(produced, tmp / artefact)
            with open(tmp / "meta.pickle", "wb") as fh:  # written last: its presence marks a whole entry
                pickle.dump((produced is not None, notes), fh)
            os.replace(tmp, folder / key)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
            return
        self.prune(slug, artefact)

    def prune(self, slug: str, artefact: str, keep: int = KEEP) -> None:
        """Remove all but the ``keep`` newest entries of an artefact, and leftovers of crashed writes."""
        prune_newest(self._folder(slug, artefact), keep)

    def touch(self, slug: str, artefact: str, key: str) -> None:
        """Mark an entry as just used, so pruning keeps it."""
        try:
            os.utime(self._folder(slug, artefact) / key)
        except OSError:
            pass


def same_content(a: Path, b: Path) -> bool:
    """True when files (or folders, recursively) ``a`` and ``b`` hold the same bytes."""
    if a.is_dir() != b.is_dir() or not b.exists():
        return False
    if a.is_file():
        return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()
    names_a = sorted(p.relative_to(a) for p in a.rglob("*"))
    names_b = sorted(p.relative_to(b) for p in b.rglob("*"))
    if names_a != names_b:
        return False
    return all(same_content(a / n, b / n) for n in names_a if (a / n).is_file())
