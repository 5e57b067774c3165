"""The session's ledger: where a trace's response time R went, in leaves that add up by construction.

R splits in two. *Time between calls* is the server waiting for the client's next call, the
``SQL*Net message from client`` waits between calls, and only those: split into round trips (short
gaps inside one cursor's fetch loop, reader.py) and think time (every other gap). *Time in database
calls* is the rest, the trace's DB time: a call the trace writes no PARSE/EXEC/FETCH line for (the
commit behind an XCTEND, a LOB call) is still a call, so its waits count here. That time splits into
the CPU of dep=0 calls, each wait event's part inside calls, and unaccounted-for time, the remainder
(which makes the leaves add up to it exactly, and which can be slightly negative by the granularity
of ``c``).

Percentages of the in-call leaves are of the time in calls (``pct_in_calls``), so idle minutes in the
trace do not dilute them; every leaf also has its share of R (``pct_response_time``)."""
from __future__ import annotations

from .model import CLIENT_WAIT
from .reader import TraceStats

UNACCOUNTED = "unaccounted-for time"
ROUND_TRIP = "round trips (client gaps inside fetch loops)"
THINK = "think time (other client gaps)"


def _r(x: float | None, nd: int = 6) -> float | None:
    return None if x is None else round(x, nd)


def _pct(part: float, whole: float) -> float | None:
    return round(100.0 * part / whole, 3) if whole else None


def cpu_us(st: TraceStats) -> float:
    """CPU of the calls that make up the response time: dep=0 calls, and recursive calls whose dep=0
    parent is not in the file (a parent's c already includes its children's)."""
    return sum(c.c_us for c in st.calls.values()) + sum(c.c_us for c in st.orphan_calls.values())


def response_us(st: TraceStats) -> float:
    """R: the wall clock of the timed lines; without any tim, what the lines explain."""
    return st.wall_us or (sum(e.total_us for e in st.events.values()) + cpu_us(st))


def _leaf(name: str, kind: str, where: str, us: float, count: int | None, line: int | None = None,
          max_line: int | None = None) -> dict:
    return {"name": name, "kind": kind, "where": where, "seconds": us / 1e6, "count": count, "line": line or None,
            "max_line": max_line or None}


def _in_call_waits(st: TraceStats) -> list[dict]:
    """Each wait event's part inside calls: all of it but the client gaps between calls."""
    out = []
    for e in st.events.values():
        us, n = e.total_us, e.count
        if e.name == CLIENT_WAIT:
            us -= st.round_trip.total_us + st.think.total_us
            n -= st.round_trip.count + st.think.count
        if n > 0:
            out.append(_leaf(e.name, "wait", "in_calls", us, n, e.first_line, e.max_line))
    return out


def _cpu_leaves(st: TraceStats) -> list[dict]:
    out = [_leaf(f"{kind} calls [CPU]", "cpu", "in_calls", c.c_us, c.count, c.max_line) for kind, c in st.calls.items()]
    if st.orphan_calls:
        out.append(_leaf("recursive calls without a dep=0 parent [CPU]", "cpu", "in_calls",
                         sum(c.c_us for c in st.orphan_calls.values()),
                         sum(c.count for c in st.orphan_calls.values())))
    return out


def _gap_leaf(name: str, kind: str, gaps) -> dict:
    leaf = _leaf(name, kind, "between_calls", gaps.total_us, gaps.count, gaps.first_line, gaps.max_line)
    leaf["avg_ms"] = _r(gaps.total_us / gaps.count / 1e3, 3) if gaps.count else None
    return leaf


def build_ledger(st: TraceStats) -> dict:
    """The ledger object of the trace document (docs/trace.md): totals and leaves, worst first within
    each side, in-call leaves before between-call ones."""
    r = response_us(st)
    rt, think = st.round_trip, st.think
    between = rt.total_us + think.total_us
    in_calls = r - between
    inside = sorted(_cpu_leaves(st) + _in_call_waits(st), key=lambda x: -x["seconds"])
    explained = sum(x["seconds"] for x in inside) * 1e6
    inside.append(_leaf(UNACCOUNTED, "unaccounted", "in_calls", in_calls - explained, None))
    outside = [_gap_leaf(ROUND_TRIP, "round_trip", rt), _gap_leaf(THINK, "think", think)]
    leaves = inside + outside
    for x in leaves:
        us = x["seconds"] * 1e6
        x["pct_in_calls"] = _pct(us, in_calls) if x["where"] == "in_calls" else None
        x["pct_response_time"] = _pct(us, r)
        x["seconds"] = _r(x["seconds"])
    active = in_calls + rt.total_us  # R without think time: what T05 is judged against
    return {
        "response_time_s": _r(r / 1e6), "in_calls_s": _r(in_calls / 1e6), "in_calls_pct": _pct(in_calls, r),
        "between_calls_s": _r(between / 1e6), "round_trip_s": _r(rt.total_us / 1e6), "round_trips": rt.count,
        "round_trip_avg_ms": _r(rt.total_us / rt.count / 1e3, 3) if rt.count else None,
        "round_trip_max_gap_s": _r(st.round_trip_max_us / 1e6), "think_s": _r(think.total_us / 1e6),
        "think_gaps": think.count, "response_excl_think_s": _r(active / 1e6),
        "round_trip_pct_excl_think": _pct(rt.total_us, active),
        "unaccounted_s": _r((in_calls - explained) / 1e6),
        "unaccounted_pct_in_calls": _pct(in_calls - explained, in_calls),
        "leaves": leaves,
    }


def leaf(ledger: dict, kind: str) -> dict:
    """The first leaf of a kind (unaccounted, round_trip, think: there is one of each)."""
    return next(x for x in ledger["leaves"] if x["kind"] == kind)
