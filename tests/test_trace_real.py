"""Real 10046 traces from public repositories (tests/fixtures/trace/manifest.tsv), their profiles checked
against sums made by hand from the raw lines (each number below was added up from the file's WAIT and
call lines, not computed by awrscope)."""
from __future__ import annotations

from pathlib import Path

import pytest

from awrscope.trace import analyze_trace, read_trace

FIX = Path(__file__).parent / "fixtures" / "trace"


def _prof(doc: dict) -> dict:
    return {p["component"]: p for p in doc["profile"]}


def test_manifest_names_every_fixture_with_its_source():
    rows = [ln.split("\t") for ln in (FIX / "manifest.tsv").read_text().splitlines()[1:]]
    assert {r[0] for r in rows} == {p.name for p in FIX.glob("*.trc")}
    for r in rows:
        assert len(r) == 6 and (r[1] == "(constructed)" or (len(r[3]) == 40 and "/" in r[1]))


def test_js122a1_ora_9854_by_hand():
    """jkstill/trace-combine trace/js122a1_ora_9854.trc (12.2.0.1): a PL/SQL block that loops 10 times
    over two counts and dbms_lock.sleep(.5)."""
    st = read_trace(str(FIX / "js122a1_ora_9854.trc"))
    ev = st.events
    # PL/SQL lock timer, lines 216..287: 499181+499336+498853+499748+499359+500087+499212+499247+499829+499007
    assert ev["PL/SQL lock timer"].count == 10 and ev["PL/SQL lock timer"].total_us == 4_993_859
    assert ev["cursor: pin S wait on X"].count == 3 and ev["cursor: pin S wait on X"].total_us == 262717 + 68182 + 7044
    assert ev["SQL*Net message from client"].count == 2 and ev["SQL*Net message from client"].total_us == 1816 + 617
    assert ev["gc current block 2-way"].total_us == 830 + 431
    assert ev["Disk file operations I/O"].total_us == 133 + 422
    assert ev["PGA memory operation"].count == 3 and ev["PGA memory operation"].total_us == 12 + 8 + 4
    assert ev["db file sequential read"].count == 1 and ev["db file sequential read"].max_line == 80
    # dep=0 calls: CLOSE x2 (e=4, e=15), PARSE x2 (PL/SQL block c=4881, alter session c=0), EXEC x2 (c=23944, c=1033)
    assert {k: v.count for k, v in st.calls.items()} == {"CLOSE": 2, "PARSE": 2, "EXEC": 2}
    assert st.calls["EXEC"].c_us == 23944 + 1033 and st.calls["PARSE"].c_us == 4881
    assert st.calls["EXEC"].e_us == 5134386 + 615
    # R: first WAIT ends at tim=664028734818 after ela=1; last line EXEC tim=664034235819
    assert st.wall_us == 664034235819 - (664028734818 - 1)
    # SELECT COUNT(*) EMP_COUNT: 10 EXEC lines on cursor #140176600439648 (once before the first sleep, then 9)
    assert st.statements["sqlid 4xn8755d4fd5z"].executions == 10
    assert st.statements["sqlid 9x825n14bw9r9"].oct == 47 and "dbms_lock.sleep(.5)" in st.statements["sqlid 9x825n14bw9r9"].text
    doc = analyze_trace(str(FIX / "js122a1_ora_9854.trc"))
    p = _prof(doc)
    assert p["PL/SQL lock timer"]["pct"] == pytest.approx(100 * 4_993_859 / 5_501_002, abs=0.001)
    assert doc["profile"][0]["component"] == "PL/SQL lock timer"
    assert doc["session"]["session_ids"] == ["450.21030"] and doc["issues"] == []


def test_trunc_test_fragment_by_hand():
    """jkstill/oracle-trace trace-from-shell/trace/cdb1_ora_5390_TRUNC-TEST.trc (19c): a fragment without the
    file header, tracing switched on in the middle of a session."""
    st = read_trace(str(FIX / "cdb1_ora_5390_TRUNC-TEST.trc"))
    ev = st.events
    snmfc = 576453 + 527911 + 500975 + 500863 + 500792 + 500699 + 404117 + 356
    assert ev["SQL*Net message from client"].count == 8 and ev["SQL*Net message from client"].total_us == snmfc
    assert ev["SQL*Net message to client"].count == 7 and ev["SQL*Net message to client"].total_us == 2 + 1 + 1 + 1 + 2 + 0 + 1
    assert ev["log file sync"].count == 1 and ev["log file sync"].total_us == 3833
    assert ev["reliable message"].count == 3 and ev["reliable message"].total_us == 626 + 416 + 254
    assert ev["DLM cross inst call completion"].count == 4 and ev["DLM cross inst call completion"].total_us == 4 + 406 + 15 + 245
    assert ev["PGA memory operation"].total_us == 30 + 87
    assert {k: v.count for k, v in st.calls.items()} == {"EXEC": 6, "FETCH": 6, "CLOSE": 6}
    assert st.calls["EXEC"].c_us == 0 + 27 + 20 + 22 + 22 + 23
    assert st.calls["FETCH"].c_us == 54 + 41 + 43 + 41 + 54 + 44
    assert st.calls["CLOSE"].c_us == 17 + 1 + 1 + 1 + 1 + 0
    assert (st.commits, st.readonly_ends, st.rollbacks) == (0, 1, 0)  # XCTEND rlbk=0, rd_only=1
    assert st.wall_us == 1734876458969 - (1734873496325 - 576453)
    upd = st.statements["sqlid 718d4y9b3fqtz"]
    assert upd.executions == 1 and upd.calls["EXEC"].r == 10 and upd.text.startswith("update CRC$_RESULT_CACHE_STATS")
    doc = analyze_trace(str(FIX / "cdb1_ora_5390_TRUNC-TEST.trc"))
    assert "assumed" in doc["time_unit"]  # no version banner in a fragment
    assert _prof(doc)["SQL*Net message from client"]["between_calls_s"] == pytest.approx(snmfc / 1e6, abs=1e-6)


