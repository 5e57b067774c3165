"""An ASH report's Activity Over Time as average active sessions per slot, split by wait class: the
sampled counterpart of Enterprise Manager's activity chart, placed on the report's own dates."""
from __future__ import annotations

from datetime import datetime, time, timedelta

from ..model import Report
from ..oracle.events import wait_class
from .. import patterns

#: A slot's clock, '10:05:00': what datetime.strptime(..., '%H:%M:%S') reads, by its own field patterns (it would
#: load _strptime and calendar for it)
_CLOCK = patterns.compile(r"(2[0-3]|[0-1]\d|\d):([0-5]\d|\d):(6[0-1]|[0-5]\d|\d)")


def slot_clock(name: str) -> time | None:
    m = _CLOCK.fullmatch(name)
    try:
        return time(int(m[1]), int(m[2]), int(m[3])) if m else None
    except ValueError:  # out of range, as strptime refuses it
        return None


#: The part of a slot's samples not among the three events it prints
REST = "other events (not in the slot's top 3)"


def ash_activity(report: Report) -> list[dict] | None:
    """One entry per slot {begin, end (ISO), samples, aas, parts {class: AAS}, events, line}. A slot's AAS is its
    share of all samples times the report's DB time, over the slot's duration, so the slots add up to the
    report's DB time; its three printed events go to their wait classes (CPU + Wait for CPU is CPU), the
    rest of its samples to REST. Slot times print no date: the analysis begin gives it, and a time that
    goes backwards is the next day. None without the section, the begin time or DB time."""
    sec = report.sections.get("ash_activity_over_time")
    begin = report.header.begin.time if report.header.begin else None
    if sec is None or begin is None or not report.db_time_s:
        return None
    rows = [r for r in sec.rows if r.values.get("slot_count") and r.values.get("duration_s")]
    total = sum(r.values["slot_count"] for r in rows)
    if not rows or not total:
        return None
    events = sorted((r for r in (report.sections.get("ash_activity_events") or ()) if r.name), key=lambda r: r.line)
    out, day, last = [], begin.date(), None
    for k, r in enumerate(rows):
        clock = slot_clock(r.name or "")
        if clock is None:
            return None
        if last is not None and clock < last:
            day += timedelta(days=1)
        last = clock
        start = datetime.combine(day, clock)
        duration = r.values["duration_s"]
        aas = r.values["slot_count"] / total * report.db_time_s / duration
        per_sample = aas / r.values["slot_count"]
        parts: dict[str, float] = {}
        listed = []
        counted = 0.0
        upto = rows[k + 1].line if k + 1 < len(rows) else float("inf")
        for e in (e for e in events if r.line <= e.line < upto):  # the slot's events: on its lines, before the next
            count = e.values.get("event_count")
            if count is None:
                continue
            cls = "CPU" if e.name.lower().startswith("cpu + wait for cpu") else wait_class(e.name)
            parts[cls] = parts.get(cls, 0.0) + count * per_sample
            counted += count
            listed.append({"event": e.name, "samples": count})
        if r.values["slot_count"] > counted:
            parts[REST] = (r.values["slot_count"] - counted) * per_sample
        out.append({"begin": start.isoformat(sep=" "), "end": (start + timedelta(seconds=duration)).isoformat(sep=" "),
                    "samples": r.values["slot_count"], "aas": round(aas, 4),
                    "parts": {k2: round(v, 4) for k2, v in parts.items()}, "events": listed, "line": r.line})
    return out
