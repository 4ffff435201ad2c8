"""Every in-memory memo of cardforge, declared once, bounded, and cleared in one call.

A memo keeps what a process worked out (a font's glyph widths, a fitted text block, a
compiled template) so the next card, check or build asks again for nothing. In a ``cardforge
serve`` that runs for hours through hundreds of edits, a memo that only grows is a leak: so
every memo is a :class:`Memo` declared in :mod:`cardforge.cache.registry` (beside the
on-disk caches) with its name, its limit (entries kept, the least recently used dropped
past it), what it is keyed by and what it buys, and used through :meth:`Memo.function`
(a bounded :func:`functools.lru_cache`) or :meth:`Memo.mapping` (a bounded dict).
:func:`clear` empties every one of them (:func:`cardforge.cache.registry.clear` calls it);
``tests/test_memos.py`` fails on an ``lru_cache`` declared anywhere else. A memo is only a
shortcut: clearing it changes no output, only how soon it comes.
"""
from __future__ import annotations

import functools
import os
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
CACHE_OFF = "CARDFORGE_CACHE_OFF"  # cache and memo names, comma-separated: left unused (read and written by nothing)


def turned_off() -> set[str]:
    """The names of the caches and memos ``CARDFORGE_CACHE_OFF`` turns off."""
    return {name.strip() for name in os.environ.get(CACHE_OFF, "").split(",") if name.strip()}


class Bounded(OrderedDict):
    """A dict that keeps at most ``limit`` entries: setting a new key past it drops the least
    recently used one (a read with :meth:`get` or ``[]`` counts as a use)."""

    def __init__(self, limit: int):
        super().__init__()
        self.limit = limit
        self.used: set = set()  # keys read or set since the last sweep
        self.before: set = set()  # keys read or set in the round before it

    def __getitem__(self, key):
        value = super().__getitem__(key)
        self.used.add(key)
        try:
            self.move_to_end(key)
        except KeyError:  # dropped meanwhile by another thread
            pass
        return value

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def clear(self) -> None:
        super().clear()
        self.used, self.before = set(), set()

    def __setitem__(self, key, value) -> None:
        if key in self:
            self.move_to_end(key)
        super().__setitem__(key, value)
        self.used.add(key)
        while len(self) > self.limit:
            old, _ = self.popitem(last=False)
            self.used.discard(old)  # a process that never sweeps keeps no trace of what was dropped
            self.before.discard(old)


class PerObject(Bounded):
    """A :class:`Bounded` dict of what was worked out for an object (by its identity) that
    lets go of an entry as soon as its object is collected: a new object of the same kind
    made for each edit of a long ``serve`` (a card type's schema validator) then leaves
    nothing behind. An object that takes no weak reference is kept alive with its entry
    (its id must stay its own), until the entry is dropped past the limit."""

    def find(self, obj: Any) -> Any:
        """What was kept for ``obj``, or None."""
        found = self.get(id(obj))
        if found is None:
            return None
        held, value = found
        return value if (held() if isinstance(held, weakref.ref) else held) is obj else None

    def keep(self, obj: Any, value: Any) -> None:
        """Keep ``value`` for ``obj``."""
        key = id(obj)
        try:
            held = weakref.ref(obj, lambda ref, key=key: self._gone(key, ref))
        except TypeError:  # no weak reference to it (a dict): held strongly
            held = obj
        self[key] = (held, value)

    def _gone(self, key: int, ref) -> None:
        found = dict.get(self, key)
        if found is not None and found[0] is ref:
            self.pop(key, None)
            self.used.discard(key)
            self.before.discard(key)


@dataclass(frozen=True, eq=False)
class Memo:
    """One in-memory memo of one process.

    ``name``: what ``cardforge cache info`` calls it; ``limit``: the most entries it keeps
    (the least recently used dropped past it); ``key``: what an entry is keyed by;
    ``buys``: what it saves. A memo named in ``CARDFORGE_CACHE_OFF`` when the process
    starts keeps nothing (how ``tools/bench.py`` measures what it buys).
    """

    name: str
    limit: int
    key: str
    buys: str
    _held: list = field(default_factory=list, repr=False)  # the lru_cache functions and Bounded dicts made

    def function(self, fn: F) -> F:
        """``fn`` memoised with at most :attr:`limit` results (a decorator)."""
        cached = functools.lru_cache(maxsize=self.kept)(fn)
        self._held.append(cached)
        return cached  # type: ignore[return-value]

    def mapping(self) -> Bounded:
        """A dict of at most :attr:`limit` entries, emptied with the others by :func:`clear`."""
        kept = Bounded(self.kept)
        self._held.append(kept)
        return kept

    @property
    def kept(self) -> int:
        """The entries it keeps: :attr:`limit`, or 0 while it is turned off."""
        return 0 if self.name in turned_off() else self.limit

    def per_object(self) -> PerObject:
        """A :class:`PerObject` memo of at most :attr:`limit` entries, emptied with the others."""
        kept = PerObject(self.kept)
        self._held.append(kept)
        return kept

    def sweep(self) -> None:
        """Drop the mapping entries no one read or set in the last two rounds (sweep to
        sweep): what an edit left behind, such as the fit of a card's former text, while a
        second game served beside the edited one keeps its entries for a round more.
        ``lru_cache`` functions keep theirs (their limit bounds them)."""
        for held in self._held:
            if isinstance(held, Bounded):
                for key in [k for k in list(held) if k not in held.used and k not in held.before]:
                    held.pop(key, None)
                held.before, held.used = held.used, set()

    def entries(self) -> int:
        """How many entries the memo holds now, in this process."""
        return sum(h.cache_info().currsize if hasattr(h, "cache_info") else len(h) for h in self._held)

    def clear(self) -> None:
        for held in self._held:
            if hasattr(held, "cache_clear"):
                held.cache_clear()
            else:
                held.clear()


def clear(memos: tuple[Memo, ...]) -> None:
    """Empty every memo of ``memos`` in this process."""
    for memo in memos:
        memo.clear()
