"""When in the window the time went: the Activity Over Time an AWR report prints since 12.1, read by the ASH
mappers, drawn, and G17 when a peak holds most of the window's activity. Figures read by hand from the lines cited."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from awrscope.metrics.activity import Slot, busiest_span
from awrscope.model import Row
from awrscope.parsers import parse_path
from conftest import analyze_path, observation


def test_an_awr_text_report_s_activity_over_time_is_read(corpus):
    """insaas3 (12.2) lines 3509-3512: '17:03:33   (1.5 min)       32 db file sequential read  9  3.27', its two more
    events below it, then '17:05:00   (5.0 min)      109 log file parallel write  36 13.09'."""
    r, = parse_path(str(corpus / "awr_txt_12201_rbogusze_insaas3_4912_4913.txt"))
    slots = r.sections["ash_activity_over_time"].rows
    assert [(s.name, s.line, s.values["slot_count"], s.values["duration_s"]) for s in slots] == [
        ("17:03:33", 3509, 32.0, 90.0), ("17:05:00", 3512, 109.0, 300.0), ("17:10:00", 3515, 95.0, 300.0),
        ("17:15:00", 3518, 39.0, 240.0)]
    events = r.sections["ash_activity_events"].rows
    assert [(e.name, e.line, e.values["event_count"]) for e in events[:3]] == [
        ("db file sequential read", 3509, 9.0), ("CPU + Wait for CPU", 3510, 8.0), ("direct path write", 3511, 7.0)]


def test_a_peak_holding_most_of_the_activity_is_said(corpus):
    """sarthi2020_4 (12.1 HTML) Activity Over Time: 12 slots, 4,097 samples over 4.2 min + 11 x 5 min = 3,552 s;
    10:45 (5.0 min) 902 samples, line 4336, and 10:50 (5.0 min) 1,448, line 4339: 57.4 % of the samples in 16.9 %
    of the window, 3.4 times its average. DB time 41,423.71 s: 11.7 sessions active over the window, 39.6 during
    the peak. Its events: CPU + Wait for CPU 774 + 1,276, latch: shared pool 25 + 34, db file sequential read 24 + 38."""
    doc = analyze_path(corpus / "awr_html_12102_sarthi2020_4.html")
    g17 = observation(doc, "G17")
    assert g17["title"] == ("Activity peaked at 10:45-10:55: 57 % of the ASH samples in 10 min of 59 min "
                            "(3.4x the window's average)")
    assert g17["impact"]["db_time_s"] == 0.0
    assert [(e["value"], e["source"][0]["line"]) for e in g17["evidence"]] == [(902.0, 4336), (1448.0, 4339)]
    rec = g17["recommendation"]
    assert "about 39.6 sessions were active during 10:45-10:55 (10 min) against 11.7 over the window" in rec
    assert "CPU + Wait for CPU (2,050 samples); db file sequential read (62 samples); latch: shared pool (59 samples)" in rec
    assert "ashrpt.sql) from 10:45 for 10 min" in rec
    # the same slots, drawn: each slot's share of the samples times DB time over its duration
    slots = doc["ash_activity"]
    assert len(slots) == 12 and slots[4]["begin"].endswith("10:50:00")
    assert slots[4]["aas"] == pytest.approx(1448 / 4097 * 41423.71 / 300, abs=1e-3)


def test_no_peak_where_activity_is_even_or_light(corpus):
    """insaas3: 32, 109, 95, 39 samples over 1.5, 5, 5, 4 min: the busiest half lasts 6.5 of 15.5 min, no peak.
    cdbsrc (19c): the 35-minute slot 09:00 holds 70 of 136 samples, but 0.15 sessions were active in it: a light
    database's hour, not a load the averages hide."""
    assert observation(analyze_path(corpus / "awr_txt_12201_rbogusze_insaas3_4912_4913.txt"), "G17") is None
    doc = analyze_path(corpus / "awr_html_19c_allenshepherd_cdbsrc_10364_10370.html")
    assert observation(doc, "G17") is None


def test_a_slot_of_negative_duration_is_left_out(corpus):
    """cdbsrc line 2610: '06:00:37 (-1,837 secs)' with 79 samples, before the window's own first slot '06:00:37
    (4.4 min)': samples from outside the window. It is not drawn (it had a negative number of active sessions)."""
    rep, = parse_path(str(corpus / "awr_html_19c_allenshepherd_cdbsrc_10364_10370.html"))
    first = rep.sections["ash_activity_over_time"].rows[0]
    assert (first.line, first.values["slot_count"], first.values["duration_s"]) == (2610, 79.0, -1837.0)
    doc = analyze_path(corpus / "awr_html_19c_allenshepherd_cdbsrc_10364_10370.html")
    assert len(doc["ash_activity"]) == 10 and all(a["aas"] > 0 for a in doc["ash_activity"])
    assert doc["ash_activity"][0]["samples"] == 31


def _slots(spec):
    """Slots of (samples, duration, gap before it): Oracle prints no slot without samples, so slots need not touch."""
    out, at = [], 0.0
    for k, (count, duration, gap) in enumerate(spec):
        at += gap
        out.append(Slot(Row(f"s{k}", k + 1, {"slot_count": float(count), "duration_s": float(duration)}, {}), at,
                        float(duration), float(count), ()))
        at += duration
    return out


