"""`awrscope mcp` (issue 18) driven through the official SDK's own stdio client: the server is spawned as
`python -m awrscope mcp` with PYTHONPATH=src, its tools and resources are listed, every tool is called on corpus
reports, and each result is checked against `python -m awrscope ... --format json` for the same inputs (the
parsed JSON, whole: no field is run-dependent, none is ignored). Refused inputs must be tool errors holding the
CLI's one stderr line. Every test is bounded in time: the MCP session by anyio.fail_after, each CLI run by a
subprocess timeout. Without the SDK the tests skip (under CI=true they fail: the test extra installs it)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from conftest import CORPUS

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(REPO / "src"), "AWRSCOPE_DEBUG": ""}
SESSION_S = 240  # one MCP session, whatever it does
CLI_S = 180  # one CLI run

try:
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client
except ImportError as e:  # pragma: no cover - the test extra installs mcp
    if os.environ.get("CI", "").lower() == "true":
        raise
    pytest.skip(f"the mcp SDK is not installed ({e})", allow_module_level=True)

TOOLS = {"analyze_report", "compare_reports", "trend_reports", "explain_rule", "list_stored_reports",
         "get_stored_analysis", "get_metric_series", "get_finding_evidence"}
SCHEMAS = {"awrscope://schema/analysis": REPO / "docs/analysis.schema.json",
           "awrscope://schema/compare": REPO / "docs/compare.schema.json",
           "awrscope://schema/trend": REPO / "docs/trend.schema.json",
           "awrscope://schema/parse": REPO / "src/awrscope/schema/parse.schema.json"}
# one report of each family and format, a .gz among them
ANALYZED = ["awr_txt_10204_radtek_oradb1_base01_54977_54986.txt", "awr_html_11203_antognini_top2_1830_1845.html",
            "statspack_txt_11203_antognini_top2_1830_1845.txt", "awr_html_11203_slob_skoehler_100k_iops.html.gz",
            "ash_txt_11203_antognini_top2_1845_1900.txt", "addm_txt_19c_lucky29011_dvk.txt",
            "awr_global_html_12201_slob_therealkevinc.html", "awr_diff_txt_11203_antognini_top2.txt"]
STATSPACK_SERIES = ["statspack_txt_81741_radtek-oraclescripts_oracle_116_117.lst",
                    "statspack_txt_81741_radtek-oraclescripts_oracle_118_119.lst",
                    "statspack_txt_81741_radtek-oraclescripts_oracle_137_138.lst"]


def cli(*args: str, code: int | tuple[int, ...] = 0) -> subprocess.CompletedProcess:
    p = subprocess.run([sys.executable, "-m", "awrscope", *args], capture_output=True, text=True, env=ENV,
                       cwd=REPO, timeout=CLI_S, check=False)
    assert p.returncode in ((code,) if isinstance(code, int) else code), p.stderr
    return p


def cli_json(*args: str, code: int | tuple[int, ...] = 0):
    return json.loads(cli(*args, code=code).stdout)


#: what the tests read: the checkout (README.md), the corpus and pytest's temporary directories
TEST_ROOTS = ("--root", str(REPO), "--root", str(CORPUS.parent), "--root", tempfile.gettempdir())


def session(work, *server_args: str, env: dict | None = None, roots: tuple[str, ...] = TEST_ROOTS,
            cwd: Path = REPO, client_roots: list[Path] | None = None):
    """Spawn `python -m awrscope mcp ROOTS SERVER_ARGS`, initialise a ClientSession (granting ``client_roots``
    as MCP roots when given), run ``await work(s)``."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "awrscope", "mcp", *roots, *server_args],
                                   env={"PYTHONPATH": str(REPO / "src"), **(env or {})}, cwd=str(cwd))
    callback = None
    if client_roots is not None:
        from mcp_types import ListRootsResult, Root

        async def callback(context):
            return ListRootsResult(roots=[Root(uri=p.resolve().as_uri()) for p in client_roots])

    async def main(errlog):
        with anyio.fail_after(SESSION_S):
            async with stdio_client(params, errlog=errlog) as (read, write), \
                    ClientSession(read, write, list_roots_callback=callback) as s:
                await s.initialize()
                return await work(s)

    with open(os.devnull, "w") as errlog:  # the server's stderr (SDK log lines) kept out of the test output
        return anyio.run(main, errlog)


