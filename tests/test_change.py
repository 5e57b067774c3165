"""What changed between two periods, on their ledgers: the change in DB time per second split over the leaves,
each into volume and latency (awrscope.change). Values checked by hand against the reports' printed lines."""
from __future__ import annotations

import pytest

from awrscope.change.compare import compare
from conftest import SEEDS, analyze_path, parse_path

PACHOT = SEEDS / "pachot_512_vs_4k_awrdiff.txt"


def _leaf(change: dict, name: str) -> dict:
    return next(c for c in change["contributions"] if c["name"] == name)


def test_seed_001_4k_redo_blocks_shorten_commits_more_than_the_load_lengthens_them():
    # Wait Events (compare period): 'log file sync  Commit  7,589.5  9,300.4  22.5  5,412.1  3,535.5  -34.7  2.36  1.26';
    # elapsed 301.556 s and 301.927 s (section titles); 'log file parallel write ... 0.61  0.23'
    ch = analyze_path(PACHOT)["change"]
    lfs = _leaf(ch, "log file sync")
    assert lfs["before_aas"] == pytest.approx(5412.1 / 301.556, rel=1e-3)  # 17.95 sessions in log file sync
    assert lfs["after_aas"] == pytest.approx(3535.5 / 301.927, rel=1e-3)  # 11.71
    r0, r1 = 7589.5, 9300.4
    a0, a1 = 5412.1 / 301.556 / r0, 3535.5 / 301.927 / r1  # seconds per wait: 2.36 and 1.26 ms
    assert lfs["volume_aas"] == pytest.approx((r1 - r0) * (a0 + a1) / 2, rel=2e-3)  # +3.1: 22.5 % more commits
    assert lfs["latency_aas"] == pytest.approx((a1 - a0) * (r0 + r1) / 2, rel=2e-3)  # -9.3: shorter waits dominate
    assert lfs["volume_aas"] + lfs["latency_aas"] == pytest.approx(lfs["delta_aas"], abs=1e-5)
    v = ch["verdict"]
    # the leaf by its net change (-16.5 % of the first period's DB time), then what it is made of, largest first;
    # the first period's DB time is the titles' 11,417.12 s / 301.556 s = 37.86 AAS: -9.337 / 37.86 = -24.66 %
    assert "-16.5 % log file sync: faster (2.36 → 1.26 ms per wait) -24.7 %, more waits (waits/s +22.5 %) +8.2 %" in v
    assert "LGWR writes (log file parallel write) 0.612 → 0.228 ms" in v  # three figures, to the microsecond
    assert "redo wastage ×15" in v and "redo block size 512 → 4,096 B" in v
    assert abs(ch["identity"]["residual_aas"]) < 1e-6


def test_antognini_pair_names_the_load_and_the_slower_reads_first(corpus):
    # Load Profile: Executes 1,083.6 -> 1,520.6 /s; Foreground Wait Events: db file sequential read avg 8.78 -> 12.1 ms
    doc = compare(parse_path(corpus / "awr_html_11203_antognini_top2_1830_1845.html"),
                  parse_path(corpus / "awr_html_11203_antognini_top2_1930_1945.html"))
    ch = doc["change"]
    v = ch["verdict"]
    assert v.startswith("DB time +96.7 % (7.1 → 14 average active sessions); load: executions/s +40.3 %")
    assert ("Largest changes (% of the first period's DB time): +74.3 % db file sequential read: more waits "
            "(waits/s +48.0 %) +40.7 %, slower (8.78 → 12.1 ms per wait) +33.5 %") in v
    assert doc["comparability"]["comparable"]


def test_varejo_change_names_backup_io_and_the_commit_path(corpus):
    doc = compare(parse_path(corpus / "awr_diff_html_11203_radtek_varejo_varejo1_8876_8878_vs_8880_8882.html"))
    v = doc["change"]["verdict"]
    assert "RMAN backup & recovery I/O ×1,125" in v
    # led by log file sync's net change, not by the read halves that cancel (-144 % and +142 % for a -2.5 % leaf)
    assert "Largest changes (% of the first period's DB time): +119.5 % log file sync: slower (51.2 → 886.0 ms per wait)" in v
    assert "LGWR writes (log file parallel write) 6.75 → 52.49 ms" in v
    # the load changed (12.3 -> 31 average active sessions): said as a note, not "not comparable"
    assert doc["comparability"]["comparable"] and any("very different load" in n for n in doc["comparability"]["notes"])


