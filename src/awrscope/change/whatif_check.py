"""Every what-if a BEFORE analysis makes (W2-W6; W1 has its own latency check in compare.py), confronted with
what the AFTER period shows: the time of the events the model says its remedy removes, per second of the
AFTER period scaled to the BEFORE period's length, against the model's predicted saving.

A prediction is tested only when the AFTER period shows that its remedy was applied (fewer log file sync
waits per transaction for batching, more redo per log switch for a resize, another pga_aggregate_target, a
less busy host, fewer object-drop buffer writes): otherwise "not testable because ..."."""
from __future__ import annotations

from ..numfmt import fmt_num

#: The foreground events whose time a model's remedy removes.
TARGETS = {
    "W2": ("log file sync",),
    "W3": ("log file switch (checkpoint incomplete)", "log file switch completion"),
    "W4": ("direct path read temp", "direct path write temp"),
    "W5": ("log file sync",),
    "W6": ("local write wait", "enq: ro - fast object reuse", "enq: ko - fast object checkpoint",
           "enq: cr - block range reuse ckpt"),
}
#: Slack around the predicted range before "did not hold": the periods' rounding and workload noise.
SLACK = 0.1


def _time_per_s(side: dict, events) -> float:
    return sum((side["events"].get(f"fg:{e}") or {}).get("time_per_s") or 0.0 for e in events)


def _metric(side: dict, key: str):
    return ((side["analysis"]["metrics"].get(key)) or {}).get("value")


def _param(side: dict, name: str) -> str | None:
    sec = side["parsed"].sections.get("init_parameters")
    row = sec.row(name) if sec else None
    return (row.text.get("end") or row.text.get("begin")) if row is not None else None


def _remedy(wid: str, a: dict, b: dict) -> tuple[bool | None, str]:
    """Whether the AFTER period shows the model's remedy applied, and what says so."""
    if wid == "W2":
        w = [(s["events"].get("fg:log file sync") or {}).get("waits_per_s") for s in (a, b)]
        t = [s["metrics"]["txn_per_s"]["value"] for s in (a, b)]
        if not all(w) or not all(t):
            return None, "log file sync waits or transactions per second not printed on both sides"
        x0, x1 = w[0] / t[0], w[1] / t[1]
        return x1 <= 0.8 * x0, f"log file sync waits per transaction {fmt_num(x0)} → {fmt_num(x1)}"
    if wid == "W3":
        r = [s["metrics"]["redo_Bps"]["value"] for s in (a, b)]
        sw = [s["metrics"]["log_switches_per_hour"]["value"] for s in (a, b)]
        if not all(r) or not all(sw):
            return None, "redo per second or log switches per hour not printed on both sides"
        x0, x1 = r[0] * 3600 / sw[0], r[1] * 3600 / sw[1]
        return x1 >= 1.5 * x0, f"redo per log switch {x0 / 2**20:,.0f} → {x1 / 2**20:,.0f} MiB"
    if wid == "W4":
        p = [_param(s, "pga_aggregate_target") for s in (a, b)]
        if not all(p):
            return None, "pga_aggregate_target not printed on both sides"
        return p[0] != p[1], f"pga_aggregate_target {p[0]} → {p[1]}"
    if wid == "W5":
        h = [_metric(s, "host_cpu_busy_pct") for s in (a, b)]
        if None in h:
            return None, "host CPU busy not printed on both sides"
        return h[1] <= h[0] - 10.0, f"host CPU busy {h[0]:.0f} → {h[1]:.0f} %"
    if wid == "W6":
        d = [_metric(s, "drop_buffers_written") for s in (a, b)]
        if None in d:
            return None, "'DBWR object drop buffers written' not printed on both sides"
        return d[1] <= 0.5 * d[0], f"DBWR object drop buffers written {d[0]:,.0f} → {d[1]:,.0f}"
    return None, "no check for this model"


def check_whatifs(a: dict, b: dict) -> list[dict]:
    """The checks of the W2-W6 results of BEFORE's findings (compare.py's side dicts with 'analysis' and 'parsed')."""
    out = []
    e0 = a["report"]["elapsed_s"]
    for f in a["analysis"]["findings"]:
        for w in f.get("whatif", []):
            wid = w["id"]
            if wid not in TARGETS:
                continue
            base = {"id": wid, "finding": f["id"], "title": f"{f['id']}: {w['title']}", "metric": "saved_s", "unit": "s"}
            lo, hi = (w.get("result") or {}).get("saved_s") or (None, None)
            applied, why = _remedy(wid, a, b)
            if lo is None or hi is None:
                out.append(base | {"checked": False, "reason": "not testable because the model gives no saving range"})
                continue
            if not e0:
                out.append(base | {"checked": False, "reason": "not testable because the BEFORE report prints no elapsed time"})
                continue
            if not applied:
                reason = (f"not testable because the AFTER period does not show the remedy ({why})" if applied is False
                          else f"not testable because {why}")
                out.append(base | {"checked": False, "reason": reason})
                continue
            measured = (_time_per_s(a, TARGETS[wid]) - _time_per_s(b, TARGETS[wid])) * e0
            held = lo * (1 - SLACK) - 1.0 <= measured <= hi * (1 + SLACK) + 1.0
            verdict = "held" if held else ("did not hold: saved more than predicted (model conservative)" if measured > hi
                                           else "did not hold: saved less than predicted (model optimistic)")
            err = 0.0 if held else measured - (hi if measured > hi else lo)
            out.append(base | {"checked": True, "predicted": [lo, hi], "measured": round(measured, 1), "error": round(err, 1),
                               "error_pct": round(100.0 * err / (hi if measured > hi else lo), 1) if err and (hi if measured > hi else lo) else None,
                               "error_vs_mid_pct": None, "verdict": verdict,
                               "note": f"the remedy shows in the AFTER period: {why}; saving = the targeted events' time per "
                                       "second, before - after, times the BEFORE period's length"})
    return out
