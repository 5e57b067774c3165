"""The MCP tools' work, without the MCP SDK: each function returns a :class:`Result` (the document and its
JSON text, spelled as the CLI spells it) or raises :class:`ToolFailure` with the one line the CLI would print
on stderr (``awrscope: ...``). Deterministic: the same inputs give the same document; nothing is sent
anywhere, no model is run. The store is opened per call from the URL given to ``awrscope mcp --db``.
"""
from __future__ import annotations

import json
import os
from msgspec import Struct, field
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from ..errors import AwrscopeError, internal_message
from ..limits import DEFAULT_MAX_BYTES

#: Version of the finding-evidence document (the other documents carry their own schema_version)
EVIDENCE_SCHEMA_VERSION = "1.0"
#: Longest line text returned by finding_evidence (an HTML report may hold a whole table on one line)
MAX_LINE_CHARS = 4000
SEVERITIES = ("critical", "major", "moderate", "minor", "info")
KINDS = ("awr", "statspack", "awr_global", "awr_diff")


class ToolFailure(Exception):
    """An unusable input or request: the message is the CLI's stderr line(s), ``awrscope: ...``."""


class Result(Struct):
    doc: dict
    text: str  # the JSON text the CLI prints for the same inputs
    notes: list[str] = field(default_factory=list)  # what the CLI says on stderr beside a result


def _fail(message: str) -> ToolFailure:
    return ToolFailure(f"awrscope: {message}")


def _no_stdin(paths: list[str]) -> None:
    if "-" in paths:
        raise _fail("'-' (stdin) carries the MCP messages here: give report files by path")


