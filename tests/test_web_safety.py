"""Issue 28, serving safely: slow clients are dropped before they can hold the server, the token throttle
keys on the real peer, the login cookie is a session (not the token) that logs out, stored reports are
parsed by the bounded worker (not the server), and failures of the surroundings (read-only store, full
disk, a NUL in a name) are 4xx/503 with a message, never 500. Real servers on 127.0.0.1 (tests/_server.py)."""
from __future__ import annotations

import errno
import os
import re
import socket
import sqlite3
import threading
import time
from pathlib import Path

import httpx
import pytest

pytest.importorskip("fastapi")

from _server import Server
from _store import BACKENDS, make_url

TOKEN = "a-team-token-of-24-chars"
FIXTURE = Path(__file__).parent / "fixtures" / "mini_awr_11204.txt"
SP_A = "statspack_txt_11203_antognini_top2_1830_1845.txt"
SP_B = "statspack_txt_11203_antognini_top2_1930_1945.txt"


def _nofile(limit: int):
    def apply():
        import resource

        hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
    return apply


def _read_until_closed(sock: socket.socket, timeout: float) -> bytes:
    """What the server sends until it closes the connection; raises socket.timeout if it never does."""
    sock.settimeout(timeout)
    got = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return got
        if not chunk:
            return got
        got += chunk


# -- slow clients ------------------------------------------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc").exists(), reason="Linux: 127.0.0.2 is loopback")
def test_slowloris_does_not_hold_the_server(tmp_path):
    """An attacker at 127.0.0.2 keeps ~300 connections open, each sending a header line every 0.3 s and never
    ending its headers (slowloris), reconnecting whatever is dropped. The server may open 512 files: before the
    guard it held every such connection until accept() failed for everyone. Throughout, /api/health from
    127.0.0.1 answers; every attacking connection is closed by the server (503 past the per-address cap, 408
    past the header deadline), however it dribbles."""
    srv = Server(str(tmp_path / "s.db"), "--client-timeout", "2", "--max-connections", "64",
                 preexec_fn=_nofile(512))
    attack: dict[socket.socket, float] = {}
    answers: dict[bytes, int] = {}
    health: list[object] = []
    stop = threading.Event()

    def open_one():
        s = socket.socket()
        try:
            s.bind(("127.0.0.2", 0))
        except OSError:
            s.close()
            pytest.skip("cannot bind 127.0.0.2")
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", srv.port))
            s.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        except OSError:
            s.close()
            return
        s.setblocking(False)
        attack[s] = time.monotonic()

    def closed_by_server(s: socket.socket) -> bool:
        try:
            data = s.recv(4096)
        except BlockingIOError:
            return False
        except OSError:
            return True
        if data:
            answers[data[:12]] = answers.get(data[:12], 0) + 1
            return b"408" in data[:12] or closed_by_server(s)
        return True

    def poll_health():
        while not stop.is_set():
            try:
                health.append(httpx.get(srv.base + "/api/health", timeout=5).status_code)
            except httpx.HTTPError as e:
                health.append(repr(e))
            time.sleep(0.2)

    watcher = threading.Thread(target=poll_health)
    try:
        for _ in range(300):
            open_one()
        watcher.start()
        t_end = time.monotonic() + 8
        oldest_open = 0.0
        while time.monotonic() < t_end:
            for s in list(attack):
                if closed_by_server(s):
                    del attack[s]
                    s.close()
                    continue
                try:
                    s.send(b"X-Slow: 1\r\n")
                except OSError:
                    del attack[s]
                    s.close()
            oldest_open = max([oldest_open] + [time.monotonic() - t for t in attack.values()])
            for _ in range(min(100, 300 - len(attack))):  # keep the pressure on, a bounded reconnect rate
                open_one()
            time.sleep(0.3)
        stop.set()
        watcher.join(30)
        assert health and all(h == 200 for h in health), health
        assert len(health) >= 10, health  # answered all along, not once at the end
        # the cap answered at once, the deadline dropped the connections it had let in
        assert answers.get(b"HTTP/1.1 503", 0) > 0 and answers.get(b"HTTP/1.1 408", 0) > 0, answers
        # a connection sending a header line every 0.3 s still ends at the 2 s header deadline (+ the watch tick)
        assert oldest_open < 6, oldest_open
    finally:
        stop.set()
        for s in attack:
            s.close()
        srv.stop()


