"""Verdicts with signal (issue 15): severity from share AND load, the headline, observations,
culprits named from the report's own rankings, and the workload rules beyond the write path.
Every expected figure is read by hand from the report lines cited."""
from __future__ import annotations

import json

import pytest

from awrscope.rules.base import severity_for
from conftest import analyze_path, finding, headline, observation

SEV = ["critical", "major", "moderate", "minor", "info"]


def test_severity_needs_share_and_sessions():
    assert severity_for(30.0) == "critical"  # no elapsed time known: the share alone
    assert severity_for(30.0, aas=1.2) == "critical"
    assert severity_for(30.0, aas=0.5) == "major"  # 30 % but half a session: not critical
    assert severity_for(30.0, aas=0.05) == "minor"
    assert severity_for(1.0, aas=50.0) == "info"
    assert severity_for(30.0, {"critical_aas": 0.4}, aas=0.5) == "critical"  # [severity] critical_aas in the config


def test_quiet_database_has_no_finding_above_minor(corpus):
    # header: DB Time 0.80 (mins) in 59.3 min; 16 CPUs (Operating System Statistics NUM_CPUS)
    d = analyze_path(corpus / "awr_html_19c_pcambell_orcl_17676_17677.html")
    load = d["verdict"]["load"]
    assert load["level"] == "quiet" and load["cpu_count"] == 16 and load["aas"] == pytest.approx(0.013, abs=1e-3)
    assert d["findings"] and all(SEV.index(f["severity"]) >= SEV.index("minor") for f in d["findings"])


def test_headline_is_not_ranked_again_and_context_is_an_observation(corpus):
    d = analyze_path(corpus / "awr_html_12102_sarthi2020_2.html")
    h = headline(d)
    assert h["id"] == "G01" and h["title"] == "Top of DB time: DB CPU (CPU) 32.2 %"  # Time Model line 256: 32.19 %
    assert finding(d, "G01") is None
    assert observation(d, "R16") and finding(d, "R16") is None


def test_hard_parse_of_literals_is_named_not_cpu(corpus):
    # Time Model lines 254-265: parse time elapsed 6,030.37 s, hard parse 5,916.89 s, sharing criteria 39.21 s,
    # bind mismatch 0.01 s, failed parse 6.82 s, DB time 13,798.89 s. ADDM of the same hour: "Hard Parse Due
    # to Literal Usage" 40-43 %.
    d = analyze_path(corpus / "awr_html_12102_sarthi2020_2.html")
    f = finding(d, "G08")
    assert f["impact"]["pct_db_time"] == pytest.approx(100 * 6030.37 / 13798.89, abs=1e-3)
    assert f"hard parses {100 * 5916.89 / 13798.89:.1f} %, mostly literal SQL" in f["title"]
    # 'bind mismatch' is part of 'sharing criteria' in the Time Model, and a failed parse is hard parsed too
    assert f["title"].endswith(f"({100 * (5916.89 - 39.21 - 6.82) / 13798.89:.1f} %)")
    assert f["severity"] == "critical"  # 43.7 % of 3.82 active sessions = 1.67 sessions
    assert "bind variables" in f["recommendation"]
    top = f["culprits"][0]  # SQL ordered by Parse Calls line 1146: 9,043,623 parse calls, 86.05 %
    assert (top["name"], top["value"], top["share_pct"], top["line"]) == ("47r1y8yn34jmj", 9043623.0, 86.05, 1146)


def test_aix_os_cpu_wait_above_busy_time_is_not_a_cpu_queue(corpus):
    # lines 20-21: Elapsed 60.25 min, DB Time 66.24 min; OS Statistics 185-197: BUSY_TIME 423,547,
    # IDLE_TIME 14,040,369 (2.9 % busy), OS_CPU_WAIT_TIME 457,700 cs, NUM_CPUS 40, NUM_CPU_CORES 5
    d = analyze_path(corpus / "awr_txt_12201_aix_jasmin_bpsc_2668_2669.txt")
    m = d["metrics"]
    assert m["cpu_queue_aas"]["value"] == pytest.approx(4577.0 / m["elapsed_s"]["value"], rel=1e-9)
    assert m["host_cpu_busy_pct"]["value"] == pytest.approx(100 * 423547 / (423547 + 14040369), rel=1e-9)
    # OS_CPU_WAIT_TIME (457,700 cs) exceeds BUSY_TIME (423,547 cs) on this AIX host, 97.1 % idle (line 102), with
    # (1,234.75 + 2,640 s) / 3,615 s / 5 cores = 0.21 sessions per core: the counter is no run queue (issue 26), so
    # the gap is an annotation of the ledger, not "waiting for CPU" (ADDM of this hour names no CPU problem either)
    assert finding(d, "G10") is None
    f = next(a for a in d["annotations"] if a["id"] == "G10")
    assert "OS_CPU_WAIT_TIME exceeds BUSY_TIME" in f["title"]
    # DB time 3,974.40 s - DB CPU 1,234.75 s - foreground waits (Foreground Wait Class: 100.26 s printed)
    assert m["unaccounted_s"]["value"] == pytest.approx(3974.40 - 1234.75 - 100.26, abs=2.0)
    g08 = finding(d, "G08")  # ADDM: Hard Parse Due to Sharing Criteria 14.79 %
    assert "cursors not shared" in g08["title"]


