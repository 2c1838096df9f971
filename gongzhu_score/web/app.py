"""The table's page over HTTP: a Starlette app, run by ``gongzhu-score serve``.

Thin on purpose: every answer is a function of :mod:`.state` or :mod:`.site`, run in a worker
thread (they read and write the ledgers under their locks). What this module adds is what HTTP
needs: the key on every request (401 without one, 403 with a wrong one: a page in the player's
language, or JSON for ``/api/``), bounded bodies (413), JSON or a 400, each refusal of the
library as a 4xx with its message in the page's language, and the live feed: the ledgers pages
watch, and the folder's list of matches, are looked at every 0.2 s (a ``stat``; a ledger is read
only when it moved) and every open page is told by server-sent events, whoever changed them (a
phone, or the command line). A request names a match by file name only (:class:`.site.Site`);
the page's own files are read from the package once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import html
import json
import os
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from importlib import resources
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import ChangedMeanwhileError, GongzhuError
from ..io.files import read_regular
from ..match.history import MAX_LEDGER_BYTES, digest
from ..terms import LANGS, Listed, error, printable, say
from . import state
from .site import Site
from .state import RequestError
from .words import page_words

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
    "icon.svg": "image/svg+xml",
    "icon-192.png": "image/png",
    "icon-512.png": "image/png",
}
_HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
_PAGE_HEADERS = {
    **_HEADERS,
    # Nothing but the page's own files; no frames, no form posts elsewhere.
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data: blob:; "
    "frame-ancestors 'none'; form-action 'none'; base-uri 'none'",
    "Referrer-Policy": "no-referrer",
}


def _static(name: str) -> bytes:
    return resources.files(__package__).joinpath("static").joinpath(name).read_bytes()


class _KeyGuard:
    """Every request must carry the server's key (``?key=``).

    Without it the answer is 401; with another, 403: JSON under ``/api/``, elsewhere a page in
    the player's language saying what to do (a phone's old bookmark lands there).
    """

    def __init__(self, app: ASGIApp, key: str, lang: str) -> None:
        self.app, self.key, self.lang = app, key.encode("ascii"), lang

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # (no WebSocket here)
            return
        # (as text: a match's name may be Chinese, %-encoded as UTF-8; the raw bytes as Latin-1)
        query = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1"))
        given = query.get("key")
        if given and hmac.compare_digest(given[0].encode("utf-8", "replace"), self.key):
            await self.app(scope, receive, send)
            return
        status, said = (401, "error.web.no_key") if not given else (403, "error.web.wrong_key")
        if str(scope.get("path", "")).startswith("/api/"):
            reply: Response = _error(status, said, self.lang)
        else:
            lang = _asked_lang(query, scope, self.lang)
            reply = _key_page(status, lang, "key.missing" if status == 401 else "key.wrong")
        await reply(scope, receive, send)


def _asked_lang(query: dict[str, list[str]], scope: Scope, default: str) -> str:
    """The language a page without the key is said in: ``?lang=``, the browser's, or serve's."""
    asked = list(query.get("lang", []))
    headers = dict(scope.get("headers", []))
    for part in headers.get(b"accept-language", b"").decode("latin-1").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag.startswith(("zh-tw", "zh-hk", "zh-mo", "zh-hant")):
            asked.append("zh-Hant")
        elif tag.startswith("zh"):
            asked.append("zh")
        elif tag.startswith("en"):
            asked.append("en")
    return next((a for a in asked if a in LANGS), default)


def _key_page(status: int, lang: str, said: str) -> Response:
    """A small page saying what to do without the right key (no script, nothing to load)."""
    words = page_words(lang)
    text = "".join(f"<p>{html.escape(line)}</p>" for line in words[said].split("\n"))
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(words['title'])}</title><style>"
        "body{font:17px/1.5 system-ui,sans-serif;margin:0;padding:1.5rem;color:#1b1f24;"
        "background:#f4f5f2}h1{font-size:1.3rem}main{max-width:32rem;margin:auto}"
        "@media (prefers-color-scheme:dark){body{background:#14181c;color:#e8ecef}}"
        f"</style></head><body><main><h1>{html.escape(words['key.title'])}</h1>{text}"
        "</main></body></html>"
    )
    headers = {**_PAGE_HEADERS, "Content-Security-Policy": "default-src 'none'; "
               "style-src 'unsafe-inline'; frame-ancestors 'none'"}  # fmt: skip
    return Response(body, status, media_type="text/html; charset=utf-8", headers=headers)


def _error(status: int, key: str, lang: str, **values: object) -> JSONResponse:
    return JSONResponse({"error": say(key, lang, **values)}, status, headers=_HEADERS)


class _Watch:
    """The ledgers open pages show, and the folder's list of matches, watched.

    Each open page waits on :meth:`now`'s event, then compares its match's version and the
    list's with what it last sent.
    """

    def __init__(self, site: Site) -> None:
        self.site = site
        self.versions: dict[str, str | None] = {}
        self.watched: Counter[str] = Counter()
        self.matches: str | None = None
        self.listeners = 0
        self.closing = False
        self._seen: dict[str, tuple[int, int, int]] = {}
        self._moved = asyncio.Event()

    def _look(self, paths: list[str]) -> tuple[dict[str, tuple[tuple[int, int, int], str]], str]:
        """Each ledger's identity and version where it moved, and the list's signature.

        It runs in a worker thread, since it reads files. A ledger that cannot be read now is
        left out: the next look says.
        """
        moved = {}
        for path in paths:
            try:
                st = os.stat(path)
                seen = (st.st_mtime_ns, st.st_size, st.st_ino)
                if seen == self._seen.get(path):
                    continue
                raw = read_regular(path, MAX_LEDGER_BYTES)
                if len(raw) <= MAX_LEDGER_BYTES:  # (one too large: the page's read says so)
                    moved[path] = (seen, digest(raw))
            except (OSError, GongzhuError):  # (a pipe or a device there is never waited on)
                continue
        listed = self.site.signature()
        return moved, hashlib.sha256(listed.encode("utf-8", "replace")).hexdigest()[:16]

    async def refresh(self) -> None:
        """Look at the files; tell every waiting page if something it shows changed.

        What was seen and the versions are set together, here on the event loop.
        """
        moved, matches = await run_in_threadpool(self._look, list(self.watched))
        changed = matches != self.matches
        self.matches = matches
        for path, (seen, version) in moved.items():
            self._seen[path] = seen
            if self.versions.get(path) != version:
                self.versions[path] = version
                changed = True
        if changed:
            self._moved.set()
            self._moved = asyncio.Event()

    async def watch(self, stopping: Callable[[], bool]) -> None:
        """Look every :data:`POLL_SECONDS` while a page watches; once the server is
        ``stopping``, end every live feed (:meth:`close`)."""
        while True:
            if stopping() and not self.closing:
                self.close()
            if self.watched:
                await self.refresh()
            await asyncio.sleep(POLL_SECONDS)

    def reserve(self) -> bool:
        """Take one of the :data:`MAX_LISTENERS` feeds, counted at once (a burst cannot pass
        the check together); False when all are taken or the server is stopping."""
        if self.listeners >= MAX_LISTENERS or self.closing:
            return False
        self.listeners += 1
        return True

    def release(self) -> None:
        self.listeners -= 1

    def start(self, path: str) -> None:
        self.watched[path] += 1

    def stop(self, path: str) -> None:
        self.watched[path] -= 1
        if self.watched[path] <= 0:
            del self.watched[path]
            self.versions.pop(path, None)
            self._seen.pop(path, None)

    def now(self, path: str) -> tuple[str | None, str | None, asyncio.Event]:
        """The match's version, the list's, and the event their next change will set.

        They are taken together, so a change made while a page is being told is not missed.
        """
        return self.versions.get(path), self.matches, self._moved

    def close(self) -> None:
        """The server is stopping: every live feed ends now, so none is cut off mid-stream."""
        self.closing = True
        self._moved.set()

    @staticmethod
    async def changed(moved: asyncio.Event, timeout: float) -> None:
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(moved.wait(), timeout)


def create_app(
    served: str | Site,
    key: str,
    lang: str = "zh",
    now: Callable[[], datetime] | None = None,
    stopping: Callable[[], bool] = lambda: False,
    loop_error: Callable[[asyncio.AbstractEventLoop, dict[str, Any]], None] | None = None,
) -> _KeyGuard:
    """The page of the matches ``served`` (a ledger's path, a folder's, or a :class:`.Site`).

    Requests need ``key``. ``lang`` is the page's language unless a request asks (``?lang=en``);
    ``now`` is the clock that stamps each hand entered and names a new match (the command
    line's; by default the local time). ``stopping`` says when the server is stopping (the
    live feeds then end at once); ``loop_error``, the event loop's error handler while it
    serves.
    """
    site = served if isinstance(served, Site) else Site.of(served)
    clock = now or (lambda: datetime.now().astimezone())
    page = _static("index.html").decode("utf-8")
    worker = _static("sw.js")
    files = {name: _static(name) for name in _FILES}
    watch = _Watch(site)

    def lang_of(request: Request) -> str:
        asked = request.query_params.get("lang", lang)
        if asked not in LANGS:
            raise error(RequestError, "error.web.lang", value=printable(repr(asked)),
                        langs=Listed(LANGS))  # fmt: skip
        return asked

    def ledger_of(request: Request) -> str:
        return site.path(request.query_params.get("match"))

    async def answer(
        request: Request, work: Callable[[str, str], Any], named: bool = True
    ) -> Response:
        """``work(lang, ledger)`` as JSON, or its refusal.

        ``ledger`` is the match asked for; "" where the request names none (``named``: False).
        """
        try:
            chosen = lang_of(request)
        except RequestError as e:
            return JSONResponse({"error": e.text(lang)}, 400, headers=_HEADERS)
        ledger = ""
        try:
            if named:
                ledger = await run_in_threadpool(ledger_of, request)
            return JSONResponse(await run_in_threadpool(work, chosen, ledger), headers=_HEADERS)
        except ChangedMeanwhileError as e:
            try:
                now_state = await run_in_threadpool(state.page_state, ledger, chosen)
            except GongzhuError as damaged:  # (changed, and now cannot be read: say why)
                return JSONResponse({"error": site.told(damaged.text(chosen))}, 422,
                                    headers=_HEADERS)  # fmt: skip
            body: dict[str, Any] = {"error": site.told(e.text(chosen)), "state": now_state}
            if request.method == "POST" and request.url.path == "/api/hands":
                sent = getattr(request.state, "body", None)
                body["same_hand"] = await run_in_threadpool(state.same_as_last, ledger, sent)
            return JSONResponse(body, 409, headers=_HEADERS)
        except RequestError as e:
            return JSONResponse({"error": site.told(e.text(chosen))}, 400, headers=_HEADERS)
        except GongzhuError as e:
            return JSONResponse({"error": site.told(e.text(chosen))}, 422, headers=_HEADERS)

    async def body_of(request: Request) -> Any:
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            raise _TooLarge
        data = bytearray()
        async for chunk in request.stream():  # (ClientDisconnect: the phone went mid-upload)
            data += chunk
            if len(data) > MAX_BODY:
                raise _TooLarge
        return read_body(bytes(data))

    Endpoint = Callable[[Request], Awaitable[Response]]

    def posted(work: Callable[[Request, Any, str, str], Any], named: bool = True) -> Endpoint:
        """A POST: its JSON body, then ``work(request, body, lang, ledger)`` (see ``answer``)."""

        async def endpoint(request: Request) -> Response:
            try:
                data = await body_of(request)
            except ClientDisconnect:  # (nobody is left to answer, and nothing to report)
                return Response(status_code=400)
            except _TooLarge:
                return _error(413, "error.web.large", lang, most=f"{MAX_BODY:,}")
            except _NotJson:
                return _error(400, "error.web.json", lang)
            except RequestError as e:
                return JSONResponse({"error": site.told(e.text(lang))}, 400, headers=_HEADERS)
            request.state.body = data
            return await answer(
                request, lambda chosen, led: work(request, data, chosen, led), named
            )

        return endpoint

    async def index(request: Request) -> Response:
        try:
            chosen = lang_of(request)
        except RequestError as e:
            return JSONResponse({"error": e.text(lang)}, 400, headers=_HEADERS)
        html_text = page.replace("__KEY__", key).replace("__LANG__", chosen)
        return Response(html_text, media_type="text/html; charset=utf-8", headers=_PAGE_HEADERS)

    async def manifest(request: Request) -> Response:
        words = page_words(lang_of(request) if request.query_params.get("lang") in LANGS
                           else lang)  # fmt: skip
        icons = [
            {"src": f"static/icon-{n}.png?key={key}", "sizes": f"{n}x{n}", "type": "image/png",
             "purpose": "any maskable"}
            for n in (192, 512)
        ]  # fmt: skip
        body = {
            "name": words["title"],
            "short_name": words["app.short_name"],
            "start_url": f"./?key={key}",
            "scope": "./",
            "display": "standalone",
            "background_color": "#f4f5f2",
            "theme_color": "#0b6e4f",
            "lang": lang,
            "icons": [*icons, {"src": f"static/icon.svg?key={key}", "sizes": "any",
                               "type": "image/svg+xml"}],
        }  # fmt: skip
        return JSONResponse(body, headers=_HEADERS, media_type="application/manifest+json")

    async def service_worker(request: Request) -> Response:
        headers = {**_HEADERS, "Service-Worker-Allowed": "/"}
        return Response(worker, media_type="text/javascript; charset=utf-8", headers=headers)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in files:
            return _error(404, "error.web.not_found", lang)
        return Response(files[name], media_type=_FILES[name], headers=_HEADERS)

    def listed(chosen: str) -> dict[str, Any]:
        found = site.matches(chosen)
        return {"matches": found, "left_out": site.left_out(),
                "tournaments": site.tournaments(chosen), **site.choices(chosen),
                **site.recent(found),
                "words": page_words(chosen)}  # fmt: skip

    async def matches(request: Request) -> Response:
        return await answer(request, lambda chosen, _: listed(chosen), named=False)

    def started(data: Any, chosen: str) -> dict[str, Any]:
        name, existing = site.start(data, clock)
        return {"match": name, "existing": existing,
                "state": state.page_state(site.path(name), chosen)}  # fmt: skip

    start = posted(lambda r, data, chosen, _: started(data, chosen), named=False)

    async def season(request: Request) -> Response:
        asked = request.query_params
        return await answer(
            request,
            lambda chosen, _: site.stats(asked.get("player"), asked.get("since"),
                                         asked.get("until")),
            named=False,
        )  # fmt: skip

    async def page_state(request: Request) -> Response:
        return await answer(request, lambda chosen, led: state.page_state(led, chosen))

    async def hand(request: Request) -> Response:
        number = request.path_params["number"]
        return await answer(request, lambda chosen, led: state.hand_view(led, number, chosen))

    async def events(request: Request) -> Response:
        try:
            ledger = await run_in_threadpool(ledger_of, request)
        except RequestError as e:
            return JSONResponse({"error": site.told(e.text(lang))}, 400, headers=_HEADERS)
        if not watch.reserve():
            return _error(503, "error.web.busy", lang)

        async def stream() -> AsyncIterator[str]:
            watch.start(ledger)
            try:
                sent: tuple[str | None, str | None] = (None, None)
                while True:
                    if watch.versions.get(ledger) is None:
                        await watch.refresh()
                    version, listed, moved = watch.now(ledger)
                    if version != sent[0] and version is not None:
                        yield f"event: version\ndata: {json.dumps({'version': version})}\n\n"
                    if listed != sent[1] and sent[1] is not None:
                        yield f"event: matches\ndata: {json.dumps({'matches': listed})}\n\n"
                    if (version, listed) == sent:
                        yield ": still here\n\n"
                    sent = (version, listed)
                    await watch.changed(moved, HEARTBEAT_SECONDS)
                    if watch.closing:
                        return
            finally:
                watch.stop(ledger)

        headers = {**_HEADERS, "X-Accel-Buffering": "no"}
        return _Feed(stream(), watch.release, media_type="text/event-stream", headers=headers)

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(404, "error.web.not_found", lang)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return _error(405, "error.web.method", lang)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if loop_error is not None:
            asyncio.get_running_loop().set_exception_handler(loop_error)
        watching = asyncio.create_task(watch.watch(stopping))
        try:
            yield
        finally:
            watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watching

    add = posted(lambda r, data, chosen, led: state.add(led, data, chosen, clock))
    number = "{number:hand}"
    routes = [
        Route("/", index),
        Route("/manifest.webmanifest", manifest),
        Route("/sw.js", service_worker),
        Route("/static/{name}", static),
        Route("/api/matches", matches),
        Route("/api/matches", start, methods=["POST"]),
        Route("/api/state", page_state),
        Route("/api/stats", season),
        Route(f"/api/hands/{number}", hand),
        Route("/api/events", events),
        Route(
            "/api/preview",
            posted(lambda r, data, chosen, led: state.preview(led, data, chosen)),
            methods=["POST"],
        ),
        Route("/api/hands", add, methods=["POST"]),
        Route(
            f"/api/hands/{number}/edit",
            posted(lambda r, d, chosen, led: state.edit(led, r.path_params["number"], d, chosen)),
            methods=["POST"],
        ),
        Route(
            f"/api/hands/{number}/remove",
            posted(lambda r, d, chosen, led: state.remove(led, r.path_params["number"], d, chosen)),
            methods=["POST"],
        ),
        Route(
            "/api/undo",
            posted(lambda r, d, chosen, led: state.undo(led, d, chosen)),
            methods=["POST"],
        ),
        Route(
            "/api/rename",
            posted(lambda r, d, chosen, led: state.rename(led, d, chosen)),
            methods=["POST"],
        ),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: not_found, 405: not_allowed},
    )
    return _KeyGuard(app, key, lang)


MAX_NUMBER_CHARS = 24
"""The longest number a request may hold, in characters (a hand number, a count): past it, a
400, never Python's refusal to read a 5,000-digit number."""


