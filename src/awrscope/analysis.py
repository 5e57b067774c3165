"""The Analysis document: metrics + findings + not-applicable rules + issues of
one report, as one versioned JSON-ready dict (docs/analysis.md)."""
from __future__ import annotations

from .metrics import DEFAULT_ALPHA, derive
from .metrics.activity import ash_activity
from .metrics.instances import instance_breakdown
from .metrics.invariants import check as check_invariants
from .model import Report
from .parsers.report import ACROSS_RESTART
from .rules import run_rules
from .rules.addm import beside as addm_beside
from .rules.culprits import ash_blockers_by_event, ash_objects_by_event, ash_sql_by_event

ANALYSIS_SCHEMA_VERSION = "1.0"


def load_config(path: str | None) -> dict:
    """Read a TOML config: [rules.R01] lgwr_ms = 4, [severity] critical = 30, [metrics] alpha = 1.5, redo_on_flash = true.
    ValueError or OSError (one line) when the file cannot be used: a device, a pipe, too large, a wrong-typed value."""
    if not path:
        return {}
    from .configfile import read_config

    return read_config(path)


def analyze(report: Report, config: dict | None = None) -> dict:
    """The analysis document of one report. AWR Diff (compare period) reports are analysed per
    period when the parser split them; otherwise no metric or rule is computed from their mixed
    columns (every rule is reported as not applicable)."""
    config = config or {}
    if report.kind == "awr_diff":
        return _analyze_diff(report, config)
    return _analyze_one(report, config)


def _analyze_diff(report: Report, config: dict) -> dict:
    doc = _analyze_one(report, config)
    if report.periods:
        from .change.timebase import with_time_base  # a period's elapsed time from its statistics when the header lacks it

        periods = [with_time_base(p)[0] for p in report.periods]
        doc["periods"] = [_analyze_one(p, config) for p in periods]
        if len(periods) == 2:
            from .change.decompose import decompose, side_input
            doc["change"] = decompose(*(side_input(p, d) for p, d in zip(periods, doc["periods"])))
            from .change.sql import sql_change
            rep = [d["report"] for d in doc["periods"]]
            doc["sql_change"] = sql_change(*periods, rep[0].get("elapsed_s"), rep[1].get("elapsed_s"),
                                           (report.diff or {}).get("sql_comparison_elapsed"),
                                           (rep[0].get("db_time_s"), rep[1].get("db_time_s")))
        _period_culprits(doc)
    doc["metrics"] = {}
    doc["commit_path"] = None
    doc["ledger"] = None
    doc["annotations"] = []
    doc["findings"] = []
    doc["observations"] = []
    doc["verdict"] = {"load": None, "headline": None, "top_of_db_time": None}
    doc["assessment"] = None
    doc["addm"] = None
    from .rules import RULES

    need = ("per-period sections (AWR Diff report: the periods are analysed separately)" if report.periods else
            "per-period sections (this AWR Diff report is not split into periods by the parser yet)")
    doc["not_applicable"] = [{"id": r.id, "slug": r.slug, "title": r.title, "needs": [need],
                              "message": "not applicable: needs " + need} for r in RULES.values()]
    doc["issues"] = doc["issues"] + [
        {"level": "info", "section": None, "line": None,
         "message": "compare-period report: each period is diagnosed on its own and what changed is computed from "
                    "both; no figure mixes the two periods"} if report.periods else
        {"level": "warning", "section": None, "line": None,
         "message": "this compare-period report could not be split into its two periods: it is not diagnosed"}]
    return doc


