"""The MCP server over stdio, built with the official ``mcp`` SDK (``MCPServer``, mcp 2.x).

Every tool returns a ``CallToolResult`` whose structured content is the document and whose text is the
JSON the CLI prints for the same inputs; a refused input is a tool error (``is_error``) holding the CLI's
``awrscope: ...`` line, never a traceback. Read-only: nothing is written but the store's own migrations,
nothing leaves the machine, no model runs here.
"""
from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from .. import __version__
from ..errors import internal_message
from . import roots as roots_
from . import tools
from .tools import Result, ToolFailure

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
#: resource name -> schema file name, looked up in the package, then in the checkout's docs/
SCHEMAS = {"analysis": "analysis.schema.json", "compare": "compare.schema.json", "trend": "trend.schema.json",
           "parse": "parse.schema.json"}
_PACKAGE = Path(__file__).resolve().parents[1]

INSTRUCTIONS = (
    "awrscope reads Oracle AWR, Statspack, ASH and ADDM reports on this machine and returns deterministic JSON "
    "documents: metrics with their formulas, findings ranked by the DB time they cost, each with evidence "
    "(report section and line). Quote numbers from these documents rather than estimating them; "
    "get_finding_evidence gives the report lines behind a finding. Paths are read on the machine running the "
    "server (a relative path is taken under the server's --root directories), only under the client's roots or the server's --root directories. Rules: explain_rule and the awrscope://rules resource; document "
    "schemas: awrscope://schema/{analysis,compare,trend,parse}.")

Path_ = Annotated[str, Field(description="A report file on this machine (text or HTML, or a .gz/.zip holding one "
                                         "report); absolute, or relative to the server's first --root directory "
                                         "holding it (without --root: its working directory).")]
Config = Annotated[str | None, Field(description="A TOML file overriding rule thresholds, as `--config` "
                                                 "(default: the server's --config).")]
When = Annotated[str | None, Field(description="YYYY-MM-DD[ HH:MM[:SS]]")]


def schema_path(name: str) -> Path | None:
    fname = SCHEMAS[name]
    for p in (_PACKAGE / "schema" / fname, _PACKAGE.parents[1] / "docs" / fname):
        if p.is_file():
            return p
    return None


def _call(tool: str, work: Callable[[], Result], guard: Callable[[], None] | None = None) -> CallToolResult:
    """Run one tool: its document, or a tool error with the CLI's one line (a bug: one line naming it).
    ``guard`` first refuses paths the server may not read."""
    try:
        if guard is not None:
            guard()
        r = work()
    except roots_.OutsideRoots as e:
        return CallToolResult(content=[TextContent(type="text", text=str(e))], is_error=True)
    except ToolFailure as e:
        return CallToolResult(content=[TextContent(type="text", text=str(e))], is_error=True)
    except Exception as e:
        if os.environ.get("AWRSCOPE_DEBUG"):
            logging.getLogger("awrscope.mcp").exception("tool %s", tool)
        return CallToolResult(content=[TextContent(type="text", text=f"awrscope: {internal_message(tool, e)}")],
                              is_error=True)
    content = [TextContent(type="text", text=r.text)]
    content += [TextContent(type="text", text=n) for n in r.notes]  # what the CLI says on stderr
    return CallToolResult(content=content, structured_content=r.doc)


