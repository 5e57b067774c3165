"""Defects found on public reports outside the corpus (tests/fixtures/hunt/, sources.tsv): each value below
was checked by hand against the report line quoted beside it."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import analyze_path, finding, observation, parse_path

HUNT = Path(__file__).parent / "fixtures" / "hunt"


def test_a_truncated_html_report_says_so(corpus):
    """The XYDB page is the first 32 KB of a RAC AWR HTML report: no 'End of Report', no </html>. A text
    report cut the same way was already flagged; an HTML one was not. Complete pages are not flagged, including
    the compare-period pages, which print no 'End of Report' but close with </html>."""
    cut = analyze_path(HUNT / "awr_html_11204_rac_pcambell_xydb1_24727_24728_PREFIX.html")
    assert any("may be truncated" in i["message"] for i in cut["issues"])
    for whole in ("awr_html_10204_radtek_orass1_dbcont03_46333_46339.html",
                  "awr_diff_html_10204_radtek_oraaws_oraaws_16107_16130_vs_16083_16106.html"):
        assert not any("may be truncated" in i["message"] for i in analyze_path(corpus / whole)["issues"])


def test_compare_period_top_events_read_the_printed_average_with_its_unit():
    """awrddrpt 19c prints 'Avg Time' with the unit in each cell; the averages were recomputed from the rounded
    totals (log file switch completion 0.2 s / 25 = 8 ms instead of the printed 9.21 ms).
    Line 62: ' log file switch completion    Configuration           25          0.2       9.21ms ...'
    Line 55: ' log file sync                 Commit             332,963        711.7       2.14ms ... 2.39ms'
    Line 58 (2nd): 'enq: CR - block range reuse c Other                   23          1.4      60.46ms'
    Line 56: ' SQL*Net message to client     Network          8,289,224          9.7       1.17us'"""
    doc = analyze_path(HUNT / "awr_diff_txt_19c_pdb_cdb1_91_92_vs_88_89_FRAGMENT.txt")
    first, second = (p["metrics"] for p in doc["periods"])
    assert first["avg_ms[log file switch completion]"]["value"] == 9.21
    assert first["avg_ms[log file sync]"]["value"] == 2.14
    assert second["avg_ms[log file sync]"]["value"] == 2.39
    assert second["avg_ms[enq: CR - block range reuse ckpt]"]["value"] == 60.46
    report = parse_path(HUNT / "awr_diff_txt_19c_pdb_cdb1_91_92_vs_88_89_FRAGMENT.txt")
    net = report.periods[0].sections["top_events"].row("SQL*Net message to client")
    assert abs(net.values["avg_wait_ms"] - 0.00117) < 1e-12  # microseconds, not milliseconds


def test_names_the_text_report_cut_are_completed_from_the_event_catalogue():
    """Statspack cuts event names at 28 characters; a cut name that begins exactly one catalogued event is
    that event, and gets its class (V$EVENT_NAME): 'latch: cache buffers lru cha' (line 130) is
    'latch: cache buffers lru chain', class Other, not Concurrency by the 'latch' family. The Concurrency
    waits are then the catalogue's: 364 + 199 + 96 + 65 + 13 = 737 s (lines 118, 119, 121, 123, 126: cache
    buffers chains, cursor: pin S, library cache: mutex X, In memory undo latch, buffer busy waits), not 742
    ('latch: undo global data', line 129, 3 s, is Other too); and the two printed '0' in a section of whole
    seconds: 'latch: row cache objects' 18 waits x 4 ms (line 137) and 'latch: cache buffer handles' 8 x 5 ms
    (line 140), 0.112 s."""
    path = HUNT / "statspack_txt_11203_rbogusze_exadata_tpcc_5_7_PREFIX.lst"
    fg = parse_path(path).sections["wait_events_fg"]
    names = [r.name for r in fg.rows]
    assert "latch: cache buffers lru chain" in names and "latch: cache buffers lru cha" not in names
    assert "latch: object queue header operation" in names and "latch: checkpoint queue latch" in names
    g04 = finding(analyze_path(path), "G04")
    assert g04["impact"]["db_time_s"] == 737.112


def test_redo_rate_from_the_load_profile_when_instance_activity_is_absent():
    """The XYDB page stops before Instance Activity Stats; its Load Profile prints 'Redo size (bytes):'
    51,177.1 per second (line 64). The redo rate was 'missing input'."""
    doc = analyze_path(HUNT / "awr_html_11204_rac_pcambell_xydb1_24727_24728_PREFIX.html")
    rate = doc["metrics"]["redo_rate_Bps"]
    assert rate["value"] == 51177.1
    assert rate["source"][0]["section"] == "load_profile" and rate["source"][0]["line"] == 64


def test_a_total_printed_in_thousands_gives_way_to_waits_times_the_average():
    """Top 5 of the XYDB page, line 99: 'enq: TX - row lock contention | 2,945 | 20K | 6775 | 57.5'. '20K'
    is rounded to the thousand; 2,945 waits x 6,775 ms = 19,952.4 s, which the printed 57.5 % of DB time
    confirms. G03 claimed 20,000 s (57.64 %)."""
    doc = analyze_path(HUNT / "awr_html_11204_rac_pcambell_xydb1_24727_24728_PREFIX.html")
    g03 = finding(doc, "G03")
    assert g03["impact"]["db_time_s"] == 2945 * 6775 / 1000
    assert round(g03["impact"]["pct_db_time"], 1) == 57.5


def test_an_estimated_db_time_cites_what_it_is_made_of():
    """Statspack 8.1.7 prints no DB time; the parser estimates it as 'CPU used by this session' / 100 + the
    non-idle foreground waits. It was cited as a 'DB Time' row on line 1 of the header (a blank line). Line 506:
    'CPU used by this session   68,261   113.6   15.3'; Wait Events start on line 62, Background Wait Events on 97."""
    doc = analyze_path(HUNT / "statspack_txt_81741_radtek_oraclescripts_oracle_463_464_PREFIX.lst")
    m = doc["metrics"]["db_time_s"]
    assert round(m["value"], 2) == 1837.07
    cited = {(s["section"], s["line"]) for s in m["source"]}
    assert cited == {("instance_activity", 506), ("wait_events", 62), ("wait_events_bg", 97)}
    cpu = next(s for s in m["source"] if s["section"] == "instance_activity")
    assert cpu["row"] == "CPU used by this session" and cpu["value"] == 68261
    assert abs(68261 / 100 + next(s["value"] for s in m["source"] if s["section"] == "wait_events") - m["value"]) < 0.01


def test_a_spooled_addm_report_is_whole_without_end_of_report(tmp_path):
    """addmrpti.sql prompts 'End of Report' after 'spool off': the file addmrpt.sql writes never holds it.
    denglt's addmrpt_1_180_181.txt is such a spool, whole: it ends in its last section ('Additional
    Information', then 'Miscellaneous Information ... Session connect and disconnect calls were not consuming
    significant database time.'); it was said to be 'maybe truncated'. Cut before that section, it is."""
    path = HUNT / "addm_txt_12102_denglt_oradlt_180_181.txt"
    whole = analyze_path(path)
    assert not any("truncated" in i["message"] for i in whole["issues"])
    text = path.read_text()
    cut = tmp_path / "cut.txt"
    cut.write_text(text[:text.index("          Additional Information")])
    assert any("may be truncated" in i["message"] for i in analyze_path(cut)["issues"])
    # its header, by hand: 'Time period starts at 04-JUL-17 04.21.50 PM' / 'ends at 04-JUL-17 05.00.19 PM'
    # (2,309 s); 'Total database time was 385 seconds.'; 'ADDM performed an analysis of instance oradlt'
    report = parse_path(path)
    assert report.elapsed_s == 2309 and report.db_time_s == 385
    assert [i.name for i in report.header.instances] == ["oradlt"]