def test_every_compare_period_report_splits_its_change_exactly(corpus):
    seen = 0
    for p in sorted(corpus.glob("awr_diff_*")):
        ch = analyze_path(p).get("change")
        if ch is None:
            continue
        seen += 1
        total = sum(c["delta_aas"] for c in ch["contributions"])
        assert total == pytest.approx(ch["db_time_per_s"]["delta"], abs=1e-4 * max(1.0, ch["db_time_per_s"]["before"])), p.name
        for c in ch["contributions"]:
            if c["volume_aas"] is not None:
                assert c["volume_aas"] + c["latency_aas"] == pytest.approx(c["delta_aas"], abs=1e-5), (p.name, c["name"])
    assert seen >= 20


def test_antognini_sql_change_splits_the_top_statement(corpus):
    # SQL ordered by Elapsed Time: 82ud5h0qcg0bf 1,863.02 s / 124,882 executions (elapsed 901.8 s), then
    # 3,625.67 s / 176,182 executions (elapsed 903.0 s): 14.9 -> 20.6 ms per execution, executions +40.9 %
    doc = compare(parse_path(corpus / "awr_html_11203_antognini_top2_1830_1845.html"),
                  parse_path(corpus / "awr_html_11203_antognini_top2_1930_1945.html"))
    top = doc["sql_change"]["statements"][0]
    assert top["sql_id"] == "82ud5h0qcg0bf" and top["status"] == "in both top lists"
    assert top["delta_aas"] == pytest.approx(3625.67 / 903.0 - 1863.02 / 901.8, abs=1e-5)
    assert top["elapsed_per_exec_ms"] == [pytest.approx(1863020 / 124882), pytest.approx(3625670 / 176182)]
    assert top["volume_aas"] + top["latency_aas"] == pytest.approx(top["delta_aas"], abs=1e-5)
    from awrscope.render.text import compare_text
    assert "82ud5h0qcg0bf +1.95 AAS (in both top lists): executions/s +40.9 %, elapsed per execution 14.9 → 20.6 ms" \
        in compare_text(doc)


def _side(events: dict, metrics: dict, analysis_metrics: dict, params: dict | None = None, findings=()):
    """A compare side as compare.side builds it, reduced to what the what-if checks read."""
    from awrscope.model import Report, Row, make_section
    from awrscope.model import Header
    rep = Report(kind="awr", format="text", version=None, header=Header(), sections={}, issues=[])
    if params:
        rep.sections["init_parameters"] = make_section("init_parameters", "init.ora Parameters", 1, {},
                                                       [Row(k, i + 2, {}, {"begin": v, "end": v}) for i, (k, v) in enumerate(params.items())])
    return {"events": {f"fg:{k}": {"time_per_s": t, "waits_per_s": w} for k, (t, w) in events.items()},
            "metrics": {k: {"value": v} for k, v in metrics.items()},
            "analysis": {"metrics": {k: {"value": v} for k, v in analysis_metrics.items()}, "findings": list(findings)},
            "report": {"elapsed_s": 1000.0}, "parsed": rep}


def _finding(wid: str, lo: float, hi: float):
    return {"id": "RXX", "whatif": [{"id": wid, "title": "model", "result": {"saved_s": [lo, hi]}}]}