def test_cpu_gap_without_os_evidence_is_not_asserted(tmp_path):
    from synth import report
    from awrscope.analysis import analyze
    doc = analyze(report(db_time_s=1000.0, fg={"db file sequential read": (1000, 100)}, time_model={"DB CPU": 300.0}))
    # 60 % of DB time unexplained and no OS figure confirms a CPU queue: no cause to rank, an annotation of the remainder
    assert finding(doc, "G10") is None
    f = next(a for a in doc["annotations"] if a["id"] == "G10")
    assert f["confidence"] == "low" and "no OS statistics confirm a CPU queue" in f["title"]


def test_row_lock_culprits_are_segments(corpus):
    # Segments by Row Lock Waits line 8606: IDC_DATA_SHAREDB.JX_JHXFXSYQ 834 waits, 46.57 % of capture
    d = analyze_path(corpus / "awr_html_19c_rac_pcambell_xydb_18346_18347.html")
    f = finding(d, "G03")
    c = f["culprits"][0]
    assert (c["kind"], c["name"], c["value"], c["share_pct"], c["line"]) == \
        ("segment", "IDC_DATA_SHAREDB.JX_JHXFXSYQ", 834.0, 46.57, 8606)
    assert c["detail"] == "table in IDC_DATA_SHAREDB"


def test_missing_culprit_section_is_said(tmp_path):
    from synth import report
    from awrscope.analysis import analyze
    doc = analyze(report(fg={"enq: TX - row lock contention": (100, 300, "Application")}))
    f = finding(doc, "G03")
    assert f["culprits"] == [] and "Segments by row lock waits" in f["culprits_missing"]


def test_undersized_buffer_cache_from_the_advisory(corpus):
    # ADDM of this hour: "Undersized Buffer Cache" 78 % of active sessions. The Buffer Pool Advisory prints
    # Est Phys Read Factor 1.0 at size factor 1.0 and a lower factor at 1.96x; awrscope applies it to the
    # foreground buffered read time.
    d = analyze_path(corpus / "awr_html_12101_michaelcunningham_pdb05_10096_10097.html")
    f = finding(d, "G11")
    assert f and "buffer cache at 1.96x" in f["title"]
    ev = {e["metric"]: e["value"] for e in f["evidence"]}
    assert ev["est_phys_read_factor[size factor 1.0]"] == 1.0  # line 3541
    assert ev["est_phys_read_factor[size factor 1.96]"] == 0.61  # line 3551: 39 % fewer reads
    assert f["impact"]["pct_db_time"] <= 0.39 * 78.1  # at most 39 % of the User I/O class's 78 %


def _addm(doc, name):
    return [a for a in doc["addm"] if a["name"] == name]


def test_addm_findings_beside_ours_text_report(corpus):
    # lines 23-31: Top ADDM Findings by Average Active Sessions, task ADDM:1378423309_1_4913 = the report's end snap
    d = analyze_path(corpus / "awr_txt_12201_rbogusze_insaas3_4912_4913.txt")
    uio, = _addm(d, '"User I/O" wait Class')
    assert (uio["pct_active_sessions"], uio["line"], uio["window"], uio["status"], uio["ours"]["id"]) == \
        (69.68, 27, "same", "agreed", "F06")  # direct path write 50.8 %: User I/O that is not a read (F06's LOB writes)
    commits, = _addm(d, "Commits and Rollbacks")  # ADDM names the class; R01 names the cause: 216 ms LGWR writes
    # matched by the leaves: R01 claims 259 ms of each 260.5 ms log file sync, the time ADDM's finding is about
    assert commits["status"] == "agreed" and commits["ours"]["id"] == "R01"