def test_the_analysed_instance_of_an_all_instances_addm_request():
    """'Analysis was requested for all instances, but ADDM analyzed instance DBTEST, numbered 1 and hosted at
    oradb.egolife.com.' (the blog's ADDM_01 task report, line 14-15): the instance was '?'."""
    report = parse_path(HUNT / "addm_txt_11201_blog_dbtest_4219_4220_INDENTED.txt")
    [inst] = report.header.instances
    assert (inst.name, inst.number, inst.host) == ("DBTEST", 1, "oradb.egolife.com")
    assert report.db_time_s == 2303 and report.elapsed_s == 2387  # 'Total database time was 2303 seconds.'


def test_an_ash_report_says_its_sessions_are_the_foreground_part_and_its_cpu_row_holds_the_queue():
    """ASH 12.1.0.1 (Apress/troubleshooting-oracle-perf-14, chapter04): 'Average Active Sessions: 15.28' (line 19)
    over 300 s counts background sessions; Top Background Events (lines 39-42) hold 5.80 + 1.75 + 1.53 + 1.48 =
    10.56 % of the samples, so DB time is 4,584 x 0.8944 = 4,099.9 s and the load 13.7 sessions. The load line
    said '13.7 average active sessions' beside the report's 15.28 without a word; the CPU row 'CPU + Wait for
    CPU' (line 30) was shown as 'DB CPU', and the rest was said to hold 'any CPU queue', which that row holds."""
    path = HUNT / "ash_txt_12101_antognini_dbm12101_0212_2217.txt"
    doc = analyze_path(path)
    assert doc["metrics"]["db_time_s"]["value"] == pytest.approx(15.28 * 300 * (1 - 0.1056), abs=0.05)
    assert doc["verdict"]["load"]["summary"].startswith("13.7 foreground (of 15.3 printed, background included) average active "
                                          "sessions on 4 CPUs")
    leaves = {l["name"]: l for l in doc["ledger"]["leaves"]}
    cpu = leaves["CPU + Wait for CPU"]
    assert cpu["kind"] == "cpu" and cpu["source"][0]["line"] == 30 and "DB CPU" not in leaves
    assert "not CPU-bound (CPU + Wait for CPU 6.2 % of DB time)" in doc["verdict"]["load"]["summary"]
    rest = next(l for l in doc["ledger"]["leaves"] if l["kind"] == "remainder")
    assert "CPU queue" not in (rest["note"] or doc["ledger"]["remainder_meaning"])
    # the advice names the report's own sections: it has no 'SQL ordered by Reads'; the LGWR that the sessions
    # in log file sync wait for is in Top Blocking Sessions ('3, 1( 1) 14.42 log file sync', line 302)
    assert "Top SQL with Top Events" in finding(doc, "G06")["recommendation"]
    assert "SQL ordered by Reads" not in finding(doc, "G06")["recommendation"]
    r17 = finding(doc, "R17")
    assert "Top Blocking Sessions the LGWR" in r17["culprits_missing"] and "parallel write" not in r17["culprits_missing"]
    # the redo writers' own samples: 'log file parallel write  System I/O  5.80  0.89' (line 39)
    (writing,) = [e for e in r17["evidence"] if e["metric"] == "ash_aas[log file parallel write]"]
    assert writing["value"] == 0.89 and writing["source"][0]["line"] == 39
    assert any("0.89 sessions on average" in c and "writing most of the window" in c for c in r17["caveats"])
    r08 = next(f for f in doc["observations"] if f["id"] == "R08")
    assert "commits" not in (r08.get("culprits_missing") or "")
    # Top DB Objects names what the reads were of: '20124  22.39 db file sequential read  22.39' over
    # 'SOE.INVENTORIES (TABLE)  USERS' (lines 325-326)
    objects = [c for c in finding(doc, "G06")["culprits"] if c["kind"] == "segment"]
    assert (objects[0]["name"], objects[0]["value"], objects[0]["section"], objects[0]["line"]) == \
        ("SOE.INVENTORIES (TABLE)", 22.39, "ash_top_objects", 325)
    assert "in USERS" in objects[0]["detail"] and len(objects) == 3
    # Top Blocking Sessions names whom the commits waited for: '3, 1( 1)  14.42 log file sync  14.42' over
    # 'SYS  oracle@helicon (LGWR)  153/300 [ 51%]' (lines 302-303)
    (lgwr,) = [c for c in r17["culprits"] if c["kind"] == "session"]
    assert (lgwr["name"], lgwr["value"], lgwr["line"]) == ("LGWR (sid 3, 1( 1))", 14.42, 302)
    assert "itself active in 153/300 [ 51%] samples" in lgwr["detail"]


