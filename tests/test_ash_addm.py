"""ASH (ashrpt, text and HTML) and ADDM (addmrpt, text) reports parsed into the typed model.

Every corpus ASH and ADDM report parses; spot values are read by hand from the report lines
cited beside them (line numbers are the file's own, 1-based)."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from click.testing import CliRunner
from conftest import CORPUS, parse_path

from awrscope.cli import main
from awrscope.errors import NotAReportError, UnsupportedReportError
from awrscope.parsers import parse_text
from awrscope.parsers.addm import NO_FINDINGS
from awrscope.parsers.ash import DB_TIME_NOTE

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "src/awrscope/schema/parse.schema.json").read_text())
FILES = sorted(p.name for p in CORPUS.glob("*") if p.name.startswith(("ash_", "addm_"))) if CORPUS.is_dir() else []
ASH_SECTIONS = ("top_events", "ash_top_bg_events", "ash_top_sql", "ash_top_sessions", "ash_top_modules",
                "ash_activity_over_time", "ash_activity_events", "ash_top_objects", "ash_top_blockers")


def rows(report, key):
    return list(report.sections[key].rows)


@pytest.mark.parametrize("name", FILES)
def test_every_ash_and_addm_report_parses(corpus, name):
    r = parse_path(corpus / name)
    kind = "ash" if name.startswith("ash_") else "addm"
    assert r.kind == kind and r.format == ("html" if name.endswith(".html") else "text")
    assert r.elapsed_s and r.elapsed_s > 0
    assert r.header.db_name and r.header.dbid and r.header.version
    assert not [i for i in r.issues if i.level == "error"]
    assert not [i.message for i in r.issues if "could not be read (" in i.message]
    for sec in r.sections.values():
        assert all(row.line > 0 for row in sec.rows) and len({row.line for row in sec.rows}) == len(sec.rows)
    if kind == "ash":
        assert rows(r, "top_events")
        assert set(r.sections) <= set(ASH_SECTIONS)
        assert r.header.begin.snap_id is None and r.header.begin.time < r.header.end.time
        assert r.db_time_s and any(i.level == "info" and i.message == DB_TIME_NOTE for i in r.issues)


def test_ash_text_10204_by_hand(corpus):
    r = parse_path(corpus / "ash_txt_10204_ramlaxman12_dclej1.txt")
    h = r.header
    # line 5: DCLEJ1  2300526434 dclej1  1 10.2.0.4.0  NO  db-dclej1-b- ; line 9: 24 CPUs
    assert (h.db_name, h.dbid, h.version, h.rac, h.host, h.cpus) == \
        ("DCLEJ1", 2300526434, "10.2.0.4.0", False, "db-dclej1-b-", 24)
    assert [(i.name, i.number) for i in h.instances] == [("dclej1", 1)]
    # lines 12-14: 16-Dec-10 08:55:00 to 09:05:00, Elapsed Time 10.0 (mins)
    assert (h.begin.time.isoformat(), h.end.time.isoformat()) == ("2010-12-16T08:55:00", "2010-12-16T09:05:00")
    assert r.elapsed_s == 600.0 and h.elapsed_line == 14
    # line 16: Average Active Sessions 146.33
    assert r.db_time_s == pytest.approx(146.33 * 600) and h.db_time_line == 16
    # line 25: db file sequential read  User I/O  52.98  77.53 (10.2 prints '% Activity')
    first = rows(r, "top_events")[0]
    assert (first.name, first.line, first.text["wait_class"]) == ("db file sequential read", 25, "User I/O")
    assert first.values["pct_db_time"] == 52.98 and first.values["aas"] == 77.53
    from awrscope.metrics import derive  # an event's seconds: its share of the sampled DB time
    assert derive(r).fg("db file sequential read").time_s == pytest.approx(0.5298 * 146.33 * 600)
    cpu = r.sections["top_events"].row("CPU + Wait for CPU")  # line 27: 5.17 %
    assert cpu.line == 27 and cpu.values["pct_db_time"] == 5.17
    assert [(x.name, x.line, x.values["pct_db_time"]) for x in rows(r, "ash_top_bg_events")] == \
        [("db file parallel write", 37, 2.04)]  # line 37
    # lines 117-121: 10.2 'Top SQL Statements', SQL text wrapped at 80 columns under the figures
    sql = rows(r, "ash_top_sql")
    assert [s.name for s in sql] == ["80jbrkxpk6hrq", "8b8d3ns7vh95u", "38fz16drpvh84", "2mjbak1yzyvf2"]
    assert (sql[0].line, sql[0].values["pct_activity"], sql[0].values["pct_event"]) == (117, 9.08, 9.00)
    assert sql[0].text["event"] == "db file sequential read" and sql[0].text["plan_hash"] == "2832736553"
    assert sql[0].text["sql_text"].startswith("select acwobjectm0_.acw_object_measurement_id as acw1_2_, "
                                              "acwobjectm0_.hash_value as hash2_2_")
    # lines 67-71: the service is printed once (SYS$USERS) for the five modules under it
    mods = rows(r, "ash_top_modules")
    assert [(m.name, m.text["service"], m.values["pct_activity"]) for m in mods[:2]] == \
        [("FCAutoCheckWeightService", "SYS$USERS", 15.55), ("FCShipmentCompletionServ", "SYS$USERS", 8.94)]
    assert len(mods) == 5
    # lines 273-278: two 5-minute slots of three events each
    slots = rows(r, "ash_activity_over_time")
    assert [(s.name, s.line) for s in slots] == [("08:55:00", 273), ("09:00:00", 276)]
    assert slots[0].values["slot_count"] == 3770 and slots[0].values["event_count"] == 2198
    assert slots[0].text["events"] == "db file sequential read; log file sync; CPU + Wait for CPU"
    assert slots[0].values["duration_s"] == 300
    assert sum(s.values["slot_count"] for s in slots) == 8780  # 3,770 + 5,010 = the header's Sample Count
    assert "ash_top_sessions" not in r.sections  # line 188: 'No data exists for this section of the report.'
    assert not [i for i in r.issues if i.level == "warning"]


def test_ash_text_11107_by_hand(corpus):
    r = parse_path(corpus / "ash_txt_11107_ramlaxman12_invods_0710.txt")
    # line 14: Elapsed Time 45.0 (mins); line 20: Average Active Sessions 127.51
    assert r.elapsed_s == 2700.0 and r.db_time_s == pytest.approx(127.51 * 2700)
    # line 29: log file sync  Commit  32.03  40.84 (11.1 prints '% Event')
    first = rows(r, "top_events")[0]
    assert (first.name, first.line, first.values["pct_db_time"], first.values["aas"]) == \
        ("log file sync", 29, 32.03, 40.84)
    # lines 131-132: two header levels: SQL ID / Planhash / Sampled # of Executions / % Activity,
    # then Event / % Event / Top Row Source / % RwSrc
    sql = rows(r, "ash_top_sql")
    assert (sql[0].name, sql[0].line, sql[0].values["pct_activity"], sql[0].values["executions"]) == \
        ("1spp8dun0puqx", 131, 6.95, 2391)
    assert (sql[0].text["event"], sql[0].values["pct_event"]) == ("db file sequential read", 6.64)
    # line 139: the statement's top event; 'latch: cache buffers chains' (line 146) comes after it, a row of its own
    assert (sql[1].name, sql[1].text["event"], sql[1].values["pct_event"]) == \
        ("0gbkss2vptqhq", "CPU + Wait for CPU", 4.39)
    assert (sql[2].name, sql[2].text["event"], sql[2].values) == \
        ("0gbkss2vptqhq", "latch: cache buffers chains", {"pct_event": 1.14})
    assert len(sql) == 7 and len([s for s in sql if "pct_activity" in s.values]) == 5
    # line 72: 'DWP SQL*Exec' with its first action; line 73 is a second action, not a module
    mods = rows(r, "ash_top_modules")
    assert [m.name for m in mods][-1] == "DWP SQL*Exec" and mods[-1].text["action"] == "JR=96930080: yn Co"
    # lines 371-397: nine 5-minute slots, 07:10 to 07:50
    slots = rows(r, "ash_activity_over_time")
    assert len(slots) == 9 and slots[0].name == "07:10:00" and slots[-1].name == "07:50:00"
    assert slots[0].text["event"] == "CPU + Wait for CPU"  # line 371


def test_ash_text_11203_by_hand(corpus):
    r = parse_path(corpus / "ash_txt_11203_antognini_top2_1845_1900.txt")
    # line 15: Elapsed Time 15.0 (mins); line 19: Average Active Sessions 7.17; line 18: Sample Count 6,453
    assert r.elapsed_s == 900.0 and r.db_time_s == pytest.approx(7.17 * 900)
    # line 28: db file sequential read  User I/O  69.19  4.96
    first = rows(r, "top_events")[0]
    assert (first.name, first.line, first.values["pct_db_time"], first.values["aas"]) == \
        ("db file sequential read", 28, 69.19, 4.96)
    assert [e.name for e in rows(r, "top_events")] == ["db file sequential read", "CPU + Wait for CPU", "log file sync"]
    # lines 100-104: 82ud5h0qcg0bf 4238351645 1842 28.59 / db file sequential read 28.14 ... / SQL text
    sql = rows(r, "ash_top_sql")
    assert (sql[0].name, sql[0].line, sql[0].values["pct_activity"], sql[0].values["executions"]) == \
        ("82ud5h0qcg0bf", 100, 28.59, 1842)
    assert sql[0].text["top_row_source"] == "TABLE ACCESS - BY INDEX ROWID"
    assert sql[0].text["sql_text"].endswith("from customers where customer_id = :1")  # ':' line 103, '1' line 104
    assert "plan_hash" not in sql[2].text  # line 113: Planhash N/A
    # lines 229-230: '160,   47' 4.35 db file sequential read 2.99 / SOE  JDBC Thin Client
    ses = rows(r, "ash_top_sessions")
    assert (ses[0].name, ses[0].line, ses[0].values["pct_activity"]) == ("160, 47", 229, 4.35)
    assert (ses[0].text["user"], ses[0].text["program"], ses[0].text["event"]) == \
        ("SOE", "JDBC Thin Client", "db file sequential read")
    assert [s.line for s in ses] == [229, 235, 241, 244, 250]  # further events (line 232) are no sessions
    # lines 334-357: eight slots; the first lasts 1 minute, the others 2
    slots = rows(r, "ash_activity_over_time")
    assert len(slots) == 8 and [s.values["duration_s"] for s in slots[:2]] == [60, 120]
    assert (slots[1].name, slots[1].line, slots[1].values["slot_count"]) == ("18:46:00", 337, 1111)
    assert rows(r, "ash_top_modules")[0].text["service"] == "DBM11203.antog"  # line 56: cut at its column
    assert "ash_top_bg_events" not in r.sections  # line 35: no data


def test_ash_html_11203_by_hand(corpus):
    r = parse_path(corpus / "ash_html_11203_antognini_top2_1845_1900.html")
    h = r.header
    # line 41: DBM11203 2532911053 DBM11203 1 11.2.0.3.0 NO helicon; line 47: 8 CPUs
    assert (h.db_name, h.dbid, h.version, h.host, h.cpus) == ("DBM11203", 2532911053, "11.2.0.3.0", "helicon", 8)
    # lines 53-57: 18:45:00 to 19:00:00, Elapsed Time 15.0 (mins), Average Active Sessions 7.29
    assert r.elapsed_s == 900.0 and r.db_time_s == pytest.approx(7.29 * 900)
    assert (h.begin.line, h.end.line, h.elapsed_line, h.db_time_line) == (53, 54, 55, 57)
    # line 93: db file sequential read | User I/O | 67.23 | 4.90
    first = rows(r, "top_events")[0]
    assert (first.name, first.line, first.values["pct_db_time"], first.values["aas"]) == \
        ("db file sequential read", 93, 67.23, 4.90)
    assert rows(r, "top_events")[1].name == "CPU + Wait for CPU"  # line 94
    # lines 190-192: 82ud5h0qcg0bf 4238351645 187 28.51 db file sequential read 28.51 ...
    sql = rows(r, "ash_top_sql")
    assert (sql[0].name, sql[0].line, sql[0].values["pct_activity"], sql[0].values["executions"]) == \
        ("82ud5h0qcg0bf", 190, 28.51, 187)
    # the table cuts the text ('select customer_id, cust_first...'); line 265 prints it whole
    assert sql[0].text["sql_text"].startswith("select customer_id, cust_first_name , cust_last_name")
    assert len(sql) == 5
    # lines 319-336: five sessions, each continued by a row of hidden repeats (the next event)
    ses = rows(r, "ash_top_sessions")
    assert [(s.name, s.line) for s in ses] == [("70, 3", 319), ("71, 61", 323), ("129, 5", 327),
                                               ("161, 35", 331), ("39, 73", 335)]
    assert ses[0].values["pct_activity"] == 5.03 and ses[0].text["event"] == "db file sequential read"
    # lines 422-430: three 5-minute slots of three event rows each
    slots = rows(r, "ash_activity_over_time")
    assert [(s.name, s.line, s.values["slot_count"]) for s in slots] == \
        [("18:45:00", 422, 248), ("18:50:00", 425, 221), ("18:55:00", 428, 187)]
    assert slots[1].text["events"] == "db file sequential read; CPU + Wait for CPU; db file parallel write"


def test_ash_html_19c_by_hand(corpus):
    r = parse_path(corpus / "ash_html_19c_lucky29011_dvk.html")  # 'Summary of All User Input' before <html>
    # line 72: Elapsed Time 2,994.4 (mins); line 74: Average Active Sessions 0.02
    assert r.elapsed_s == pytest.approx(2994.4 * 60) and r.db_time_s == pytest.approx(0.02 * 2994.4 * 60)
    assert [(e.name, e.line, e.values["pct_db_time"]) for e in rows(r, "top_events")] == \
        [("CPU + Wait for CPU", 110, 1.31)]  # line 110
    assert rows(r, "ash_top_bg_events")[1].name == "log file parallel write"  # line 120: 11.11 %
    # lines 174-179: MMON_SLAVE's second action (line 177, hidden repeats) is no module; KTSJ (line 178) is
    assert [m.name for m in rows(r, "ash_top_modules")] == \
        ["UNNAMED", "DBMS_SCHEDULER", "MMON_SLAVE", "KTSJ", "sqlplus@oemstar.com (TNS V1-V3)"]
    slots = rows(r, "ash_activity_over_time")  # lines 549-559: four slots, 2 + 212 + 59 + 33 = 306 samples
    assert [s.values["slot_count"] for s in slots] == [2, 212, 59, 33]


def test_addm_no_findings(corpus):
    r = parse_path(corpus / "addm_txt_19c_lucky29011_dvk.txt")
    h = r.header
    assert r.kind == "addm" and r.format == "text" and r.version == "19.0.0.0.0"  # line 16
    assert (h.db_name, h.dbid) == ("DVK", 2742271753)  # line 15
    assert [(i.name, i.number, i.host) for i in h.instances] == [("DVK", 1, "oemstar.com")]  # lines 17-18
    # lines 9-11: snapshots 5 to 7, 20-OCT-24 07.51.14 PM to 09.48.54 PM (a 12-hour clock)
    assert (h.begin.snap_id, h.end.snap_id) == (5, 7)
    assert (h.begin.time.isoformat(), h.end.time.isoformat()) == ("2024-10-20T19:51:14", "2024-10-20T21:48:54")
    assert r.elapsed_s == 7060.0 and r.db_time_s == 14.0  # line 22: 14 seconds
    assert "addm_findings" not in r.sections
    assert [(i.level, i.line, i.message) for i in r.issues] == [("info", 29, NO_FINDINGS)]


ADDM_11G = """\
          ADDM Report for Task 'TASK_4460'
          --------------------------------