def test_body_shorter_than_content_length_is_dropped(tmp_path):
    """A request announcing 100 000 bytes and sending 20 is dropped once the body stops arriving (before the
    guard the server waited for the rest for good); the server keeps answering meanwhile."""
    srv = Server(str(tmp_path / "b.db"), "--client-timeout", "2")
    try:
        for path in ("/api/reports", "/login"):
            with socket.create_connection(("127.0.0.1", srv.port)) as sock:
                sock.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; "
                             "boundary=x\r\nContent-Length: 100000\r\n\r\n--x\r\nContent-Disp".encode())
                assert httpx.get(srv.base + "/api/health", timeout=5).status_code == 200
                answer = _read_until_closed(sock, timeout=20)  # socket.timeout here: the server held it
            assert answer.startswith(b"HTTP/1.1 408") and b"body stopped arriving" in answer, answer[:200]
        # headers that never end: dropped too, with a 408
        with socket.create_connection(("127.0.0.1", srv.port)) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            answer = _read_until_closed(sock, timeout=20)
        assert answer.startswith(b"HTTP/1.1 408") and b"headers did not arrive" in answer, answer[:200]
    finally:
        srv.stop()


# -- the token throttle -------------------------------------------------------------------------------------------

def test_throttle_keys_on_the_peer_not_x_forwarded_for(tmp_path):
    """Rotating X-Forwarded-For gave each guess a fresh address (uvicorn trusted it from 127.0.0.1); now the
    peer is the client unless it is a --trusted-proxy. A browser logged in from the throttled address keeps
    working: only token guesses wait."""
    srv = Server(str(tmp_path / "t.db"), "--token", TOKEN)
    try:
        with httpx.Client(base_url=srv.base) as browser:
            login_page = browser.get("/login").text
            csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', login_page).group(1)
            assert browser.post("/login", data={"csrf": csrf, "token": TOKEN, "next": "/"}).status_code == 303
            statuses = [httpx.get(srv.base + "/api/reports", headers={
                "Authorization": f"Bearer wrong-{i}", "X-Forwarded-For": f"10.0.0.{i}"}).status_code
                for i in range(12)]
            assert statuses[:10] == [401] * 10 and statuses[10:] == [429, 429], statuses
            r = httpx.get(srv.base + "/api/reports", headers={"Authorization": "Bearer " + TOKEN,
                                                              "X-Forwarded-For": "10.1.1.1"})
            assert r.status_code == 429 and "127.0.0.1" in r.json()["detail"]
            assert browser.get("/api/reports").status_code == 200  # its session is not a guess
    finally:
        srv.stop()

    srv = Server(str(tmp_path / "p.db"), "--token", TOKEN, "--trusted-proxy", "127.0.0.1")
    try:
        def get(xff: str, token: str):
            return httpx.get(srv.base + "/api/reports", headers={"Authorization": f"Bearer {token}",
                                                                 "X-Forwarded-For": xff}).status_code
        assert [get("10.0.0.1", f"wrong-{i}") for i in range(11)][-1] == 429
        # a client writing its own X-Forwarded-For: the proxy appends what it saw, and that is what counts
        assert get("10.9.9.9, 10.0.0.1", TOKEN) == 429
        assert get("10.0.0.2", TOKEN) == 200  # another client behind the same proxy is not held back
    finally:
        srv.stop()