def test_an_error_printed_under_the_database_table_is_not_read_as_its_rows():
    """Statspack 9.2.0.1 (nabeelkhan/Oracle-DBA-Life sp_result.lst): 'ORAKIC  3640394792 orakic  1 9.2.0.1.0
    NO  kic-compaq' (line 8), then SQL*Plus's PLS-00103 error text with no blank line between (lines 9-26). Those
    lines were read as rows of the table: release 'su', instance 'min prior sql', host 'following:'. A row of
    the database table has a number for its DB Id."""
    r = parse_path(HUNT / "statspack_txt_92010_nabeelkhan_orakic_3_4_INVALID_PREFIX.lst")
    h = r.header
    assert (h.db_name, h.dbid, h.version, h.host) == ("ORAKIC", 3640394792, "9.2.0.1.0", "kic-compaq")
    assert [i.name for i in h.instances] == ["orakic"]
    assert any("RESULTS ARE INVALID" in i.message for i in r.issues)
    # 'ERROR: Snapshots chosen span an instance shutdown: RESULTS ARE INVALID' (line 3): every wait printed 0 s
    # and CPU time 55 s, 99.93 % of the total; the verdict rated that CRITICAL as if it were a share of DB time
    doc = analyze_path(HUNT / "statspack_txt_92010_nabeelkhan_orakic_3_4_INVALID_PREFIX.lst")
    headline = doc["verdict"]["top_of_db_time"]
    assert headline["severity"] == "info" and headline["title"].endswith("span an instance restart: not to be trusted")
    assert headline["confidence"] == "low"
    top = doc["verdict"]["headline"]  # the top cause says it too, and is as doubtful as every finding
    assert top is None or (top["line"].endswith("span an instance restart: not to be trusted)") and top["confidence"] == "low")
    assert all(f["confidence"] == "low" and any("instance restart" in c for c in f["caveats"])
               for f in doc["findings"] + doc["observations"])


