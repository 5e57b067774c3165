"""``awrscope db``: import, list, show, delete and re-analyse stored reports."""
from __future__ import annotations

import json
import os
import sys
import time

import click

from ..errors import EXIT_OK, EXIT_UNUSABLE, AwrscopeError, failure_code
from ..limits import DEFAULT_MAX_BYTES

DB_OPTION = click.option("--db", "db_url", envvar="AWRSCOPE_DB", default=None, metavar="URL",
                         help="SQLite file, sqlite:///path or postgresql://... "
                              "(default: $AWRSCOPE_DB, else awrscope.sqlite3 in the user data directory).")


def _config(path: str | None) -> dict:
    """The --config file, or exit 2 with one line naming it (as the report commands say it)."""
    from ..analysis import load_config

    try:
        return load_config(path)
    except OSError as e:
        click.echo(f"awrscope: cannot read config {path}: {e.strerror or e}", err=True)
    except ValueError as e:
        click.echo(f"awrscope: cannot use config {path}: {e}", err=True)
    sys.exit(EXIT_UNUSABLE)


def _open(db_url: str | None):
    from . import Store

    try:
        return Store(db_url)
    except AwrscopeError as e:
        click.echo(f"awrscope: {e}", err=True)
        sys.exit(EXIT_UNUSABLE)


@click.group("db")
def db_group() -> None:
    """The report store: keep analysed reports of many databases, list, filter, trend."""


@db_group.command("import")
@click.argument("paths", nargs=-1, required=True)
@DB_OPTION
@click.option("-j", "--jobs", type=int, default=None, help="Parser processes (default: the number of CPUs).")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False), help="Rule thresholds (TOML).")
@click.option("--max-size", type=int, default=DEFAULT_MAX_BYTES // (1024 * 1024), show_default=True,
              help="Refuse inputs larger than this many MiB (after decompression).")
@click.option("-q", "--quiet", is_flag=True, help="Only the summary line.")
def db_import(paths: tuple[str, ...], db_url: str | None, jobs: int | None, config_path: str | None, max_size: int,
              quiet: bool) -> None:
    """Import reports (files, directories, globs, .gz, .zip). Idempotent: known content adds nothing.

    Exit 2 when an input could not be imported (the others still are)."""
    config = _config(config_path)
    store = _open(db_url)
    started = time.perf_counter()

    def show(r) -> None:
        if r.status == "error":
            click.echo(f"awrscope: {r.message}", err=True)
        elif r.status == "skipped":
            pass  # summed up in one line at the end
        elif not quiet:
            click.echo(f"{r.status:9s} #{r.id:<6d} {r.name}" + (f"  [{r.db_name}]" if r.db_name else ""), err=True)

    try:
        results = store.import_paths(paths, max_size * 1024 * 1024, config, jobs or os.cpu_count() or 1, show)
    except AwrscopeError as e:
        click.echo(f"awrscope: {e}", err=True)
        sys.exit(EXIT_UNUSABLE)
    finally:
        store.close()
    counts = {s: sum(1 for r in results if r.status == s) for s in ("added", "duplicate", "skipped", "error")}
    if counts["error"] and not counts["added"] and not counts["duplicate"] and getattr(store.conn, "created", False):
        store.conn.discard()  # a store this run created and put nothing in (a full disk): not left behind
    from ..loader import skip_summary

    summary = skip_summary([(r.name, r.message or "not a report") for r in results if r.status == "skipped"])
    if summary:
        click.echo(f"awrscope: {summary}", err=True)
    skipped = f"{counts['skipped']} skipped, " if counts["skipped"] else ""
    reasons = _reasons([(r.name, r.message or "") for r in results if r.status == "error"])
    click.echo(f"{counts['added']} added, {counts['duplicate']} already stored, {skipped}{counts['error']} failed "
               f"in {time.perf_counter() - started:.1f} s" + (f"; failed: {reasons}" if reasons else ""), err=True)
    if counts["error"]:
        sys.exit(failure_code([r.message or "" for r in results if r.status == "error"]))
    sys.exit(EXIT_OK)


def _reasons(failed: list[tuple[str, str]], shown: int = 3) -> str:
    """Why inputs failed, most frequent first: 'no such file (2), not stored (... disk is full) (1)'."""
    by: dict[str, int] = {}
    for name, message in failed:
        reason = message[len(name) + 2:] if name and message.startswith(name + ": ") else message
        by[reason] = by.get(reason, 0) + 1
    ranked = sorted(by.items(), key=lambda kv: -kv[1])
    text = ", ".join(f"{reason} ({n})" for reason, n in ranked[:shown])
    return text + (f" and {len(ranked) - shown} other reason(s)" if len(ranked) > shown else "")