def _max_bytes(max_size_mib: int | None) -> int:
    return (max_size_mib if max_size_mib is not None else DEFAULT_MAX_BYTES // (1024 * 1024)) * 1024 * 1024


def load_config(path: str | None) -> dict:
    """A --config TOML file; the CLI's message when it cannot be read (click's for a missing file)."""
    from ..analysis import load_config as read

    if path and not os.path.isfile(path):
        raise _fail(f"cannot read config {path}: no such file")
    try:
        return read(path)
    except (OSError, ValueError) as e:
        raise _fail(f"cannot read config {path}: {e}") from None


def parse_when(text: str | None, end_of_day: bool = False) -> datetime | None:
    if not text:
        return None
    try:
        t = datetime.fromisoformat(text.strip())
    except ValueError:
        raise _fail(f"--begin/--end {_shown(text)}: expected YYYY-MM-DD[ HH:MM[:SS]]") from None
    if end_of_day and len(text.strip()) <= 10:
        t += timedelta(days=1) - timedelta(seconds=1)
    return t


def _to_json(doc: Any) -> str:
    from ..render.json import to_json

    return to_json(doc)


def _result(doc: Any, text: str, notes: list[str] | None = None) -> Result:
    """The document as a client receives it: through its JSON text (datetimes become strings, as in the CLI)."""
    return Result(json.loads(text), text, notes or [])


# -- reports -------------------------------------------------------------------------------------------------

def _analyze_one(config: dict, report) -> tuple[str, Any]:
    from ..analysis import analyze

    try:
        return "ok", analyze(report, config)
    except ValueError as e:  # bad config values
        return "config", str(e)
    except Exception as e:  # noqa: BLE001 - one line, never a traceback
        return "error", internal_message(f"{report.source_path or 'report'}: analysing", e)


def _one_analysis(path: str, config: dict, max_bytes: int) -> tuple[dict, list[str]]:
    """The analysis document of the one report ``path`` holds, as ``awrscope analyze`` computes it."""
    from ..loader import load_many, skip_summary

    skipped: list[tuple[str, str]] = []
    rows = load_many([path], max_bytes, then=partial(_analyze_one, config), workers=1, progress=False,
                     skipped=skipped)
    notes = [f"awrscope: {skip_summary(skipped)}"] if skipped else []
    errors, docs = [], []
    for _name, outcome, err in rows:
        if err:
            errors.append(f"awrscope: {err}")
            continue
        status, value = outcome
        if status == "config":
            raise _fail(value)
        if status == "error":
            errors.append(f"awrscope: {value}")
            continue
        docs.append(value)
    if errors:
        raise ToolFailure("\n".join(errors))
    if not docs:
        raise ToolFailure("\n".join(notes + ["awrscope: no report found"]))
    if len(docs) > 1:
        raise _fail(f"{path}: holds {len(docs)} reports; give one report (a file, or a .gz or .zip holding one)")
    return docs[0], notes


def analyze_report(path: str, config_path: str | None = None, max_size_mib: int | None = None,
                   detail: str = "summary") -> Result:
    """``awrscope analyze --format json PATH`` (``detail`` "full"), or its summary: what a DBA reads first, with
    the evidence as the text lines of ``awrscope analyze`` (a tenth of the size)."""
    _no_stdin([path])
    config = load_config(config_path)
    doc, notes = _one_analysis(path, config, _max_bytes(max_size_mib))
    if detail == "full":
        return _result(doc, _to_json(doc), notes)
    from ..render.text import render_text

    full = json.loads(_to_json(doc))
    short = summary(full)
    # the first text block spells the structured content (as every tool's); the next is what a DBA reads
    return Result(short, _to_json(short), [render_text(full)] + notes)


def summary(doc: dict) -> dict:
    """The analysis reduced to its reading: the report, the verdict, the ledger's rows, each finding with its
    evidence as sentences (section and line kept), the fix and how to confirm it; observations and annotations
    by title. Everything else stays in the full document (``detail: "full"``)."""
    from ..numfmt import fmt_value
    from ..render.common import evidence_label, ledger_rows

    def ev(e: dict) -> str:
        src = e["source"][0] if e.get("source") else None
        where = f" [{src['section']} line {src['line']}]" if src and src.get("line") else ""
        th = f" (threshold {e['threshold']})" if e.get("threshold") else ""
        unit = "" if e["unit"] in ("count", "ratio", "stat") else e["unit"]
        return f"{evidence_label(e['metric'])} = {fmt_value(e['value'], e['unit'])} {unit}".rstrip() + f"{th}{where}"

    def finding(f: dict) -> dict:
        out = {"id": f["id"], "title": f["title"], "severity": f["severity"], "confidence": f["confidence"],
               "role": f.get("role"), "db_time_s": f["impact"]["db_time_s"], "pct_db_time": f["impact"]["pct_db_time"],
               "evidence": [ev(e) for e in f["evidence"] if e.get("value") is not None],
               "culprits": [f"{c['kind']} {c['name']}: {fmt_value(c['value'], c['unit'])} {c['measure']} [{c['section']} line {c['line']}]"
                            for c in f.get("culprits") or ()],
               "recommendation": f["recommendation"], "whatif": [w["text"] for w in f.get("whatif") or ()]}
        for k in ("confirm", "refute"):
            if f.get(k):
                out[k] = f[k]
        return out

    v = doc.get("verdict") or {}
    return {
        "schema_version": doc["schema_version"], "detail": "summary",
        "source": doc["source"], "report": doc["report"],
        "verdict": {"load": (v.get("load") or {}).get("summary"),
                    "headline": ({"line": v["headline"]["line"], "severity": v["headline"]["severity"]}
                                 if v.get("headline") else None),
                    "top_of_db_time": (v.get("top_of_db_time") or {}).get("title"),
                    "peak": (v.get("peak") or {}).get("title")},
        "where_the_time_went": [{"name": r["name"], "seconds": r["seconds"], "pct_db_time": r["pct"],
                                 "claimed_by": list(r.get("claimed_by") or ())} for r in ledger_rows(doc)],
        "findings": [finding(f) for f in doc["findings"]],
        "observations": [f"{f['id']} {f['title']}" for f in doc.get("observations") or ()],
        "annotations": [f"{a['id']} {a['title']}" for a in doc.get("annotations") or ()],
        "change": (doc.get("change") or {}).get("verdict"),
        "warnings": [i["message"] for i in doc.get("issues") or () if i["level"] in ("warning", "error")],
        "note": "summary: call analyze_report with detail 'full' for the whole document (metrics with formulas, "
                "ledger, evidence sources, rules not applicable); get_finding_evidence gives a finding's report lines",
    }


def compare_reports(before: str, after: str | None = None, config_path: str | None = None,
                    streams: list[float] | None = None, run_elapsed: list[float] | None = None,
                    max_size_mib: int | None = None) -> Result:
    """``awrscope compare --format json BEFORE [AFTER]`` (one path: a compare-period report)."""
    _no_stdin([before, after or ""])
    from ..change.compare import compare
    from ..loader import load_many

    config = load_config(config_path)
    pairs = []
    for value, what in ((streams, "--streams"), (run_elapsed, "--run-elapsed")):
        if value is not None and len(value) != 2:
            raise _fail(f"{what} must be two numbers separated by a comma, e.g. 5,10")
        pairs.append((float(value[0]), float(value[1])) if value else None)
    reports = []
    for p in [before] + ([after] if after else []):
        rows = load_many([p], _max_bytes(max_size_mib), progress=False)
        if len(rows) != 1 or rows[0][2]:
            raise _fail(rows[0][2] if rows and rows[0][2] else f"{p}: holds {len(rows)} reports; give one report per side")
        reports.append(rows[0][1])
    try:
        doc = compare(reports[0], reports[1] if len(reports) == 2 else None, config, pairs[0], pairs[1])
    except ValueError as e:
        raise _fail(str(e)) from None
    return _result(doc, _to_json(doc))


def trend_reports(paths: list[str], config_path: str | None = None, begin: str | None = None, end: str | None = None,
                  jobs: int = 1, max_size_mib: int | None = None) -> Result:
    """``awrscope trend --format json PATH...``: error rows stay in the document, as in the CLI's."""
    from ..loader import load_many
    from ..change.trend import build, collect_windows, windows_of

    if not paths:
        raise _fail("trend needs at least one path")
    _no_stdin(list(paths))
    config = load_config(config_path)
    lo, hi = parse_when(begin), parse_when(end, end_of_day=True)
    skipped: list[tuple[str, str]] = []
    rows = load_many(list(paths), _max_bytes(max_size_mib), then=partial(windows_of, config=config),
                     workers=max(jobs, 0) or None, progress=False, skipped=skipped)
    windows, errors, notes = collect_windows(rows, lo, hi, skipped)
    notes = [f"awrscope: {n}" for n in notes]
    if not windows:
        raise ToolFailure("\n".join(notes + ([] if errors else ["awrscope: no report found"])))
    doc = build(windows, errors)
    return _result(doc, _to_json(doc), notes)


# -- rules ---------------------------------------------------------------------------------------------------

def rule_doc(rule) -> dict:
    return {"id": rule.id, "slug": rule.slug, "title": rule.title, "family": rule.family, "doc": rule.doc,
            "thresholds": rule.thresholds}


def rules_catalogue() -> dict:
    """Every rule with its documentation and thresholds, in ``awrscope rules`` order (R.. then G..)."""
    from ..rules import RULES

    return {"rules": [rule_doc(RULES[k]) for k in sorted(RULES, key=lambda k: (k[0] != "R", k))]}


def explain_rule(rule_id: str) -> Result:
    """``awrscope rules explain ID`` (by id or slug) as a document."""
    from ..rules import RULES

    r = RULES.get(rule_id.upper()) or next((x for x in RULES.values() if x.slug == rule_id), None)
    if r is None:
        raise _fail(f"unknown rule {rule_id}")
    doc = rule_doc(r)
    return _result(doc, _to_json(doc))


# -- the store -----------------------------------------------------------------------------------------------

def _open_store(db_url: str | None):
    from ..store import Store

    try:
        return Store(db_url)
    except AwrscopeError as e:
        raise _fail(str(e)) from None


def _filters(database, instance, since, until, finding, severity, kind) -> dict:
    if severity is not None and severity not in SEVERITIES:
        raise _fail(f"severity must be one of {', '.join(SEVERITIES)}")
    if kind is not None and kind not in KINDS:
        raise _fail(f"kind must be one of {', '.join(KINDS)}")
    return {"db": database, "instance": instance, "since": since, "until": until, "finding": finding,
            "severity": severity, "kind": kind}


def list_stored(db_url: str | None, database: str | None = None, instance: str | None = None,
                since: str | None = None, until: str | None = None, finding: str | None = None,
                severity: str | None = None, kind: str | None = None, limit: int = 100, offset: int = 0) -> Result:
    """``awrscope db list --format json`` with the same filters."""
    filters = _filters(database, instance, since, until, finding, severity, kind)
    store = _open_store(db_url)
    try:
        with store:
            rows = store.list(limit=limit, offset=offset, **filters)
            total = store.count(**filters)
    except AwrscopeError as e:
        raise _fail(str(e)) from None
    payload = {"total": total, "reports": rows}
    return _result(payload, json.dumps(payload, indent=1, default=str))


def stored_analysis(db_url: str | None, report_id: int) -> Result:
    """``awrscope db show ID --format json``."""
    with _open_store(db_url) as store:
        rec = store.get(report_id)
    if rec is None:
        shown = str(report_id) if report_id < 10 ** 30 else "<a number of more than 30 digits>"
        raise _fail(f"no report #{shown} in the store")
    doc = rec["analysis"]
    return _result(doc, json.dumps(doc, indent=1, ensure_ascii=False, default=str))


def _model_constants() -> frozenset[str]:
    """Model settings stored beside the measured metrics (alpha): not a measurement to follow."""
    from ..metrics import CATALOG

    return frozenset(m.id for m in CATALOG if "config" in m.inputs)


def metric_series(db_url: str | None, database: str, metrics: list[str] | None = None, instance: str | None = None,
                  since: str | None = None, until: str | None = None) -> Result:
    """One database's metrics from the store, one point per report in time order: ``Store.trend`` (the series of
    the web app's /api/trend) with the metric ids stored for that database."""
    if not database:
        raise _fail("name a database (DB name or DBID)")
    with _open_store(db_url) as store:
        try:
            available = [m for m in store.metric_names(database) if m not in _model_constants()]
            if not store.count(db=database, instance=instance, since=since, until=until):
                raise _fail(f"no stored report of database {database}" + (f" instance {instance}" if instance else "")
                            + (" in that time range" if since or until else ""))
            unknown = [m for m in metrics or [] if m not in available]
            if unknown:
                raise _fail(f"no metric {', '.join(unknown)} stored for {database}; stored: {', '.join(available)}")
            doc = store.trend(database, metrics or None, instance=instance, since=since, until=until)
        except AwrscopeError as e:
            raise _fail(str(e)) from None
    doc["available_metrics"] = available
    return _result(doc, json.dumps(doc, indent=1, ensure_ascii=False, default=str))


# -- evidence ------------------------------------------------------------------------------------------------

def _report_lines(path: str, sha256: str, fmt: str, max_bytes: int) -> list[str]:
    """The lines of the report the analysis came from, numbered as the parsers number them: text reports by
    ``splitlines`` with form feeds dropped, HTML by newline."""
    from ..parsers.source import Input, decode, iter_sources

    for src in iter_sources(Input(path), max_bytes):
        if isinstance(src, Exception) or src.sha256 != sha256:
            continue
        text, _ = decode(src.data)
        if fmt == "html":
            return [line.rstrip("\r") for line in text.split("\n")]
        return text.replace("\f", "").splitlines()
    raise _fail(f"{path}: changed while it was read")


def _finding_in(doc: dict, finding_id: str, period: int | None) -> tuple[dict, str]:
    scope = doc
    if period is not None:
        periods = doc.get("periods") or []
        if not 1 <= period <= len(periods):
            raise _fail(f"{doc['source']['path']}: no period {period} (the report has {len(periods)})")
        scope = periods[period - 1]
    for where in ("findings", "observations"):
        for f in scope.get(where) or []:
            if f["id"].upper() == finding_id.upper() or f.get("slug") == finding_id:
                return f, where
    found = [f["id"] for w in ("findings", "observations") for f in scope.get(w) or []]
    hint = f"; it has {', '.join(found)}" if found else "; it has none"
    if doc.get("periods") and period is None:
        hint += " (a compare-period report: name its period, 1 or 2)"
    raise _fail(f"{doc['source']['path']}: no finding {finding_id}{hint}")


def finding_evidence(path: str, finding_id: str, period: int | None = None, config_path: str | None = None,
                     max_size_mib: int | None = None) -> Result:
    """Each evidence source of a finding (or observation) of ``awrscope analyze PATH``: section, row, field, line
    number and value as in the analysis document, with the text of that line of the report."""
    _no_stdin([path])
    config = load_config(config_path)
    max_bytes = _max_bytes(max_size_mib)
    doc, _notes = _one_analysis(path, config, max_bytes)
    f, where = _finding_in(doc, finding_id, period)
    lines = _report_lines(path, doc["source"]["sha256"], doc["report"]["format"], max_bytes)

    def located(s: dict) -> dict:
        out = dict(s)
        n = s.get("line")
        text = lines[n - 1] if isinstance(n, int) and 1 <= n <= len(lines) else None
        out["text"] = text[:MAX_LINE_CHARS] if text is not None else None
        out["text_truncated"] = text is not None and len(text) > MAX_LINE_CHARS
        return out

    evidence = [{"metric": e.get("metric"), "value": e.get("value"), "unit": e.get("unit"),
                 "threshold": e.get("threshold"), "note": e.get("note"),
                 "source": [located(s) for s in e.get("source") or []]} for e in f.get("evidence") or []]
    culprits = [located(c) for c in f.get("culprits") or [] if c.get("line")]
    out = {"schema_version": EVIDENCE_SCHEMA_VERSION, "kind": "finding_evidence", "source": doc["source"],
           "report": {k: doc["report"].get(k) for k in ("kind", "format", "version", "db_name", "begin_time", "end_time")},
           "period": period, "finding": {k: f.get(k) for k in ("id", "slug", "title", "severity", "confidence")},
           "listed_under": where, "evidence": evidence, "culprits": culprits}
    return _result(out, _to_json(out))


def _shown(text: str, most: int = 40) -> str:
    """A value quoted in an error line, cut: a 50,000-character argument is not echoed back whole."""
    return repr(text) if len(text) <= most else repr(text[:most]) + f"... ({len(text):,} characters)"
