"""Instance activity statistic names as data: full names of the statistics the text
report cuts at 32 characters (spec A.4.6)."""
from __future__ import annotations

from functools import lru_cache

STATISTICS = (
    "redo blocks checksummed by FG (exclusive)", "redo blocks checksummed by LGWR",
    "physical writes direct temporary tablespace", "physical reads direct temporary tablespace",
    "rollback changes - undo records applied", "data blocks consistent reads - undo records applied",
    "DBWR thread checkpoint buffers written", "DBWR tablespace checkpoint buffers written",
    "DBWR parallel query checkpoint buffers written", "physical write total multi block requests",
    "physical read total multi block requests", "redo synch time overhead (usec)",
    "physical write total bytes optimized", "redo write info find fail", "redo synch long waits",
    "physical writes non checkpoint", "physical writes from cache", "background checkpoints completed",
    "background checkpoints started", "physical write IO requests", "physical write total IO requests",
    "physical read total IO requests", "redo write time (usec)", "redo synch time (usec)",
    "redo write worker delay (usec)", "redo write worker delay count", "redo synch poll writes",
    "DBWR object drop buffers written", "DBWR transaction table writes", "DBWR undo block writes",
    "DBWR checkpoint buffers written", "workarea executions - optimal", "workarea executions - onepass",
    "workarea executions - multipass", "temp space allocated (bytes)", "redo buffer allocation retries",
    "redo log space wait time", "redo log space requests", "undo change vector size",
    "transaction rollbacks", "user rollbacks", "user commits", "redo writes", "redo write time",
    "redo wastage", "redo size", "redo blocks written", "redo entries", "redo synch writes",
    "redo synch time", "physical writes", "physical writes direct", "CPU used by this session",
    "execute count", "sorts (disk)", "sorts (memory)", "redo size for direct writes",
)


@lru_cache(maxsize=8192)
def canonical_stat(name: str, cut_at: int | None = 30) -> str:
    """Expand a statistic name the text layout cut (at 30 to 33 characters) when the prefix is
    unique; a name shorter than ``cut_at`` (the column width) or printed whole (None) is kept."""
    low = " ".join(name.lower().split())
    if cut_at is None or len(low) < max(cut_at, 30):
        return name
    matches = [full for full in STATISTICS if full.lower().startswith(low)]
    if len(matches) == 1:
        return matches[0]
    return name
