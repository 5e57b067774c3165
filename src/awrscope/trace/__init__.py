"""Session-level evidence: an extended SQL trace (event 10046) read into a response-time profile.

``analyze_trace(path)`` streams the file once (reader.py), builds the trace document (profile.py,
docs/trace.md) and runs the trace rules T01... (rules.py); render.py and html.py print it."""
from __future__ import annotations

from .reader import NotATraceError, TraceStats, read_text, read_trace

__all__ = ["NotATraceError", "TraceStats", "analyze_trace", "document_of", "read_text", "read_trace"]


def document_of(st: TraceStats, top: int = 10, overrides: dict | None = None) -> dict:
    """The trace document of one pass's statistics, findings included."""
    from .. import __version__
    from .profile import build_document, profile_lines
    from .rules import run_trace_rules

    _, r_s = profile_lines(st)
    return build_document(st, top=top, findings=run_trace_rules(st, r_s, overrides), version=__version__)


def analyze_trace(path: str, top: int = 10, time_unit: str | None = None) -> dict:
    return document_of(read_trace(path, time_unit), top=top)
