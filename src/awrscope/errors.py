"""Error types and the CLI exit codes they map to."""
from __future__ import annotations

EXIT_OK = 0
EXIT_FINDINGS = 1  # findings at or above --fail-on
EXIT_UNUSABLE = 2  # usage error, unreadable or unsupported input
EXIT_INTERNAL = 3  # a bug in awrscope (an unexpected exception): please report it
EXIT_OTHER_COMMAND = 4  # an input another awrscope command reads (a SQL trace given to analyze: awrscope trace)

#: How an unexpected exception is named in a one-line message, so callers can tell a bug from bad input
INTERNAL_ERROR = "internal error"


def internal_message(where: str, e: BaseException) -> str:
    return f"{where}: {INTERNAL_ERROR} ({type(e).__name__}: {e}); please report it"


def is_internal(message: str | None) -> bool:
    return bool(message) and f": {INTERNAL_ERROR} (" in message


#: How the message of an input meant for another command names that command
OTHER_COMMAND = ": read it with `awrscope "


def is_other_command(message: str | None) -> bool:
    return bool(message) and OTHER_COMMAND in message


def failure_code(errors: list[str]) -> int:
    """The exit code for inputs that failed: 3 when one failed on a bug of ours, 4 when every one is an input
    of another command (a SQL trace given to analyze), else 2 (unusable input)."""
    if any(is_internal(e) for e in errors):
        return EXIT_INTERNAL
    if errors and all(is_other_command(e) for e in errors):
        return EXIT_OTHER_COMMAND
    return EXIT_UNUSABLE


class AwrscopeError(Exception):
    """Base class: the message is one line, meant for the user."""

    exit_code = EXIT_UNUSABLE


class InputError(AwrscopeError):
    """The input cannot be read (missing, too large, corrupt archive, binary)."""


class SkippedInput(AwrscopeError):
    """A file found in a directory, a glob or an archive that is not a report: skipped and summed up, not an
    error (named by the user, the same file is an error)."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason

    def __reduce__(self):  # crosses process boundaries in the loader's pool
        return SkippedInput, (str(self), self.reason)


class NotAReportError(AwrscopeError):
    """The input is readable but is not an AWR or Statspack report."""

    def __init__(self, message: str, reason: str = "not a report"):
        super().__init__(message)
        self.reason = reason  # binary, empty, not a report: how a skipped file is summed up

    def __reduce__(self):
        return NotAReportError, (str(self), self.reason)


class OtherCommandError(NotAReportError):
    """The input is of a kind another awrscope command reads: an Oracle SQL trace (``awrscope trace``)."""

    exit_code = EXIT_OTHER_COMMAND

    def __reduce__(self):
        return OtherCommandError, (str(self), self.reason)


class UnsupportedReportError(AwrscopeError):
    """A recognised report kind that awrscope does not analyse (yet): ADDM, ASH."""

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.kind = kind

    def __reduce__(self):
        return UnsupportedReportError, (str(self), self.kind)


def skip_reason(exc: BaseException, found: bool) -> str | None:
    """Why an input found in a directory, glob or archive is skipped rather than an error, or None when it is
    an error (a file the user named, or one that is a report but cannot be read)."""
    if isinstance(exc, SkippedInput):
        return exc.reason
    if not found:
        return None
    if isinstance(exc, UnsupportedReportError):
        return f"{exc.kind} report (not read)"
    if isinstance(exc, NotAReportError):
        return exc.reason
    return None