def test_addm_task_inside_a_longer_report(corpus):
    # report snaps 173494-173496 (two 30-minute ADDM tasks); line of the 09:30-10:00 task: CPU Usage 70.32 % of
    # 3.70 active sessions. Its DB time: 3.70 x 0.7032 x 1,800 s = 4,683 s of the report's 13,798.89 s.
    d = analyze_path(corpus / "awr_html_12102_sarthi2020_2.html")
    cpu = max(_addm(d, "CPU Usage"), key=lambda a: a["pct_active_sessions"])
    assert cpu["window"] == "inside"
    assert cpu["pct_of_report_db_time"] == pytest.approx(100 * 3.70 * 0.7032 * 1800 / 13798.89, abs=0.01)
    # matched by the leaves: the finding claiming most of DB CPU is G08's hard parsing of literal SQL (4,287 s of it)
    assert cpu["status"] == "agreed" and cpu["ours"]["id"] == "G08"
    lit = max(_addm(d, "Hard Parse Due to Literal Usage"), key=lambda a: a["pct_active_sessions"])
    assert lit["status"] == "agreed" and lit["ours"]["id"] == "G08"


def test_addm_hourly_finding_in_a_six_day_report_is_diluted(corpus):
    # Row Lock Waits 13.39 % of 20.83 sessions for one hour = 10,044 s, of the 6-day report's DB time
    d = analyze_path(corpus / "awr_global_html_19c_2inst_exadata_azurelab_dbu_6day.html")
    row, = _addm(d, "Row Lock Waits")
    assert row["window"] == "inside" and row["status"] == "diluted"
    assert row["pct_of_report_db_time"] == pytest.approx(100 * 20.83 * 0.1339 * 3600 / d["report"]["db_time_s"], abs=0.01)


VAREJO_DIFF = "awr_diff_html_11203_radtek_varejo_varejo1_8876_8878_vs_8880_8882.html"


def test_compare_period_report_is_diagnosed_per_period(corpus):
    # line 354: log file sync avg 51.20 ms (1st) / 885.78 ms (2nd), 5.11 / 49.49 % of DB time; waits printed
    # only per second (12.27 / 17.30 /s); line 370: log file parallel write avg 6.76 / 52.48 ms
    d = analyze_path(corpus / VAREJO_DIFF)
    p1, p2 = d["periods"]
    assert p2["metrics"]["lfs_ms"]["value"] == 885.78
    assert p2["metrics"]["lfs_lfpw_ratio"]["value"] == pytest.approx(885.78 / p2["metrics"]["lfpw_ms_per_write"]["value"])
    assert p2["commit_path"]["lfs_waits"] == pytest.approx(17.30 * 7206, rel=1e-9)
    r01 = finding(p2, "R01")
    assert r01 and r01["severity"] == "critical" and "885.8 ms" in r01["title"]
    # the first period: 51.20 ms commits at 5.11 % of DB time on 6.76 ms LGWR writes, the host not under pressure:
    # 1.5 x (6.76 - 1) = 8.64 ms of slow writes, and of the 40.86 ms left after the write and 0.2 ms of posting,
    # (6.76 - 5) / 5 = 35 % queue behind the slow writes, x (1 - 1 / 6.76): 12.25 ms; R01 takes 20.89 ms, minor
    r01_p1 = finding(p1, "R01")
    assert r01_p1["severity"] == "minor" and "take 20.89 ms of each 51.2 ms commit wait" in r01_p1["title"]
    assert p2["verdict"]["top_of_db_time"]["title"].startswith("Top of DB time: log file sync")


def test_compare_period_findings_reach_every_output(corpus, tmp_path):
    from click.testing import CliRunner
    from awrscope.cli import main
    path = str(corpus / VAREJO_DIFF)
    r = CliRunner()
    res = r.invoke(main, ["analyze", path])
    period2 = res.output.split("=== period 2", 1)[1]
    assert "[CRITICAL] R01 Redo writes poor: 52.68 ms per LGWR write" in period2
    md = r.invoke(main, ["analyze", "--format", "markdown", path]).output
    assert "## Period 2: snaps 8880-8882" in md and "#### R01 Redo writes poor: 52.68 ms per LGWR write" in md
    html = r.invoke(main, ["analyze", "--format", "html", path]).output
    assert 'id="p2-finding-R01"' in html
    assert r.invoke(main, ["analyze", "--fail-on", "critical", path]).exit_code == 1  # period 2's R01


def test_every_compare_period_report_has_period_findings_or_says_why(corpus):
    from awrscope.documents import all_findings
    diffs = sorted(corpus.glob("awr_diff_*"))
    assert len(diffs) == 28
    with_findings = 0
    for p in diffs:
        d = analyze_path(p)
        assert len(d["periods"]) == 2, p.name
        assert all(q["verdict"]["load"] is not None for q in d["periods"])
        # a period whose time goes to healthy reads and CPU has annotations (where the time goes), not findings
        with_findings += bool(all_findings(d)) or any(q["annotations"] for q in d["periods"])
    assert with_findings >= 20