@pytest.mark.parametrize("wid,before,after,applied", [
    # W2 batching: log file sync waits per transaction 1.0 -> 0.2 (remedy shows), 0.5 s/s of lfs removed = 500 s
    ("W2", dict(events={"log file sync": (1.0, 100.0)}, metrics={"txn_per_s": 100.0}, am={}),
     dict(events={"log file sync": (0.5, 20.0)}, metrics={"txn_per_s": 100.0}, am={}), True),
    # W3 resize: redo per switch 1 MiB/s x 3600 / 60 = 60 MiB -> / 4 = 900 MiB
    ("W3", dict(events={"log file switch (checkpoint incomplete)": (0.5, 1.0)},
                metrics={"redo_Bps": 2**20, "log_switches_per_hour": 60.0}, am={}),
     dict(events={}, metrics={"redo_Bps": 2**20, "log_switches_per_hour": 4.0}, am={}), True),
    # W4 PGA: pga_aggregate_target 1G -> 4G
    ("W4", dict(events={"direct path write temp": (0.5, 50.0)}, metrics={}, am={}, params={"pga_aggregate_target": "1G"}),
     dict(events={"direct path write temp": (0.0, 0.0)}, metrics={}, am={}, params={"pga_aggregate_target": "4G"}), True),
    # W5 LGWR CPU: host 95 % -> 60 % busy
    ("W5", dict(events={"log file sync": (1.0, 100.0)}, metrics={}, am={"host_cpu_busy_pct": 95.0}),
     dict(events={"log file sync": (0.5, 100.0)}, metrics={}, am={"host_cpu_busy_pct": 60.0}), True),
    # W6 GTT: DBWR object drop buffers written 10,000 -> 0
    ("W6", dict(events={"local write wait": (0.5, 10.0)}, metrics={}, am={"drop_buffers_written": 10000.0}),
     dict(events={"local write wait": (0.0, 0.0)}, metrics={}, am={"drop_buffers_written": 0.0}), True),
    # W4 without any sign of a PGA change: not testable
    ("W4", dict(events={"direct path write temp": (0.5, 50.0)}, metrics={}, am={}, params={"pga_aggregate_target": "1G"}),
     dict(events={"direct path write temp": (0.1, 50.0)}, metrics={}, am={}, params={"pga_aggregate_target": "1G"}), False),
])
def test_every_what_if_is_checked_against_the_after_period(wid, before, after, applied):
    from awrscope.change.whatif_check import check_whatifs
    a = _side(before["events"], before["metrics"], before["am"], before.get("params"), [_finding(wid, 400.0, 500.0)])
    b = _side(after["events"], after["metrics"], after["am"], after.get("params"))
    (c,) = check_whatifs(a, b)
    assert c["id"] == wid and c["checked"] is applied
    if applied:
        assert c["measured"] == pytest.approx(500.0) and c["verdict"] == "held"
        tight = check_whatifs(_side(before["events"], before["metrics"], before["am"], before.get("params"),
                                    [_finding(wid, 10.0, 20.0)]), b)[0]
        assert tight["verdict"].startswith("did not hold: saved more than predicted")
    else:
        assert c["reason"].startswith("not testable because the AFTER period does not show the remedy (pga_aggregate_target 1G → 1G)")


def test_compare_period_text_report_reads_its_top_sql_comparison(corpus):
    # awr_diff_txt_11203_antognini_top2, "Top SQL Comparison by Elapsed Time" (line 268): DB time First 6,404.55 s,
    # Second 12,612.51 s; titles print Elapsed time 901.55 / 902.852 sec (the header says 15.0 min).
    # 82ud5h0qcg0bf (line 299): 29.1 % and 28.7 % of DB time, 124,882 and 176,182 executions, plans 1/ 1/ 1:
    # 0.291 x 6,404.55 / 901.55 = 2.0673 AAS -> 0.287 x 12,612.51 / 902.852 = 4.0093 AAS
    doc = compare(parse_path(corpus / "awr_diff_txt_11203_antognini_top2.txt"))
    assert doc["before"]["report"]["elapsed_s"] == 901.55 and doc["after"]["report"]["elapsed_s"] == 902.852
    sc = doc["sql_change"]
    assert sc["source"] == "Top SQL Comparison by Elapsed Time (line 268)"
    top = sc["statements"][0]
    assert top["sql_id"] == "82ud5h0qcg0bf" and top["lines"] == [299, 299] and top["plans"] == [1, 1, 1]
    assert top["before_aas"] == pytest.approx(0.291 * 6404.55 / 901.55, abs=1e-5)
    assert top["after_aas"] == pytest.approx(0.287 * 12612.51 / 902.852, abs=1e-5)
    assert top["elapsed_per_exec_ms"][0] == pytest.approx(1000 * 0.291 * 6404.55 / 124882)
    assert top["volume_aas"] + top["latency_aas"] == pytest.approx(top["delta_aas"], abs=1e-5)
    # 9bz9sa0abpc48 prints N/A for the 2nd period: 6.2 % of 6,404.55 s in the 1st only
    gone = next(s for s in sc["statements"] if s["sql_id"] == "9bz9sa0abpc48")
    assert gone["status"] == "left the top list" and gone["after_aas"] == 0.0
    # the same SQL change in analyze of the compare-period report
    assert analyze_path(corpus / "awr_diff_txt_11203_antognini_top2.txt")["sql_change"]["statements"][0]["sql_id"] \
        == "82ud5h0qcg0bf"


