"""One reading of the window, made once after the metrics and before any rule: the host's CPU, the load, I/O
latency per class against its healthy band, the commit path's decomposition, memory pressure, network round
trips and connection management. Every rule, the load line, the verdict and the caveats read it; none
re-derives a CPU or I/O condition with cut-offs of its own, so no two sentences of an analysis disagree
about the window (docs/analysis.md, "The assessment")."""
from __future__ import annotations

from msgspec import Struct, field

from ..metrics import Metrics, lgwr_latency
from ..model import Report
from .commit import CommitAttribution, attribute
from .cpu import HostCpu, assess_cpu
from .load import Load, assess_load

__all__ = ["Assessment", "IoClass", "assess", "band"]

#: Healthy bands per I/O class, ms per wait: (fast, healthy, slow); above slow is poor. From the spec's rule
#: thresholds (R01 5 ms LGWR, 2 ms on flash; G06 10 ms single-block reads; R09 5 ms TEMP writes; R08 DBWR).
BANDS: dict[str, tuple[float, float, float]] = {
    "redo write": (0.5, 1.0, 5.0),  # 'slow' from 5 ms (R01), 'poor' from 10 ms below as a second step
    "single-block read": (1.0, 10.0, 20.0),
    "multiblock read": (2.0, 20.0, 40.0),
    "direct path read": (2.0, 20.0, 40.0),
    "temp write": (1.0, 5.0, 20.0),
    "temp read": (1.0, 10.0, 20.0),
    "datafile write (DBWR)": (1.0, 10.0, 20.0),
    "control file": (1.0, 10.0, 20.0),
}
#: The events each class is read from (foreground, except the background writers').
_CLASS_EVENTS = {
    "single-block read": ("db file sequential read", "cell single block physical read"),
    "multiblock read": ("db file scattered read", "cell multiblock physical read"),
    "direct path read": ("direct path read", "cell smart table scan"),
    "temp write": ("direct path write temp",),
    "temp read": ("direct path read temp",),
    "control file": ("control file sequential read", "control file parallel write"),
}


def band(cls: str, ms: float) -> str:
    """fast | healthy | slow | poor: where ``ms`` per wait falls in the class's band."""
    fast, ok, slow = BANDS[cls]
    if cls == "redo write":  # LGWR: healthy to 1 ms, fair to 5 ms (R01's degraded), slow to 10 ms, poor beyond
        return "fast" if ms <= fast else "healthy" if ms <= ok else "fair" if ms < slow else "slow" if ms < 10.0 else "poor"
    return "fast" if ms <= fast else "healthy" if ms < ok else "slow" if ms < slow else "poor"


class IoClass(Struct):
    name: str
    ms: float
    state: str
    waits: float | None
    seconds: float | None
    source: str  # the event or metric it is read from

    def as_dict(self) -> dict:
        fast, ok, slow = BANDS[self.name]
        return {"class": self.name, "ms": round(self.ms, 3), "state": self.state, "band_ms": [fast, ok, slow],
                "waits": self.waits, "seconds": None if self.seconds is None else round(self.seconds, 3),
                "source": self.source}


class Fact(Struct):
    """A graded fact of the window other than CPU and I/O: its state and the figures it rests on."""
    name: str
    state: str
    pct_db_time: float | None
    figures: dict = field(default_factory=dict)
    note: str = ""

    def as_dict(self) -> dict:
        return {"name": self.name, "state": self.state,
                "pct_db_time": None if self.pct_db_time is None else round(self.pct_db_time, 3),
                "figures": {k: (round(v, 4) if isinstance(v, float) else v) for k, v in self.figures.items()},
                "note": self.note}


class Assessment(Struct):
    cpu: HostCpu
    load: Load
    commit: CommitAttribution | None
    io: dict[str, IoClass]
    facts: dict[str, Fact]

    def as_dict(self, db_time_s: float | None) -> dict:
        return {"cpu": self.cpu.as_dict(), "load": self.load.as_dict(),
                "io": [c.as_dict() for c in self.io.values()],
                "commit": self.commit.as_dict(db_time_s) if self.commit is not None else None,
                "facts": [f.as_dict() for f in self.facts.values()]}


