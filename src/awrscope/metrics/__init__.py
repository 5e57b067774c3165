"""Derived metrics (spec WRITE_PATH.md section B): pure functions of a Report."""
from __future__ import annotations

from .catalog import BY_ID, CATALOG, REASONS, MetricDef
from .derive import DEFAULT_ALPHA, derive, scalability, wait_events
from .redo import lgwr_latency
from .values import EventTime, Metrics, MetricValue, Source

__all__ = ["BY_ID", "CATALOG", "REASONS", "MetricDef", "DEFAULT_ALPHA", "derive", "lgwr_latency", "scalability", "wait_events",
           "EventTime", "Metrics", "MetricValue", "Source"]
