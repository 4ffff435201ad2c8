"""Which cards changed, and a reprint of only those: ``cardforge diff`` and ``build --changed-since``.

:func:`since_revision` loads the game pack as it was at a git revision (its files and the
project's layouts, taken with ``git archive`` into a temporary folder) through the normal
loader, so card sheets with mappings, errata and computed fields come out exactly as a
build of that revision would print them; :func:`since_last_build` reads what the last
build printed (:data:`~cardforge.cache.registry.PRINTED`, recorded by every build that
puts a deck.pdf in place). :func:`compare` lists the cards added, removed and changed,
field by field, each with its file and line; a card whose fields are equal but whose face
digest (:mod:`cardforge.resolve.printed`) differs "prints differently".
:func:`write_reprint` prints the changed and added cards, fronts and backs, imposed as
deck.pdf is, with a changelog in words.
"""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardforge.build import Compiled, Project, compile_game
from cardforge.util.diagnostics import BUILD_RECORD_MISSING, REVISION_INVALID, Diagnostic, diag, display_path

ADDED, REMOVED, CHANGED, RESTYLED = "added", "removed", "changed", "prints differently"


class RevisionError(Exception):
    """The revision cannot be read; carries its diagnostic (``revision-invalid``)."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@dataclass(frozen=True)
class FieldChange:
    """One field of a card: ``old`` -> ``new`` (None: not there), written at ``file``:``line``."""

    name: str
    old: Any
    new: Any
    file: str
    line: int


@dataclass
class Change:
    """A card ``kind`` (added, removed, changed, prints differently): its ``key``, ``name``,
    ``type``, where it is written (the current file and line; the old revision's for a
    removed card) and its ``fields`` that changed."""

    kind: str
    key: str
    name: str
    type: str
    file: str
    line: int
    fields: list[FieldChange] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "key": self.key, "name": self.name, "type": self.type, "file": self.file,
                "line": self.line, "fields": [{"field": f.name, "old": f.old, "new": f.new, "file": f.file,
                                               "line": f.line} for f in self.fields]}


@dataclass
class Baseline:
    """What the cards are compared with: the ``snapshot`` (see
    :func:`cardforge.resolve.printed.snapshot`; None: the game did not exist) and how to
    name it (``label``: "HEAD~1 (1a2b3c4)", "the last build (2026-11-26 03:12 UTC)")."""

    snapshot: dict[str, Any] | None
    label: str
    revision: str = ""  # the short commit, for a revision


def _git(args: list[str], cwd: Path, rev: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except FileNotFoundError as exc:
        raise RevisionError(diag(REVISION_INVALID, f"cannot read revision {rev!r}: git is not installed",
                                 hint="install git, or compare with the last build: `cardforge diff GAME`")) from exc


def resolve_revision(project: Project, rev: str) -> tuple[Path, str, str]:
    """(the repository's top folder, the full commit, its short form) of ``rev`` in the
    repository holding ``project``. Raises :class:`RevisionError` when git is missing,
    the project is in no repository or the revision is unknown."""
    found = _git(["rev-parse", "--show-toplevel"], project.root, rev)
    if found.returncode != 0:
        raise RevisionError(diag(REVISION_INVALID, f"cannot read revision {rev!r}: {display_path(project.root)} "
                                 "is not in a git repository",
                                 hint="`git init` and commit the project to compare with revisions, or compare with "
                                      "the last build: `cardforge diff GAME`"))
    top = Path(found.stdout.decode().strip()).resolve()
    commit = _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], project.root, rev)
    if rev.startswith("-") or commit.returncode != 0:
        raise RevisionError(diag(REVISION_INVALID, f"unknown revision {rev!r} in the repository at {display_path(top)}",
                                 hint="a commit, branch or tag, such as HEAD~1 (`git log --oneline` lists them)"))
    full = commit.stdout.decode().strip()
    short = _git(["rev-parse", "--short", full], project.root, rev).stdout.decode().strip() or full[:7]
    return top, full, short


def _extract(top: Path, commit: str, paths: list[str], into: Path, rev: str) -> None:
    present = [p for p in paths if _git(["cat-file", "-e", f"{commit}:{p}"], top, rev).returncode == 0]
    if not present:
        return
    archive = _git(["archive", "--format=tar", commit, "--", *present], top, rev)
    if archive.returncode != 0:
        raise RevisionError(diag(REVISION_INVALID, f"cannot read {', '.join(present)} at {rev!r}: "
                                 f"{archive.stderr.decode(errors='replace').strip()}"))
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")


def since_revision(project: Project, pack: Path, rev: str) -> Baseline:
    """The cards of the game in ``pack`` as they were at git revision ``rev``, loaded and
    corrected as a build of that revision would (the pack's files and the project's
    layouts as committed, in a temporary folder). Card files are named as they are in
    the project now. Raises :class:`RevisionError` (see :func:`resolve_revision`)."""
    from cardforge.resolve.printed import snapshot

    top, commit, short = resolve_revision(project, rev)
    label = f"{rev} ({short})" if rev != short else short
    root = project.root.resolve()
    try:
        rel_root = root.relative_to(top)
        rel_pack = pack.resolve().relative_to(top)
    except ValueError as exc:
        raise RevisionError(diag(REVISION_INVALID, f"{display_path(pack)} is not inside the repository at "
                                 f"{display_path(top)}")) from exc
    with tempfile.TemporaryDirectory(prefix="cardforge-rev-") as tmp:
        there = Path(tmp)
        _extract(top, commit, [rel_pack.as_posix(), (rel_root / "layouts").as_posix()], there, rev)
        old_pack = there / rel_pack
        if not (old_pack / "game.yaml").is_file():
            return Baseline(None, label, short)
        old = compile_game(old_pack, Project(there / rel_root))
        if old.game is None or old.layouts is None:
            first = next((d for d in old.diagnostics if d.severity.name == "ERROR"), None)
            raise RevisionError(diag(REVISION_INVALID, f"{pack.name} does not load as it was at {label}"
                                     + (f": {first.message}" if first else "")))
        shot = snapshot(old.game, old.layouts)
        prefix = str(there.resolve())
        for card in shot["cards"]:  # name the files as they are named in the project
            file = str(Path(card["file"]).resolve()) if not Path(card["file"]).is_absolute() else card["file"]
            if file.startswith(prefix):
                card["file"] = display_path(root / Path(file).relative_to(there / rel_root))
    return Baseline(shot, label, short)


def since_last_build(project: Project, pack: Path) -> Baseline:
    """What the last build of the game in ``pack`` printed (see :func:`record`). Raises
    :class:`RevisionError` with ``build-record-missing`` when there is no record, or
    deck.pdf is not the one the record describes (built with ``--no-cache``, or since
    deleted)."""
    from cardforge.cache.registry import PRINTED

    slug = pack.name
    where = PRINTED.folder(project.output, slug)
    deck = project.output / slug / "deck.pdf"
    try:
        kept = json.loads(where.read_text())
    except (OSError, ValueError):
        kept = None
    if not isinstance(kept, dict) or not deck.is_file() or kept.get("deck") != _file_sha(deck):
        raise RevisionError(diag(BUILD_RECORD_MISSING, f"no record of what the last build of {slug} printed"
                                 + ("" if kept is None else f" ({display_path(deck)} is not the deck it describes)"),
                                 hint=f"build it once (`cardforge build {slug}`, without --no-cache), or name a git "
                                      f"revision: `cardforge diff {slug} HEAD`"))
    return Baseline(kept["snapshot"], f"the last build ({kept.get('when', '?')})")


def _file_sha(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


def record(output: Path, compiled: Compiled) -> None:
    """Record what ``output/<slug>/deck.pdf`` (just put in place) printed: the game's
    snapshot and the deck's SHA-256 (and size and time, to tell at a glance that it is
    still the same file), in :data:`~cardforge.cache.registry.PRINTED`. Failures are
    ignored (a missing record is reported by ``diff``)."""
    import datetime

    from cardforge.cache.files import write_atomic
    from cardforge.cache.registry import PRINTED
    from cardforge.resolve.printed import snapshot

    game = compiled.game
    deck = output / game.slug / "deck.pdf"
    if not PRINTED.enabled or compiled.layouts is None or not deck.is_file():
        return
    st = deck.stat()
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    try:
        text = json.dumps({"deck": _file_sha(deck), "stat": [st.st_size, st.st_mtime_ns], "when": when,
                           "snapshot": snapshot(game, compiled.layouts)})
        write_atomic(PRINTED.folder(output, game.slug), text.encode())
    except OSError:
        return


def recorded(output: Path, slug: str) -> bool:
    """True when the record of ``output/<slug>/deck.pdf`` (see :func:`record`) describes
    the deck.pdf there now (the same size and time, else the same SHA-256)."""
    from cardforge.cache.registry import PRINTED

    deck = output / slug / "deck.pdf"
    try:
        kept = json.loads(PRINTED.folder(output, slug).read_text())
        st = deck.stat()
        return kept.get("stat") == [st.st_size, st.st_mtime_ns] or kept.get("deck") == _file_sha(deck)
    except (OSError, ValueError, AttributeError):
        return False


def current(project: Project, pack: Path) -> Compiled:
    """The game in ``pack`` now, compiled as a build compiles it."""
    return compile_game(pack, project)


def compare(old: dict[str, Any] | None, new: dict[str, Any]) -> list[Change]:
    """The cards of snapshot ``new`` added, changed or printing differently since ``old``
    (None: every card is added), then those removed, in deck order."""
    before = {c["key"]: c for c in (old or {}).get("cards", [])}
    now = {c["key"]: c for c in new["cards"]}
    changes = []
    for card in new["cards"]:
        was = before.get(card["key"])
        if was is None:
            changes.append(Change(ADDED, card["key"], card["name"], card["type"], card["file"], card["line"]))
            continue
        fields = _fields(was, card)
        if fields:
            changes.append(Change(CHANGED, card["key"], card["name"], card["type"], card["file"], card["line"], fields))
        elif was["face"] != card["face"]:
            changes.append(Change(RESTYLED, card["key"], card["name"], card["type"], card["file"], card["line"]))
    for card in (old or {}).get("cards", []):
        if card["key"] not in now:
            changes.append(Change(REMOVED, card["key"], card["name"], card["type"], card["file"], card["line"]))
    return changes


def _fields(was: dict, card: dict) -> list[FieldChange]:
    old, new = dict(was["fields"]), dict(card["fields"])
    old.setdefault("quantity", was["quantity"])
    new.setdefault("quantity", card["quantity"])
    names = list(new) + [n for n in old if n not in new]
    return [FieldChange(n, old.get(n), new.get(n), card["file"], card["lines"].get(n, card["line"]))
            for n in names if old.get(n) != new.get(n)]


def shown(value: Any, width: int = 70) -> str:
    """A field's value as the diff prints it: JSON, cut to ``width`` characters."""
    if value is None:
        return "(none)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= width else text[:width - 1] + "…"


