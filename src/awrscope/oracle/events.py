"""Wait events as data: full names for names the text report truncated, aliases, and
the idle-event list (spec A.6, P03, P11, P25). Read by the parsers, metrics and rules alike."""
from __future__ import annotations

import os
from functools import lru_cache

# Full names of events whose truncation matters to the analysis. A printed name
# that is a unique prefix of exactly one of these is expanded to it.
EVENTS = (
    "log file sync", "log file parallel write", "log file sequential read", "log file single write",
    "log file switch (checkpoint incomplete)", "log file switch (archiving needed)",
    "log file switch (private strand flush incomplete)", "log file switch completion",
    "log buffer space", "log switch/archive",
    "db file sequential read", "db file scattered read", "db file parallel read", "db file parallel write",
    "db file single write", "db file async I/O submit", "direct path read", "direct path write",
    "direct path read temp", "direct path write temp", "direct path sync",
    "control file sequential read", "control file parallel write", "control file single write",
    "free buffer waits", "write complete waits", "buffer busy waits", "read by other session",
    "local write wait", "enq: RO - fast object reuse", "enq: KO - fast object checkpoint",
    "enq: CR - block range reuse ckpt", "enq: TX - row lock contention", "enq: TX - index contention",
    "enq: TX - allocate ITL entry", "enq: TM - contention", "enq: HW - contention", "enq: US - contention",
    "enq: CF - contention", "enq: SQ - contention", "undo segment extension",
    "latch: redo allocation", "latch: redo copy", "latch: redo writing", "latch free",
    "latch: cache buffers chains", "latch: shared pool", "library cache lock", "library cache pin",
    "cursor: pin S wait on X", "row cache lock", "SQL*Net message from client",
    "SQL*Net message to client", "SQL*Net more data from client", "SQL*Net more data to client",
    "SQL*Net break/reset to client", "SQL*Net message from dblink",
    "gc buffer busy acquire", "gc buffer busy release", "gc cr block busy", "gc current block busy",
    "gcs log flush sync", "gc cr block 2-way", "gc current block 2-way", "gc cr grant 2-way",
    "gc current grant 2-way", "gc cr multi block request", "gc current block 3-way",
    "LGWR wait for redo copy", "LGWR-LNS wait on channel", "LNS wait on SENDREQ", "SYNC Remote Write",
    "Log archive I/O", "ARCH wait on SENDREQ", "log file switch (clearing log file)",
    "resmgr:cpu quantum", "Data file init write", "Disk file operations I/O",
    "checkpoint completed", "rdbms ipc reply", "os thread startup",
    "PX Deq: Slave Session Stats", "PX Deq Credit: send blkd", "PX Deq: Execute Reply",
    "target log write size", "LGWR any worker group", "LGWR all worker groups",
    "LGWR worker group ordering", "log file sync: SCN ordering", "wait for scn ack",
)

# Spec A.6 alias table, plus observed abbreviations (normalised lower case -> canonical).
ALIASES = {
    "log file switch(ckpt incomp": "log file switch (checkpoint incomplete)",
    "log file switch (ckpt incomp": "log file switch (checkpoint incomplete)",
    "commit: log file sync": "log file sync",
    "log file redo write": "log file parallel write",
    "log buffer full - lgwr bottleneck": "log buffer space",
    "db list of blocks write": "db file parallel write",
}

def _load_catalogue() -> tuple[dict[str, str], dict[str, str]]:
    """(event (lower case) -> wait class, event (lower case) -> its spelling), from wait_events.tsv
    beside this module."""
    with open(os.path.join(os.path.dirname(__file__), "wait_events.tsv"), encoding="utf-8") as fh:
        text = fh.read()
    classes: dict[str, str] = {}
    spelling: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, cls = line.split("\t")
            low = " ".join(name.lower().split())
            classes[low] = cls.strip()
            spelling[low] = " ".join(name.split())
    return classes, spelling


#: Wait class of each catalogued event (lower-case name -> class), for reports that print none.
EVENT_CLASS, _SPELLING = _load_catalogue()
IDLE_EVENTS = frozenset(name for name, cls in EVENT_CLASS.items() if cls == "Idle")

_CLASS_PREFIX = {"concurrenc": "Concurrency", "applicat": "Application", "cluster": "Cluster", "user i": "User I/O",
                 "system i": "System I/O", "commit": "Commit", "configur": "Configuration", "network": "Network",
                 "other": "Other", "administ": "Administrative", "schedul": "Scheduler", "queueing": "Queueing",
                 "idle": "Idle"}


