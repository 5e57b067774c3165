"""The seed documents' report excerpts (tests/fixtures/seeds, transcribed by hand with
the printed numbers kept exactly) parse to the printed values in expected.json, which was
typed a second time, independently, from the seed documents."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from awrscope.parsers import parse_path
from awrscope.oracle.events import canonical_event

SEEDS = Path(__file__).parent / "fixtures" / "seeds"
EXPECTED = json.loads((SEEDS / "expected.json").read_text())

# expected.json key prefix -> (section keys to look in, field name mapping)
EVENT_FIELDS = {"waits": "waits", "time_s": "time_s", "avg_ms": "avg_wait_ms", "timeouts": "timeouts",
                "pct_timeouts": "pct_timeouts", "waits_per_txn": "waits_per_txn", "pct_db_time": "pct_db_time",
                "pct_bg_time": "pct_bg_time"}
TOP_PCT = ("pct_db_time", "pct_total_call_time", "pct_total_ela_time", "pct_total_wait_time")
LOAD_FIELDS = {"per_second": "per_second", "per_transaction": "per_transaction", "per_exec": "per_exec",
               "per_call": "per_call"}
TS_FIELDS = {"reads": "reads", "av_reads_per_s": "reads_per_s", "av_rd_ms": "read_ms", "av_blks_per_rd": "blocks_per_read",
             "writes": "writes", "av_writes_per_s": "writes_per_s", "buffer_waits": "buffer_waits",
             "av_buf_wt_ms": "buffer_wait_ms"}


def lookup(report, key: str):
    """The parsed value for an expected.json key, or KeyError if this key kind is not checked."""
    kind, _, rest = key.partition(":")
    if kind == "stat":
        return report.stat_total(rest)
    name, _, field = rest.rpartition(":")
    if kind in ("event", "bg_event"):
        keys = ("wait_events_bg",) if kind == "bg_event" else ("wait_events_fg", "wait_events")
        for k in keys:
            sec = report.sections.get(k)
            row = sec and (sec.row(name) or sec.row(canonical_event(name, len(name))))
            if row:
                return row.get(EVENT_FIELDS[field])
        return None
    if kind == "top":
        sec = report.sections["top_events"]
        row = sec.row(name) or sec.row(canonical_event(name, len(name)))
        if row is None:
            return None
        if field == "pct":
            return next((row.get(f) for f in TOP_PCT if row.get(f) is not None), None)
        return row.get(EVENT_FIELDS[field])
    if kind == "load":
        row = report.sections["load_profile"].row(name)
        return row.get(LOAD_FIELDS[field]) if row else None
    if kind == "tsio" and field in TS_FIELDS:
        row = report.sections["tablespace_io"].row(name)
        return row.get(TS_FIELDS[field]) if row else None
    raise KeyError(key)


CASES = [(f, k, v) for f, values in EXPECTED.items() if not f.startswith("pachot")
         for k, v in values.items() if isinstance(v, (int, float)) and k.split(":")[0] in
         ("stat", "event", "bg_event", "top", "load", "tsio")]


@pytest.mark.parametrize("fixture", sorted({f for f, _, _ in CASES}))
def test_seed_values(fixture):
    report = parse_path(str(SEEDS / fixture))[0]
    wrong = []
    checked = 0
    for f, key, expected in CASES:
        if f != fixture:
            continue
        try:
            got = lookup(report, key)
        except KeyError:
            continue
        checked += 1
        if got is None or abs(got - expected) > 1e-6 * max(1.0, abs(expected)):
            wrong.append(f"{key}: expected {expected}, parsed {got}")
    assert checked > 0
    assert wrong == []


def test_figure4_redo_statistics():
    # Ault Figure 4: the figures behind the 18.68 ms per redo write (spec F1)
    r = parse_path(str(SEEDS / "ault_fig4_awr_disk.txt"))[0]
    assert r.stat_total("redo write time") == 757_698
    assert r.stat_total("redo writes") == 405_691


def test_figure5_broken_elapsed_is_replaced_by_snapshot_times():
    r = parse_path(str(SEEDS / "ault_fig5_awr_write_accel.txt"))[0]
    assert r.header.elapsed_min == pytest.approx(0.28)  # printed '.28 (mins)'
    assert r.elapsed_s == pytest.approx(55 * 60 + 17)   # 15:21:45 -> 16:17:02
    assert any("disagrees with the snapshot times" in i.message for i in r.issues)
    assert r.stat_total("redo write time") == 55_447 and r.stat_total("redo writes") == 5_313_254


def test_closson_top5_both_runs():
    run1 = parse_path(str(SEEDS / "closson_run1_statspack.txt"))[0]
    lfs = run1.sections["top_events"].row("log file sync")
    assert (lfs.get("waits"), lfs.get("time_s"), lfs.get("avg_wait_ms"), lfs.get("pct_total_call_time")) == \
        (68_965, 1_117, 16, 64.6)
    ckpt = run1.sections["top_events"].row("log file switch (checkpoint incomplete)")
    assert ckpt.get("time_s") == 146 and ckpt.get("pct_total_call_time") == 8.4
    run2 = parse_path(str(SEEDS / "closson_run2_statspack.txt"))[0]
    assert run2.sections["load_profile"].row("Redo size").get("per_second") == 1_138_491.64
