"""Activity Over Time (an ASH report's, or the one an AWR report prints since 12.1) as average active sessions per slot, split by wait class: the
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


def ash_cpu_share(report: Report) -> tuple[float, list[int]] | None:
    """The share (%) of Activity Over Time's samples that ASH saw on CPU or queued for it ('CPU + Wait for CPU'),
    with the lines it is read from; a lower bound, as each slot prints its top three events only. None without
    the section or samples."""
    slots, _outside = timed_slots(report)
    total = sum(r.values["slot_count"] for r in slots)
    if not total:
        return None
    first, last = slots[0].line, max(r.line for r in slots) + 3  # a slot's events are on its line and the two after
    cpu = [e for e in report.sections.get("ash_activity_events") or () if first <= e.line <= last
           and (e.name or "").lower().startswith("cpu + wait for cpu") and e.values.get("event_count")]
    return 100.0 * sum(e.values["event_count"] for e in cpu) / total, [e.line for e in cpu]


#: The part of a slot's samples not among the three events it prints
REST = "other events (not in the slot's top 3)"


def timed_slots(report: Report) -> tuple[list, list]:
    """Activity Over Time's slots with samples and a duration, in report order, and those left out: a slot printed
    with a duration that is not positive ('06:00:37 (-1,837 secs)', 19c) holds samples from outside the window."""
    sec = report.sections.get("ash_activity_over_time")
    rows = [r for r in sec.rows if r.values.get("slot_count") and r.values.get("duration_s") is not None] if sec else []
    return [r for r in rows if r.values["duration_s"] > 0], [r for r in rows if r.values["duration_s"] <= 0]


def busiest_span(slots: list, share: float) -> tuple[int, int] | None:
    """The shortest run of consecutive slots (first and last index) holding at least ``share`` of all their samples;
    of two as short, the one with more samples. None without samples."""
    total = sum(r.values["slot_count"] for r in slots)
    best, best_key = None, None
    for i in range(len(slots)):
        count = duration = 0.0
        for j in range(i, len(slots)):
            count += slots[j].values["slot_count"]
            duration += slots[j].values["duration_s"]
            if count >= share * total:
                if best_key is None or (duration, -count) < best_key:
                    best, best_key = (i, j), (duration, -count)
                break
    return best if total else None


def ash_activity(report: Report) -> list[dict] | None:
    """One entry per slot {begin, end (ISO), samples, aas, parts {class: AAS}, events, line}. A slot's AAS is its
    share of all samples times the report's DB time, over the slot's duration, so the slots add up to the
    report's DB time (a slot whose duration is not positive is left out); its three printed events go to their
    wait classes (CPU + Wait for CPU is CPU), the rest of its samples to REST. Slot times print no date: the analysis begin gives it, and a time that
    goes backwards is the next day. None without the section, the begin time or DB time."""
    rows, _outside = timed_slots(report)
    begin = report.header.begin.time if report.header.begin else None
    if begin is None or not report.db_time_s:
        return None
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
