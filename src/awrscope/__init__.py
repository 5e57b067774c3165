"""awrscope: explainable analysis of Oracle AWR and Statspack reports.

Public API::

    import awrscope
    report = awrscope.parse("awrrpt_1_18_19.txt")   # a path or the report text
    report.header.db_name, report.elapsed_s, report.db_time_s
    report.event("log file sync").values
"""
from __future__ import annotations

from .errors import AwrscopeError, InputError, NotAReportError, UnsupportedReportError
from .model import Report, Row, Section
from .parsers import parse, parse_path, parse_text

__version__ = "0.1.0"
__all__ = ["parse", "parse_path", "parse_text", "Report", "Section", "Row", "AwrscopeError", "InputError",
           "NotAReportError", "UnsupportedReportError", "__version__"]