def test_throttle_waits_grow_and_end(monkeypatch):
    from awrscope.web import security

    now = [1000.0]
    monkeypatch.setattr(security.time, "monotonic", lambda: now[0])
    t = security.AuthThrottle()
    for _ in range(10):
        assert t.retry_after("a") == 0
        t.failed("a")
    waits = []
    for _ in range(5):
        waits.append(t.retry_after("a"))
        now[0] += waits[-1]
        assert t.retry_after("a") == 0
        t.failed("a")
    assert waits == [5, 10, 20, 30, 30]
    assert t.retry_after("b") == 0  # another address
    now[0] += security.AUTH_FORGET_S + 1
    assert t.retry_after("a") == 0 and "a" not in t.failures


# -- the login cookie -------------------------------------------------------------------------------------------

def _login(base: str, headers: dict | None = None) -> tuple[httpx.Client, httpx.Response]:
    c = httpx.Client(base_url=base, headers=headers or {})
    form = c.get("/login")
    csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', form.text).group(1)
    # a Secure cookie (behind the TLS proxy) is not sent back over this test's plain http: hand it over
    session = re.search(r"awrscope_session=([0-9a-f]+)", form.headers["set-cookie"]).group(1)
    r = c.post("/login", data={"csrf": csrf, "token": TOKEN, "next": "/"},
               headers={"Cookie": f"awrscope_session={session}"})
    assert r.status_code == 303, r.text
    return c, r


def test_login_cookie_is_a_session_not_the_token(tmp_path):
    srv = Server(str(tmp_path / "c.db"), "--token", TOKEN, "--trusted-proxy", "127.0.0.1")
    try:
        c, r = _login(srv.base)
        set_cookie = r.headers["set-cookie"]
        assert TOKEN not in set_cookie and "awrscope_token" not in set_cookie
        sid = c.cookies["awrscope_auth"]
        assert len(sid) >= 40 and sid != TOKEN
        flags = set_cookie.lower()
        assert "httponly" in flags and "samesite=strict" in flags and "max-age=43200" in flags
        assert "secure" not in flags  # plain http: a Secure cookie would never come back
        page = c.get("/")
        assert page.status_code == 200 and 'action="/logout"' in page.text
        csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', page.text).group(1)
        # the raw token as a cookie is no login
        assert httpx.get(srv.base + "/api/reports", cookies={"awrscope_token": TOKEN}).status_code == 401

        out = c.post("/logout", data={"csrf": csrf})
        assert out.status_code == 303 and out.headers["location"] == "/login"
        assert "awrscope_auth" not in c.cookies
        # the old cookie, kept by someone, no longer logs in: the session is gone on the server
        stolen = httpx.get(srv.base + "/", cookies={"awrscope_auth": sid})
        assert stolen.status_code == 303 and stolen.headers["location"].startswith("/login")
        assert httpx.get(srv.base + "/api/reports", cookies={"awrscope_auth": sid}).status_code == 401
        c.close()

        # behind the TLS proxy (it says so in X-Forwarded-Proto): the cookie is Secure
        c, r = _login(srv.base, headers={"X-Forwarded-Proto": "https"})
        assert "secure" in r.headers["set-cookie"].lower()
        c.close()
    finally:
        srv.stop()
    # the same header from a client that is not a trusted proxy is not believed
    srv = Server(str(tmp_path / "d.db"), "--token", TOKEN)
    try:
        c, r = _login(srv.base, headers={"X-Forwarded-Proto": "https"})
        assert "secure" not in r.headers["set-cookie"].lower()
        c.close()
    finally:
        srv.stop()


@pytest.mark.skipif(not __import__("shutil").which("openssl"), reason="makes its certificate with openssl")
def test_login_cookie_is_secure_over_tls(tmp_path):
    """serve --ssl-certfile/--ssl-keyfile: https by uvicorn itself, and the login cookie is Secure."""
    import subprocess

    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    srv = Server(str(tmp_path / "tls.db"), "--token", TOKEN, "--ssl-certfile", str(cert), "--ssl-keyfile", str(key))
    try:
        with httpx.Client(base_url=srv.base, verify=False) as c:
            csrf = re.search(r'name="csrf" value="([0-9a-f]+)"', c.get("/login").text).group(1)
            r = c.post("/login", data={"csrf": csrf, "token": TOKEN, "next": "/"})
            assert r.status_code == 303 and "secure" in r.headers["set-cookie"].lower()
            assert 'action="/logout"' in c.get("/").text
    finally:
        srv.stop()


