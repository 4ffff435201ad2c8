"""cardforge's own fixed words in the language of the pack being printed (gettext).

The words cardforge itself prints on a pack's documents (headings such as Components,
Setup, Glossary, Appendix, the † explanation, the rules sheet's fold labels, the almanac's
table headers) are written in English in the code and pass through :func:`gettext` (``_``)
on their way to a page. While a translated pack renders, :func:`language` makes its
language current: each word is then looked up in the pack's own overrides (entries of its
``locale/<lang>.po`` whose ``msgctxt`` is ``cardforge``, see
:mod:`cardforge.sources.catalogs`), then in cardforge's catalog shipped in the package
(``cardforge/locale/<lang>/LC_MESSAGES/cardforge.po``, read with Babel, never compiled),
and falls back to the English word. Outside :func:`language`, or for English, every word
is itself. A fuzzy or empty entry is not used.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
import contextlib
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from cardforge.cache.registry import CATALOGS

LOCALE = Path(__file__).resolve().parent.parent / "locale"  # cardforge/locale/<lang>/LC_MESSAGES/cardforge.po
DOMAIN = "cardforge"
SHIPPED = ("en", "es", "fr", "de")  # the languages cardforge's own catalogs cover

# (language, the pack's overrides) while a translated pack renders; None: English, as written
_current: ContextVar[tuple[str, Mapping[str, str]] | None] = ContextVar("cardforge_language", default=None)


def catalog_file(lang: str) -> Path:
    """The .po file of cardforge's own fixed words in ``lang`` (it may not exist)."""
    return LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def own_words(lang: str) -> dict[str, str]:
    """cardforge's fixed words in ``lang``: English -> translation (translated, not fuzzy
    entries only); {} for a language cardforge ships no catalog for. Tries ``pt_BR``, then
    ``pt``."""
    for code in dict.fromkeys((lang, lang.replace("-", "_").split("_")[0])):
        path = catalog_file(code)
        try:
            stamp = path.stat().st_mtime_ns
        except OSError:
            continue
        return dict(_read(str(path), stamp))
    return {}


@CATALOGS.function
def _read(path: str, stamp: int) -> tuple[tuple[str, str], ...]:
    from babel.messages.pofile import read_po

    with open(path, "rb") as fh:
        catalog = read_po(fh)
    return tuple((m.id, m.string) for m in catalog if m.id and isinstance(m.id, str) and isinstance(m.string, str)
                 and m.string and not m.fuzzy)


@contextmanager
def language(lang: str | None, overrides: Mapping[str, str] | None = None) -> Iterator[None]:
    """Within this block (in this thread or task), :func:`gettext` answers in ``lang``;
    ``overrides`` (English -> the pack's own word) come first. ``None`` or ``"en"`` with no
    overrides: English."""
    if not lang or (lang.split("_")[0] == "en" and not overrides):
        token = _current.set(None)
    else:
        words = dict(own_words(lang))
        words.update(overrides or {})
        token = _current.set((lang, words))
    try:
        yield
    finally:
        _current.reset(token)


def speaking(game) -> contextlib.AbstractContextManager:
    """:func:`language` of a game (:class:`cardforge.model.Game`): its ``language`` and ``fixed_words``."""
    return language(getattr(game, "language", None), getattr(game, "fixed_words", None))


def current() -> str | None:
    """The language :func:`language` made current (None: English, as written)."""
    state = _current.get()
    return state[0] if state else None


def gettext(message: str) -> str:
    """``message`` (an English fixed word of cardforge) in the current language."""
    state = _current.get()
    if state is None:
        return message
    return state[1].get(message) or message


_ = gettext
