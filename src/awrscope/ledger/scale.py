"""One scale for rank and severity: a finding's severity is a function of the DB time it claims
(its share of DB time and the average active sessions it costs) and of the database's load, and
of nothing else. Findings are ranked by the same claimed seconds, so down a list sorted by impact
severity never rises."""
from __future__ import annotations

from ..numfmt import fmt_num

SEVERITIES = ("critical", "major", "moderate", "minor", "info")
SEVERITY_RANK = {s: i for i, s in enumerate(SEVERITIES)}  # 0 = worst

#: Materiality on the claimed % of DB time (spec C.0); overridable as [severity] in the config.
SEVERITY_THRESHOLDS = {"critical": 25.0, "major": 10.0, "moderate": 5.0, "minor": 2.0}

#: The absolute load a severity also needs: claimed average active sessions (claimed DB time /
#: elapsed). A share of DB time alone calls 40 % of an idle database's 47 s "critical". A database
#: below ``quiet_aas`` active sessions is "quiet": nothing above minor.
SEVERITY_AAS = {"critical_aas": 1.0, "major_aas": 0.25, "moderate_aas": 0.1, "quiet_aas": 0.25}


def severity_of(pct: float | None, aas: float | None = None, scale: dict[str, float] | None = None,
                quiet: bool = False) -> str:
    """Severity of a claim of ``pct`` % of DB time costing ``aas`` average active sessions; a quiet
    database (``quiet``) has nothing above minor. Monotone in the claimed seconds: both ``pct`` and
    ``aas`` grow with them."""
    scale = {**SEVERITY_THRESHOLDS, **SEVERITY_AAS, **(scale or {})}
    if pct is None:
        return "info"
    for sev in ("critical", "major", "moderate", "minor"):
        if pct >= scale[sev] and (aas is None or sev == "minor" or aas >= scale[sev + "_aas"]):
            if quiet and SEVERITY_RANK[sev] < SEVERITY_RANK["minor"]:
                return "minor"
            return sev
    return "info"


def milder(a: str, b: str) -> str:
    """The milder of two severities."""
    return SEVERITIES[max(SEVERITY_RANK[a], SEVERITY_RANK[b])]


def pct_text(v: float) -> str:
    """A percentage as a title prints it: whole numbers, but never '0 %' for something above zero (0.38 -> '0.38 %')."""
    if v and abs(v) < 1:
        return fmt_num(v, "%")
    return f"{v:.0f} %"