def test_concurrency_names_its_cause_and_segments(corpus):
    # Foreground waits: buffer busy waits dominate the Concurrency class; Segments by Buffer Busy Waits
    # prints MONITORAMENTO.PK_ROTA first
    d = analyze_path(corpus / "awr_html_11203_radtek_monit_monit1_150_151.html")
    f = finding(d, "G04")
    assert f["title"].endswith("mostly buffer busy waits: hot blocks")
    assert f["culprits"][0]["name"] == "MONITORAMENTO.PK_ROTA" and f["culprits"][0]["section"] == "segments_by_buffer_busy_waits"
    assert "Segments by Buffer Busy Waits" in f["recommendation"]


def test_rac_imbalance_is_an_observation():
    from synth import report
    from awrscope.analysis import analyze
    from awrscope.model import Row, make_section
    r = report(fg={"db file sequential read": (1000, 100)})
    rows = [Row("DB time", 10 + k, {"time_s": t}, {"instance": f"I{k}"}) for k, t in enumerate((3000.0, 1000.0))]
    rows.append(Row("DB time", 20, {"time_s": 4000.0}, {"instance": "Sum"}))  # never an instance (parser drops it)
    r.sections["time_model_by_instance"] = make_section("time_model_by_instance", "Time Model", 9, {"time_s": "s"}, rows[:2])
    obs = observation(analyze(r), "G13")
    assert obs["title"] == "RAC imbalance: instance I0 has 1.5x the average DB time of 2 instances"
    assert obs["impact"]["db_time_s"] == 0


def test_global_report_statistics_rows_are_not_instances(corpus):
    from conftest import parse_path
    r = parse_path(corpus / "awr_global_html_19c_2inst_exadata_azurelab_dbw_7day.html")
    # Time Model by instance: rows DBW1 (line 187), DBW2 (188); the Std row (191) is a statistic of the two
    assert {x.text["instance"] for x in r.section("time_model_by_instance").rows} == {"DBW1", "DBW2"}


def test_undersized_pga_from_the_advisory(corpus):
    # PGA Memory Advisory line 2279: 3,072 MB (size factor 1.0) -> 231,095.88 MB extra W/A read/written to disk;
    # line 2284: 6,144 MB (2.0) -> 13,508.83 MB. TEMP read+write waits are 10.91 % + 1.37 % of DB time.
    # The advisory accumulates since instance startup; this 10.2.0.5 report prints no startup time and no ADDM
    # section: whether the advisory describes this window cannot be told, so it is context, no saving is promised.
    d = analyze_path(corpus / "awr_html_10205_radtek_exp_exp_56225_56724.html")
    assert finding(d, "G14") is None
    f = next(o for o in d["observations"] if o["id"] == "G14")
    assert f["impact"]["db_time_s"] == 0 and f["claims"] == []
    assert "cut work-area I/O to TEMP by 94 %" in f["title"]  # 1 - 13,508.83 / 231,095.88 = 94.2 %
    assert "startup time is not printed" in f["caveats"][0]
    assert finding(d, "R09")  # the TEMP time is R09's


def test_ash_report_of_the_same_window_names_the_sql_behind_the_events(corpus):
    # Statspack snaps 552-553 (19:30-19:45) and the ASH report of 19:30-19:45 (text, Top SQL with Top Events
    # lines 100-118: 82ud5h0qcg0bf 28.22 % on db file sequential read, 8vvvyuun2urt6 10.23 %, 9zd49du11u7cf 9.86 %;
    # g8rhybcumtwd6 waits on CPU + Wait for CPU, not on the headline's event)
    from click.testing import CliRunner
    from awrscope.cli import main
    sp = corpus / "statspack_txt_11203_antognini_top2_1930_1945.txt"
    ash = corpus / "ash_txt_11203_antognini_top2_1930_1945.txt"
    res = CliRunner().invoke(main, ["analyze", "--format", "json", str(sp), str(ash)])
    doc, ash_doc = json.loads(res.stdout)
    assert ash_doc["report"]["kind"] == "ash" and doc["joined"]["path"] == str(ash)
    head = doc["verdict"]["top_of_db_time"]
    from_ash = [c for c in head["culprits"] if c["section"] == "ash_top_sql"]
    assert [(c["name"], c["value"], c["line"]) for c in from_ash] == \
        [("82ud5h0qcg0bf", 28.22, 100), ("8vvvyuun2urt6", 10.23, 113), ("9zd49du11u7cf", 9.86, 118)]
    alone = json.loads(CliRunner().invoke(main, ["analyze", "--format", "json", str(sp)]).stdout)
    assert "joined" not in alone


