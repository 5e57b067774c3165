"""The one display-number formatter (numfmt.py): numbers as a DBA writes them (issue 41)."""
from __future__ import annotations

import pytest

from awrscope.numfmt import decimals_for, fmt_num, fmt_value, plain_number


@pytest.mark.parametrize("v,unit,text", [
    # float noise never reaches a reader
    (326.40000000000003, "", "326.4"), (326.40000000000003, "s", "326.4 s"), (0.1 + 0.2, "", "0.3"),
    # milliseconds: three significant figures, at most to the microsecond
    (12.804474, "ms", "12.8 ms"), (0.0947, "ms", "0.095 ms"), (0.97, "ms", "0.97 ms"), (2465.29, "ms", "2,465.3 ms"),
    (0.0004, "ms", "<0.001 ms"),
    # shares of DB time, active sessions, seconds, rates: at most two decimals
    (55.34, "%", "55.34 %"), (0.0212, "%", "0.02 %"), (0.00247, "%", "<0.01 %"), (0.00015, "%", "<0.01 %"),
    (0.0134, "sessions", "0.01 sessions"), (13.97, "sessions", "14 sessions"), (45.21, "sessions", "45.2 sessions"),
    (7.1, "sessions", "7.1 sessions"), (0.0816, "s", "0.08 s"), (0.0608, "1/s", "0.06/s"),
    (2.9, "1/h", "2.9/h"), (0.0377, "MiB/s", "0.04 MiB/s"),
    # a bare ratio keeps three decimals at most
    (0.0039, "", "0.004"), (0.000124, "", "<0.001"), (-0.000124, "", ">-0.001"), (0.111, "", "0.111"),
    # whole numbers and large ones
    (7, "", "7"), (182738.0, "", "182,738"), (1054.04, "ms", "1,054 ms"), (5255.02, "s", "5,255 s"), (54220.6, "s", "54,220.6 s"), (1.2e7, "", "12,000,000"),
    (0, "%", "0 %"), (-0.0, "", "0"), (-1.47, "", "-1.47"), (-0.0588, "", "-0.059"),
    # bytes scale to KiB / MiB / GiB
    (512, "B", "512 B"), (5 * 2**20, "B", "5 MiB"), (3.5 * 2**30, "B/s", "3.5 GiB/s"), (20480, "B", "20 KiB"),
])
def test_fmt_num(v, unit, text):
    assert fmt_num(v, unit) == text


def test_missing_and_non_numbers():
    assert fmt_num(None) == "n/a" and fmt_num(None, "ms", none="-") == "-"
    assert fmt_num("12 ms") == "12 ms" and fmt_num(True) == "True"
    assert plain_number(float("inf")) == "inf"
    assert fmt_value(None) == "n/a" and fmt_value(0.0947, "ms") == "0.095" and fmt_value(3, "count") == "3"


def test_decimals_per_unit():
    assert decimals_for("ms") == 3 and decimals_for("%") == 2 and decimals_for("s") == 2
    assert decimals_for(None) == decimals_for("") == decimals_for("ratio") == 3


@pytest.mark.parametrize("v", [1e-9, 3.3e-5, 0.00049, 0.0123456, 0.123456, 1.23456, 12.3456, 123.456, 1234.56,
                               12345.678, 0.999999, 99.99999, -0.0123456, -12.3456])
@pytest.mark.parametrize("unit", ["", "ms", "s", "%", "sessions", "1/s", "MiB/s", "ratio", "count"])
def test_never_more_decimals_than_the_unit_needs(v, unit):
    text = plain_number(v, unit)
    decimals = len(text.split(".")[1]) if "." in text else 0
    assert decimals <= decimals_for(unit), text
    assert "e" not in text.lower(), text  # no scientific notation for a reader
    if not text.startswith(("<", ">")):
        # what is shown is the value rounded, not another one
        assert float(text.replace(",", "")) == pytest.approx(v, rel=0.01, abs=0.5 * 10 ** -decimals_for(unit))


# --- the labels and references that carry numbers -----------------------------------------------------------------

from awrscope.render.common import source_lines, time_span, unit_of, window_label  # noqa: E402


@pytest.mark.parametrize("begin,end,text", [
    ("2023-12-23 04:00:12", "2023-12-23 05:00:40", "2023-12-23 04:00..05:00"),
    # across midnight the end keeps its date: '05:59..04:00' reads as a window that ends before it began
    ("2023-12-23 05:59:00", "2023-12-24 04:00:00", "2023-12-23 05:59..2023-12-24 04:00"),
    ("2023-12-31 23:00:00", "2024-01-01 00:00:00", "2023-12-31 23:00..2024-01-01 00:00"),
    ("2023-12-23 05:59:00", None, "2023-12-23 05:59..?"), (None, "2023-12-24 04:00:00", "?..2023-12-24 04:00"),
])
def test_time_span_keeps_the_end_date_across_midnight(begin, end, text):
    assert time_span(begin, end) == text


def test_trend_window_label_across_midnight():
    w = {"begin_time": "2023-12-23 05:59:03", "end_time": "2023-12-24 04:00:01", "instance": "PROD1",
         "begin_snap": 101, "end_snap": 123}
    assert window_label(w) == "2023-12-23 05:59..2023-12-24 04:00 PROD1 snaps 101-123"
    assert window_label(dict(w, end_time="2023-12-23 07:00:00")) == "2023-12-23 05:59..07:00 PROD1 snaps 101-123"


def test_an_evidence_cites_each_report_line_once():
    # a wait's count and its time come from one row: one link, both figures in its title
    src = [{"section": "wait_events_fg", "row": "log file sync", "field": "waits", "line": 174, "value": 182738.0},
           {"section": "wait_events_fg", "row": "log file sync", "field": "time_s", "line": 174, "value": 326.40000000000003},
           {"section": "time_model", "row": "DB time", "field": "time_s", "line": 90, "value": 6404.5},
           {"section": "wait_events_fg", "row": "log file sync", "field": "avg_ms", "line": 174, "value": 1.7862},
           {"section": "key_metric", "row": "x", "field": "v", "line": None, "value": 1.0},
           {"section": "key_metric", "row": "y", "field": "v", "line": None, "value": 2.0}]
    got = source_lines(src)
    assert [(s["section"], s["line"]) for s in got] == [("wait_events_fg", 174), ("time_model", 90),
                                                        ("key_metric", None), ("key_metric", None)]
    assert got[0]["title"] == ("wait_events_fg / log file sync / waits = 182,738; log file sync / time_s = 326.4; "
                               "log file sync / avg_ms = 1.79")


@pytest.mark.parametrize("key,unit", [("lfs_ms_after", "ms"), ("lfs_ms_at_alpha", "ms"), ("saved_s", "s"),
                                      ("pct_db_time_saved", "%"), ("max_redo_writes_per_s_per_lgwr", "1/s"),
                                      ("lgwr_utilisation", ""), ("lfs_waits_after", ""), ("switches_per_hour_after", "")])
def test_unit_of_a_result_key(key, unit):
    assert unit_of(key) == unit
