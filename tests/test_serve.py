"""The preview server without a browser: what it serves, what it refuses, how it maps saves
to games, and the `serve` command's refusal to listen beyond this computer unasked."""
from __future__ import annotations

import http.client
from pathlib import Path

import pytest

from cardforge.build import Project, compile_game
from cardforge.serve import is_loopback
from cardforge.util.filewatch import games_touched
from conftest import make_project, run_cli
from serving import serving

SLUG = "gate"


@pytest.fixture
def served(served_gate):
    return served_gate


def raw_get(served, path: str, host: str | None = None) -> tuple[int, bytes]:
    """GET ``path`` sent byte for byte as written (no client-side normalising of ``..``)."""
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
    try:
        conn.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
        conn.putheader("Host", host or f"127.0.0.1:{served.port}")
        conn.endheaders()
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def test_pack_files_are_served_and_paths_outside_are_refused(served):
    game_yaml = served.root / "cards" / SLUG / "game.yaml"
    status, body = raw_get(served, f"/g/{SLUG}/file/cards/{SLUG}/game.yaml")
    assert status == 200 and game_yaml.read_text().splitlines()[0].strip().encode()[:20] in body.replace(b"&#39;", b"'")
    secret = served.root / "secret.txt"  # inside the project, but not a file the page shows
    secret.write_text("not for the browser: 7f3c9a")
    outside = [
        f"/g/{SLUG}/file/../../../../../../etc/passwd",
        f"/g/{SLUG}/file/cards/{SLUG}/../../secret.txt",
        f"/g/{SLUG}/file/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        f"/g/{SLUG}/file/%2e%2e%2f%2e%2e%2fsecret.txt",
        f"/g/{SLUG}/file/cards/{SLUG}/%2e%2e/%2e%2e/secret.txt",
        f"/g/{SLUG}/file//etc/passwd",
        f"/g/{SLUG}/file/{game_yaml}",  # absolute, even to a file the page shows
        f"/g/{SLUG}/file/%2fetc%2fpasswd",
        f"/g/{SLUG}/file/secret.txt",
        f"/g/{SLUG}/pdf/..%2f..%2fsecret.txt",
        f"/g/{SLUG}/pdf/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        f"/g/{SLUG}/pdf/%2fetc%2fpasswd",
        "/static/../../../../etc/passwd",
        "/static/%2e%2e/%2e%2e/%2e%2e/secret.txt",
        "/static/%2e%2e/app.py",
        "/img/..%2f..%2fsecret.txt.png",
        "/img/%2e%2e%2fsecret.png",
        "/g/..%2f..%2fetc/file/passwd",
    ]
    for path in outside:
        status, body = raw_get(served, path)
        assert status in (403, 404), (path, status)
        assert b"root:" not in body and b"7f3c9a" not in body and b"import" not in body, path


def test_only_reading_is_allowed_and_only_from_this_computer(served):
    for method in ("POST", "PUT", "DELETE"):
        conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        conn.request(method, f"/g/{SLUG}/file/cards/{SLUG}/game.yaml", body=b"x")
        assert conn.getresponse().status == 405, method
        conn.close()
    status, _ = raw_get(served, f"/g/{SLUG}", host="attacker.example")  # DNS rebinding
    assert status == 400
    assert raw_get(served, f"/g/{SLUG}", host="localhost")[0] == 200


def test_pdfs_are_downloadable_and_images_are_content_keyed(served):
    served.wait_for(SLUG, "ready")
    for name in ("deck.pdf", "rules.pdf", "rulebook.pdf", "reference.pdf"):
        status, body = raw_get(served, f"/g/{SLUG}/pdf/{name}")
        assert status == 200 and body.startswith(b"%PDF"), name
        assert body == (served.root / "output" / SLUG / name).read_bytes()
    status, body = raw_get(served, f"/g/{SLUG}/rulebook.html")  # the rulebook as a web page, linked from the documents page
    assert status == 200 and body == (served.root / "output" / SLUG / "rulebook.html").read_bytes()
    assert f'href="/g/{SLUG}/rulebook.html"'.encode() in raw_get(served, f"/g/{SLUG}/documents")[1]
    status, page = raw_get(served, f"/g/{SLUG}")
    assert status == 200
    keys = {k.decode() for k in __import__("re").findall(rb'/img/([0-9a-f]{64}-[fb])\.png', page)}
    game = compile_game(served.root / "cards" / SLUG, Project(served.root)).game
    assert len(keys) == 2 * len({c.id for c in game.cards})  # a front and a back per card entry
    status, png = raw_get(served, f"/img/{sorted(keys)[0]}.png")
    assert status == 200 and png.startswith(b"\x89PNG")


