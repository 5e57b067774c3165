"""``awrscope trace FILE.trc...``: extended SQL trace files (event 10046) to a response-time profile
with session-level findings (T01...), as text, Markdown, JSON (docs/trace.md) or one HTML page."""
from __future__ import annotations

import sys

import click

from ..errors import EXIT_FINDINGS, EXIT_OK, EXIT_UNUSABLE
from .common import FAIL_CHOICES, emit, guard_output, infer_format

_RANK = {s: i for i, s in enumerate(("critical", "major", "moderate", "minor", "info"))}


@click.command("trace")
@click.argument("paths", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json", "html"]), default=None,
              help="Output format (default: from the -o extension, else text).")
@click.option("-o", "--output", metavar="FILE", help="Write here instead of stdout.")
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many statements to profile (by response time).")
@click.option("--time-unit", type=click.Choice(["us", "cs"]), default=None,
              help="Override the time unit (default: from the version banner; cs for Oracle 8i and older).")
@click.option("--fail-on", type=click.Choice(FAIL_CHOICES), default="none", show_default=True,
              help="Exit 1 when a finding has this severity or worse.")
def trace_cmd(paths: tuple[str, ...], fmt: str | None, output: str | None, top: int, time_unit: str | None,
              fail_on: str) -> None:
    """Profile extended SQL trace files (10046): where one session's response time went.

    The profile has one line per wait event, the CPU of dep=0 database calls, and unaccounted-for time;
    then findings (T01 log file sync per commit, T02 TRUNCATE object checkpoint, T03 TEMP spills,
    T04 unaccounted-for time in calls, T05 round-trip latency), the top statements with their own profiles and each event's
    duration histogram. Exit 2 for an input that is not a trace (one line on stderr).
    """
    from ..trace import NotATraceError, document_of, read_trace

    guard_output(output, paths)
    fmt = infer_format(fmt, output)
    docs, failed = [], 0
    for path in paths:
        try:
            st = read_trace(path, time_unit)
        except NotATraceError as e:
            click.echo(f"awrscope: {e}", err=True)
            failed += 1
            continue
        except (OSError, EOFError) as e:  # missing, unreadable, a corrupt .gz
            click.echo(f"awrscope: {path}: {getattr(e, 'strerror', None) or e}", err=True)
            failed += 1
            continue
        docs.append(document_of(st, top=top))
    if docs:
        emit(_render(docs, fmt, top), output)
    if failed:
        sys.exit(EXIT_UNUSABLE)
    if fail_on != "none" and any(_RANK[f["severity"]] <= _RANK[fail_on] for d in docs for f in d["findings"]):
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_OK)


def _render(docs: list[dict], fmt: str, top: int) -> str:
    if fmt == "json":
        from ..render.json import to_json

        return to_json(docs[0] if len(docs) == 1 else docs, indent=1)
    if fmt == "html":
        from ..trace.html import render_html

        if len(docs) == 1:
            return render_html(docs[0], statements=top)
        pages = [render_html(d, statements=top) for d in docs]
        body = [p.split("<body>", 1)[1].rsplit("</body>", 1)[0] for p in pages]
        return pages[0].split("<body>", 1)[0] + "<body>" + "\n<hr>\n".join(body) + "</body></html>"
    from ..trace.render import render_markdown, render_text

    r = render_markdown if fmt == "markdown" else render_text
    return "\n\n".join(r(d, statements=min(top, 5)) for d in docs)
