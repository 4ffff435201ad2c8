"""Content hashes of each artefact's inputs, and the store of artefacts built from them.

An artefact (``deck.pdf``, ``rules.pdf``, ``rulebook.pdf``, ``reference.pdf``,
``print-shop/``, ``tts/``) is a pure function of: every file of its game pack
(``cards/<slug>/``: game.yaml, card files, rules sources, errata, icons, images, fonts),
the game's layout file (``layouts/<slug>.yaml``) and any shared file of ``layouts/``,
the build options, and cardforge itself (every file of the package: code, schemas and
shipped fonts, plus the versions of the libraries that draw). :func:`pack_inputs` and
:func:`artefact_key` hash exactly that into a SHA-256 key; a build asks the
:class:`Store` for the key first and renders only on a miss.

The store lives in ``output/.cache/`` (``<slug>/<artefact>/<key>/``). An entry is written
into a temporary folder and renamed into place when complete, so a crash never leaves a
half-written entry under a valid key; an entry is never modified after that. The newest
:data:`KEEP` entries of each artefact are kept.
"""
from __future__ import annotations

import hashlib
import os
import stat
import pickle
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

CACHE_FOLDER = ".cache"
DIGESTS = "digests.pickle"  # remembered file digests, in the cache folder
KEEP = 4  # entries kept per game and artefact: the current one and a few to undo to
FORMAT = "1"  # bump when the layout of the store changes
_LIBRARIES = ("reportlab", "_rl_accel", "cairosvg", "cairocffi", "PIL", "pypdfium2", "jinja2", "mistune", "yaml", "pypdf")


def _ignored(name: str) -> bool:
    """Editor droppings and caches: hidden files, backups, bytecode."""
    return name.startswith((".", "#")) or name.endswith(("~", ".pyc", ".swp")) or name == "__pycache__"


def _files(folder: Path) -> list[Path]:
    """Every file below ``folder`` that is an input, in a stable order."""
    found = []
    for here, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not _ignored(d))
        found += [Path(here, f) for f in sorted(files) if not _ignored(f)]
    return found


_known: dict[str, tuple[int, int, int, bytes]] = {}  # path -> (size, mtime ns, inode, SHA-256)
_learnt = False
_RACY_NS = 2_000_000_000  # a file changed this recently may change again within its mtime tick


def file_digest(path: Path) -> bytes:
    """SHA-256 of the file's bytes, remembered by (size, mtime, inode) so an unchanged file
    is not read again; a file modified in the last 2 s is always read (as git does)."""
    global _learnt
    try:
        st = path.stat()
    except OSError:  # a dangling link: the loader reports it
        return b"missing"
    if not stat.S_ISREG(st.st_mode):  # a FIFO or device is never opened (the loader reports it)
        return b"special:%o" % st.st_mode
    name = str(path)
    known = _known.get(name)
    if known and known[:3] == (st.st_size, st.st_mtime_ns, st.st_ino):
        return known[3]
    digest = hashlib.sha256(path.read_bytes()).digest()
    if time.time_ns() - st.st_mtime_ns > _RACY_NS:
        _known[name] = (st.st_size, st.st_mtime_ns, st.st_ino, digest)
        _learnt = True
    return digest


def load_digests(file: Path) -> None:
    """Remember the file digests saved by :func:`save_digests` (a missing or bad file is ignored)."""
    try:
        with open(file, "rb") as fh:
            saved = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError):
        return
    if isinstance(saved, dict):
        for name, value in saved.items():
            _known.setdefault(name, value)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder (made if
    missing) renamed into place: a crash leaves the previous file or none, never half of
    one. Raises ``OSError``, the temporary file removed, when it cannot be written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save_digests(file: Path) -> None:
    """Save the remembered file digests (atomically) when new ones were learnt."""
    global _learnt
    if not _learnt:
        return
    try:
        write_atomic(file, pickle.dumps(_known))
        _learnt = False
    except OSError:
        pass


