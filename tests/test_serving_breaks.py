"""Issue 40, part 4: the last serving breaks found by the redaction trial, each reproduced.

Filters over 1,000 characters were HTTP 500 on /, /trend, /api/reports and /api/trend (the store's InputError
was not mapped); a named pipe with no writer blocked the CLI and an MCP tool call (which kept the server alive
after its client left); a huge report id was an internal error; a request piped in just before stdin closed went
unanswered; `redact -o somefile/x` and `db show 10**30` exited 3 ('internal error'). Every subprocess and every
wait is bounded.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "fixtures" / "mini_awr_11204.txt"
ENV = {**os.environ, "PYTHONPATH": str(REPO / "src"), "AWRSCOPE_DEBUG": ""}


def _cli(*args: str, timeout: float = 60, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "awrscope", *args], capture_output=True, text=True, env=ENV,
                          timeout=timeout, cwd=cwd)


# -- web: filters the store refuses are the client's error -----------------------------------------------------

@pytest.fixture
def client(tmp_path):
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from awrscope.store import open_store
    from awrscope.web import create_app

    db = str(tmp_path / "s.sqlite3")
    with open_store(db) as s:
        list(s.import_paths([str(FIXTURE)]))
    with TestClient(create_app(db, allowed_hosts=("testserver",)), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("path", ["/", "/trend", "/api/reports", "/api/trend"])
def test_a_filter_over_1000_characters_is_400_not_500(client, path):
    for name in ("db", "instance") + (("finding",) if path in ("/", "/api/reports") else ()):
        query = {name: "x" * 1001}
        if path in ("/trend", "/api/trend") and name != "db":
            query["db"] = "DEMO"
        r = client.get(path, params=query)
        assert r.status_code == 400, (path, name, r.status_code, r.text[:200])
        assert "1,001 characters" in r.text and "x" * 50 not in r.text  # says why, never echoes the value
    assert client.get(path, params={"db": "x" * 1000}).status_code == 200  # the limit itself is allowed


def test_like_wildcards_in_a_finding_filter_are_literal(client):
    every = client.get("/api/reports").json()["total"]
    titles = [f["title"] for f in client.get("/api/reports/1").json()["analysis"]["findings"]]
    assert every == 1 and titles
    assert not any("_" in t for t in titles)  # else '_' below would match literally
    assert client.get("/api/reports", params={"finding": "_"}).json()["total"] == 0
    assert client.get("/api/reports", params={"finding": "%%%%%%%%"}).json()["total"] == 0
    assert client.get("/api/reports", params={"finding": titles[0][:6]}).json()["total"] == 1


# -- CLI -------------------------------------------------------------------------------------------------------

def test_db_show_a_huge_id_is_a_usage_error_not_an_internal_one(tmp_path):
    db = str(tmp_path / "s.sqlite3")
    assert _cli("db", "import", str(FIXTURE), "--db", db).returncode == 0
    for cmd in (["show", str(10 ** 30)], ["delete", str(10 ** 30)], ["show", str(2 ** 63)]):
        r = _cli("db", *cmd, "--db", db)
        assert r.returncode == 2, (cmd, r.returncode, r.stderr)
        assert "internal error" not in r.stderr
    assert _cli("db", "show", "1", "--db", db).returncode == 0


def test_redact_into_a_path_under_a_file_is_refused_with_exit_2(tmp_path):
    (tmp_path / "somefile").write_text("not a directory\n")
    r = _cli("redact", str(FIXTURE), "-o", str(tmp_path / "somefile" / "x"), "--key-file", str(tmp_path / "k.key"))
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "internal error" not in r.stderr and "cannot create the output directory" in r.stderr


def test_the_cli_does_not_block_on_a_named_pipe_with_no_writer(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    started = time.monotonic()
    r = _cli("analyze", str(fifo), timeout=30)  # blocked in open(2) for ever before: the timeout raised
    assert r.returncode == 2 and "named pipe" in r.stderr, r.stderr
    assert time.monotonic() - started < 20


def test_a_named_pipe_with_a_writer_is_still_read(tmp_path):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    p = subprocess.Popen([sys.executable, "-m", "awrscope", "analyze", str(fifo), "--format", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    time.sleep(1.0)  # the reader is waiting for a writer
    with open(fifo, "wb") as fh:
        fh.write(FIXTURE.read_bytes())
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert json.loads(out)["report"]["db_name"] == "DEMO"


# -- MCP -------------------------------------------------------------------------------------------------------

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _mcp(messages: list[dict], *args: str, timeout: float = 90, cwd: Path | None = None) -> tuple[dict, float]:
    """Every message piped in at once, stdin then closed: id -> reply, and how long the server took to exit."""
    pytest.importorskip("mcp")
    data = "".join(json.dumps(m) + "\n" for m in messages).encode()
    started = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "awrscope", "mcp", *args], input=data, capture_output=True,
                       env=ENV, timeout=timeout, cwd=cwd)
    replies = {}
    for line in p.stdout.decode().splitlines():
        if line.strip():
            msg = json.loads(line)
            replies[msg.get("id")] = msg
    return replies, time.monotonic() - started


def _call(rid: int, name: str, arguments: dict) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


def test_mcp_answers_every_request_read_before_stdin_closed(tmp_path):
    # initialize + tools/list piped in, then EOF: the SDK stopped at EOF and tools/list went unanswered in 6
    # runs of 10 here
    for _ in range(5):
        replies, _ = _mcp([INIT, INITIALIZED, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}],
                          "--root", str(tmp_path))
        assert 1 in replies and "result" in replies[1], sorted(replies)


def test_mcp_a_fifo_under_the_root_neither_hangs_nor_keeps_the_server_alive(tmp_path):
    fifo = tmp_path / "report.txt"
    os.mkfifo(fifo)
    replies, took = _mcp([INIT, INITIALIZED, _call(1, "analyze_report", {"path": str(fifo)})],
                         "--root", str(tmp_path), timeout=60)  # before: subprocess.TimeoutExpired
    assert replies[1]["result"]["isError"] is True
    assert "named pipe" in replies[1]["result"]["content"][0]["text"]
    assert took < 45


def test_mcp_a_huge_report_id_is_no_such_report_not_an_internal_error(tmp_path):
    db = str(tmp_path / "s.sqlite3")
    assert _cli("db", "import", str(FIXTURE), "--db", db).returncode == 0
    replies, _ = _mcp([INIT, INITIALIZED, _call(1, "get_stored_analysis", {"report_id": 10 ** 30}),
                       _call(2, "get_stored_analysis", {"report_id": 1})], "--db", db, "--root", str(tmp_path))
    text = replies[1]["result"]["content"][0]["text"]
    assert replies[1]["result"]["isError"] is True and "internal error" not in text and "no report" in text
    assert replies[2]["result"].get("isError") is not True


# -- web: slow clients from many addresses ----------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["headers", "body"])
def test_slow_clients_from_ten_addresses_do_not_starve_the_health_probe(tmp_path, mode):
    """300 connections from 10 loopback addresses (30 each: within the per-address cap together, past the
    server's cap), each sending a header line every 0.5 s ('headers') or one body byte every second of a long
    body ('body'), reconnecting whatever is dropped (the trial: a header line every 5 s or a body byte every
    10 s with the default 20 s timeout; here scaled to --client-timeout 2). Before: the slow connections held
    every place (a body byte within each pause limit kept one for good) and the probes were refused (47 % and
    83 %). Each request now has a total deadline, and at the cap the slowest incomplete request gives its place
    to the new connection."""
    import socket
    import threading

    pytest.importorskip("uvicorn")
    import httpx
    sys.path.insert(0, str(Path(__file__).parent))
    from _server import Server

    srv = Server(str(tmp_path / "s.db"), "--client-timeout", "2", "--max-connections", "64")
    peers = [f"127.0.0.{i}" for i in range(2, 12)]
    attack: dict = {}
    health: list = []
    stop = threading.Event()
    head = (b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n" if mode == "headers" else
            b"POST /api/reports HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
            b"Content-Length: 100000\r\n\r\n")

    def open_one(peer: str) -> None:
        s = socket.socket()
        try:
            s.bind((peer, 0))
        except OSError:
            s.close()
            pytest.skip(f"cannot bind {peer}")
        s.settimeout(3)
        try:
            s.connect(("127.0.0.1", srv.port))
            s.sendall(head)
        except OSError:
            s.close()
            return
        s.setblocking(False)
        attack[s] = peer

    def closed(s) -> bool:
        try:
            return not s.recv(4096) or True  # an answer (503, 408) or the end: either way the place is gone
        except BlockingIOError:
            return False
        except OSError:
            return True

    def probe() -> None:
        while not stop.is_set():
            try:
                health.append(httpx.get(srv.base + "/api/health", timeout=5).status_code)
            except httpx.HTTPError as e:
                health.append(type(e).__name__)
            time.sleep(0.25)

    watcher = threading.Thread(target=probe)
    try:
        for peer in peers:
            for _ in range(30):
                open_one(peer)
        watcher.start()
        t_end = time.monotonic() + 10
        while time.monotonic() < t_end:
            for s in list(attack):
                if closed(s):
                    peer = attack.pop(s)
                    s.close()
                    open_one(peer)  # the attacker comes back at once
                    continue
                try:
                    s.send(b"X-Slow: 1\r\n" if mode == "headers" else b"x")
                except OSError:
                    peer = attack.pop(s)
                    s.close()
                    open_one(peer)
            time.sleep(0.5 if mode == "headers" else 1.0)
        stop.set()
        watcher.join(30)
        ok = sum(1 for h in health if h == 200)
        assert len(health) >= 10 and ok >= 0.95 * len(health), (ok, len(health), [h for h in health if h != 200])
    finally:
        stop.set()
        for s in attack:
            s.close()
        srv.stop()
