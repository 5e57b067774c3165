"""awrscope: explainable analysis of Oracle AWR and Statspack reports.

Public API::

    import awrscope
    report = awrscope.parse("awrrpt_1_18_19.txt")   # a path or the report text
    report.header.db_name, report.elapsed_s, report.db_time_s
    report.event("log file sync").values
"""
from __future__ import annotations

from .errors import AwrscopeError, InputError, NotAReportError, UnsupportedReportError
from .lazy import lazy_exports

__version__ = "0.1.0"

#: Imported on first use: `awrscope --help` and the commands that do not parse start without them
_LAZY = {"Report": "model", "Row": "model", "Section": "model", "parse": "parsers", "parse_path": "parsers",
         "parse_text": "parsers"}


__getattr__ = lazy_exports(__name__, _LAZY, globals())
__all__ = ["parse", "parse_path", "parse_text", "Report", "Section", "Row", "AwrscopeError", "InputError",
           "NotAReportError", "UnsupportedReportError", "__version__"]
