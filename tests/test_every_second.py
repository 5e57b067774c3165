"""Every second has a reason: the SQL workload as a cause (G18), the long tail of wait events as data (F01-F15,
oracle/wait_families.tsv), slow connections (G09) and ADDM beside awrscope matched by the leaves each finding claims.
Figures checked by hand against the report lines cited."""
from __future__ import annotations

import statistics

import pytest
from conftest import analyze_path, finding, observation

from awrscope.rules.families import FAMILIES, family_of


def test_sql_workload_claims_the_cpu_its_statements_spend(corpus_dir):
    """antognini 19:30-19:45 (11.2.0.3 AWR HTML): reads are slow (12.1 ms, G06 claims them); DB CPU 2,876.5 s is
    claimed by no cause before G18. SQL ordered by CPU Time, lines 630-675, the ten it prints (all plain statements):
    2,144.37 + 73.62 + 52.16 + 51.74 + 34.48 + 28.12 + 26.44 + 21.2 + 19.27 + 18.68 = 2,470.08 s."""
    d = analyze_path(corpus_dir / "reports" / "awr_html_11203_antognini_top2_1930_1945.html")
    g18 = finding(d, "G18")
    assert g18["impact"]["db_time_s"] == pytest.approx(2470.08, abs=0.01)
    assert g18["claims"] == [{"leaf": "DB CPU", "seconds": 2470.08, "pct_db_time": pytest.approx(19.584, abs=1e-3)}]
    # named by the time they spend here: g8rhybcumtwd6 2,144.37 s (line 630) first
    first = g18["culprits"][0]
    assert (first["name"], first["value"], first["line"]) == ("g8rhybcumtwd6", 2144.37, 630)
    assert "on CPU" in g18["title"] and "in reads" not in g18["title"]  # the reads are G06's


def test_sql_workload_never_claims_more_than_its_statements(corpus_docs_with_g18):
    for name, doc in corpus_docs_with_g18:
        g18 = finding(doc, "G18") or observation(doc, "G18")
        cpu = next((e for e in g18["evidence"] if e["metric"] == "sql_cpu_s"), None)
        reads = next((e for e in g18["evidence"] if e["metric"] == "sql_read_s"), None)
        assert g18["impact"]["db_time_s"] == pytest.approx((cpu or {}).get("value", 0) + (reads or {}).get("value", 0),
                                                           abs=0.01), name
        claimed_cpu = sum(c["seconds"] for c in g18["claims"] if c["leaf"] == "DB CPU")
        assert claimed_cpu <= (doc["metrics"]["db_cpu_s"]["value"] or 0) + 0.01, name


@pytest.fixture(scope="module")
def corpus_docs_with_g18(corpus_dir):
    out = []
    for p in sorted((corpus_dir / "reports").iterdir()):
        d = analyze_path(p)
        for k, doc in enumerate([d] + d.get("periods", [])):
            if finding(doc, "G18") or observation(doc, "G18"):
                out.append((f"{p.name}#{k}", doc))
    assert len(out) >= 30
    return out


@pytest.mark.parametrize("report, fid, event, line, seconds", [
    # Foreground Wait Events line 248: direct path write 56,723 waits, 677 s, 11.9 ms (50.8 % of DB time 1,331.6 s):
    # LOB writes, 345,611 physical writes direct (lob) (Instance Activity line 1462)
    ("awr_txt_12201_rbogusze_insaas3_4912_4913.txt", "F06", "direct path write", 248, 677.0),
    # line 326: SQL*Net more data from client 7,753,232 waits, 1,379 s (20.6 % of DB time)
    ("awr_html_11204_pcambell_xydb_36006_36007.html", "F01", "SQL*Net more data from client", 326, 1379.0),
    # line 208: SQL*Net more data to dblink 2,194,729 waits, 1,397,808 s (14.2 % of DB time), 637 ms a wait
    ("awr_html_10205_radtek_exp_exp_56225_56724.html", "F02", "SQL*Net more data to dblink", 208, 1397808.0),
    # line 335: name-service call wait 12 waits, 49 ms each (30.9 % of a 1.9 s DB time on a 1-CPU lab node)
    ("awr_html_11204_rac_1newstar_orcl1_2_3.html", "F03", "name-service call wait", 335, None),
])
def test_a_family_claims_its_events_with_the_report_lines(corpus_dir, report, fid, event, line, seconds):
    d = analyze_path(corpus_dir / "reports" / report)
    f = finding(d, fid) or observation(d, fid)
    assert f is not None and event in f["title"]
    ev = next(e for e in f["evidence"] if e["metric"] == f"pct_db_time[{event}]")
    assert any(s["line"] == line for s in ev["source"])
    claims = {c["leaf"]: c["seconds"] for c in f["claims"]}
    if seconds is not None:
        assert claims[event] == pytest.approx(seconds)
    assert finding(d, "G15") is None or event not in finding(d, "G15")["title"]
    assert any(c.startswith("what it is: ") for c in f["caveats"])


