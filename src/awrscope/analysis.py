"""The Analysis document: metrics + findings + not-applicable rules + issues of
one report, as one versioned JSON-ready dict (docs/analysis.md)."""
from __future__ import annotations

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    tomllib = None

from .metrics import DEFAULT_ALPHA, derive
from .metrics.invariants import check as check_invariants
from .model import Report
from .rules import run_rules
from .rules.addm import beside as addm_beside

ANALYSIS_SCHEMA_VERSION = "1.0"


def load_config(path: str | None) -> dict:
    """Read a TOML config: [rules.R01] lgwr_ms = 4, [severity] critical = 30, [metrics] alpha = 1.5, redo_on_flash = true."""
    if not path:
        return {}
    loader = tomllib
    if loader is None:
        try:
            import tomli as loader  # type: ignore[no-redef]
        except ModuleNotFoundError as e:
            raise ValueError("reading a TOML config needs Python 3.11+ or the 'tomli' package") from e
    with open(path, "rb") as fh:
        try:
            return loader.load(fh)
        except loader.TOMLDecodeError as e:
            raise ValueError(str(e)) from e


def analyze(report: Report, config: dict | None = None) -> dict:
    """The analysis document of one report. AWR Diff (compare period) reports are analysed per
    period when the parser split them; otherwise no metric or rule is computed from their mixed
    columns (every rule is reported as not applicable)."""
    config = config or {}
    if report.kind == "awr_diff":
        return _analyze_diff(report, config)
    return _analyze_one(report, config)


def _analyze_diff(report: Report, config: dict) -> dict:
    doc = _analyze_one(report, config)
    if report.periods:
        doc["periods"] = [_analyze_one(p, config) for p in report.periods]
    doc["metrics"] = {}
    doc["commit_path"] = None
    doc["findings"] = []
    doc["observations"] = []
    doc["verdict"] = {"load": None, "headline": None}
    doc["addm"] = None
    from .rules import RULES

    need = ("per-period sections (AWR Diff report: the periods are analysed separately)" if report.periods else
            "per-period sections (this AWR Diff report is not split into periods by the parser yet)")
    doc["not_applicable"] = [{"id": r.id, "slug": r.slug, "title": r.title, "needs": [need],
                              "message": "not applicable: needs " + need} for r in RULES.values()]
    doc["issues"] = doc["issues"] + [{"level": "warning", "section": None, "line": None,
                                      "message": "AWR Diff report: metrics of the two periods are not mixed; " + need}]
    return doc


def _analyze_one(report: Report, config: dict) -> dict:
    alpha = float(config.get("metrics", {}).get("alpha", DEFAULT_ALPHA))
    m = derive(report, alpha=alpha)
    res = run_rules(report, m, config)
    violations = check_invariants(report, m)
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
        "verdict": {
            "load": res.ctx.load.as_dict(),
            "headline": _doubted(res.headline.as_dict(), violations) if res.headline else None,
        },
        "addm": None,
        "metrics": m.as_dict(),
        "commit_path": res.ctx.commit.as_dict(dbt) if res.ctx.commit is not None else None,
        "findings": [_doubted(f.as_dict(), violations) for f in res.findings],
        "observations": [_doubted(f.as_dict(), violations) for f in res.observations],
        "not_applicable": [n.as_dict() for n in res.not_applicable],
        "issues": [i.as_dict() for i in report.issues] + [v.as_issue() for v in violations],
    }
    if "addm_findings" in report.sections:
        h = doc["verdict"]["headline"]
        doc["addm"] = addm_beside(report, doc["findings"] + doc["observations"] + ([h] if h else []), doc["not_applicable"])
    return doc


_LOWER = {"high": "medium", "medium": "low", "low": "low"}


def _doubted(finding: dict, violations: list) -> dict:
    """A finding stated on figures that failed a conservation check loses one step of confidence
    and says which check failed: its share of DB time rests on those figures."""
    if not violations:
        return finding
    finding["confidence"] = _LOWER.get(finding["confidence"], finding["confidence"])
    finding["caveats"] = list(finding.get("caveats") or []) + [
        f"confidence lowered: invariant {v.check} failed ({v.section}"
        + (f" line {v.line}" if v.line else "") + "); see issues" for v in violations]
    return finding
