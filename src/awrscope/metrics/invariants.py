"""Conservation checks on every report, at run time: a report read wrongly must say so instead of
giving a confident wrong verdict. Each check compares figures the report prints in two places (or
a sum with its whole) within a stated tolerance; a failure is an issue naming the section, the
figures and the tolerance. Findings that lean on DB time then lose confidence (analysis.py).

* Top-N: the printed "% DB time" of each Top-N row against time / DB time, and its time against
  the same event's row in Foreground Wait Events.
* Foreground time: non-idle foreground event time + DB CPU <= DB time.
* Wait classes: foreground event time summed by wait class against the Wait Classes section.
* Shares: no event's share of DB time above 100 %.
* Parts: a statistic that is part of another never exceeds it (direct writes within physical writes).
* Header: its DB Time and CPUs against the Time Model's and OS Statistics' own.
"""
from __future__ import annotations

from msgspec import Struct

from ..model import Report
from ..oracle.events import wait_class
from .values import Metrics

#: Rounding slack in % points of a printed percentage (one decimal printed) plus a relative margin.
PCT_ABS_TOL = 0.15
PCT_REL_TOL = 0.03
#: Foreground waits + DB CPU may exceed DB time by this share (each printed total rounded; DB CPU and
#: waits are sampled at slightly different moments of the snapshot).
SUM_REL_TOL = 0.05
#: Per-class agreement: the larger of an absolute margin (one second per event, rounding) and a share.
CLASS_REL_TOL = 0.10


class Violation(Struct, frozen=True):
    check: str
    section: str
    line: int | None
    message: str

    def as_issue(self) -> dict:
        return {"level": "warning", "section": self.section, "line": self.line,
                "message": f"invariant {self.check}: {self.message}"}


def check(report: Report, m: Metrics) -> list[Violation]:
    dbt = m.v("db_time_s")
    if not dbt or dbt <= 0:
        return []
    return (_top_n(report, dbt) + _fg_sum(report, m, dbt) + _classes(report, m, dbt) + _shares(m, dbt) + _parts(report)
            + _header_agrees(report))


def _top_n(report: Report, dbt: float) -> list[Violation]:
    top = report.sections.get("top_events")
    out = []
    for row in top or ():
        t, p = row.values.get("time_s"), row.values.get("pct_db_time")
        if not row.name or t is None or p is None:
            continue
        computed = 100.0 * t / dbt
        tol = PCT_ABS_TOL + 100.0 * 0.5 / dbt + PCT_REL_TOL * p
        if abs(computed - p) > tol:
            implied = 100.0 * t / p if p else None
            out.append(Violation(
                "top-n-share", "top_events", row.line,
                f"'{row.name}' prints {p:g} % of DB time, but {t:,.1f} s / DB time {dbt:,.1f} s = {computed:.1f} % "
                f"(tolerance {tol:.2f} points)" + (f"; the printed share implies DB time {implied:,.0f} s" if implied else "")))
            break  # one row says it: the base of every share differs
    return out + _top_n_vs_events(report)


def _top_n_vs_events(report: Report) -> list[Violation]:
    """A Top-N row and the same event's row in Foreground Wait Events print one figure twice."""
    top, fg = report.sections.get("top_events"), report.sections.get("wait_events_fg")
    if top is None or fg is None or "foreground" not in top.title.lower():
        return []  # a system-wide Top-N (RAC global, 10g) holds background time too
    out = []
    for row in top:
        t = row.values.get("time_s")
        other = fg.row(row.name) if row.name else None
        u = other.values.get("time_s") if other is not None else None
        if t is None or u is None:
            continue
        tol = 1.0 + 0.01 * max(t, u)
        if abs(t - u) > tol:
            out.append(Violation("top-n-vs-events", "top_events", row.line,
                                 f"'{row.name}' is {t:,.1f} s in the Top-N but {u:,.1f} s in Foreground Wait Events "
                                 f"(line {other.line}; tolerance {tol:,.1f} s): one of the two rows was misread"))
    return out


def parts_limit(report: Report | None, m: Metrics, dbt: float) -> float:
    """The most that DB CPU plus the foreground waits may add up to before they over-account DB time: waits and
    CPU overlap on a busy host (a wait's end includes the run queue), so the report's own Top-N shares may add
    up past 100 %, and that much overlap is the report's, not a misreading; plus 5 % and half a second per
    printed total. The ledger (awrscope.ledger) names its remainder by the same limit."""
    printed = sum(r.values.get("pct_db_time") or 0.0 for r in (report.sections.get("top_events") or ())) if report else 0.0
    return dbt * (max(1.0, printed / 100.0) + SUM_REL_TOL) + 0.5 * (len(m.fg_events) + 1)


