"""Instance resource limits (Resource Limit Stats): what a database refuses or queues once a hard limit is
reached, which the time model does not count."""
from __future__ import annotations

from ..metrics import Source
from .base import Context, Evidence, Needs, make_finding, rule


#: Resources whose limit is a hard one (Resource Limit Stats), and what reaching it does; gcs/ges resources grow past
#: their initial allocation and are not here
HARD_LIMITS = {
    "processes": "new connections fail (ORA-00020 maximum number of processes exceeded)",
    "sessions": "new sessions fail (ORA-00018 maximum number of sessions exceeded)",
    "transactions": "new transactions fail (ORA-01574 maximum number of concurrent transactions exceeded)",
    "dml_locks": "DML fails (ORA-00055 maximum number of DML locks exceeded)",
    "enqueue_locks": "enqueue requests fail (ORA-00052)",
    "enqueue_resources": "enqueue requests fail (ORA-00052 maximum number of enqueue resources exceeded)",
    "max_shared_servers": "shared server requests queue for a free server",
    "max_dispatchers": "no further dispatcher can start",
    "parallel_max_servers": "parallel statements get fewer servers than asked, or run serially (downgrades)",
}


@rule("G16", "resource-limit-reached", "Instance resource limits reached (processes, sessions, ...)", family="context")
def g16(ctx: Context, th: dict):
    """Resource Limit Stats shows a resource with a hard limit (processes, sessions, transactions, DML locks,
    enqueues, shared servers, dispatchers, parallel servers) whose Maximum Utilization reached its Limit. The
    maximum is a high-water mark since the instance started, not of this window alone: the finding says so. An
    observation, claiming no DB time: what hits the limit fails (ORA-00020, ORA-00018, ...) or queues, which the
    time model does not count. What to do: find what holds the resource (connection pools that grow, leaked
    sessions) before raising the limit."""
    sec = ctx.report.sections.get("resource_limits")
    if sec is None:
        raise Needs("Resource Limit Stats")
    hit = [r for r in sec.rows if (r.name or "").strip().lower() in HARD_LIMITS
           and r.values.get("maximum_utilization") is not None and r.values.get("limit")
           and r.values["maximum_utilization"] >= r.values["limit"]]
    if not hit:
        return None
    ev = [Evidence(f"maximum_utilization[{r.name.strip()}]", r.values["maximum_utilization"], "count",
                   f">= limit {r.values['limit']:,.0f}",
                   (Source("resource_limits", r.name, "maximum_utilization", r.line, r.values["maximum_utilization"]),),
                   f"now {r.values['current_utilization']:,.0f}" if r.values.get("current_utilization") is not None
                   else None) for r in hit]
    what = "; ".join(f"{r.name.strip()}: {HARD_LIMITS[r.name.strip().lower()]}" for r in hit)
    return make_finding(ctx, "G16", 0.0, "high", ev,
                        f"At its limit, {what}. Find what holds them (a connection pool that grows, sessions left "
                        "open, a logon storm) before raising the limit; the alert log and the listener log show "
                        "the refused connections. The maximum is since the instance started: an AWR report of the "
                        "window it happened in shows the load behind it.",
                        title="Resource limits reached since the instance started: " + ", ".join(
                            f"{r.name.strip()} {r.values['maximum_utilization']:,.0f} of {r.values['limit']:,.0f}"
                            for r in hit))