def test_slow_reads_name_the_tablespace_and_the_sql(corpus):
    # Tablespace IO Stats line 966: PARIDX 75,654 reads at 29.4 ms = 2,224.2 s of read time; SQL ordered by Reads
    d = analyze_path(corpus / "statspack_txt_92040_radtek-oraclescripts_oracle_22_23.lst")
    f = finding(d, "G06")
    ts, sql = f["culprits"][0], [c for c in f["culprits"] if c["kind"] == "sql"]
    assert (ts["kind"], ts["name"], ts["line"], ts["detail"]) == ("tablespace", "PARIDX", 966, "29.4 ms per read")
    assert ts["value"] == pytest.approx(75654 * 29.4 / 1000)
    assert sql and sql[0]["section"] == "sql_by_reads"


def test_compare_period_report_lists_its_period_findings_in_the_store(corpus, tmp_path):
    from awrscope.store import Store
    store = Store(f"sqlite:///{tmp_path}/s.db")
    [res] = store.import_paths([str(corpus / VAREJO_DIFF)], jobs=1)
    assert res.status == "added" and res.top_finding.startswith("period 2: Redo writes poor: 52.68 ms per LGWR write")
    [row] = store.list(finding="R01")
    # period 2: R01 (critical), G06 (slow reads), R09 (TEMP); R11 claims 0.9 x 2.1 % = 1.9 %, below minor
    assert row["top_severity"] == "critical" and row["n_findings"] >= 3


def test_cpu_share_with_unknown_saturation_is_not_capped(corpus):
    """A Statspack 8.1.7 report prints neither host CPU use nor the CPU count: G02 cannot tell whether the host
    is saturated, so it keeps its share's severity and says why (the 'not saturated' ceiling needs evidence)."""
    from awrscope.analysis import analyze
    from conftest import parse_path

    doc = analyze(parse_path(corpus / "statspack_txt_81741_radtek-oraclescripts_oracle_116_117.lst"))
    g02 = next(f for f in doc["findings"] if f["id"] == "G02")
    assert g02["title"].startswith("CPU bound: DB CPU 78.2 % of DB time") and g02["severity"] == "critical"
    assert any("cannot be told" in c for c in g02["caveats"])
    assert doc["metrics"]["host_cpu_busy_pct"]["value"] is None and doc["metrics"]["cpu_count"]["value"] is None


def test_a_run_queue_larger_than_any_event_is_the_headline(corpus):
    """sarthi2020 awr_rpt_4 (12.1.0.2, 12 CPUs on 3 cores): DB time 41,423.7 s, DB CPU 6,448.9 s, foreground waits
    11,620.1 s: 23,354.8 s (56.4 %) neither on CPU nor in a wait, with 10.4 processes in the run queue
    (OS_CPU_WAIT_TIME, line 290). The headline said 'Top of DB time: DB CPU 15.6 %' above a CRITICAL finding of
    the queue: the verdict and the ranked list disagreed."""
    doc = analyze_path(corpus / "awr_html_12102_sarthi2020_4.html")
    head, first = doc["verdict"]["top_of_db_time"], doc["findings"][0]
    assert head["title"] == "Top of DB time: waiting for CPU (run queue, neither CPU nor a wait) 56.4 %"
    assert first["id"] == "G10" and head["severity"] == first["severity"] == "critical"
    # the verdict is that first finding, on the list's scale
    assert doc["verdict"]["headline"]["id"] == "G10" and doc["verdict"]["headline"]["severity"] == "critical"


def test_a_segment_list_that_exceeds_the_instances_count_names_no_culprit(corpus):
    """sarthi2020 awr_rpt_2 (12.1.0.2): Segments by DB Blocks Changes prints SYS.USER$ at 868,480 (line 3394) where
    the instance counted 'db block changes 504,881' for the whole window (line 1322): a part above its whole."""
    r10 = observation(analyze_path(corpus / "awr_html_12102_sarthi2020_2.html"), "R10")
    assert r10["culprits"] == []
    assert r10["culprits_missing"].startswith("Segments by DB block changes prints SYS.USER$ at 868,480 (line 3394), "
                                              "more than the instance's 'db block changes' for the whole window, "
                                              "504,881 (line 1322)")


