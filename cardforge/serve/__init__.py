"""``cardforge serve``: a live preview of a project's games in the browser.

The page shows every card face, the rules sheet, rulebook and reference pages, and the same
diagnostics as ``cardforge check``, and follows edits to the pack and layout files. It reads
build results only (:mod:`cardforge.build`); see :mod:`cardforge.serve.app` for what it
serves and refuses, :mod:`cardforge.serve.state` for how it rebuilds.
"""
from __future__ import annotations

import ipaddress

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this computer only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(project, slugs: list[str], host: str = "127.0.0.1", port: int = 8000, options=None) -> None:
    """Serve ``slugs`` of ``project`` at http://host:port/ until interrupted (blocks); builds
    with ``options`` (:class:`cardforge.build.BuildOptions`, default Letter)."""
    import uvicorn

    from cardforge.build import BuildOptions
    from cardforge.serve.app import create_app

    app = create_app(project, slugs, loopback=is_loopback(host), options=options or BuildOptions())
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=1)
