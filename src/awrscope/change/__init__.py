"""What changed between two periods, explained on their DB-time ledgers (docs/compare.md, "What changed").

One module per idea: :mod:`.decompose` splits the change in DB time per second over the ledger's leaves,
each leaf's change into a volume part and a latency part, and says it in a DBA's words."""
from __future__ import annotations

from .decompose import CHANGE_SCHEMA_VERSION, decompose

__all__ = ["CHANGE_SCHEMA_VERSION", "decompose"]
