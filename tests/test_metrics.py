"""Metric formulas against spec E fixtures (values checked by hand)."""
from __future__ import annotations

import pytest
from synth import report

from awrscope.metrics import BY_ID, CATALOG, derive, scalability
from awrscope.model import ParseIssue

REQUIRED = ["elapsed_s", "db_time_s", "aas", "db_cpu_s", "host_cpu_busy_pct", "redo_rate_Bps", "commit_rate", "txn_rate",
            "redo_per_commit_B", "redo_write_ms", "lfpw_ms_per_wait", "lfpw_ms_per_write", "lfpw_write_ratio",
            "redo_write_size_B", "redo_block_size_est", "redo_wastage_pct", "lfs_ms", "synch_ms", "lfs_lfpw_ratio",
            "non_io_residual_ms", "fg_wakeup_overhead_us", "log_switches_per_hour", "temp_io_share",
            "undo_block_write_share", "reuse_wait_share"]


def test_catalog_has_required_ids_with_units_and_formulas():
    for k in REQUIRED:
        assert k in BY_ID, k
        assert BY_ID[k].unit and BY_ID[k].formula
    assert len({m.number for m in CATALOG}) == len(CATALOG)


def test_every_required_metric_is_present_with_value_or_reason():
    m = derive(report())
    for k in REQUIRED:
        mv = m.get(k)
        assert mv is not None, k
        assert mv.value is not None or mv.reason in ("MISSING_INPUT", "OVERFLOW", "AMBIGUOUS_NAME", "LOW_PRECISION", "DIV_ZERO")


def test_f1_ault_disk_redo_write_ms_centiseconds():
    m = derive(report(stats={"redo write time": 757698, "redo writes": 405691}))
    assert m.v("redo_write_ms") == pytest.approx(18.677, abs=0.001)  # 10 * 757698 / 405691
    src = m["redo_write_ms"].sources
    assert {s.row for s in src} == {"redo write time", "redo writes"} and all(s.line for s in src)


def test_f2_ault_ssd_redo_write_ms():
    m = derive(report(stats={"redo write time": 55447, "redo writes": 5313254}))
    assert m.v("redo_write_ms") == pytest.approx(0.1044, abs=0.0001)


def test_usec_twin_preferred_over_centiseconds():
    m = derive(report(stats={"redo write time": 1, "redo write time (usec)": 12_345, "redo writes": 10}))
    assert m.v("redo_write_ms") == pytest.approx(1.2345)


def f3_report():
    return report(elapsed_s=361.8, db_time_s=8484.3,
                  fg={"log file sync": (3825, 1495, "Commit"), "db file sequential read": (20000, 3680, "User I/O")},
                  bg={"log file parallel write": (6962, 258)},
                  stats={"redo writes": 3483, "redo write time": 25792, "redo size": 20574124, "redo wastage": 933440,
                         "redo blocks written": 43463, "user commits": 8993, "redo synch writes": 6139,
                         "redo synch time": 151352},
                  os_stats={"BUSY_TIME": 11245, "IDLE_TIME": 62275, "NUM_CPUS": 2}, version="11.2.0.1.0")


def test_f3_awr_11201_sample():
    m = derive(f3_report())
    expect = {"aas": 23.45, "redo_write_ms": 74.05, "lfpw_ms_per_write": 74.07, "lfpw_ms_per_wait": 37.06,
              "lfpw_write_ratio": 2.0, "redo_wastage_pct": 4.34, "wastage_per_write_B": 268.0, "redo_write_size_B": 6175.0,
              "redo_per_commit_B": 2288.0, "commit_rate": 24.86, "commits_per_redo_write": 2.58, "synch_ms": 246.5,
              "lfs_ms": 390.8, "host_cpu_busy_pct": 15.3}
    for k, v in expect.items():
        assert m.v(k) == pytest.approx(v, rel=0.003), k
    assert m.v("redo_block_size_est") == 512
    assert "510.8" in m["redo_block_size_est"].note
    assert m.v("lfs_lfpw_ratio") == pytest.approx(390.8 / 74.07, rel=0.003)  # 5.3 (per write)
    assert m["lfpw_write_ratio"].note  # outside [0.8, 1.25] is flagged (P06)


def test_f4_19c_usec_synch_and_overhead():
    m = derive(report(stats={"redo synch time": 4, "redo synch time (usec)": 39461, "redo synch writes": 2,
                             "redo synch time overhead (usec)": 71}))
    assert m.v("synch_ms") == pytest.approx(19.73, abs=0.01)
    assert m.v("fg_wakeup_overhead_us") == pytest.approx(35.5)


def test_f12_kurtz_scalability():
    assert scalability(171, 232) == pytest.approx(0.474, abs=0.001)
    assert scalability(10, 40) == pytest.approx(-0.5)
    assert scalability(5, 5) == 1.0


