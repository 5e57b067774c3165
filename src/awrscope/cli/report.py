"""Commands over single reports: ``parse``, ``analyze`` and the ``rules`` catalogue."""
from __future__ import annotations

import sys
from functools import partial
from typing import TYPE_CHECKING, Any

import click

from ..errors import EXIT_OK, EXIT_UNUSABLE, internal_message
from ..limits import DEFAULT_MAX_BYTES
from .common import (FAIL_CHOICES, emit, failure_code, guard_output, in_window, infer_format, load_all, load_config_or_exit,
                     parse_when, time_window_options)

if TYPE_CHECKING:
    from ..model import Report


@click.command("parse")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["json", "text"]), default="json", show_default=True,
              help="json: the parse contract (docs/schema.md); text: a short summary.")
@click.option("-o", "--output", metavar="FILE", help="Write here instead of stdout.")
@click.option("--max-size", type=int, default=DEFAULT_MAX_BYTES // (1024 * 1024), show_default=True,
              help="Refuse inputs larger than this many MiB (after decompression).")
@click.option("--indent", type=int, default=None, help="Indent the JSON output.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
              help="Parse several inputs in this many processes (0: one per core).")
def parse_cmd(paths: tuple[str, ...], fmt: str, output: str | None, max_size: int, indent: int | None,
              jobs: int) -> None:
    """Parse reports into the typed model and print it (JSON by default).

    PATHS are files, directories, globs, .gz or .zip archives, or - for stdin.
    """
    guard_output(output, paths)
    from ..model import SCHEMA_VERSION
    from ..render.json import to_json

    # the document (or the summary) is made where the report was parsed: a dict of plain values crosses
    # from a worker process several times faster than the Report's objects
    as_text = fmt == "json" and indent is None  # JSON text made in the workers: json.dumps of a list is "[" +
    # ", ".join(json.dumps(item)) + "]" byte for byte when not indented, so the documents are joined as made
    results = load_all(paths, max_size * 1024 * 1024, jobs,
                       then=partial(_parse_output, "json-text" if as_text else fmt))
    failed: list[str] = []
    docs = []
    texts = []
    for name, made, err in results:
        if err:
            failed.append(err)
            click.echo(f"awrscope: {err}", err=True)
            if fmt == "json" and len(results) > 1:
                docs.append({"schema_version": SCHEMA_VERSION, "source": {"path": name}, "error": err})
            continue
        (docs if fmt == "json" else texts).append(made)
    if fmt == "json" and docs:
        if as_text:
            texts_json = [d if isinstance(d, str) else to_json(d, indent=None) for d in docs]
            emit(texts_json[0] if len(results) == 1 else "[" + ", ".join(texts_json) + "]", output)
        else:
            emit(to_json(docs[0] if len(results) == 1 else docs, indent=indent), output)
    elif texts:
        emit("\n\n".join(texts), output)
    # Any unusable input makes the run exit 2 (3 for a bug of ours); the usable ones are still printed.
    sys.exit(failure_code(failed) if failed or not results else EXIT_OK)


@click.command("analyze")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "html"]), default=None,
              help="Output format (default: from the -o extension, else text). html: one self-contained file.")
@click.option("-o", "--output", metavar="FILE", help="Write here instead of stdout.")
@click.option("--fail-on", type=click.Choice(FAIL_CHOICES), default="none", show_default=True,
              help="Exit 1 when a finding has this severity or worse.")
@click.option("--config", "config_path", type=click.Path(exists=True, dir_okay=False),
              help="TOML file overriding rule thresholds ([rules.R01] lgwr_ms = 4) and [metrics] alpha.")
@click.option("--max-size", type=int, default=DEFAULT_MAX_BYTES // (1024 * 1024), show_default=True,
              help="Refuse inputs larger than this many MiB (after decompression).")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
              help="Parse several inputs in this many processes (0: one per core).")
@click.option("-v", "--verbose", is_flag=True,
              help="Text and Markdown: also what explains the diagnosis (rules not applicable and what they need, "
                   "key metrics, rule ids, what-if bounds). JSON always carries all of it; HTML folds it away.")