def test_db_time_from_the_header_minutes_says_how_fine_it_is():
    """19c HTML, its first 32 KB (DanielMendieta/Optimizacion_y_Monitoreo...): the time model is cut before its DB
    time row, so DB time is the header's 'DB Time: 0.86 (mins)' (line 67): 51.6 s, give or take 0.3 s (0.6 % of
    it). It was said to be of high confidence; the Top 10's 'DB CPU 39.5 ... 76.3' (line 114) puts it at 51.8 s."""
    doc = analyze_path(HUNT / "awr_html_19c_danielmendieta_carga_50_53_PREFIX.html")
    m = doc["metrics"]["db_time_s"]
    assert m["value"] == pytest.approx(51.6) and m["source"][0]["line"] == 67
    assert doc["report"]["db_time_basis"] == "header" and doc["report"]["db_time_confidence"] == "medium"
    assert "within 0.3 s" in m["note"] and abs(39.5 / 0.763 - m["value"]) < 0.3


def test_a_restart_error_quoted_by_the_prose_above_a_report_is_not_the_reports():
    """A Vietnamese lesson (19c RAC, PDB report of snaps 37-38, the whole document as published) quotes the AWR
    scripts' error in its prose, 200 lines above the report: '> Neu bi loi "re-started during specified snapshot
    interval", chon 2 snap_id ...' (line 78). The instance started at '10-Jun-26 08:22' (line 283), before the
    begin snapshot at 10:00:07: the report was called untrustworthy and every finding low-confidence."""
    doc = analyze_path(HUNT / "awr_txt_19c_rac_pdb_racdb1_37_38_IN_LESSON.md")
    assert not any("instance restarted" in i["message"] for i in doc["issues"])
    g03 = finding(doc, "G03")
    assert g03["confidence"] == "high"
    # the CPUs are cited where they are printed: 'rac1  Linux x86 64-bit  2  2  2  7.31' (line 293), not line 1
    assert [(s["row"], s["line"], s["value"]) for s in doc["metrics"]["cpu_count"]["source"]] == [("CPUs", 293, 2.0)]
    # Statspack's banner and a warning line above an AWR page are still Oracle's
    from awrscope.parsers.report import _said_by_oracle, _RESTART_WORDS
    assert _said_by_oracle("\n\nERROR: Snapshots chosen span an instance shutdown: RESULTS ARE INVALID\n", _RESTART_WORDS)
    assert _said_by_oracle("<p>WARNING: Database/Instance 1/1 was re-started during the interval</p>", _RESTART_WORDS)
    assert not _said_by_oracle('> Neu bi loi "re-started during specified snapshot interval", chon', _RESTART_WORDS)