def _analyze_one(report: Report, config: dict) -> dict:
    alpha = float(config.get("metrics", {}).get("alpha", DEFAULT_ALPHA))
    m = derive(report, alpha=alpha)
    res = run_rules(report, m, config)
    violations = check_invariants(report, m)
    restart = any(i.level == "error" and i.message == ACROSS_RESTART for i in report.issues)
    h = report.header
    dbt = m.v("db_time_s")
    if restart and res.headline is not None:  # a share of deltas across a restart rates nothing
        res.headline.title += "; the snapshots span an instance restart: not to be trusted"
        res.headline.severity = "info"
    doc = {
        "schema_version": ANALYSIS_SCHEMA_VERSION,
        "source": {"path": report.source_path, "sha256": report.source_sha256, "bytes": report.source_bytes},
        "report": {
            "kind": report.kind, "format": report.format, "version": report.version, "generation": report.generation,
            "db_name": h.db_name, "container": h.container, "role": h.role, "instances": report.instance_names,
            "host": h.host,
            "dbid": h.dbid, "begin_snap": h.begin.snap_id if h.begin else None, "end_snap": h.end.snap_id if h.end else None,
            "begin_time": _iso(h.begin), "end_time": _iso(h.end),
            "elapsed_s": m.v("elapsed_s"), "db_time_s": dbt, "db_time_basis": m.db_time_basis,
            "db_time_confidence": m.db_time_confidence, "event_basis": m.event_basis,
        },
        "verdict": {
            "load": res.ctx.load.as_dict(),
            "headline": None,  # the top cause, from the ranked findings below
            # context under it: the largest component of DB time (G01), with its culprits
            "top_of_db_time": _doubted(res.headline.as_dict(), violations, restart) if res.headline else None,
            # when the time went: the averages below understate a peak that held most of the activity
            "peak": next(({"id": f.id, "title": f.title} for f in res.observations if f.id == "G17"), None),
        },
        "assessment": res.ctx.assessment.as_dict(dbt) if res.ctx.assessment is not None else None,
        "addm": None,
        "metrics": m.as_dict(),
        "commit_path": res.ctx.commit.as_dict(dbt) if res.ctx.commit is not None else None,
        "ledger": res.ctx.ledger.as_dict() if res.ctx.ledger is not None else None,
        "findings": [_doubted(f.as_dict(), violations, restart) for f in res.findings],
        "observations": [_doubted(f.as_dict(), violations, restart) for f in res.observations],
        "annotations": [_annotation(f) for f in res.annotations or ()],
        "not_applicable": [n.as_dict() for n in res.not_applicable],
        "issues": [i.as_dict() for i in report.issues] + [v.as_issue() for v in violations]
                  + [{"level": "warning", "section": "ledger", "line": None, "message": m}
                     for m in (res.ctx.ledger.issues if res.ctx.ledger is not None else _no_ledger(m))],
    }
    per_instance = instance_breakdown(report)
    if per_instance:
        doc["instances"] = per_instance
    if report.kind == "ash" or "ash_activity_over_time" in report.sections:  # an AWR report's own since 12.1
        doc["ash_activity"] = ash_activity(report)
    if report.kind == "ash" or "ash_top_sql" in report.sections or "ash_top_blockers" in report.sections:
        by_event = {ev: [c.as_dict() for c in cs] for ev, cs in ash_sql_by_event(report).items()}
        extra: dict[str, list[dict]] = {}  # event -> the objects waited on and the sessions that blocked in it
        for by in (ash_objects_by_event, ash_blockers_by_event):
            for ev, cs in by(report).items():
                extra.setdefault(ev, []).extend(c.as_dict() for c in cs)
        if report.kind == "ash":
            doc["ash_sql_by_event"] = by_event  # what join_ash names beside an AWR report of the same window
        _ash_culprits_by_event(doc, by_event, extra, own=report.kind != "ash")
    doc["verdict"]["headline"] = verdict_headline(doc["findings"], restart)
    from .assessment.agreement import disagreements

    doc["issues"] += [{"level": "warning", "section": "assessment", "line": None, "message": f"consistency check: {d}"}
                      for d in disagreements(doc)]
    if "addm_findings" in report.sections:
        h = doc["verdict"]["top_of_db_time"]
        # annotations are awrscope's statements about a part of DB time too (CPU on an unsaturated host, healthy reads)
        doc["addm"] = addm_beside(report, doc["findings"] + doc["observations"] + doc["annotations"] + ([h] if h else []),
                                  doc["not_applicable"])
    return doc


def verdict_headline(findings: list[dict], across_restart: bool = False) -> dict | None:
    """The verdict in one line: the top cause (the first ranked finding, on the list's own scale), how much of DB
    time it claims, why in its figures (its title) and what to do (its recommendation's first sentence). None when
    nothing is ranked: the top of DB time then stands alone as context."""
    if not findings:
        return None
    f = findings[0]
    pct = f["impact"].get("pct_db_time")
    rec = f.get("recommendation") or ""
    cut = rec.find(". ")
    do = rec[:cut + 1] if 0 < cut < 400 else rec
    share = f"{pct:.1f} % of DB time" if pct is not None else None
    said = share is None or share in f["title"] or f"{pct:.0f} % of DB time" in f["title"]
    line = f["title"] + ("" if said else f" (claims {share})") + f". Do: {do}"
    if across_restart:
        line += " (the snapshots span an instance restart: not to be trusted)"
    return {"id": f["id"], "title": f["title"], "severity": f["severity"], "confidence": f["confidence"],
            "pct_db_time": pct, "db_time_s": f["impact"].get("db_time_s"), "do": do, "line": line}


