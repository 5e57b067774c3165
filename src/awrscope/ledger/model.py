"""Leaves, claims and the ledger of one period.

Leaves are disjoint: DB CPU, each non-idle foreground wait event the report prints, and one
remainder leaf = DB time - DB CPU - the printed waits. The remainder is what no printed part
explains ("unaccounted": a CPU queue, uninstrumented time) or, when the parts exceed the whole,
a negative "over-accounted" leaf that is reported as an invariant issue, never silently capped.
So the leaves add up to DB time by construction.

A finding claims seconds of leaves; a leaf never grants more than it has left, and the ledger
never grants more than DB time in total (which only binds when the report prints parts above
DB time: then the finding says so). Claims are made in the causal order of the rules (root
cause before symptom, rules/engine.py), so a symptom rule finds its leaf already taken and is
shown under its cause instead of beside it."""
from __future__ import annotations

from msgspec import Struct, field

from ..metrics import Metrics, Source
from ..metrics.values import MEASURED_DB_TIME
from ..metrics.invariants import parts_limit
from ..oracle.events import wait_class
from ..numfmt import fmt_num

LEDGER_SCHEMA_VERSION = "1.0"

CPU = "db cpu"
#: This many foreground waits with no time at all is untimed waiting (timed_statistics off), not a CPU-only database.
UNTIMED_WAITS = 1000
REMAINDER = "(remainder)"



class Leaf(Struct):
    key: str
    name: str
    kind: str  # cpu | wait | background (a Top-N base that counts background waits) | remainder
    seconds: float
    wait_class: str | None = None
    sources: tuple[Source, ...] = ()
    waits: float | None = None
    avg_ms: float | None = None
    note: str | None = None
    claims: dict[str, float] = field(default_factory=dict)  # finding id -> seconds granted
    explained_by: list[str] = field(default_factory=list)
    annotations: list[dict] = field(default_factory=list)  # {"id", "text"}: characterisations of the leaf

    @property
    def claimed(self) -> float:
        return sum(self.claims.values())

    @property
    def free(self) -> float:
        return max(0.0, self.seconds - self.claimed)