def ok(result) -> dict:
    """A successful tool result: its structured content, which its first text block spells as JSON."""
    assert not result.is_error, result.content[0].text
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


def error_line(result) -> str:
    assert result.is_error
    assert len(result.content) == 1 and "Traceback" not in result.content[0].text
    return result.content[0].text


def test_cli_import_does_not_load_the_sdk():
    code = "import sys, awrscope.cli; print(','.join(m for m in sys.modules if m == 'mcp' or m.startswith('mcp.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, check=True,
                         timeout=60).stdout.strip()
    assert out == ""


def test_lists_tools_and_resources():
    async def work(s):
        return (await s.list_tools()).tools, (await s.list_resources()).resources, \
            [await s.read_resource(u) for u in ["awrscope://rules", *SCHEMAS]]

    tools, resources, reads = session(work)
    assert {t.name for t in tools} == TOOLS
    for t in tools:
        assert t.description and t.input_schema["type"] == "object"
        assert t.annotations.read_only_hint and not t.annotations.open_world_hint, t.name
    by_name = {t.name: t.input_schema for t in tools}
    assert by_name["analyze_report"]["required"] == ["path"]
    assert by_name["get_finding_evidence"]["required"] == ["path", "finding_id"]
    assert by_name["trend_reports"]["properties"]["paths"]["type"] == "array"
    assert {str(r.uri) for r in resources} == {"awrscope://rules", *SCHEMAS}
    rules = json.loads(reads[0].contents[0].text)["rules"]
    listed = [line.split()[0] for line in cli("rules").stdout.splitlines() if line.strip()]
    assert [r["id"] for r in rules] == listed
    for uri, read in zip(SCHEMAS, reads[1:]):
        assert json.loads(read.contents[0].text) == json.loads(SCHEMAS[uri].read_text(encoding="utf-8"))


def test_analyze_report_is_the_cli_document(corpus):
    paths = [str(corpus / name) for name in ANALYZED]

    async def work(s):
        return [await s.call_tool("analyze_report", {"path": p, "detail": "full"}) for p in paths]

    for p, result in zip(paths, session(work)):
        assert ok(result) == cli_json("analyze", "--format", "json", p), p


def test_analyze_report_summarises_by_default(corpus):
    # the default reply is what a DBA reads: the CLI's text, and a structured summary whose findings are those of
    # the full document, with their evidence as sentences that keep the section and line
    p = str(corpus / ANALYZED[0])

    async def work(s):
        return await s.call_tool("analyze_report", {"path": p})

    result = session(work)
    got, full = ok(result), cli_json("analyze", "--format", "json", p)
    assert got["detail"] == "summary" and [f["id"] for f in got["findings"]] == [f["id"] for f in full["findings"]]
    f0, e0 = full["findings"][0], full["findings"][0]["evidence"][0]
    assert got["findings"][0]["evidence"][0].endswith(f"[{e0['source'][0]['section']} line {e0['source'][0]['line']}]")
    assert got["findings"][0]["recommendation"] == f0["recommendation"]
    assert len(json.dumps(got)) < len(json.dumps(full)) / 3
    assert result.content[1].text.startswith(p) and "verdict:" in result.content[1].text


def test_analyze_with_a_config(corpus, tmp_path):
    toml = tmp_path / "rules.toml"
    toml.write_text("[rules.G05]\npct = 60\n", encoding="utf-8")
    p = str(corpus / ANALYZED[0])

    async def work(s):
        return await s.call_tool("analyze_report", {"path": p, "config": str(toml), "detail": "full"})

    got = ok(session(work))
    assert got == cli_json("analyze", "--format", "json", "--config", str(toml), p)
    assert "G05" not in [f["id"] for f in got["findings"]]  # 52.4 % of DB time: a finding at 10 %, none at 60 %


