"""G09: session connect and disconnect, from the Time Model's connection management call elapsed time and the
logons: a storm of logons, or few logons each slow."""
from __future__ import annotations

from ..numfmt import fmt_num

from ..metrics.values import Source
from .base import Context, Evidence, Needs, make_finding, rule
from .workload import _tm, _tm_ev


@rule("G09", "logon-storm", "Session connect and disconnect (logon storm)", family="general", culprits=("sql:executions",),
      pct=5.0, logons_per_s=5.0)
def g09(ctx: Context, th: dict):
    """Connection management takes >= 5 % of DB time (Time Model 'connection management call elapsed
    time'), or more than 5 logons per second: the application connects per request. What to do: a
    connection pool (or DRCP / a shared pool of connections), and check the logon triggers. Fewer than 5
    logons per second taking >= 5 % of DB time are slow connections (ms per logon), not a storm.

    Conditions: a storm is made of logons. When 'logons cumulative' is printed, fewer than 5 per
    second is no storm, whatever the connection time (slow connections, said with ms per logon); connection time spent in failed-logon delays
    ('logon delay' events: wrong passwords, each delayed) is not counted (G15 names that event)."""
    ctx.need("db_time_s")
    dbt, e = ctx.m.v("db_time_s"), ctx.m.v("elapsed_s")
    conn, crow = _tm(ctx, "connection management call elapsed time")
    logons = ctx.report.stat("logons cumulative")
    rate = logons.values.get("total") / e if logons is not None and logons.values.get("total") is not None and e else None
    lp = ctx.report.sections.get("load_profile")
    if rate is None and lp is not None and lp.row("Logons") is not None:  # a report cut before Instance Activity
        logons, rate = None, lp.row("Logons").values.get("per_second")
    if conn is None and rate is None:
        raise Needs("Time Model 'connection management call elapsed time' or 'logons cumulative' (or Load Profile 'Logons')")
    pct = 100.0 * (conn or 0.0) / dbt
    delay = sum(e.time_s for e in ctx.m.fg_events.values() if "logon delay" in e.name.lower())
    storm = rate is not None and rate >= th["logons_per_s"]
    # connection management time made of failed-logon delays is not a logon storm (G15 names the delay event)
    conn_left = max(0.0, (conn or 0.0) - delay)
    if not storm and 100.0 * conn_left / dbt < th["pct"]:
        return None
    # few logons, each slow: connection time is no storm, but it is DB time a logon costs
    slow = not storm and rate is not None and logons is not None and conn is not None
    ev = []
    if conn is not None:
        ev.append(_tm_ev("connection management call elapsed time", conn, crow, dbt, f">= {th['pct']} %"))
    if rate is not None:
        row = logons or lp.row("Logons")
        ev.append(Evidence("logons_per_s", round(rate, 3), "1/s", f">= {th['logons_per_s']}",
                           (Source("instance_activity", row.name, "total", row.line, row.values.get("total")),) if logons
                           else (Source("load_profile", row.name, "per_second", row.line, rate),)))
    # few logons, each slow: where the time goes (waits in the logon path, CPU) is not told, so nothing is claimed
    claimed = ctx.claim("DB CPU", conn_left) if storm or rate is None else 0.0
    # connection time is CPU and waits the Time Model does not split: only DB CPU left by the causes before it
    # (parsing's measured CPU) is claimed, and the rest said to be elsewhere
    caveats = [f"connection management ({fmt_num(conn_left, 's')}) overlaps other parts of DB time: {fmt_num(claimed, 's')} of DB CPU "
               "are claimed here; the rest is in parts other findings claimed or in waits"] \
        if claimed and claimed < conn_left - 0.005 * dbt else \
        [f"connection management ({fmt_num(conn_left, 's')}) is spread over DB CPU and the waits of the logon path, which "
         "the Time Model does not split: this finding claims none of it (the commit at disconnect is log file sync's)"] \
        if not claimed else []
    if slow or (not storm and rate is None):
        n = logons.values.get("total") if logons is not None else None
        per = f", {1000.0 * conn_left / n:,.0f} ms per logon" if n else ""
        return make_finding(ctx, "G09", conn_left, "medium", ev,
                            "Each connection is slow, not numerous: check logon triggers, auditing of logons, the "
                            "authentication path (LDAP, Kerberos, password verifiers), the listener's name lookups and "
                            "process creation on the host; a connection pool keeps the cost out of the calls.",
                            title=f"Slow connections: connect/disconnect {pct:.1f} % of DB time" + per
                                  + (f" at {fmt_num(rate)} logons/s" if rate is not None else ""), caveats=caveats)
    return make_finding(ctx, "G09", conn_left, "high" if conn is not None else "medium", ev,
                        "Sessions connect and disconnect per request: use a connection pool in the application server "
                        "(or Database Resident Connection Pooling), check logon triggers and auditing of logons.",
                        title="Logon storm: " + ", ".join(x for x in (
                            f"connect/disconnect {pct:.1f} % of DB time" if conn is not None else "",
                            f"{rate:.1f} logons/s" if rate is not None else "") if x), caveats=caveats)
