"""RAC global reports (awrgrpt): header, instances, database totals, per-instance rows."""
from __future__ import annotations

from datetime import datetime

import pytest

from awrscope.parsers import parse_path
from awrscope.serialize import parse_document

from _corpus import check_golden, corpus_file

S = "section"
DBU = "awr_global_html_19c_2inst_exadata_azurelab_dbu_6day.html"

# Read from the HTML source of the DBU report (line numbers in comments).
GOLDEN_DBU = {
    ("header", "db_name"): "DBU", ("header", "dbid"): 3128649325, ("header", "unique_name"): "APPDBU",
    ("header", "role"): "PRIMARY", ("header", "rac"): True, ("header", "cdb"): True,
    ("header", "version"): "19.0.0.0.0", ("header", "platform"): "Linux x86 64-bit",
    ("begin", "snap_id"): 15883, ("end", "snap_id"): 16027,
    ("begin", "time"): datetime(2023, 2, 15, 0, 0), ("end", "time"): datetime(2023, 2, 21, 0, 0),
    ("header", "db_time_min"): 58744.58, ("header", "elapsed_min"): 8640.20,  # Database Summary
    ("report", "db_time_s"): 3524674.62,  # line 189: Time Model Sum row
    (S, "time_model", "DB time", "time_s"): 3524674.62,
    (S, "time_model", "DB CPU", "time_s"): 2649792.00,
    (S, "time_model", "bg time", "time_s"): 1007054.34,
    (S, "top_events", "log file sync", "waits"): 144284822.0,  # line 294, I# = *
    (S, "top_events", "log file sync", "time_s"): 94974.41,
    (S, "top_events", "log file sync", "avg_wait_ms"): 0.65824,  # 658.24us
    (S, "top_events", "log file sync", "pct_db_time"): 2.69,
    (S, "top_events", "log file parallel write", "waits"): 192966355.0,  # line 296
    (S, "top_events", "DB CPU", "time_s"): 2649792.00,  # line 288
    (S, "wait_events_fg", "log file sync", "waits"): 144283478.0,  # line 444 (Global)
    (S, "wait_events_fg", "log file sync", "time_s"): 94973.20,
    (S, "wait_events_bg", "log file parallel write", "waits"): 192966357.0,  # line 673
    (S, "load_profile", "Redo Size (k)", "per_second"): 3200.95,  # line 1318: Sum, per second
    (S, "load_profile", "Txns", "per_second"): 282.99,
    (S, "instance_activity", "redo size", "total"): 1699237790460.0,  # line 2187
    (S, "instance_activity", "redo size", "per_second"): 3277776.33,
    (S, "instance_activity", "user commits", "total"): 146705516.0,  # line 2316
}


def test_golden_global_dbu():
    r = parse_path(str(corpus_file(DBU)))[0]
    assert r.kind == "awr_global"
    check_golden(r, GOLDEN_DBU)
    assert r.elapsed_s == pytest.approx(8640.20 * 60)
    insts = [(i.name, i.number, i.host) for i in r.header.instances]
    assert insts == [("DBU1", 1, "exa1-c1-node1"), ("DBU2", 2, "exa1-c1-node2")]  # lines 63-64


def test_per_instance_rows_carry_their_instance():
    r = parse_path(str(corpus_file(DBU)))[0]
    by_inst = r.sections["top_events_by_instance"]
    lfs = {row.text["instance"]: row for row in by_inst if row.name == "log file sync"}
    assert lfs["DBU1"].get("waits") == 75703155.0 and lfs["DBU1"].get("time_s") == 51112.76  # line 304
    assert lfs["DBU2"].get("waits") == 68581667.0 and lfs["DBU2"].get("time_s") == 43861.65  # line 314
    tm = {(row.name, row.text["instance"]): row.get("time_s") for row in r.sections["time_model_by_instance"]}
    assert tm[("DB time", "DBU1")] == 1748859.26 and tm[("DB time", "DBU2")] == 1775815.35  # lines 187-188
    assert "load_profile_by_instance" in r.sections
    doc = parse_document(r)
    assert doc["report"]["instance_names"] == ["DBU1", "DBU2"]


def test_single_instance_global_uses_its_rows_as_totals():
    r = parse_path(str(corpus_file("awr_global_html_11203_slob_skoehler_100k_iops.html.gz")))[0]
    assert r.header.db_name == "SLOB" and r.header.dbid == 3541062017
    assert r.sections["time_model"].row("DB time").get("time_s") == 38493.35
    assert r.sections["top_events"].row("db file sequential read").get("waits") == 21783346.0
    assert r.elapsed_s == pytest.approx(5.07 * 60) and r.db_time_s == 38493.35


