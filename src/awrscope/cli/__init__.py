"""The ``awrscope`` command line: a thin face over the library, one module per command group.

Exit codes: 0 ok, 1 findings at or above --fail-on, 2 unusable input or usage error, 3 internal
error (a bug of awrscope, said in one line; AWRSCOPE_DEBUG=1 shows the traceback). Heavy
modules (the web framework, the HTML templates, database drivers) load only inside the commands
that use them (tests/test_startup_imports.py).
"""
from __future__ import annotations

import os
import sys

import click

from .. import __version__
from ..errors import EXIT_INTERNAL, AwrscopeError, internal_message
from .multi import compare_cmd, trend_cmd
from .report import analyze_cmd, parse_cmd, rules_cmd
from .trace import trace_cmd


class _Main(click.Group):
    """The command group, with one line instead of a traceback for whatever a command lets escape."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit, KeyboardInterrupt):
            raise
        except AwrscopeError as e:
            click.echo(f"awrscope: {e}", err=True)
            sys.exit(e.exit_code)
        except BrokenPipeError:  # `awrscope ... | head`: the reader has what it wanted
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit's flush
            sys.exit(0)
        except Exception as e:  # noqa: BLE001 - a bug: its own exit code, so CI can tell it from bad input
            if os.environ.get("AWRSCOPE_DEBUG"):
                raise
            click.echo(f"awrscope: {internal_message(ctx.invoked_subcommand or 'awrscope', e)}", err=True)
            sys.exit(EXIT_INTERNAL)


@click.group(cls=_Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="awrscope")
def main() -> None:
    """Analyse Oracle AWR and Statspack reports: where the time went, above all on the write path."""


for _command in (parse_cmd, analyze_cmd, compare_cmd, trend_cmd, rules_cmd, trace_cmd):
    main.add_command(_command)


def _register_optional_commands() -> None:
    from ..store.commands import db_group

    main.add_command(db_group)
    from ..mcp.commands import mcp_cmd  # the MCP SDK loads only when `awrscope mcp` runs

    main.add_command(mcp_cmd)
    from ..redact.commands import redact_cmd  # imports only click: the redactor loads when `awrscope redact` runs

    main.add_command(redact_cmd)
    try:
        from ..web.commands import serve_cmd
    except ImportError:  # the web extra is optional
        return
    main.add_command(serve_cmd)


_register_optional_commands()

if __name__ == "__main__":
    main()
