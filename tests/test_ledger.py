"""The DB-time ledger over the whole corpus: its leaves add up to DB time, no finding claims more than
100 % of it, the ranked findings' claims add up to at most 100 %, and down the list neither impact
nor severity rises. Then the public examples of the ledger issue, each against the report's lines."""
from __future__ import annotations

import pytest

from awrscope.ledger.scale import SEVERITY_RANK
from awrscope.render.markdown import render_markdown
from awrscope.render.text import render_text

from conftest import analyze_path, finding

ROUNDING = 0.01  # % of DB time: the JSON rounds seconds to the millisecond


def _periods(doc: dict):
    return doc.get("periods") or [doc]


def ledger_violations(doc: dict) -> list[str]:
    """Every breach of the four ledger invariants in one analysed period."""
    out = []
    led = doc.get("ledger")
    name = doc["source"]["path"]
    if led is None:
        for f in doc["findings"]:
            if (f["impact"]["pct_db_time"] or 0.0) > 100.0 + ROUNDING:
                out.append(f"{name}: {f['id']} {f['impact']['pct_db_time']} % without a ledger")
        return out
    total = sum(l["seconds"] for l in led["leaves"])
    if abs(total - led["db_time_s"]) > 0.001 * len(led["leaves"]) + 1e-6 * led["db_time_s"]:
        out.append(f"{name}: leaves add up to {total} s, DB time {led['db_time_s']} s")
    ranked = [f for f in doc["findings"]]
    claimed = 0.0
    for f in ranked + doc["observations"]:
        p = f["impact"]["pct_db_time"] or 0.0
        if p > 100.0 + ROUNDING:
            out.append(f"{name}: {f['id']} claims {p} % of DB time")
        if f["claims"]:
            claimed += sum(c["pct_db_time"] for c in f["claims"])
            if abs(sum(c["seconds"] for c in f["claims"]) - f["impact"]["db_time_s"]) > 0.01:
                out.append(f"{name}: {f['id']} impact {f['impact']['db_time_s']} s is not its claims")
    if claimed > 100.0 + ROUNDING:
        out.append(f"{name}: findings claim {claimed:.2f} % of DB time together")
    for a, b in zip(ranked, ranked[1:]):
        causes = a["claims"] and b["claims"]
        if causes and b["impact"]["db_time_s"] > a["impact"]["db_time_s"] + 1e-6:
            out.append(f"{name}: {b['id']} ({b['impact']['db_time_s']} s) ranked below {a['id']} ({a['impact']['db_time_s']} s)")
        if SEVERITY_RANK[b["severity"]] < SEVERITY_RANK[a["severity"]]:
            out.append(f"{name}: {b['id']} {b['severity']} listed below {a['id']} {a['severity']}")
    return out


def test_ledger_invariants_over_the_whole_corpus(corpus):
    reports = sorted(p for p in corpus.iterdir() if p.is_file() and not p.name.endswith(".gz"))
    assert len(reports) >= 100
    problems = []
    ledgers = 0
    for p in reports:
        doc = analyze_path(p)
        for period in _periods(doc):
            ledgers += period.get("ledger") is not None
            problems += ledger_violations(period)
    assert ledgers >= 100  # the invariants were checked on ledgers, not skipped
    assert not problems, "\n".join(problems[:40])


def test_slob_log_buffer_space_is_shown_under_r01_in_every_output(corpus):
    # wait_events_fg line 177: 'log buffer space  13,361  0  12,641  946  ... 32.84' of DB time 38,493.3 s; LGWR writes
    # 442.6 ms (wait_events_bg line 228: log file parallel write 1,080 s / 2,440 waits)
    doc = analyze_path(corpus / "awr_txt_11203_slob_skoehler_100k_iops.txt")
    r01 = finding(doc, "R01")
    assert r01 is not None and r01["severity"] == "critical"
    lbs = next(e for e in r01["explains"] if e["leaf"] == "log buffer space")
    assert lbs["seconds"] == 12641.0 and lbs["pct_db_time"] == pytest.approx(32.839, abs=0.001)
    assert not any(o["id"] == "R06" for o in doc["observations"])  # no separate near-zero observation
    assert any(r["id"] == "R06" for r in r01["related"])
    assert "explains: log buffer space 32.84 % of DB time" in render_text(doc)
    assert "explains: log buffer space 32.84 % of DB time" in render_markdown(doc)
    from awrscope.render.html import render_analysis
    page = render_analysis(doc)
    card = page.split('data-finding="R01"', 1)[1].split("</article>", 1)[0]
    assert "explains: log buffer space 32.84 % of DB time" in card