Analysis Period
---------------
AWR snapshot range from 1066 to 1067.
Time period starts at 25-OCT-11 11.00.25 AM
Time period ends at 25-OCT-11 12.00.40 PM

Analysis Target
---------------
Database 'ORCL' with DB ID 1299384543.
Database version 11.2.0.3.0.
ADDM performed an analysis of instance orcl, numbered 1 and hosted at
db01.example.com.

Activity During the Analysis Period
-----------------------------------
Total database time was 3960 seconds.
The average number of active sessions was 1.1.

          Findings and Recommendations
          ----------------------------

Finding 1: Top SQL Statements
Impact is .33 active sessions, 30.1% of total activity.
-------------------------------------------------------
SQL statements consuming significant database time were found.

Finding 2: Commits and Rollbacks
Impact is .22 active sessions, 20.05% of total activity.
--------------------------------------------------------
Waits on event "log file sync" were consuming significant database time.

End of Report
"""


def test_addm_findings_in_the_fields_of_the_awr_embedded_table():
    r = parse_text(ADDM_11G, "addm.txt")
    assert (r.elapsed_s, r.db_time_s) == (3615.0, 3960.0)  # 11.00.25 AM to 12.00.40 PM
    fs = rows(r, "addm_findings")
    assert [(f.name, f.line, f.values["pct_active_sessions"]) for f in fs] == \
        [("Top SQL Statements", 25, 30.1), ("Commits and Rollbacks", 30, 20.05)]
    assert fs[0].values["aas"] == pytest.approx(3960 / 3615)  # the task's: aas x pct / 100 is the finding's
    assert fs[0].text == {"task_name": "TASK_4460", "begin": "25-Oct-11 11:00", "end": "25-Oct-11 12:00"}
    from awrscope.rules.addm import beside

    assert [a["window"] for a in beside(r, [])] == ["same", "same"]  # the task's window is the report's


def test_addm_10g_layout():
    text = ("DETAILED ADDM REPORT FOR TASK 'TASK_5154' WITH ID 5154\n-----\n\n"
            "Analysis Period: 20-MAR-2010 from 08:01:06 to 22:00:07\nDatabase ID/Instance: 1998456309/1\n"
            "Database/Instance Names: TEST/test\nHost Name: 4TEST\nDatabase Version: 10.2.0.1.0\n"
            "Snapshot Range: from 2821 to 2835\nDatabase Time: 637 seconds\n\n"
            "FINDING 1: 100% impact (637 seconds)\n------------------------------------\n"
            "The host operating system has detected intensive virtual memory swapping.\n\nEnd of Report\n")
    r = parse_text(text, "addm10.txt")
    assert (r.header.db_name, r.header.dbid, r.version, r.header.host) == ("TEST", 1998456309, "10.2.0.1.0", "4TEST")
    assert (r.header.begin.snap_id, r.elapsed_s, r.db_time_s) == (2821, 50341.0, 637.0)
    f = rows(r, "addm_findings")[0]
    assert f.name.startswith("The host operating system") and f.values["pct_active_sessions"] == 100.0


@pytest.mark.parametrize("name", ["ash_txt_11203_antognini_top2_1845_1900.txt",
                                  "ash_html_11203_antognini_top2_1845_1900.html", "addm_txt_19c_lucky29011_dvk.txt"])
def test_truncated_or_garbled_is_partial_or_refused_never_a_traceback(corpus, name):
    text = (corpus / name).read_text(encoding="utf-8", errors="replace")
    for cut in range(60, text.rfind("End of Report"), max(1, len(text) // 25)):
        try:
            r = parse_text(text[:cut], name)
        except NotAReportError as e:
            assert name in str(e)
            continue
        # a cut report says it is partial; an ADDM report cut inside its last section (its findings whole) says
        # that it ends there, as addmrpt.sql's spools do
        assert any(i.level == "warning" for i in r.issues) or \
            any("after its last section" in i.message for i in r.issues)
    lines = text.splitlines(True)
    garbled = "".join(line[::-1] if k % 3 == 0 else line for k, line in enumerate(lines))
    try:
        parse_text(garbled, name)
    except NotAReportError:
        pass
    with pytest.raises(NotAReportError, match="ADDM"):
        parse_text("          ADDM Report for Task 'TASK_23'\n          ------\n", "x.txt")


def test_addm_html_is_refused_with_a_message():
    with pytest.raises(UnsupportedReportError, match="ADDM report in HTML"):
        parse_text("<html><head><title>ADDM Report for Task 'TASK_1'</title></head><body></body></html>", "a.html")


def test_cli_parse_json_validates(corpus):
    runner = CliRunner()
    for name in FILES:
        res = runner.invoke(main, ["parse", "--format", "json", str(corpus / name)])
        assert res.exit_code == 0, (name, res.output[-500:])
        doc = json.loads(res.stdout)
        jsonschema.validate(doc, SCHEMA)
        assert doc["report"]["kind"] == ("ash" if name.startswith("ash_") else "addm")


def test_ash_activity_over_time_as_sessions_by_class(corpus):
    """Issue 17: the ASH report's activity over time. Antognini ASH 18:45-19:00 (text, lines 334-336):
    slot 18:45:00 (1.0 min), 526 samples: db file sequential read 392, CPU + Wait for CPU 108, log file sync
    15. All slots hold 6,453 samples = the report's DB time estimate (6,453 s): a sample is a second, so the
    slot's AAS is 526 / 60 = 8.7667; its parts 392/60 User I/O, 108/60 CPU, 15/60 Commit, 11/60 the rest."""
    from awrscope.analysis import analyze
    from awrscope.metrics.activity import REST

    doc = analyze(parse_path(corpus / "ash_txt_11203_antognini_top2_1845_1900.txt"))
    first = doc["ash_activity"][0]
    assert (first["begin"], first["end"], first["samples"], first["line"]) == (
        "2014-04-23 18:45:00", "2014-04-23 18:46:00", 526, 334)
    assert first["aas"] == round(526 / 60, 4) == 8.7667
    assert first["parts"] == {"User I/O": round(392 / 60, 4), "CPU": 1.8, "Commit": 0.25, REST: round(11 / 60, 4)}
    from datetime import datetime

    seconds = sum(a["aas"] * (datetime.fromisoformat(a["end"]) - datetime.fromisoformat(a["begin"])).total_seconds()
                  for a in doc["ash_activity"])
    assert abs(seconds - doc["report"]["db_time_s"]) < 1  # the slots add up to the report's DB time