def test_cluster_os_stats_wait_classes_and_iostat():
    """'OS Statistics By Instance', 'Foreground Wait Classes' and 'IOStat by
    Function' (instances as rows) give database totals and per-instance rows."""
    r = parse_path(str(corpus_file(DBU)))[0]
    os_stats = r.sections["os_stats"]
    assert os_stats.row("NUM_CPUS").get("value") == 56.0  # lines 166-167: 28 + 28
    assert os_stats.row("BUSY_TIME").get("value") == 481591290.0  # line 168: Sum 4,815,912.90 s, in cs
    assert os_stats.row("IDLE_TIME").get("value") == 2362610675.0  # 23,626,106.75 s
    per_inst = {(row.name, row.text["instance"]): row.get("value") for row in r.sections["os_stats_by_instance"]}
    assert per_inst[("BUSY_TIME", "DBU1")] == 241965470.0 and per_inst[("LOAD", "DBU1")] == 2.38  # line 166
    wc = r.sections["wait_classes"]  # line 248: Sum row, seconds; DB time 3,524,674.62
    assert wc.row("Commit").get("time_s") == 97634.74
    assert wc.row("Commit").get("pct_db_time") == pytest.approx(100 * 97634.74 / 3524674.62)
    assert wc.row("System I/O").get("time_s") == 8629.07  # printed 'Sys I/O'
    assert wc.row("DB CPU").get("time_s") == 2649792.00
    lgwr = r.sections["iostat_function"].row("LGWR")  # line 2492, I# = *
    assert (lgwr.get("write_reqs_per_s"), lgwr.get("write_mb_per_s")) == (376.95, 3.39)
    assert lgwr.get("avg_ms") == pytest.approx(0.58322)  # 583.22us
    by_inst = {row.text["instance"]: row for row in r.sections["iostat_function_by_instance"] if row.name == "LGWR"}
    assert by_inst["DBU1"].get("write_reqs_per_s") == 195.23  # line 2502


def test_11g_iostat_per_second_columns_by_function():
    """11.2 prints 'IOStat by Function (per Second)' with one column per
    function: 'Writes requests/sec' over 'LGWR' (line 1121, one instance)."""
    r = parse_path(str(corpus_file("awr_global_html_11203_slob_skoehler_100k_iops.html.gz")))[0]
    lgwr = r.sections["iostat_function"].row("LGWR")
    assert (lgwr.get("write_mb_per_s"), lgwr.get("write_reqs_per_s")) == (109.51, 112.91)
    assert r.sections["iostat_function"].row("DBWR").get("write_reqs_per_s") == 25840.68
    assert r.sections["os_stats"].row("BUSY_TIME").get("value") == 215217.0  # line 109: 2,152.17 s


def test_per_instance_breakdown(corpus):
    """Issue 17: a RAC global report's per-instance figures, checked against the DBW report's HTML: Time Model by
    instance line 188 (instance 2: DB time 17,489,834.26 s, DB CPU 15,087,258.22 s); Top Timed Events line 316
    (instance 2: log file sync 152,383,424 waits, 130,245.52 s, '854.72us' = 0.85472 ms); elapsed 10,079.92 min."""
    from awrscope.analysis import analyze

    doc = analyze(parse_path(corpus / "awr_global_html_19c_2inst_exadata_azurelab_dbw_7day.html")[0])
    [i2, i1] = doc["instances"]
    assert (i2["instance"], i2["db_time_s"], i2["db_cpu_s"], i2["line"]) == ("DBW2", 17489834.26, 15087258.22, 188)
    assert i1["instance"] == "DBW1" and i1["db_time_s"] == 16433862.08
    assert round(i2["aas"], 3) == round(17489834.26 / (10079.92 * 60), 3) == 28.919
    lfs = i2["log_file_sync"]
    assert (lfs["waits"], lfs["time_s"], round(lfs["avg_ms"], 5), lfs["line"]) == (152383424, 130245.52, 0.85472, 316)
    assert i1["log_file_sync"] is None  # not among instance 1's top events: not guessed
    assert round(i2["pct_of_cluster_db_time"] + i1["pct_of_cluster_db_time"], 6) == 100.0
    assert not i2["busiest"]  # 1.03x the mean: balanced (G13 does not fire either)
    assert "G13" not in {f["id"] for f in doc["observations"]}


def test_per_instance_table_in_the_html_report(corpus, tmp_path):
    from click.testing import CliRunner

    from awrscope.cli import main

    out = tmp_path / "g.html"
    res = CliRunner().invoke(main, ["analyze", str(corpus / "awr_global_html_19c_2inst_exadata_azurelab_dbw_7day.html"),
                                    "-o", str(out)])
    assert res.exit_code == 0, res.output
    page = out.read_text()
    table = page[page.index('class="instances"'):]
    table = table[:table.index("</table>")]
    assert table.index("DBW2") < table.index("DBW1") and "17,489,834" in table and "0.855" in table
