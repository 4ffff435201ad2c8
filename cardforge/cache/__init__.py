"""The one cache store of cardforge.

* :mod:`~cardforge.cache.registry` names every on-disk cache (its folder, what it is keyed
  by, its limit and pruning, what it buys) and turns the user caches off;
  ``cardforge cache info|clear`` reads it.
* :mod:`~cardforge.cache.version`: the one fingerprint of cardforge's files and the
  libraries that shape its output, part of every key.
* :mod:`~cardforge.cache.files`: which files are inputs, their digests, atomic writes and
  pruning, shared by every cache.
* :mod:`~cardforge.cache.store`: the project's artefact store (``output/.cache``).
* :mod:`~cardforge.cache.kept`: pure results in the user caches (``~/.cache/cardforge``).

A cache only ever saves time: every output is byte for byte what ``--no-cache`` writes.
"""
from cardforge.cache.files import file_digest, input_files, load_digests, save_digests, write_atomic
from cardforge.cache.registry import CACHES, Cache, user_enabled, user_root
from cardforge.cache.store import (Entry, Store, artefact_key, inputs_unchanged, layout_inputs, pack_inputs,
                                   same_content, seen_from)
from cardforge.cache.version import fingerprint, library_stamps

__all__ = ["CACHES", "Cache", "Entry", "Store", "artefact_key", "file_digest", "fingerprint",
           "input_files", "inputs_unchanged", "layout_inputs", "library_stamps", "load_digests", "pack_inputs", "same_content",
           "save_digests", "seen_from", "user_enabled", "user_root", "write_atomic"]
