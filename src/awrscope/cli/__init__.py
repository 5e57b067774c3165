"""The ``awrscope`` command line: a thin face over the library, one module per command group.

Exit codes: 0 ok, 1 findings at or above --fail-on, 2 unusable input or usage error, 3 internal
error (a bug of awrscope, said in one line; AWRSCOPE_DEBUG=1 shows the traceback). Heavy
modules (the web framework, the HTML templates, database drivers) load only inside the commands
that use them (tests/test_startup_imports.py).
"""
from __future__ import annotations

import contextlib
import errno
import gc
import os
import sys

import click

from .. import __version__
from ..errors import EXIT_INTERNAL, EXIT_UNUSABLE, AwrscopeError, internal_message
from .multi import compare_cmd, trend_cmd
from .report import analyze_cmd, parse_cmd, rules_cmd
from .trace import trace_cmd


# Commands whose modules load when they run or when --help lists them, not for every command: the
# store, MCP, redaction and web commands import 10 ms of modules (pathlib, urllib) `analyze` never uses.
_LAZY_COMMANDS = {
    "db": ("awrscope.store.commands", "db_group"),
    "mcp": ("awrscope.mcp.commands", "mcp_cmd"),  # the MCP SDK itself loads only when `awrscope mcp` runs
    "redact": ("awrscope.redact.commands", "redact_cmd"),  # the redactor loads when `awrscope redact` runs
    "serve": ("awrscope.web.commands", "serve_cmd"),  # the web framework loads when `awrscope serve` runs
}


class _Main(click.Group):
    """The command group, with one line instead of a traceback for whatever a command lets escape."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.commands) | set(_LAZY_COMMANDS))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in _LAZY_COMMANDS:
            import importlib

            module, attr = _LAZY_COMMANDS[name]
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return self.commands.get(name)

    def resolve_command(self, ctx: click.Context, args: list[str]):
        global _command_run
        name, command, rest = super().resolve_command(ctx, args)
        _command_run = command.name if command is not None else None
        return name, command, rest

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit, KeyboardInterrupt):
            raise
        except AwrscopeError as e:
            click.echo(f"awrscope: {e}", err=True)
            sys.exit(e.exit_code)
        except BrokenPipeError:  # `awrscope ... | head`: the reader has what it wanted
            _drop_stdout()
            sys.exit(0)
        except OSError as e:
            if e.errno not in _ENVIRONMENT:
                raise_or_report(ctx, e)
            # the machine's state (a full disk, a read-only mount, a missing permission), not a bug of ours
            _drop_stdout()
            what = "cannot write " if e.errno in _WRITE_ERRORS else ""
            click.echo(f"awrscope: {what}{e.filename or 'the output'}: {e.strerror or e}", err=True)
            sys.exit(EXIT_UNUSABLE)
        except Exception as e:  # noqa: BLE001 - a bug: its own exit code, so CI can tell it from bad input
            raise_or_report(ctx, e)


def raise_or_report(ctx: click.Context, e: Exception):
    if os.environ.get("AWRSCOPE_DEBUG"):
        raise e
    click.echo(f"awrscope: {internal_message(ctx.invoked_subcommand or 'awrscope', e)}", err=True)
    sys.exit(EXIT_INTERNAL)


#: errno values that say the machine cannot take the write (or grant the access), not that awrscope is wrong
_WRITE_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EIO}
_ENVIRONMENT = _WRITE_ERRORS | {errno.EACCES, errno.EPERM, errno.EMFILE, errno.ENFILE, errno.ENOMEM}


def _drop_stdout() -> None:
    """Point stdout at /dev/null: what its buffer still holds would fail again at exit's flush (a second
    error, and exit status 120 instead of ours)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="awrscope")
def main() -> None:
    """Analyse Oracle AWR and Statspack reports: where the time went, above all on the write path."""
    # A run keeps every parsed report until its output is drawn (the HTML page holds them all): at the default
    # threshold (700 allocations) the collector walked those live objects over and over, 1.2 s of the 7.3 s of
    # `analyze --format html` on the corpus. Parsed reports hold few cycles, so collecting less often costs
    # no memory (peak RSS unchanged).
    gc.set_threshold(10_000, 10, 10)


for _command in (parse_cmd, analyze_cmd, compare_cmd, trend_cmd, rules_cmd, trace_cmd):
    main.add_command(_command)


#: Commands that leave nothing open when they return (no database, server or thread): their process ends by
#: os._exit once atexit's work is done and the output flushed, not by the interpreter's teardown, which frees
#: every object of the run one by one (11-14 ms of the 115 of `analyze` on a 1 MB report; more with many reports).
_QUICK_EXIT = frozenset({"analyze", "parse", "compare", "trend", "rules"})
_command_run: str | None = None


def run() -> None:
    """The console script (and ``python -m awrscope``): :func:`main`, ended quickly where the command allows."""
    try:
        main()
    except SystemExit as e:
        code = 0 if e.code is None else e.code
        if _command_run in _QUICK_EXIT and isinstance(code, int):
            _quick_exit(code)
        raise


def _quick_exit(code: int) -> None:
    """atexit's functions run (the patterns cache is written there), the streams are flushed, then the process
    ends. A stream that cannot be flushed returns here, and the interpreter's own exit handles it."""
    import atexit

    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


if __name__ == "__main__":
    run()
