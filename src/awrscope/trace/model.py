"""The typed model of an extended SQL trace (event 10046): what the streaming reader accumulates.

Nothing here holds the trace's lines: statistics per wait event, per database call kind and per
statement, so a trace of any size is read in bounded memory. Every duration is in microseconds
(centisecond traces of Oracle 7/8/8i are converted when read)."""
from __future__ import annotations

from msgspec import Struct, field

#: Upper bounds (µs) of the per-call duration histogram buckets; the last bucket is open.
BUCKETS_US = (1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000)
BUCKET_LABELS = ("<1µs", "1-10µs", "10-100µs", "0.1-1ms", "1-10ms", "10-100ms", "0.1-1s", "1-10s", ">=10s")

CALL_KINDS = ("PARSE", "EXEC", "FETCH", "CLOSE", "UNMAP", "SORT UNMAP")

#: The wait the server writes while it waits for the client's next call: the only time of a trace that
#: is verifiably outside a database call (Oracle's DB time leaves it out as idle).
CLIENT_WAIT = "SQL*Net message from client"

#: A client gap inside one cursor's fetch loop shorter than this is a round trip, not think time. Any
#: network's round trip is shorter (~0.1 ms on a LAN, ~300 ms across the globe) and no person pages
#: through rows faster, so a gap under 1 s between two fetches is the machine's: the network plus the
#: client's work on one array of rows. Longer gaps are someone (or something) pausing: think time.
ROUND_TRIP_MAX_US = 1_000_000

#: Oracle command types (PARSING IN CURSOR oct=) that the rules and renderers name.
OCT_NAMES = {1: "CREATE TABLE", 2: "INSERT", 3: "SELECT", 6: "UPDATE", 7: "DELETE", 9: "CREATE INDEX",
             12: "DROP TABLE", 26: "LOCK TABLE", 42: "ALTER SESSION", 44: "COMMIT", 45: "ROLLBACK",
             47: "PL/SQL EXECUTE", 85: "TRUNCATE TABLE", 86: "TRUNCATE CLUSTER", 170: "CALL METHOD",
             189: "UPSERT"}
OCT_TRUNCATE = (85, 86)


def bucket_of(us: float) -> int:
    for i, bound in enumerate(BUCKETS_US):
        if us < bound:
            return i
    return len(BUCKETS_US)


class EventStats(Struct):
    """One wait event: every WAIT line of it, its per-call duration distribution, where it was worst."""

    name: str
    count: int = 0
    total_us: float = 0.0
    min_us: float | None = None
    max_us: float = 0.0
    max_line: int = 0
    first_line: int = 0
    between_us: float = 0.0  # the part waited between database calls (SQL*Net message from client...)
    buckets: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS_US) + 1))

    def add(self, us: float, line: int) -> None:
        self.count += 1
        self.total_us += us
        if self.min_us is None or us < self.min_us:
            self.min_us = us
        if us > self.max_us or self.count == 1:
            self.max_us, self.max_line = us, line
        if not self.first_line:
            self.first_line = line
        self.buckets[bucket_of(us)] += 1


class CallStats(Struct):
    """Database calls of one kind (PARSE, EXEC, FETCH, CLOSE): CPU (c), elapsed (e), blocks, rows."""

    kind: str
    count: int = 0
    c_us: float = 0.0
    e_us: float = 0.0
    p: int = 0
    cr: int = 0
    cu: int = 0
    r: int = 0
    mis: int = 0
    max_e_us: float = 0.0
    max_line: int = 0

    def add(self, c: float, e: float, f: dict, line: int) -> None:
        self.count += 1
        self.c_us += c
        self.e_us += e
        self.p += f.get("p", 0)
        self.cr += f.get("cr", 0)
        self.cu += f.get("cu", 0)
        self.r += f.get("r", 0)
        self.mis += f.get("mis", 0)
        if e > self.max_e_us or self.count == 1:
            self.max_e_us, self.max_line = e, line


class Statement(Struct):
    """One SQL or PL/SQL statement (by sqlid, else hash value, else cursor): its calls and the waits
    reported on its cursor, split into waits inside its calls and waits between calls."""

    key: str
    sql_id: str | None
    hash_value: str | None
    text: str
    oct: int | None
    dep: int
    uid: int | None
    line: int  # of its (first) PARSING IN CURSOR, 0 when parsed before the trace began
    calls: dict[str, CallStats] = field(default_factory=dict)
    waits_in: dict[str, list] = field(default_factory=dict)  # event -> [count, µs, max µs, line of max]
    waits_between: dict[str, list] = field(default_factory=dict)
    text_truncated: bool = False
    round_trips: int = 0         # client gaps inside this cursor's fetch loops (T05)
    round_trip_us: float = 0.0
    round_trip_line: int = 0     # the first of them

    def call(self, kind: str) -> CallStats:
        cs = self.calls.get(kind)
        if cs is None:
            cs = self.calls[kind] = CallStats(kind)
        return cs

    def add_wait(self, event: str, us: float, line: int, inside: bool) -> None:
        d = self.waits_in if inside else self.waits_between
        w = d.get(event)
        if w is None:
            d[event] = [1, us, us, line]
            return
        w[0] += 1
        w[1] += us
        if us > w[2]:
            w[2], w[3] = us, line

    @property
    def e_us(self) -> float:
        return sum(c.e_us for c in self.calls.values())

    @property
    def c_us(self) -> float:
        return sum(c.c_us for c in self.calls.values())

    @property
    def between_us(self) -> float:
        return sum(w[1] for w in self.waits_between.values())

    @property
    def executions(self) -> int:
        cs = self.calls.get("EXEC")
        return cs.count if cs else 0

    @property
    def command(self) -> str:
        return OCT_NAMES.get(self.oct, f"oct={self.oct}") if self.oct is not None else "unknown"


class TraceIssue(Struct, frozen=True):
    """A problem reading the trace: its line (0: the whole file), a severity (error, warning, info)
    and one sentence."""

    line: int
    severity: str
    message: str

    def as_dict(self) -> dict:
        return {"line": self.line, "severity": self.severity, "message": self.message}


class TraceSession(Struct):
    """What the trace says about its session: header and ``***`` lines."""

    file_header: str | None = None  # "Trace file /u01/.../x_ora_123.trc"
    banner: str | None = None       # "Oracle Database 19c Enterprise Edition Release 19.0.0.0.0 ..."
    version: str | None = None      # "19.0.0.0.0"
    major: int | None = None
    instance: str | None = None
    node: str | None = None
    pid: str | None = None
    session_ids: list[str] = field(default_factory=list)
    services: list[str] = field(default_factory=list)
    modules: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    clients: list[str] = field(default_factory=list)
    first_timestamp: str | None = None
    last_timestamp: str | None = None

    def as_dict(self) -> dict:
        return {k: getattr(self, k) for k in ("file_header", "banner", "version", "instance", "node", "pid",
                                               "session_ids", "services", "modules", "actions", "clients",
                                               "first_timestamp", "last_timestamp")}
