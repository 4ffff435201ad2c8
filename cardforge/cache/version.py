"""The one fingerprint of what shapes cardforge's output: its own files and its libraries.

Every cache of :mod:`cardforge.cache.registry` keys its entries on :func:`fingerprint`, so
editing any file of cardforge (code, schemas, shipped fonts, ICC profile), upgrading
Python, or installing another version of a library that reads, validates or draws
(:data:`SHAPING`) makes every kept entry a miss. There is no other "which version is
this" anywhere in cardforge.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from cardforge.cache.registry import ONCE
from cardforge.cache.files import digest_files, input_files

PACKAGE = Path(__file__).resolve().parents[1]  # the cardforge package folder
FORMAT = "2"  # bump when the layout of any cache changes
# the libraries whose version can change what a cache holds: parsing and validating
# (yaml, jsonschema...), templates (jinja2), drawing and rasterising (reportlab, svglib,
# cairosvg, PIL, pypdfium2, pikepdf, numpy for CMYK), Markdown (mistune), gettext catalogs (babel)
SHAPING = ("yaml", "jsonschema", "referencing", "jsonschema_specifications", "re2", "jinja2", "mistune",
           "reportlab", "_rl_accel", "svglib", "lxml", "tinycss2", "cssselect2", "cairosvg", "cairocffi",
           "PIL", "pypdfium2", "pikepdf", "numpy", "openpyxl", "babel")


def library_stamps(names: tuple[str, ...] = SHAPING) -> list[str]:
    """One ``name:origin:size:mtime_ns`` line per module in ``names`` (``name:-`` when it
    is not installed), read without importing it: installing another version of one
    changes its line."""
    from importlib.util import find_spec

    installed = []
    for name in names:
        try:
            spec = find_spec(name)
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec and spec.origin else ""
        try:
            st = os.stat(origin)
            installed.append(f"{name}:{origin}:{st.st_size}:{st.st_mtime_ns}")
        except OSError:
            installed.append(f"{name}:-")
    return installed


@ONCE.function
def fingerprint(package: Path = PACKAGE) -> str:
    """Hex SHA-256 of the cache format, the Python version, :func:`library_stamps` and the
    content of every file of the ``package`` folder (bytecode and hidden files excepted).
    Computed once per process; the files' digests are remembered by (size, mtime, inode)
    (:func:`cardforge.cache.files.file_digest`), so a warm process reads no file."""
    seed = f"{FORMAT};{sys.version};{';'.join(library_stamps())}"
    return digest_files(input_files(package), package, seed=seed)
