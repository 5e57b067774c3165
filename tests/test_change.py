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
    # the leaf by its net change (-16.5 % of the first period's DB time), then what it is made of, largest first
    assert "-16.5 % log file sync: faster (2.36 → 1.26 ms per wait) -24.6 %, more waits (waits/s +22.5 %) +8.2 %" in v
    assert "LGWR writes (log file parallel write) 0.61 → 0.23 ms" in v
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