def test_xydb_24726_ranks_its_storage_and_nothing_denies_it(corpus):
    # Foreground Wait Events: log file sync avg 1,973 ms; Background: log file parallel write 312 ms; db file parallel write 521 ms
    doc = analyze_path(corpus / "awr_html_11204_rac_pcambell_xydb_24726_24727.html")
    r01 = finding(doc, "R01")
    assert r01 is not None, [f["id"] for f in doc["findings"]]
    assert doc["commit_path"]["lfs_ms"] == pytest.approx(1973, rel=0.01)
    for f in doc["findings"] + doc["observations"]:
        assert "will not help" not in f["recommendation"] or f["id"] not in ("G03",), f["recommendation"]
        assert "Faster redo or storage will not" not in f["recommendation"]


def test_invods_ash_gets_a_commit_path_finding(corpus):
    # Top User Events: 'log file sync  Commit  40.06  57.19' (% Event, Avg Active Sessions)
    doc = analyze_path(corpus / "ash_txt_11107_ramlaxman12_invods_0745.txt")
    ids = [f["id"] for f in doc["findings"]]
    assert "R17" in ids, ids
    r17 = finding(doc, "R17")
    assert "log file sync" in r17["title"] and "foreground" in r17["title"]
    assert r17["impact"]["pct_db_time"] == pytest.approx(40.06, abs=0.01)
    from awrscope.render.html import render_analysis
    page = render_analysis(doc)
    commit = page.split("<h2>Commit path</h2>", 1)[1].split("<h2>", 1)[0]
    assert "Not applicable" not in commit and "40.06 %" in commit and "R17" in commit


def test_ash_shares_are_of_foreground_activity(corpus):
    # Top Background Events line 'db file parallel write  System I/O  2.04  2.98': 2.04 % of the sampled activity
    # is background; the ledger's base is AAS x elapsed less that share, and says so
    from conftest import parse_path
    path = corpus / "ash_txt_10204_ramlaxman12_dclej1.txt"
    report = parse_path(path)
    bg = report.sections.get("ash_top_bg_events")
    doc = analyze_path(path)
    assert doc["report"]["db_time_basis"] == "ASH samples: foreground average active sessions x elapsed"
    printed = sum(r.values["pct_db_time"] for r in (bg or ()) if r.values.get("pct_db_time"))
    assert printed == 2.04
    assert doc["report"]["db_time_s"] == pytest.approx(report.db_time_s * (1 - printed / 100.0), rel=1e-9)


def test_g07_on_the_1newstar_rac_text_report_stays_within_db_time(corpus):
    # SQL ordered by Elapsed Time: 'Captured SQL account for 237.3% of Total DB Time'; 6ajkhukk78nsr is the
    # PL/SQL block 'begin prvt_hdm.auto_execute(...)' (2.2 s, 115.1 %), MMON_SLAVE SQL is background work
    doc = analyze_path(corpus / "awr_txt_11204_rac_1newstar_orcl1_2_3.txt")
    g07 = finding(doc, "G07")
    if g07 is not None:
        assert g07["impact"]["pct_db_time"] <= 100.0
        assert "6ajkhukk78nsr" not in g07["title"] and "axfcq597829h6" not in g07["title"]


def test_untimed_waits_give_no_ledger_and_no_cpu_verdict():
    # found outside the corpus (a Statspack 9.2 report of nabeelkhan/Oracle-DBA-Life, sp_result.lst): 'RESULTS ARE
    # INVALID', 'db file sequential read 75,782,338 waits, 0 s' and 'CPU time 55 99.93': CPU's 99.9 % is an artefact
    from synth import report
    from awrscope.analysis import analyze
    doc = analyze(report(db_time_s=55.0, fg={"db file sequential read": (75_782_338, 0.0), "log file sync": (12_000, 0.0)},
                         time_model={"DB CPU": 55.0}, os_stats={"BUSY_TIME": 10, "IDLE_TIME": 90}))
    assert doc["ledger"] is None
    assert not [f for f in doc["findings"] if f["id"] == "G02"]
    assert any("75,794,338 foreground waits are printed with no time at all" in i["message"] for i in doc["issues"])


def test_total_cpu_time_is_not_a_view_of_db_time(corpus):
    """12.1.0.2+ prints 'total CPU time' in the Time Model (karlarao's cdb1, line 296: 'total CPU time
    11,932.64' beside 'DB CPU 11,615.99' and 'DB time 190,127.40'): DB CPU plus background CPU, not a part of
    DB time. It was listed among the ledger's dimensions, at 116.6 % of DB time in a public 18c report."""
    doc = analyze_path(corpus / "awr_html_12102_karlarao_cdb1_rac_2028_2029.html")
    names = [d["name"].lower() for d in doc["ledger"]["dimensions"]]
    assert "total cpu time" not in names
    assert names[0] == "sql execute elapsed time"  # the parts still listed, largest first
    assert all(d["pct_db_time"] <= 100 for d in doc["ledger"]["dimensions"])