def test_an_11g_segment_share_is_of_the_instance_total(corpus):
    """xydb 36006 (11.2.0.4): 'Total Physical Reads: 257,651,379', T_ONLINE_USER 249,733,757 '%Total' 96.93: of all
    physical reads, not of the captured segments; 12c+ prints '% of Capture' (xydb 18346, 19c)."""
    g06 = next(f for f in analyze_path(corpus / "awr_html_11204_pcambell_xydb_36006_36007.html")["findings"]
               if f["id"] == "G06")
    seg = next(c for c in g06["culprits"] if c["kind"] == "segment")
    assert (seg["name"], seg["share_pct"], seg["share_of"]) == ("IDC_U_UNIAUTH.T_ONLINE_USER", 96.93, "all physical reads")
    g03 = finding(analyze_path(corpus / "awr_html_19c_rac_pcambell_xydb_18346_18347.html"), "G03")
    assert next(c for c in g03["culprits"] if c["kind"] == "segment")["share_of"] == "captured segments"


def test_rollbacks_with_nothing_to_undo_are_no_undo_pressure(corpus):
    """xydb 36006 (11.2.0.4): 'user rollbacks 21,003' beside 'user commits 70,777' (lines 1717-1718) is a 22.9 %
    rollback ratio, but 'rollback changes - undo records applied 261' (line 1925): 0.012 undo records a rollback.
    The application ends read-only work with a rollback: no undo is written, and R10 said 'UNDO write pressure:
    rollbacks 23 % of transactions'."""
    doc = analyze_path(corpus / "awr_html_11204_pcambell_xydb_36006_36007.html")
    assert abs(doc["metrics"]["undo_records_per_rollback"]["value"] - 261 / 21003) < 1e-12
    assert finding(doc, "R10") is None and observation(doc, "R10") is None


def test_the_commit_path_says_what_its_owner_claims_of_the_non_io_remainder(corpus):
    """zosia (11.2.0.1): log file sync 4.11 ms x 116,896 waits, LGWR 1.43 ms a write: a non-I/O remainder of 22.59 %
    of DB time, of which R02 claims 20.29 % (above the 0.2 ms every commit takes): the commit path line gave the one
    figure and R02's impact the other, for one quantity, without a word. Now the line gives every part per wait
    with its owner: I/O 1.5 x 1.4312 = 2.147 ms (1.5 ms healthy write R03, 0.647 ms slow R01), 0.2 ms posting (R03),
    and the 1.76 ms left CPU / scheduling (R02: the host 96 % busy), 1.76 ms x 116,896 = 205.7 s."""
    from awrscope.render.text import render_text

    text = render_text(analyze_path(corpus / "awr_html_11201_rbogusze_zosia_7_8.html"))
    assert ("non-I/O remainder 22.59 %; per wait: slow redo writes 0.647 ms -> R01, a redo write per commit 1.5 ms -> "
            "R03, posting each commit 0.2 ms -> R03, CPU / scheduling 1.76 ms -> R02") in text
    assert "impact 205.7 s = 20.29 % of DB time" in text


def test_commit_findings_name_the_statements_that_change_data(corpus):
    """A query neither changes nor commits anything. zosia's SQL ordered by Executions (TPC-C) lists 'SELECT I_PRICE,
    I_NAME, I_DATA...' first (line 1007); R02's culprits are its DML: UPDATE STOCK (line 1012), INSERT INTO
    ORDER_LINE (line 1022), UPDATE ORDERS (line 1027). dbcont03 lists ten queries only: R01 says so."""
    r02 = finding(analyze_path(corpus / "awr_html_11201_rbogusze_zosia_7_8.html"), "R02")
    assert [(c["name"], c["line"]) for c in r02["culprits"]] == [
        ("82tfppq8s0dc2", 1012), ("dqyz792jar7w0", 1022), ("2xf7pasj5qz0a", 1027)]
    doc = analyze_path(corpus / "awr_html_10204_radtek_orass1_dbcont03_46333_46339.html")
    r01 = finding(doc, "R01") or observation(doc, "R01")
    assert r01["culprits"] == []
    assert r01["culprits_missing"] == "SQL ordered by Executions lists only queries: no statement there changes data or commits"


def test_reads_that_bypass_the_buffer_cache_get_no_cache_advice(corpus):
    """xydb 36006: T_ONLINE_USER 249,733,757 physical reads (line 2984), 249,733,756 of them direct (Segments by Direct
    Physical Reads, line 3040): a KEEP pool or a larger cache would not hold them. xydb 36008: direct path read
    406.5 s of 1,173,705 waits (line 98) is 79 % of the read time beside 62.6 s of fast single-block reads (line 101):
    'Faster storage would gain little' was said of reads whose latency the single-block ones do not tell."""
    doc = analyze_path(corpus / "awr_html_11204_pcambell_xydb_36006_36007.html")
    g12 = next(f for f in doc["findings"] + doc["observations"] if f["id"] == "G12")
    assert "their reads are mostly direct" in g12["recommendation"] and "caching them" not in g12["recommendation"]
    doc = analyze_path(corpus / "awr_html_11204_pcambell_xydb_36008_36009.html")
    g06 = next(f for f in doc["annotations"] if f["id"] == "G06")
    assert g06["title"].endswith("; single-block reads fast (0.1 ms); most of it direct path read (79 % of the read time)")
    assert "Faster storage would gain little" not in g06["recommendation"]
    assert "a larger cache or a KEEP pool does not help them" in g06["recommendation"]


