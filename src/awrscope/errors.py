"""Error types and the CLI exit codes they map to."""
from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1  # findings at or above --fail-on
EXIT_UNUSABLE = 2  # usage error, unreadable or unsupported input


class AwrscopeError(Exception):
    """Base class: the message is one line, meant for the user."""

    exit_code = EXIT_UNUSABLE


class InputError(AwrscopeError):
    """The input cannot be read (missing, too large, corrupt archive, binary)."""


class NotAReportError(AwrscopeError):
    """The input is readable but is not an AWR or Statspack report."""


class UnsupportedReportError(AwrscopeError):
    """A recognised report kind that awrscope does not analyse (yet): ADDM, ASH."""

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind
