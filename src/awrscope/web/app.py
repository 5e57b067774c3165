"""The awrscope web app (FastAPI): upload, list, analysis, compare, trend, rules.

Every page has a JSON twin under /api (described at /openapi.json). Pages read
the store; uploads, and the stored reports a page must parse again, are parsed
in worker processes (see :mod:`.worker`).
"""
from __future__ import annotations

import asyncio
import hmac
import logging
import secrets
import sqlite3
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Annotated, Any, Iterable
from urllib.parse import urlencode

from fastapi import FastAPI, HTTPException, Path as PathParam, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool
from starlette.formparsers import MultiPartException
from starlette.requests import ClientDisconnect

from .. import __version__
from ..errors import AwrscopeError
from ..store import ImportResult, Store
from ..store.ingest import Failed
from .embed import renderer_id, report_css, report_js, trend_html
from .views import (ERROR_TITLES, METRIC_INFO, MODEL_CONSTANTS, SEVERITY_ORDER, fmt_num, line_chart, result_dict,
                    rules_doc, upload_name)
from .failures import environment_failure
from .security import (AUTH_COOKIE, CSRF_FIELD, LOCAL_HOSTS, MIN_TOKEN_LENGTH, SECURITY_HEADERS, SESSION_COOKIE,
                       AuthThrottle, Proxies, Sessions, content_disposition, cross_site, host_name)
from .worker import PageRefused, ParseLimits, ParsePool

HERE = Path(__file__).parent
_log = logging.getLogger("uvicorn.error")
MAX_FILES = 50
MAX_TEXT_LINES = 200_000  # the report-text page shows at most this many lines (a 64 MB upload has ~1 million)

#: Ids and offsets are 64-bit integers in the store: a larger one is a 422, not an OverflowError
MAX_INT = (1 << 63) - 1
ReportId = Annotated[int, PathParam(ge=1, le=MAX_INT)]
QueryId = Annotated[int, Query(ge=1, le=MAX_INT)]


class BodyTooLarge(Exception):
    pass


class BodyLimit:
    """ASGI middleware: refuse a request body over ``limit`` bytes, from Content-Length
    at once, else while it streams in (so a 200 MB upload is cut off early)."""

    def __init__(self, app, limit: int):
        self.app, self.limit = app, limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length and length.isdigit() and int(length) > self.limit:
            return await _too_large(scope, send, self.limit)
        seen = 0

        async def limited():
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge()
            return msg

        await self.app(scope, limited, send)


async def _too_large(scope, send, limit: int):
    msg = f"The upload is larger than the limit of {limit / 2**20:.0f} MiB."
    api = scope["path"].startswith("/api/")
    body = (f'{{"detail": "{msg}"}}' if api else _ENV.get_template("error.html").render(
        title="Upload too large", message=msg, status=413, nonce="", token_required=False)).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json" if api else b"text/html; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), (b"connection", b"close"),
                            (b"content-security-policy", b"default-src 'none'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'"),
                            *[(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]]})
    await send({"type": "http.response.body", "body": body})


_ENV = Environment(loader=FileSystemLoader(str(HERE / "templates")), autoescape=select_autoescape(default=True),
                   trim_blocks=True, lstrip_blocks=True)
_ENV.filters["num"] = fmt_num
_ENV.globals["version"] = __version__


def create_app(db_url: str | None = None, token: str | None = None, limits: ParseLimits | None = None,
               max_request_bytes: int | None = None, config: dict | None = None,
               allowed_hosts: Iterable[str] = (), trusted_proxies: Iterable[str] | Proxies = ()) -> FastAPI:
    if token is not None and len(token) < MIN_TOKEN_LENGTH:
        raise ValueError(f"the token must be at least {MIN_TOKEN_LENGTH} characters (e.g. python -c "
                         "'import secrets; print(secrets.token_urlsafe(24))')")
    hosts = LOCAL_HOSTS | {h.lower() for h in allowed_hosts}
    limits = limits or ParseLimits()
    max_request_bytes = max_request_bytes or limits.max_bytes
    warning = None
    try:
        store0 = Store(db_url)  # applies the migrations once, at start
    except Exception as e:
        known = environment_failure(e)
        if known is None:
            raise
        try:  # a store set up before, now read-only (a standby, a read-only mount): it can still be read
            store0 = Store(db_url, migrate=False)
        except Exception:
            raise e from None
        warning = f"{known[1].split(':')[0]}: serving it for reading only (uploads and deletes will be refused)"
    url = store0.url
    store0.close()
    pool = ParsePool(limits, config)
    csrf_key = secrets.token_bytes(32)  # per process: a restart asks open pages to reload
    throttle = AuthThrottle()
    sessions = Sessions()
    proxies = trusted_proxies if isinstance(trusted_proxies, Proxies) else Proxies(trusted_proxies)
    app = FastAPI(title="awrscope", version=__version__, docs_url=None, redoc_url=None,
                  description="Oracle AWR and Statspack report analysis. Every HTML page has a JSON twin under /api.")
    app.state.url, app.state.pool, app.state.token = url, pool, token
    app.state.warning = warning
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def store() -> Store:
        return Store(url, migrate=False)

    cache_lock = threading.Lock()  # the compare cache is used from the thread pool
    drawing: dict[tuple, asyncio.Task] = {}

    async def draw(kind: str, ids: tuple[int, ...]):
        """A page body drawn by a worker from the stored reports' bytes (pool.draw). The server process never
        parses a report: a huge one costs a worker its memory and time caps, not the server its memory.
        Views of the same page asked for while it is drawn wait for that one drawing, which goes on when the
        reader who asked first leaves (its result is kept, for analysis pages)."""
        key = (kind, ids)
        task = drawing.get(key)
        if task is None:
            task = asyncio.ensure_future(pool.draw(url, kind, ids, renderer_id()))
            drawing[key] = task
            task.add_done_callback(lambda t: (drawing.pop(key, None), t.cancelled() or t.exception()))
        return await asyncio.shield(task)

    def page(request: Request, name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        html = _ENV.get_template(name).render(request=request, nonce=request.state.nonce,
                                              csrf=getattr(request.state, "csrf", ""),
                                              logged_in=bool(getattr(request.state, "auth_session", "")), **ctx)
        return HTMLResponse(html, status_code=status)

    def client_of(request: Request) -> str:
        peer = request.client.host if request.client else "?"
        return proxies.client(peer, request.headers.getlist("x-forwarded-for"))

    def over_tls(request: Request) -> bool:
        peer = request.client.host if request.client else ""
        return proxies.scheme(peer, request.url.scheme, request.headers.get("x-forwarded-proto")) == "https"

    def wants_html(request: Request) -> bool:
        return not request.url.path.startswith("/api/")

    # -- security: token, headers ----------------------------------------------------------------------------
    @app.middleware("http")
    async def guard(request: Request, call_next):
        request.state.nonce = secrets.token_urlsafe(12)
        session = request.cookies.get(SESSION_COOKIE, "")
        fresh_session = len(session) != 32
        if fresh_session:
            session = secrets.token_hex(16)
        request.state.csrf = hmac.new(csrf_key, session.encode(), "sha256").hexdigest()[:32]
        host = request.headers.get("host", "")
        if host_name(host) not in hosts:  # DNS rebinding: a foreign name resolving to this server
            return _secured(JSONResponse({"detail": f"host {host!r} is not served here (--allowed-host)"}, status_code=400))
        if "\x00" in request.url.path or "%00" in request.url.query or "\x00" in request.url.query:
            return _secured(JSONResponse({"detail": "a parameter holds a NUL character"}, status_code=400))
        forged = cross_site(request.method, request.headers, host, request.url.path)
        if forged:  # CSRF: another site (or another port of this host) posting with the user's browser
            return _secured(JSONResponse({"detail": f"cross-site request refused ({forged})"}, status_code=403))
        auth = request.cookies.get(AUTH_COOKIE, "")
        if token and sessions.valid(auth):
            # a logged-in browser is not asked for the token, so a throttle on its address (a NAT, a proxy,
            # someone guessing next to it) does not stop it
            request.state.auth_session = auth
        elif token and not request.url.path.startswith(("/static/", "/login", "/logout")):
            client = client_of(request)
            wait = throttle.retry_after(client)
            if wait:
                return _secured(JSONResponse({"detail": f"too many wrong tokens from {client}: retry in {wait} s"},
                                             status_code=429, headers={"Retry-After": str(wait)}))
            given = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
            if not hmac.compare_digest(given.encode(), token.encode()):
                if given:
                    throttle.failed(client)
                if wants_html(request):
                    return _secured(RedirectResponse(f"/login?{urlencode({'next': request.url.path})}", status_code=303))
                return _secured(JSONResponse({"detail": "a token is required (Authorization: Bearer TOKEN)"},
                                             status_code=401))
        response = await call_next(request)
        response.headers["Content-Security-Policy"] = (
            f"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            f"script-src 'self' 'nonce-{request.state.nonce}'; object-src 'none'; frame-ancestors 'none'; "
            "base-uri 'none'; form-action 'self'")
        if fresh_session and wants_html(request):  # the forms of this page carry a token derived from it
            response.set_cookie(SESSION_COOKIE, session, httponly=True, samesite="strict", secure=over_tls(request))
        return _secured(response)

    def check_form_token(request: Request, form) -> None:
        """A form posted by a page of this server carries the token derived from the session cookie; a
        page elsewhere can neither read the cookie nor compute the token (the key never leaves the server)."""
        given = str(form.get(CSRF_FIELD, ""))
        if not (request.cookies.get(SESSION_COOKIE) and hmac.compare_digest(given.encode(), request.state.csrf.encode())):
            raise HTTPException(403, "The form is missing its session token (reload the page and send it again): "
                                     "a form posted from another page is refused.")

    def _secured(response: Response) -> Response:
        response.headers.update(SECURITY_HEADERS)
        return response

    async def _error(request: Request, status: int, message: str) -> Response:
        if wants_html(request):
            return page(request, "error.html", status=status, title=ERROR_TITLES.get(status, "Error"), message=message)
        return JSONResponse({"detail": message}, status_code=status)

    @app.exception_handler(BodyTooLarge)
    async def too_large(request: Request, exc: BodyTooLarge):
        return await _error(request, 413, f"The upload is larger than the limit of {max_request_bytes / 2**20:.0f} MiB.")

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError):
        where = "; ".join(f"{'.'.join(str(x) for x in e.get('loc', ())[1:]) or 'request'}: {e.get('msg', 'invalid')}"
                          for e in exc.errors()[:3])
        return await _error(request, 422, f"Invalid parameter ({where}).")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException):
        return await _error(request, exc.status_code, str(exc.detail))

    @app.exception_handler(PageRefused)
    async def page_refused(request: Request, exc: PageRefused):
        return await _error(request, exc.status, exc.message)

    async def surroundings(request: Request, exc: Exception):
        """The store's disk, permissions or server failed, not awrscope: a 4xx/503 saying so, never a 500."""
        known = environment_failure(exc)
        if known is None:
            _log.error("Exception in ASGI application", exc_info=exc)  # a bug after all: keep its trace
            return await _error(request, 500, f"Internal error ({type(exc).__name__}). The server log has the "
                                              "details.")
        response = await _error(request, *known)
        if known[0] == 503:
            response.headers["Retry-After"] = "30"
        return response

    # registered by class so that Starlette answers them without re-raising (the catch-all below re-raises
    # into the server log, as a bug should)
    for cls in (OSError, sqlite3.Error, AwrscopeError):
        app.add_exception_handler(cls, surroundings)
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg

            app.add_exception_handler(psycopg.Error, surroundings)
        except ImportError:
            pass

    @app.exception_handler(ClientDisconnect)
    async def gone(request: Request, exc: ClientDisconnect):
        return Response(status_code=400)  # no one is left to read it: the connection guard dropped the client

    @app.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception):
        known = environment_failure(exc)
        if known is not None:
            return await _error(request, *known)
        return await _error(request, 500, f"Internal error ({type(exc).__name__}). The server log has the details.")

    @app.get("/login", response_class=HTMLResponse, include_in_schema=False)
    async def login_form(request: Request, next: str = "/"):
        return page(request, "login.html", next=next if next.startswith("/") and not next.startswith("//") else "/",
                    error=False)

    @app.post("/login", include_in_schema=False)
    async def login(request: Request):
        form = await request.form()
        check_form_token(request, form)
        client = client_of(request)
        wait = throttle.retry_after(client)
        if wait:
            raise HTTPException(429, f"Too many wrong tokens from {client}: retry in {wait} s.")
        given = str(form.get("token", ""))
        nxt = str(form.get("next", "/"))
        nxt = nxt if nxt.startswith("/") and not nxt.startswith("//") else "/"
        if token and hmac.compare_digest(given.encode(), token.encode()):
            resp = RedirectResponse(nxt, status_code=303)
            resp.set_cookie(AUTH_COOKIE, sessions.create(), max_age=int(sessions.ttl_s), httponly=True,
                            samesite="strict", secure=over_tls(request))
            return resp
        throttle.failed(client)
        return page(request, "login.html", status=401, next=nxt, error=True)

    @app.post("/logout", include_in_schema=False)
    async def logout(request: Request):
        check_form_token(request, await request.form())
        sessions.end(request.cookies.get(AUTH_COOKIE, ""))
        resp = RedirectResponse("/login" if token else "/", status_code=303)
        resp.delete_cookie(AUTH_COOKIE, httponly=True, samesite="strict", secure=over_tls(request))
        return resp

    # -- list and upload ---------------------------------------------------------------------------------------
    def _filters(db, instance, since, until, finding, severity, kind) -> dict:
        return {k: v for k, v in dict(db=db, instance=instance, since=since, until=until, finding=finding,
                                      severity=severity, kind=kind).items() if v}

    def _list(filters: dict, limit: int, offset: int) -> dict:
        with store() as s:
            return {"total": s.count(**filters), "limit": limit, "offset": offset, "filters": filters,
                    "reports": s.list(limit=limit, offset=offset, **filters), "databases": s.databases()}

    @app.get("/api/reports", tags=["reports"], summary="List stored reports with their top finding")
    async def api_list(db: str | None = None, instance: str | None = None, since: str | None = None,
                       until: str | None = None, finding: str | None = None,
                       severity: str | None = Query(None, pattern="^(critical|major|moderate|minor|info)$"),
                       kind: str | None = None, limit: int = Query(100, ge=1, le=1000), offset: int = Query(0, ge=0, le=MAX_INT)):
        data = await run_in_threadpool(_list, _filters(db, instance, since, until, finding, severity, kind), limit,
                                       offset)
        data.pop("databases")
        return data

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def index(request: Request, db: str | None = None, instance: str | None = None, since: str | None = None,
                    until: str | None = None, finding: str | None = None, severity: str | None = None,
                    kind: str | None = None, limit: int = Query(100, ge=1, le=1000), offset: int = Query(0, ge=0, le=MAX_INT)):
        if severity not in SEVERITY_ORDER:
            severity = None
        data = await run_in_threadpool(_list, _filters(db, instance, since, until, finding, severity, kind), limit,
                                       offset)
        return page(request, "index.html", **data, max_mb=max_request_bytes / 2**20)

    async def _upload(request: Request, from_page: bool = False) -> list[ImportResult]:
        try:
            form = await request.form(max_files=MAX_FILES, max_fields=20)
        except BodyTooLarge:
            raise HTTPException(413, f"The upload is larger than the limit of {max_request_bytes / 2**20:.0f} MiB.")
        except BaseExceptionGroup as eg:  # BaseHTTPMiddleware wraps what the body stream raises
            if eg.subgroup(BodyTooLarge) is None:
                raise
            raise HTTPException(413, f"The upload is larger than the limit of {max_request_bytes / 2**20:.0f} MiB.")
        except MultiPartException as e:
            raise HTTPException(400, f"The upload is not a readable form ({e.message}).")
        if from_page:
            check_form_token(request, form)
        files = [f for f in form.getlist("files") if hasattr(f, "read")]
        if not files:
            raise HTTPException(400, "No file was uploaded: choose or drop one or more report files.")
        results: list[ImportResult] = []
        for f in files:
            name = upload_name(f.filename)
            async with pool.slot():  # bounds the uploads held in memory, however many arrive at once
                data = await f.read(limits.max_bytes + 1)
                if len(data) > limits.max_bytes:
                    items = [Failed(name, f"{name}: larger than the limit of {limits.max_bytes / 2**20:.0f} MiB")]
                else:
                    items = await pool.parse_held(name, data)
                del data
            for item in items:
                results.append(await run_in_threadpool(_store_one, item))
        return results

    def _store_one(item) -> ImportResult:
        with store() as s:
            return s.add_prepared(item)

    @app.post("/api/reports", tags=["reports"], summary="Upload reports (multipart field 'files', several allowed)",
              openapi_extra={"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
                  "type": "object", "required": ["files"], "properties": {
                      "files": {"type": "array", "items": {"type": "string", "format": "binary"}}}}}}}})
    async def api_upload(request: Request):
        results = await _upload(request)
        return {"results": [result_dict(r) for r in results]}

    @app.post("/upload", response_class=HTMLResponse, include_in_schema=False)
    async def upload(request: Request):
        results = await _upload(request, from_page=True)
        ok = [r for r in results if r.id]
        status = 200 if ok or not results else 422
        return page(request, "uploaded.html", status=status, results=results, ok=ok)

    # -- one report ---------------------------------------------------------------------------------------------
    def _get(rid: int) -> dict:
        with store() as s:
            rec = s.get(rid)
        if rec is None:
            raise HTTPException(404, f"No report #{rid} in the store.")
        return rec

    @app.get("/api/reports/{rid}", tags=["reports"], summary="One stored report: indexed columns and its analysis")
    async def api_report(rid: ReportId):
        # a Response as is: FastAPI's encoder walks every value of the analysis (3x slower) for no change
        return JSONResponse(await run_in_threadpool(_get, rid))

    @app.delete("/api/reports/{rid}", tags=["reports"], summary="Delete a stored report")
    async def api_delete(rid: ReportId):
        def run():
            with store() as s:
                return s.delete(rid)
        if not await run_in_threadpool(run):
            raise HTTPException(404, f"No report #{rid} in the store.")
        return {"deleted": rid}

    @app.post("/reports/{rid}/delete", include_in_schema=False)
    async def delete_page(request: Request, rid: ReportId):
        check_form_token(request, await request.form())
        await api_delete(rid)
        return RedirectResponse("/", status_code=303)

    @app.get("/api/reports/{rid}/raw", tags=["reports"], summary="The original report bytes, as uploaded")
    async def api_raw(rid: ReportId):
        def run():
            with store() as s:
                return s.raw(rid)
        raw = await run_in_threadpool(run)
        if raw is None:
            raise HTTPException(404, f"No report #{rid} in the store.")
        return Response(raw[2], media_type="application/octet-stream",
                        headers={"Content-Disposition": content_disposition(raw[0])})

    redact_key = secrets.token_bytes(32)  # per server: pseudonyms stable while it runs, never written anywhere

    @app.get("/api/reports/{rid}/redacted", tags=["reports"],
             summary="The report in its own format with its identifiers replaced by pseudonyms (docs/redact.md)")
    async def api_redacted(rid: ReportId):
        def run():
            from ..parsers.source import sources_of_bytes
            from ..redact.core import Redactor

            with store() as s:
                raw = s.raw(rid)
            if raw is None:
                return None
            red = Redactor(redact_key).redact_source(next(iter(sources_of_bytes(raw[0], raw[2]))))
            return red.format, red.text.encode(red.encoding, errors="replace")
        from ..redact.core import RedactionLeak
        try:
            got = await run_in_threadpool(run)
        except RedactionLeak:  # the self-check refused: an identifier would have been shared
            raise HTTPException(422, f"Report #{rid} cannot be redacted safely: an identifier it holds would remain "
                                     "in the copy, so none is given.") from None
        if got is None:
            raise HTTPException(404, f"No report #{rid} in the store.")
        name = f"redacted-{rid}.{'html' if got[0] == 'html' else 'txt'}"  # the stored name may itself say too much
        return Response(got[1], media_type="application/octet-stream",
                        headers={"Content-Disposition": content_disposition(name)})

    @app.get("/reports/{rid}", response_class=HTMLResponse, include_in_schema=False)
    async def report_page(request: Request, rid: ReportId):
        rec = await run_in_threadpool(_get, rid)
        doc = rec["analysis"]

        def kept():
            with store() as s:
                return s.rendered(rid, "analysis", renderer_id())

        # drawn once by a worker from the parsed report (its histograms and section tables), then served from
        # the store; the worker keeps what it drew there
        html = await run_in_threadpool(kept)
        if html is None:
            html = await draw("analysis", (rid,))
        return page(request, "report.html", rec=rec, doc=doc, body=Markup(html),
                    report_css=report_css(), report_js=report_js())

    @app.get("/reports/{rid}/text", response_class=HTMLResponse, include_in_schema=False)
    async def report_text(request: Request, rid: ReportId):
        """The stored report's text with an anchor per line (/reports/ID/text#L123): where evidence links land."""
        def run():
            with store() as s:
                return s.get(rid), s.raw(rid)
        rec, raw = await run_in_threadpool(run)
        if rec is None or raw is None:
            raise HTTPException(404, f"No report #{rid} in the store.")
        from ..parsers.source import decode

        text = decode(raw[2])[0]
        # numbered as the parsers number them: by '\n' only (str.splitlines also breaks at the form feeds of
        # Statspack's page breaks, and every later line would be off)
        lines = [line.rstrip("\r") for line in text.split("\n")]
        if lines and lines[-1] == "":
            lines.pop()
        total = len(lines)
        return page(request, "report_text.html", rec=rec, lines=lines[:MAX_TEXT_LINES], total=total,
                    truncated=total > MAX_TEXT_LINES, html_source=rec.get("format") == "html")

    # -- compare, trend, rules ---------------------------------------------------------------------------------
    compared: OrderedDict[tuple[int, int], tuple[dict, Markup]] = OrderedDict()

    async def _compared(a: int, b: int) -> tuple[dict, Markup]:
        """(compare document, its HTML body) of two stored reports, drawn by a worker; the last few are kept
        (ids are never reused, and a comparison depends only on the two reports' bytes)."""
        await run_in_threadpool(lambda: (_get(a), _get(b)))  # 404 for a report deleted meanwhile
        with cache_lock:
            hit = compared.get((a, b))
            if hit is not None:
                compared.move_to_end((a, b))
                return hit
        doc, body = await draw("compare", (a, b))
        with cache_lock:
            compared[(a, b)] = (doc, Markup(body))
            while len(compared) > 16:
                compared.popitem(last=False)
        return doc, Markup(body)

    @app.get("/api/compare", tags=["compare"], summary="Two stored reports side by side")
    async def api_compare(a: QueryId, b: QueryId):
        return (await _compared(a, b))[0]

    @app.get("/compare", response_class=HTMLResponse, include_in_schema=False)
    async def compare_page(request: Request, a: Annotated[int | None, Query(ge=1, le=MAX_INT)] = None,
                           b: Annotated[int | None, Query(ge=1, le=MAX_INT)] = None):
        ids = [int(x) for x in request.query_params.getlist("id") if x.isascii() and x.isdigit() and int(x) <= MAX_INT]
        if a is None and b is None and len(ids) == 2:
            a, b = ids
        if a is None or b is None:
            raise HTTPException(400, "Pick two reports in the list to compare them.")
        body = (await _compared(a, b))[1]
        return page(request, "compare.html", a=a, b=b, body=body, report_css=report_css(), report_js=report_js())

    def _trend(db: str, metrics: list[str], instance: str | None) -> dict:
        with store() as s:
            data = s.trend(db, metrics or None, instance=instance)
            data["available_metrics"] = [m for m in s.metric_names(db) if m not in MODEL_CONSTANTS]
            data["databases"] = s.databases()
            data["report_rows"] = s.list(limit=1000, db=db, instance=instance)
            windows = s.trend_windows(db, instance=instance, config=config)
        from ..change.trend import trend

        data["trend"] = trend(windows) if windows else None
        return data

    @app.get("/api/trend", tags=["trend"], summary="Metric series of one database, one point per report")
    async def api_trend(db: str, metric: list[str] = Query(default=[]), instance: str | None = None):
        data = await run_in_threadpool(_trend, db, metric, instance)
        data.pop("databases")
        data["windows"] = [{k: r[k] for k in ("id", "instance", "begin_time", "end_time", "top_finding_id",
                                               "top_finding_title", "top_severity")} for r in data.pop("report_rows")]
        return data

    @app.get("/trend", response_class=HTMLResponse, include_in_schema=False)
    async def trend_page(request: Request, db: str | None = None, metric: list[str] = Query(default=[]),
                         instance: str | None = None):
        if not db:
            with store() as s:
                dbs = await run_in_threadpool(s.databases)
            return page(request, "trend.html", data=None, databases=dbs, charts=[])
        data = await run_in_threadpool(_trend, db, metric, instance)
        charts = [(s, line_chart([((p["begin_time"] or "")[:16], p["value"], p["report_id"], p["begin_time"],
                                    p["end_time"]) for p in s["points"]]))
                  for s in data["series"]]
        body = await run_in_threadpool(trend_html, data["trend"]) if data["trend"] else None
        return page(request, "trend.html", data=data, databases=data["databases"], charts=charts, body=body,
                    metric_info=METRIC_INFO,
                    report_css=report_css() if body else None, report_js=report_js() if body else None)

    @app.get("/api/rules", tags=["rules"], summary="The diagnosis rules with their documentation and thresholds")
    async def api_rules():
        return {"rules": rules_doc()}

    @app.get("/rules", response_class=HTMLResponse, include_in_schema=False)
    async def rules_page(request: Request):
        return page(request, "rules.html", rules=rules_doc())

    @app.get("/api/health", tags=["meta"], summary="Liveness and the number of stored reports")
    async def health():
        def run():
            with store() as s:
                return s.count()
        return {"status": "ok", "version": __version__, "reports": await run_in_threadpool(run)}

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon():
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" '
               'fill="#17324d"/><path d="M3 12 L6 7 L9 9 L13 3" stroke="#8fb3d9" stroke-width="2" fill="none"/></svg>')
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})

    @app.get("/robots.txt", include_in_schema=False)
    async def robots():
        return PlainTextResponse("User-agent: *\nDisallow: /\n")

    app.add_middleware(BodyLimit, limit=max_request_bytes + 64 * 1024)  # multipart framing on top of the files
    return app