def test_a_resource_at_its_hard_limit_is_said(corpus):
    """dbcont04 (10.2.0.4) Resource Limit Stats: 'max_shared_servers 20 50 50 50' and 'processes 65 500 500 500':
    500 processes of 500 since the instance started, new connections refused (ORA-00020). gcs resources, which
    grow past their initial allocation, are not limits."""
    doc = analyze_path(corpus / "awr_html_10204_radtek_orass1_dbcont04_46526_46527.html")
    g16 = observation(doc, "G16")
    assert g16["title"] == ("Resource limits reached since the instance started: max_shared_servers 50 of 50, "
                            "processes 500 of 500")
    assert g16["impact"]["db_time_s"] == 0.0
    assert [(e["metric"], e["value"], e["note"]) for e in g16["evidence"]] == [
        ("maximum_utilization[max_shared_servers]", 50.0, "now 20"), ("maximum_utilization[processes]", 500.0, "now 65")]
    assert "ORA-00020" in g16["recommendation"]


def test_parse_errors_are_counted_in_the_hard_parses(corpus):
    """nb 110965 (10.2.0.4) Time Model lines 151-154: parse time elapsed 2,077.03 s, hard parse 2,016.16 s, failed
    parse 1,735.34 s: hard and failed add up past parse time, so a failed parse is counted in the hard parses. The
    hard part is mostly parse errors (33.0 % of DB time) beside 5 % of other hard parsing."""
    g08 = finding(analyze_path(corpus / "awr_html_10204_radtek-oraclescripts_nb_110965_111029.html"), "G08")
    assert g08["title"] == "Parsing 39.5 % of DB time: hard parses 38.4 %, mostly parse errors (33.0 %)"
    assert g08["recommendation"].startswith("Parsing costs 39.5 % of DB time, mostly parse errors: find the failing")
    # cdbsrc (19c): parse 237.62 s, hard 152.69 s of DB time 3,151.86 s (lines 206, 208, 216): the soft 84.93 s
    # (2.7 %) is a third of parsing, and is named beside the hard parses
    g08 = finding(analyze_path(corpus / "awr_html_19c_allenshepherd_cdbsrc_10364_10370.html"), "G08")
    assert f" Also soft parses ({100 * (237.62 - 152.69) / 3151.86:.1f} % of DB time): keep cursors open" in g08["recommendation"]


def test_instance_cpu_a_little_over_the_host_is_no_accounting_fault(corpus):
    """zosia: Instance CPU '%Busy CPU' 101.9 (line 123): the instance's and the host's counters are sampled apart, a
    few percent over is their noise; remik's 140.2 (its line 90) is not."""
    g02 = finding(analyze_path(corpus / "awr_html_11201_rbogusze_zosia_7_8.html"), "G02")
    assert not any("more than the host counted" in c for c in g02["caveats"])
    g02 = finding(analyze_path(corpus / "awr_txt_11204_rbogusze_remik_18_19.txt"), "G02")
    assert any(c.startswith("Instance CPU says this instance used 140 %") for c in g02["caveats"])


def test_a_pl_sql_call_named_as_a_culprit_says_it_holds_its_statements(corpus):
    """oracont01 (10.2.0.4) SQL ordered by CPU Time line 614: 15tpgkg8saw0g 'BEGIN PKG_LIVE_SYSTEM_DELIVERY...' 26,823 s
    of CPU, 71.73 % of DB time, beside the statements it may run (9fq63a8rvh33d 2,394 s, line 619): its time includes
    theirs, which the list does not say. It stays named (its own code may hold most of it), its measure says what
    it counts; the plain statements' measure does not change."""
    h = headline(analyze_path(corpus / "awr_html_10204_radtek_oracont_oracont01_21091_21094.html"))
    assert [(c["name"], c["measure"], c["value"], c["line"]) for c in h["culprits"][:2]] == [
        ("15tpgkg8saw0g", "CPU time (a PL/SQL call: with the statements it runs)", 26823.0, 614),
        ("9fq63a8rvh33d", "CPU time", 2394.0, 619)]


