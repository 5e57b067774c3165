"""``awrscope serve``: the web app on this machine (127.0.0.1 by default) or for a team."""
from __future__ import annotations

import sys

import click

from ..errors import EXIT_UNUSABLE, AwrscopeError
from ..store.commands import DB_OPTION


@click.command("serve")
@DB_OPTION
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind. Only this machine can connect unless you change it.")
@click.option("--port", type=int, default=8700, show_default=True)
@click.option("--token", envvar="AWRSCOPE_TOKEN", default=None,
              help="Shared token required from every client (team servers; also $AWRSCOPE_TOKEN).")
@click.option("--allowed-host", "allowed_hosts", multiple=True, metavar="NAME",
              help="Host name clients use to reach the server (repeatable); 127.0.0.1, localhost and --host are "
                   "always allowed. Other Host headers are refused (DNS rebinding).")
@click.option("--max-upload", type=int, default=64, show_default=True, help="Largest upload, MiB (also per report "
              "after decompression).")
@click.option("--parse-timeout", type=float, default=60.0, show_default=True, help="Seconds one upload may take.")
@click.option("--workers", type=int, default=None, help="Uploads parsed at once (default: CPUs, at most 4).")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False), help="Rule thresholds (TOML).")
def serve_cmd(db_url: str | None, host: str, port: int, token: str | None, allowed_hosts: tuple[str, ...], max_upload: int,
              parse_timeout: float, workers: int | None, config_path: str | None) -> None:
    """Serve the web app: upload, reports, analysis, compare, trend, rules; JSON under /api."""
    try:
        import uvicorn
    except ImportError:
        click.echo("awrscope: serve needs the web extra: pip install 'awrscope[web]'", err=True)
        sys.exit(EXIT_UNUSABLE)
    from ..analysis import load_config
    from . import create_app
    from .worker import ParseLimits

    if host not in ("127.0.0.1", "localhost", "::1") and not token:
        click.echo(f"awrscope: warning: serving on {host} without --token: anyone who can reach it can read "
                   "and upload reports", err=True)
    limits = ParseLimits(max_bytes=max_upload * 1024 * 1024, timeout_s=parse_timeout)
    if workers:
        limits.workers = workers
    try:
        app = create_app(db_url, token=token, limits=limits, config=load_config(config_path) if config_path else None,
                         allowed_hosts=(host, *allowed_hosts))
    except (AwrscopeError, ValueError) as e:
        click.echo(f"awrscope: {e}", err=True)
        sys.exit(EXIT_UNUSABLE)
    click.echo(f"awrscope: serving {app.state.url if '://' not in app.state.url else app.state.url.split('@')[-1]} "
               f"on http://{host}:{port}/", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", server_header=False)
