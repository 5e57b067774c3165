"""The time base of one report: the elapsed time its statistics imply when the header's disagrees or is
missing, and the DB time a compare-period report prints only per second. Read by the analysis of a
compare-period report's periods and by compare alike, so it sits below both."""
from __future__ import annotations

from msgspec.structs import replace

from ..model import Report


def _stat_elapsed(report: Report) -> float | None:
    """Elapsed seconds implied by Instance Activity totals / per-second rates (median)."""
    sec = report.sections.get("instance_activity")
    if sec is None:
        return None
    est = [r.get("total") / r.get("per_second") for r in sec.rows
           if (r.get("total") or 0) >= 10_000 and (r.get("per_second") or 0) >= 10]
    from statistics import median  # 3 ms of imports the other commands never need

    return median(est) if est else None


def _elapsed(report: Report) -> tuple[float | None, str]:
    e, s = report.elapsed_s, _stat_elapsed(report)
    if e and s and abs(e - s) > 0.05 * s:
        return s, f"statistics totals / per-second rates ({s:,.1f} s; header says {e:,.1f} s)"
    if e:
        return e, "header"
    if s:
        return s, "statistics totals / per-second rates"
    return None, "unknown"


def with_time_base(report: Report) -> tuple[Report, str]:
    """The report with the elapsed time its statistics imply when the header's disagrees or is missing, and the DB
    time a compare-period report prints only per second (Workload Comparison); and where the elapsed time came from."""
    elapsed, ebasis = _elapsed(report)
    rep = report if elapsed == report.elapsed_s else replace(report, elapsed_s=elapsed)
    if rep.db_time_s is None and elapsed and (_lp(rep, "DB time") or 0) > 0:
        rep = replace(rep, db_time_s=_lp(rep, "DB time") * elapsed)
    return rep, ebasis


def _lp(report: Report, name: str, field: str = "per_second") -> float | None:
    sec = report.sections.get("load_profile")
    r = sec.row(name) if sec else None
    return r.get(field) if r else None