def test_sessions_expire(monkeypatch):
    from awrscope.web import security

    now = [0.0]
    monkeypatch.setattr(security.time, "monotonic", lambda: now[0])
    s = security.Sessions(ttl_s=100)
    sid = s.create()
    assert s.valid(sid) and not s.valid(sid + "x") and not s.valid("")
    now[0] = 101
    assert not s.valid(sid)


# -- stored reports are parsed by the worker ----------------------------------------------------------------------

def _vm(pid: int, field: str) -> int:
    line = next(x for x in Path(f"/proc/{pid}/status").read_text().splitlines() if x.startswith(field))
    return int(line.split()[1]) // 1024


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads the server's memory from /proc")
def test_views_of_large_stored_reports_keep_the_server_small(tmp_path, corpus_dir):
    """Two 20 MB reports stored; their analysis pages and their comparison viewed at once, twice over. Before,
    the server parsed them itself (~150 MiB each, and kept the last 8 parsed); now a worker does, under the
    upload's memory and time caps, and the server's peak memory grows by what the pages show."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent))
    from huge import make_huge

    reports = []
    for name in (SP_A, SP_B):
        path = tmp_path / f"huge-{name}"
        path.write_text(make_huge((corpus_dir / "reports" / name).read_text(errors="replace"), 20_000_000))
        reports.append(path)
    srv = Server(str(tmp_path / "m.db"), "--max-upload", "32", "--workers", "2")
    try:
        ids = []
        for path in reports:
            r = httpx.post(srv.base + "/api/reports", files=[("files", (path.name, path.read_bytes()))], timeout=120)
            [res] = r.json()["results"]
            assert res["status"] == "added", res
            ids.append(res["id"])
        a, b = ids
        # the peak from here on: the uploads held their bytes in the server for a moment
        clear = Path(f"/proc/{srv.proc.pid}/clear_refs")
        try:
            clear.write_text("5")
            hwm_field = "VmHWM"
        except OSError:
            hwm_field = None
        before = _vm(srv.proc.pid, "VmRSS")
        sampled = [before]
        done = threading.Event()

        def sample():
            while not done.is_set():
                sampled.append(_vm(srv.proc.pid, "VmRSS"))
                time.sleep(0.02)

        results: list[tuple[str, int, str]] = []

        def view(path):
            r = httpx.get(srv.base + path, timeout=120)
            results.append((path, r.status_code, r.text))

        sampler = threading.Thread(target=sample)
        sampler.start()
        paths = [f"/reports/{a}", f"/reports/{b}", f"/compare?a={a}&b={b}", f"/api/compare?a={b}&b={a}"] * 2
        threads = [threading.Thread(target=view, args=(p,)) for p in paths]
        for t in threads:
            t.start()
        for t in threads:
            t.join(180)
        done.set()
        sampler.join()
        assert sorted(s for _, s, _ in results) == [200] * len(paths), [(p, s, t[:200]) for p, s, t in results]
        assert all("<svg" in t for p, _, t in results if not p.startswith("/api/"))
        peak = _vm(srv.proc.pid, hwm_field) if hwm_field else max(sampled)
        growth = max(peak, max(sampled)) - before
        print(f"server RSS {before} MiB before the views, peak {max(peak, max(sampled))} MiB")
        assert growth < 60, f"the server grew by {growth} MiB viewing two 20 MB reports"
    finally:
        srv.stop()


def test_a_page_over_the_caps_is_a_503_with_a_message(tmp_path, corpus_dir):
    """What a reader sees when drawing a page hits the worker's caps: 503 and why, not a dead server."""
    import asyncio
    import sys

    from awrscope.store import Store
    from awrscope.web.worker import PageRefused, ParseLimits, ParsePool

    sys.path.insert(0, str(Path(__file__).parent))
    from huge import make_huge

    path = tmp_path / "5mb.txt"
    path.write_text(make_huge((corpus_dir / "reports" / SP_B).read_text(errors="replace"), 5_000_000))
    db = str(tmp_path / "cap.db")
    with Store(db) as s:
        [res] = s.import_paths([str(path)])
    for limits, says in ((ParseLimits(timeout_s=0.0001), "took longer than"),
                         (ParseLimits(memory_bytes=64 * 1024 * 1024), "more memory than")):
        with pytest.raises(PageRefused) as e:
            asyncio.run(ParsePool(limits).draw(db, "analysis", (res.id,), "test"))
        assert e.value.status == 503 and says in e.value.message, e.value.message
        assert f"/api/reports/{res.id}" in e.value.message
    # the same report under the default caps is drawn
    assert "<svg" in asyncio.run(ParsePool().draw(db, "analysis", (res.id,), "test"))
    with pytest.raises(PageRefused) as e:
        asyncio.run(ParsePool().draw(db, "compare", (res.id, 999), "test"))
    assert e.value.status == 404


