"""derive(report) -> Metrics: every metric of spec section B that the report's
data allows, each with its inputs' provenance, or None with a reason code.

Pure: reads the typed Report only. Time statistics of V$SYSSTAT are in
centiseconds (spec P02); the (usec) twins are preferred where printed.
"""
from __future__ import annotations

from ..model import Report
from .builder import Builder
from .values import Metrics
from .events import collect_events, event_metrics, time_base
from .redo import commit, redo, switches
from .storage import dbwr_temp_undo

DEFAULT_ALPHA = 1.5


def derive(report: Report, alpha: float = DEFAULT_ALPHA) -> Metrics:
    """All metrics of one report (spec B). Never raises on missing data."""
    b = Builder(report, alpha)
    collect_events(b)
    time_base(b)
    event_metrics(b)
    redo(b)
    commit(b)
    switches(b)
    dbwr_temp_undo(b)
    b.miss("scalability_s", note="benchmark metric: needs elapsed times of 5 and 10 concurrent streams (see scalability())")
    return b.m

def wait_events(report: Report) -> Metrics:
    """The wait events of one report (``fg_events``, ``bg_events``) without the metrics built on them: what
    the HTML charts draw, for a tenth of what :func:`derive` costs."""
    b = Builder(report, DEFAULT_ALPHA)
    collect_events(b)
    return b.m


def scalability(t5: float, t10: float) -> float:
    """Kurtz scalability metric M103: s = 2*t5/t10 - 1 (1 perfect, 0 no gain, < 0 throughput falls)."""
    if t10 <= 0:
        raise ValueError("t10 must be positive")
    return 2.0 * t5 / t10 - 1.0
