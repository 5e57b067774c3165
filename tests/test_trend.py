"""awrscope trend / fleet: time order, grouping by database, continuity, error rows, exit codes."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from click.testing import CliRunner
from conftest import SEEDS, parse_path

from awrscope.cli import main
from awrscope.change.trend import build, fleet, trend, windows_of

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
    # its statements' reads (G18, 45 % of DB time) and its redo writes at 442 ms (R01, 37 %) lead
    assert [f["id"] for f in doc["databases"][0]["top_findings"][:2]] == ["G18", "R01"]
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
    assert "skipped 9 files: 9 ASH/ADDM: a view of a window, not trended (addm_txt_19c_lucky29011_dvk.txt, " in res.stderr
    # issue 27: a window with >= 1 average active session and a cause of major or worse ranks among the worst windows,
    # ahead of every window whose findings claim nothing (the score is every cause's claim, not the write path's)
    loud = 0
    for d in doc["databases"]:
        t = d["trend"]
        rank = {k: i for i, k in enumerate(t["worst"])}
        quiet = [k for k, w in enumerate(t["windows"]) if not w["score"]]
        for k, w in enumerate(t["windows"]):
            if (w["values"].get("aas") or 0) >= 1 and any(f["severity"] in ("critical", "major") and f["role"] == "cause"
                                                          for f in w["findings"]):
                loud += 1
                assert w["score"] > 0 and all(rank[k] < rank[q] for q in quiet), (d["key"], k)
    assert loud >= 20


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


def test_db_time_by_wait_class_per_window(corpus):
    """Issue 17: DB time over time by wait class (average active sessions). Statspack 548-549, elapsed 15.00 min
    = 900 s: DB CPU 1,701.1 s -> 1.8901; User I/O = db file sequential read 4,560 + read by other session 27
    + the parallel and scattered reads printed as 0 in a section of whole seconds, 43 x 9 ms and 2 x 3 ms (lines
    120, 129) = 4,587.393 s -> 5.0971; Commit = log file sync 94 s -> 0.1044. The classes and CPU add up to the
    window's AAS (DB time 6,392.9 s / 900 = 7.1032) within the unprinted remainder."""
    [w] = _windows(corpus / "statspack_txt_11203_antognini_top2_1830_1845.txt")
    by = w["aas_by_class"]
    assert (by["CPU"], by["User I/O"], by["Commit"]) == (1.8901, 5.0971, 0.1044)
    assert abs(sum(by.values()) - w["values"]["aas"]) < 0.01 and "unaccounted" not in by


def test_time_axis_places_windows_at_their_times():
    """A 60-minute gap and a 102-day gap do not look the same; the year is labelled when the span crosses one."""
    from datetime import datetime, timedelta

    from awrscope.render.html.svg import TimeAxis

    t0 = datetime(2012, 12, 1, 10, 0)
    axis = TimeAxis(t0, t0 + timedelta(days=102, hours=2), 0, 1000)
    hour_gap = axis.x(t0 + timedelta(hours=2)) - axis.x(t0 + timedelta(hours=1))
    day_gap = axis.x(t0 + timedelta(days=102, hours=1)) - axis.x(t0 + timedelta(hours=1))
    assert day_gap > 2000 * hour_gap
    labels = [label for _, label in axis.ticks()]
    assert labels and all(label.startswith(("2012-", "2013-")) for label in labels)  # crosses into 2013
    short = TimeAxis(datetime(2014, 4, 23, 18, 30, 5), datetime(2014, 4, 23, 19, 45, 40), 0, 1000)
    assert [label for _, label in short.ticks()] == ["Apr 23 18:45", "19:00", "19:15", "19:30", "19:45"]


def test_trend_html_draws_activity_by_class_on_a_time_axis(corpus, tmp_path):
    out = tmp_path / "t.html"
    files = [str(corpus / f"statspack_txt_11203_antognini_top2_{t}.txt") for t in ("1830_1845", "1930_1945")]
    res = CliRunner().invoke(main, ["trend", *files, "-o", str(out)])
    assert res.exit_code == 0, res.output
    html = out.read_text()
    import re

    chart = html[html.index('data-chart="activity"'):]
    chart = chart[:chart.index("</svg>")]
    cpu = [float(v) for v in re.findall(r'data-class="CPU" data-value="([0-9.]+)"', chart)]
    assert cpu == [1.89, 3.215]  # one column per window, CPU at the bottom
    x = [float(v) for v in re.findall(r'<rect class="seg cpu" x="([0-9.]+)"', chart)[:2]]
    widths = [float(v) for v in re.findall(r'<rect class="seg cpu" x="[0-9.]+" y="[0-9.]+" width="([0-9.]+)"', chart)[:2]]
    assert x[1] - x[0] > 4 * widths[0]  # 18:30 and 19:30: a 45-minute gap after a 15-minute window


def test_begin_end_filters(corpus):
    """Issue 17: --begin/--end (pgBadger's -b/-e) keep the reports whose window overlaps the range. Antognini
    Statspack windows: 18:30:40-18:45:40 and 19:30:41-19:45:40 on 2014-04-23; a date alone ends at 23:59:59."""
    files = [str(corpus / f"statspack_txt_11203_antognini_top2_{t}.txt") for t in ("1830_1845", "1930_1945")]
    r = CliRunner()
    doc = json.loads(r.invoke(main, ["trend", *files, "--format", "json", "--begin", "2014-04-23 19:00"]).stdout)
    assert [w["begin_snap"] for w in doc["windows"]] == [552]
    doc = json.loads(r.invoke(main, ["trend", *files, "--format", "json", "--end", "2014-04-23 18:45"]).stdout)
    assert [w["begin_snap"] for w in doc["windows"]] == [548]  # overlaps: it began at 18:30:40
    doc = json.loads(r.invoke(main, ["trend", *files, "--format", "json", "--end", "2014-04-23"]).stdout)
    assert len(doc["windows"]) == 2
    res = r.invoke(main, ["analyze", *files, "--format", "json", "--begin", "2014-04-23 18:46", "--end", "2014-04-23 19:30"])
    assert res.exit_code == 2 and "left out 2 report(s) outside the range" in res.output
    res = r.invoke(main, ["analyze", *files, "--format", "json", "--begin", "2014-04-23 19:45:40"])
    assert res.exit_code == 0 and json.loads(res.stdout)["report"]["begin_snap"] == 552
    assert r.invoke(main, ["trend", *files, "--begin", "last week"]).exit_code == 2