def test_totals_printed_in_whole_seconds_give_way_to_finer_figures(corpus):
    """11.2's Foreground Wait Events print whole seconds (1newstar orcl1, an idle RAC node, DB time 1.9 s on line
    144). 'name-service call wait  12  0  1  49  0.4  31.1' (line 217): 1 s is 12 x 49 ms = 0.588 s (the Top 10
    prints .6, line 57), not 52.6 % of DB time. 'IPC send completion sync  121  0  0  1  4.2  4.5' (line 218):
    121 x 1 ms is only known to half a millisecond a wait; its 4.5 % of DB time is finer: 0.0855 s. 'log file
    sync  2  0  0  21' (line 220): 0.042 s. The parts then exceed DB time by about what the report itself says
    ('Captured Time accounts for 110.9% of Total DB time', line 188), where the whole seconds made it 10.5 %
    from a 52.6 % share that is not there."""
    doc = analyze_path(corpus / "awr_txt_11204_rac_1newstar_orcl1_2_3.txt")
    leaves = {l["name"]: l for l in doc["ledger"]["leaves"]}
    ns = leaves["name-service call wait"]
    assert ns["seconds"] == 0.588 and ns["pct_db_time"] == pytest.approx(30.95, abs=0.01)
    assert {(s["field"], s["line"]) for s in ns["source"]} == {("time_s", 217), ("waits", 217), ("avg_wait_ms", 217)}
    ipc = leaves["IPC send completion sync"]
    assert ipc["seconds"] == pytest.approx(0.045 * 1.9, abs=0.0005)
    assert {s["field"] for s in ipc["source"]} == {"time_s", "pct_db_time"}
    assert leaves["log file sync"]["seconds"] == 0.042
    overlap = next(l for l in doc["ledger"]["leaves"] if l["kind"] == "remainder")
    assert -11.0 < overlap["pct_db_time"] < -10.0  # the report's own 110.9 % captured


def test_a_section_with_decimal_totals_keeps_its_printed_totals():
    """Only a section whose totals are all whole numbers prints whole seconds: a '2' beside '1.5' is 2.00."""
    from awrscope.metrics.events import prints_whole_seconds
    from awrscope.model import Row

    def rows(*totals):
        return [Row(f"e{k}", k, {"time_s": t, "waits": 10.0, "avg_wait_ms": 150.0}) for k, t in enumerate(totals)]

    assert prints_whole_seconds(rows(1.0, 0.0, 12.0)) and not prints_whole_seconds(rows(2.0, 1.5))
    assert not prints_whole_seconds(rows()) and not prints_whole_seconds(None)


def test_a_handful_of_single_block_reads_does_not_speak_for_the_direct_reads(corpus):
    """SLOB 12.2 (therealkevinc): 'direct path read' holds 26,366 s, 32.1 % of DB time (line 351); 'db file
    sequential read' is 109 waits of 749.07 us (line 353, 0.08 s). Taken as the read latency, those 109 reads made
    the 26,366 s 'fast reads, nothing wrong', against ADDM's own 'I/O Throughput 32.12 %'. Single-block reads
    speak for the read path only when they hold a tenth of its time: here G06 claims the reads and says why."""
    doc = analyze_path(corpus / "awr_html_12201_slob_therealkevinc.html")
    g06 = finding(doc, "G06")
    assert g06 is not None and g06["severity"] == "critical"
    assert g06["impact"]["pct_db_time"] == pytest.approx(32.12, abs=0.01)
    assert "fast" not in g06["title"] and not any(a["id"] == "G06" for a in doc["annotations"])
    assert any("single-block reads are 0.08 s of the 26,366 s of reads" in c and "direct path read" in c
               for c in g06["caveats"])


def test_release_takes_back_exactly_the_claims_and_explanations_of_its_owner():
    """A rule that does not fire gives back what it claimed and explained, and nothing of another finding's."""
    from awrscope.ledger.model import Leaf, Ledger

    leaves = {"cpu": Leaf("cpu", "DB CPU", "cpu", 60.0), "log file sync": Leaf("log file sync", "log file sync",
                                                                                   "wait", 30.0),
              "db file sequential read": Leaf("db file sequential read", "db file sequential read", "wait", 10.0)}
    led = Ledger(100.0, 600.0, "DB time (time model)", leaves, "")
    assert led.claim("R01", "log file sync", 25.0) == 25.0
    assert led.claim("G02", "log file sync", 25.0) == 5.0  # what R01 left of the leaf
    assert led.claim("G02", "cpu", 40.0) == 40.0
    led.explain("R01", "db file sequential read")
    led.explain("G06", "db file sequential read")
    led.claim("G09", "no such event", 5.0)
    led.release("R01")
    assert leaves["log file sync"].claims == {"G02": 5.0}
    assert leaves["db file sequential read"].explained_by == ["G06"]
    assert leaves["cpu"].claims == {"G02": 40.0}
    assert "R01" not in led.requested and "G09" in led.requested
    led.release("G02")
    led.release("G02")  # twice: nothing left to take back
    assert led.total_claimed() == 0.0 and leaves["cpu"].free == 60.0
    assert led.claim("R01", "log file sync", 50.0) == 30.0  # the whole leaf is free again
