"""Compare-period reports (awrddrpt), HTML and text: two periods plus %Diff."""
from __future__ import annotations

from datetime import datetime

from awrscope.parsers import parse_path
from awrscope.parsers.report.diff_report import split_table
from awrscope.parsers.report.raw import RawTable
from awrscope.serialize import parse_document

from _corpus import check_golden, corpus_file
from conftest import analyze_path

S = "section"
HTML = "awr_diff_html_10204_radtek_oraaws_oraaws_16107_16130_vs_16083_16106.html"
TEXT = "awr_diff_txt_11203_antognini_top2.txt"

# Read from the HTML source (line numbers in comments): (first period, second period).
HTML_PERIODS = (
    {
        ("header", "db_name"): "ORAAWS", ("header", "dbid"): 3725737407, ("header", "version"): "10.2.0.4.0",
        ("begin", "snap_id"): 16107, ("end", "snap_id"): 16130,  # line 25
        ("begin", "time"): datetime(2012, 6, 21, 0, 0, 27),
        ("header", "elapsed_min"): 1380.28, ("header", "db_time_min"): 2665.12,
        (S, "load_profile", "Redo size", "per_second"): 154813.65,  # line 45
        (S, "load_profile", "Redo size", "per_transaction"): 59988.00,
        (S, "wait_events", "log file sync", "pct_db_time"): 7.09,  # line 116
        (S, "wait_events", "log file sync", "waits_per_s"): 3.35,
        (S, "wait_events", "log file sync", "avg_wait_ms"): 40.89,
        (S, "time_model", "DB time", "time_s"): 159907.27,  # line 225
        (S, "time_model", "DB CPU", "time_s"): 137513.25,
        (S, "top_events", "log file sync", "waits"): 277219.0,
        (S, "top_events", "log file sync", "time_s"): 11334.9,
        (S, "instance_activity", "redo size", "total"): 12821175388.0,  # line 783
        (S, "instance_activity", "redo size", "per_second"): 154813.65,
        (S, "instance_activity", "user commits", "total"): 213729.0,  # line 788
    },
    {
        ("header", "db_name"): "ORAAWS", ("begin", "snap_id"): 16083, ("end", "snap_id"): 16106,  # line 26
        ("header", "elapsed_min"): 1380.56, ("header", "db_time_min"): 2591.75,
        (S, "load_profile", "Redo size", "per_second"): 153870.96,
        (S, "wait_events", "log file sync", "avg_wait_ms"): 41.33,
        (S, "time_model", "DB time", "time_s"): 155505.22,
        (S, "top_events", "log file sync", "waits"): 272468.0,
        (S, "instance_activity", "redo size", "total"): 12745719972.0,
        (S, "instance_activity", "user commits", "total"): 217331.0,
    },
)


def test_golden_html_diff():
    r = parse_path(str(corpus_file(HTML)))[0]
    assert r.kind == "awr_diff" and r.format == "html" and len(r.periods) == 2
    for period, expected in zip(r.periods, HTML_PERIODS):
        check_golden(period, expected)
    assert r.header.db_name == "ORAAWS" and r.db_time_s == 159907.27 and r.elapsed_s == 1380.28 * 60
    lp = r.diff["load_profile"].row("Redo size")
    assert lp.get("per_sec_pct_diff") == -0.61 and lp.get("per_txn_pct_diff") == -2.24  # line 45
    assert r.diff["wait_events"].row("log file sync").get("avg_wait_time_ms_pct_diff") == 1.08  # line 116
    assert r.diff["time_model"].row("DB CPU").get("time_per_trans_seconds_pct_diff") == -4.69  # line 226
    doc = parse_document(r)
    assert len(doc["periods"]) == 2 and "load_profile" in doc["diff"]


