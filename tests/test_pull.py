"""``cardforge pull GAME`` fetches the pack's sheet from the ``url:`` of its mapping (here a local
HTTP server on 127.0.0.1), writes it as the pack's card file and records where and when; an
unreachable address, an HTTP error or a web page instead of a sheet is a ``source-pull`` error at
the ``url:`` line that leaves the pack's file as it was; check and build never open the network."""
from __future__ import annotations

import csv
import http.server
import io
import socket
import threading

import pytest
import yaml

from tests.conftest import REPO, line_of, run_cli

SHEET = (REPO / "examples/harvest.csv").read_bytes()
NEWER = SHEET.replace(b"Lumber Yard", b"Saw Mill")


class Handler(http.server.BaseHTTPRequestHandler):
    routes: dict[str, tuple[int, str, bytes]] = {}

    def do_GET(self):  # noqa: N802 - the http.server name
        status, kind, body = self.routes.get(self.path, (404, "text/plain", b"no such sheet"))
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture()
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    Handler.routes = {"/deck.csv": (200, "text/csv", NEWER),
                      "/page": (200, "text/html", b"<!DOCTYPE html><html><body>Sign in</body></html>"),
                      "/empty": (200, "text/csv", b"")}
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def pack(root, url: str):
    """The harvest starter pack, its sheet's mapping given ``url`` (the mapping is game.yaml's last key)."""
    assert run_cli("new", "harvest", "--from", str(REPO / "examples/harvest.csv"), "--root", str(root)).exit_code == 0
    game = root / "cards/harvest/game.yaml"
    text = game.read_text()
    start = text.index("\nsources:\n") + 1
    sources = yaml.safe_load(text[start:])
    sources["sources"]["harvest.csv"] = {"url": url, **sources["sources"]["harvest.csv"]}
    game.write_text(text[:start] + yaml.safe_dump(sources, sort_keys=False))
    return game


def test_pull_writes_the_sheet_and_records_where_and_when(tmp_path, server):
    game = pack(tmp_path, f"{server}/deck.csv")
    result = run_cli("pull", "harvest", "--root", str(tmp_path))
    assert result.exit_code == 0, result.output
    sheet = tmp_path / "cards/harvest/harvest.csv"
    assert sheet.read_bytes() == NEWER
    rows = len(list(csv.reader(io.StringIO(NEWER.decode())))) - 1  # a quoted cell may span lines
    assert "pulled" in result.stderr and f"({rows} rows) from {server}/deck.csv" in " ".join(result.stderr.split())
    record = yaml.safe_load((tmp_path / "cards/harvest/.pulled.txt").read_text())
    entry = record["harvest.csv"]
    assert entry["url"] == f"{server}/deck.csv" and entry["bytes"] == len(NEWER) and entry["at"].endswith("+00:00")
    check = run_cli("check", "harvest", "--root", str(tmp_path))
    assert check.exit_code == 0 and "file-unread" not in check.stderr, check.stderr
    assert "url" in yaml.safe_load(game.read_text())["sources"]["harvest.csv"]


@pytest.mark.parametrize("path, message", [("/page", "answered a web page, not the sheet"),
                                           ("/empty", "answered an empty answer"),
                                           ("/missing.csv", "answered HTTP 404")])
def test_a_bad_answer_is_an_error_at_the_url_line_and_the_sheet_is_kept(tmp_path, server, path, message):
    game = pack(tmp_path, f"{server}{path}")
    result = run_cli("pull", "harvest", "--root", str(tmp_path))
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert f"game.yaml:{line_of(game, '    url:')}: error[source-pull]" in result.stderr
    assert message in " ".join(result.stderr.split())
    assert (tmp_path / "cards/harvest/harvest.csv").read_bytes() == SHEET
    assert not (tmp_path / "cards/harvest/.pulled.txt").exists()
    assert [p.name for p in (tmp_path / "cards/harvest").iterdir() if p.name.startswith(".pull-")] == []


def test_an_unreachable_address_is_a_clear_error(tmp_path):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    pack(tmp_path, f"http://127.0.0.1:{port}/deck.csv")
    result = run_cli("pull", "harvest", "--root", str(tmp_path))
    assert result.exit_code == 1 and "error[source-pull]: cannot reach" in result.stderr
    assert (tmp_path / "cards/harvest/harvest.csv").read_bytes() == SHEET


def test_a_pack_without_a_url_is_told_how_to_give_one(tmp_path):
    assert run_cli("new", "harvest", "--from", str(REPO / "examples/harvest.csv"), "--root", str(tmp_path)).exit_code == 0
    result = run_cli("pull", "harvest", "--root", str(tmp_path))
    assert result.exit_code == 1 and "has a `url:`" in result.stderr and "docs.google.com" in result.stderr


def test_check_and_build_never_open_the_network(tmp_path, monkeypatch):
    pack(tmp_path, "https://docs.google.com/spreadsheets/d/abc/edit#gid=0")

    def refuse(*args, **kwargs):
        raise AssertionError("a connection was opened")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    assert run_cli("check", "harvest", "--root", str(tmp_path), "--no-cache").exit_code == 0
    assert run_cli("build", "harvest", "--root", str(tmp_path), "--no-cache", "--jobs", "1").exit_code == 0


def test_google_sheets_links_become_export_links():
    from cardforge.sources.pull import export_url

    assert export_url("https://docs.google.com/spreadsheets/d/AbC_1/edit#gid=42", ".csv") == \
        "https://docs.google.com/spreadsheets/d/AbC_1/export?format=csv&gid=42"
    assert export_url("https://docs.google.com/spreadsheets/d/AbC_1/edit?usp=sharing", ".xlsx") == \
        "https://docs.google.com/spreadsheets/d/AbC_1/export?format=xlsx"
    published = "https://docs.google.com/spreadsheets/d/e/2PACX-1vX/pub?output=csv"
    assert export_url(published, ".csv") == published
    assert export_url("https://example.org/deck.csv", ".csv") == "https://example.org/deck.csv"
