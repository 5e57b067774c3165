"""The Analysis document: metrics + findings + not-applicable rules + issues of
one report, as one versioned JSON-ready dict (docs/analysis.md)."""
from __future__ import annotations

import tomllib

from .metrics import DEFAULT_ALPHA, derive
from .model import Report
from .rules import run_rules

ANALYSIS_SCHEMA_VERSION = "1.0"


def load_config(path: str | None) -> dict:
    """Read a TOML config: [rules.R01] lgwr_ms = 4, [severity] critical = 30, [metrics] alpha = 1.5, redo_on_flash = true."""
    if not path:
        return {}
    with open(path, "rb") as fh:
        return tomllib.load(fh)


def analyze(report: Report, config: dict | None = None) -> dict:
    config = config or {}
    alpha = float(config.get("metrics", {}).get("alpha", DEFAULT_ALPHA))
    m = derive(report, alpha=alpha)
    findings, na, ctx = run_rules(report, m, config)
    h = report.header
    dbt = m.v("db_time_s")
    doc = {
        "schema_version": ANALYSIS_SCHEMA_VERSION,
        "source": {"path": report.source_path, "sha256": report.source_sha256, "bytes": report.source_bytes},
        "report": {
            "kind": report.kind, "format": report.format, "version": report.version, "generation": report.generation,
            "db_name": h.db_name, "instances": report.instance_names, "host": h.host,
            "begin_snap": h.begin.snap_id if h.begin else None, "end_snap": h.end.snap_id if h.end else None,
            "elapsed_s": m.v("elapsed_s"), "db_time_s": dbt, "db_time_basis": m.db_time_basis,
            "db_time_confidence": m.db_time_confidence, "event_basis": m.event_basis,
        },
        "metrics": m.as_dict(),
        "commit_path": ctx.commit.as_dict(dbt) if ctx.commit is not None else None,
        "findings": [f.as_dict() for f in findings],
        "not_applicable": [n.as_dict() for n in na],
        "issues": [i.as_dict() for i in report.issues],
    }
    return doc
