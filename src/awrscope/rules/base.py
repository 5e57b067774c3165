"""Rule plumbing: the @rule registry, Finding/Evidence/NotApplicable records,
severity (materiality, spec C.0) and confidence (spec 0.3) helpers."""
from __future__ import annotations

import inspect
from msgspec import Struct, field
from typing import Callable

from ..metrics import Metrics, Source
from ..ledger import Ledger
from ..ledger.scale import SEVERITIES, SEVERITY_AAS, SEVERITY_RANK, SEVERITY_THRESHOLDS, severity_of, pct_text  # noqa: F401 (re-exported)
from ..model import Report
from .. import patterns
from ..numfmt import fmt_num

CONFIDENCES = ("high", "medium", "low")


def severity_for(pct: float | None, scale: dict[str, float] | None = None, aas: float | None = None) -> str:
    """The one scale (ledger.scale.severity_of) with the config's [severity] table as second argument."""
    return severity_of(pct, aas, scale)


def lower(conf: str, steps: int = 1) -> str:
    return CONFIDENCES[min(len(CONFIDENCES) - 1, CONFIDENCES.index(conf) + steps)]


def cap(conf: str, at: str) -> str:
    return CONFIDENCES[max(CONFIDENCES.index(conf), CONFIDENCES.index(at))]


class Evidence(Struct, frozen=True):
    metric: str
    value: float | None
    unit: str
    threshold: str | None = None
    sources: tuple[Source, ...] = ()
    note: str | None = None

    def as_dict(self) -> dict:
        return {"metric": self.metric, "value": self.value, "unit": self.unit, "threshold": self.threshold,
                "source": [s.as_dict() for s in self.sources], "note": self.note}


class Finding(Struct):
    id: str
    slug: str
    title: str
    severity: str
    confidence: str
    impact_s: float
    impact_pct: float | None
    evidence: list[Evidence]
    recommendation: str
    confirm: str = ""
    refute: str = ""
    whatif: list[dict] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    impact_range_pct: tuple[float, float] | None = None
    aas: float | None = None
    culprit_orders: tuple[str, ...] = ()  # where to look for who causes it (rules/culprits.py), set by the rule
    culprits: list = field(default_factory=list)
    culprits_missing: str | None = None
    claims: list[dict] = field(default_factory=list)  # [{"leaf", "seconds", "pct_db_time"}] from the ledger
    explains: list[dict] = field(default_factory=list)  # symptoms of this cause: [{"leaf", "seconds", "pct_db_time", "note"}]
    related: list[dict] = field(default_factory=list)  # findings whose time this cause took: shown under it
    annotates: tuple[str, ...] = ()  # set by a characterisation: the ledger leaves it describes (not ranked)
    role: str = "cause"  # cause (claims its DB time) | view (the causes' time seen by statement or segment)

    def as_dict(self) -> dict:
        impact: dict = {"db_time_s": round(self.impact_s, 3), "pct_db_time": None if self.impact_pct is None else round(self.impact_pct, 3),
                        "aas": None if self.aas is None else round(self.aas, 3)}
        if self.impact_pct is not None and self.impact_pct < 100:
            impact["amdahl_speedup_bound"] = round(1.0 / (1.0 - self.impact_pct / 100.0), 3)  # M113
        if self.impact_range_pct:
            impact["range_pct_db_time"] = [round(x, 3) for x in self.impact_range_pct]
        return {"id": self.id, "slug": self.slug, "title": self.title, "role": self.role, "severity": self.severity,
                "confidence": self.confidence, "impact": impact,
                "evidence": [e.as_dict() for e in self.evidence], "recommendation": self.recommendation,
                "culprits": [c.as_dict() for c in self.culprits], "culprits_missing": self.culprits_missing,
                "confirm": self.confirm, "refute": self.refute, "caveats": list(self.caveats), "whatif": list(self.whatif),
                "claims": list(self.claims), "explains": list(self.explains), "related": list(self.related)}


class NotApplicable(Struct, frozen=True):
    id: str
    slug: str
    title: str
    needs: tuple[str, ...]

    def as_dict(self) -> dict:
        return {"id": self.id, "slug": self.slug, "title": self.title, "needs": list(self.needs),
                "message": "not applicable: needs " + ", ".join(self.needs)}


class Needs(Exception):
    """Raised by a rule whose inputs are missing."""

    def __init__(self, *needs: str):
        super().__init__(", ".join(needs))
        self.needs = needs