def test_ash_activity_dates_roll_over_midnight(corpus):
    """ash_html_19c_lucky29011_dvk: analysis 18-Oct-24 20:13:55 to 20-Oct-24 22:08:21; slots 20:13:55 (226.1 min),
    then 15:00:00 (300.0 min): a time that goes backwards is the next day."""
    from awrscope.analysis import analyze

    act = analyze(parse_path(corpus / "ash_html_19c_lucky29011_dvk.html"))["ash_activity"]
    assert act[0]["begin"] == "2024-10-18 20:13:55" and act[1]["begin"] == "2024-10-19 15:00:00"
    assert act[-1]["end"] <= "2024-10-20 22:08:21" and all(a["begin"] < b["begin"] for a, b in zip(act, act[1:]))


def test_ash_activity_chart_in_the_html_report(corpus, tmp_path):
    """The HTML page of an ASH report draws its Activity Over Time: one column per slot, CPU at the bottom."""
    import re

    out = tmp_path / "ash.html"
    res = CliRunner().invoke(main, ["analyze", str(corpus / "ash_txt_11203_antognini_top2_1845_1900.txt"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    page = out.read_text()
    chart = page[page.index('data-chart="activity"'):]
    chart = chart[:chart.index("</svg>")]
    slots = parse_path(corpus / "ash_txt_11203_antognini_top2_1845_1900.txt").sections["ash_activity_over_time"].rows
    assert len(set(re.findall(r'data-i="(\d+)"', chart))) == len(slots)
    assert re.findall(r'data-class="CPU" data-value="([0-9.]+)"', chart)[0] == "1.8"  # 108 samples / 60 s


def test_ash_reads_without_latency_are_not_called_fast(corpus):
    """An ASH report samples, it does not time: Top User Events line 29 prints db file sequential read at 69.19 %
    of activity, 4.96 active sessions, and no latency. G06 keeps the severity of its share (4.96 sessions >= 1.0:
    critical) and says the latency is unknown, instead of the 'fast reads' ceiling (moderate) it had."""
    from awrscope.analysis import analyze

    doc = analyze(parse_path(corpus / "ash_txt_11203_antognini_top2_1845_1900.txt"))
    g06 = next(f for f in doc["findings"] if f["id"] == "G06")
    assert g06["impact"]["pct_db_time"] == 69.19 and g06["severity"] == "critical"
    assert "fast" not in g06["title"] and any("no read latency" in c for c in g06["caveats"])


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="0123456789: \t\u0663x", max_size=10))
def test_activity_slot_clock_reads_what_strptime_reads(s):
    """The slot clock is read by a pattern, not datetime.strptime (which loads _strptime and calendar): the same
    times accepted and refused, Unicode digits and out-of-range fields included."""
    from datetime import datetime

    from awrscope.metrics.activity import slot_clock

    try:
        expected = datetime.strptime(s, "%H:%M:%S").time()
    except ValueError:
        expected = None
    assert slot_clock(s) == expected


_MONTH_PIECES = ["Jan", "jan", "FEB", "Dec", "Sept", "May", "xyz"]


@settings(max_examples=4000, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_MONTH_PIECES), st.text(alphabet="0123456789- :\u0663", max_size=4)),
                max_size=8).map("".join))