def diff_lines(changes: list[Change], label: str) -> list[str]:
    """``cardforge diff`` as text: a line per card, ``file:line: kind: name (type)``, and
    under it a line per field, ``file:line: field: old -> new``; then a summary."""
    lines = []
    for change in changes:
        where = f"{change.file}:{change.line}"
        at = f" (at {label})" if change.kind == REMOVED else ""
        lines.append(f"{where}: {change.kind}: {change.name} ({change.type}){at}")
        for f in change.fields:
            lines.append(f"  {f.file}:{f.line}: {f.name}: {shown(f.old)} -> {shown(f.new)}")
    lines.append(summary(changes, label))
    return lines


def summary(changes: list[Change], label: str) -> str:
    counts = {kind: sum(1 for c in changes if c.kind == kind) for kind in (CHANGED, RESTYLED, ADDED, REMOVED)}
    if not changes:
        return f"no card changed since {label}"
    return ", ".join(f"{n} {kind}" for kind, n in counts.items() if n) + f" since {label}"


def in_words(change: Change, icon: Callable[[str], str | None] = lambda name: None) -> str:
    """What changed on one card, in words (ReportLab paragraph markup). ``icon`` gives the
    markup of an icon token's picture (``{draw}`` -> an inline image), None to keep the token
    as written (an icon the game does not have)."""
    from xml.sax.saxutils import escape as plain_escape

    def escape(text: str) -> str:
        return TOKEN.sub(lambda m: icon(m.group(1)) or m.group(0), plain_escape(text))

    name = f"<b>{escape(change.name)}</b> ({escape(change.type)})"
    if change.kind == ADDED:
        return f"{name}: new card."
    if change.kind == REMOVED:
        return f"{name}: removed; take it out of the deck."
    if change.kind == RESTYLED:
        return f"{name}: same text and values, printed differently (layout, back, icons, art or fonts)."
    parts = []
    for f in change.fields:
        if f.old is None:
            parts.append(f"{escape(f.name)} added: {escape(shown(f.new, 120))}")
        elif f.new is None:
            parts.append(f"{escape(f.name)} removed (was {escape(shown(f.old, 120))})")
        else:
            parts.append(f"{escape(f.name)} {escape(shown(f.old, 120))} → {escape(shown(f.new, 120))}")
    return f"{name}: " + "; ".join(parts) + "."


