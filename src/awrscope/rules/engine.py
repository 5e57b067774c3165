"""Run every rule over one report: C.2 attribution first, then R01-R16 and G01-G06.
Returns findings ranked by impact and the rules that could not be evaluated."""
from __future__ import annotations

from msgspec import Struct

from ..metrics import Metrics
from ..model import Report
from . import activity, commit, connections, dbwr, families, general, limits, redo, sql_workload, unexplained, workload  # noqa: F401  (register the rules)
from ..ledger import build as build_ledger
from ..ledger.scale import milder
from .base import RULES, SEVERITY_RANK, Context, Finding, NotApplicable, Needs
from .culprits import find as find_culprits
from .families import FAMILIES
from ..assessment import assess


class RuleResults(Struct):
    """What the rules said about one report: the verdict's headline, the findings ranked by the DB
    time they can address, observations (context, and results whose addressable DB time is below the
    'minor' share: volume-only facts; never ranked or failed on)
    and the rules that could not be evaluated."""

    headline: Finding | None
    findings: list[Finding]
    observations: list[Finding]
    not_applicable: list[NotApplicable]
    ctx: Context
    annotations: list[Finding] = None  # characterisations of ledger leaves (nothing wrong): not ranked


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


#: The causal order of the rules: a root cause claims its DB time before the symptoms it explains
#: (spec C.2: the I/O part of a commit wait before its non-I/O remainder; slow LGWR writes before log
#: buffer space; DBWR before free buffer waits; TEMP spill before the PGA advisory; parse and
#: connection causes before the DB CPU they spend, parsing (its CPU measured) before connections (theirs not);
#: the advisory's cache before the reads), then
#: the generic finding for what no rule explained, then the views, which claim nothing.
CAUSAL_ORDER = ("R14", "R01", "R15", "R02", "R03", "R17", "R04", "R05", "R08", "R06", "R07", "R11", "R09", "G14", "R10",
                "G08", "G09", "G10", "G02", "G03", "G04", "G05", "G11", "G06", "G18", "R12", "R13", "R16", "G13", "G16", "G17", "G15",
                "G07", "G12", "G01")

#: A finding granted less than this share of the time it asked for lost it to a cause ranked before it:
#: it is shown under that cause ("related"), not as a near-empty finding of its own.
FOLD_SHARE = 0.5


def _order() -> list[str]:
    known = [r for r in CAUSAL_ORDER if r in RULES]
    # the catalogue's families (rules/families.py) after every specific cause, before G15 (what no one knows)
    families = [f.id for f in FAMILIES if f.id in RULES]
    at = known.index("G15") if "G15" in known else len(known)
    known[at:at] = families
    return known + sorted(r for r in RULES if r not in CAUSAL_ORDER and r not in families)


def run_rules(report: Report, m: Metrics, config: dict | None = None) -> RuleResults:
    config = config or {}
    a = assess(report, m, config)
    ctx = Context(report, m, a.commit, config, a.load, a, ledger=build_ledger(m, report))
    findings: list[Finding] = []
    observations: list[Finding] = []
    annotations: list[Finding] = []
    headline = None
    na: list[NotApplicable] = []
    led = ctx.ledger
    for rid in _order():
        r = RULES[rid]
        ov = rule_overrides(config, rid)
        if ov.pop("enabled", True) is False:
            continue
        ctx.owner = rid
        try:
            f = r.run(ctx, ov)
        except Needs as e:
            na.append(NotApplicable(r.id, r.slug, r.title, tuple(e.needs)))
            f = None
        ctx.owner = None
        if f is None or r.family in ("headline", "context", "view") or f.annotates:
            if led is not None:
                led.release(rid)
        if f is None:
            continue
        orders = f.culprit_orders or r.culprits
        if orders and not f.culprits:
            f.culprits, f.culprits_missing = find_culprits(report, orders, m.v("db_time_s"))
        if r.family == "headline":
            headline = f
        elif f.annotates:
            annotations.append(f)
            for leaf in f.annotates if led is not None else ():
                led.annotate(leaf, f.id, f.title)
        elif led is not None and r.family not in ("context", "view") and _fold(led, f, findings + observations):
            continue
        elif r.family == "context" or not f.impact_s or f.severity == "info":
            observations.append(f)
        else:
            findings.append(f)
    # a view (top SQL, hot segments) sees the causes' DB time by statement or segment: ranked after them
    findings.sort(key=lambda f: (RULES[f.id].family == "view", -(f.impact_s or 0.0), f.id))
    _views_below_causes(findings)
    observations.sort(key=lambda f: (SEVERITY_RANK[f.severity], f.id))
    if led is not None:
        for f in findings + observations:
            _ledger_entries(led, f)
        if headline is not None:
            _headline_severity(led, headline, findings)
    return RuleResults(headline, findings, observations, na, ctx, annotations)