@lru_cache(maxsize=4096)  # asked ~600 times a report, of a few dozen names
def wait_class(name: str, printed: str | None = None) -> str:
    """The wait class of an event: the class the report prints beside it, else the catalogue's,
    else by the family of its name (gc, latch, enq, ...), else Other."""
    if printed:
        low = printed.strip().lower()
        for p, c in _CLASS_PREFIX.items():
            if low.startswith(p):
                return c
    n = " ".join(name.lower().split())
    cls = EVENT_CLASS.get(n)
    if cls is not None:
        return cls
    if n.startswith(("gc ", "gcs ", "ges ")):
        return "Cluster"
    # not 'latch': V$EVENT_NAME puts the latches it does not list (latch: undo global data...) in Other; the
    # Concurrency ones (cache buffers chains, shared pool, row cache objects...) are in the catalogue
    if n.startswith(("library cache", "cursor:", "row cache", "buffer busy", "enq: tx - index", "read by other")):
        return "Concurrency"
    if n.startswith(("db file", "direct path", "cell ")):
        return "User I/O"
    if n.startswith(("log file switch", "log buffer", "free buffer", "write complete", "enq: hw", "enq: sq")):
        return "Configuration"
    if n.startswith("sql*net"):
        return "Network"
    return "Other"


def is_idle_row(name: str, text) -> bool:
    """Idle by the report's own classification where the parser found one (a printed class,
    the idle block: ``idle_by`` / ``not_idle_by``), else by the catalogue."""
    if text.get("not_idle_by"):
        return False
    return is_idle_event(name, text.get("wait_class"))


def is_idle(event: str, wait_class: str | None = None) -> bool:
    """Idle by the class the report prints beside the event where it prints one (Oracle moved events between
    classes across versions: 19c prints 'PX Deq: Join ACK' as Other, which our catalogue has as Idle), else
    by the catalogue."""
    if wait_class and wait_class.strip():
        return wait_class.strip().lower().startswith("idle")
    return event.strip().lower() in IDLE_EVENTS


# Events whose per-event metrics (fg_time_s/pct_db_time/avg_ms[...]) are always published when printed.
WRITE_PATH_EVENTS = (
    "log file sync", "log file switch (checkpoint incomplete)", "log file switch (archiving needed)",
    "log file switch completion", "log file switch (private strand flush incomplete)", "log buffer space",
    "free buffer waits", "write complete waits", "direct path write temp", "direct path read temp",
    "local write wait", "enq: RO - fast object reuse", "enq: KO - fast object checkpoint",
    "enq: CR - block range reuse ckpt", "enq: US - contention", "undo segment extension",
    "latch: redo allocation", "latch: redo copy", "latch: redo writing", "resmgr:cpu quantum",
)

REUSE_EVENTS = ("local write wait", "enq: RO - fast object reuse", "enq: KO - fast object checkpoint",
                "enq: CR - block range reuse ckpt")

CPU_ROWS = {"cpu time", "db cpu", "cpu + wait for cpu"}  # the last: ASH's CPU row, run queue included

BACKGROUND_ONLY = {"log file parallel write", "db file parallel write", "control file parallel write",
                   "log file sequential read", "log file single write", "lgwr wait for redo copy", "log archive i/o",
                   "arch wait on sendreq", "lns wait on sendreq", "lgwr-lns wait on channel", "sync remote write",
                   "target log write size"}

# RMAN channel waits printed in the system-wide section of AWR 10g/Statspack are not part of DB time
NOT_DB_TIME_PREFIXES = ("rman backup", "backup:")


_IDLE_LOWER = tuple(sorted(IDLE_EVENTS))


@lru_cache(maxsize=8192)
def is_idle_event(name: str, wait_class: str | None) -> bool:
    """Idle test that also knows names truncated by the text report (26/30/33 characters). Cached: every
    event row of every section asks, and the prefix scan over the idle names was 2 % of a corpus run."""
    if is_idle(name, wait_class):
        return True
    if wait_class and wait_class.strip():  # the report's own class, not idle: a name's prefix does not overrule it
        return False
    low = " ".join(name.lower().split())
    return len(low) >= 20 and any(e.startswith(low) for e in _IDLE_LOWER)


@lru_cache(maxsize=4096)
def canonical_event(name: str, cut_at: int | None = None) -> str:
    """The full name of an aliased event, or of one whose printed name was cut by the report's
    layout: a name is expanded by prefix only when it is at least ``cut_at`` characters long
    (the column width, from the parser; None: the name is printed whole, as in HTML)."""
    low = " ".join(name.lower().split())
    if low in ALIASES:
        return ALIASES[low]
    for full in EVENTS:
        if full.lower() == low:
            return full
    if cut_at is not None and len(low) >= max(cut_at, 12):
        matches = [full for full in EVENTS if full.lower().startswith(low)]
        if len(matches) == 1:
            return matches[0]
        for alias, full in ALIASES.items():
            if alias.startswith(low):
                return full
        if low not in EVENT_CLASS:  # any catalogued event, so that its wait class is found too
            matches = [full for full in EVENT_CLASS if full.startswith(low)]
            if len(matches) == 1:
                return _SPELLING[matches[0]]
    if cut_at is not None and low.startswith("log file switch") and "ck" in low[15:]:
        return "log file switch (checkpoint incomplete)"
    return name