def read_body(data: bytes) -> Any:
    """A request's JSON body, read as strictly as a JSON Lines file.

    A key given twice or a number longer than :data:`MAX_NUMBER_CHARS` is refused as a
    :class:`RequestError`; ``NaN``, nesting past what Python can read and what is not JSON as
    ``_NotJson``.
    """

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in items:
            if key in out:
                raise error(RequestError, "error.batch.twice", key=printable(repr(key)))
            out[key] = value
        return out

    def number(text: str) -> Any:
        if len(text) > MAX_NUMBER_CHARS:
            raise error(RequestError, "error.web.number", most=MAX_NUMBER_CHARS)
        return float(text) if any(c in text for c in ".eE") else int(text)

    def constant(text: str) -> Any:
        raise _NotJson

    try:
        return json.loads(data.decode("utf-8"), object_pairs_hook=pairs, parse_int=number,
                          parse_float=number, parse_constant=constant)  # fmt: skip
    except RequestError:
        raise
    except (UnicodeDecodeError, ValueError, RecursionError):  # (nested past any hand)
        raise _NotJson from None


class _HandNumber(Convertor[int]):
    """A hand's number in a path: up to :data:`MAX_NUMBER_CHARS` digits (no such hand is a 422, as
    before); a longer one is no page (404), never Python's refusal to read a 5,000-digit number."""

    regex = f"[0-9]{{1,{MAX_NUMBER_CHARS}}}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(value)


register_url_convertor("hand", _HandNumber())


class _Feed(StreamingResponse):
    """A live feed that gives its place back however it ends (the phone gone, the server
    stopping), even if its stream never started."""

    def __init__(self, content: AsyncIterator[str], release: Callable[[], None],
                 **kwargs: Any) -> None:  # fmt: skip
        super().__init__(content, **kwargs)
        self._release = release

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self._release()


class _TooLarge(Exception):
    pass


class _NotJson(Exception):
    pass
