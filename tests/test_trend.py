"""awrscope trend / fleet: time order, grouping by database, continuity, error rows, exit codes."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner
from conftest import SEEDS, parse_path

from awrscope.cli import main
from awrscope.trend import build, fleet, trend, windows_of

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "docs/trend.schema.json").read_text())


def _windows(*paths):
    return [w for p in paths for w in windows_of(parse_path(p))]


def test_sarthi_consecutive_hours_in_time_order(corpus):
    # given in reverse order: the trend sorts by begin time. Headers: snaps 173494-173496 09:30:36-10:30:50,
    # 173496-173498 10:30:50-11:30:05: contiguous (end snap of one = begin snap of the next), no gap
    doc = trend(_windows(corpus / "awr_html_12102_sarthi2020_4.html", corpus / "awr_html_12102_sarthi2020_2.html"))
    jsonschema.validate(doc, SCHEMA)
    assert [(w["begin_snap"], w["end_snap"]) for w in doc["windows"]] == [(173494, 173496), (173496, 173498)]
    assert doc["database"]["key"] == "RECEIPT (1431238624)"
    assert doc["continuity"] == []
    # DB time from the Time Model: AAS 3.8 then 11.7 (Load Profile DB Time(s) per second 3.8 and 11.7)
    assert [round(a, 1) for a in doc["series"]["aas"]] == [3.8, 11.7]
    assert doc["worst"][0] in (0, 1) and len(doc["worst"]) == 2


def test_duplicates_and_diff_periods(corpus):
    # the Antognini 18:30-18:45 window as AWR text, AWR HTML and the diff report's first period: duplicates
    ws = _windows(corpus / "awr_txt_11203_antognini_top2_1830_1845.txt", corpus / "awr_html_11203_antognini_top2_1830_1845.html",
                  corpus / "awr_diff_txt_11203_antognini_top2.txt")
    doc = build(ws)
    jsonschema.validate(doc, SCHEMA)
    assert doc["kind"] == "trend" and len(doc["windows"]) == 4
    types = [c["type"] for c in doc["continuity"]]
    assert "duplicate" in types and "gap" in types  # 18:45 -> 19:30 is not covered


def test_gap_overlap_restart_synthetic():
    base = dict(path="x", note=None, kind="awr", format="text", version=None, db_name="DB", dbid=1, instance="db1",
                host=None, elapsed_s=3600.0, values={}, findings=[], score=0.0, restarted=False)
    w = [dict(base, begin_snap=1, end_snap=2, begin_time="2020-01-01 00:00:00", end_time="2020-01-01 01:00:00",
              startup_time="2019-12-01 00:00:00"),
         dict(base, begin_snap=3, end_snap=4, begin_time="2020-01-01 02:00:00", end_time="2020-01-01 03:00:00",
              startup_time="2019-12-01 00:00:00"),
         dict(base, begin_snap=4, end_snap=5, begin_time="2020-01-01 02:30:00", end_time="2020-01-01 04:00:00",
              startup_time="2020-01-01 02:20:00", restarted=True)]
    doc = trend(w)
    got = {(c["type"], tuple(c["windows"])) for c in doc["continuity"]}
    assert ("gap", (0, 1)) in got and ("overlap", (1, 2)) in got and ("restart", (1, 2)) in got and ("restart", (2,)) in got


def test_fleet_groups_by_database_worst_first(corpus):
    ws = _windows(corpus / "awr_txt_11203_slob_skoehler_100k_iops.txt", corpus / "awr_html_12102_sarthi2020_2.html",
                  corpus / "awr_html_12102_sarthi2020_4.html")
    doc = fleet(ws, [{"path": "bad.txt", "error": "bad.txt: not a report"}])
    jsonschema.validate(doc, SCHEMA)
    # SLOB: log buffer space 32.8 %, free buffer waits 17.2 %: it loses far more sessions to write-path findings
    assert [d["db_name"] for d in doc["databases"]] == ["SLOB", "RECEIPT"]
    assert doc["databases"][0]["top_findings"][0]["id"].startswith("R")
    assert doc["errors"] == [{"path": "bad.txt", "error": "bad.txt: not a report"}]


def test_cli_trend_corpus_directory(corpus):
    res = CliRunner().invoke(main, ["trend", "--format", "json", "-j", "2", str(corpus)])
    assert res.exit_code == 0  # every corpus file is usable; ASH/ADDM reports are skipped with a message (not windows)
    doc = json.loads(res.stdout)
    jsonschema.validate(doc, SCHEMA)
    assert doc["kind"] == "fleet" and len(doc["databases"]) >= 40
    keys = [d["key"] for d in doc["databases"]]
    assert len(keys) == len(set(keys))
    receipt = next(d for d in doc["databases"] if d["db_name"] == "RECEIPT")
    assert receipt["windows"] == 2 and [w["begin_snap"] for w in receipt["trend"]["windows"]] == [173494, 173496]
    assert doc["errors"] == []
    assert "ash_txt_11203_antognini_top2_1845_1900.txt: skipped: an ASH or ADDM report" in res.stderr


def test_cli_trend_exit_codes_and_formats(tmp_path):
    r = CliRunner()
    fig4, fig5 = str(SEEDS / "ault_fig4_awr_disk.txt"), str(SEEDS / "ault_fig5_awr_write_accel.txt")
    res = r.invoke(main, ["trend", fig4, fig5])
    assert res.exit_code == 0 and res.output.startswith("awrscope fleet: 2 databases")
    res = r.invoke(main, ["trend", "--format", "markdown", fig4])
    assert res.exit_code == 0 and res.output.startswith("# awrscope trend: AULTDB")
    bad = tmp_path / "bad.txt"
    bad.write_text("not a report\n")
    res = r.invoke(main, ["trend", "--format", "json", fig4, str(bad)])
    assert res.exit_code == 2
    doc = json.loads(res.stdout)
    assert doc["kind"] == "trend" and doc["errors"][0]["path"] == str(bad)
    assert r.invoke(main, ["trend", str(bad)]).exit_code == 2
    assert r.invoke(main, ["trend", str(tmp_path / "missing")]).exit_code == 2


def test_loader_keeps_input_order_and_error_rows(tmp_path, capsys):
    from awrscope.loader import load_many

    bad = tmp_path / "bad.txt"
    bad.write_text("not a report\n")
    paths = [str(SEEDS / "ault_fig4_awr_disk.txt"), str(bad), str(SEEDS / "ault_fig5_awr_write_accel.txt")]
    rows = load_many(paths, 10**8, workers=2, progress=True)
    assert [r[0] for r in rows] == paths
    assert rows[0][1].header.db_name == "AULTDB" and rows[1][1] is None and "not an AWR" in rows[1][2]
    err = capsys.readouterr().err
    assert "3/3 reports" in err  # the progress bar (only drawn when stderr is a terminal, unless forced)
