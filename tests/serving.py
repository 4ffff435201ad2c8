"""Helpers for the preview server's tests: run it in-process on a free loopback port."""
from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.request
from pathlib import Path

import uvicorn

from cardforge.build import Project
from cardforge.serve.app import create_app


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Served:
    """A running preview server: ``url``, ``root`` (the project) and ``app``."""

    def __init__(self, root: Path, slugs: list[str]):
        self.root = root
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = create_app(Project(root), slugs)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    timeout_graceful_shutdown=1))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> "Served":
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the preview server did not start")
            time.sleep(0.05)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)

    def state(self) -> dict:
        with urllib.request.urlopen(f"{self.url}/api/state") as response:
            return json.load(response)

    def wait_for(self, slug: str, *statuses: str, after: dict | None = None, timeout: float = 120) -> dict:
        """Wait until ``slug``'s status is one of ``statuses`` (in a state newer than ``after``,
        a state this returned before); returns its state (a set-up helper, not an assertion:
        the time limit only stops a hung server)."""
        deadline = time.monotonic() + timeout
        while True:
            game = self.state()["games"][slug]
            if game["status"] in statuses and (after is None or game["version"] > after["version"]):
                return game
            if time.monotonic() > deadline:
                held = self.app.state.workspace.games[slug]  # what the page shows, to say why
                codes = [f"{p.location}: {p.diagnostic.code}" for p in held.problems[:5]]
                raise TimeoutError(f"{slug} stayed {game['status']!r} (version {game['version']}; "
                                   f"internal {held.internal!r}; problems {codes})")
            time.sleep(0.1)


@contextlib.contextmanager
def serving(root: Path, *slugs: str):
    served = Served(root, list(slugs)).start()
    try:
        yield served
    finally:
        served.stop()
