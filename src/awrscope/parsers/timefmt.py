"""Snapshot time stamps as Oracle prints them: ``14-Mar-18 17:14:07``, with
English or localised month abbreviations (NLS_DATE_LANGUAGE)."""
from __future__ import annotations

import unicodedata
from datetime import datetime
from .. import patterns

_MONTHS = {
    # English
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "oct": 10, "nov": 11, "dec": 12,
    # Portuguese / Spanish / French / German / Italian / Dutch abbreviations that differ
    "fev": 2, "abr": 4, "mai": 5, "ago": 8, "set": 9, "out": 10, "dez": 12,
    "ene": 1, "dic": 12, "janv": 1, "fevr": 2, "mars": 3, "avr": 4, "juin": 6, "juil": 7,
    "aout": 8, "sept": 9, "mrz": 3, "mar.": 3, "okt": 10, "gen": 1, "mag": 5, "giu": 6,
    "lug": 7, "ott": 10, "mei": 5, "maa": 3, "maj": 5,
}
_STAMP = patterns.compile(
    r"(?P<d>\d{1,2})[-/ .](?P<mon>[^\W\d_]{3,5}\.?)[-/ .](?P<y>\d{2,4})"
    r"(?:\s+(?P<H>\d{1,2})[:.](?P<M>\d{2})(?:[:.](?P<S>\d{2}))?)?"
)


def parse_time(text: str) -> datetime | None:
    """The first Oracle-style time stamp in ``text``, or None."""
    m = _STAMP.search(text)
    if not m:
        return None
    mon = _fold(m.group("mon")).rstrip(".")
    month = _MONTHS.get(mon) or _MONTHS.get(mon[:3])
    if not month:
        return None
    year = int(m.group("y"))
    if year < 100:
        year += 2000 if year < 70 else 1900
    try:
        return datetime(year, month, int(m.group("d")), int(m.group("H") or 0), int(m.group("M") or 0),
                        int(m.group("S") or 0))
    except ValueError:
        return None


def _fold(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", s.lower()) if not unicodedata.combining(c))


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