def test_shares_use_foreground_time_statspack_all_minus_background():
    # Statspack/AWR 10g: 'Wait Events' is system-wide; FG = all - BG (M12)
    r = report(db_time_s=1000, all_events={"log file sync": (1000, 120), "log file parallel write": (900, 50)},
               bg={"log file sync": (10, 20), "log file parallel write": (900, 50)}, fg=None)
    m = derive(r)
    assert m.event_basis == "all-bg"
    assert m.fg_time("log file sync") == 100
    assert m.fg("log file parallel write") is None or m.fg_time("log file parallel write") == 0
    assert m.pct_db_time("log file sync") == pytest.approx(10.0)


def test_printed_total_call_time_is_not_used_for_shares():
    # printed %Total Call Time 39.8 but DB time gives 1487/4150.4 = 35.83 % (bpsc10 numbers, P07)
    r = report(elapsed_s=91.8, db_time_s=4150.4, all_events={"log file sync": (535402, 1487)}, bg={},
               top={"log file sync": (535402, 1487, 39.8)})
    m = derive(r)
    assert m.v("pct_db_time[log file sync]") == pytest.approx(35.83, abs=0.01)


def test_zero_division_and_missing_reasons():
    m = derive(report(stats={"redo writes": 0, "redo write time": 5}))
    assert m.v("redo_write_ms") is None and m["redo_write_ms"].reason == "DIV_ZERO"
    m = derive(report(stats={}))
    assert m["redo_rate_Bps"].reason == "MISSING_INPUT"


def test_estimated_db_time_lowers_confidence():
    issue = ParseIssue("info", None, None, "no DB time in this report (Statspack before 10g): db_time_s is estimated as ...")
    m = derive(report(issues=[issue]))
    assert m.db_time_confidence == "low" and m["db_time_s"].low_precision


def test_truncated_idle_event_is_excluded():
    m = derive(report(fg={"Streams AQ: qmn slave idle w": (10, 500), "db file sequential read": (10, 100)}))
    assert m.fg("Streams AQ: qmn slave idle w") is None


def test_log_switches_and_recommended_size():
    m = derive(report(elapsed_s=3600, stats={"redo size": 3.6e9, "redo wastage": 0}, switches_per_hour=30))
    assert m.v("log_switches_per_hour") == 30 and m.v("minutes_between_switches") == 2
    assert m.v("redo_rate_Bps") == 1e6
    assert m.v("recommended_log_size_B") == pytest.approx(1e6 * 60 * 20 * 1.5)
    assert m.v("est_log_size_B") == pytest.approx(3.6e9 / 30)
    # one switch an hour: a log holds 60 minutes of the average redo, more than the 30 asked: no size from it
    m = derive(report(elapsed_s=7200, stats={"redo size": 3.6e9, "redo wastage": 0}, switches_per_hour=1))
    assert m.v("est_log_size_B") == pytest.approx(1.8e9)
    assert m.v("recommended_log_size_B") is None and m["recommended_log_size_B"].reason == "NOT_A_PEAK"


def test_undo_share_from_stat_then_tablespaces():
    m = derive(report(stats={"DBWR undo block writes": 437496, "physical writes": 470884}))
    assert m.v("undo_block_write_share") == pytest.approx(92.91, abs=0.01)  # Ault Fig 11-19
    m = derive(report(tablespaces={"UNDOTBS1": (1397, 597086), "DATA": (60211, 9121), "TEMP": (0, 81)}))
    assert m.v("undo_block_write_share") == pytest.approx(100 * 597086 / (597086 + 9121 + 81), rel=1e-6)


def test_precision_gate_prefers_stat_based_lgwr_latency():
    # LFPW total printed as 1 s (+-0.5 s): redo write time (cs) is the precise source (P05)
    from awrscope.metrics import lgwr_latency
    m = derive(report(bg={"log file parallel write": (10000, 1)}, stats={"redo writes": 10000, "redo write time": 700}))
    assert m["lfpw_ms_per_write"].low_precision
    assert lgwr_latency(m) == (pytest.approx(0.7), "redo_write_ms")


def test_a_row_name_cut_short_finds_its_row_only_when_one_row_begins_with_it():
    """Text reports cut long names at their column ('control file sequential re'): the cut name finds the one row
    it begins, never one of two, never by fewer than 10 characters, never a row of another spelling's key."""
    from awrscope.model import Row, make_section

    rows = [Row("control file sequential read", 1, {}, {}), Row("control file parallel write", 2, {}, {}),
            Row("db file sequential read", 3, {}, {}), Row("db file scattered read", 4, {}, {}),
            Row("log file sync", 5, {}, {}), Row("=odd name with an equals sign", 6, {}, {})]
    s = make_section("wait_events", "Wait Events", 1, {}, rows)
    assert s.row("control file sequential re").line == 1
    assert s.row("Control  File Parallel").line == 2  # case and spaces as normalise_name has them
    assert s.row("db file s") is None  # 9 characters: too short to stand for a row
    assert s.row("db file sc").line == 4
    assert s.row("db file se").line == 3
    assert s.row("control file") is None  # begins two rows
    assert s.row("log file sync").line == 5  # whole names first
    assert s.row("=odd name with") is None  # the exact-case keys ('=' + name) are never prefixes
    assert s.row("zzzzzzzzzzzz") is None and s.row("aaaaaaaaaaaa") is None  # past either end of the names