class Ledger(Struct):
    db_time_s: float
    elapsed_s: float | None
    basis: str  # what the shares are of: "DB time (time model)", "foreground ASH activity", ...
    leaves: dict[str, Leaf]
    remainder_meaning: str
    dimensions: list[dict] = field(default_factory=list)  # Time Model parts: overlapping views of DB time
    requested: dict[str, dict[str, float]] = field(default_factory=dict)  # owner -> leaf -> seconds asked
    issues: list[str] = field(default_factory=list)
    # owner -> the leaves its claims and explanations went to: what release() takes back (a rule that does not
    # fire touches none, and ~4,000 releases walked every leaf)
    touched: dict[str, list[Leaf]] = field(default_factory=dict)
    # the claims' running total, within rounding of total_claimed(): it spares summing every leaf at each claim
    # when DB time's cap is far (a third of the analysis' time went to those sums)
    running: float = 0.0

    # -- reading -----------------------------------------------------------------------------
    def leaf(self, name: str) -> Leaf | None:
        return self.leaves.get(name.lower())

    def pct(self, seconds: float) -> float:
        return 100.0 * seconds / self.db_time_s if self.db_time_s else 0.0

    def total_claimed(self) -> float:
        return sum(l.claimed for l in self.leaves.values())

    def claims_of(self, owner: str) -> dict[str, float]:
        return {k: l.claims[owner] for k, l in self.leaves.items() if l.claims.get(owner)}

    def claimed_s(self, owner: str) -> float:
        return sum(self.claims_of(owner).values())

    def owner_of(self, name: str) -> str | None:
        """The finding that holds most of a leaf's claimed time."""
        l = self.leaf(name)
        if l is None or not l.claims:
            return None
        return max(l.claims.items(), key=lambda kv: kv[1])[0]

    def free(self, name: str) -> float:
        l = self.leaf(name)
        return l.free if l is not None else 0.0

    def by_class(self) -> dict[str, list[Leaf]]:
        out: dict[str, list[Leaf]] = {}
        for l in self.leaves.values():
            if l.kind == "wait":
                out.setdefault(l.wait_class or "Other", []).append(l)
        return out

    # -- claiming ------------------------------------------------------------------------------
    def claim(self, owner: str, name: str, seconds: float) -> float:
        """Grant ``owner`` up to ``seconds`` of leaf ``name``: what is left of the leaf, and never
        more than DB time left unclaimed in total. Returns the seconds granted."""
        l = self.leaf(name)
        asked = max(0.0, seconds or 0.0)
        self.requested.setdefault(owner, {})
        self.requested[owner][name.lower()] = self.requested[owner].get(name.lower(), 0.0) + asked
        if l is None or asked <= 0:
            return 0.0
        granted = min(asked, l.free)
        if granted > self.db_time_s - self.running - 1e-6:  # near the cap: the exact total decides
            granted = min(granted, max(0.0, self.db_time_s - self.total_claimed()))
        if granted > 0:
            l.claims[owner] = l.claims.get(owner, 0.0) + granted
            self.touched.setdefault(owner, []).append(l)
            self.running += granted
        return granted

    def release(self, owner: str) -> None:
        """Take back every claim of ``owner`` (a rule that did not fire, or a finding shown under its cause)."""
        for l in self.touched.pop(owner, ()):
            self.running -= l.claims.pop(owner, 0.0)
            if owner in l.explained_by:
                l.explained_by.remove(owner)
        self.requested.pop(owner, None)

    def explain(self, owner: str, name: str) -> Leaf | None:
        l = self.leaf(name)
        if l is not None and l.seconds > 0 and owner not in l.explained_by:
            l.explained_by.append(owner)
            self.touched.setdefault(owner, []).append(l)
        return l

    def annotate(self, name: str, owner: str, text: str) -> None:
        l = self.leaf(name)
        if l is not None:
            l.annotations.append({"id": owner, "text": text})

    # -- output ---------------------------------------------------------------------------------
    def as_dict(self) -> dict:
        leaves = sorted(self.leaves.values(), key=lambda l: (l.kind == "remainder", -l.seconds))
        claimed = self.total_claimed()
        return {
            "schema_version": LEDGER_SCHEMA_VERSION,
            "db_time_s": round(self.db_time_s, 3),
            "elapsed_s": self.elapsed_s,
            "basis": self.basis,
            "leaves": [{
                "name": l.name, "kind": l.kind, "wait_class": l.wait_class, "seconds": round(l.seconds, 3),
                "pct_db_time": round(self.pct(l.seconds), 3), "waits": l.waits,
                "avg_ms": None if l.avg_ms is None else round(l.avg_ms, 3),
                "claimed_by": [{"id": k, "seconds": round(v, 3), "pct_db_time": round(self.pct(v), 3)}
                               for k, v in sorted(l.claims.items(), key=lambda kv: -kv[1])],
                "explained_by": list(l.explained_by), "annotations": list(l.annotations),
                "unclaimed_s": round(l.free, 3), "note": l.note,
                "source": [s.as_dict() for s in l.sources]} for l in leaves],
            "remainder_meaning": self.remainder_meaning,
            "claimed_s": round(claimed, 3), "claimed_pct_db_time": round(self.pct(claimed), 3),
            "dimensions": self.dimensions,
            "issues": list(self.issues),
        }


def _remainder_meaning(m: Metrics) -> str:
    if m.event_basis in ("fg", "all-bg") and m.db_time_basis in MEASURED_DB_TIME:
        return "DB time neither on CPU nor in a printed foreground wait: a CPU queue, or time Oracle does not instrument"
    if m.event_basis == "top" and m.db_time_basis.startswith("ASH samples"):  # its CPU row holds the CPU queue
        return "sampled foreground activity in the events the report does not print (its list is a Top-N excerpt)"
    if m.event_basis == "top":
        return "DB time in the events the report does not print (its list is a Top-N excerpt) and any CPU queue"
    return "DB time the report does not itemise (events below its print threshold, a CPU queue)"