def test_compare_reports_is_the_cli_document(corpus):
    before, after = (str(corpus / f"awr_html_11203_antognini_top2_{t}.html") for t in ("1830_1845", "1930_1945"))
    diff = str(corpus / "awr_diff_txt_11203_antognini_top2.txt")

    async def work(s):
        return [await s.call_tool("compare_reports", {"before": before, "after": after}),
                await s.call_tool("compare_reports", {"before": before, "after": after, "streams": [5, 10]}),
                await s.call_tool("compare_reports", {"before": diff})]

    two, streams, periods = session(work)
    assert ok(two) == cli_json("compare", "--format", "json", before, after)
    assert ok(streams) == cli_json("compare", "--format", "json", "--streams", "5,10", before, after)
    assert ok(periods) == cli_json("compare", "--format", "json", diff)


def test_trend_reports_is_the_cli_document(corpus, tmp_path):
    folder = tmp_path / "series"
    folder.mkdir()
    for name in STATSPACK_SERIES:
        shutil.copy(corpus / name, folder / name)
    (folder / "notes.txt").write_text("not a report\n", encoding="utf-8")  # skipped, said beside the result
    fleet = [str(corpus / ANALYZED[0]), str(corpus / ANALYZED[2]), str(tmp_path / "missing.txt")]

    async def work(s):
        return [await s.call_tool("trend_reports", {"paths": [str(folder)]}),
                await s.call_tool("trend_reports", {"paths": fleet}),
                await s.call_tool("trend_reports", {"paths": [str(folder)], "begin": "2099-01-01"})]

    series, several, none_in_range = session(work)
    assert ok(series) == cli_json("trend", "--format", "json", str(folder))
    assert ok(series)["kind"] != "fleet" and len(ok(series)["windows"]) == 3
    assert any("skipped 1 file" in c.text for c in series.content[1:])
    assert ok(several) == cli_json("trend", "--format", "json", *fleet, code=2)  # the missing file: an error row
    p = cli("trend", "--format", "json", "--begin", "2099-01-01", str(folder), code=2)
    assert error_line(none_in_range).splitlines()[-1] == p.stderr.splitlines()[-1]


def test_explain_rule_is_the_cli_text():
    async def work(s):
        return [await s.call_tool("explain_rule", {"rule_id": r}) for r in ("R01", "g05", "Z99")]

    r01, g05, unknown = session(work)
    for result, rid in ((r01, "R01"), (g05, "G05")):
        doc = ok(result)
        text = cli("rules", "explain", rid).stdout
        assert text.startswith(f"{doc['id']} {doc['slug']}: {doc['title']}\n\n{doc['doc']}\n")
        assert [line.strip() for line in text.split("[rules." + rid + "]):\n")[1].splitlines()] == \
            [f"{k} = {v}" for k, v in doc["thresholds"].items()]
    assert error_line(unknown) == cli("rules", "explain", "Z99", code=2).stderr.strip()


def test_finding_evidence_quotes_the_report_lines(corpus):
    names = [ANALYZED[0], ANALYZED[1], ANALYZED[2]]  # AWR text, AWR HTML, Statspack

    docs = {n: cli_json("analyze", "--format", "json", str(corpus / n)) for n in names}
    calls = [(n, f["id"]) for n in names for f in docs[n]["findings"] + docs[n]["observations"]]
    assert len(calls) >= 5

    async def work(s):
        return [await s.call_tool("get_finding_evidence", {"path": str(corpus / n), "finding_id": fid})
                for n, fid in calls]

    checked = 0
    for (n, fid), result in zip(calls, session(work)):
        ev = ok(result)
        doc = docs[n]
        f = next(x for x in doc["findings"] + doc["observations"] if x["id"] == fid)
        assert ev["source"] == doc["source"] and ev["finding"]["title"] == f["title"]
        data = (corpus / n).read_bytes().decode("utf-8", errors="replace")
        lines = data.split("\n") if doc["report"]["format"] == "html" else data.replace("\f", "").splitlines()
        assert len(ev["evidence"]) == len(f["evidence"])
        for got, want in zip(ev["evidence"], f["evidence"]):
            assert got["metric"] == want["metric"] and got["value"] == want["value"]
            assert [{k: v for k, v in s.items() if k not in ("text", "text_truncated")} for s in got["source"]] \
                == want["source"]
            for s in got["source"]:
                if s.get("line"):
                    assert s["text"] == lines[s["line"] - 1].rstrip("\r")[:4000]
                    assert s["text"].strip(), (n, fid, s)
                    checked += 1
    assert checked >= 10