def test_a_statement_too_small_to_explain_a_finding_is_not_its_culprit(corpus):
    """The same report's row lock finding (52.86 s of 'enq: TX - row lock contention', line 460) named, beside
    the UPDATE of 52.9 s (line 544), 'select free_mb from v$asm_diskgroup_stat' of 0.1 s, 0.2 % (line 549): a
    query that takes no row lock and 0.2 % of DB time explains nothing of it. Statements under 1 % of what their
    section ranks by are not named; when none reaches it, the finding says so."""
    g03 = finding(analyze_path(HUNT / "awr_txt_19c_rac_pdb_racdb1_37_38_IN_LESSON.md"), "G03")
    assert [(c["kind"], c["name"]) for c in g03["culprits"] if c["kind"] != "session"] == [
        ("segment", "ORDERS_DEMO"), ("sql", "aa7t6babr24zf")]
    g07 = finding(analyze_path(HUNT / "awr_txt_19c_rac_pdb_racdb1_37_38_IN_LESSON.md"), "G07")
    assert [(c["name"], c["line"]) for c in g07["culprits"]] == [("aa7t6babr24zf", 544)]
    # SLOB 12.2 global: direct path read 32 % of DB time; SQL ordered by User I/O Wait Time lists 19ss2pafw6ck9 at
    # 26,366.9 s (line 830), then two PL/SQL blocks of 414.0 and 413.5 s, 0.5 % each (lines 832, 834)
    g06 = finding(analyze_path(corpus / "awr_global_html_12201_slob_therealkevinc.html"), "G06")
    assert [(c["name"], c["line"]) for c in g06["culprits"] if c["kind"] == "sql"] == [("19ss2pafw6ck9", 830)]


def test_a_finding_no_captured_statement_explains_says_so(corpus):
    """remik (11.2.0.4 text): DB CPU 747 s, 88.7 % of DB time (line 135); 'Captured SQL account for 0.6% of
    Total CPU Time' (line 515): the top statement by CPU has 4.1 s (line 521), the next 0.2 s. G02 named all
    three as its culprits; none explains a part of 747 s."""
    g02 = finding(analyze_path(corpus / "awr_txt_11204_rbogusze_remik_18_19.txt"), "G02")
    assert g02["culprits"] == []
    assert g02["culprits_missing"].startswith("nothing in SQL ordered by CPU time or SQL ordered by buffer gets reaches 1 %")


