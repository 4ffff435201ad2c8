"""``cardforge pull GAME``: the pack's sheet fetched from where the designer keeps it.

A sheet of game.yaml ``sources:`` may name where it lives with ``url:`` (a Google Sheets
link, or any http(s) URL that answers with the sheet)::

    sources:
      deck.csv:
        url: https://docs.google.com/spreadsheets/d/1AbC.../edit#gid=0
        type: card

:func:`pull` downloads each such sheet, checks that the answer is a sheet of the kind the
file name says (CSV text with a header row, or an XLSX/ODS workbook), writes it over the
pack's file (atomically: a failed pull leaves the old file as it was) and records where
and when in the pack's ``.pulled.txt`` (``{file: {url, fetched, at, bytes, sha256}}``, the
time in UTC). A Google Sheets link to the sheet's page (``/edit``) is turned into its
export link in the file's format (``/export?format=csv&gid=...``); a published link
(``/d/e/.../pub?output=csv``) or any other URL is used as written.

Only this module opens the network, and only ``cardforge pull`` calls it: build, check and
serve read the files in the pack. Every failure (no ``url:``, no network, an HTTP error, a
web page or empty answer instead of a sheet) is a ``source-pull`` diagnostic naming the
sheet's ``url:`` line in game.yaml.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import shutil
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import yaml

from cardforge.sources.tables import SourceError, read_tables
from cardforge.util.diagnostics import SOURCE_PULL, Diagnostic, diag, display_path

RECORD = ".pulled.txt"  # hidden, and not a card file (*.yaml): file-unread and the loader pass it by
LIMIT = 50 * 1024 * 1024  # bytes: a sheet larger than this is refused
TIMEOUT = 30.0  # seconds
FORMATS = {".csv": "csv", ".xlsx": "xlsx", ".ods": "ods"}
_GOOGLE = re.compile(r"^https://docs\.google\.com/spreadsheets/d/([A-Za-z0-9_-]+)(/[^?#]*)?(?:\?([^#]*))?(?:#(.*))?$")


class PullError(Exception):
    """A pull that failed; carries the diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


@dataclass(frozen=True)
class Pulled:
    """One sheet pulled: the file written, the URL asked and the rows it holds (sheets for a workbook)."""

    path: Path
    url: str
    rows: int


def export_url(url: str, suffix: str) -> str:
    """The URL to download a sheet saved as ``suffix`` (.csv, .xlsx, .ods) from: a Google Sheets
    page link becomes its export link in that format (keeping its ``gid``, the tab); a published
    or export link, and any other URL, stays as written."""
    match = _GOOGLE.match(url)
    if match is None or match.group(1) == "e":  # not Google Sheets, or a link published to the web
        return url
    rest, query, fragment = match.group(2) or "", match.group(3) or "", match.group(4) or ""
    if rest.startswith(("/export", "/pub", "/gviz")):
        return url
    gid = (urllib.parse.parse_qs(query).get("gid") or urllib.parse.parse_qs(fragment).get("gid") or [""])[0]
    out = f"https://docs.google.com/spreadsheets/d/{match.group(1)}/export?format={FORMATS.get(suffix, 'csv')}"
    return out + (f"&gid={gid}" if gid and suffix == ".csv" else "")


def _fetch(url: str, where: dict) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": "cardforge-pull"})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:  # noqa: S310 - http(s) only (schema pattern)
            data = answer.read(LIMIT + 1)
    except urllib.error.HTTPError as exc:
        hint = ("share the sheet as \"anyone with the link can view\", or publish it to the web as CSV "
                "(File > Share > Publish to web)" if exc.code in (401, 403, 404) and "google" in url else None)
        raise PullError([diag(SOURCE_PULL, f"{url} answered HTTP {exc.code} ({exc.reason})", hint=hint, **where)]) from None
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise PullError([diag(SOURCE_PULL, f"cannot reach {url}: {reason}", **where,
                              hint="check the network connection and the URL; the pack's sheet is left as it was")]) from None
    except ValueError as exc:
        raise PullError([diag(SOURCE_PULL, f"not a URL cardforge can fetch: {exc}", **where)]) from None
    if len(data) > LIMIT:
        raise PullError([diag(SOURCE_PULL, f"{url} answered more than {LIMIT // (1024 * 1024)} MB: not a sheet", **where)])
    return data


