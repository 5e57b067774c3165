"""Build small typed Reports by hand for metric and rule unit tests (no parsing involved)."""
from __future__ import annotations

from awrscope.model import Header, Report, Row, make_section


def report(elapsed_s: float | None = 600.0, db_time_s: float | None = 1000.0, *, fg: dict | None = None,
           bg: dict | None = None, stats: dict | None = None, time_model: dict | None = None, os_stats: dict | None = None,
           tablespaces: dict | None = None, switches_per_hour: float | None = None, version: str | None = "11.2.0.4.0",
           kind: str = "awr", all_events: dict | None = None, top: dict | None = None, issues=None) -> Report:
    """fg/bg/all_events: {event: (waits, time_s[, wait_class])}; stats: {statistic: total};
    time_model: {name: seconds}; os_stats: {NAME: value}; tablespaces: {name: (reads, writes)};
    top: {event: (waits, time_s, pct)} printed Top-N rows."""
    secs = {}
    line = [100]

    def nxt() -> int:
        line[0] += 1
        return line[0]

    def events(key, d):
        rows = []
        for name, v in d.items():
            rows.append(Row(name, nxt(), {"waits": v[0], "time_s": v[1]}, {"wait_class": v[2]} if len(v) > 2 else {}))
        secs[key] = make_section(key, key, line[0], {"waits": "count", "time_s": "s"}, rows)

    if fg is not None:
        events("wait_events_fg", fg)
    if bg is not None:
        events("wait_events_bg", bg)
    if all_events is not None:
        events("wait_events", all_events)
    if top is not None:
        secs["top_events"] = make_section("top_events", "Top 5", nxt(), {}, [
            Row(n, nxt(), {"waits": v[0], "time_s": v[1], "pct_total_call_time": v[2]}) for n, v in top.items()])
    if stats is not None:
        secs["instance_activity"] = make_section("instance_activity", "Instance Activity Stats", nxt(), {"total": "stat"},
                                                 [Row(n, nxt(), {"total": v}) for n, v in stats.items()])
    tm = dict(time_model or {})
    if db_time_s is not None:
        tm.setdefault("DB time", db_time_s)
    if tm:
        secs["time_model"] = make_section("time_model", "Time Model", nxt(), {"time_s": "s"},
                                          [Row(n, nxt(), {"time_s": v}) for n, v in tm.items()])
    if os_stats is not None:
        secs["os_stats"] = make_section("os_stats", "OS Stats", nxt(), {"value": "stat"},
                                        [Row(n, nxt(), {"value": v}) for n, v in os_stats.items()])
    if tablespaces is not None:
        secs["tablespace_io"] = make_section("tablespace_io", "Tablespace IO Stats", nxt(), {},
                                             [Row(n, nxt(), {"reads": r, "writes": w}) for n, (r, w) in tablespaces.items()])
    if switches_per_hour is not None:
        secs["thread_activity"] = make_section("thread_activity", "Thread Activity", nxt(), {},
                                               [Row("log switches (derived)", nxt(),
                                                    {"total": switches_per_hour * (elapsed_s or 3600) / 3600,
                                                     "per_hour": switches_per_hour})])
    return Report(kind=kind, format="text", version=version, header=Header(), sections=secs, issues=list(issues or []),
                  elapsed_s=elapsed_s, db_time_s=db_time_s, source_path="synthetic")
