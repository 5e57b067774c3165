"""What every command shares: loading inputs, the --config file, the output format and writing
the result. Results go to stdout (or -o), problems to stderr as one line each."""
from __future__ import annotations

import contextlib
import os
import stat
import sys
from typing import TYPE_CHECKING, Any, Callable

import click

from ..errors import EXIT_UNUSABLE, failure_code  # noqa: F401 - failure_code is re-exported to the commands
from .. import patterns

if TYPE_CHECKING:
    from ..model import Report

FORMATS = ["text", "markdown", "json", "html"]
FAIL_CHOICES = ["critical", "major", "moderate", "minor", "info", "none"]

def load_all(paths: tuple[str, ...], max_bytes: int, jobs: int = 0,
             then: Callable[[Report], Any] | None = None) -> list[tuple[str, Any, str | None]]:
    """(name, report or None, error message or None) per input; one bad input never stops the rest.

    Several inputs are parsed in worker processes (``jobs`` 0: one per core, 1: in this
    process), in input order, with a progress bar on a terminal (loader.py). ``then`` (a
    picklable function) is applied to each report where it was parsed and its result takes
    the report's place: sending a whole Report back from a worker costs more than its analysis. Files found in
    directories and archives that are not reports are skipped, summed up in one line on stderr."""
    from ..loader import load_many, skip_summary

    skipped: list[tuple[str, str]] = []
    rows = load_many(paths, max_bytes, then=then, workers=jobs or None, skipped=skipped)
    summary = skip_summary(skipped)  # found files that are not reports: one line, not one error each
    if summary:
        click.echo(f"awrscope: {summary}", err=True)
    if not rows and skipped:
        click.echo("awrscope: no report found", err=True)
    return rows  # type: ignore[return-value]

def load_config_or_exit(path: str | None) -> dict:
    """The --config TOML file, or exit 2 with one line naming it."""
    from ..analysis import load_config

    try:
        return load_config(path)
    except OSError as e:
        click.echo(f"awrscope: cannot read config {path}: {e.strerror or e}", err=True)
        sys.exit(EXIT_UNUSABLE)
    except ValueError as e:
        click.echo(f"awrscope: cannot use config {path}: {e}", err=True)
        sys.exit(EXIT_UNUSABLE)

#: Extensions of files awrscope does not write: text in them would open as a broken document
_FOREIGN_OUTPUTS = {"pdf": "PDF", "doc": "Word", "docx": "Word", "xls": "Excel", "xlsx": "Excel", "png": "PNG",
                    "jpg": "JPEG", "jpeg": "JPEG", "gif": "GIF", "zip": "zip", "gz": "gzip"}


def guard_output(output: str | None, paths: tuple[str, ...]) -> None:
    """Exit 2 with one line when -o names one of the inputs (also through a link): the report would be
    replaced by its own analysis; or when its extension promises a format awrscope does not write."""
    if not output:
        return
    ext = output.rsplit(".", 1)[-1].lower() if "." in os.path.basename(output) else ""
    if ext in _FOREIGN_OUTPUTS:
        hint = (" (write -o report.html and print it to PDF from the browser: the page is laid out for print)"
                if ext == "pdf" else "")
        click.echo(f"awrscope: -o {output}: awrscope does not write {_FOREIGN_OUTPUTS[ext]} files; it writes text, "
                   f".md, .json or .html{hint}", err=True)
        sys.exit(EXIT_UNUSABLE)
    if os.path.isdir(output):
        click.echo(f"awrscope: -o {output} is a directory: give a file name", err=True)
        sys.exit(EXIT_UNUSABLE)
    if not os.path.exists(output):
        return
    from ..parsers.source import expand_inputs

    try:
        inputs = [i.path for i in expand_inputs([p for p in paths if p != "-"])]  # directories and globs too
    except Exception:  # noqa: BLE001 - a bad pattern is reported when the inputs are read
        inputs = list(paths)
    for p in inputs:
        try:
            if os.path.isfile(p) and os.path.samefile(p, output):
                click.echo(f"awrscope: -o {output} is the input {p}: refusing to write over a report", err=True)
                sys.exit(EXIT_UNUSABLE)
        except OSError:
            continue