# -- failures of the surroundings ----------------------------------------------------------------------------------

def _read_only(store: Path, on: bool = True, only: str | None = None) -> None:
    """Make the store's directory and files read-only (or only the file named), or all writable again. Root
    ignores permission bits, so as root they are made immutable (chattr), which root cannot write either."""
    paths = [*store.iterdir(), store] if on else [store, *store.iterdir()]
    if only and on:
        paths = [store / only]
    if os.geteuid() != 0:
        for p in paths:
            p.chmod((0o555 if p.is_dir() else 0o444) if on else (0o755 if p.is_dir() else 0o644))
        return
    import subprocess

    for p in paths:
        r = subprocess.run(["chattr", "+i" if on else "-i", str(p)], capture_output=True)
        if r.returncode != 0 and on:
            _read_only(store, on=False)
            pytest.skip(f"cannot make the store read-only as root (chattr: {r.stderr.decode().strip()})")


@pytest.mark.parametrize("only", [None, "ro.db"], ids=["directory", "database-file"])
def test_read_only_store_is_503_not_500(tmp_path, only):
    """A store made read-only while the server runs. All of it: SQLite cannot even read a WAL database whose
    directory it cannot write, so every page is a 503 saying the store cannot be opened. The database file
    only: pages read it, writes are a 503 saying it is read-only. Before, both were 500s."""
    store = tmp_path / "store"
    store.mkdir()
    srv = Server(str(store / "ro.db"))
    try:
        data = FIXTURE.read_bytes()
        r = httpx.post(srv.base + "/api/reports", files=[("files", ("a.txt", data))], timeout=60)
        [res] = r.json()["results"]
        assert res["status"] == "added", res
        _read_only(store, only=only)
        try:
            other = data + b"\n\n"  # other bytes: not a duplicate, which needs no write
            checks = [
                ("upload", httpx.post(srv.base + "/api/reports", files=[("files", ("b.txt", other))], timeout=60)),
                ("delete", httpx.delete(f"{srv.base}/api/reports/{res['id']}")),
                ("page", httpx.get(f"{srv.base}/reports/{res['id']}", timeout=60)),
                ("list", httpx.get(srv.base + "/")),
                ("health", httpx.get(srv.base + "/api/health")),
            ]
        finally:
            _read_only(store, on=False)
        for what, r in checks:
            assert r.status_code != 500, (what, r.text[:300])
            if r.status_code >= 400:
                assert r.status_code == 503, (what, r.status_code, r.text[:300])
                assert re.search(r"read-only|cannot be opened", r.text), (what, r.text[:300])
        upload, delete = checks[0][1], checks[1][1]
        if upload.status_code == 200:  # the store could be opened: the file is refused in its result
            [res] = upload.json()["results"]
            assert res["status"] == "error" and "readonly" in res["message"], res
        else:
            assert upload.status_code == 503
        assert delete.status_code == 503
        if only:
            assert [r.status_code for _, r in checks[2:]] == [200, 200, 200]
            assert "read-only" in delete.text
    finally:
        srv.stop()