def _fold(led, f: Finding, shown: list[Finding]) -> bool:
    """A finding whose leaves a cause before it already claimed is shown under that cause: its time is the
    cause's symptom, not a problem beside it. Returns True when ``f`` was folded."""
    asked = led.requested.get(f.id) or {}
    want = sum(asked.values())
    got = led.claimed_s(f.id)
    if want <= 0 or got >= FOLD_SHARE * want:
        return False
    # only a cause that declared the leaf its symptom (ctx.explain) takes a finding under it: two findings that
    # merely spend the same DB CPU (parsing, logons) are not cause and symptom
    holders: dict[str, float] = {}
    for leaf in asked:
        l = led.leaf(leaf)
        for owner, s in (l.claims.items() if l is not None else ()):
            if owner != f.id and owner in l.explained_by:
                holders[owner] = holders.get(owner, 0.0) + s
    parent = next((p for p in shown if p.id == max(holders, key=holders.get)), None) if holders else None
    if parent is None:
        return False
    led.release(f.id)
    for leaf in asked:
        l = led.leaf(leaf)
        if l is not None and l.claims.get(parent.id):
            led.explain(parent.id, leaf)
    held = holders[parent.id]
    parent.related.append({"id": f.id, "title": f.title, "recommendation": f.recommendation,
                           "asked_s": round(want, 3), "asked_pct_db_time": round(led.pct(want), 3),
                           "note": f"of its {want:,.1f} s ({led.pct(want):.1f} % of DB time), {held:,.1f} s are claimed by "
                                   f"{parent.id}, their cause: {f.id}'s fix is secondary to {parent.id}'s"})
    return True


def _ledger_entries(led, f: Finding) -> None:
    f.claims = [{"leaf": led.leaves[k].name, "seconds": round(v, 3), "pct_db_time": round(led.pct(v), 3)}
                for k, v in sorted(led.claims_of(f.id).items(), key=lambda kv: -kv[1])]
    f.explains = [{"leaf": l.name, "seconds": round(l.seconds, 3), "pct_db_time": round(led.pct(l.seconds), 3),
                   "claimed_s": round(l.claims.get(f.id, 0.0), 3)}
                  for l in sorted(led.leaves.values(), key=lambda l: -l.seconds) if f.id in l.explained_by]


def _views_below_causes(findings: list[Finding]) -> None:
    """A view names the statements or segments behind the causes' time: it never rates above the last
    cause listed before it, nor above moderate (where to tune is not by itself a fault)."""
    floor = None
    for f in findings:
        if RULES[f.id].family != "view":
            floor = f.severity
        else:
            f.role = "view"
            f.severity = milder(milder(f.severity, "moderate"), floor or "moderate")
            f.caveats.append("the same DB time as the findings above, seen by statement or segment: not additional"
                             if floor else "DB time seen by statement or segment: where to tune, not a cause of its own")


def _headline_severity(led, headline: Finding, findings: list[Finding]) -> None:
    """The headline rates its top component as the finding that claimed it does (none: info); a headline of the
    run queue (G01 on the remainder) as the finding that claimed most of the remainder."""
    queue = bool(headline.evidence) and headline.evidence[0].metric == "unaccounted_pct"
    top = max((l for l in led.leaves.values() if (l.kind == "remainder") == queue), key=lambda l: l.seconds,
              default=None)
    owner = led.owner_of(top.key) if top is not None else None
    f = next((x for x in findings if x.id == owner), None)
    headline.severity = f.severity if f is not None else "info"