def test_diagnostics_are_the_checks_records(tmp_path):
    root = make_project(tmp_path, SLUG)
    deck = next(p for p in sorted((root / "cards" / SLUG).glob("*.yaml")) if p.name != "game.yaml")
    deck.write_text(deck.read_text().replace("type: ", "type: unknown-", 1))
    expected = [d for d in compile_game(root / "cards" / SLUG, Project(root)).diagnostics if d.code == "card-type-unknown"]
    assert expected
    with serving(root, SLUG) as server:
        state = server.wait_for(SLUG, "errors")
        assert state["errors"] >= len(expected)
        status, page = raw_get(server, f"/g/{SLUG}/problems")
        text = page.decode()
        for d in expected:
            assert f"cards/{SLUG}/{deck.name}:{d.line}:{d.column}" in text
            assert f'href="/g/{SLUG}/file/cards/{SLUG}/{deck.name}#L{d.line}"' in text


def test_a_file_level_diagnostic_links_to_the_file_not_line_0(tmp_path):
    root = make_project(tmp_path, SLUG)
    stray = root / "cards" / SLUG / "stray.json"  # a file the pack never reads: file-unread, on no line
    stray.write_text("{}\n")
    expected = [d for d in compile_game(root / "cards" / SLUG, Project(root)).diagnostics if d.code == "file-unread"]
    assert expected and all(not d.line for d in expected)
    with serving(root, SLUG) as server:
        server.wait_for(SLUG, "ready", "errors")
        status, page = raw_get(server, f"/g/{SLUG}/problems")
        text = page.decode()
        link = f'href="/g/{SLUG}/file/cards/{SLUG}/stray.json"'
        assert status == 200 and link in text
        assert "#L0" not in text
        assert raw_get(server, link[len('href="'):-1])[0] == 200  # the link opens the file


def test_saves_are_mapped_to_the_games_they_touch(tmp_path):
    slugs = ["gate", "gateway"]
    assert games_touched(tmp_path, [str(tmp_path / "cards/gate/citizens.yaml")], slugs) == {"gate"}
    assert games_touched(tmp_path, [str(tmp_path / "layouts/gateway.yaml")], slugs) == {"gateway"}
    assert games_touched(tmp_path, [str(tmp_path / "layouts/presets/paper.yaml")], slugs) == {"gate", "gateway"}
    assert games_touched(tmp_path, [str(tmp_path / "cards/other/game.yaml"), str(tmp_path / "output/gate/deck.pdf")],
                         slugs) == set()


def test_serve_refuses_other_interfaces_unless_asked(tmp_path):
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.20")
    root = make_project(tmp_path, SLUG)
    result = run_cli("serve", SLUG, "--host", "0.0.0.0", "--root", str(root))
    assert result.exit_code == 2
    assert "--allow-remote" in result.stderr
    result = run_cli("serve", "no-such-game", "--root", str(root))
    assert result.exit_code == 1 and "no-such-game" in result.stderr


def test_bad_input_is_shown_and_never_stops_the_server(tmp_path):
    root = make_project(tmp_path, SLUG)
    pack = root / "cards" / SLUG
    game = compile_game(pack, Project(root)).game
    icon = next(i for i in game.icons.values() if i.svg)
    card_file = pack / Path(game.cards[0].source.file).name
    saved = {p: p.read_bytes() for p in (icon.svg, card_file, pack / "game.yaml")}
    with serving(root, SLUG) as server:
        server.wait_for(SLUG, "building", "ready")
        icon.svg.write_text("<svg><not svg")  # draws nowhere: the build names the icon's line
        state = server.wait_for(SLUG, "errors")
        status, page = raw_get(server, f"/g/{SLUG}/problems")
        assert status == 200 and b"icon-file" in page
        assert f"cards/{SLUG}/game.yaml:{game.source.line('icons', icon.name, 'svg')}".encode() in page
        icon.svg.write_bytes(saved[icon.svg])
        card_file.write_bytes(b"cards:\n  - name: \xff\xfe\n")  # not UTF-8
        state = server.wait_for(SLUG, "errors", after=state)
        assert f"cards/{SLUG}/{card_file.name}:2".encode() in raw_get(server, f"/g/{SLUG}/problems")[1]
        (pack / "game.yaml").unlink()
        state = server.wait_for(SLUG, "errors", after=state)
        assert b"pack-missing" in raw_get(server, f"/g/{SLUG}/problems")[1]
        for path, data in saved.items():
            path.write_bytes(data)
        state = server.wait_for(SLUG, "building", "ready")
        assert state["errors"] == 0 and state["cards"] == len(game.cards)
        assert raw_get(server, f"/g/{SLUG}")[0] == 200


