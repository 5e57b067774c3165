"""The trace document (``awrscope trace --format json``, schema ``awrscope-trace/1``, docs/trace.md):
the response-time profile of the traced interval, its ledger (ledger.py), per-statement profiles, each
event's duration distribution, the findings and the reading issues, built from one pass's TraceStats."""
from __future__ import annotations

from .ledger import UNACCOUNTED, build_ledger, cpu_us, response_us
from .model import BUCKET_LABELS, BUCKETS_US, Statement
from .reader import TraceStats

SCHEMA = "awrscope-trace/1"


def _r(x: float | None, nd: int = 6) -> float | None:
    return None if x is None else round(x, nd)


def _pct(part: float, whole: float) -> float | None:
    return round(100.0 * part / whole, 3) if whole else None


def profile_lines(st: TraceStats) -> tuple[list[dict], float]:
    """Method R's resource profile: one line per wait event, the CPU of dep=0 calls by kind, and
    unaccounted-for time; worst first. Returns the lines and R (seconds)."""
    wall = response_us(st)  # without any tim: what the lines explain
    explained = sum(e.total_us for e in st.events.values()) + cpu_us(st)
    lines: list[dict] = []
    for e in st.events.values():
        lines.append({"component": e.name, "kind": "wait", "seconds": _r(e.total_us / 1e6), "calls": e.count,
                      "avg_s": _r(e.total_us / e.count / 1e6), "min_s": _r((e.min_us or 0) / 1e6),
                      "max_s": _r(e.max_us / 1e6), "between_calls_s": _r(e.between_us / 1e6),
                      "line": e.first_line, "max_line": e.max_line})
    for kind, c in st.calls.items():
        lines.append({"component": f"{kind} calls [CPU]", "kind": "cpu", "seconds": _r(c.c_us / 1e6), "calls": c.count,
                      "avg_s": _r(c.c_us / c.count / 1e6) if c.count else None, "min_s": None, "max_s": None,
                      "between_calls_s": None, "line": c.max_line, "max_line": c.max_line})
    orphan_c = sum(c.c_us for c in st.orphan_calls.values())
    if st.orphan_calls:
        n = sum(c.count for c in st.orphan_calls.values())
        lines.append({"component": "recursive calls without a dep=0 parent [CPU]", "kind": "cpu",
                      "seconds": _r(orphan_c / 1e6), "calls": n, "avg_s": _r(orphan_c / n / 1e6), "min_s": None,
                      "max_s": None, "between_calls_s": None, "line": None, "max_line": None})
    unacc = wall - explained
    lines.append({"component": UNACCOUNTED, "kind": "unaccounted", "seconds": _r(unacc / 1e6), "calls": None,
                  "avg_s": None, "min_s": None, "max_s": None, "between_calls_s": None, "line": None, "max_line": None})
    for ln in lines:
        ln["pct"] = _pct(ln["seconds"] * 1e6, wall) if ln["seconds"] is not None else None
    lines.sort(key=lambda x: -(x["seconds"] or 0))
    return lines, wall / 1e6


def histograms(st: TraceStats) -> list[dict]:
    out = []
    for e in sorted(st.events.values(), key=lambda e: -e.total_us):
        out.append({"event": e.name, "count": e.count, "total_s": _r(e.total_us / 1e6),
                    "min_s": _r((e.min_us or 0) / 1e6), "avg_s": _r(e.total_us / e.count / 1e6),
                    "max_s": _r(e.max_us / 1e6), "max_line": e.max_line,
                    "buckets": [{"label": lab, "upper_us": (BUCKETS_US[i] if i < len(BUCKETS_US) else None),
                                 "count": e.buckets[i]} for i, lab in enumerate(BUCKET_LABELS)]})
    return out