def test_a_cold_start_s_hard_parses_and_a_quiet_host_s_cpu_are_said_plainly(corpus):
    """dvk (19c, idle): started 20-Oct-24 19:40 (line 61), window from 19:51:14 (line 72); parse time elapsed 10.13 s,
    hard parse elapsed time 9.86 s of DB time 14.38 s (lines 272-273): 70.4 % and 68.6 %. The title read 'mostly hard
    parses (the instance started 11 min before the window) (67.9 %)' and the advice said the start twice. DB CPU
    12.76 s in 7,060 s on a host 4 % busy: 'check host CPU capacity' was advised for it."""
    doc = analyze_path(corpus / "awr_html_19c_lucky29011_dvk_idle.html")
    g08 = finding(doc, "G08")
    assert g08["title"] == ("Parsing 70.4 % of DB time, mostly hard parses (68.6 %); the instance started 11 min before "
                            "the window")
    assert g08["recommendation"].startswith("Parsing costs 70.4 % of DB time, mostly hard parses: the instance started "
                                            "11 min before the window, and hard parses of a cold shared pool fade")
    g02 = next(f for f in doc["annotations"] if f["id"] == "G02")
    assert g02["recommendation"].startswith("DB time is mostly CPU, but there is little of it: nothing to tune")
    assert "host CPU capacity" not in g02["recommendation"]


def test_commit_waits_from_the_number_of_commits_just_outside_r03_s_band_are_explained(corpus):
    """koral11 (11.2.0.3 Statspack, TPC-C in PL/SQL): log file sync 983,685 waits, 1,392 s (line 173) for 1,411,970
    user commits, 5,451.6 a second (line 2243): 0.697 waits per commit, just under R03's 0.7-1.3, as commits inside a
    PL/SQL call wait once per call. LGWR writes 123 s over 314,875 writes (lines 263, 2203): 0.391 ms. G15 said 'no
    commit rule's conditions held' and the commit path called its 11.7 % remainder 'too small to be a finding'.
    Now the commit causes claim all of it: 1.415 ms a wait = a healthy write 1.5 x 0.3906 = 0.586 ms and 0.2 ms of
    posting (R03: 983,685 x 0.786 ms = 773.1 s), and 0.629 ms of CPU / scheduling (R02: 3.6 % of DB time neither on
    CPU nor waiting on a host 84 % busy): 618.9 s. G15 names nothing of it; R03 says why a wait covers 1.4 commits."""
    doc = analyze_path(corpus / "statspack_txt_11203_rbogusze_koral11_rac_7_11.lst")
    assert finding(doc, "G15") is None
    r03, r02 = finding(doc, "R03"), finding(doc, "R02")
    assert r03["impact"]["db_time_s"] == pytest.approx(983685 * (1.5 * 0.3906 + 0.2) / 1000, rel=1e-3)
    assert r02["impact"]["db_time_s"] + r03["impact"]["db_time_s"] == pytest.approx(1392, rel=1e-3)
    assert any("0.697 log file sync waits per commit: commits inside a PL/SQL call wait once per call" in c
               for c in r03["caveats"])
    from awrscope.render.common import owner_note
    assert owner_note(doc, doc["commit_path"]) == ("per wait: a redo write per commit 0.586 ms -> R03, posting each "
                                                   "commit 0.2 ms -> R03, CPU / scheduling 0.629 ms -> R02")
    # insaas3: log file sync 260.5 ms is all I/O part (LGWR 216 ms, tier poor): the healthy 1.5 ms write the commits'
    # own, the other 259.0 ms the slow writes'
    doc = analyze_path(corpus / "awr_txt_12201_rbogusze_insaas3_4912_4913.txt")
    assert owner_note(doc, doc["commit_path"]) == ("per wait: slow redo writes 259 ms -> R01, a redo write per commit "
                                                   "1.5 ms -> R03")


def test_a_pl_sql_call_s_gets_hold_its_statements_too(corpus):
    """oracle 219-240 (8.1.7 Statspack) SQL ordered by Gets line 142: 1,036,892,880 gets, 27.5 %, of 'BEGIN
    "P_USERPROCS_EXECUTE"...', beside a query at 26.4 % (line 151) it may run: a call's gets include its statements'."""
    g02 = finding(analyze_path(corpus / "statspack_txt_81741_radtek-oraclescripts_oracle_219_240.lst"), "G02")
    assert [(c["line"], c["measure"]) for c in g02["culprits"]] == [
        (142, "buffer gets (a PL/SQL call: with the statements it runs)"),
        (146, "buffer gets (a PL/SQL call: with the statements it runs)"), (151, "buffer gets")]