def test_errors_are_the_cli_line(corpus, tmp_path):
    missing, readme = str(tmp_path / "nope.txt"), str(REPO / "README.md")
    awr = str(corpus / ANALYZED[0])

    async def work(s):
        return [await s.call_tool("analyze_report", {"path": missing}),
                await s.call_tool("analyze_report", {"path": readme}),
                await s.call_tool("compare_reports", {"before": awr, "after": missing}),
                await s.call_tool("compare_reports", {"before": awr}),
                await s.call_tool("get_finding_evidence", {"path": awr, "finding_id": "R01"}),
                await s.call_tool("analyze_report", {"path": awr, "config": missing}),
                await s.call_tool("trend_reports", {"paths": ["-"]})]

    gone, not_report, cmp_gone, not_diff, no_finding, bad_config, stdin = session(work)
    assert error_line(gone) == cli("analyze", "--format", "json", missing, code=2).stderr.strip()
    assert error_line(not_report) == cli("analyze", "--format", "json", readme, code=2).stderr.strip()
    assert error_line(cmp_gone) == cli("compare", "--format", "json", awr, missing, code=2).stderr.strip()
    assert error_line(not_diff) == cli("compare", "--format", "json", awr, code=2).stderr.strip()
    assert error_line(no_finding).startswith(f"awrscope: {awr}: no finding R01; it has G05")
    assert error_line(bad_config) == f"awrscope: cannot read config {missing}: no such file"
    assert error_line(stdin).startswith("awrscope: '-' (stdin) carries the MCP messages")


@pytest.fixture
def store_file(corpus, tmp_path) -> Path:
    """A SQLite store holding the three-report Statspack series and two others."""
    db = tmp_path / "store.sqlite3"
    cli("db", "import", "-q", "-j", "1", "--db", str(db), *(str(corpus / n) for n in STATSPACK_SERIES),
        str(corpus / ANALYZED[0]), str(corpus / ANALYZED[1]))
    return db


def test_store_tools_are_the_cli_documents(store_file):
    db = str(store_file)
    listed = cli_json("db", "list", "--format", "json", "--db", db)
    assert listed["total"] == 5
    one = listed["reports"][0]
    filters = {"database": one["db_name"], "severity": "info", "limit": 2}

    async def work(s):
        return [await s.call_tool("list_stored_reports", {}),
                await s.call_tool("list_stored_reports", filters),
                await s.call_tool("get_stored_analysis", {"report_id": one["id"]}),
                await s.call_tool("get_stored_analysis", {"report_id": 999}),
                await s.call_tool("get_metric_series", {"database": one["db_name"]}),
                await s.call_tool("get_metric_series", {"database": one["db_name"],
                                                        "metrics": ["redo_rate_Bps", "lfs_ms"]}),
                await s.call_tool("get_metric_series", {"database": "NO_SUCH_DB"})]

    # the URL from $AWRSCOPE_DB, as `awrscope db` takes it
    every, filtered, shown, missing, series, two, no_db = session(work, env={"AWRSCOPE_DB": db})
    assert ok(every) == listed
    assert ok(filtered) == cli_json("db", "list", "--format", "json", "--db", db, "--database", one["db_name"],
                                    "--severity", "info", "--limit", "2")
    assert ok(shown) == cli_json("db", "show", str(one["id"]), "--format", "json", "--db", db)
    assert error_line(missing) == cli("db", "show", "999", "--db", db, code=2).stderr.strip()

    from awrscope.store import Store

    with Store(db) as store:
        want = json.loads(json.dumps(store.trend(one["db_name"]), default=str))
        want_two = json.loads(json.dumps(store.trend(one["db_name"], ["redo_rate_Bps", "lfs_ms"]), default=str))
    got = ok(series)
    assert {k: v for k, v in got.items() if k != "available_metrics"} == want
    assert got["reports"] == sum(1 for r in listed["reports"] if r["db_name"] == one["db_name"])
    assert any(s["points"] for s in got["series"]) and "redo_rate_Bps" in got["available_metrics"]
    assert {k: v for k, v in ok(two).items() if k != "available_metrics"} == want_two
    assert error_line(no_db) == "awrscope: no stored report of database NO_SUCH_DB"


