"""The DB-time ledger of one analysed period: DB time split into disjoint leaves (DB CPU, each
non-idle foreground wait event, the remainder) that add up to DB time by construction, and the
claims findings make on them. Every ranked finding draws its impact from the ledger; no second
of DB time is claimed twice (docs/analysis.md, "The ledger")."""
from __future__ import annotations

from .model import LEDGER_SCHEMA_VERSION, Ledger, Leaf, build
from .scale import severity_of

__all__ = ["LEDGER_SCHEMA_VERSION", "Ledger", "Leaf", "build", "severity_of"]
