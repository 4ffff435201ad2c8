"""What a check worked out about each card face, kept between runs in the user cache.

A check of a game evaluates every card's templates and ``when:`` tests and fits every
text (:mod:`cardforge.checks`), though after a one-card edit every other card gives what it
gave last time. These are pure results: a template's text is a function of its source and
its context (the card, ``game.yaml``, the back; see :mod:`cardforge.sandbox.context`), a fit of
its text, style, box (pt), the game's icons, the font's glyph widths and the installed
ReportLab. While :func:`kept` is active (in this thread, around a game's checks) they are
looked up by all of that (a context by the SHA-256 of its data) in a file named for the
game's folder and cardforge itself (:func:`cardforge.cache.kept.key`: another version of
cardforge or of a library it names reads another file), and what was worked out afresh is
added. A declarative rule's ``where`` and ``assert`` on one card are kept alike
(:func:`truth`).

Only successes are kept, so every problem is found again by the code that reports it: a
template or test that raised is not kept (it raises again), and a fit is kept only when the
text fits its box, every inline icon is known and no type is set under
:data:`MIN_PRINTED` pt; a rule's ``assert`` is kept only for a card it holds for. A kept fit gives the checks its figures (type size, height and
width in pt, smallest size) without its lines: it is never handed to the renderer, which
fits afresh (:func:`cardforge.resolve.text.fit` keeps only what it measured in its own
process-wide memo).

One file per game folder and language (``$XDG_CACHE_HOME/cardforge/check-results/``; a
translation, checked with its source, keeps its own), written atomically when a check learnt
something, holding what that check used: a file never outgrows its game, and the folder
keeps the :data:`KEPT` newest.
``CARDFORGE_NO_USER_CACHE=1`` turns it off.
"""
from __future__ import annotations

import hashlib
import marshal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from cardforge.cache.registry import ICON_KEYS
from cardforge.cache import kept as user_cache
from cardforge.cache.files import prune_newest
from cardforge.cache.registry import CHECK_RESULTS

if TYPE_CHECKING:
    from cardforge.model import Game
    from cardforge.resolve.text import Block

KEPT = 200  # files of kept results (one per game folder and version of cardforge)
MIN_PRINTED = 6.0  # pt: a fit with smaller type is reported (checks.textfit), so it is never kept
_NO_DIGEST = b""


class _Here(threading.local):
    store: "_Store | None" = None


_here = _Here()


class _Store:
    """The kept results of one game: read on first use, written back by :meth:`save`."""

    def __init__(self, game: Game):
        self.game = game
        # one file per game folder and language: a translation's texts are not its source's
        self.name = user_cache.key("face-results", str(game.root.resolve()) if game.root else game.slug,
                                   game.language or "")
        self.known: dict[tuple, Any] | None = None
        self.used: dict[tuple, Any] = {}
        self.learnt = False
        self.game_digest: bytes | None = None
        self.icon_digests: dict[int, tuple[tuple, bytes]] = {}
        self.styles: dict[int, tuple[Any, str]] = {}  # id(style) -> (style, what a fit's key holds of it)

    def _load(self) -> dict[tuple, Any]:
        if self.known is None:
            value = user_cache.get(CHECK_RESULTS, self.name)
            self.known = value if isinstance(value, dict) else {}
        return self.known

    def get(self, digest: tuple) -> Any:
        value = self._load().get(digest, user_cache.MISS)
        if value is not user_cache.MISS:
            self.used[digest] = value
        return value

    def put(self, digest: tuple, value: Any) -> None:
        self.used[digest] = value
        if self._load().get(digest, user_cache.MISS) != value:
            self.learnt = True

    def save(self) -> None:
        """Write what this check used, if it learnt anything (so the file drops what no card
        uses now); a new file (another game folder, another cardforge) makes room for itself
        among the :data:`KEPT` newest."""
        if not self.learnt:
            return
        new = not (CHECK_RESULTS.folder() / f"{self.name}.pickle").exists()
        user_cache.put(CHECK_RESULTS, self.name, dict(self.used), keep=KEPT)
        if new:
            prune_newest(CHECK_RESULTS.folder(), KEPT, pattern="*.pickle")

    def context_digest(self, ctx: dict[str, Any]) -> bytes:
        """The SHA-256 of a template context's content (``game`` by its own digest), or
        ``b""`` when a value is not plain data (then nothing about the context is kept)."""
        h = hashlib.sha256()
        try:
            for name in sorted(ctx):
                value = ctx[name]
                h.update(b"\0%d\0" % len(name) + name.encode())
                if name == "game" and value is self.game.data:
                    if self.game_digest is None:
                        self.game_digest = hashlib.sha256(marshal.dumps(value, 0)).digest()
                    h.update(b"game\0" + self.game_digest)
                else:
                    data = marshal.dumps(value, 0)  # version 0: no shared references, the same bytes every run
                    h.update(b"\0%d\0" % len(data) + data)
        except (ValueError, TypeError, UnicodeEncodeError):  # not plain data (or a lone surrogate in a name)
            return _NO_DIGEST
        return h.digest()

    def icons_digest(self, icons_key: tuple) -> bytes:
        known = self.icon_digests.get(id(icons_key))
        if known is None or known[0] is not icons_key:
            known = self.icon_digests[id(icons_key)] = (icons_key, hashlib.sha256(repr(icons_key).encode()).digest())
        return known[1]