def test_instance_cpu_of_an_html_report_is_read_across_and_a_host_busy_elsewhere_is_said():
    """sarthi2020/AWR-reports awr_rpt_1.html (11.2.0.3, AIX, its first 32,000 characters): Instance CPU prints
    '%Total CPU | %Busy CPU | %DB time waiting for CPU (Resource Manager)' over one row '16.3 | 17.7 | 0.0'
    (lines 126-127). It was read as a row named '16.3' of value 17.7, the third figure lost. BUSY_TIME 2,665,943
    and SYS_TIME 1,010,612 (lines 221, 224): the host is 92 % busy, 38 % of it in the kernel, and this instance
    uses 17.7 % of the busy CPU: G02 said to tune this instance's SQL first."""
    path = HUNT / "awr_html_11203_sarthi2020_db1uat_42809_42810_PREFIX.html"
    rows = parse_path(path).sections["instance_cpu"].rows
    assert [(r.name, r.line, r.values["value"]) for r in rows] == [
        ("%Total CPU", 127, 16.3), ("%Busy CPU", 127, 17.7), ("%DB time waiting for CPU (Resource Manager)", 127, 0.0)]
    doc = analyze_path(path)
    assert doc["metrics"]["instance_busy_cpu_pct"]["value"] == 17.7
    assert abs(doc["metrics"]["host_sys_cpu_pct"]["value"] - 100 * 1010612 / 2665943) < 1e-9
    g02 = finding(doc, "G02")
    assert g02["title"].endswith("host 92 % busy, 18 % of it this instance")
    assert g02["recommendation"].startswith("The host is busy mostly outside this instance (this instance 18 % of its "
                                            "busy CPU): find the other consumers first")
    assert "The kernel takes 38 % of the busy CPU (SYS_TIME)" in g02["recommendation"]


def test_a_week_long_report_sizes_no_redo_log_from_its_average():
    """tanjie07065040/oracle_awr awrrpt_1_5382_5535.html (11.2.0.4, its first 32,000 characters): 'Elapsed:
    9,180.73 (mins)' (line 54), 153 hours; 20 minutes of its average redo x1.5 gave a 1.2 MB online log. An
    average over days is no peak rate: no size is given, and the metric says why."""
    m = analyze_path(HUNT / "awr_html_11204_tanjie_dquito_5382_5535_PREFIX.html")["metrics"]["recommended_log_size_B"]
    assert m["value"] is None and m["reason"] == "NOT_A_PEAK"
    assert m["note"].startswith("the report covers 153.0 hours")


def test_a_long_report_gives_a_log_size_only_as_a_floor_above_the_logs_it_has(corpus):
    """radtek varejo1 11559-11567 (8 hours, 29.8 log switches per hour): 20 minutes of its average redo x1.5 is more
    than its logs hold, so it is a floor for the busiest hour; allenshepherd cdbsrc (6 hours, no log switch count)
    gives no size; varejo1 11560-11563 (3 hours) still gives one."""
    r04 = observation(analyze_path(corpus / "awr_html_11203_radtek_varejo_varejo1_11559_11567.html"), "R04")
    assert "(at least about 2,025 MiB per log: this report's 8.0-hour average rate x1.5; the busiest hour needs more)" \
        in r04["recommendation"]
    r04 = observation(analyze_path(corpus / "awr_html_11203_radtek_varejo_varejo1_11560_11563.html"), "R04")
    assert "(about 3,004 MiB per log from this report's average rate x1.5)" in r04["recommendation"]
    r04 = observation(analyze_path(corpus / "awr_html_19c_allenshepherd_cdbsrc_10364_10370.html"), "R04")
    assert "(no size from this report: the report covers 6.0 hours" in r04["recommendation"]