def assess(report: Report, m: Metrics, config: dict | None = None) -> Assessment:
    config = config or {}
    cpu = assess_cpu(m, report)
    return Assessment(cpu, assess_load(m, cpu, config), attribute(m, cpu, bool(config.get("redo_on_flash"))),
                      _io(m), _facts(report, m))


def _io(m: Metrics) -> dict[str, IoClass]:
    out: dict[str, IoClass] = {}
    L, L_id = lgwr_latency(m)
    if L is not None:
        out["redo write"] = IoClass("redo write", L, band("redo write", L), m.v("redo_write_iops"), None, L_id)
    for cls, names in _CLASS_EVENTS.items():
        evs = [e for e in (m.fg(n) for n in names) if e is not None and e.waits and e.avg_ms is not None and e.time_s > 0]
        if not evs:
            continue
        waits = sum(e.waits for e in evs)
        t = sum(e.time_s for e in evs)
        ms = 1000.0 * t / waits
        out[cls] = IoClass(cls, ms, band(cls, ms), waits, t, ", ".join(e.name for e in evs))
    dfpw = m.bg("db file parallel write")
    if dfpw is not None and dfpw.waits and dfpw.avg_ms is not None:
        cls = "datafile write (DBWR)"
        out[cls] = IoClass(cls, dfpw.avg_ms, band(cls, dfpw.avg_ms), dfpw.waits, dfpw.time_s, "db file parallel write")
    return out


#: Network events of the sessions: to the client, or to a remote database.
_NET_CLIENT = ("sql*net message to client", "sql*net more data to client", "sql*net more data from client")
_NET_DBLINK = ("sql*net message from dblink", "sql*net more data from dblink", "sql*net more data to dblink",
               "sql*net message to dblink")


def _facts(report: Report, m: Metrics) -> dict[str, Fact]:
    dbt = m.v("db_time_s")
    e = m.v("elapsed_s")
    out: dict[str, Fact] = {}

    def share(names) -> float:
        return sum(m.fg_time(n) for n in names)

    if dbt:
        client, dblink = share(_NET_CLIENT), share(_NET_DBLINK)
        if client or dblink:
            p = 100.0 * (client + dblink) / dbt
            out["network"] = Fact("network", "material" if p >= 5.0 else "minor", p,
                                  {"client_s": client, "dblink_s": dblink},
                                  "round trips and transfer between the sessions and their clients or database links")
        sga = share(("sga: allocation forcing component growth", "sga: sga_target resize", "sga: memory_target resize"))
        temp = share(("direct path write temp", "direct path read temp"))
        free = share(("free buffer waits",))
        if sga or temp or free:
            p = 100.0 * (sga + temp + free) / dbt
            out["memory"] = Fact("memory", "material" if p >= 5.0 else "minor", p,
                                 {"sga_resize_s": sga, "temp_io_s": temp, "free_buffer_s": free},
                                 "SGA resizing, sorts and hash joins spilled to TEMP, a buffer cache DBWR cannot keep free")
    tm = report.sections.get("time_model")
    row = tm.row("connection management call elapsed time") if tm is not None else None
    conn = row.values.get("time_s") if row is not None else None
    logons = report.stat("logons cumulative")
    rate = logons.values.get("total") / e if logons is not None and logons.values.get("total") is not None and e else None
    if conn is not None or rate is not None:
        p = 100.0 * conn / dbt if conn is not None and dbt else None
        per = 1000.0 * conn / logons.values["total"] if conn is not None and rate else None
        out["connections"] = Fact("connections", "material" if (p or 0.0) >= 5.0 or (rate or 0.0) >= 5.0 else "minor",
                                  p, {"logons_per_s": rate, "ms_per_logon": per},
                                  "connection management call elapsed time (Time Model) and logons cumulative")
    return out
