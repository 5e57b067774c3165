"""Cross-section checks that repair what a column width destroyed, or flag it (spec H.6).

Run once per report after the sections are mapped. Every repair is reported as an issue.
"""
from __future__ import annotations

from ...model import ParseIssue, Report, Row, make_section

_HISTOGRAMS = ("wait_histogram", "wait_histogram_32ms", "wait_histogram_us")


def reconcile(report: Report) -> None:
    _histogram_totals_lost_suffix(report)


def _event_waits(report: Report, name: str) -> float | None:
    """All waits of an event (foreground + background, or the system-wide row)."""
    total = None
    for key in ("wait_events", ) if "wait_events" in report.sections else ("wait_events_fg", "wait_events_bg"):
        sec = report.sections.get(key)
        row = sec.row(name) if sec else None
        if row is not None and row.get("waits") is not None:
            total = (total or 0.0) + row.get("waits")
    return total


def _histogram_totals_lost_suffix(report: Report) -> None:
    """The text histogram prints 'Total Waits' in 5 characters: 521.6K may come out
    as '521.6' (the K cut off; AWR 11.2.0.3). When the printed total is about a
    thousandth of the event's waits, restore the K."""
    for key in _HISTOGRAMS:
        sec = report.sections.get(key)
        if sec is None:
            continue
        changed = False
        rows = []
        for r in sec.rows:
            t = r.get("total_waits")
            waits = _event_waits(report, r.name) if (t is not None and r.name and t != int(t)) else None
            if waits and abs(t * 1000 - waits) <= 0.05 * waits:
                values = dict(r.values)
                values["total_waits"] = t * 1000
                rows.append(Row(r.name, r.line, values, r.text))
                report.issues.append(ParseIssue(
                    "info", key, r.line,
                    f"{r.name}: histogram total '{t:g}' lost its K suffix to the column width; "
                    f"read as {t * 1000:,.0f} (the wait event sections count {waits:,.0f} waits)"))
                changed = True
            else:
                rows.append(r)
        if changed:
            report.sections[key] = make_section(sec.key, sec.title, sec.line, sec.units, rows, sec.notes)
