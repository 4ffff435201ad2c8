"""What a check worked out about each card face, kept between runs in the user cache.

A check of a game evaluates every card's templates and ``when:`` tests and fits every
text (:mod:`cardforge.checks`), though after a one-card edit every other card gives what it
gave last time. These are pure results: a template's text is a function of its source and
its context (the card, ``game.yaml``, the back; see :mod:`cardforge.render.memo`), a fit of
its text, style, box (pt), the game's icons, the font's glyph widths and the installed
ReportLab. While :func:`kept` is active (in this thread, around a game's checks) they are
looked up under the SHA-256 of all of that and of cardforge itself
(:func:`cardforge.compiled.key`), and what was worked out afresh is added.

Only successes are kept, so every problem is found again by the code that reports it: a
template or test that raised is not kept (it raises again), and a fit is kept only when the
text fits its box, every inline icon is known and no type is set under
:data:`MIN_PRINTED` pt. A kept fit gives the checks its figures (type size, height and
width in pt, smallest size) without its lines: it is never handed to the renderer, which
fits afresh (:func:`cardforge.render.text.fit` keeps only what it measured in its own
process-wide memo).

One file per game folder (``$XDG_CACHE_HOME/cardforge/faces/``), written atomically when a
check learnt something, holding what that check used: a file never outgrows its game.
``CARDFORGE_NO_USER_CACHE=1`` turns it off.
"""
from __future__ import annotations

import hashlib
import marshal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from cardforge import compiled

if TYPE_CHECKING:
    from cardforge.model import Game
    from cardforge.render.text import Block

MIN_PRINTED = 6.0  # pt: a fit with smaller type is reported (checks.textfit), so it is never kept
_KIND = "faces"
_NO_DIGEST = b""


class _Here(threading.local):
    store: "_Store | None" = None


_here = _Here()


class _Store:
    """The kept results of one game: read on first use, written back by :meth:`save`."""

    def __init__(self, game: Game):
        self.game = game
        self.name = compiled.key("face-results", str(game.root.resolve()) if game.root else game.slug)
        self.known: dict[str, Any] | None = None
        self.used: dict[str, Any] = {}
        self.learnt = False
        self.game_digest: bytes | None = None
        self.icon_digests: dict[int, tuple[tuple, bytes]] = {}
        self.fit_digests: dict[tuple, str] = {}
        self.families: dict[str, str] = {}
        self.kinds: dict[str, Any] = {}

    def key(self, kind: str, *parts: bytes | str) -> str:
        """The hex SHA-256 of ``parts`` after :func:`cardforge.compiled.key` of ``kind`` (so
        under cardforge's version), that start hashed once per kind."""
        start = self.kinds.get(kind)
        if start is None:
            start = self.kinds[kind] = hashlib.sha256(compiled.key(kind).encode())
        h = start.copy()
        for part in parts:
            data = part.encode() if isinstance(part, str) else part
            h.update(b"\0%d\0" % len(data))
            h.update(data)
        return h.hexdigest()

    def _load(self) -> dict[str, Any]:
        if self.known is None:
            value = compiled.stored(_KIND, self.name)
            self.known = value if isinstance(value, dict) else {}
        return self.known

    def get(self, digest: str) -> Any:
        value = self._load().get(digest, compiled.MISS)
        if value is not compiled.MISS:
            self.used[digest] = value
        return value

    def put(self, digest: str, value: Any) -> None:
        self.used[digest] = value
        if self._load().get(digest, compiled.MISS) != value:
            self.learnt = True

    def save(self) -> None:
        """Write what this check used, if it learnt anything (so the file drops what no card uses now)."""
        if self.learnt:
            compiled.store(_KIND, self.name, dict(self.used))

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
    """While this block runs (in this thread), :func:`result` and :func:`known_fit` /
    :func:`learnt_fit` use the kept results of ``game``'s card faces; what was learnt is
    written back when it ends (also after an exception: only successes were recorded)."""
    if not compiled.enabled():
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
    memo = getattr(ctx, "memo", None)
    if memo is None:
        return compute()
    ctx_digest = memo.get(_DIGEST_KEY)
    if ctx_digest is None:
        ctx_digest = memo[_DIGEST_KEY] = store.context_digest(ctx)
    if not ctx_digest:
        return compute()
    digest = store.key(kind, ctx_digest, source)
    value = store.get(digest)
    if value is compiled.MISS:
        value = compute()
        if isinstance(value, (str, bool)):
            store.put(digest, value)
    return value


_DIGEST_KEY = ("facecache-digest",)  # where a context's digest is remembered in its memo


def _fit_digest(store: _Store, text: str, style, box_w: float, box_h: float, icons_key: tuple) -> str:
    """The digest of a fit: its text, style, box, the game's icons and the glyph widths of
    the style's font family (a pack font's key holds its files' digest; a shipped font is
    part of cardforge) as the installed ReportLab reads them."""
    memo_key = (text, style, box_w, box_h, id(icons_key))
    digest = store.fit_digests.get(memo_key)
    if digest is None:
        family = store.families.get(style.font)
        if family is None:
            from cardforge.render import fonts

            faces = {style.font, *(fonts.styled(style.font, b, i) for b, i in ((True, False), (False, True), (True, True)))}
            family = store.families[style.font] = repr(sorted(faces)) + "\n" + _reportlab()
        digest = store.fit_digests[memo_key] = store.key(
            "fit", text, repr(style), repr(box_w), repr(box_h), store.icons_digest(icons_key), family)
    return digest


@lru_cache(maxsize=None)
def _reportlab() -> str:
    """The installed ReportLab (whose reading of a font file gives the glyph widths)."""
    from cardforge.cache import library_stamps

    return "\n".join(library_stamps(("reportlab",)))


def known_fit(text: str, style, box_w: float, box_h: float, icons_key: tuple) -> Block | None:
    """The kept figures of a text that fitted (a :class:`~cardforge.render.text.Block`
    without lines, for the checks only), or None."""
    store = _here.store
    if store is None:
        return None
    value = store.get(_fit_digest(store, text, style, box_w, box_h, icons_key))
    if not isinstance(value, tuple):
        return None
    return _measured(*value)


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


def _measured(size: float, height: float, width: float, smallest: float) -> Block:
    from cardforge.render.text import Figures

    return Figures([], size, height, width, True, least=smallest)
