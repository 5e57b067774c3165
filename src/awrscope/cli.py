"""The ``awrscope`` command line. Results go to stdout, problems to stderr.

Exit codes: 0 ok, 1 findings at or above --fail-on, 2 unusable input or usage error.
"""
from __future__ import annotations

import json
import sys

import click

from . import __version__
from .errors import EXIT_OK, EXIT_UNUSABLE, AwrscopeError
from .model import SCHEMA_VERSION, Report
from .parse import parse_source
from .parse.source import DEFAULT_MAX_BYTES, expand_inputs, read_sources
from .serialize import parse_document


def _load_all(paths: tuple[str, ...], max_bytes: int) -> list[tuple[str, Report | None, str | None]]:
    """(name, report or None, error message or None) per input; one bad input never stops the rest."""
    out: list[tuple[str, Report | None, str | None]] = []
    try:
        inputs = expand_inputs(list(paths))
    except AwrscopeError as e:
        return [("", None, str(e))]
    for p in inputs:
        try:
            sources = read_sources(p, max_bytes)
        except AwrscopeError as e:
            out.append((p, None, str(e)))
            continue
        for src in sources:
            try:
                out.append((src.name, parse_source(src), None))
            except AwrscopeError as e:
                out.append((src.name, None, str(e)))
            except RecursionError:
                out.append((src.name, None, f"{src.name}: the report is nested too deeply to read"))
            except MemoryError:
                out.append((src.name, None, f"{src.name}: not enough memory to read this report"))
    return out


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="awrscope")
def main() -> None:
    """Analyse Oracle AWR and Statspack reports: where the time went, above all on the write path."""


@main.command("parse")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["json", "text"]), default="json", show_default=True,
              help="json: the parse contract (docs/schema.md); text: a short summary.")
@click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write here instead of stdout.")
@click.option("--max-size", type=int, default=DEFAULT_MAX_BYTES // (1024 * 1024), show_default=True,
              help="Refuse inputs larger than this many MiB (after decompression).")
@click.option("--indent", type=int, default=None, help="Indent the JSON output.")
def parse_cmd(paths: tuple[str, ...], fmt: str, output: str | None, max_size: int, indent: int | None) -> None:
    """Parse reports into the typed model and print it (JSON by default).

    PATHS are files, directories, globs, .gz or .zip archives, or - for stdin.
    """
    results = _load_all(paths, max_size * 1024 * 1024)
    failed = 0
    docs = []
    texts = []
    for name, report, err in results:
        if err:
            failed += 1
            click.echo(f"awrscope: {err}", err=True)
            if fmt == "json" and len(results) > 1:
                docs.append({"schema_version": SCHEMA_VERSION, "source": {"path": name}, "error": err})
            continue
        if fmt == "json":
            docs.append(parse_document(report))
        else:
            texts.append(_summary_text(report))
    if fmt == "json":
        if docs:
            payload = docs[0] if len(results) == 1 else docs
            _emit(json.dumps(payload, indent=indent, ensure_ascii=False, default=str), output)
    elif texts:
        _emit("\n\n".join(texts), output)
    # Any unusable input makes the run exit 2; the usable ones are still printed.
    sys.exit(EXIT_UNUSABLE if failed else EXIT_OK)


def _emit(text: str, output: str | None) -> None:
    if output:
        with open(output, "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
    else:
        click.echo(text)


def _summary_text(r: Report) -> str:
    h = r.header
    window = ""
    if h.begin and h.end:
        window = f"snaps {h.begin.snap_id}-{h.end.snap_id} ({h.begin.time} .. {h.end.time})"
    lines = [
        f"{r.source_path}",
        f"  kind: {r.kind} ({r.format}), version {r.version or 'unknown'}",
        f"  database: {h.db_name} (DBID {h.dbid}), instance {', '.join(r.instance_names) or '?'}, host {h.host}",
        f"  window: {window}",
        f"  elapsed: {_fmt(r.elapsed_s, 's')}, DB time: {_fmt(r.db_time_s, 's')}",
        f"  sections ({len(r.sections)}): {', '.join(r.sections)}",
    ]
    if r.issues:
        lines.append(f"  issues ({len(r.issues)}):")
        lines.extend(f"    {i.level}: {i.message}" + (f" [line {i.line}]" if i.line else "") for i in r.issues)
    return "\n".join(lines)


def _fmt(v: float | None, unit: str) -> str:
    return "n/a" if v is None else f"{v:,.1f} {unit}"


if __name__ == "__main__":
    main()