@pytest.mark.parametrize("backend", BACKENDS)
def test_nul_in_an_upload_name_is_not_500(tmp_path, backend):
    """PostgreSQL cannot keep a NUL in a text column: the upload's name was passed as is, and it was a 500."""
    url, cleanup = make_url(backend, tmp_path)
    srv = Server(url)
    try:
        body = (b"--x\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a\x00b.txt\"\r\n\r\n"
                + FIXTURE.read_bytes() + b"\r\n--x--\r\n")
        r = httpx.post(srv.base + "/api/reports", content=body, timeout=60,
                       headers={"content-type": "multipart/form-data; boundary=x"})
        assert r.status_code in (200, 400), (r.status_code, r.text[:300])
        if r.status_code == 200:
            [res] = r.json()["results"]
            assert "\x00" not in res["name"] and res["status"] == "added", res
    finally:
        srv.stop()
        cleanup()


def test_read_only_postgresql_is_503_not_500(tmp_path):
    """A PostgreSQL store the server may only read (a standby, default_transaction_read_only): writes are a
    503 saying so, reads work."""
    from urllib.parse import quote

    from awrscope.store import Store

    url, cleanup = make_url("postgresql", tmp_path)
    try:
        with Store(url) as s:
            [res] = s.import_paths([str(FIXTURE)])
        srv = Server(url + quote(" -cdefault_transaction_read_only=on"))
        try:
            r = httpx.delete(f"{srv.base}/api/reports/{res.id}")
            assert r.status_code == 503 and "read-only" in r.json()["detail"], r.text
            r = httpx.post(srv.base + "/api/reports", files=[("files", ("b.txt", FIXTURE.read_bytes() + b"\n\n"))],
                           timeout=60)
            assert r.status_code in (200, 503), r.text
            if r.status_code == 200:
                assert r.json()["results"][0]["status"] == "error", r.text
            assert httpx.get(f"{srv.base}/reports/{res.id}", timeout=60).status_code == 200
        finally:
            srv.stop()
    finally:
        cleanup()


class _PgError(Exception):
    """Stands for a psycopg error: the mapping reads the module and the SQLSTATE, as psycopg's carry them."""

    __module__ = "psycopg.errors"

    def __init__(self, message: str, sqlstate: str | None):
        super().__init__(message)
        self.sqlstate = sqlstate


@pytest.mark.parametrize("exc, status, says", [
    (OSError(errno.ENOSPC, "No space left on device"), 503, "disk is full"),
    (OSError(errno.EROFS, "Read-only file system"), 503, "read-only"),
    (OSError(errno.EACCES, "Permission denied"), 503, "may not write"),
    (sqlite3.OperationalError("attempt to write a readonly database"), 503, "read-only"),
    (sqlite3.OperationalError("database or disk is full"), 503, "disk is full"),
    (sqlite3.OperationalError("database is locked"), 503, "busy"),
    (_PgError("cannot execute INSERT in a read-only transaction", "25006"), 503, "read-only"),
    (_PgError("could not extend file: No space left on device", "53100"), 503, "disk is full"),
    (_PgError("PostgreSQL text fields cannot contain NUL (0x00) bytes", None), 400, "NUL"),
    (_PgError("server closed the connection unexpectedly", "08006"), 503, "cannot be reached"),
    (ValueError("embedded null character"), 400, "NUL"),
])
def test_environment_failures_are_named(exc, status, says):
    from awrscope.web.failures import environment_failure

    got = environment_failure(exc)
    assert got is not None and got[0] == status and says in got[1] and "\n" not in got[1], got


def test_bugs_stay_500():
    from awrscope.web.failures import environment_failure

    assert environment_failure(KeyError("x")) is None
    assert environment_failure(ValueError("bad things")) is None
    assert environment_failure(sqlite3.OperationalError("no such column: foo")) is None