def test_store_url_from_the_db_option(store_file):
    async def work(s):
        return await s.call_tool("list_stored_reports", {"kind": "statspack"})

    got = ok(session(work, "--db", str(store_file)))
    assert got == cli_json("db", "list", "--format", "json", "--db", str(store_file), "--kind", "statspack")
    assert got["total"] == 3


# -- the wire itself: malformed and oversized messages (issue 28) ---------------------------------------------

class RawServer:
    """`awrscope mcp` spoken to line by line, as a careless or hostile client would: the SDK's client only
    ever sends well-formed messages. Replies are read on a thread so a missing one fails after REPLY_S
    instead of hanging the test."""

    REPLY_S = 30

    def __init__(self, *args: str, cwd: Path = REPO):
        import queue

        self.p = subprocess.Popen([sys.executable, "-m", "awrscope", "mcp", *args], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV, cwd=cwd)
        self.replies: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        init = self.call({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                          "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                     "clientInfo": {"name": "raw", "version": "0"}}})
        assert "result" in init, init
        self.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')

    def _read(self) -> None:
        for line in self.p.stdout:
            self.replies.put(line)

    def send(self, data: bytes) -> None:
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def reply(self) -> tuple[dict, int]:
        line = self.replies.get(timeout=self.REPLY_S)  # queue.Empty: the server never answered
        return json.loads(line), len(line)

    def call(self, message: dict) -> dict:
        self.send(json.dumps(message).encode() + b"\n")
        return self.reply()[0]

    def tool(self, rid: int, name: str, arguments: dict) -> dict:
        return self.call({"jsonrpc": "2.0", "id": rid, "method": "tools/call",
                          "params": {"name": name, "arguments": arguments}})

    def peak_rss_kib(self) -> int:
        status = Path(f"/proc/{self.p.pid}/status").read_text()
        return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))

    def close(self) -> int:
        self.p.stdin.close()
        try:
            return self.p.wait(timeout=self.REPLY_S)
        finally:
            if self.p.poll() is None:
                self.p.kill()


@pytest.fixture
def raw():
    servers: list[RawServer] = []

    def start(*args: str, cwd: Path = REPO) -> RawServer:
        servers.append(RawServer(*args, cwd=cwd))
        return servers[-1]

    yield start
    for s in servers:
        if s.p.poll() is None:
            s.p.kill()
            s.p.wait()


def test_malformed_messages_get_json_rpc_errors(raw):
    s = raw(*TEST_ROOTS)
    cases = [(b"not json at all\n", -32700, None),
             (b'{"jsonrpc": "2.0", "id": 3, "method": \n', -32700, None),  # cut short
             (b"\xff\xfe{}\n", -32700, None),  # not UTF-8
             (b"[]\n", -32600, None),
             (b'[{"jsonrpc": "2.0", "id": 4, "method": "ping"}]\n', -32600, None),  # a batch: MCP has none
             (b"42\n", -32600, None),
             (b'{"jsonrpc": "2.0", "id": 5, "method": 17}\n', -32600, 5),  # the id is usable: the client's
             (b'{"jsonrpc": "1.0", "id": "a", "method": "ping"}\n', -32600, "a"),
             (b'{"jsonrpc": "2.0", "id": [1], "method": "ping"}\n', -32600, None),  # an unusable id: null
             (b'{"id": 6}\n', -32600, 6)]
    for line, code, rid in cases:
        s.send(line)
        got, _ = s.reply()
        assert got["jsonrpc"] == "2.0" and got["error"]["code"] == code and got["id"] == rid, (line, got)
        assert "Traceback" not in got["error"]["message"]
    s.send(b"\n   \n")  # blank lines are no message: nothing comes back for them, the next call is answered
    assert s.call({"jsonrpc": "2.0", "id": 7, "method": "ping"}) == {"jsonrpc": "2.0", "id": 7, "result": {}}
    assert s.call({"jsonrpc": "2.0", "id": 8, "method": "no/such"})["error"]["code"] == -32601  # the SDK's
    assert s.close() == 0