@contextmanager
def kept(game: Game) -> Iterator[None]:
    """While this block runs (in this thread), :func:`result`, :func:`truth` and
    :func:`known_fit` / :func:`learnt_fit` use the kept results of ``game``'s card faces and
    rules; what was learnt is written back when it ends (also after an exception: only
    successes were recorded)."""
    if not CHECK_RESULTS.enabled:
        yield
        return
    outer, _here.store = _here.store, _Store(game)
    try:
        yield
    finally:
        store, _here.store = _here.store, outer
        store.save()


def result(ctx: dict[str, Any], kind: str, source: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` (a template's text or a test's truth in ``ctx``), or what it gave
    before for the same content. Raises what ``compute`` raises."""
    store = _here.store
    if store is None:
        return compute()
    ctx_digest = _context_digest(store, ctx)
    if not ctx_digest:
        return compute()
    digest = (kind, ctx_digest, source)
    value = store.get(digest)
    if value is user_cache.MISS:
        value = compute()
        if isinstance(value, (str, bool)):
            store.put(digest, value)
    return value


_DIGEST_KEY = ("checkresults-digest",)  # where a context's digest is remembered in its memo


def _context_digest(store: _Store, ctx: dict[str, Any]) -> bytes:
    """The digest of a :class:`~cardforge.sandbox.context.Context`, worked out once (``b""``
    for a plain dict or data that is not plain)."""
    memo = getattr(ctx, "memo", None)
    if memo is None:
        return _NO_DIGEST
    ctx_digest = memo.get(_DIGEST_KEY)
    if ctx_digest is None:
        ctx_digest = memo[_DIGEST_KEY] = store.context_digest(ctx)
    return ctx_digest


def passed(key: tuple, compute: Callable[[], bool]) -> bool:
    """``compute()``, a test of pure data named in full by ``key`` (see :func:`glyphs_key`,
    :func:`table_key`), or True when it passed before: only a pass is kept."""
    store = _here.store
    if store is None or not key:
        return bool(compute())
    if store.get(key) is True:
        return True
    value = bool(compute())
    if value:
        store.put(key, True)
    return value


def words_digest(*words: Any) -> bytes:
    """A digest of the vocabulary a near-miss test compares with (sets are sorted), or
    ``b""`` when nothing is kept; a test of one word is kept under ``(kind, word, digest)``."""
    if _here.store is None:
        return _NO_DIGEST
    parts = [sorted(w.items()) if isinstance(w, dict) else sorted(w) for w in words]
    return hashlib.sha256(repr(parts).encode()).digest()


def glyphs_key(text: str, faces: set[str]) -> tuple:
    """What decides whether the fonts ``faces`` have a glyph for every character of ``text``."""
    return ("glyphs", text, repr(sorted(faces))) if _here.store is not None else ()


def table_key(el, ctx: dict[str, Any], box_w: float, box_h: float, icons: dict) -> tuple:
    """What decides how table element ``el`` fits a ``box_w`` x ``box_h`` pt box on the
    card of ``ctx`` (its rows and cells come from templates), or ``()`` when nothing is kept."""
    store = _here.store
    if store is None:
        return ()
    ctx_digest = _context_digest(store, ctx)
    if not ctx_digest:
        return ()
    return ("table", ctx_digest, repr(el), box_w, box_h, store.icons_digest(icons_key(icons)))


def digest_of(values: dict[str, Any]) -> bytes:
    """The digest of the plain data ``values`` (a rule's scope: ``card``, ``game``) for
    :func:`truth`, or ``b""`` when nothing is kept (no check running, data not plain)."""
    store = _here.store
    return store.context_digest(values) if store is not None else _NO_DIGEST


def truth(scope: bytes, kind: str, source: str, compute: Callable[[], Any], keep: Callable[[bool], bool]) -> bool:
    """The truth of ``compute()`` (an expression ``source`` evaluated in the data of digest
    ``scope``, see :func:`digest_of`), or what it was before; kept when ``keep(truth)``
    (a rule keeps only what passes). Raises what ``compute`` raises."""
    store = _here.store
    if store is None or not scope:
        return bool(compute())
    digest = (kind, scope, source)
    value = store.get(digest)
    if value is user_cache.MISS:
        value = bool(compute())
        if keep(value):
            store.put(digest, value)
    return value


def _fit_digest(store: _Store, text: str, style, box_w: float, box_h: float, icons_key: tuple) -> tuple:
    """What a fit is kept under: its text, style, box, the game's icons and the style's font
    family (a pack font's key holds its files' digest; a shipped font is part of cardforge,
    whose version names the file) as the installed ReportLab reads it."""
    known = store.styles.get(id(style))
    if known is None or known[0] is not style:
        from cardforge.model.typefaces import styled

        faces = {style.font, *(styled(style.font, b, i) for b, i in ((True, False), (False, True), (True, True)))}
        known = store.styles[id(style)] = (style, f"{style!r}\n{sorted(faces)!r}")
    return ("fit", text, known[1], box_w, box_h, store.icons_digest(icons_key))


def known_fit(text: str, style, box_w: float, box_h: float, icons_key: tuple) -> tuple[float, float, float, float] | None:
    """The kept figures of a text that fitted, ``(size, height, width, smallest size)`` in
    pt, for the checks only (:func:`cardforge.resolve.text.fit` makes them a block without
    lines), or None."""
    store = _here.store
    if store is None:
        return None
    value = store.get(_fit_digest(store, text, style, box_w, box_h, icons_key))
    if not (isinstance(value, tuple) and len(value) == 4):
        return None
    return value


def learnt_fit(text: str, style, box_w: float, box_h: float, icons_key: tuple, block: Block) -> None:
    """Keep the figures of ``block`` if it is a success (see the module's docstring)."""
    store = _here.store
    if store is None or not block.fits or block.unknown_icons:
        return
    smallest = block.smallest
    if smallest < MIN_PRINTED - 1e-9:
        return
    store.put(_fit_digest(store, text, style, box_w, box_h, icons_key),
              (block.size, block.height, block.width, smallest))


_ICON_KEYS: dict[int, tuple[dict, tuple]] = ICON_KEYS.mapping()  # id(icons) -> (icons, their content), the dict kept so its id stays its own


def icons_key(icons: dict) -> tuple:
    """What a fit depends on in a game's icons (name -> :class:`~cardforge.model.Icon`):
    each icon's name and every field, worked out once per icons mapping."""
    known = _ICON_KEYS.get(id(icons))
    if known is not None and known[0] is icons and len(known[1]) == len(icons):
        return known[1]
    key = tuple((name, repr(icon)) for name, icon in sorted(icons.items()))
    _ICON_KEYS[id(icons)] = (icons, key)
    return key