def test_compare_period_html_report_sql_change_in_every_output(corpus):
    # varejo compare-period HTML (line 670): DB time First 88,643.22 s, Second 223,152.44 s, both periods 120.1 min
    # (7,206 s). 39cnbc7dv8095: 15.58 % -> 2.30 %, 26 -> 8 executions, '#Plans 2/ 2/ 2'
    path = corpus / "awr_diff_html_11203_radtek_varejo_varejo1_8876_8878_vs_8880_8882.html"
    doc = compare(parse_path(path))
    top = doc["sql_change"]["statements"][0]
    assert top["sql_id"] == "39cnbc7dv8095" and top["plans"] == [2, 2, 2]
    assert top["delta_aas"] == pytest.approx(0.023 * 223152.44 / 7206 - 0.1558 * 88643.22 / 7206, abs=1e-5)
    # 2k1t73wy5krcs is blank in the 1st period, 3.24 % of the 2nd's DB time
    new = next(s for s in doc["sql_change"]["statements"] if s["sql_id"] == "2k1t73wy5krcs")
    assert new["status"] == "entered the top list" and new["after_aas"] == pytest.approx(0.0324 * 223152.44 / 7206, abs=1e-5)
    from awrscope.render.html import render_analysis, render_compare
    from awrscope.render.markdown import compare_markdown, render_markdown
    from awrscope.render.text import compare_text, render_text
    words = "-1.2 AAS (in both top lists): executions/s ÷3.2, elapsed per execution 531 → 642 s, 2 execution plans"
    assert f"39cnbc7dv8095 {words}" in compare_text(doc) and f"| `39cnbc7dv8095` | {words} |" in compare_markdown(doc)
    assert "<code>39cnbc7dv8095</code>" in render_compare(doc) and ">2/2/2<" in render_compare(doc)
    # analyze of the compare-period report says the same in every output
    a = analyze_path(path)
    assert f"39cnbc7dv8095 {words}" in render_text(a) and f"| `39cnbc7dv8095` | {words} |" in render_markdown(a)
    assert "From Top SQL Comparison by Elapsed Time (line 670)" in render_analysis(a)


def test_10g_compare_period_waits_are_itemised_from_their_share_of_db_time(corpus):
    # 10.2.0.4 compare-period HTML prints per event only '% DB Time', '# Waits/sec' and 'Avg Wait Time (ms)'.
    # Line 184: gc cr multi block request 2.30 -> 39.95 % of DB time, 69.25 -> 72.29 waits/s, 0.36 -> 9.65 ms;
    # Time Model (line 350): DB time 38,780.06 and 61,177.68 s; elapsed (header) 36,021.6 and 35,034.6 s
    doc = compare(parse_path(corpus / "awr_diff_html_10204_radtek_oradb1_base01_54450_54460_vs_55192_55202.html"))
    gc = _leaf(doc["change"], "gc cr multi block request")
    assert gc["before_aas"] == pytest.approx(0.0230 * 38780.06 / 36021.6, rel=1e-4)
    assert gc["after_aas"] == pytest.approx(0.3995 * 61177.68 / 35034.6, rel=1e-4)
    assert gc["avg_ms"][1] == pytest.approx(9.65, rel=0.01)
    assert "gc cr multi block request: slower (0.358 → 9.65 ms per wait)" in doc["change"]["verdict"]
    # the waits are itemised: what no leaf explains is a few % of DB time, not the 60 % it was
    rem = next(c for c in doc["change"]["contributions"] if c["kind"] == "remainder")
    assert abs(rem["before_aas"]) < 0.05 * doc["change"]["db_time_per_s"]["before"]
