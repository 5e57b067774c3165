"""``awrscope mcp``: the Model Context Protocol server on stdio. The SDK loads only when the command runs."""
from __future__ import annotations

import sys

import click

from ..errors import EXIT_UNUSABLE
from ..store.commands import DB_OPTION

_NO_SDK = ("awrscope: the mcp command needs the Model Context Protocol SDK (mcp>=2.3): "
           "pip install 'awrscope[mcp]'")


@click.command("mcp")
@DB_OPTION
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False),
              help="Rule thresholds (TOML) used when a tool call names none.")
@click.option("--max-size", type=int, default=None, help="Refuse inputs larger than this many MiB (default: as analyze).")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=1, show_default=True,
              help="Worker processes for a trend over several inputs (0: one per core).")
@click.option("--root", "roots", multiple=True, type=click.Path(exists=True, file_okay=False),
              help="A directory whose files the tools may read (repeatable). Without it: the client's roots when "
                   "it grants some, else the working directory; with it, a path must also be under a client root.")
def mcp_cmd(db_url: str | None, config_path: str | None, max_size: int | None, jobs: int,
            roots: tuple[str, ...]) -> None:
    """Serve awrscope's tools to an AI assistant over stdio (Model Context Protocol; docs/mcp.md).

    Deterministic, read-only tools (analyze, compare, trend, rules, the report store, a finding's
    evidence lines) returning the CLI's JSON documents. Nothing is sent anywhere; no model runs here.
    Run by an MCP client, not by hand: it speaks JSON-RPC on stdin/stdout.
    """
    try:
        import mcp.server.mcpserver  # noqa: F401 - the SDK (mcp 2.x)
    except ImportError:
        click.echo(_NO_SDK, err=True)
        sys.exit(EXIT_UNUSABLE)
    from .server import serve_stdio

    serve_stdio(db_url=db_url, config_path=config_path, max_size_mib=max_size, jobs=jobs, roots=list(roots))