def test_the_catalogue_is_data_and_every_family_a_rule():
    from awrscope.rules import RULES

    assert [f.id for f in FAMILIES] == [f"F{k:02d}" for k in range(1, len(FAMILIES) + 1)]
    for fam in FAMILIES:
        assert RULES[fam.id].slug == fam.slug and fam.mechanism in RULES[fam.id].doc
    assert family_of("SQL*Net more data to dblink").id == "F02" and family_of("PX Deq: Slave Join Frag").id == "F07"
    assert family_of("direct path write temp") is None  # TEMP is R09's, not a family's
    assert family_of("db file sequential read") is None


def test_not_explained_is_rarely_first_and_causes_claim_most(corpus_dir):
    """Before: G15 'not explained' was the first finding in 29 corpus analyses and causes claimed a median 16 % of
    DB time. Now the catalogue names the long tail and G18 the statements' CPU and reads."""
    shares, g15_first, n = [], 0, 0
    for p in sorted((corpus_dir / "reports").iterdir()):
        d = analyze_path(p)
        for doc in [d] + d.get("periods", []):
            dbt = doc["report"].get("db_time_s")
            if not doc.get("ledger") or not dbt:
                continue
            n += 1
            g15_first += bool(doc["findings"]) and doc["findings"][0]["id"] == "G15"
            shares.append(100.0 * sum(c["seconds"] for f in doc["findings"] + doc["observations"]
                                      if f["id"] != "G15" and f.get("role") == "cause" for c in f["claims"]) / dbt)
    assert g15_first <= 0.05 * n
    assert statistics.median(shares) >= 50.0


def test_slow_connections_are_said_with_their_cost_per_logon():
    """Connection management 8 % of DB time at 0.5 logons/s: no storm, each logon slow (synthetic: the two reports
    held back that showed it, 17.8 % and 18.5 %, are not in the corpus)."""
    from synth import report

    from awrscope.analysis import analyze

    r = report(elapsed_s=1000, db_time_s=1000, time_model={"DB CPU": 500, "connection management call elapsed time": 80},
               stats={"logons cumulative": 500})
    g09 = finding(analyze(r), "G09")
    assert g09["title"] == "Slow connections: connect/disconnect 8.0 % of DB time, 160 ms per logon at 0.5 logons/s"


def test_addm_is_matched_by_the_leaves_each_finding_claims(corpus_dir):
    """insaas3 ADDM (lines 23-31): '"User I/O" wait Class' 69.68 % is the direct path writes F06 claims; 'Commits and
    Rollbacks' is log file sync, which R01 claims (259 ms of its 260.5 ms waits are slow writes)."""
    d = analyze_path(corpus_dir / "reports" / "awr_txt_12201_rbogusze_insaas3_4912_4913.txt")
    by = {a["name"]: a for a in d["addm"]}
    uio, commits = by['"User I/O" wait Class'], by["Commits and Rollbacks"]
    assert (uio["status"], uio["ours"]["id"]) == ("agreed", "F06")
    assert (commits["status"], commits["ours"]["id"]) == ("agreed", "R01")