def test_an_oversized_message_is_refused_without_being_held(raw):
    s = raw(*TEST_ROOTS)
    before = s.peak_rss_kib()
    payload = b"x" * (1 << 20)
    s.send(b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "analyze_report", '
           b'"arguments": {"path": "')
    for _ in range(100):  # 100 MiB in one line
        s.send(payload)
    s.send(b'"}}}\n')
    got, size = s.reply()
    assert got["error"]["code"] == -32600 and got["id"] is None and "more than" in got["error"]["message"]
    assert size < 1000  # the message is not quoted back
    # held whole, 100 MiB would raise the peak by at least that much (the SDK's line, then its str)
    assert s.peak_rss_kib() - before < 32 * 1024, (before, s.peak_rss_kib())
    # the stream is still in step: the next message is read as one
    assert s.call({"jsonrpc": "2.0", "id": 10, "method": "ping"})["id"] == 10
    just_under = {"jsonrpc": "2.0", "id": 11, "method": "ping", "params": {"_meta": {"pad": "y" * 1_000_000}}}
    assert s.call(just_under)["id"] == 11
    assert s.close() == 0


# -- what may be read: the client's roots, else the server's --root (issue 28) ---------------------------------

def _refused(reply: dict, path: str) -> str:
    result = reply["result"]
    assert result["isError"], result
    text = result["content"][0]["text"]
    assert text == f"awrscope: {path}: not under a directory this server may read (the client's roots, or the " \
                   "server's --root)", text
    return text


def test_reads_only_under_the_root_option(raw, corpus, tmp_path):
    inside = tmp_path / "granted"
    inside.mkdir()
    report = inside / "a.txt"
    shutil.copy(corpus / ANALYZED[0], report)
    (inside / "link.txt").symlink_to(corpus / ANALYZED[2])  # inside by name, outside in fact
    outside = str(corpus / ANALYZED[2])
    s = raw("--root", str(inside))

    got = s.tool(1, "analyze_report", {"path": str(report)})
    assert not got["result"].get("isError") and got["result"]["structuredContent"]["source"]["path"] == str(report)
    # existing or not, a file outside gets the same line: the answer says nothing about the file system
    _refused(s.tool(2, "analyze_report", {"path": "/etc/passwd"}), "/etc/passwd")
    _refused(s.tool(3, "analyze_report", {"path": "/etc/no-such-file"}), "/etc/no-such-file")
    _refused(s.tool(4, "analyze_report", {"path": outside}), outside)
    _refused(s.tool(5, "analyze_report", {"path": str(inside / ".." / ".." / "x")}), str(inside / ".." / ".." / "x"))
    _refused(s.tool(6, "analyze_report", {"path": str(inside / "link.txt")}), str(inside / "link.txt"))
    _refused(s.tool(7, "trend_reports", {"paths": ["/etc"]}), "/etc")
    _refused(s.tool(8, "trend_reports", {"paths": ["/etc/*"]}), "/etc/*")
    _refused(s.tool(9, "trend_reports", {"paths": [str(inside)]}), str(inside / "link.txt"))  # what it would list
    _refused(s.tool(10, "analyze_report", {"path": str(report), "config": "/etc/passwd"}), "/etc/passwd")
    _refused(s.tool(11, "compare_reports", {"before": str(report), "after": outside}), outside)
    _refused(s.tool(12, "get_finding_evidence", {"path": outside, "finding_id": "G05"}), outside)
    _refused(s.tool(13, "analyze_report", {"path": str(report) + "\x00.txt"}), str(report) + "\\x00.txt")
    assert s.close() == 0