def test_a_build_worker_killed_between_builds_is_replaced(tmp_path):
    """The build worker killed while idle (the out-of-memory killer, a user's ``kill``) leaves
    a broken pool behind; the next save must still be built, not fail at every save after."""
    import multiprocessing
    import os
    import signal
    import threading

    from cardforge.build import BuildOptions
    from cardforge.serve.builder import Builder

    (tmp_path / "cards").mkdir()
    ended: list[tuple] = []
    event = threading.Event()
    others = {p.pid for p in multiprocessing.active_children()}  # started by earlier tests
    builder = Builder(tmp_path, BuildOptions(), lambda *done: (ended.append(done), event.set()))
    try:
        builder.request("absent", 1)  # a game not there: built at once, nothing written
        assert event.wait(120) and ended[-1][:3] == ("absent", 1, [])
        event.clear()
        for pid in {p.pid for p in multiprocessing.active_children()} - others:  # the build worker
            os.kill(pid, signal.SIGKILL)
        builder._pool._executor_manager_thread.join(30)  # the pool has seen its worker die
        builder.request("absent", 2)
        assert event.wait(120) and ended[-1][:3] == ("absent", 2, [])  # a list: the build ran
        assert not builder.busy("absent")
    finally:
        builder.close()


def test_the_build_worker_is_replaced_after_its_share_of_builds(tmp_path, monkeypatch):
    """A long session's builds run in a worker that a fresh one replaces every
    ``BUILDS_PER_WORKER`` builds (what a build leaves in memory goes back to the system);
    every build is still run and reported."""
    import multiprocessing
    import threading

    from cardforge.build import BuildOptions
    from cardforge.serve import builder as building

    monkeypatch.setattr(building, "BUILDS_PER_WORKER", 2)
    (tmp_path / "cards").mkdir()
    ended: list[tuple] = []
    event = threading.Event()
    workers: set[int] = set()
    others = {p.pid for p in multiprocessing.active_children()}  # started by earlier tests
    builder = building.Builder(tmp_path, BuildOptions(), lambda *done: (ended.append(done), event.set()))
    try:
        for generation in range(1, 6):
            builder.request("absent", generation)
            assert event.wait(120)
            event.clear()
            workers |= {p.pid for p in multiprocessing.active_children()} - others
    finally:
        builder.close()
    assert [e[:3] for e in ended] == [("absent", g, []) for g in range(1, 6)]
    assert len(workers) == 3  # 2 + 2 + 1 builds


def test_a_build_that_ends_before_it_is_watched_is_reported_in_order_and_never_deadlocks(tmp_path, monkeypatch):
    """A build may end before the builder registers for its end (the pool's thread is
    quicker than the one that submitted it): the report then comes at once, in the thread
    that asked, and must neither wait for the builder's own lock nor come before the report
    of the build before it."""
    import threading
    from concurrent.futures import Future

    from cardforge.build import BuildOptions
    from cardforge.serve import builder as building

    pending: list[Future] = []

    class Pool:  # the first build runs until released; every later one has ended when submitted
        def __init__(self, *args, **kwargs):
            pass

        def submit(self, fn, *args):
            future: Future = Future()
            if pending:
                future.set_result(([], []))
            pending.append(future)
            return future

        def shutdown(self, *args, **kwargs):
            pass

    monkeypatch.setattr(building, "ProcessPoolExecutor", Pool)
    ended: list[tuple] = []
    builder = building.Builder(tmp_path, BuildOptions(), lambda *done: ended.append(done[:2]))

    def session():
        builder.request("gate", 1)  # under way
        builder.request("gate", 2)  # wanted after it
        pending[0].set_result(([], []))  # ends: the second is submitted, and has ended at once
        builder.request("gate", 3)  # submitted, and has ended at once

    thread = threading.Thread(target=session, daemon=True)
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "the builder waited for its own lock"
    assert ended == [("gate", 1), ("gate", 2), ("gate", 3)]
    assert not builder.busy("gate")