def emit(text: str, output: str | None) -> None:
    """Print, or write ``output`` atomically: a temporary file beside it, renamed over it when complete,
    so an interrupted run never leaves half a file. What is not a plain path to a regular file is written
    into as the shell's ``>`` would: ``/dev/stdout``, ``/dev/fd/N`` (the open descriptor itself, never the file
    behind it reopened), a device or a pipe (renaming over /dev/null as root replaced the device for every
    process), and a symbolic link (opened through, so the kernel's protections against another user's link in
    a shared directory apply; never resolved and renamed over)."""
    if not output:
        click.echo(text)
        return
    fd = _descriptor_of(output)
    if fd is not None:
        _write_fd(text, fd, output)
        return
    try:
        st = os.stat(output)
    except OSError:
        st = None
    if os.path.islink(output) or (st is not None and not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode)):
        _write_into(text, output)
        return
    folder = os.path.dirname(os.path.abspath(output))
    # as tempfile.mkstemp does (a new file, mode 0600, never one that exists), without its 5 ms of imports
    tmp = os.path.join(folder, f".awrscope-{os.getpid()}-{os.urandom(6).hex()}")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError as e:  # a missing or read-only directory: one line, not a traceback
        click.echo(f"awrscope: cannot write {output}: {e.strerror or e}", err=True)
        sys.exit(EXIT_UNUSABLE)
    try:
        # the file the shell's '>' would make: 0666 less the umask (an existing output keeps its own mode)
        mode = stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask()
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)  # not text + "\n": a page of the whole corpus is 46 MB to copy
            fh.write("\n")
        os.replace(tmp, output)
        size = os.path.getsize(output)
        click.echo(f"awrscope: wrote {output} ({size / 1024:,.0f} KiB)" if size >= 1024 else
                   f"awrscope: wrote {output} ({size} bytes)", err=True)
    except OSError as e:  # a full device, a quota: the partial file is removed, the old output kept
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        click.echo(f"awrscope: cannot write {output}: {e.strerror or e}", err=True)
        sys.exit(EXIT_UNUSABLE)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0o022)  # reading the umask means setting it: put it back at once
    os.umask(mask)
    return mask


_FD_PATH = patterns.compile(r"/(?:dev/fd|proc/self/fd)/(\d+)")


def _descriptor_of(output: str) -> int | None:
    """The descriptor a /dev/stdout-like path names: opening it again would truncate a file that stdout
    appends to (``>> log``)."""
    if output in ("/dev/stdout", "/dev/stderr"):
        return 1 if output == "/dev/stdout" else 2
    m = _FD_PATH.fullmatch(output)
    return int(m.group(1)) if m else None


def _write_fd(text: str, fd: int, output: str) -> None:
    sys.stdout.flush()
    data = (text + "\n").encode("utf-8")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    except OSError as e:
        click.echo(f"awrscope: cannot write {output}: {e.strerror or e}", err=True)
        sys.exit(EXIT_UNUSABLE)


def _write_into(text: str, output: str) -> None:
    try:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.write("\n")
    except OSError as e:
        click.echo(f"awrscope: cannot write {output}: {e.strerror or e}", err=True)
        sys.exit(EXIT_UNUSABLE)


def infer_format(fmt: str | None, output: str | None) -> str:
    if fmt:
        return fmt
    ext = (output or "").rsplit(".", 1)[-1].lower()
    return {"json": "json", "md": "markdown", "markdown": "markdown", "html": "html", "htm": "html"}.get(ext, "text")



def time_window_options(f):
    """--begin/--end (pgBadger's -b/-e): only reports whose snapshot window overlaps that time range."""
    f = click.option("--end", "until", metavar="TIME", help="Only windows beginning at or before this time "
                     "(YYYY-MM-DD[ HH:MM[:SS]]; a date alone means the end of that day).")(f)
    return click.option("--begin", "since", metavar="TIME", help="Only windows ending at or after this time "
                        "(YYYY-MM-DD[ HH:MM[:SS]]).")(f)


def parse_when(text: str | None, end_of_day: bool = False):
    """'2024-03-01', '2024-03-01 14:00' or '2024-03-01T14:00:05' to a datetime; exit 2 with one line otherwise."""
    from datetime import datetime, timedelta

    if not text:
        return None
    try:
        t = datetime.fromisoformat(text.strip())
    except ValueError:
        click.echo(f"awrscope: --begin/--end {_shown(text)}: expected YYYY-MM-DD[ HH:MM[:SS]]", err=True)
        sys.exit(EXIT_UNUSABLE)
    if end_of_day and len(text.strip()) <= 10:
        t += timedelta(days=1) - timedelta(seconds=1)
    return t


def in_window(begin: str | None, end: str | None, since, until) -> bool | None:
    """Whether a report's window overlaps --begin/--end (awrscope.change.trend.in_window)."""
    if since is None and until is None:  # no range given: the change analysis is not loaded for nothing
        return True
    from ..change.trend import in_window as overlaps

    return overlaps(begin, end, since, until)


def _shown(text: str, most: int = 40) -> str:
    """A value quoted in an error line, cut: a 50,000-character argument is not echoed back whole."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"... ({len(text):,} characters)"
