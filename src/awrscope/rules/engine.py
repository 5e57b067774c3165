"""Run every rule over one report: C.2 attribution first, then R01-R16 and G01-G06.
Returns findings ranked by impact and the rules that could not be evaluated."""
from __future__ import annotations

from ..metrics import Metrics
from ..model import Report
from . import commit, dbwr, general, redo  # noqa: F401  (register the rules)
from .base import RULES, SEVERITY_RANK, Context, Finding, NotApplicable, Needs
from .commit import assign_non_io
from .commit_path import attribute


def rule_overrides(config: dict, rule_id: str) -> dict:
    rules = config.get("rules", {})
    out = {}
    r = RULES[rule_id]
    for key in (rule_id, r.slug):
        out.update(rules.get(key, {}))
    unknown = set(out) - set(r.thresholds) - {"enabled"}
    if unknown:
        raise ValueError(f"config: unknown threshold(s) for {rule_id}: {', '.join(sorted(unknown))}")
    return out


def run_rules(report: Report, m: Metrics, config: dict | None = None) -> tuple[list[Finding], list[NotApplicable], Context]:
    config = config or {}
    ca = attribute(m, bool(config.get("redo_on_flash")))
    ctx = Context(report, m, ca, config)
    if ca is not None:
        assign_non_io(ctx, ca, RULES["R02"].thresholds)
    findings: list[Finding] = []
    na: list[NotApplicable] = []
    for rid in sorted(RULES, key=lambda k: (k[0] != "R", k)):
        r = RULES[rid]
        ov = rule_overrides(config, rid)
        if ov.pop("enabled", True) is False:
            continue
        try:
            f = r.run(ctx, ov)
        except Needs as e:
            na.append(NotApplicable(r.id, r.slug, r.title, tuple(e.needs)))
            continue
        if f is not None:
            findings.append(f)
    findings.sort(key=lambda f: (-(f.impact_s or 0.0), SEVERITY_RANK[f.severity], f.id))
    return findings, na, ctx