@time_window_options
def analyze_cmd(paths: tuple[str, ...], fmt: str | None, output: str | None, fail_on: str, config_path: str | None,
                max_size: int, jobs: int, verbose: bool, since: str | None, until: str | None) -> None:
    """Diagnose the write path of reports: metrics, findings ranked by impact in DB time, what-ifs.

    Exit codes: 0 clean, 1 findings at or above --fail-on, 2 unusable input, 3 internal error (a bug).
    """
    guard_output(output, paths)
    from ..rules.base import SEVERITY_RANK

    config = load_config_or_exit(config_path)
    lo, hi = parse_when(since), parse_when(until, end_of_day=True)
    if fmt is None:
        fmt = infer_format(None, output)
    # the HTML report draws from the parsed sections too, so the reports come back with their analyses
    # a JSON document is written where it was analysed (in parallel when there are workers), the list joined here
    results = load_all(paths, max_size * 1024 * 1024, jobs,
                       then=partial(_analyze_one, config, fmt == "html", fmt == "json"))
    docs, reports, texts, failed = [], [], [], []
    outside: list[str] = []
    undated: list[str] = []
    for name, outcome, err in results:
        if err:
            failed.append(err)
            click.echo(f"awrscope: {err}", err=True)
            continue
        status, value = outcome
        if status == "config":  # bad config values
            click.echo(f"awrscope: {value}", err=True)
            sys.exit(EXIT_UNUSABLE)
        if status == "error":  # never a traceback for one report; the others are still analysed
            failed.append(value)
            click.echo(f"awrscope: {value}", err=True)
            continue
        doc, report, text = value
        inside = in_window(doc["report"].get("begin_time"), doc["report"].get("end_time"), lo, hi)
        if not inside:
            outside.append(name) if inside is False else undated.append(name)
            continue
        docs.append(doc)
        reports.append(report)
        texts.append(text)
    if outside or undated:
        click.echo(f"awrscope: --begin/--end left out {len(outside)} report(s) outside the range"
                   + (f" and {len(undated)} whose window is not printed" if undated else ""), err=True)
    if not docs:
        if outside or undated:
            click.echo("awrscope: no report in the --begin/--end range", err=True)
        sys.exit(failure_code(failed))
    if len(docs) > 1 and any(d["report"]["kind"] == "ash" for d in docs):
        from ..analysis import join_ash  # an ASH report of the same window names the SQL behind the events
        join_ash(docs)
        texts = [None] * len(docs)  # the documents changed: written again below
    # each format imports only its own renderer: a JSON run never loads the text one (and what it imports)
    if fmt == "json":
        from ..render.json import join_json, to_json
        texts = [t if t is not None else to_json(d) for t, d in zip(texts, docs)]
        emit(texts[0] if len(docs) == 1 else join_json(texts), output)
    elif fmt == "html":
        from ..render.html import render_analyses
        emit(render_analyses(list(zip(docs, reports))), output)
    elif fmt == "markdown":
        from ..render.markdown import render_markdown
        emit("\n\n".join(render_markdown(d, verbose=verbose) for d in docs), output)
    else:
        from ..render.text import render_text
        emit("\n\n".join(render_text(d, verbose=verbose) for d in docs), output)
    if failed:
        sys.exit(failure_code(failed))
    if fail_on != "none":
        from ..documents import all_findings
        worst = min((SEVERITY_RANK[f["severity"]] for d in docs for f in all_findings(d)), default=99)
        if worst <= SEVERITY_RANK[fail_on]:
            sys.exit(1)
    sys.exit(EXIT_OK)


def _parse_output(kind: str, report: Report):
    """The parse document of a report ("json"), that document as JSON text ("json-text"), or its summary
    ("text"): run where the report was parsed."""
    from ..render.json import to_json
    from ..serialize import parse_document

    if kind == "text":
        return _summary_text(report)
    doc = parse_document(report)
    return to_json(doc, indent=None) if kind == "json-text" else doc


def _analyze_one(config: dict, keep_report: bool, as_json: bool, report: Report) -> tuple[str, Any]:
    """("ok", (analysis document, the report when keep_report else None, the document's JSON when as_json else
    None)) | ("config", message) | ("error", message): run where the report was parsed (a worker process for
    several inputs)."""
    from ..analysis import analyze

    try:
        doc = analyze(report, config)
        if as_json:
            from ..render.json import to_json
            return "ok", (doc, report if keep_report else None, to_json(doc))
        return "ok", (doc, report if keep_report else None, None)
    except ValueError as e:  # bad config values
        return "config", str(e)
    except Exception as e:  # noqa: BLE001 - reported per report, never a traceback
        return "error", internal_message(f"{report.source_path or 'report'}: analysing", e)


@click.group("rules", invoke_without_command=True)
@click.option("--markdown", is_flag=True, help="Print the full rule reference as Markdown (docs/rules.md).")
@click.pass_context
def rules_cmd(ctx: click.Context, markdown: bool) -> None:
    """List the diagnosis rules (R01-R17, G01-G17); `rules explain ID` shows one."""
    if ctx.invoked_subcommand is None:
        from ..rules import RULES
        order = sorted(RULES, key=lambda k: (k[0] != "R", k))
        if markdown:
            out = ["# awrscope rules", "", "Generated by `awrscope rules --markdown`; thresholds can be overridden "
                   "in a `--config` TOML file under `[rules.<ID>]`.", ""]
            for rid in order:
                r = RULES[rid]
                out += [f"## {r.id} `{r.slug}`: {r.title}", "", r.doc, "", "| threshold | default |", "|---|---|"]
                out += [f"| `{k}` | {v} |" for k, v in r.thresholds.items()] + [""]
            click.echo("\n".join(out))
            return
        for rid in order:
            r = RULES[rid]
            click.echo(f"{r.id}  {r.slug:34s} {r.title}")


@rules_cmd.command("explain")
@click.argument("rule_id")
def rules_explain(rule_id: str) -> None:
    """Show a rule's documentation and thresholds."""
    from ..rules import RULES
    r = RULES.get(rule_id.upper()) or next((x for x in RULES.values() if x.slug == rule_id), None)
    if r is None:
        click.echo(f"awrscope: unknown rule {rule_id}", err=True)
        sys.exit(EXIT_UNUSABLE)
    click.echo(f"{r.id} {r.slug}: {r.title}\n")
    click.echo(r.doc)
    click.echo("\nThresholds (override in a --config TOML file under [rules." + r.id + "]):")
    for k, v in r.thresholds.items():
        click.echo(f"  {k} = {v}")


def _summary_text(r: Report) -> str:
    h = r.header
    window = ""
    if h.begin and h.end:
        window = f"snaps {h.begin.snap_id}-{h.end.snap_id} ({h.begin.time} .. {h.end.time})"
    lines = [
        f"{r.source_path}",
        f"  kind: {r.kind} ({r.format}), version {r.version or 'unknown'}",
        f"  database: {h.db_name or '?'} (DBID {h.dbid or '?'}), instance {', '.join(r.instance_names) or '?'}, host {h.host or '?'}",
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
