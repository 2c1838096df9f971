"""The table's page over HTTP: a Starlette app, run by ``gongzhu-score serve``.

Thin on purpose: every answer is a function of :mod:`.state`, run in a worker thread (they read
and write the ledger under its lock). What this module adds is what HTTP needs: the key on every
request (401 without one, 403 with a wrong one), bounded bodies (413), JSON or a 400, each
refusal of the library as a 4xx with its message in the page's language, and the live feed: the
ledger file is watched (a ``stat`` every 0.2 s; read only when it moved) and every open page is
told its new version by server-sent events, whoever changed it (a phone, or the command line on
the same file). No request names a file: the page's three files are read from the package once,
and the only other file is the ledger.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from importlib import resources
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import ChangedMeanwhileError, GongzhuError
from ..match.history import digest
from ..terms import LANGS, Listed, error, printable, say
from . import state
from .state import RequestError

__all__ = ["MAX_BODY", "create_app"]

MAX_BODY = 64 * 1024
"""The largest request body taken (a whole hand is well under 2 KiB)."""

MAX_LISTENERS = 64
"""Open live feeds at most (a table has four phones; more is someone leaving tabs open)."""

POLL_SECONDS = 0.2
HEARTBEAT_SECONDS = 15.0
_FILES = {
    "app.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_PAGE_HEADERS = {
    **_HEADERS,
    # Nothing but the page's own files; no frames, no form posts elsewhere.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; form-action 'none'; base-uri 'none'",
    "Referrer-Policy": "no-referrer",
}


def _static(name: str) -> bytes:
    return resources.files(__package__).joinpath("static").joinpath(name).read_bytes()


class _KeyGuard:
    """Every request must carry the match's key (``?key=``).

    Without it the answer is 401; with another, 403.
    """

    def __init__(self, app: ASGIApp, key: str, lang: str) -> None:
        self.app, self.key, self.lang = app, key.encode("ascii"), lang

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # (no WebSocket here)
            return
        given = parse_qs(scope.get("query_string", b"")).get(b"key")
        if not given:
            reply = _error(401, "error.web.no_key", self.lang)
        elif not hmac.compare_digest(given[0], self.key):
            reply = _error(403, "error.web.wrong_key", self.lang)
        else:
            await self.app(scope, receive, send)
            return
        await reply(scope, receive, send)


def _error(status: int, key: str, lang: str, **values: object) -> JSONResponse:
    return JSONResponse({"error": say(key, lang, **values)}, status, headers=_HEADERS)


class _Feed:
    """The ledger's version, watched: each open page waits on :meth:`changed`."""

    def __init__(self, ledger: str) -> None:
        self.ledger = ledger
        self.version: str | None = None
        self.listeners = 0
        self._seen: tuple[int, int, int] | None = None
        self._moved = asyncio.Event()

    def _look(self) -> tuple[tuple[int, int, int], str] | None:
        """The file's identity and version if it moved since last seen, else None.

        It runs in a worker thread, since it reads the file. None also when it cannot be read
        now.
        """
        try:
            st = os.stat(self.ledger)
            seen = (st.st_mtime_ns, st.st_size, st.st_ino)
            if seen == self._seen:
                return None
            with open(self.ledger, "rb") as f:
                return seen, digest(f.read())
        except OSError:  # gone or unreadable for a moment: the next look says
            return None

    async def refresh(self) -> None:
        """Look at the file; tell every waiting page if its version changed.

        What was seen and the version are set together, here on the event loop, never from a
        thread.
        """
        found = await run_in_threadpool(self._look)
        if found is None:
            return
        self._seen, version = found
        if version != self.version:
            self.version = version
            self._moved.set()
            self._moved = asyncio.Event()

    async def watch(self) -> None:
        while True:
            await self.refresh()
            await asyncio.sleep(POLL_SECONDS)

    def now(self) -> tuple[str | None, asyncio.Event]:
        """The version, and the event its next change will set.

        They are taken together, so a change made while a page is being told the version is not
        missed.
        """
        return self.version, self._moved

    @staticmethod
    async def changed(moved: asyncio.Event, timeout: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(moved.wait(), timeout)


def create_app(
    ledger: str, key: str, lang: str = "zh", now: Callable[[], datetime] | None = None
) -> ASGIApp:
    """The page of the match in ``ledger`` (its path), open to requests with ``key``.

    ``lang`` is the page's language unless a request asks (``?lang=en``); ``now`` is the clock
    that stamps each hand entered (the command line's; by default the local time).
    """
    clock = now or (lambda: datetime.now().astimezone())
    page = _static("index.html").decode("utf-8")
    files = {name: _static(name) for name in _FILES}
    feed = _Feed(ledger)

    def lang_of(request: Request) -> str:
        asked = request.query_params.get("lang", lang)
        if asked not in LANGS:
            raise error(RequestError, "error.web.lang", value=printable(repr(asked)),
                        langs=Listed(LANGS))  # fmt: skip
        return asked

    async def answer(request: Request, work: Callable[[str], Any]) -> Response:
        try:
            chosen = lang_of(request)
        except RequestError as e:
            return JSONResponse({"error": e.text(lang)}, 400, headers=_HEADERS)
        try:
            return JSONResponse(await run_in_threadpool(work, chosen), headers=_HEADERS)
        except ChangedMeanwhileError as e:
            now_state = await run_in_threadpool(state.page_state, ledger, chosen)
            body = {"error": printable(e.text(chosen)), "state": now_state}
            return JSONResponse(body, 409, headers=_HEADERS)
        except RequestError as e:
            return JSONResponse({"error": printable(e.text(chosen))}, 400, headers=_HEADERS)
        except GongzhuError as e:
            return JSONResponse({"error": printable(e.text(chosen))}, 422, headers=_HEADERS)

    async def body_of(request: Request) -> Any:
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            raise _TooLarge
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > MAX_BODY:
                raise _TooLarge
        try:
            return json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise _NotJson from None

    Endpoint = Callable[[Request], Awaitable[Response]]

    def posted(work: Callable[[Request, Any, str], Any]) -> Endpoint:
        async def endpoint(request: Request) -> Response:
            try:
                data = await body_of(request)
            except _TooLarge:
                return _error(413, "error.web.large", lang, most=f"{MAX_BODY:,}")
            except _NotJson:
                return _error(400, "error.web.json", lang)
            return await answer(request, lambda chosen: work(request, data, chosen))

        return endpoint

    async def index(request: Request) -> Response:
        try:
            chosen = lang_of(request)
        except RequestError as e:
            return JSONResponse({"error": e.text(lang)}, 400, headers=_HEADERS)
        html = page.replace("__KEY__", key).replace("__LANG__", chosen)
        return Response(html, media_type="text/html; charset=utf-8", headers=_PAGE_HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in files:
            return _error(404, "error.web.not_found", lang)
        return Response(files[name], media_type=_FILES[name], headers=_HEADERS)

    async def page_state(request: Request) -> Response:
        return await answer(request, lambda chosen: state.page_state(ledger, chosen))

    async def hand(request: Request) -> Response:
        number = request.path_params["number"]
        return await answer(request, lambda chosen: state.hand_view(ledger, number, chosen))

    async def events(request: Request) -> Response:
        if feed.listeners >= MAX_LISTENERS:
            return _error(503, "error.web.busy", lang)

        async def stream() -> AsyncIterator[str]:
            feed.listeners += 1
            try:
                sent = None
                while True:
                    if feed.version is None:
                        await feed.refresh()
                    version, moved = feed.now()
                    if version != sent:
                        sent = version
                        yield f"event: version\ndata: {json.dumps({'version': sent})}\n\n"
                    else:
                        yield ": still here\n\n"
                    await feed.changed(moved, HEARTBEAT_SECONDS)
            finally:
                feed.listeners -= 1

        headers = {**_HEADERS, "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, "error.web.not_found", lang)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return _error(405, "error.web.method", lang)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        watching = asyncio.create_task(feed.watch())
        try:
            yield
        finally:
            watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watching

    add = posted(lambda r, data, chosen: state.add(ledger, data, chosen, clock))
    routes = [
        Route("/", index),
        Route("/static/{name}", static),
        Route("/api/state", page_state),
        Route("/api/hands/{number:int}", hand),
        Route("/api/events", events),
        Route(
            "/api/preview",
            posted(lambda r, data, chosen: state.preview(ledger, data, chosen)),
            methods=["POST"],
        ),
        Route("/api/hands", add, methods=["POST"]),
        Route(
            "/api/hands/{number:int}/edit",
            posted(lambda r, d, chosen: state.edit(ledger, r.path_params["number"], d, chosen)),
            methods=["POST"],
        ),
        Route(
            "/api/hands/{number:int}/remove",
            posted(lambda r, d, chosen: state.remove(ledger, r.path_params["number"], d, chosen)),
            methods=["POST"],
        ),
        Route(
            "/api/undo",
            posted(lambda r, d, chosen: state.undo(ledger, d, chosen)),
            methods=["POST"],
        ),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: not_found, 405: not_allowed},
    )
    return _KeyGuard(app, key, lang)


class _TooLarge(Exception):
    pass


class _NotJson(Exception):
    pass