@db_group.command("list")
@DB_OPTION
@click.option("--database", "db", help="DB name or DBID.")
@click.option("--instance", help="Instance name.")
@click.option("--since", help="Reports ending at or after this time (YYYY-MM-DD[ HH:MM:SS]).")
@click.option("--until", help="Reports beginning at or before this time.")
@click.option("--finding", help="Reports with this finding (rule id like R01, or words of its title).")
@click.option("--severity", type=click.Choice(["critical", "major", "moderate", "minor", "info"]),
              help="Reports with a finding at least this severe.")
@click.option("--kind", type=click.Choice(["awr", "statspack", "awr_global", "awr_diff"]))
@click.option("--limit", type=int, default=100, show_default=True)
@click.option("--offset", type=int, default=0)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def db_list(db_url: str | None, fmt: str, limit: int, offset: int, **filters) -> None:
    """List stored reports with their top finding."""
    with _open(db_url) as store:
        rows = store.list(limit=limit, offset=offset, **filters)
        total = store.count(**filters)
    if fmt == "json":
        click.echo(json.dumps({"total": total, "reports": rows}, indent=1, default=str))
        return
    if rows:
        click.echo(f"{'id':6s} {'database':10s} {'instance':12s} {'window (begin .. end)':42s} {'kind':10s} worst finding")
    for r in rows:
        begin, end = str(r["begin_time"] or "?"), str(r["end_time"] or "?")
        # the end's date is printed whenever it is not the begin's: a 3-day window must not read as 9 hours
        window = f"{begin} .. {end[11:] if end[:10] == begin[:10] and len(end) > 11 else end}"
        top = f"{r['top_severity']}: {r['top_finding_title']}" if r["top_finding_id"] else "no finding"
        click.echo(f"#{r['id']:<5d} {r['db_name'] or '?':10s} {(r['instance'] or '?')[:12]:12s} {window:42s} "
                   f"{r['kind']:10s} {top}")
    click.echo(f"{len(rows)} of {total} reports", err=True)


#: a report id the store can hold (SQLite's INTEGER): a larger one names no report, and is a usage error (exit 2)
REPORT_ID = click.IntRange(1, 2 ** 63 - 1)


@db_group.command("show")
@click.argument("report_id", type=REPORT_ID)
@DB_OPTION
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
def db_show(report_id: int, db_url: str | None, fmt: str) -> None:
    """Show the stored analysis of one report."""
    from ..render import render_markdown, render_text

    with _open(db_url) as store:
        rec = store.get(report_id)
    if rec is None:
        click.echo(f"awrscope: no report #{report_id} in the store", err=True)
        sys.exit(EXIT_UNUSABLE)
    doc = rec["analysis"]
    if fmt == "json":
        click.echo(json.dumps(doc, indent=1, ensure_ascii=False, default=str))
    elif fmt == "markdown":
        click.echo(render_markdown(doc))
    else:
        click.echo(render_text(doc))


@db_group.command("delete")
@click.argument("report_ids", type=REPORT_ID, nargs=-1, required=True)
@DB_OPTION
def db_delete(report_ids: tuple[int, ...], db_url: str | None) -> None:
    """Delete reports (their analysis, metrics and raw bytes)."""
    missing = 0
    with _open(db_url) as store:
        for rid in report_ids:
            if store.delete(rid):
                click.echo(f"deleted #{rid}", err=True)
            else:
                missing += 1
                click.echo(f"awrscope: no report #{rid} in the store", err=True)
    sys.exit(EXIT_UNUSABLE if missing else EXIT_OK)


@db_group.command("reanalyze")
@click.argument("report_ids", type=REPORT_ID, nargs=-1)
@DB_OPTION
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False), help="Rule thresholds (TOML).")
def db_reanalyze(report_ids: tuple[int, ...], db_url: str | None, config_path: str | None) -> None:
    """Re-parse and re-analyse stored reports from their stored bytes (all, or the ids given)."""
    config = _config(config_path)
    started = time.perf_counter()
    with _open(db_url) as store:
        results = store.reanalyze(config, report_ids or None,
                                  lambda r: r.status == "error" and click.echo(f"awrscope: {r.message}", err=True))
    failed = sum(1 for r in results if r.status == "error")
    click.echo(f"{len(results) - failed} reanalysed, {failed} failed in {time.perf_counter() - started:.1f} s",
               err=True)
    sys.exit(EXIT_UNUSABLE if failed else EXIT_OK)