def _not_a_sheet(data: bytes, suffix: str) -> str | None:
    """Why ``data`` is not a sheet saved as ``suffix`` (None when it looks like one)."""
    head = data[:512].lstrip().lower()
    if not data.strip():
        return "an empty answer"
    if head.startswith((b"<!doctype html", b"<html", b"<?xml", b"<head")):
        return "a web page"
    if suffix in (".xlsx", ".ods") and not data.startswith(b"PK"):
        return f"not a {suffix} workbook"
    if suffix == ".csv" and data.startswith(b"PK"):
        return "a workbook, not CSV text"
    return None


def pull(pack: Path, only: str | None = None) -> list[Pulled]:
    """Fetch every sheet of the pack folder ``pack`` whose game.yaml mapping has a ``url:``
    (``only``: that file name alone) and write it into the pack. Raises :class:`PullError`
    (``source-pull``, or the reader's diagnostics for an unreadable answer); a sheet already
    written stays written, the one that failed is left as it was."""
    from cardforge.sources.yamlfile import read_yaml

    game_file = pack / "game.yaml"
    data, source, problems = read_yaml(game_file)
    if data is None:
        raise PullError(problems)
    sources = (data.get("sources") if isinstance(data, dict) else None) or {}
    wanted = {name: spec for name, spec in sources.items() if isinstance(spec, dict) and spec.get("url")}
    if only is not None:
        wanted = {k: v for k, v in wanted.items() if k == only}
    if not wanted:
        raise PullError([diag(SOURCE_PULL, f"no sheet of {display_path(game_file)} has a `url:`"
                              + (f" for {only}" if only else ""), file=display_path(game_file),
                              hint="give the sheet's mapping its address: `sources: {deck.csv: {url: "
                                   "https://docs.google.com/spreadsheets/d/.../edit, type: card}}`")])
    record_path = pack / RECORD
    try:
        record = yaml.safe_load(record_path.read_text(encoding="utf-8")) if record_path.is_file() else {}
    except (OSError, yaml.YAMLError):
        record = {}
    record = record if isinstance(record, dict) else {}
    done = []
    for name, spec in wanted.items():
        where = {"file": display_path(game_file), "line": source.line("sources", name, "url") if source else None}
        suffix = Path(name).suffix.lower()
        if suffix not in FORMATS or Path(name).name != name:
            raise PullError([diag(SOURCE_PULL, f"{name}: cardforge pulls a sheet into a .csv, .xlsx or .ods file of the pack",
                                  **where)])
        url = export_url(str(spec["url"]), suffix)
        body = _fetch(url, where)
        why = _not_a_sheet(body, suffix)
        if why:
            raise PullError([diag(SOURCE_PULL, f"{url} answered {why}, not the sheet", **where,
                                  hint="use a link that downloads the sheet itself: in Google Sheets, share it as "
                                       "\"anyone with the link\" or publish it to the web as CSV")])
        target = pack / name
        folder = Path(tempfile.mkdtemp(prefix=".pull-", dir=pack))  # hidden: no reader of the pack looks inside
        temp = folder / name
        try:
            temp.write_bytes(body)
            try:
                tables = read_tables(temp, f"{url} ({name})")
            except SourceError as exc:
                raise PullError(exc.diagnostics) from None
            if not any(t.header for t in tables):
                raise PullError([diag(SOURCE_PULL, f"{url} answered a sheet with no rows", **where)])
            os.replace(temp, target)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        record[name] = {"url": str(spec["url"]), "fetched": url,
                        "at": dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat(),
                        "bytes": len(body), "sha256": hashlib.sha256(body).hexdigest()}
        record_path.write_text("# Written by `cardforge pull`: where and when each sheet was fetched.\n"
                               + yaml.safe_dump(record, sort_keys=True, allow_unicode=True), encoding="utf-8")
        done.append(Pulled(target, url, sum(len(t.rows) for t in tables)))
    return done
