"""Did-you-mean suggestions, by fuzzy matching (rapidfuzz, imported on the first
suggestion: a check that finds nothing misspelt does not load it)."""
from __future__ import annotations

from collections.abc import Iterable


def closest(word: str, choices: Iterable[str], cutoff: float = 75.0) -> str | None:
    """The choice most like ``word`` (case-insensitive WRatio >= ``cutoff``), or None."""
    options = list(dict.fromkeys(choices))
    if not options:
        return None
    from rapidfuzz import fuzz, process, utils

    found = process.extractOne(word, options, scorer=fuzz.WRatio, processor=utils.default_process,
                               score_cutoff=cutoff)
    return found[0] if found else None


def did_you_mean(word: str, choices: Iterable[str], cutoff: float = 75.0) -> str:
    """``'did you mean "X"?'`` for the closest choice, or an empty string."""
    best = closest(word, choices, cutoff)
    return f'did you mean "{best}"?' if best else ""
