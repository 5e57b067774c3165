"""``awrscope serve``: the web app on this machine (127.0.0.1 by default) or for a team."""
from __future__ import annotations

import importlib.util
import sys

import click

from ..errors import EXIT_UNUSABLE, AwrscopeError
from ..store.commands import DB_OPTION


@click.command("serve", epilog="""\b
TLS: a team server should be reached over https, or its login cookie and token
travel in clear. Either give --ssl-certfile and --ssl-keyfile, or serve on
127.0.0.1 behind a reverse proxy that terminates TLS (nginx, Caddy, Apache)
and name it with --trusted-proxy 127.0.0.1: the proxy's X-Forwarded-For then
names the client (for the token throttle) and its X-Forwarded-Proto: https
marks the login cookie Secure. Without --trusted-proxy those headers are
ignored: any client could write them.

\b
Limits on clients: each must send its request headers within
--client-timeout seconds of connecting (or of its previous response), may not
pause longer than that while sending a body or while reading a response, and
may hold at most 1/8 of --max-connections at once (a trusted proxy: all).""")
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
@click.option("--parse-timeout", type=float, default=60.0, show_default=True, help="Seconds one upload, or one page of stored reports, may take to parse "
              "(the memory cap of a parse applies to both too).")
@click.option("--workers", type=int, default=None, help="Uploads and pages parsed at once (default: CPUs, at most 4).")
@click.option("--trusted-proxy", "trusted_proxies", multiple=True, metavar="ADDR",
              help="Address (or network, 10.0.0.0/8) of a reverse proxy in front of the server (repeatable): "
                   "X-Forwarded-For and X-Forwarded-Proto are read from it only.")
@click.option("--ssl-certfile", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Serve https with this certificate (PEM; with --ssl-keyfile).")
@click.option("--ssl-keyfile", type=click.Path(exists=True, dir_okay=False), default=None,
              help="The certificate's private key (PEM).")
@click.option("--client-timeout", type=click.FloatRange(min=0.1), default=20.0, show_default=True,
              help="Seconds a client may take to send its request headers, or pause while sending a body or "
                   "reading a response; then it is disconnected.")
@click.option("--max-connections", type=click.IntRange(min=8), default=256, show_default=True,
              help="Open connections at once (lowered to what the open-file limit allows).")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False), help="Rule thresholds (TOML).")
def serve_cmd(db_url: str | None, host: str, port: int, token: str | None, allowed_hosts: tuple[str, ...], max_upload: int,
              parse_timeout: float, workers: int | None, trusted_proxies: tuple[str, ...], ssl_certfile: str | None,
              ssl_keyfile: str | None, client_timeout: float, max_connections: int, config_path: str | None) -> None:
    """Serve the web app: upload, reports, analysis, compare, trend, rules; JSON under /api."""
    if importlib.util.find_spec("uvicorn") is None:
        click.echo("awrscope: serve needs the web extra: pip install 'awrscope[web]'", err=True)
        sys.exit(EXIT_UNUSABLE)
    from ..analysis import load_config
    from . import create_app
    from .connections import ConnectionLimits, run
    from .security import Proxies
    from .worker import ParseLimits

    if bool(ssl_certfile) != bool(ssl_keyfile):
        click.echo("awrscope: --ssl-certfile and --ssl-keyfile go together", err=True)
        sys.exit(EXIT_UNUSABLE)
    try:
        proxies = Proxies(trusted_proxies)
    except ValueError as e:
        click.echo(f"awrscope: --trusted-proxy: {e}", err=True)
        sys.exit(EXIT_UNUSABLE)

    if host not in ("127.0.0.1", "localhost", "::1") and not token:
        click.echo(f"awrscope: warning: serving on {host} without --token: anyone who can reach it can read "
                   "and upload reports", err=True)
    elif host not in ("127.0.0.1", "localhost", "::1") and not ssl_certfile:
        click.echo(f"awrscope: warning: serving on {host} over plain http: the token and login cookie cross the "
                   "network in clear (--ssl-certfile, or a TLS proxy: see --help)", err=True)
    limits = ParseLimits(max_bytes=max_upload * 1024 * 1024, timeout_s=parse_timeout)
    if workers:
        limits.workers = workers
    try:
        app = create_app(db_url, token=token, limits=limits, config=load_config(config_path) if config_path else None,
                         allowed_hosts=(host, *allowed_hosts), trusted_proxies=proxies)
    except (AwrscopeError, ValueError) as e:
        click.echo(f"awrscope: {e}", err=True)
        sys.exit(EXIT_UNUSABLE)
    if app.state.warning:
        click.echo(f"awrscope: warning: {app.state.warning}", err=True)
    click.echo(f"awrscope: serving {app.state.url if '://' not in app.state.url else app.state.url.split('@')[-1]} "
               f"on {'https' if ssl_certfile else 'http'}://{host}:{port}/", err=True)
    limits = ConnectionLimits(client_timeout_s=client_timeout, max_connections=max_connections,
                              per_peer=max(4, max_connections // 8), trusted=proxies.trusted)
    run(app, host, port, limits, ssl_keyfile=ssl_keyfile, ssl_certfile=ssl_certfile)