def test_an_awr_reports_own_ash_sections_name_who_waited_on_a_findings_events(corpus):
    """AWR 11.2+ prints ASH's Top SQL with Top Events, Top DB Objects and Top Blocking Sessions; they tie a statement,
    an object, a blocking session to the event it was sampled on, which 'SQL ordered by' lists do not.
    insaas3 (12.2 text): 'b0hgsuvnfdp7p ... 25.82 / direct path write 25.82 / INSERT INTO TEST VALUES(:B2 ,:B1 )'
    (lines 3282-3284); '10,63982( 1)  10.55 log file sync  10.55 / SYS oracle@in-saas3-db-01 (LGWR) 12/93 [ 13%]'
    (lines 3394-3395)."""
    r = parse_path(corpus / "awr_txt_12201_rbogusze_insaas3_4912_4913.txt")
    sql = r.sections["ash_top_sql"].rows[0]
    assert (sql.name, sql.line, sql.text["event"], sql.values["pct_event"], sql.text["sql_text"]) == (
        "b0hgsuvnfdp7p", 3282, "direct path write", 25.82, "INSERT INTO TEST VALUES(:B2 ,:B1 )")
    blocker = r.sections["ash_top_blockers"].rows[0]
    assert (blocker.name, blocker.line, blocker.text["event"], blocker.values["pct_event"]) == (
        "10,63982( 1)", 3394, "log file sync", 10.55)
    doc = analyze_path(corpus / "awr_txt_12201_rbogusze_insaas3_4912_4913.txt")
    f06 = finding(doc, "F06")  # direct path write, 50.8 % of DB time: named no statement before
    assert [(c["name"], c["section"], c["line"]) for c in f06["culprits"] if c["kind"] == "sql"] == [
        ("b0hgsuvnfdp7p", "ash_top_sql", 3282)]
    r01 = finding(doc, "R01")  # commits: the statements stay those of SQL ordered by Executions; LGWR is the blocker
    assert [c["name"] for c in r01["culprits"] if c["kind"] == "session"] == ["LGWR (sid 10,63982( 1))"]
    # the lesson's 19c PDB report: the UPDATE that ASH saw on the row lock (line 2295), its text from SQL ordered by
    # Elapsed Time (line 547); the blocker is another instance's session, not sampled here (line 2367)
    g03 = finding(analyze_path(HUNT / "awr_txt_19c_rac_pdb_racdb1_37_38_IN_LESSON.md"), "G03")
    sql = [c for c in g03["culprits"] if c["kind"] == "sql"]
    assert [(c["name"], c["line"]) for c in sql] == [("aa7t6babr24zf", 2295)]
    assert "update orders_demo set total_amount = 888" in sql[0]["detail"]
    assert [(c["name"], c["line"]) for c in g03["culprits"] if c["kind"] == "session"] == [("sid 54,49528( 2)", 2367)]


def test_a_pdb_report_says_which_container_it_is_of():
    """'WORKLOAD REPOSITORY PDB report (root snapshots)' (line 276) of container PDB1 (line 288): its figures are
    the PDB's; the text output named the database and instance only."""
    from awrscope.render.text import render_text

    doc = analyze_path(HUNT / "awr_txt_19c_rac_pdb_racdb1_37_38_IN_LESSON.md")
    assert doc["report"]["container"] == "PDB1"
    assert "  db RACDB  container PDB1  instance(s) racdb1  snaps 37-38" in render_text(doc)