def test_the_working_directory_is_the_default_root(raw, corpus, tmp_path):
    shutil.copy(corpus / ANALYZED[0], tmp_path / "a.txt")
    s = raw(cwd=tmp_path)
    assert not s.tool(1, "analyze_report", {"path": "a.txt"})["result"].get("isError")
    _refused(s.tool(2, "analyze_report", {"path": str(corpus / ANALYZED[0])}), str(corpus / ANALYZED[0]))
    _refused(s.tool(3, "analyze_report", {"path": "../a.txt"}), "../a.txt")
    assert s.close() == 0


def test_a_relative_path_is_under_the_root_option_not_the_working_directory(raw, corpus, tmp_path):
    """Issue 41: with --root, `{"path": "a.txt"}` was looked for in the server's working directory (here one that
    holds another a.txt, outside the root) and refused or, worse, another file read. It is the root's a.txt; with
    several roots, the first that holds the file; a relative path that climbs out is refused under its own name."""
    granted, second, cwd = tmp_path / "granted", tmp_path / "second", tmp_path / "cwd"
    for d in (granted, second, cwd):
        d.mkdir()
    shutil.copy(corpus / ANALYZED[0], granted / "a.txt")
    shutil.copy(corpus / ANALYZED[2], second / "b.txt")
    shutil.copy(corpus / ANALYZED[2], cwd / "a.txt")  # another report under the same name, outside the roots
    (granted / "rules.toml").write_text("")
    s = raw("--root", str(granted), "--root", str(second), cwd=cwd)
    got = s.tool(1, "analyze_report", {"path": "a.txt", "config": "rules.toml", "detail": "full"})
    assert not got["result"].get("isError"), got
    doc = got["result"]["structuredContent"]
    assert doc["source"]["path"] == str(granted / "a.txt") and doc["report"]["kind"] == "awr"
    got = s.tool(2, "analyze_report", {"path": "b.txt", "detail": "full"})
    assert got["result"]["structuredContent"]["source"]["path"] == str(second / "b.txt")
    got = s.tool(3, "compare_reports", {"before": "a.txt", "after": "b.txt"})
    assert not got["result"].get("isError"), got
    got = s.tool(4, "trend_reports", {"paths": ["*.txt"]})
    assert not got["result"].get("isError"), got
    _refused(s.tool(5, "analyze_report", {"path": "../cwd/a.txt"}), "../cwd/a.txt")
    missing = s.tool(6, "analyze_report", {"path": "nope.txt"})["result"]
    assert missing["isError"] and str(granted / "nope.txt") in missing["content"][0]["text"]
    assert s.close() == 0


def test_the_client_roots_decide(corpus, tmp_path):
    granted, other = tmp_path / "granted", tmp_path / "other"
    for d in (granted, other):
        d.mkdir()
        shutil.copy(corpus / ANALYZED[0], d / "a.txt")

    async def work(s):
        return [await s.call_tool("analyze_report", {"path": str(granted / "a.txt")}),
                await s.call_tool("analyze_report", {"path": str(other / "a.txt")})]

    # no --root: the client's roots replace the working directory (here `other`)
    yes, no = session(work, roots=(), cwd=other, client_roots=[granted])
    assert ok(yes)["source"]["path"] == str(granted / "a.txt")
    assert error_line(no).startswith(f"awrscope: {other / 'a.txt'}: not under a directory")
    # --root given: a path must be under it and under a client root
    yes, no = session(work, roots=("--root", str(other)), client_roots=[granted, other])
    assert error_line(yes).startswith(f"awrscope: {granted / 'a.txt'}: not under a directory")
    assert ok(no)["source"]["path"] == str(other / "a.txt")
