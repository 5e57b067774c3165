"""Run every rule over one report: C.2 attribution first, then R01-R16 and G01-G06.
Returns findings ranked by impact and the rules that could not be evaluated."""
from __future__ import annotations

from dataclasses import dataclass

from ..metrics import Metrics
from ..model import Report
from . import commit, dbwr, general, redo, workload  # noqa: F401  (register the rules)
from .base import RULES, SEVERITY_RANK, Context, Finding, NotApplicable, Needs
from .commit import assign_non_io
from .commit_path import attribute
from .culprits import find as find_culprits
from .load import assess_load


@dataclass
class RuleResults:
    """What the rules said about one report: the verdict's headline, the findings ranked by the DB
    time they can address, observations (context, and results whose addressable DB time is below the
    'minor' share: volume-only facts; never ranked or failed on)
    and the rules that could not be evaluated."""

    headline: Finding | None
    findings: list[Finding]
    observations: list[Finding]
    not_applicable: list[NotApplicable]
    ctx: Context


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


def run_rules(report: Report, m: Metrics, config: dict | None = None) -> RuleResults:
    config = config or {}
    ca = attribute(m, bool(config.get("redo_on_flash")))
    ctx = Context(report, m, ca, config, assess_load(m, config))
    if ca is not None:
        assign_non_io(ctx, ca, RULES["R02"].thresholds)
    findings: list[Finding] = []
    observations: list[Finding] = []
    headline = None
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
        if f is None:
            continue
        orders = f.culprit_orders or r.culprits
        if orders and not f.culprits:
            f.culprits, f.culprits_missing = find_culprits(report, orders, m.v("db_time_s"))
        if r.family == "headline":
            headline = f
        elif r.family == "context" or not f.impact_s or f.severity == "info":
            observations.append(f)
        else:
            findings.append(f)
    for f in findings:
        if RULES[f.id].family == "view":
            f.caveats.append("the same DB time as the findings above, seen by statement or segment: not additional")
    # a view (top SQL, hot segments) shares its DB time with the cause findings: it is ranked after them
    findings.sort(key=lambda f: (RULES[f.id].family == "view", -(f.impact_s or 0.0), SEVERITY_RANK[f.severity], f.id))
    observations.sort(key=lambda f: (SEVERITY_RANK[f.severity], f.id))
    return RuleResults(headline, findings, observations, na, ctx)
