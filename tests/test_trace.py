"""awrscope trace: the CLI and its outputs, bad inputs (truncated, interleaved sessions, not a trace),
centisecond traces, untrusted SQL text in HTML."""
from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from awrscope.cli import main
from awrscope.trace import read_text

FIX = Path(__file__).parent / "fixtures" / "trace"
REAL = FIX / "js122a1_ora_9854.trc"


def run(*args):
    return CliRunner().invoke(main, ["trace", *args], catch_exceptions=False)


def test_text_markdown_json_html(tmp_path):
    r = run(str(FIX / "truncate_lww.trc"))
    assert r.exit_code == 0 and "Response-time profile" in r.output and "unaccounted-for time" in r.output
    assert "T02" in r.output and "TRUNCATE TABLE lwr11" in r.output
    md = run("--format", "markdown", str(FIX / "truncate_lww.trc")).output
    assert "| local write wait | 19.9% |" in md
    doc = json.loads(run("--format", "json", str(FIX / "truncate_lww.trc")).output)
    assert doc["schema"] == "awrscope-trace/1" and doc["schema_version"] == 1
    for key in ("source", "session", "interval", "profile", "calls", "statements", "histograms", "findings", "issues"):
        assert key in doc
    out = tmp_path / "t.html"
    assert run(str(FIX / "truncate_lww.trc"), "-o", str(out)).exit_code == 0
    page = out.read_text()
    assert page.startswith("<!doctype html>") and "local write wait" in page
    assert not re.search(r"(src|href)=[\"']?(https?:)?//", page)  # nothing fetched from elsewhere


def test_several_files_and_fail_on():
    r = run("--format", "json", str(REAL), str(FIX / "truncate_lww.trc"))
    docs = json.loads(r.output)
    assert isinstance(docs, list) and len(docs) == 2
    assert run("--fail-on", "major", str(FIX / "truncate_lww.trc")).exit_code == 1
    assert run("--fail-on", "major", str(REAL)).exit_code == 0


def test_sql_text_is_escaped_in_html(tmp_path):
    evil = "select '<script>alert(1)</script><img src=x onerror=alert(2)>' from dual"
    trace = (f"PARSING IN CURSOR #1 len={len(evil)} dep=0 uid=1 oct=3 lid=1 tim=100 hv=1 ad='0' sqlid='x\"><b>'\n"
             f"{evil}\nEND OF STMT\nPARSE #1:c=1,e=2,p=0,cr=0,cu=0,mis=0,r=0,dep=0,og=1,plh=0,tim=102\n"
             "WAIT #1: nam='<svg onload=alert(3)>' ela= 5 p1=0 p2=0 p3=0 obj#=-1 tim=110\n")
    p = tmp_path / "evil.trc"
    p.write_text(trace)
    out = tmp_path / "evil.html"
    assert run(str(p), "-o", str(out)).exit_code == 0
    page = out.read_text()
    assert "<script>" not in page and "<img" not in page and "<svg onload" not in page and 'x"><b>' not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_not_a_trace_is_one_line_exit_2(tmp_path):
    readme = Path(__file__).parents[1] / "README.md"
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\x00\x01\x02" * 100)
    empty = tmp_path / "empty.trc"
    empty.write_text("")
    for path in (readme, binary, empty, tmp_path / "missing.trc"):
        r = CliRunner().invoke(main, ["trace", str(path)])
        assert r.exit_code == 2, (path, r.output)
        assert len(r.output.strip().splitlines()) == 1 and r.output.startswith("awrscope: ")
        assert "Traceback" not in r.output