def statement_doc(s: Statement) -> dict:
    e, c = s.e_us, s.c_us
    inside = sum(w[1] for w in s.waits_in.values())
    between = s.between_us
    resp = e + between
    prof = [{"component": "CPU", "seconds": _r(c / 1e6), "calls": sum(x.count for x in s.calls.values())}]
    for ev, w in s.waits_in.items():
        prof.append({"component": ev, "seconds": _r(w[1] / 1e6), "calls": w[0], "max_s": _r(w[2] / 1e6),
                     "max_line": w[3]})
    other = e - c - inside
    prof.append({"component": "recursive SQL and unaccounted-for", "seconds": _r(other / 1e6), "calls": None})
    for ev, w in s.waits_between.items():
        prof.append({"component": f"{ev} (between calls)", "seconds": _r(w[1] / 1e6), "calls": w[0],
                     "max_s": _r(w[2] / 1e6), "max_line": w[3]})
    for p in prof:  # of the statement's time in its calls; the waits between its calls (think time) are not in it
        p["pct"] = _pct(p["seconds"] * 1e6, e) if e > 0 and not p["component"].endswith(" (between calls)") else None
    prof.sort(key=lambda x: -(x["seconds"] or 0))
    calls = [{"call": k, "count": v.count, "cpu_s": _r(v.c_us / 1e6), "elapsed_s": _r(v.e_us / 1e6), "disk": v.p,
              "query": v.cr, "current": v.cu, "rows": v.r, "misses": v.mis, "max_elapsed_s": _r(v.max_e_us / 1e6),
              "max_line": v.max_line} for k, v in s.calls.items()]
    return {"key": s.key, "sql_id": s.sql_id, "hash_value": s.hash_value, "command": s.command, "oct": s.oct,
            "depth": s.dep, "uid": s.uid, "line": s.line, "text": s.text, "text_truncated": s.text_truncated,
            "response_s": _r(resp / 1e6), "elapsed_s": _r(e / 1e6), "cpu_s": _r(c / 1e6),
            "between_calls_s": _r(between / 1e6), "executions": s.executions,
            "round_trips": s.round_trips, "round_trip_s": _r(s.round_trip_us / 1e6), "calls": calls, "profile": prof}


def top_statements(st: TraceStats, top: int) -> list[Statement]:
    """The statements with most time in their calls (the think time after a call is the client's, not theirs)."""
    return sorted(st.statements.values(), key=lambda s: (-s.e_us, -s.between_us))[:top]


def build_document(st: TraceStats, top: int = 10, findings: list[dict] | None = None, version: str = "") -> dict:
    lines, r_s = profile_lines(st)
    calls = [{"call": k, "depth": "0", "count": v.count, "cpu_s": _r(v.c_us / 1e6), "elapsed_s": _r(v.e_us / 1e6),
              "disk": v.p, "query": v.cr, "current": v.cu, "rows": v.r, "misses": v.mis}
             for k, v in st.calls.items()]
    calls += [{"call": k, "depth": ">0", "count": v.count, "cpu_s": _r(v.c_us / 1e6), "elapsed_s": _r(v.e_us / 1e6),
               "disk": v.p, "query": v.cr, "current": v.cu, "rows": v.r, "misses": v.mis}
              for k, v in st.recursive_calls.items()]
    unacc = next(ln for ln in lines if ln["kind"] == "unaccounted")
    return {
        "schema": SCHEMA, "schema_version": 1, "awrscope_version": version,
        "source": {"path": st.name, "bytes": st.bytes, "lines": st.lines, "records": st.records},
        "session": st.session.as_dict(),
        "time_unit": st.time_unit_basis,
        "interval": {"response_time_s": _r(r_s), "first_tim_line": st.first_tim_line,
                     "last_tim_line": st.last_tim_line, "dep0_elapsed_s": _r(sum(c.e_us for c in st.calls.values()) / 1e6),
                     "between_calls_s": _r(st.between_us / 1e6), "inside_calls_s": _r(st.inside_us / 1e6),
                     "unaccounted_s": unacc["seconds"], "unaccounted_pct": unacc["pct"]},
        "transactions": {"commits": st.commits, "rollbacks": st.rollbacks, "read_only": st.readonly_ends,
                         "commit_lines": st.xctend_lines},
        "profile": lines,
        "ledger": build_ledger(st),
        "calls": calls,
        "statements": [statement_doc(s) for s in top_statements(st, top)],
        "statement_count": len(st.statements),
        "histograms": histograms(st),
        "findings": findings or [],
        "issues": [i.as_dict() for i in st.issues],
        "partial": bool(st.truncated or st.backwards or any(i.severity == "error" for i in st.issues)),
    }