def _no_ledger(m) -> list[str]:
    """Why a report with DB time and wait events has no ledger: its waits are untimed."""
    waits = sum(e.waits or 0.0 for e in m.fg_events.values())
    if m.v("db_time_s") and m.event_basis and waits and not any(e.time_s for e in m.fg_events.values()):
        return [f"no DB-time ledger: {waits:,.0f} foreground waits are printed with no time at all (timed_statistics "
                "off, or a report spanning a restart): where DB time went cannot be told, and no finding claims any of it"]
    return []


def _annotation(f) -> dict:
    """A characterisation of ledger leaves (where the time goes, nothing wrong): a finding's shape, claiming nothing,
    with the leaves it describes; not ranked."""
    d = f.as_dict()
    d["leaves"] = list(f.annotates)
    d["severity"] = "info"  # nothing wrong: not rated, claims nothing
    d["impact"] = {"db_time_s": 0.0, "pct_db_time": 0.0, "aas": 0.0}
    return d


def _iso(snap) -> str | None:
    return snap.time.isoformat(sep=" ") if snap is not None and snap.time is not None else None


def _overlap(a: dict, b: dict) -> float:
    """The share of report a's window that report b's window covers (0 when either is unknown)."""
    from datetime import datetime
    try:
        ab, ae = datetime.fromisoformat(a["begin_time"]), datetime.fromisoformat(a["end_time"])
        bb, be = datetime.fromisoformat(b["begin_time"]), datetime.fromisoformat(b["end_time"])
    except (TypeError, ValueError):
        return 0.0
    span = (ae - ab).total_seconds()
    return max(0.0, (min(ae, be) - max(ab, bb)).total_seconds()) / span if span > 0 else 0.0


def join_ash(docs: list[dict], min_overlap: float = 0.5) -> None:
    """An AWR/Statspack analysis and an ASH report of the same database and window, given together:
    each finding also names the statements ASH saw waiting on its events (ASH Top SQL with Top
    Events), marked with the ASH report and line: the report's own rankings say who used the most
    time or executions, ASH says who waited on this event. Changes the documents in place."""
    ash = [d for d in docs if d.get("ash_sql_by_event")]
    for d in docs:
        if d["report"]["kind"] == "ash" or not ash:
            continue
        r = d["report"]
        same = [a for a in ash if (a["report"].get("dbid") == r.get("dbid") if r.get("dbid") and a["report"].get("dbid")
                                   else a["report"]["db_name"] == r["db_name"]) and _overlap(r, a["report"]) >= min_overlap]
        if not same:
            continue
        a = max(same, key=lambda x: _overlap(r, x["report"]))
        named = 0
        h = (d.get("verdict") or {}).get("top_of_db_time")
        for f in d["findings"] + ([h] if h else []):
            have = {c["name"] for c in f.get("culprits") or () if c["kind"] == "sql" and c["section"] == "ash_top_sql"}
            events = _finding_events(f)
            found = sorted((c for ev in events for c in a["ash_sql_by_event"].get(ev, ()) if c["name"] not in have),
                           key=lambda c: -c["value"])[:3]
            if found:
                f["culprits"] = list(f.get("culprits") or []) + found
                f["culprits_missing"] = None
                named += 1
        d["joined"] = {"kind": "ash", "path": a["source"]["path"], "overlap_pct": round(100.0 * _overlap(r, a["report"]), 1),
                       "findings_named": named}


def _ash_culprits_by_event(doc: dict, by_event: dict[str, list[dict]], extra_by_event: dict[str, list[dict]],
                           own: bool = False) -> None:
    """In an ASH report a finding's statements are those ASH saw waiting on the finding's events (Top SQL with Top
    Events), not the top statements of all activity: a SELECT waiting on reads is no culprit of commit waits. Its
    objects are those of Top DB Objects waited on for its events (the report has no segment statistics), and its
    blockers those of Top Blocking Sessions that caused them (LGWR for log file sync): the first three of each.

    ``own``: the ASH sections an AWR report prints itself. Its statements on the finding's events replace those
    of its 'SQL ordered by' lists, which rank all activity; where ASH saw none, those stay. Its objects join only
    a finding the Segments by ... lists named none for."""
    h = (doc.get("verdict") or {}).get("top_of_db_time")
    for f in doc["findings"] + doc["observations"] + ([h] if h else []):
        events = _finding_events(f)
        if not events:
            continue
        pool = [c for ev in events for c in extra_by_event.get(ev, ())]
        kinds = ("session",) if own and any(c["kind"] == "segment" for c in f.get("culprits") or ()) else \
            ("segment", "session")
        objects = [c for kind in kinds
                   for c in sorted((c for c in pool if c["kind"] == kind), key=lambda c: -c["value"])[:3]]
        found = sorted((c for ev in events for c in by_event.get(ev, ())), key=lambda c: -c["value"])[:3]
        if own:
            culprits = list(f.get("culprits") or ())
            if found:  # in the place the rule gave its statements (a row lock's segments come first)
                at = next((k for k, c in enumerate(culprits) if c["kind"] == "sql"), len(culprits))
                rest = [c for c in culprits if c["kind"] != "sql"]
                culprits = rest[:at] + found + rest[at:]
                f["culprits_missing"] = None
            if found or objects:
                f["culprits"] = culprits + objects
            continue
        if not any(c["kind"] == "sql" for c in f.get("culprits") or ()):
            if objects:
                f["culprits"] = list(f.get("culprits") or ()) + objects
            continue
        others = [c for c in f["culprits"] if c["kind"] != "sql"]
        f["culprits"] = found + others + objects
        if not found:
            why = ("commits are calls, not statements: Top Sessions names who waits, Top Blocking Sessions the LGWR "
                   "they wait for" if "log file sync" in events else
                   "Top Sessions names who waits, Top Blocking Sessions who they wait for")
            f["culprits_missing"] = ("ASH's Top SQL with Top Events shows no statement waiting on "
                                     + ", ".join(sorted(events)) + f" ({why})")


def _period_culprits(doc: dict) -> None:
    """A compare-period report prints no statement or segment list per period: a period's finding says so once,
    and points at the statements whose time changed when the report compares them, instead of naming the
    single-period sections as if this report had left them out."""
    changed = (doc.get("sql_change") or {}).get("statements")
    said = "a compare-period report lists no statements or segments per period" + (
        "; the statements whose time changed: 'SQL that changed', above" if changed else "")
    for period in doc["periods"]:
        h = (period.get("verdict") or {}).get("top_of_db_time")
        for f in period["findings"] + period["observations"] + ([h] if h else []):
            if (f.get("culprits_missing") or "").endswith("(not printed in this report)"):
                f["culprits_missing"] = said


def _finding_events(f: dict) -> set[str]:
    """The wait events a finding rests on (its evidence metrics name them); CPU findings: ASH's CPU row."""
    evidence = f.get("evidence") or []
    if f.get("id") == "G01":  # the headline's evidence lists the top five components: it is about the first
        evidence = evidence[:1]
    # a background event in the evidence (LGWR's writes beside log file sync) is no wait of the sessions'
    out = {m.split("[", 1)[1][:-1].lower() for m in (e.get("metric") or "" for e in evidence)
           if "[" in m and m.endswith("]") and not m.startswith(("bg_", "ash_aas["))}
    if f.get("id") in ("G02", "G10") or "db cpu" in out:
        out.add("cpu + wait for cpu")
    return out


_LOWER = {"high": "medium", "medium": "low", "low": "low"}


def _doubted(finding: dict, violations: list, across_restart: bool = False) -> dict:
    """A finding stated on figures that failed a conservation check loses one step of confidence
    and says which check failed: its share of DB time rests on those figures. On a report whose snapshots span
    an instance restart every figure is a delta across it: low confidence, said in a caveat."""
    if across_restart:
        finding["confidence"] = "low"
        finding["caveats"] = list(finding.get("caveats") or []) + [
            "the snapshots span an instance restart (the report says its results are invalid): this rests on "
            "deltas across it"]
    if not violations:
        return finding
    finding["confidence"] = _LOWER.get(finding["confidence"], finding["confidence"])
    finding["caveats"] = list(finding.get("caveats") or []) + [
        f"confidence lowered: invariant {v.check} failed ({v.section}"
        + (f" line {v.line}" if v.line else "") + "); see issues" for v in violations]
    return finding