def test_js122a1_ora_9850_head_by_hand():
    """The first 88 lines of jkstill/trace-combine trace/js122a1_ora_9850.trc: recursive dictionary SQL whose
    dep=0 parent is past the cut."""
    st = read_trace(str(FIX / "js122a1_ora_9850.head.trc"))
    assert {k: (v.count, v.total_us) for k, v in st.events.items()} == {
        "SQL*Net message to client": (1, 1), "SQL*Net message from client": (1, 992), "PGA memory operation": (1, 11)}
    assert {k: v.count for k, v in st.calls.items()} == {"CLOSE": 1}
    assert {k: v.count for k, v in st.recursive_calls.items()} == {"PARSE": 1, "EXEC": 3, "FETCH": 3, "CLOSE": 3}
    assert st.recursive_calls["EXEC"].e_us == 187354 + 104 + 100
    assert st.wall_us == 664029042460 - (664028734122 - 1)
    # no dep=0 parent in the file: counted once as their own CPU line (c=233+4254 for user$, 0 for the dep=2 ones)
    assert sum(c.c_us for c in st.orphan_calls.values()) == 233 + 4254


def test_ledgers_of_the_real_traces_by_hand():
    """Client gaps of the real traces, classified by hand from the lines around each: none is a round trip."""
    # cdb1_ora_5390: a shell loop polls every 0.5 s: EXEC, FETCH, gap, EXEC... A gap before a new EXEC is
    # the client's choice of when to call again (lines 7, 13, 243, 249, 253), as are the first (line 3, before
    # any call), the gap before the CLOSE (259) and the one before XCTEND (391): 8 gaps of think time.
    doc = analyze_trace(str(FIX / "cdb1_ora_5390_TRUNC-TEST.trc"))
    led = doc["ledger"]
    snmfc = 576453 + 527911 + 500975 + 500863 + 500792 + 500699 + 404117 + 356
    r = 1734876458969 - (1734873496325 - 576453)
    assert (led["round_trips"], led["think_gaps"]) == (0, 8) and led["think_s"] == pytest.approx(snmfc / 1e6)
    assert led["in_calls_s"] == pytest.approx((r - snmfc) / 1e6) and led["response_excl_think_s"] == led["in_calls_s"]
    # js122a1_ora_9854: SQL*Plus's two gaps, each before a CLOSE (lines 26 and 290)
    doc = analyze_trace(str(FIX / "js122a1_ora_9854.trc"))
    led = doc["ledger"]
    assert (led["round_trips"], led["think_gaps"]) == (0, 2) and led["think_s"] == pytest.approx((1816 + 617) / 1e6)
    assert led["in_calls_s"] == pytest.approx((5_501_002 - 1816 - 617) / 1e6)
    inside = {x["name"]: x for x in led["leaves"] if x["where"] == "in_calls"}
    # the PL/SQL lock timer's share of the time in calls: dbms_lock.sleep is what the call did
    assert inside["PL/SQL lock timer"]["pct_in_calls"] == pytest.approx(100 * 4_993_859 / (5_501_002 - 2433), abs=0.001)


def test_statement_text_as_oracle_wrote_it_and_its_time_apart_from_the_clients():
    """Issue 41. js122a1_ora_9854.trc line 31: 'PARSING IN CURSOR #140176600459272 len=391 ...', then 23 lines of
    a PL/SQL block up to END OF STMT (line 55): 368 characters and 22 line breaks, 391 as len= says. The lines
    were glued ('i_jh_count pls_integer := 0;begin'). Its time in calls, from its own call lines: PARSE e=270564
    (line 56) + EXEC e=5134386 (line 288) + CLOSE e=15 (line 291) = 5,404,965 us; then between its calls the
    client's SQL*Net message to client ela= 1 (line 289) and from client ela= 617 (line 290): 618 us, shown
    apart and not in the statement's shares (PL/SQL lock timer: 4,993,859 of 5,404,965 us = 92.39 %)."""
    from awrscope.trace.html import render_html
    from awrscope.trace.render import render_markdown, render_text

    lines = (FIX / "js122a1_ora_9854.trc").read_text().split("\n")
    assert lines[30].startswith("PARSING IN CURSOR #140176600459272 len=391") and lines[54] == "END OF STMT"
    block = "\n".join(lines[31:54])
    assert len(block) == 391
    doc = analyze_trace(str(FIX / "js122a1_ora_9854.trc"))
    st = next(s for s in doc["statements"] if s["key"] == "sqlid 9x825n14bw9r9")
    assert st["text"] == block and "pls_integer := 0;\n\nbegin\n" in st["text"]
    assert st["elapsed_s"] == pytest.approx(5.404965) and st["between_calls_s"] == pytest.approx(0.000618)
    p = {x["component"]: x for x in st["profile"]}
    assert p["PL/SQL lock timer"]["pct"] == pytest.approx(100 * 4_993_859 / 5_404_965, abs=0.001)
    assert p["SQL*Net message from client (between calls)"]["pct"] is None
    want = "5.4050s in calls (1 executions); then 0.0006s between calls"
    text = render_text(doc)
    assert want in text and "0;begin" not in text and "pls_integer := 0; begin" in text
    assert want in render_markdown(doc) and want in render_html(doc)
    assert doc["statements"][0]["key"] == "sqlid 9x825n14bw9r9"  # the most time in calls first
