"""Error types and the CLI exit codes they map to."""
from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1  # findings at or above --fail-on
EXIT_UNUSABLE = 2  # usage error, unreadable or unsupported input
EXIT_INTERNAL = 3  # a bug in awrscope (an unexpected exception): please report it

#: How an unexpected exception is named in a one-line message, so callers can tell a bug from bad input
INTERNAL_ERROR = "internal error"


def internal_message(where: str, e: BaseException) -> str:
    return f"{where}: {INTERNAL_ERROR} ({type(e).__name__}: {e}); please report it"


def is_internal(message: str | None) -> bool:
    return bool(message) and f": {INTERNAL_ERROR} (" in message


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