def test_addm_task_times_read_what_strptime_reads(s):
    """An ADDM task's begin and end ('15-Jul-15 14:00') are read by a pattern, not datetime.strptime (which loads
    _strptime, calendar and locale): the same times accepted, and refused but for a month in another language
    ('Sept', French: what a report in that language prints)."""
    import re
    from datetime import datetime

    from awrscope.rules.addm import task_time

    try:
        expected = datetime.strptime(" ".join(s.split()), "%d-%b-%y %H:%M")
    except ValueError:
        expected = None
    got = task_time(s)
    assert got == expected or (expected is None and re.search(r"-sept-", s, re.I))


def test_addm_task_times_as_the_reports_print_them():
    from datetime import datetime

    from awrscope.rules.addm import task_time

    assert task_time("15-Jul-15 14:00") == datetime(2015, 7, 15, 14, 0)
    assert task_time(" 1-jan-99   0:05 ") == datetime(1999, 1, 1, 0, 5)
    assert task_time("30-Feb-16 23:59") is None and task_time(None) is None


@pytest.mark.parametrize("name, first", [
    # text: '43487  15.54 db file sequential read  15.48' over 'SOE.CUSTOMERS (TABLE)  SOE' (lines 289-290)
    ("ash_txt_11203_antognini_top2_1845_1900.txt", ("SOE.CUSTOMERS (TABLE)", 289, "43487", 15.54, 15.48, "SOE")),
    # HTML: the row of object 43498 (line 379), its name and tablespace in the same row
    ("ash_html_11203_antognini_top2_1845_1900.html", ("SOE.CUSTOMERS_PK (INDEX)", 379, "43498", 16.01, 16.01, "SOE")),
])
def test_top_db_objects_are_read(corpus, name, first):
    """ASH's Top DB Objects (Application, Cluster, User I/O and buffer busy waits by object): the objects a
    read finding's time was spent on, where the report has no segment statistics."""
    row = rows(parse_path(corpus / name), "ash_top_objects")[0]
    assert (row.name, row.line, row.text["object_id"], row.values["pct_activity"], row.values["pct_event"],
            row.text["tablespace"]) == first
    assert row.text["event"] == "db file sequential read"