def test_a_run_queue_figure_beside_idle_cores_is_no_cpu_queue():
    """sarthi2020/AWR-reports awr_rpt_3.html (12.1.0.2, AIX, 12 CPUs on 3 cores; the whole report, gzipped): a
    library cache storm of 81 active sessions on a host 15.6 % busy (BUSY_TIME 751,472, IDLE_TIME 4,051,934,
    lines 285-286), its ADDM saying 'CPU was not a bottleneck for the instance'. OS_CPU_WAIT_TIME 3,087,800
    (line 291) is 4.1 times BUSY_TIME, which AIX counts more than a run queue in; even counting 4 SMT threads a
    core the cores were 62 % busy at most. The load line said 'the CPUs saturated (23.5 % of DB time waiting for
    CPU in the run queue)' and G10 advised more CPU."""
    doc = analyze_path(HUNT / "awr_html_12102_sarthi2020_receipt_173498_173500.html.gz")
    load = doc["verdict"]["load"]["summary"]
    assert "but not CPU-bound" in load and "saturated" not in load
    g10 = next(f for f in doc["annotations"] if f["id"] == "G10")
    assert "OS_CPU_WAIT_TIME exceeds BUSY_TIME, which is no run queue by itself" in g10["title"]
    # Time Model lines 253-256: parse 88.0 %, hard 47.9 %, failed 16.0 % of DB time; its ADDM: literal usage
    # 31.65 %, parse errors 16.32 %, soft parse 40.98 % (lines 64-66)
    g08 = finding(doc, "G08")
    assert g08["title"] == "Parsing 88.0 % of DB time: hard parses 47.9 %, mostly literal SQL (31.7 %)"
    assert "Also parse errors (16.0 % of DB time)" in g08["recommendation"]
    assert "Also soft parses (40.1 % of DB time)" in g08["recommendation"]
    # Tablespace IO Stats prints RECEIPT's 'Av Rd(ms)' as 18,196.60 (line 2239) where 'db file sequential read'
    # averages 2.45 ms (line 362): R16 repeated it as the tablespace's read latency
    r16 = observation(doc, "R16")
    assert r16["evidence"][0]["note"] == ("read latency 18196.6 ms as printed: not plausible beside "
                                          "'db file sequential read' at 2.45 ms")
    # 'parse time cpu' (its CPU measured) is claimed before the connections' (not measured): G09 once took all
    # 3,181.6 s of DB CPU for 9,189.9 s of connection management, leaving parsing none
    cpu = next(l for l in doc["ledger"]["leaves"] if l["name"] == "DB CPU")
    assert [c["id"] for c in cpu["claimed_by"]] == ["G08", "G09"]
    assert observation(doc, "G09")["caveats"][0].startswith("connection management (9,189.9 s) overlaps other parts")
    # its ADDM's 'Latch Free Waits 4.34 %' (line 67) is the 'latch free' event (line 360), which no finding names:
    # it was 'agreed' with G04, whose concurrency waits are the library cache mutex
    latch = next(a for a in doc["addm"] if a["name"] == "Latch Free Waits")
    assert latch["status"] != "agreed" and latch["ours"] is None


def test_an_html_sections_notes_are_its_own(corpus):
    """AWR HTML prints a section's notes between its title and its table ('<h3>Time Model Statistics</h3><ul><li>
    Total time in database user-calls (DB Time): 6679.3s', xydb 36006 lines 225-231). They were attached to the
    section before (Time Model got Operating System Statistics' notes, Foreground Wait Events the Background's):
    the notes that say which events the report prints last as idle, and what a section's figures are of."""
    r = parse_path(corpus / "awr_html_11204_pcambell_xydb_36006_36007.html")
    assert r.sections["time_model"].notes[0] == "Total time in database user-calls (DB Time): 6679.3s"
    assert r.sections["os_stats"].notes[0].startswith("*TIME statistic values are diffed")
    assert r.sections["wait_events_bg"].notes[0] == "ordered by wait time desc, waits desc (idle events last)"


def test_a_12c_html_report_says_it_is_of_a_cdb(corpus):
    """12.1 HTML prints CDB in the snapshot table ('Begin Snap: 2028 05-Apr-15 03:00:21 134 1.2 1 YES', karlarao
    line 52): the report's cdb flag was left unknown."""
    assert parse_path(corpus / "awr_html_12102_karlarao_cdb1_rac_2028_2029.html").header.cdb is True
