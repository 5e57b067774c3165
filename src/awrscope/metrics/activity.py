"""Activity Over Time (an ASH report's, or the one an AWR report prints since 12.1) as average active sessions per
slot, split by wait class: the sampled counterpart of Enterprise Manager's activity chart, placed on the report's own
dates."""
from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import NamedTuple

from ..model import Report, Row
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


class Slot(NamedTuple):
    """One slot of Activity Over Time placed on a time axis: seconds from midnight of the first slot's day (a clock
    that goes backwards is the next day), its samples and its event rows."""

    row: Row
    start_s: float
    duration_s: float
    samples: float
    events: tuple[Row, ...]  # ash_activity_events on the slot's lines, before the next printed slot

    @property
    def end_s(self) -> float:
        return self.start_s + self.duration_s


def timed_slots(report: Report) -> tuple[list[Slot], list[Row]]:
    """Activity Over Time's slots with samples, a start clock and a duration, in report order, and the printed slots
    left out: one whose duration is not positive ('06:00:37 (-1,837 secs)', 19c) holds samples from outside the
    window. Oracle prints no slot without samples: the slots need not be back to back."""
    sec = report.sections.get("ash_activity_over_time")
    if sec is None:
        return [], []
    printed = [r for r in sec.rows if r.values.get("slot_count")]
    lines = sorted(r.line for r in sec.rows)
    events = sorted((e for e in report.sections.get("ash_activity_events") or () if e.name), key=lambda e: e.line)
    kept: list[Slot] = []
    left: list[Row] = []
    day, last = 0.0, None
    for r in printed:
        duration, clock = r.values.get("duration_s"), slot_clock(r.name or "")
        if duration is None or duration <= 0 or clock is None:
            left.append(r)
            continue
        at = clock.hour * 3600 + clock.minute * 60 + clock.second
        if last is not None and at < last:
            day += 86400.0
        last = at
        upto = next((line for line in lines if line > r.line), float("inf"))
        kept.append(Slot(r, day + at, duration, r.values["slot_count"],
                         tuple(e for e in events if r.line <= e.line < upto)))
    return kept, left


def busiest_span(slots: list[Slot], share: float) -> tuple[int, int] | None:
    """The shortest run of consecutive slots (first and last index) holding at least ``share`` of all their samples,
    its length from the first one's start to the last one's end; of two as short, the one with more samples. None
    without samples."""
    total = sum(s.samples for s in slots)
    best, best_key = None, None
    for i in range(len(slots)):
        count = 0.0
        for j in range(i, len(slots)):
            count += slots[j].samples
            if count >= share * total:
                key = (slots[j].end_s - slots[i].start_s, -count)
                if best_key is None or key < best_key:
                    best, best_key = (i, j), key
                break
    return best if total else None


def _is_cpu(event: Row) -> bool:
    return (event.name or "").lower().startswith("cpu + wait for cpu")


def ash_cpu_share(report: Report) -> tuple[float, list[Row]] | None:
    """The share (%) of Activity Over Time's samples that ASH saw on CPU or queued for it ('CPU + Wait for CPU'),
    with the event rows it is read from; a lower bound, as each slot prints its top three events only. None without
    the section or samples."""
    slots, _left = timed_slots(report)
    total = sum(s.samples for s in slots)
    if not total:
        return None
    cpu: list[Row] = []
    counted = 0.0
    for s in slots:
        mine = [e for e in s.events if _is_cpu(e) and e.values.get("event_count")]
        cpu += mine
        # a slot's events never hold more than its samples (a malformed slot line reads as the one above's event)
        counted += min(s.samples, sum(e.values["event_count"] for e in mine))
    return 100.0 * counted / total, cpu


#: The part of a slot's samples not among the three events it prints
REST = "other events (not in the slot's top 3)"


def ash_activity(report: Report) -> list[dict] | None:
    """One entry per slot {begin, end (ISO), samples, aas, parts {class: AAS}, events, line}. A slot's AAS is its
    share of all samples times the report's DB time, over the slot's duration, so the slots add up to the
    report's DB time (a slot whose duration is not positive is left out); its three printed events go to their
    wait classes (CPU + Wait for CPU is CPU), the rest of its samples to REST. Slot times print no date: the analysis
    begin gives it, and a time that goes backwards is the next day. None without the section, the begin time or DB
    time."""
    slots, _left = timed_slots(report)
    begin = report.header.begin.time if report.header.begin else None
    if begin is None or not report.db_time_s:
        return None
    total = sum(s.samples for s in slots)
    if not slots or not total:
        return None
    midnight = datetime.combine(begin.date(), time())
    out = []
    for s in slots:
        start = midnight + timedelta(seconds=s.start_s)
        aas = s.samples / total * report.db_time_s / s.duration_s
        per_sample = aas / s.samples
        parts: dict[str, float] = {}
        listed = []
        counted = 0.0
        for e in s.events:
            count = e.values.get("event_count")
            if count is None:
                continue
            cls = "CPU" if _is_cpu(e) else wait_class(e.name)
            parts[cls] = parts.get(cls, 0.0) + count * per_sample
            counted += count
            listed.append({"event": e.name, "samples": count})
        if s.samples > counted:
            parts[REST] = (s.samples - counted) * per_sample
        out.append({"begin": start.isoformat(sep=" "), "end": (start + timedelta(seconds=s.duration_s)).isoformat(sep=" "),
                    "samples": s.samples, "aas": round(aas, 4),
                    "parts": {k: round(v, 4) for k, v in parts.items()}, "events": listed, "line": s.row.line})
    return out