COPIES = ("one", "all")
TOKEN = re.compile(r"\{([a-z0-9][a-z0-9-]*)\}")  # an icon token of card text (docs/markup.md)


def write_reprint(compiled: Compiled, changes: list[Change], out: Path, options, label: str,
                  copies: str = "one") -> tuple[int, str] | None:
    """Write ``out`` (reprint.pdf): the changed and added cards of ``changes``, fronts and
    backs imposed as deck.pdf is with ``options`` (:class:`~cardforge.render.deck.DeckOptions`),
    one copy of each (``copies="all"``: as many as the deck holds), and the changelog in the
    last sheet's empty slots or on a page of its own. Nothing to print (no change, or only
    removals with no card to print): ``out`` is deleted and None returned. Returns (the
    number of pages, where the changelog went: "slots" or "pages"). Written to a temporary
    file and renamed into place. Raises ``OSError`` when it cannot be written."""
    from cardforge.documents.flow import IconImages
    from cardforge.render.changelog import add_changelog
    from cardforge.render.deck import plan, render_deck
    from cardforge.render.sheet import ImpositionError

    game, layouts = compiled.game, compiled.layouts
    keys = {c.key for c in changes if c.kind != REMOVED}
    cards = [card for card in game.cards if card.id in keys]
    if not cards:
        out.unlink(missing_ok=True)
        return None
    if copies != "all":
        cards = [replace(card, quantity=1) for card in cards]
    sub = replace(game, cards=cards)
    heading = f"{_plain(game.title)}: reprint of the cards changed since {_plain(label)}"
    fd, name = tempfile.mkstemp(prefix=".reprint-", suffix=".pdf", dir=out.parent)
    os.close(fd)
    part = Path(name)
    pictures = tempfile.TemporaryDirectory(prefix=".reprint-icons-", dir=out.parent)
    icons = IconImages(game, Path(pictures.name))
    entries = [in_words(c, lambda token: icons.markup(token, 7.0) if token in game.icons else None) for c in changes]
    try:
        pages = render_deck(sub, layouts, part, options)
        units = plan(sub, layouts, options)
        last = units[-1] if units else None
        page, slots, paper = None, [], None
        if last is not None and last.batch is not None and options.sides == "both":
            sheet = last.sheet
            page, paper = pages - 2, sheet.paper
            w, h = sheet.card
            slots = [(*sheet.slot(i), w, h) for i in range(len(last.batch), sheet.per_sheet)]
        if paper is None:
            try:
                from cardforge.render.sheet import impose

                paper = impose(options.paper, layouts.for_card(cards[0]).size, orientation=options.orientation).paper
            except ImpositionError:
                paper = (612.0, 792.0)
        where = add_changelog(part, heading, entries, page, slots, paper)
        os.replace(part, out)
    finally:
        part.unlink(missing_ok=True)
        pictures.cleanup()
    import pikepdf

    with pikepdf.open(out) as doc:
        return len(doc.pages), where


def _plain(text: str) -> str:
    from xml.sax.saxutils import escape

    return escape(text)


def remove_stale(out: Path) -> bool:
    """Delete an earlier reprint.pdf at ``out``; True when there was one."""
    try:
        out.unlink()
        return True
    except FileNotFoundError:
        return False