@given(st.lists(st.tuples(st.integers(0, 50), st.integers(1, 10), st.integers(0, 20)), min_size=1, max_size=12),
       st.sampled_from([0.25, 0.5, 0.75, 1.0]))
def test_the_busiest_span_is_the_shortest_holding_the_share(spec, share):
    """By the clock: a span's length runs from its first slot's start to its last slot's end, gaps included."""
    slots = _slots(spec)
    total = sum(c for c, _, _ in spec)
    got = busiest_span(slots, share)
    if total == 0:
        assert got is None
        return
    spans = [slots[j].end_s - slots[i].start_s for i in range(len(slots)) for j in range(i, len(slots))
             if sum(s.samples for s in slots[i:j + 1]) >= share * total]
    i, j = got
    assert sum(s.samples for s in slots[i:j + 1]) >= share * total
    assert slots[j].end_s - slots[i].start_s == min(spans)


def test_a_missing_slot_is_time_not_printed():
    """Oracle leaves a slot without samples out (eyko139 aims prints no 11:30, 11:40 or 11:50): two printed slots of
    5 minutes with 30 quiet minutes between them last 40 minutes, not 10. Of 42 samples, 20 + 20 there take 40
    minutes; 20 + 2 in the two slots that touch take 10: the half is there."""
    slots = _slots([(20, 300, 0), (20, 300, 1800), (2, 300, 0)])
    assert busiest_span(slots, 0.5) == (1, 2)
    assert slots[1].start_s - slots[0].end_s == 1800


def test_time_in_no_wait_and_on_no_cpu_is_said_with_ash_s_share(corpus):
    """SLOB (12.2, 96 CPU threads on 48 cores): DB time 82,096.4 s of which DB CPU 489.68 s (0.6 %) and printed waits
    26,366 s; 67.3 % is neither. The host was 0.39 % busy (line 316), SMT or not an idle host: no run queue. ASH's
    Activity Over Time saw 'CPU + Wait for CPU' in 559 + 1,317 + ... = 5,571 of 8,155 samples (68.3 %; first at line
    21753): the sessions were in no wait, yet not counted on CPU. It had said 'no OS statistics confirm a CPU queue'
    and sent the DBA to look at ASH, which the report prints."""
    doc = analyze_path(corpus / "awr_html_12201_slob_therealkevinc.html")
    g10 = next(f for f in doc["annotations"] if f["id"] == "G10")
    assert g10["title"] == "67.3 % of DB time is neither CPU nor a printed wait (the host was 0.39 % busy)"
    share = next(e for e in g10["evidence"] if e["metric"] == "ash_cpu_share")
    assert share["value"] == pytest.approx(100 * 5571 / 8155, abs=0.01) and share["source"][0]["line"] == 21753
    assert ("ASH saw the sessions on CPU or queued for it in at least 68 % of its samples (Activity Over Time), while "
            "DB CPU is 0.6 % of DB time") in g10["recommendation"]


def test_ash_s_cpu_is_quoted_only_beyond_db_cpu(corpus, tmp_path):
    """jasmin (12.2, AIX, 40 threads on 5 cores, host 3 % busy): DB CPU 31.1 % of DB time, 66.4 % neither CPU nor a
    wait; ASH's Activity Over Time saw 'CPU + Wait for CPU' in 285 of 292 samples (lines 4430-4448): 98 %, of which
    DB CPU explains a third. The same report with those counts cut to about a third (35 %) says no more than DB CPU
    does: ASH is then no evidence of sessions runnable off CPU."""
    import re

    src = corpus / "awr_txt_12201_aix_jasmin_bpsc_2668_2669.txt"
    g10 = next(f for f in analyze_path(src)["annotations"] if f["id"] == "G10")
    assert "ASH saw the sessions on CPU or queued for it in at least 98 % of its samples" in g10["recommendation"]
    lines = src.read_text(encoding="utf-8", errors="replace").split("\n")  # the report holds form feeds
    for k in range(4429, 4448):  # lines 4430-4448: the slots' CPU counts, their column kept
        lines[k] = re.sub(r"(CPU \+ Wait for CPU\s+?)(\s*\d+)(\s)",
                          lambda m: m[1] + str(round(int(m[2]) * 0.36)).rjust(len(m[2])) + m[3], lines[k])
    third = tmp_path / "jasmin_third.txt"
    third.write_text("\n".join(lines), encoding="utf-8")
    g10 = next(f for f in analyze_path(third)["annotations"] if f["id"] == "G10")
    assert "ASH saw" not in g10["recommendation"] and "check ASH for the sessions' states" in g10["recommendation"]


def test_the_gap_s_report_says_how_little_the_statements_hold(corpus):
    """exp (10.2.0.5, Streams): 70.8 % of DB time neither CPU nor a printed wait; the Time Model prints sql execute
    elapsed time 174,789.82 s (22.07 %, line 151) and PL/SQL execution 132,003.72 s (16.67 %, line 152) of DB time
    792,022.8 s: at least 61 % of DB time is in neither, which the annotation now says beside the gap."""
    doc = analyze_path(corpus / "awr_html_10205_radtek_exp_exp_56684_56690.html")
    g10 = next(f for f in doc["annotations"] if f["id"] == "G10")
    assert g10["recommendation"].endswith("The Time Model puts 22.1 % of DB time in SQL execution and 16.7 % in "
                                          "PL/SQL: at least 61 % of it is in neither.")
    assert [e["source"][0]["line"] for e in g10["evidence"] if "execut" in e["metric"]] == [151, 152]
