"""Which statements changed between two periods, from their "SQL ordered by Elapsed Time" sections.

Each statement's elapsed time per second (its share of the change in average active sessions) is split
like a ledger leaf: executions per second x elapsed per execution, volume and latency by the midpoint
split. The sections are top-N lists: a statement printed on one side only either ran only there or fell
below the other side's print threshold, so it is said to have entered or left the top list, and its
absence counts as zero only with that caveat."""
from __future__ import annotations

from ..model import Report
from ..numfmt import fmt_num

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


def _compared_statements(sec, dbt0: float, dbt1: float) -> tuple[dict[str, dict], dict[str, dict]]:
    """Both periods' statements of a compare-period report's "Top SQL Comparison by Elapsed Time": elapsed =
    its printed share of the period's DB time x that DB time (the per-execution milliseconds are rounded to
    whole ms there); a period whose cells are 'N/A' or blank did not capture the statement."""
    out: tuple[dict[str, dict], dict[str, dict]] = ({}, {})
    for row in sec.rows:
        plans = [int(p) if p.isdigit() else None for p in (row.text.get("plans") or "").replace(" ", "").split("/")]
        for k, (period, dbt) in enumerate((("1st", dbt0), ("2nd", dbt1))):
            pct = row.values.get(f"pct_db_time_{period}")
            if pct is None:
                continue
            out[k][row.name] = {"elapsed_s": pct / 100.0 * dbt, "executions": row.values.get(f"executions_{period}") or 0.0,
                                "module": None, "text": (row.text.get("sql_text") or "")[:80], "line": row.line,
                                "plan_hash": None, "plans": plans[k] if k < len(plans) else None,
                                "plans_both": plans[2] if len(plans) == 3 else None}
    return out


def sql_change(r0: Report, r1: Report, e0: float | None, e1: float | None, comparison=None,
               db_time: tuple[float | None, float | None] = (None, None)) -> dict | None:
    """Statements whose elapsed time per second changed most, from both sides' SQL ordered by Elapsed Time or a
    compare-period report's Top SQL Comparison (``comparison``, with each period's DB time); None when
    neither is printed or an elapsed time is unknown."""
    if not e0 or not e1:
        return None
    if comparison is not None and db_time[0] and db_time[1]:
        s0, s1 = _compared_statements(comparison, *db_time)
        source = f"Top SQL Comparison by Elapsed Time (line {comparison.line})"
    elif "sql_by_elapsed" in r0.sections and "sql_by_elapsed" in r1.sections:
        s0, s1 = _statements(r0), _statements(r1)
        source = "SQL ordered by Elapsed Time of each side"
    else:
        return None
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
        if (a or b).get("plans_both"):
            row["plans"] = [a["plans"] if a else None, b["plans"] if b else None, (a or b)["plans_both"]]
        (x0, x1), (p0, p1) = row["executions_per_s"], row["elapsed_per_exec_ms"]
        if x0 and x1 and p0 is not None and p1 is not None:
            row["volume_aas"] = round((x1 - x0) * (p0 + p1) / 2000.0, 6)
            row["latency_aas"] = round((p1 - p0) / 1000.0 * (x0 + x1) / 2.0, 6)
        rows.append(row)
    rows.sort(key=lambda r: -abs(r["delta_aas"]))
    return {"statements": rows[:TOP], "count": {"before": len(s0), "after": len(s1)}, "source": source,
            "note": "a top-N list: a statement on one side only may have run below the other side's print threshold; "
                    "its absence is counted as zero"}


def sql_words(row: dict) -> str:
    """'82ud5h0qcg0bf +2.11 AAS: executions/s +40.1 %, elapsed per execution 14.9 → 21.3 ms'."""
    out = f"{row['sql_id']} {fmt_num(row['delta_aas'], signed=True)} AAS ({row['status']})"
    (x0, x1), (p0, p1) = row["executions_per_s"], row["elapsed_per_exec_ms"]
    if x0 and x1:
        from .decompose import _ms, _ratio_words
        out += f": executions/s {_ratio_words(x0, x1)}"
        if p0 is not None and p1 is not None:
            out += (f", elapsed per execution {_ms(p0)} → {_ms(p1)} ms" if max(p0, p1) < 10_000 else
                    f", elapsed per execution {p0 / 1000:,.0f} → {p1 / 1000:,.0f} s")
    plans = row.get("plans")
    if plans and plans[2] and plans[2] > max(p or 0 for p in plans[:2]):
        out += f", the execution plan changed between the periods ({plans[0]} and {plans[1]}, {plans[2]} over both)"
    elif plans and plans[2] and plans[2] > 1:
        out += f", {plans[2]} execution plans"
    return out
