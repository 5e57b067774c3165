"""Commands over several reports: ``compare`` and ``trend`` (docs/compare.md)."""
from __future__ import annotations

import sys

import click

from ..errors import EXIT_OK, EXIT_UNUSABLE
from ..limits import DEFAULT_MAX_BYTES
from .common import (FORMATS, emit, failure_code, guard_output, infer_format, load_config_or_exit, parse_when,
                     time_window_options)


def _pair(value: str | None, what: str) -> tuple[float, float] | None:
    if not value:
        return None
    try:
        a, b = (float(x) for x in value.split(","))
    except ValueError:
        raise click.BadParameter(f"{what} must be two numbers separated by a comma, e.g. 5,10") from None
    return a, b


def _render(doc: dict, fmt: str, which: str) -> str:
    from .. import render

    if fmt == "json":
        return render.to_json(doc)
    if fmt == "html":
        from ..render import html

        return getattr(html, f"render_{which}")(doc)
    if which == "compare":
        return render.compare_markdown(doc) if fmt == "markdown" else render.compare_text(doc)
    return render.trend_markdown(doc) if fmt == "markdown" else render.trend_text(doc)


@click.command("compare")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="Output format (default: from the -o extension, else text).")
@click.option("-o", "--output", metavar="FILE", help="Write here instead of stdout.")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False), help="TOML rule/metric config.")
@click.option("--streams", help="Concurrent streams of the two runs, e.g. 5,10: adds the scalability figure (M103).")
@click.option("--run-elapsed", help="Elapsed seconds of the two runs' work (default: the reports' elapsed), e.g. 171,232.")
@click.option("--max-size", type=int, default=DEFAULT_MAX_BYTES // (1024 * 1024), show_default=True,
              help="Refuse inputs larger than this many MiB (after decompression).")
def compare_cmd(paths: tuple[str, ...], fmt: str | None, output: str | None, config_path: str | None,
                streams: str | None, run_elapsed: str | None, max_size: int) -> None:
    """Compare BEFORE and AFTER (two reports of any kind), or the two periods of one
    compare-period report: metrics per second and per transaction, events, findings,
    what-if predictions checked against the measurement.

    Exit codes: 0 compared, 2 unusable input or usage error.
    """
    guard_output(output, paths)
    from ..change.compare import compare
    from ..loader import load_many

    if len(paths) > 2:
        raise click.UsageError("compare takes BEFORE AFTER, or one compare-period report")
    fmt = infer_format(fmt, output)
    config = load_config_or_exit(config_path)
    st, el = _pair(streams, "--streams"), _pair(run_elapsed, "--run-elapsed")
    reports = []
    for p in paths:
        rows = load_many([p], max_size * 1024 * 1024, progress=False)
        if len(rows) != 1 or rows[0][2]:
            err = rows[0][2] if rows and rows[0][2] else f"{p}: holds {len(rows)} reports; give one report per side"
            click.echo(f"awrscope: {err}", err=True)
            sys.exit(EXIT_UNUSABLE)
        reports.append(rows[0][1])
    try:
        doc = compare(reports[0], reports[1] if len(reports) == 2 else None, config, st, el)
    except ValueError as e:
        click.echo(f"awrscope: {e}", err=True)
        sys.exit(EXIT_UNUSABLE)
    emit(_render(doc, fmt, "compare"), output)
    sys.exit(EXIT_OK)


@click.command("trend")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="Output format (default: from the -o extension, else text).")
@click.option("-o", "--output", metavar="FILE", help="Write here instead of stdout.")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False), help="TOML rule/metric config.")
@click.option("-j", "--jobs", type=int, default=None, help="Worker processes (default: all cores).")
@click.option("--max-size", type=int, default=DEFAULT_MAX_BYTES // (1024 * 1024), show_default=True,
              help="Refuse inputs larger than this many MiB (after decompression).")
@time_window_options
def trend_cmd(paths: tuple[str, ...], fmt: str | None, output: str | None, config_path: str | None, jobs: int | None,
              max_size: int, since: str | None, until: str | None) -> None:
    """Series of snapshot windows in time order (one database), or a fleet view (several
    databases, worst first). PATHS are files, directories, globs, .gz or .zip archives.

    Exit codes: 0 every input used, 2 some input unusable (listed as error rows) or none usable.
    """
    guard_output(output, paths)
    from functools import partial

    from ..loader import load_many
    from ..change.trend import build, collect_windows, windows_of

    fmt = infer_format(fmt, output)
    config = load_config_or_exit(config_path)
    lo, hi = parse_when(since), parse_when(until, end_of_day=True)
    skipped: list[tuple[str, str]] = []
    rows = load_many(paths, max_size * 1024 * 1024, then=partial(windows_of, config=config), workers=jobs,
                     skipped=skipped)

    windows, errors, notes = collect_windows(rows, lo, hi, skipped)
    for note in notes:
        click.echo(f"awrscope: {note}", err=True)
    if not windows:
        if not errors:
            click.echo("awrscope: no report found", err=True)
        sys.exit(failure_code([e["error"] for e in errors]))
    doc = build(windows, errors)
    emit(_render(doc, fmt, "fleet" if doc["kind"] == "fleet" else "trend"), output)
    sys.exit(failure_code([e["error"] for e in errors]) if errors else EXIT_OK)
