"""The preview web app (starlette): pages, images, PDFs and the live-update stream.

Every route is a GET that reads what :class:`~cardforge.serve.state.Workspace` published.
Files are served only from three allow-lists, never by joining a requested path onto a
folder: the pack's own text files and layout file (:meth:`Workspace.files`), the PDFs of
:data:`~cardforge.serve.state.PDFS` in ``output/<slug>/``, and cached images named by a hex
content hash. Anything else is 404. On a loopback address, requests whose ``Host`` is not
a loopback name are refused (400), so a web page elsewhere cannot reach the server by DNS
rebinding.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import re
from pathlib import Path

from jinja2 import Environment, PackageLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cardforge import __version__
from cardforge.build import BuildOptions, Project
from cardforge.serve.state import PDFS, Workspace
from cardforge.util.filewatch import Watcher

STATIC = Path(__file__).resolve().parent / "static"
IMAGE_KEY = re.compile(r"[0-9a-f]{64}(-[a-z0-9]{1,12}){0,3}")
LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]
HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer",
           "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; "
                                      "connect-src 'self'; frame-ancestors 'none'; form-action 'none'"}

# rulebook.html: one self-contained page; it names its own script's hash in its own policy
WEB_BOOK_POLICY = ("default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                   "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")

templates = Environment(loader=PackageLoader("cardforge.serve", "templates"), autoescape=select_autoescape(["html"]),
                        trim_blocks=True, lstrip_blocks=True)


class Broadcast:
    """Fan-out of update messages from the worker thread to each open event stream."""

    def __init__(self):
        self.loop: asyncio.AbstractEventLoop | None = None
        self.listeners: set[asyncio.Queue] = set()

    def publish(self, message: dict) -> None:
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._fanout, message)

    def _fanout(self, message: dict | None) -> None:
        for listener in list(self.listeners):
            listener.put_nowait(message)


def create_app(project: Project, slugs: list[str], watch: bool = True, loopback: bool = True,
               options: BuildOptions = BuildOptions()) -> Starlette:
    """The app serving ``slugs`` of ``project``; building (with ``options``) and watching start
    with the app."""
    broadcast = Broadcast()
    workspace = Workspace(project, slugs, options=options)
    workspace.notify = lambda slug: broadcast.publish({"slug": slug, "version": workspace.version,
                                                        "status": workspace.games[slug].status,
                                                        "shown": workspace.games[slug].shown})
    watcher = Watcher(workspace.root, slugs, workspace.request) if watch else None

    @contextlib.asynccontextmanager
    async def lifespan(app):
        broadcast.loop = asyncio.get_running_loop()
        workspace.start()
        if watcher:
            watcher.start()
        try:
            yield
        finally:
            broadcast._fanout(None)
            if watcher:
                watcher.stop()
            workspace.stop()

    def page(name: str, request: Request, status_code: int = 200, **context) -> HTMLResponse:
        html = templates.get_template(name).render(request=request, workspace=workspace, version=__version__,
                                                   slugs=slugs, **context)
        return HTMLResponse(html, status_code=status_code, headers=HEADERS | {"Cache-Control": "no-store"})

    def game_of(request: Request):
        slug = request.path_params["slug"]
        if slug not in workspace.games:
            raise HTTPException(404, f"no game {slug!r} is served")
        return slug, workspace.games[slug]

    async def index(request: Request) -> Response:
        if len(slugs) == 1:
            return RedirectResponse(f"/g/{slugs[0]}", status_code=307)
        return page("index.html", request, games=[workspace.games[s] for s in slugs])

    async def gallery(request: Request) -> Response:
        slug, state = game_of(request)
        return page("gallery.html", request, slug=slug, state=state, tab="cards")

    async def problems(request: Request) -> Response:
        slug, state = game_of(request)
        return page("problems.html", request, slug=slug, state=state, tab="problems")

    async def documents(request: Request) -> Response:
        slug, state = game_of(request)
        return page("documents.html", request, slug=slug, state=state, tab="documents")

    async def card(request: Request) -> Response:
        slug, state = game_of(request)
        card_id = f"{request.path_params['type']}/{request.path_params['card']}"
        cards = state.snapshot.cards if state.snapshot else ()
        view = next((c for c in cards if c.id == card_id), None)
        if view is None:
            return page("missing.html", request, status_code=404, slug=slug, state=state, tab="cards",
                        what=f"no card {card_id!r} in {slug} (renamed or removed?)")
        files = workspace.files(slug)
        lines = _read_lines(files.get(view.file))
        return page("card.html", request, slug=slug, state=state, tab="cards", card=view, lines=lines,
                    editor=_editor(files.get(view.file), view.line),
                    problems=[p for p in state.problems if p.card_id == card_id])

    async def source(request: Request) -> Response:
        slug, state = game_of(request)
        rel = request.path_params["path"]
        files = workspace.files(slug)
        if rel not in files:
            raise HTTPException(404, "not a file of this game")
        lines = _read_lines(files[rel])
        marks = {}
        for p in state.problems:
            if p.file == rel and p.diagnostic.line:
                marks.setdefault(p.diagnostic.line, []).append(p)
        return page("source.html", request, slug=slug, state=state, tab="problems", rel=rel, lines=lines,
                    marks=marks, editor=_editor(files[rel], 1), files=sorted(files))

    async def pdf(request: Request) -> Response:
        slug, _ = game_of(request)
        name = request.path_params["name"]
        path = workspace.root / "output" / slug / name
        if name not in PDFS or not path.is_file():
            raise HTTPException(404, "no such PDF (yet)")
        return FileResponse(path, media_type="application/pdf", headers=HEADERS,
                            content_disposition_type="inline", filename=f"{slug}-{name}")

    async def rulebook_html(request: Request) -> Response:
        slug, _ = game_of(request)
        path = workspace.root / "output" / slug / "rulebook.html"
        if not path.is_file():
            raise HTTPException(404, "no rulebook.html (yet)")
        return FileResponse(path, media_type="text/html; charset=utf-8", headers=HEADERS | {"Content-Security-Policy": WEB_BOOK_POLICY})

    async def image(request: Request) -> Response:
        key = request.path_params["key"]
        if not IMAGE_KEY.fullmatch(key) or not workspace.cache.has(key):
            raise HTTPException(404, "no such image")
        return FileResponse(workspace.cache.path(key), media_type="image/png",
                            headers=HEADERS | {"Cache-Control": "public, max-age=31536000, immutable"})

    async def state_json(request: Request) -> Response:
        return JSONResponse({"version": workspace.version, "games": {
            s: {"status": g.status, "version": g.version, "errors": g.errors, "warnings": g.warnings,
                "cards": len(g.snapshot.cards) if g.snapshot else 0, "stale": g.stale}
            for s, g in workspace.games.items()}}, headers=HEADERS | {"Cache-Control": "no-store"})

    async def events(request: Request) -> Response:
        listener: asyncio.Queue = asyncio.Queue()
        broadcast.listeners.add(listener)

        async def stream():
            try:
                yield f"retry: 1000\ndata: {json.dumps({'version': workspace.version, 'hello': True})}\n\n"
                while True:
                    try:
                        message = await asyncio.wait_for(listener.get(), timeout=15)
                    except asyncio.TimeoutError:
                        yield ": keep-alive\n\n"
                        continue
                    if message is None:
                        return
                    yield f"data: {json.dumps(message)}\n\n"
            finally:
                broadcast.listeners.discard(listener)

        return StreamingResponse(stream(), media_type="text/event-stream",
                                 headers=HEADERS | {"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    async def not_found(request: Request, exc: HTTPException) -> Response:
        if request.url.path.startswith(("/img/", "/static/", "/events", "/api/")) or exc.status_code != 404:
            return Response(exc.detail or "refused", status_code=exc.status_code, headers=HEADERS,
                            media_type="text/plain")
        return page("missing.html", request, status_code=404, slug=None, state=None, tab="", what=exc.detail)

    routes = [
        Route("/", index), Route("/g/{slug}", gallery), Route("/g/{slug}/problems", problems),
        Route("/g/{slug}/documents", documents), Route("/g/{slug}/card/{type}/{card}", card),
        Route("/g/{slug}/file/{path:path}", source), Route("/g/{slug}/pdf/{name}", pdf),
        Route("/g/{slug}/rulebook.html", rulebook_html),
        Route("/img/{key}.png", image), Route("/api/state", state_json), Route("/events", events),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=LOOPBACK_NAMES)] if loopback else []
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                    exception_handlers={HTTPException: not_found})
    app.state.workspace = workspace
    app.state.broadcast = broadcast
    return app


def _read_lines(path: Path | None) -> list[str]:
    if path is None:
        return []
    return path.read_text(encoding="utf-8", errors="replace").splitlines()


def _editor(path: Path | None, line: int) -> str:
    """A link that opens ``path`` at ``line`` in VS Code (``vscode://file/<absolute path>:<line>``)."""
    return f"vscode://file{path.as_posix() if path.as_posix().startswith('/') else '/' + path.as_posix()}:{line}" if path else ""