def _dimensions(report, dbt: float) -> list[dict]:
    """The Time Model's parts (parse, SQL execute, PL/SQL, connection management...): views of DB time that
    overlap with the leaves (a hard parse is CPU and waits), listed beside them, never added to them."""
    sec = report.sections.get("time_model") if report is not None else None
    out = []
    for row in (sec or ()):
        t = row.values.get("time_s")
        name = (row.name or "").lower()
        # not parts of DB time: the background rows, and 18c+'s 'total CPU time' (DB CPU plus background CPU,
        # 116.6 % of DB time in eyko139/awr_reports' PRDG report)
        if not name or t is None or name in ("db time", "db cpu", "total cpu time") or "background" in name:
            continue
        out.append({"name": row.name, "seconds": t, "pct_db_time": round(100.0 * t / dbt, 3) if dbt else None,
                    "source": Source("time_model", row.name, "time_s", row.line, t).as_dict()})
    return out


def build(m: Metrics, report=None) -> Ledger | None:
    """The ledger of one period, or None when the report has no DB time to split."""
    dbt = m.v("db_time_s")
    if not dbt or dbt <= 0 or m.event_basis is None:
        return None
    waits = sum(e.waits or 0.0 for e in m.fg_events.values())
    if waits >= UNTIMED_WAITS and not any(e.time_s for e in m.fg_events.values()):
        # many waits, none timed (timed_statistics off, or a report spanning a restart): DB time cannot be split
        return None
    leaves: dict[str, Leaf] = {}
    cpu = m.get("db_cpu_s")
    if cpu is not None and cpu.value is not None:
        leaves[CPU] = Leaf(CPU, m.cpu_label(), "cpu", cpu.value, "CPU", cpu.sources)
    for key, e in m.fg_events.items():
        if key in leaves or e.time_s is None:
            continue
        leaves[key] = Leaf(key, e.name, "wait", e.time_s, wait_class(e.name, e.wait_class), e.sources, e.waits, e.avg_ms)
    if m.event_basis == "top" and m.db_time_basis.startswith("Top-N %Total base"):
        # that base is the Top-N list's own total, background waits included: the background events it prints are
        # parts of it, not time the report leaves unprinted
        for key, e in m.bg_events.items():
            if e.basis == "top" and key not in leaves and e.time_s:
                leaves[key] = Leaf(key, e.name, "background", e.time_s, wait_class(e.name, e.wait_class), e.sources,
                                   e.waits, e.avg_ms, note="a background wait: in the Top-N list's base, not DB time")
    parts = sum(l.seconds for l in leaves.values())
    rest = dbt - parts
    issues = []
    if parts > parts_limit(report, m, dbt):
        name, note = "over-accounted", (f"the printed parts ({parts:,.1f} s) exceed DB time ({dbt:,.1f} s) by {-rest:,.1f} s, "
                                        "more than the report's own overlap allows: some part is counted twice or DB time "
                                        "is under-stated")
        if m.event_basis != "fg":  # with foreground events the conservation check (foreground-sum) already says so
            issues.append(f"invariant ledger: {note}")
    elif rest < 0:
        name, note = "overlap", (f"the printed parts exceed DB time by {-rest:,.1f} s ({fmt_num(100.0 * -rest / dbt, '%')}), within "
                                 "the overlap and rounding of the report's own figures")
    else:
        name, note = ("unaccounted", None) if m.event_basis in ("fg", "all-bg") else ("not itemised", None)
    leaves[REMAINDER] = Leaf(REMAINDER, name, "remainder", rest, None, m.get("db_time_s").sources, note=note)
    return Ledger(dbt, m.v("elapsed_s"), _basis(m), leaves, _remainder_meaning(m), _dimensions(report, dbt), issues=issues)


def _basis(m: Metrics) -> str:
    return {"fg": "DB time; foreground wait events", "all-bg": "DB time; system-wide wait events less background",
            "all": "DB time; system-wide wait events (no background section to subtract)",
            "top": "DB time; the Top-N events only"}.get(m.event_basis or "", "DB time") + f" ({m.db_time_basis})"
