"""When in the window the time was spent (ASH's Activity Over Time): a report's figures are averages over its
window, and a peak that holds most of the activity in a few minutes is understated by every one of them."""
from __future__ import annotations

from ..metrics import Source
from ..metrics.activity import busiest_span, timed_slots
from .base import Context, Evidence, Needs, make_finding, rule


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 600 else f"{seconds / 60:.1f} min"


def _clock(seconds: float) -> str:
    """A time of day in seconds as the report prints it, without zero seconds: '10:45', '19:00:39'."""
    h, rest = divmod(round(seconds) % 86400, 3600)
    m, s = divmod(rest, 60)
    return f"{h:02d}:{m:02d}" + (f":{s:02d}" if s else "")


@rule("G17", "activity-peak", "Activity concentrated in a part of the window", family="context",
      half_share_pct=50.0, max_time_share_pct=25.0, min_slots=4, min_samples=100, min_peak_aas=1.0)
def g17(ctx: Context, th: dict):
    """ASH's Activity Over Time (an ASH report, or the AWR report's own since 12.1) shows half of the window's
    samples (half_share_pct) in consecutive slots that last at most max_time_share_pct of the window: the report's
    averages (per second, per hour, per wait) spread that peak over the whole window and understate it by the
    same factor. Only where the peak is load: at least min_slots slots and min_samples samples, and at least
    min_peak_aas sessions active on average during the peak (the slots' share of samples times DB time, over
    their duration). A slot printed with a duration that is not positive holds samples from outside the window
    and is left out. An observation, claiming no DB time. What to do: report on the peak alone (an ASH report
    from its first slot for its duration, or AWR snapshots around it), where the findings then speak for it."""
    if "ash_activity_over_time" not in ctx.report.sections:
        raise Needs("ASH Activity Over Time (AWR 12.1+ or an ASH report)")
    slots, outside = timed_slots(ctx.report)
    total = sum(sl.samples for sl in slots)
    # the window from the clocks, not the printed slots' durations: a slot without samples is not printed
    window = max(slots[-1].end_s - slots[0].start_s, ctx.m.v("elapsed_s") or 0.0) if slots else 0.0
    db_time = ctx.m.v("db_time_s") or ctx.report.db_time_s
    if len(slots) < th["min_slots"] or total < th["min_samples"] or not window or not db_time:
        return None
    span = busiest_span(slots, th["half_share_pct"] / 100)
    if span is None:
        return None
    peak = slots[span[0]:span[1] + 1]
    samples = sum(sl.samples for sl in peak)
    duration = peak[-1].end_s - peak[0].start_s
    time_share, sample_share = duration / window, samples / total
    peak_aas = sample_share * db_time / duration
    if time_share > th["max_time_share_pct"] / 100 or peak_aas < th["min_peak_aas"]:
        return None
    factor = sample_share / time_share
    window_aas = db_time / window
    when = f"{_clock(peak[0].start_s)}-{_clock(peak[-1].end_s)}"
    events: dict[str, float] = {}
    for e in (e for sl in peak for e in sl.events if e.values.get("event_count")):
        events[e.name] = events.get(e.name, 0.0) + e.values["event_count"]
    top = sorted(events.items(), key=lambda kv: -kv[1])[:3]
    ev = [Evidence(f"slot_count[{sl.row.name}]", sl.samples, "samples",
                   f"{100 * sample_share:.0f} % of {total:,.0f} samples in {100 * time_share:.0f} % of the window"
                   if k == 0 else None,
                   (Source("ash_activity_over_time", sl.row.name, "slot_count", sl.row.line, sl.samples),),
                   f"{sl.row.text.get('slot', sl.row.name)}: {sl.row.text.get('events', '')}".rstrip(": "))
          for k, sl in enumerate(peak)]
    if outside:
        ev.append(Evidence("slot_count[outside the window]", sum(r.values["slot_count"] for r in outside), "samples",
                           None, tuple(Source("ash_activity_over_time", r.name, "duration_s", r.line,
                                              r.values.get("duration_s")) for r in outside),
                           "slots printed with a duration that is not positive or no time of day: left out"))
    in_peak = "; ".join(f"{name} ({n:,.0f} sample{'s' if n != 1 else ''})" for name, n in top)
    return make_finding(
        ctx, "G17", 0.0, "medium", ev,
        f"The report's figures are averages over {_minutes(window)}: about {peak_aas:.1f} sessions were active during "
        f"{when} ({_minutes(duration)}) against {window_aas:.1f} over the window, so what it prints per second or "
        f"per hour (DB time, redo, executions) understates that peak about {factor:.1f} times"
        + (f"; the peak's events: {in_peak}" if in_peak else "")
        + f". To diagnose the peak itself, report on it alone: an ASH report (ashrpt.sql) from {when.split('-')[0]} "
          f"for {_minutes(duration)}, or an AWR report between the snapshots around it.",
        title=f"Activity peaked at {when}: {100 * sample_share:.0f} % of the ASH samples in {_minutes(duration)} of "
              f"{_minutes(window)} ({factor:.1f}x the window's average)")