class Context(Struct):
    """What a rule may read: the report, its metrics, the assessment of the window (CPU, load, I/O bands, the
    commit path) and the config."""

    report: Report
    m: Metrics
    commit: "object | None"  # CommitAttribution (assessment/commit.py): the assessment's commit path
    config: dict
    load: "object | None" = None  # Load (assessment/load.py)
    assessment: "object | None" = None  # Assessment (assessment/__init__.py): the one reading every rule shares

    ledger: Ledger | None = None
    owner: str | None = None  # the rule running now: whose claims ctx.claim records
    _unledgered: dict = field(default_factory=dict)  # claims when there is no ledger: event -> seconds granted

    def claim(self, event: str, seconds: float) -> float:
        """Claim up to ``seconds`` of a ledger leaf (an event, "DB CPU", or the remainder) for the rule
        running now; what an earlier (causally prior) finding claimed is not available again. Returns
        the seconds granted: the finding's impact is the sum of what it was granted."""
        if self.ledger is None or self.owner is None:
            # no ledger (no wait events to split DB time by): at most the event's own time, once, as before ledgers
            total = self.m.fg_time(event) if event.lower() != "db cpu" else (self.m.v("db_cpu_s") or 0.0)
            granted = max(0.0, min(seconds, total - self._unledgered.get(event.lower(), 0.0)))
            self._unledgered[event.lower()] = self._unledgered.get(event.lower(), 0.0) + granted
            return granted
        return self.ledger.claim(self.owner, event, seconds)

    def claim_all(self, events, fraction: float = 1.0) -> float:
        """Claim ``fraction`` of each event's foreground time; the seconds granted in total."""
        return sum(self.claim(e, fraction * self.m.fg_time(e)) for e in events)

    def explain(self, event: str) -> None:
        """Record that the running rule's cause explains this leaf (a symptom shown under the cause)."""
        if self.ledger is not None and self.owner is not None:
            self.ledger.explain(self.owner, event)

    def free(self, event: str) -> float:
        """Seconds of a leaf no finding has claimed yet."""
        return self.ledger.free(event) if self.ledger is not None else self.m.fg_time(event)

    # Metrics that rules divide by: zero is as unusable as missing (an idle interval).
    _DIVISORS = frozenset({"db_time_s", "elapsed_s"})

    def need(self, *metric_ids: str) -> None:
        missing = [k for k in metric_ids if self.m.v(k) is None or (k in self._DIVISORS and not self.m.v(k))]
        if missing:
            raise Needs(*missing)

    def need_events(self) -> None:
        if self.m.event_basis is None or not self.m.v("db_time_s"):
            raise Needs("wait events and DB time")

    def ev(self, metric_id: str, threshold: str | None = None, note: str | None = None) -> Evidence:
        mv = self.m.get(metric_id)
        if mv is None:
            return Evidence(metric_id, None, "", threshold, (), note)
        return Evidence(metric_id, None if mv.value is None else round(mv.value, 4), mv.unit, threshold, mv.sources,
                        note or mv.note)

    def event_ev(self, event: str, threshold: str | None = None) -> Evidence:
        e = self.m.fg(event)
        pct = self.m.pct_db_time(event)
        return Evidence(f"pct_db_time[{event}]", None if pct is None else round(pct, 3), "%", threshold,
                        e.sources if e else (), None if e else "not printed")

    def impact(self, seconds: float) -> tuple[float, float | None, float | None]:
        dbt, e = self.m.v("db_time_s"), self.m.v("elapsed_s")
        seconds = max(0.0, seconds)
        return seconds, (100.0 * seconds / dbt if dbt else None), (seconds / e if e else None)

    def confidence(self, conf: str) -> str:
        """Lower confidence when DB time is estimated (SP 8i/9i) or only a Top-N proxy exists."""
        if self.m.db_time_basis.startswith("Top-N"):
            return "low"
        if self.m.db_time_confidence == "low":
            return lower(conf)
        return conf


class Rule(Struct, frozen=True):
    id: str
    slug: str
    title: str
    thresholds: dict
    func: Callable
    doc: str
    family: str
    culprits: tuple[str, ...] = ()

    def run(self, ctx: Context, overrides: dict | None = None):
        th = dict(self.thresholds)
        th.update(overrides or {})
        return self.func(ctx, th)


RULES: dict[str, Rule] = {}


_SPEC_REF = patterns.compile(r"\bspec [A-Z]\d+[A-Za-z0-9./]*(?: \([^)]*\))?(?:; |\.$|$)")


def public_doc(doc: str) -> str:
    """A rule's documentation as users read it: the project's internal spec numbers ('spec R01/C.2') left to the
    source; the published references stay."""
    out = []
    for line in doc.splitlines():
        if line.startswith("References:"):
            line = _SPEC_REF.sub("", line).rstrip("; ")
            if line.strip() == "References:":
                continue
        out.append(line)
    return "\n".join(out)


def rule(id: str, slug: str, title: str, family: str = "write", culprits: tuple[str, ...] = (), **thresholds):
    """Register a rule: thresholds are declared here, beside the rule, and can be overridden by config.
    family "headline": its finding heads the verdict instead of being ranked (the top of DB time is
    context, not a problem of its own); "context": its findings are observations; "view": the same
    DB time as the cause findings seen by statement or segment, ranked after them. ``culprits``: the
    orders (rules/culprits.py) that name who causes a finding, tried in turn."""

    def deco(func):
        RULES[id] = Rule(id, slug, title, thresholds, func, public_doc(inspect.cleandoc(func.__doc__ or "")), family,
                         tuple(culprits))
        return func

    return deco


def make_finding(ctx: Context, r: Rule | str, seconds: float, confidence: str, evidence: list[Evidence],
                 recommendation: str, title: str | None = None, confirm: str = "", refute: str = "",
                 whatif: list[dict] | None = None, caveats: list[str] | None = None,
                 range_pct: tuple[float, float] | None = None) -> Finding:
    """A finding of rule ``r``. Its impact is what it claimed from the ledger (``seconds`` is only used by
    a view, which sees claimed time by statement or segment and claims nothing itself); its severity is
    the one scale's (ledger.scale.severity_of) on that impact, with no override."""
    rr = RULES[r] if isinstance(r, str) else r
    if rr.family not in ("view", "headline") and ctx.ledger is not None:
        seconds = ctx.ledger.claimed_s(rr.id)
    s, pct, aas = ctx.impact(seconds)
    sev = severity_of(pct, aas, ctx.config.get("severity"), quiet=ctx.load is not None and ctx.load.level == "quiet")
    return Finding(rr.id, rr.slug, title or rr.title, sev, ctx.confidence(confidence), s, pct, evidence,
                   recommendation, confirm, refute, whatif or [], caveats or [], range_pct, aas)