def build_server(db_url: str | None = None, config_path: str | None = None, max_size_mib: int | None = None,
                 jobs: int = 1, roots: list[str] | None = None) -> MCPServer:
    """The server with its tools and resources; ``db_url`` as ``awrscope db --db`` (None: $AWRSCOPE_DB or the
    default SQLite file, opened only when a store tool is called). Report and config paths of a tool call are
    read only under the client's roots when it grants some, else under ``roots`` (None: the working
    directory); roots given explicitly also bound the client's (a path must be under both)."""
    server = MCPServer(name="awrscope", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    server_roots = roots_.resolve(roots if roots else [os.getcwd()])
    explicit = bool(roots)

    def cfg(config: str | None) -> str | None:
        return config if config else config_path

    def here(path: str | None) -> str | None:
        """A path of a tool call as the server reads it: a relative one under its --root directories."""
        return roots_.place(path, server_roots if explicit else None)

    def guard(ctx: Context | None, *paths: str | None) -> Callable[[], None]:
        """Refuse, before anything is read, a path outside what the server may read (paths the server's own
        options name, its --config, are the operator's and not checked); ``paths`` as the client gave them."""
        def run() -> None:
            client = _client_roots(ctx)
            allowed = [client] + ([server_roots] if explicit else []) if client else [server_roots]
            shown = {here(p): p for p in paths if p}
            roots_.check(list(shown), allowed, shown)
        return run

    @server.tool(annotations=READ_ONLY)
    def analyze_report(path: Path_, config: Config = None,
                       detail: Annotated[Literal["summary", "full"], Field(
                           description="summary (default): the verdict, where the time went and each finding with "
                                       "its evidence as text lines, the fix and how to confirm it; full: the whole "
                                       "analysis document (docs/analysis.schema.json).")] = "summary",
                       ctx: Context = None) -> CallToolResult:
        """Analyse one AWR, Statspack, ASH or ADDM report. By default a summary (text: the output of `awrscope
        analyze`; structured: verdict, the DB-time ledger's rows, findings ranked by the DB time they cost with
        evidence sentences citing section and line, fix, confirm/refute, what-ifs); detail "full" returns the
        document of `awrscope analyze --format json` (metrics with formulas, evidence sources, rules not applicable)."""
        return _call("analyze_report",
                     lambda: tools.analyze_report(here(path), cfg(here(config)), max_size_mib, detail),
                     guard(ctx, path, config))

    @server.tool(annotations=READ_ONLY)
    def compare_reports(
            before: Annotated[str, Field(description="The BEFORE report file, or a compare-period (awrddrpt) "
                                                     "report when `after` is not given.")],
            after: Annotated[str | None, Field(description="The AFTER report file.")] = None,
            config: Config = None,
            streams: Annotated[list[float] | None, Field(description="Concurrent streams of the two runs, e.g. "
                                                                     "[5, 10]: adds the scalability figure.")] = None,
            run_elapsed: Annotated[list[float] | None, Field(description="Elapsed seconds of the two runs' work "
                                                                         "(default: the reports' elapsed).")] = None,
            ctx: Context = None,
    ) -> CallToolResult:
        """Compare two reports (before/after), or the two periods of one compare-period report: the document of
        `awrscope compare --format json` (docs/compare.schema.json): metrics per second and per transaction,
        events, findings that came and went, what-if predictions checked against the measurement."""
        return _call("compare_reports",
                     lambda: tools.compare_reports(here(before), here(after), cfg(here(config)), streams, run_elapsed,
                                                   max_size_mib),
                     guard(ctx, before, after, config))

    @server.tool(annotations=READ_ONLY)
    def trend_reports(
            paths: Annotated[list[str], Field(description="Report files, directories, globs, .gz or .zip archives.",
                                              min_length=1)],
            config: Config = None, begin: When = None, end: When = None, ctx: Context = None,
    ) -> CallToolResult:
        """One row per snapshot window in time order (one database), or a fleet view worst first (several
        databases): the document of `awrscope trend --format json` (docs/trend.schema.json). Inputs that cannot
        be read are error rows in the document; begin/end keep the windows overlapping that range."""
        return _call("trend_reports",
                     lambda: tools.trend_reports([here(p) for p in paths], cfg(here(config)), begin, end, jobs,
                                                 max_size_mib),
                     guard(ctx, *[p for p in paths if p != "-"], config))

    @server.tool(annotations=READ_ONLY)
    def explain_rule(rule_id: Annotated[str, Field(description="A rule id (R01-R16, G01-...) or its slug.")]
                     ) -> CallToolResult:
        """One diagnosis rule: id, slug, title, family, its documentation (what it detects, why, what to do) and
        its default thresholds, as `awrscope rules explain ID` prints them. The awrscope://rules resource lists
        every rule."""
        return _call("explain_rule", lambda: tools.explain_rule(rule_id))

    @server.tool(annotations=READ_ONLY)
    def list_stored_reports(
            database: Annotated[str | None, Field(description="DB name or DBID.")] = None,
            instance: Annotated[str | None, Field(description="Instance name.")] = None,
            since: Annotated[str | None, Field(description="Reports ending at or after this time "
                                                           "(YYYY-MM-DD[ HH:MM:SS]).")] = None,
            until: Annotated[str | None, Field(description="Reports beginning at or before this time.")] = None,
            finding: Annotated[str | None, Field(description="Reports with this finding (a rule id like R01, or "
                                                             "words of its title).")] = None,
            severity: Annotated[Literal["critical", "major", "moderate", "minor", "info"] | None,
                                Field(description="Reports with a finding at least this severe.")] = None,
            kind: Literal["awr", "statspack", "awr_global", "awr_diff"] | None = None,
            limit: Annotated[int, Field(ge=0, le=10000)] = 100,
            offset: Annotated[int, Field(ge=0)] = 0,
    ) -> CallToolResult:
        """List or search the report store (`awrscope db import` fills it): {total, reports: [...]} with each
        report's id, database, instance, window, kind and worst finding, as `awrscope db list --format json`."""
        return _call("list_stored_reports", lambda: tools.list_stored(db_url, database, instance, since, until,
                                                                      finding, severity, kind, limit, offset))

    @server.tool(annotations=READ_ONLY)
    def get_stored_analysis(report_id: Annotated[int, Field(ge=1, description="A report id from "
                                                                              "list_stored_reports.")]
                            ) -> CallToolResult:
        """The stored analysis document of one report of the store, as `awrscope db show ID --format json`."""
        return _call("get_stored_analysis", lambda: tools.stored_analysis(db_url, report_id))

    @server.tool(annotations=READ_ONLY)
    def get_metric_series(
            database: Annotated[str, Field(description="DB name or DBID.")],
            metrics: Annotated[list[str] | None, Field(description="Metric ids (default: the standard trend set; "
                                                                   "`available_metrics` lists the stored ones).")] = None,
            instance: Annotated[str | None, Field(description="Instance name.")] = None,
            since: When = None, until: When = None,
    ) -> CallToolResult:
        """Time series of one database's metrics from the store, one point per stored report in time order:
        {db, db_name, instance, reports, series: [{metric, unit, points: [{report_id, begin_time, end_time,
        instance, value}]}], available_metrics}."""
        return _call("get_metric_series", lambda: tools.metric_series(db_url, database, metrics, instance, since,
                                                                      until))

    @server.tool(annotations=READ_ONLY)
    def get_finding_evidence(
            path: Path_,
            finding_id: Annotated[str, Field(description="A finding's (or observation's) rule id, e.g. R01, as in "
                                                         "the analysis document.")],
            period: Annotated[int | None, Field(ge=1, le=2, description="For a compare-period report: its "
                                                                        "period (1 or 2).")] = None,
            config: Config = None, ctx: Context = None,
    ) -> CallToolResult:
        """The report lines behind one finding of analyze_report: for each evidence item its metric, value and
        threshold, and for each source its section, row, field, line number, value and the raw text of that
        line of the file (culprits too), so every number can be checked against the report itself."""
        return _call("get_finding_evidence", lambda: tools.finding_evidence(here(path), finding_id, period,
                                                                            cfg(here(config)), max_size_mib),
                     guard(ctx, path, config))

    @server.resource("awrscope://rules", name="rules", title="awrscope diagnosis rules",
                     description="Every rule with its documentation and default thresholds.",
                     mime_type="application/json")
    def rules_resource() -> str:
        from ..render.json import to_json

        return to_json(tools.rules_catalogue())

    for name in SCHEMAS:
        if schema_path(name) is not None:
            _schema_resource(server, name)
    return server


def _schema_resource(server: MCPServer, name: str) -> None:
    @server.resource(f"awrscope://schema/{name}", name=f"{name}-schema", title=f"JSON Schema of the {name} document",
                     description=f"The JSON Schema of the {name} document ({SCHEMAS[name]}).",
                     mime_type="application/schema+json")
    def read() -> str:
        p = schema_path(name)
        if p is None:
            raise ResourceError(f"awrscope: {SCHEMAS[name]} is not installed")
        return p.read_text(encoding="utf-8")


def _client_roots(ctx: Context | None) -> list[str] | None:
    """The directories of the client's roots (roots/list), or None when it grants none or cannot say. Called
    in the tool's worker thread: the request goes out on the server's event loop."""
    if ctx is None:
        return None
    try:
        session = ctx.session
        caps = session.client_capabilities
        if caps is None or caps.roots is None:
            return None
        import anyio.from_thread

        listed = anyio.from_thread.run(session.list_roots)
    except Exception:  # noqa: BLE001 - no answer: the server's own --root directories bound the read
        logging.getLogger("awrscope.mcp").warning("roots/list failed: using the server's --root directories",
                                                  exc_info=bool(os.environ.get("AWRSCOPE_DEBUG")))
        return None
    return roots_.from_uris([str(r.uri) for r in listed.roots]) or None


def serve_stdio(max_message_bytes: int | None = None, **kwargs: Any) -> None:
    """Run over stdin/stdout until the client closes them. Logs go to stderr; stdout carries only protocol.
    stdin goes through :class:`transport.BoundedLines`: a cap on one message, an error reply to every line
    that is not a message."""
    import warnings

    import anyio
    from mcp.server.stdio import stdio_server
    from mcp.shared.exceptions import MCPDeprecationWarning

    from .transport import MAX_MESSAGE_BYTES, BoundedLines, claim_stdin

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    warnings.filterwarnings("ignore", category=MCPDeprecationWarning)  # roots/list: what clients send today
    server = build_server(**kwargs)
    lines = BoundedLines(claim_stdin(), max_message_bytes or MAX_MESSAGE_BYTES)

    async def run() -> None:
        # MCPServer.run_stdio_async with the bounded stdin: the low-level server is what it runs there
        low = server._lowlevel_server
        async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
            lines.attach(write_stream)
            await low.run(read_stream, lines.wrap(write_stream), low.create_initialization_options())

    anyio.run(run)