def test_golden_text_diff():
    r = parse_path(str(corpus_file(TEXT)))[0]
    first, second = r.periods
    # text lines 7, 12-13, 'Workload Comparison', 'Top Timed Events', 'Wait Events'
    check_golden(first, {
        ("header", "dbid"): 2532911053, ("header", "version"): "11.2.0.3.0", ("header", "host"): "helicon",
        ("begin", "snap_id"): 1822, ("end", "snap_id"): 1823, ("begin", "time"): datetime(2014, 4, 23, 18, 30, 5),
        ("header", "elapsed_min"): 15.0, ("header", "db_time_min"): 106.7,
        (S, "load_profile", "Redo size", "per_second"): 393267.0,
        (S, "load_profile", "Redo size", "per_transaction"): 1931.8,
        (S, "top_events", "db file sequential read", "waits"): 521361.0,
        (S, "top_events", "db file sequential read", "time_s"): 4575.0,
        (S, "top_events", "db file sequential read", "pct_db_time"): 71.4,
        (S, "wait_events", "log file sync", "waits_per_s"): 202.7,
        (S, "time_model", "DB CPU", "time_s"): 1701.4,
    })
    check_golden(second, {
        ("begin", "snap_id"): 1826, ("end", "snap_id"): 1827, ("header", "db_time_min"): 210.2,
        (S, "load_profile", "Redo size", "per_second"): 552173.5,
        (S, "top_events", "db file sequential read", "waits"): 772553.0,
        (S, "top_events", "db file sequential read", "avg_wait_ms"): 12.1,
        (S, "wait_events", "log file sync", "waits_per_s"): 284.3,
        (S, "time_model", "DB CPU", "time_s"): 2876.5,
    })
    # no DB Name column in this report: the instance name stands in, with an issue saying so
    assert r.header.db_name == "DBM11203"
    assert any("no DB name" in i.message for i in r.issues)
    assert r.diff["load_profile"].row("Redo size:").get("per_sec_pct_diff") == 40.4


def test_split_table_column_groups_text_and_html():
    html = RawTable(["Event", "% DB Time 1st", "% DB Time 2nd", "% DB Time Diff"], [], 1,
                    [(2, ["log file sync", "7.09", "7.24", "0.15"])])
    text = RawTable(["Event", "1st", "% DB Time 2nd", "Diff"], [], 1, [(2, ["log file sync", "7.09", "7.24", "0.15"])])
    for t in (html, text):
        first, second, diff = split_table(t)
        assert first.columns == ["Event", "% DB Time"] and first.rows[0][1] == ["log file sync", "7.09"]
        assert second.rows[0][1] == ["log file sync", "7.24"]
        assert diff.columns == ["Event", "% DB Time Diff"] and diff.rows[0][1] == ["log file sync", "0.15"]
    halves = RawTable(["1st Event", "1st Waits", "2nd Event", "2nd Waits"], [], 1, [(2, ["a", "1", "b", "2"])])
    first, second, diff = split_table(halves)
    assert first.rows[0][1] == ["a", "1"] and second.rows[0][1] == ["b", "2"] and diff is None


def test_every_corpus_diff_report_has_two_periods():
    import csv
    from _corpus import CORPUS
    manifest = CORPUS.parent / "manifest.tsv"
    corpus_file("")  # skip or fail (CI) when the corpus is absent
    rows = [r for r in csv.DictReader(open(manifest, newline=""), delimiter="\t") if r["kind"].startswith("awr_diff")]
    assert len(rows) == 28
    for row in rows:
        r = parse_path(str(CORPUS / row["local_file"]))[0]
        assert len(r.periods) == 2 and r.header.db_name, row["local_file"]
        assert all(p.header.begin and p.header.begin.snap_id for p in r.periods), row["local_file"]


def test_a_periods_findings_do_not_ask_for_single_period_sections(corpus):
    """A compare-period report prints no 'SQL ordered by' or 'Segments by' lists per period: a period's finding
    said they were 'not printed in this report', as if a normal report had lost them. It says what the report
    holds instead, pointing at the statements that changed when the report compares them (antognini's text
    diff: 'Top SQL Comparison by Elapsed Time', line 268; radtek oraaws, 10.2, prints no comparison)."""
    for name, pointer in (("awr_diff_txt_11203_antognini_top2.txt", True),
                          ("awr_diff_html_10204_radtek_oraaws_oraaws_16107_16130_vs_16083_16106.html", False)):
        doc = analyze_path(corpus / name)
        said = [f.get("culprits_missing") for p in doc["periods"] for f in p["findings"] + p["observations"]
                if f.get("culprits_missing")]
        assert said and not any("not printed in this report" in s for s in said)
        assert all(s.startswith("a compare-period report lists no statements") for s in said)
        assert all(("'SQL that changed', above" in s) == pointer for s in said)