def test_truncated_trace_gives_a_partial_profile(tmp_path):
    data = REAL.read_text()
    cut = data[:data.index("fetch cs_emp into") + 9]  # inside the PL/SQL block's text, in the middle of a line
    p = tmp_path / "cut.trc"
    p.write_text(cut)
    r = run("--format", "json", str(p))
    assert r.exit_code == 0
    doc = json.loads(r.output)
    assert doc["partial"] is True
    msgs = " ".join(i["message"] for i in doc["issues"])
    assert "END OF STMT" in msgs and "no end of line" in msgs
    assert {p["component"] for p in doc["profile"]} >= {"cursor: pin S wait on X", "unaccounted-for time"}
    # cut in the middle of a WAIT line: that line is malformed, the rest is profiled
    cut2 = data[:data.index("nam='PL/SQL lock timer'") + 12]
    st = read_text(cut2)
    assert st.truncated and "PL/SQL lock timer" not in st.events and st.events["cursor: pin S wait on X"].count == 3


def test_interleaved_sessions_are_flagged(tmp_path):
    a = REAL.read_text().splitlines()
    b = (FIX / "js122a1_ora_9850.head.trc").read_text().splitlines()
    mixed = []
    for i in range(max(len(a), len(b))):
        if i < len(b):
            mixed.append(b[i])
        if i < len(a):
            mixed.append(a[i])
    p = tmp_path / "mixed.trc"
    p.write_text("\n".join(mixed) + "\n")
    r = run("--format", "json", str(p))
    assert r.exit_code == 0 and "Traceback" not in r.output
    doc = json.loads(r.output)
    assert doc["partial"] is True
    msgs = " ".join(i["message"] for i in doc["issues"])
    assert "2 sessions" in msgs and "tim went backwards" in msgs
    text = run(str(p)).output
    assert "partial profile" in text


def test_centisecond_trace_of_oracle_8i():
    trace = ("Oracle8i Enterprise Edition Release 8.1.7.4.0 - Production\n"
             "PARSING IN CURSOR #1 len=18 dep=0 uid=5 oct=3 lid=5 tim=1000 hv=77 ad='0'\nselect 1 from dual\nEND OF STMT\n"
             "PARSE #1:c=1,e=2,p=0,cr=0,cu=0,mis=1,r=0,dep=0,og=4,tim=1002\n"
             "WAIT #1: nam='db file sequential read' ela= 3 p1=1 p2=2 p3=1\n"
             "EXEC #1:c=1,e=4,p=1,cr=1,cu=0,mis=0,r=0,dep=0,og=4,tim=1006\n")
    st = read_text(trace)
    assert st.time_factor == 10_000 and "centiseconds" in st.time_unit_basis
    assert st.events["db file sequential read"].total_us == 30_000
    assert st.calls["EXEC"].e_us == 40_000 and st.wall_us == 60_000
    assert st.statements["hv 77"].text == "select 1 from dual"
    # the same lines read as microseconds when told so
    assert read_text(trace, time_unit="us").events["db file sequential read"].total_us == 3


def test_between_call_waits_and_recursion_rule():
    """A parent's e includes its recursive children's: CPU counts dep=0 only; a wait that ended before the
    call began is between calls."""
    trace = ("Oracle Database 19c Enterprise Edition Release 19.0.0.0.0 - Production\n"
             "WAIT #1: nam='SQL*Net message from client' ela= 1000 p1=0 p2=0 p3=0 obj#=-1 tim=2000\n"
             "WAIT #2: nam='db file sequential read' ela= 100 file#=1 block#=2 blocks=1 obj#=1 tim=2300\n"
             "EXEC #2:c=50,e=200,p=1,cr=1,cu=0,mis=0,r=1,dep=1,og=4,plh=0,tim=2350\n"
             "EXEC #1:c=120,e=500,p=1,cr=1,cu=0,mis=0,r=1,dep=0,og=1,plh=0,tim=2500\n")
    st = read_text(trace)
    assert st.calls["EXEC"].c_us == 120 and st.recursive_calls["EXEC"].c_us == 50
    assert st.between_us == 1000 and st.inside_us == 100
    assert st.wall_us == 1500 and not st.orphan_calls
