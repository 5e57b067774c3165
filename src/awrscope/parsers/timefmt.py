"""Snapshot time stamps as Oracle prints them: ``14-Mar-18 17:14:07``, with
English or localised month abbreviations (NLS_DATE_LANGUAGE: '10-Дек-17', '10-12月-17')."""
from __future__ import annotations

from datetime import datetime

from .. import patterns
from ..oracle.dates import full_year, month_number

_STAMP = patterns.compile(
    r"(?P<d>\d{1,2})[-/ .](?P<mon>[^\W\d_]{3,5}\.?|\d{1,2}[月월] ?)[-/ .](?P<y>\d{2,4})"
    r"(?:\s+(?P<H>\d{1,2})[:.](?P<M>\d{2})(?:[:.](?P<S>\d{2}))?)?"
)


def parse_time(text: str) -> datetime | None:
    """The first Oracle-style time stamp in ``text``, or None."""
    m = _STAMP.search(text)
    if not m:
        return None
    month = month_number(m.group("mon"))
    if not month:
        return None
    year = full_year(int(m.group("y")))
    try:
        return datetime(year, month, int(m.group("d")), int(m.group("H") or 0), int(m.group("M") or 0),
                        int(m.group("S") or 0))
    except ValueError:
        return None


def checked_elapsed(elapsed_min: float | None, begin: datetime | None, end: datetime | None,
                    warn, printed: str, times: str, using: str | None = None) -> float | None:
    """Elapsed seconds: the printed minutes unless they disagree with end - begin by more than the
    times' own rounding (whole seconds or minutes: 2 min or 5 %), then the times, with a warning
    ``warn(message)``; the span alone when nothing is printed."""
    span_s = (end - begin).total_seconds() if begin and end and end > begin else None
    elapsed = elapsed_min * 60 if elapsed_min else None
    if elapsed and span_s and abs(elapsed - span_s) > max(120.0, 0.05 * span_s):
        warn(f"header {printed} {elapsed_min:g} min disagrees with the {times} ({span_s / 60:.2f} min); using the {using or times}")
        elapsed = span_s
    return elapsed or span_s

