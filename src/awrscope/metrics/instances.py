"""Per-instance figures of a RAC global report (awrgrpt): DB time, AAS, CPU, redo and top events of each
instance, from the report's own by-instance sections, each with the line it was read from."""
from __future__ import annotations

from ..model import Report

#: The busiest instance is called out when it carries this multiple of the instances' mean DB time (G13's ratio)
IMBALANCE_RATIO = 1.5


def instance_breakdown(report: Report, top_n: int = 5) -> list[dict] | None:
    """One entry per instance, busiest first; None unless the report prints DB time for two or more instances."""
    tm = report.sections.get("time_model_by_instance")
    per: dict[str, dict] = {}
    for row in tm or ():
        inst = row.text.get("instance")
        if not inst or row.values.get("time_s") is None:
            continue
        e = per.setdefault(inst, {"instance": inst, "db_time_s": None, "db_cpu_s": None, "line": row.line})
        if row.name == "DB time":
            e["db_time_s"] = row.values["time_s"]
        elif row.name == "DB CPU":
            e["db_cpu_s"] = row.values["time_s"]
    per = {k: v for k, v in per.items() if v["db_time_s"] is not None}
    if len(per) < 2:
        return None
    for row in report.sections.get("os_stats_by_instance") or ():
        if row.name == "NUM_CPUS" and row.text.get("instance") in per:
            per[row.text["instance"]]["cpus"] = row.values.get("value")
    for row in report.sections.get("load_profile_by_instance") or ():
        inst = row.text.get("instance")
        if inst in per and (row.name or "").lower().startswith("redo size") and row.values.get("per_second") is not None:
            scale = 1024.0 if "(k)" in row.name.lower() else 1.0
            per[inst]["redo_Bps"] = row.values["per_second"] * scale
    for row in report.sections.get("top_events_by_instance") or ():
        inst = row.text.get("instance")
        if inst not in per or not row.name or row.values.get("time_s") is None:
            continue
        ev = {"event": row.name, "wait_class": row.text.get("wait_class"), "time_s": row.values["time_s"],
              "avg_ms": row.values.get("avg_wait_ms"), "waits": row.values.get("waits"),
              "pct_db_time": row.values.get("pct_db_time"), "line": row.line}
        per[inst].setdefault("top_events", []).append(ev)
        if row.name.lower() == "log file sync":
            per[inst]["log_file_sync"] = ev
    total = sum(v["db_time_s"] for v in per.values())
    mean = total / len(per)
    elapsed = report.elapsed_s
    out = []
    for v in sorted(per.values(), key=lambda v: -v["db_time_s"]):
        v.setdefault("cpus", None)
        v.setdefault("redo_Bps", None)
        v.setdefault("log_file_sync", None)
        v["top_events"] = sorted(v.get("top_events", []), key=lambda e: -e["time_s"])[:top_n]
        v["aas"] = v["db_time_s"] / elapsed if elapsed else None
        v["pct_of_cluster_db_time"] = 100.0 * v["db_time_s"] / total if total else None
        v["x_mean_db_time"] = v["db_time_s"] / mean if mean else None
        v["busiest"] = bool(mean) and v["db_time_s"] / mean >= IMBALANCE_RATIO
        out.append(v)
    return out