def test_top_blocking_sessions_are_read(corpus):
    """10.2.0.4 text, lines 205-206: '7192,    1      28.18 log file sync   28.18' over
    'SYS  oracle@db-dcle...on.com (LGWR)  48/60 [ 80%]  0': LGWR blocked 28.18 % of the activity, in log file
    sync, and was itself active in 48 of the 60 samples."""
    [row] = rows(parse_path(corpus / "ash_txt_10204_ramlaxman12_dclej1.txt"), "ash_top_blockers")
    assert (row.name, row.line, row.values["pct_activity"], row.values["pct_event"]) == ("7192, 1", 205, 28.18, 28.18)
    assert (row.text["event"], row.text["program"], row.text["samples_active"]) == \
        ("log file sync", "oracle@db-dcle...on.com (LGWR)", "48/60 [ 80%]")


def test_a_statements_further_events_are_read(corpus):
    """Issue 41: the rows after a statement's first event in 'Top SQL with Top Events' were dropped, so
    awrscope said no statement was sampled on db file sequential read while the report prints two.
    Read by hand: awr_html_19c_allenshepherd_cdbsrc_10364_10370.html line 2418, c9278zzrdcmcw's second row
    (its key cells repeated in hidden divs) 'db file sequential read | 1.02', and lines 2424/2427,
    4dv7aa0bj67wx's 'db file parallel read | 2.38' and 'db file sequential read | 1.70'; the ASH text report
    ash_txt_11107_ramlaxman12_invods_0710.txt prints 0gbkss2vptqhq's second event after a blank line, line 146
    'latch: cache buffers chains       1.14 INDEX - RANGE SCAN                   0.73'. A further event is a row
    of its own with its event's share and no share of activity, which the statement's first row holds once."""
    from awrscope.rules.culprits import ash_sql_by_event

    r = parse_path(corpus / "awr_html_19c_allenshepherd_cdbsrc_10364_10370.html")
    got = [(x.line, x.name, x.text.get("event"), x.values.get("pct_event"), x.values.get("pct_activity"))
           for x in rows(r, "ash_top_sql")]
    assert got[1:6] == [(2415, "c9278zzrdcmcw", "CPU + Wait for CPU", 12.24, 13.95),
                        (2418, "c9278zzrdcmcw", "db file sequential read", 1.02, None),
                        (2421, "4dv7aa0bj67wx", "CPU + Wait for CPU", 5.44, 9.52),
                        (2424, "4dv7aa0bj67wx", "db file parallel read", 2.38, None),
                        (2427, "4dv7aa0bj67wx", "db file sequential read", 1.7, None)]
    culprits = ash_sql_by_event(r)["db file sequential read"]
    assert [(c.name, c.value, c.line) for c in culprits] == [("4dv7aa0bj67wx", 1.7, 2427), ("c9278zzrdcmcw", 1.02, 2418)]

    t = parse_path(corpus / "ash_txt_11107_ramlaxman12_invods_0710.txt")
    more = [(x.line, x.name, x.text.get("event"), x.values.get("pct_event"), x.text.get("top_row_source"))
            for x in rows(t, "ash_top_sql") if "pct_activity" not in x.values]
    assert more == [(146, "0gbkss2vptqhq", "latch: cache buffers chains", 1.14, "INDEX - RANGE SCAN"),
                    (156, "1nw8qamkhkdqf", "read by other session", 1.17, "INDEX - FULL SCAN")]
    assert next(x for x in rows(t, "ash_top_sql") if x.line == 146).text["sql_text"].startswith("SELECT warehouse_id")


def test_one_statement_in_several_containers_is_one_record_each(corpus):
    """A CDB's AWR prints csbsw569ddtxd once per PDB, one after the other (karlarao line 4562: PDB2 33.61 %,
    4568: PDB3 32.96 %, 4574: PDB1 32.31 %), each followed by its second event with the key cells hidden: three
    statements' shares, not one with five further events."""
    r = parse_path(corpus / "awr_html_12102_karlarao_cdb1_rac_2028_2029.html")
    got = [(x.line, x.values.get("pct_activity"), x.text.get("event"), x.values.get("pct_event"))
           for x in rows(r, "ash_top_sql")]
    assert got == [(4562, 33.61, "cell smart table scan", 31.64), (4565, None, "CPU + Wait for CPU", 1.95),
                   (4568, 32.96, "cell smart table scan", 31.14), (4571, None, "CPU + Wait for CPU", 1.82),
                   (4574, 32.31, "cell smart table scan", 30.24), (4577, None, "CPU + Wait for CPU", 2.06)]