def _fg_sum(report: Report, m: Metrics, dbt: float) -> list[Violation]:
    if m.event_basis != "fg":  # system-wide events hold background time too
        return []
    waits = sum(e.time_s for e in m.fg_events.values())
    cpu = m.v("db_cpu_s") or 0.0
    limit = parts_limit(report, m, dbt)
    if cpu > limit:
        return [Violation("foreground-sum", "time_model", None,
                          f"DB CPU {cpu:,.1f} s alone exceeds DB time {dbt:,.1f} s: the report's own figures disagree "
                          "(a time model reset or sampled at different moments); every share of DB time is uncertain")]
    if waits + cpu > limit:
        return [Violation("foreground-sum", "wait_events_fg", None,
                          f"non-idle foreground waits {waits:,.1f} s + DB CPU {cpu:,.1f} s = {waits + cpu:,.1f} s exceed "
                          f"{limit:,.1f} s (DB time {dbt:,.1f} s, the Top-N's own overlap, {100 * SUM_REL_TOL:g} % and half a "
                          "second per printed total): an idle event counted as busy, or a row read twice")]
    return []


def _classes(report: Report, m: Metrics, dbt: float) -> list[Violation]:
    sec = report.sections.get("wait_classes")
    if sec is None or m.event_basis != "fg":
        return []
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for e in m.fg_events.values():
        c = wait_class(e.name, e.wait_class)
        sums[c] = sums.get(c, 0.0) + e.time_s
        counts[c] = counts.get(c, 0) + 1
    out = []
    printed: set[str] = set()
    for row in sec:
        name, t = row.name, row.values.get("time_s")
        if not name or t is None or name.lower().startswith(("db cpu", "idle")):
            continue
        cls = wait_class("", name)
        printed.add(cls)
        got = sums.get(cls, 0.0)
        tol = max(1.0 + 0.5 * counts.get(cls, 0), CLASS_REL_TOL * t, 0.002 * dbt)
        if abs(got - t) > tol:
            out.append(Violation("wait-class-sum", "wait_classes", row.line,
                                 f"class {cls}: the Wait Classes section prints {t:,.1f} s, the foreground events of "
                                 f"that class sum to {got:,.1f} s (tolerance {tol:,.1f} s)"))
    for cls, got in sums.items():
        tol = max(1.0 + 0.5 * counts[cls], 0.002 * dbt)
        if printed and cls not in printed and got > tol:
            out.append(Violation("wait-class-sum", "wait_classes", sec.line,
                                 f"class {cls}: not printed in the Wait Classes section, but foreground events of that "
                                 f"class sum to {got:,.1f} s (tolerance {tol:,.1f} s)"))
    return out


#: (part, whole) statistic pairs of Instance Activity: a part can never exceed its whole
# ('redo synch time overhead (usec)' within 'redo synch time (usec)' is checked where the metric is
# derived: printed larger in 12 corpus reports, the counter itself is unreliable, not our reading)
PARTS = (("physical writes direct", "physical writes"),
         ("redo wastage", "redo size"))


def _header_agrees(report: Report) -> list[Violation]:
    """The header's DB Time and CPUs against the Time Model's and OS Statistics' own: two readings of one figure
    that disagree say the sections are not the header's report (a paste of several), or a report to doubt."""
    h, out = report.header, []
    tm = report.sections.get("time_model")
    row = tm.row("DB time") if tm is not None else None
    t = row.values.get("time_s") if row is not None else None
    if h.db_time_min and t:
        printed = h.db_time_min * 60.0
        if abs(printed - t) > max(1.0, 0.02 * t):  # the header to 0.01 min, the Time Model to 0.1 s
            out.append(Violation("header-db-time", "time_model", row.line,
                                 f"the header's DB Time {h.db_time_min:,.2f} min ({printed:,.1f} s, line "
                                 f"{h.db_time_line or h.line}) and the Time Model's DB time {t:,.1f} s disagree by "
                                 f"{100.0 * abs(printed - t) / t:.0f} %: the sections may not be the header's report"))
    os_sec = report.sections.get("os_stats")
    cpus = os_sec.row("NUM_CPUS") if os_sec is not None else None
    n = cpus.values.get("value") if cpus is not None else None
    # NUM_CPUS prints an 'End Value' when the count changed in the window (a hot-add, a resize): either may be the header's
    if h.cpus and n and h.cpus not in {int(n), int(cpus.values.get("end_value") or n)}:
        out.append(Violation("header-cpus", "os_stats", cpus.line,
                             f"the header prints {h.cpus} CPUs (line {h.host_line or h.line}), OS Statistics NUM_CPUS "
                             f"{n:g}: the sections may not be the header's report"))
    return out


def _parts(report: Report) -> list[Violation]:
    out = []
    for part, whole in PARTS:
        p, w = report.stat_total(part), report.stat_total(whole)
        if p is not None and w is not None and p > w * (1 + SUM_REL_TOL) + 1:
            sec = report.sections.get("instance_activity")
            row = sec.row(part) if sec else None
            out.append(Violation("part-within-whole", "instance_activity", row.line if row else None,
                                 f"'{part}' {p:,.0f} exceeds '{whole}' {w:,.0f}: a counter wrapped or was reset, "
                                 "metrics from it are not trusted"))
    return out


def _shares(m: Metrics, dbt: float) -> list[Violation]:
    out = []
    for e in m.fg_events.values():
        if e.time_s > dbt * (1 + SUM_REL_TOL):
            src = e.sources[0] if e.sources else None
            out.append(Violation("share-over-100", src.section if src else "metrics", src.line if src else None,
                                 f"'{e.name}' {e.time_s:,.1f} s is {100 * e.time_s / dbt:.0f} % of DB time {dbt:,.1f} s: "
                                 "no event can take more than all of DB time"))
    return out
