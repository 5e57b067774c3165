"""awrscope compare: the acceptance cases of issue 5, with the values computed by hand
from the fixture text (see each comment)."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import SEEDS, parse_path

from awrscope.cli import main
from awrscope.change.compare import compare, scalability

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "docs/compare.schema.json").read_text())
PACHOT = SEEDS / "pachot_512_vs_4k_awrdiff.txt"
CLOSSON1, CLOSSON2 = SEEDS / "closson_run1_statspack.txt", SEEDS / "closson_run2_statspack.txt"
FIG4, FIG5 = SEEDS / "ault_fig4_awr_disk.txt", SEEDS / "ault_fig5_awr_write_accel.txt"


def test_seed001_pachot_compare_period():
    doc = compare(parse_path(PACHOT))
    jsonschema.validate(doc, SCHEMA)
    assert doc["kind"] == "compare" and doc["mode"] == "compare-period report"
    m = doc["metrics"]
    # elapsed: the diff report's header has no times; redo size 18,644,947,688 / 61,829,138.5 per s = 301.556 s
    # (the section titles print "Elapsed time: 301.556 sec")
    assert doc["before"]["report"]["elapsed_s"] == pytest.approx(301.556, abs=0.01)
    assert doc["after"]["report"]["elapsed_s"] == pytest.approx(301.927, abs=0.01)
    # log file sync: printed averages 2.36 -> 1.26 ms (rounding 0.2 % <= 2.5 %): (1.26-2.36)/2.36 = -46.6 %
    assert (m["lfs_ms"]["before"], m["lfs_ms"]["after"]) == (2.36, 1.26)
    assert m["lfs_ms"]["pct"] == pytest.approx(-46.61, abs=0.01)
    # log file parallel write: 0.61 -> 0.23 ms: (0.23-0.61)/0.61 = -62.3 %
    assert (m["lfpw_ms"]["before"], m["lfpw_ms"]["after"]) == (0.61, 0.23)
    assert m["lfpw_ms"]["pct"] == pytest.approx(-62.30, abs=0.01)
    # transactions/s from the Workload Comparison: 10,911.0 -> 13,486.4 = +23.60 %
    assert m["txn_per_s"]["pct"] == pytest.approx(23.604, abs=0.001)
    # redo wastage per second 593,830.9 -> 8,955,357.7 = x15.08
    assert m["redo_wastage_Bps"]["ratio"] == pytest.approx(15.08, abs=0.01)
    assert doc["effect"][:2] == ["log file sync 2.36 → 1.26 ms (−47 %)", "log file parallel write 0.61 → 0.23 ms (−62 %)"]
    assert "transactions/s +23.6 %" in doc["effect"] and doc["effect"][-1] == "at the price of redo wastage ×15"
    assert doc["comparability"]["comparable"] is True
    # W1 replayed with the achieved latency: L = 1000*225.1/368,330 = 0.6111 ms, L' = 1000*148.1/649,751 = 0.2279 ms,
    # LFS' = a*L' + (2.36 - a*L): a=1 -> 1.977, a=2 -> 1.594 ms; measured 1.26 ms is 0.334 ms below: model conservative
    w1 = [w for w in doc["whatif_checks"] if w["checked"] and w["id"] == "W1"][-1]
    assert w1["predicted"] == [pytest.approx(1.594, abs=0.002), pytest.approx(1.977, abs=0.002)]
    assert w1["measured"] == 1.26 and w1["error"] == pytest.approx(-0.334, abs=0.002)
    assert w1["verdict"].startswith("better than predicted")
    # per transaction: redo per txn 61,829,138.5/10,911.0 = 5,666.7 B -> 76,420,493.9/13,486.4 = 5,666.5 B
    assert m["redo_Bps"]["per_txn"]["before"] == pytest.approx(5666.68, abs=0.01)


def test_seed003_closson_run1_vs_run2():
    doc = compare(parse_path(CLOSSON1), parse_path(CLOSSON2))
    jsonschema.validate(doc, SCHEMA)
    m = doc["metrics"]
    # printed averages 16 and 2 ms round by 3 % and 25 %; time/waits is finer:
    # 1,117 s / 68,965 = 16.197 ms -> 143 s / 93,100 = 1.536 ms: -90.5 %
    assert m["lfs_ms"]["before"] == pytest.approx(16.197, abs=0.001)
    assert m["lfs_ms"]["after"] == pytest.approx(1.536, abs=0.001)
    assert doc["effect"][0] == "log file sync 16.2 → 1.54 ms (−91 %, 11× lower)"
    # log file sync share of call time: 64.6 % -> 6.0 %
    assert m["lfs_pct_db_time"]["before"] == pytest.approx(64.6, abs=0.1)
    # run 1's checkpoint-incomplete finding (146 s, 8.4 %) is gone in run 2
    r04 = next(f for f in doc["findings"] if f["id"] == "R04")
    assert r04["status"] == "disappeared"
    # no elapsed time in the excerpts: flagged, never guessed
    assert not doc["comparability"]["comparable"]
    assert any("elapsed time unknown" in w for w in doc["comparability"]["warnings"])


def test_seed000_ault_fig4_vs_fig5():
    doc = compare(parse_path(FIG4), parse_path(FIG5))
    jsonschema.validate(doc, SCHEMA)
    m = doc["metrics"]
    # per-write redo latency from the statistics: 10 * 757,698 cs / 405,691 writes = 18.677 ms,
    # 10 * 55,447 / 5,313,254 = 0.10436 ms; ratio 18.677 / 0.10436 = 179.0
    assert m["redo_write_ms"]["before"] == pytest.approx(18.677, abs=0.001)
    assert m["redo_write_ms"]["after"] == pytest.approx(0.10436, abs=0.00001)
    assert 1 / m["redo_write_ms"]["ratio"] == pytest.approx(179.0, abs=0.1)
    assert any("0.104 ms (−99 %, 179× lower)" in s for s in doc["effect"])
    # Load Profile Transactions: 639.6 -> 1,615.4 per second
    assert (m["txn_per_s"]["before"], m["txn_per_s"]["after"]) == (639.6, 1615.4)
    # Fig 5's header prints Elapsed .28 (mins): the parser's snapshot/statistics time (3,317 s) is used
    assert doc["after"]["report"]["elapsed_s"] == pytest.approx(3317, rel=0.01)
    # two different systems (AULTDB disk, TMSORCL write accelerator) at different loads
    warnings = " ".join(doc["comparability"]["warnings"])
    assert "AULTDB vs TMSORCL" in warnings and "very different load" in " ".join(doc["comparability"]["notes"])


def test_scalability_m103():
    # seed 002 (Kurtz): t5 = 171 s, t10 = 232 s -> s = 2*171/232 - 1 = 0.4741; t5 = 10, t10 = 40 -> -0.5
    assert scalability(171, 232, 5, 10) == pytest.approx(0.4741, abs=0.0001)
    assert scalability(10, 40, 5, 10) == pytest.approx(-0.5)
    assert scalability(100, 100, 1, 4) == pytest.approx(1.0) and scalability(100, 400, 1, 4) == pytest.approx(0.0)
    res = CliRunner().invoke(main, ["compare", "--format", "json", "--streams", "10,5", "--run-elapsed", "232,171",
                                    str(CLOSSON1), str(CLOSSON2)])
    assert res.exit_code == 0, res.output
    s = json.loads(res.output)["scalability"]
    assert s["streams"] == [5, 10] and s["elapsed_s"] == [171, 232] and s["s"] == pytest.approx(0.4741, abs=0.0001)


def test_cli_formats_and_exit_codes(tmp_path):
    r = CliRunner()
    res = r.invoke(main, ["compare", str(PACHOT)])
    assert res.exit_code == 0 and "Effect: log file sync 2.36 → 1.26 ms (−47 %)" in res.output
    res = r.invoke(main, ["compare", "--format", "markdown", str(FIG4), str(FIG5)])
    assert res.exit_code == 0 and res.output.startswith("# awrscope compare") and "**Not comparable**" in res.output
    out = tmp_path / "c.json"
    assert r.invoke(main, ["compare", "-o", str(out), str(PACHOT)]).exit_code == 0
    jsonschema.validate(json.loads(out.read_text()), SCHEMA)
    # usage and input errors are exit 2 with one line on stderr
    assert r.invoke(main, ["compare", str(FIG4)]).exit_code == 2  # one report that is not a compare-period report
    assert r.invoke(main, ["compare", str(FIG4), str(FIG5), str(FIG4)]).exit_code == 2
    assert r.invoke(main, ["compare", str(FIG4), str(tmp_path / "missing.txt")]).exit_code == 2
    assert r.invoke(main, ["compare", str(PACHOT), str(FIG4)]).exit_code == 2  # a diff report cannot be one side
    bad = tmp_path / "bad.txt"
    bad.write_text("hello\n")
    assert r.invoke(main, ["compare", str(FIG4), str(bad)]).exit_code == 2
    assert r.invoke(main, ["compare", "--streams", "5", str(FIG4), str(FIG5)]).exit_code == 2


def test_html_format_compare():
    """The HTML renderer ships with the package: compare --format html writes one page."""
    res = CliRunner().invoke(main, ["compare", "--format", "html", str(PACHOT)])
    assert res.exit_code == 0 and res.output.lstrip().lower().startswith("<!doctype html")


def test_corpus_compare_period_reports(corpus):
    """Every compare-period report of the corpus (text and HTML) compares through its two periods."""
    done = 0
    for path in sorted(corpus.glob("awr_diff_*")):
        doc = compare(parse_path(path))
        jsonschema.validate(doc, SCHEMA)
        assert doc["before"]["report"]["elapsed_s"] and doc["after"]["report"]["elapsed_s"], path.name
        done += 1
    assert done >= 28


def test_corpus_antognini_separate_reports_match_compare_period(corpus):
    """18:30-18:45 vs 19:30-19:45 as two AWR reports gives the deltas of the compare-period report within the
    printed precision: the diff report prints Elapsed 15.00 min where the single reports' snapshot times give
    901.8 s (0.2 %), and averages are recomputed from times printed to 0.01 s (< 1 %)."""
    d1 = compare(parse_path(corpus / "awr_diff_txt_11203_antognini_top2.txt"))
    d2 = compare(parse_path(corpus / "awr_html_11203_antognini_top2_1830_1845.html"),
                 parse_path(corpus / "awr_html_11203_antognini_top2_1930_1945.html"))
    # by hand from the Load Profiles: transactions/s 203.6 -> 285.6 (+40.3 %), redo 393,267.0 -> 552,173.5 B/s (+40.4 %)
    for d in (d1, d2):
        assert (d["metrics"]["txn_per_s"]["before"], d["metrics"]["txn_per_s"]["after"]) == (203.6, 285.6)
        assert d["metrics"]["redo_Bps"]["pct"] == pytest.approx(40.41, abs=0.01)
    for k in ("aas", "txn_per_s", "redo_Bps", "redo_wastage_Bps", "redo_writes_per_s", "lfs_ms", "lfpw_ms",
              "redo_write_ms", "synch_ms", "phys_write_blocks_ps", "undo_block_write_share"):
        # the single reports print log file parallel write time in whole seconds (39 s: +-1.3 %), the diff report
        # 38.8 s and waits per second (198.4/s x 900 s = 178,560 vs 178,859 counted): 1.5 % per side, 3 % on the ratio
        a, b = d1["metrics"][k], d2["metrics"][k]
        for side in ("before", "after"):
            assert a[side] == pytest.approx(b[side], rel=0.015), (k, side)
        assert a["ratio"] == pytest.approx(b["ratio"], rel=0.03), k
    # lfs 0.517 -> 1.04 ms (+102 %) in both
    assert d1["effect"][0].startswith("log file sync 0.517 → 1.04 ms (+10")
    assert d2["effect"][0].startswith("log file sync 0.514 → 1.04 ms (+10")


def test_report_compared_with_itself_has_no_effect(corpus):
    """A report against itself: every delta 0, every finding unchanged, comparable (text and HTML)."""
    for name in ("awr_txt_11203_antognini_top2_1830_1845.txt", "awr_html_11203_antognini_top2_1830_1845.html"):
        r = parse_path(corpus / name)
        doc = compare(r, r)
        assert doc["comparability"]["comparable"] is True
        assert all(d["pct"] in (None, 0.0) for d in doc["metrics"].values())
        assert {f["status"] for f in doc["findings"]} <= {"unchanged"}
        assert doc["effect"] == ["transactions/s ±0.0 %"]
