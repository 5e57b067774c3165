"""Which statements changed between two periods, from their "SQL ordered by Elapsed Time" sections.

Each statement's elapsed time per second (its share of the change in average active sessions) is split
like a ledger leaf: executions per second x elapsed per execution, volume and latency by the midpoint
split. The sections are top-N lists: a statement printed on one side only either ran only there or fell
below the other side's print threshold, so it is said to have entered or left the top list, and its
absence counts as zero only with that caveat."""
from __future__ import annotations

from ..model import Report

#: Statements listed, largest change first.
TOP = 10


def _statements(report: Report) -> dict[str, dict]:
    """sql id -> elapsed seconds, executions, module, text excerpt (rows of one id summed: RAC, PDB)."""
    sec = report.sections.get("sql_by_elapsed")
    out: dict[str, dict] = {}
    for row in (sec or ()):
        sid = row.text.get("sql_id") or row.name
        el = row.values.get("elapsed_time_s")
        if not sid or el is None:
            continue
        s = out.setdefault(sid, {"elapsed_s": 0.0, "executions": 0.0, "module": row.text.get("module"),
                                 "text": (row.text.get("sql_text") or "")[:80], "line": row.line,
                                 "plan_hash": row.text.get("plan_hash")})
        s["elapsed_s"] += el
        s["executions"] += row.values.get("executions") or 0.0
    return out


def sql_change(r0: Report, r1: Report, e0: float | None, e1: float | None) -> dict | None:
    """Statements whose elapsed time per second changed most, or None when a side prints no SQL ordered by
    Elapsed Time (or its elapsed time is unknown)."""
    if not e0 or not e1 or "sql_by_elapsed" not in r0.sections or "sql_by_elapsed" not in r1.sections:
        return None
    s0, s1 = _statements(r0), _statements(r1)
    rows = []
    for sid in dict.fromkeys([*s0, *s1]):
        a, b = s0.get(sid), s1.get(sid)
        t0 = a["elapsed_s"] / e0 if a else 0.0
        t1 = b["elapsed_s"] / e1 if b else 0.0
        row = {"sql_id": sid, "status": "in both top lists" if a and b else "entered the top list" if b else "left the top list",
               "module": (b or a)["module"], "text": (b or a)["text"], "before_aas": round(t0, 6), "after_aas": round(t1, 6),
               "delta_aas": round(t1 - t0, 6), "executions_per_s": [a["executions"] / e0 if a else None,
                                                                     b["executions"] / e1 if b else None],
               "elapsed_per_exec_ms": [1000.0 * a["elapsed_s"] / a["executions"] if a and a["executions"] else None,
                                       1000.0 * b["elapsed_s"] / b["executions"] if b and b["executions"] else None],
               "plan_hash": [a["plan_hash"] if a else None, b["plan_hash"] if b else None],
               "lines": [a["line"] if a else None, b["line"] if b else None], "volume_aas": None, "latency_aas": None}
        (x0, x1), (p0, p1) = row["executions_per_s"], row["elapsed_per_exec_ms"]
        if x0 and x1 and p0 is not None and p1 is not None:
            row["volume_aas"] = round((x1 - x0) * (p0 + p1) / 2000.0, 6)
            row["latency_aas"] = round((p1 - p0) / 1000.0 * (x0 + x1) / 2.0, 6)
        rows.append(row)
    rows.sort(key=lambda r: -abs(r["delta_aas"]))
    return {"statements": rows[:TOP], "count": {"before": len(s0), "after": len(s1)},
            "note": "SQL ordered by Elapsed Time is a top-N list: a statement on one side only may have run below the "
                    "other side's print threshold; its absence is counted as zero"}


def sql_words(row: dict) -> str:
    """'82ud5h0qcg0bf +2.11 AAS: executions/s +40.1 %, elapsed per execution 14.9 → 21.3 ms'."""
    out = f"{row['sql_id']} {row['delta_aas']:+.3g} AAS ({row['status']})"
    (x0, x1), (p0, p1) = row["executions_per_s"], row["elapsed_per_exec_ms"]
    if x0 and x1:
        from .decompose import _ratio_words
        out += f": executions/s {_ratio_words(x0, x1)}"
        if p0 is not None and p1 is not None:
            out += f", elapsed per execution {p0:.3g} → {p1:.3g} ms"
    return out
