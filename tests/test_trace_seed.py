"""Seed 002's shape of profile from a constructed trace (tests/fixtures/trace/truncate_lww.trc): a batch that
inserts, commits and truncates its working table four times. Every expected percentage is computed here
from the fixture's own lines, independently of awrscope's reader."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from awrscope.trace import analyze_trace

FIX = Path(__file__).parent / "fixtures" / "trace" / "truncate_lww.trc"


def _raw():
    waits: dict[str, int] = {}
    cpu: dict[str, int] = {}
    tims, starts = [], []
    for line in FIX.read_text().splitlines():
        m = re.match(r"WAIT #\d+: nam='([^']+)' ela= (\d+) .* tim=(\d+)", line)
        if m:
            waits[m[1]] = waits.get(m[1], 0) + int(m[2])
            tims.append(int(m[3]))
            starts.append(int(m[3]) - int(m[2]))
        m = re.match(r"(PARSE|EXEC) #\d+:c=(\d+),e=(\d+),.*dep=0,.*tim=(\d+)", line)
        if m:
            cpu[m[1]] = cpu.get(m[1], 0) + int(m[2])
            tims.append(int(m[4]))
            starts.append(int(m[4]) - int(m[3]))
    r = max(tims) - min(starts)
    return waits, cpu, r


def test_seed_002_shape():
    waits, cpu, r = _raw()
    doc = analyze_trace(str(FIX))
    prof = {p["component"]: p for p in doc["profile"]}
    assert doc["interval"]["response_time_s"] == pytest.approx(r / 1e6)
    for ev, us in waits.items():
        assert prof[ev]["pct"] == pytest.approx(100 * us / r, abs=0.001)
    assert prof["EXEC calls [CPU]"]["pct"] == pytest.approx(100 * cpu["EXEC"] / r, abs=0.001)
    assert prof["PARSE calls [CPU]"]["pct"] == pytest.approx(100 * cpu["PARSE"] / r, abs=0.001)
    unacc = r - sum(waits.values()) - sum(cpu.values())
    assert prof["unaccounted-for time"]["pct"] == pytest.approx(100 * unacc / r, abs=0.001)
    # the seed's order: local write wait, unaccounted-for time, EXEC CPU, db file sequential read, enq: RO
    assert [p["component"] for p in doc["profile"][:5]] == [
        "local write wait", "unaccounted-for time", "EXEC calls [CPU]", "db file sequential read",
        "enq: RO - fast object reuse"]
    # and the seed's numbers, which this fixture was built to have: 19.9 %, 19.0 %, 17.9 %, 13.1 %, 11.2 %, PARSE 5.6 %
    assert [round(p["pct"], 1) for p in doc["profile"][:5]] == [19.9, 19.0, 17.9, 13.1, 11.2]
    assert round(prof["PARSE calls [CPU]"]["pct"], 1) == 5.6
    lww_ro = waits["local write wait"] + waits["enq: RO - fast object reuse"]
    assert round(100 * lww_ro / r) == 31  # "account for 31% of the total response time"


def test_truncate_statement_profile_and_findings():
    doc = analyze_trace(str(FIX))
    tr = next(s for s in doc["statements"] if s["oct"] == 85)
    assert tr["command"] == "TRUNCATE TABLE" and tr["executions"] == 4 and tr["text"] == "TRUNCATE TABLE lwr11"
    sp = {p["component"]: p for p in tr["profile"]}
    elapsed = 4 * 940000 + 4 * 71000  # the EXEC and PARSE lines of cursor #9
    assert tr["elapsed_s"] == pytest.approx(elapsed / 1e6)
    assert sp["local write wait"]["pct"] == pytest.approx(100 * 4 * 497500 / elapsed, abs=0.001)
    assert sp["enq: RO - fast object reuse"]["pct"] == pytest.approx(100 * 4 * 280000 / elapsed, abs=0.001)
    f = {x["id"]: x for x in doc["findings"]}
    assert f["T02"]["impact"]["pct_response_time"] == pytest.approx(31.1) and f["T02"]["severity"] == "critical"
    lines = [s["line"] for e in f["T02"]["evidence"] for s in e["source"]]
    assert 30 in lines  # the first local write wait line of the fixture
    assert f["T01"]["evidence"][2]["value"] == 4  # XCTEND rd_only=0 lines
    assert f["T01"]["evidence"][3]["value"] == pytest.approx(182.5)  # ms of log file sync per commit
    assert f["T04"]["impact"]["pct_response_time"] == pytest.approx(19.0)
    # T04 is judged against the time in calls: R less the four 150 ms client gaps between statements
    assert f["T04"]["impact"]["base_s"] == pytest.approx(10.0 - 4 * 0.150)
    assert f["T04"]["impact"]["pct_base"] == pytest.approx(100 * 1.9 / 9.4, abs=0.001)
    # histogram of local write wait: 200, 150, 80, 50 ms fall in 10-100 ms / 0.1-1 s; 17.5 ms in 10-100 ms
    h = next(x for x in doc["histograms"] if x["event"] == "local write wait")
    assert {b["label"]: b["count"] for b in h["buckets"] if b["count"]} == {"10-100ms": 12, "0.1-1s": 8}
    assert (h["min_s"], h["max_s"], h["count"]) == (0.0175, 0.2, 20)
