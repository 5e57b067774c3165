"""The ``awrscope`` command line: a thin face over the library, one module per command group.

Exit codes: 0 ok, 1 findings at or above --fail-on, 2 unusable input or usage error. Heavy
modules (the web framework, the HTML templates, database drivers) load only inside the commands
that use them (tests/test_startup_imports.py).
"""
from __future__ import annotations

import click

from .. import __version__
from .multi import compare_cmd, trend_cmd
from .report import analyze_cmd, parse_cmd, rules_cmd


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="awrscope")
def main() -> None:
    """Analyse Oracle AWR and Statspack reports: where the time went, above all on the write path."""


for _command in (parse_cmd, analyze_cmd, compare_cmd, trend_cmd, rules_cmd):
    main.add_command(_command)


def _register_optional_commands() -> None:
    from ..store.commands import db_group

    main.add_command(db_group)
    try:
        from ..web.commands import serve_cmd
    except ImportError:  # the web extra is optional
        return
    main.add_command(serve_cmd)


_register_optional_commands()

if __name__ == "__main__":
    main()