def _digest(paths: list[Path], base: Path, seed: str = "") -> str:
    h = hashlib.sha256(seed.encode())
    for path in paths:
        h.update(b"\0" + path.relative_to(base).as_posix().encode() + b"\0")
        h.update(file_digest(path))
    return h.hexdigest()


PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def code_version(package: Path = PACKAGE) -> str:
    """SHA-256 of cardforge itself: every file of the ``package`` folder (code, schemas,
    shipped fonts), the Python version and the installed libraries that draw (their
    ``__init__`` file's size and modification time: installing another version changes
    it). Any change invalidates every artefact."""
    installed = library_stamps(_LIBRARIES)
    return _digest(_files(package), package, seed=f"{FORMAT};{sys.version};{';'.join(installed)}")


def library_stamps(names: tuple[str, ...]) -> list[str]:
    """One ``name:origin:size:mtime_ns`` line per importable module in ``names`` (``name:-``
    when it is not installed): installing another version of one changes its line."""
    from importlib.util import find_spec

    installed = []
    for name in names:
        spec = find_spec(name)
        origin = spec.origin if spec and spec.origin else ""
        try:
            st = os.stat(origin)
            installed.append(f"{name}:{origin}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            installed.append(f"{name}:-")
    return installed


def pack_inputs(pack: Path, layouts: Path) -> str:
    """SHA-256 of a game's own inputs: every file of the pack folder ``pack`` and every file
    of the ``layouts`` folder but the other games' (``<slug>.yaml`` and ``<slug>/`` of the
    other packs beside ``pack``), so a shared layout preset counts for every game."""
    h = hashlib.sha256()
    h.update(_digest(_files(pack), pack).encode())
    h.update(layout_inputs(pack, layouts).encode())
    return h.hexdigest()


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

    return _digest([f for f in _files(layouts) if shared_or_own(f)], layouts) if layouts.is_dir() else "-"


def artefact_key(inputs: str, artefact: str, options: object, output: Path) -> str:
    """The key of one artefact: cardforge's version, the game's inputs, the artefact's
    name, the build options (their ``repr``), the output folder (Tabletop Simulator
    objects name it) and how the project's paths print from the working directory
    (:func:`seen_from`; the project folder is the output folder's parent)."""
    parts = (code_version(), inputs, artefact, repr(options), str(output), seen_from(output.parent))
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def seen_from(root: Path) -> str:
    """How diagnostics print paths of the project folder ``root`` (and of cardforge's own
    files) from the working directory: relative to it when below it, whole otherwise
    (:func:`cardforge.diagnostics.display_path`). Working directories that print every
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
    own = os.path.relpath(PACKAGE, cwd)
    return f"{where};{'apart' if own.startswith('..') else own}"


@dataclass(frozen=True)
class Entry:
    """A stored artefact: ``payload`` (the file or folder, None if the writer produced
    nothing) and ``notes`` (what the build kept with it: the diagnostics its writer returned)."""

    payload: Path | None
    notes: object


class Store:
    """Built artefacts on disk under ``root`` (``output/.cache``), keyed by :func:`artefact_key`."""

    def __init__(self, root: Path):
        self.root = root

    def _folder(self, slug: str, artefact: str) -> Path:
        return self.root / slug / artefact

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
        folder = self._folder(slug, artefact)
        try:
            entries = [p for p in folder.iterdir() if p.is_dir()]
        except OSError:
            return
        old = time.time() - 3600  # a write in progress elsewhere is younger than that
        stale = [p for p in entries if p.name.startswith(".tmp-") and p.stat().st_mtime < old]
        current = sorted((p for p in entries if not p.name.startswith(".")), key=lambda p: p.stat().st_mtime_ns,
                         reverse=True)
        for path in stale + current[keep:]:
            shutil.rmtree(path, ignore_errors=True)

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
