"""The change in DB time between two periods, split over their ledgers.

DB time per second (average active sessions, AAS) is the sum of the ledger's leaves per second, so its
change is the sum of the leaves' changes: an identity, not a model. Each leaf's change is split again:

* a wait event's time per second is (waits per second) x (seconds per wait). With r the rate and a the
  average, r1*a1 - r0*a0 = (r1 - r0)*(a0 + a1)/2 + (a1 - a0)*(r0 + r1)/2: a **volume** part (more or
  fewer waits) and a **latency** part (longer or shorter waits) that add up to the change exactly (the
  symmetric, midpoint split: neither period is privileged);
* DB CPU per second is (executions per second) x (CPU per execution), split the same way into more or
  less work and more or less CPU per execution;
* a leaf without a wait count (the remainder, ASH samples) is not split.

Percentages are of the first period's DB time per second, so the contributions add up to the change in
DB time (+97 % = +60 % + +25 % + ...). The load (executions, user calls, transactions per second) is
stated first: a period with twice the work is expected to have twice the DB time."""
from __future__ import annotations

from ..metrics import wait_events
from ..model import Report
from ..numfmt import fmt_num, fmt_value

CHANGE_SCHEMA_VERSION = "1.0"

#: Background events whose time per second changed this much (and by at least ``BG_MIN_AAS``) are named beside the
#: change in DB time: they are not in it, but they are often why it changed (LGWR's writes, RMAN backup I/O).
BG_FACTOR = 2.0
BG_MIN_AAS = 0.05
#: Leaves named in the verdict sentence, largest net change first.
VERDICT_PARTS = 4
#: A leaf whose total is below this many seconds in a period is printed too coarsely (whole seconds) to split into
#: waits and time per wait, and a write-path latency from such totals is not stated.
MIN_SPLIT_S = 5.0
#: A leaf whose net change is below this share of the first period's DB time is not named in the verdict.
NOISE_PCT = 0.5

#: (key, label, statistic, Load Profile row names): the load, per second.
LOAD = (("executions_per_s", "executions/s", "execute count", ("Executes", "Executes (SQL)")),
        ("user_calls_per_s", "user calls/s", "user calls", ("User calls",)),
        ("transactions_per_s", "transactions/s", None, ("Transactions",)),
        ("commits_per_s", "commits/s", "user commits", ()))


def _rate(report: Report, stat: str | None, lp_rows: tuple[str, ...], elapsed: float | None) -> float | None:
    lp = report.sections.get("load_profile")
    for name in lp_rows:
        row = lp.row(name) if lp else None
        if row is not None and row.get("per_second") is not None:
            return row.get("per_second")
    s = report.stat(stat) if stat else None
    if s is not None and s.values.get("total") is not None and elapsed:
        return s.values["total"] / elapsed
    return None


def side_input(report: Report, doc: dict) -> dict:
    """What the decomposition needs of one period: its ledger, elapsed time, load and background events."""
    elapsed = doc["report"]["elapsed_s"]
    load = {k: _rate(report, stat, rows, elapsed) for k, _, stat, rows in LOAD}
    if load["transactions_per_s"] is None and load["commits_per_s"] is not None:
        rb = _rate(report, "user rollbacks", (), elapsed)
        load["transactions_per_s"] = load["commits_per_s"] + (rb or 0.0)
    bg = {k: (e.name, e.time_s, e.waits) for k, e in wait_events(report).bg_events.items()}
    metrics = {k: (doc["metrics"].get(k) or {}).get("value") for k in ("redo_block_size_est", "lfpw_ms_per_write")}
    metrics["redo_wastage_Bps"] = _rate(report, "redo wastage", (), elapsed)
    return {"ledger": doc.get("ledger"), "elapsed_s": elapsed, "load": load, "bg": bg, "metrics": metrics,
            "aas": (doc["report"]["db_time_s"] / elapsed) if doc["report"]["db_time_s"] and elapsed else None}


def _leaves(led: dict) -> dict[str, dict]:
    out = {l["name"].lower() if l["kind"] != "remainder" else "(remainder)": l for l in led["leaves"]}
    rest = out.get("(remainder)")
    if rest is not None:  # one row for both periods' remainders, named for what it is in each
        out["(remainder)"] = dict(rest, name="remainder (DB time no part explains, or parts above it)")
    return out


def _split(r0, a0, r1, a1) -> tuple[float, float]:
    """Volume and latency parts of r1*a1 - r0*a0 (midpoint split: they add up to it exactly)."""
    return (r1 - r0) * (a0 + a1) / 2.0, (a1 - a0) * (r0 + r1) / 2.0


def _contribution(name: str, l0: dict | None, l1: dict | None, e0: float, e1: float, x0, x1) -> dict:
    """One leaf's change in AAS, split into volume and latency where the leaf has a count to split by."""
    kind = (l1 or l0)["kind"]
    t0 = (l0["seconds"] if l0 else 0.0) / e0
    t1 = (l1["seconds"] if l1 else 0.0) / e1
    out = {"name": (l1 or l0)["name"], "kind": kind, "wait_class": (l1 or l0).get("wait_class"),
           "before_aas": t0, "after_aas": t1, "delta_aas": t1 - t0, "volume_aas": None, "latency_aas": None}
    coarse = any(l is not None and abs(l["seconds"]) < MIN_SPLIT_S for l in (l0, l1))
    if kind == "wait" and not coarse:
        w0 = l0.get("waits") if l0 else 0.0
        w1 = l1.get("waits") if l1 else 0.0
        # time without waits (a rate printed as 0.0 per second) cannot be split per wait
        if w0 is not None and w1 is not None and (w0 or w1) and (w0 or not t0) and (w1 or not t1):
            r0, r1 = w0 / e0, w1 / e1
            a0 = t0 / r0 if r0 else None
            a1 = t1 / r1 if r1 else None
            a0 = a1 if a0 is None else a0  # an event of one period only: all of its change is volume
            a1 = a0 if a1 is None else a1
            out["volume_aas"], out["latency_aas"] = _split(r0, a0, r1, a1)
            out.update(per_s=[r0, r1], avg_ms=[1000.0 * a0, 1000.0 * a1], measure="waits/s")
    elif kind == "cpu" and x0 and x1:
        a0, a1 = t0 / x0, t1 / x1
        out["volume_aas"], out["latency_aas"] = _split(x0, a0, x1, a1)
        out.update(per_s=[x0, x1], avg_ms=[1000.0 * a0, 1000.0 * a1], measure="executions/s")
    return out


def _pct(before: float | None, after: float | None) -> float | None:
    return 100.0 * (after - before) / before if before and after is not None else None


def _ratio_words(before: float, after: float) -> str:
    if not before:
        return "new"
    r = after / before
    if r >= 3:
        return f"×{r:,.0f}" if r >= 10 else f"×{r:.1f}"
    if 0 < r <= 1 / 3:
        return f"÷{1 / r:,.0f}" if 1 / r >= 10 else f"÷{1 / r:.1f}"
    return f"{100.0 * (r - 1):+.1f} %"


def _ms(v: float) -> str:
    return fmt_value(v, "ms") if v < 10 else f"{v:,.1f}" if v < 1000 else f"{v:,.0f}"


def _leaf_words(c: dict, aas0: float) -> str:
    """One leaf's net change and, inside it, what the change is made of: '+119.5 % log file sync: slower
    (51.2 → 886 ms per wait, +129.3 %), fewer waits (waits/s ÷1.9, -9.8 %)'."""
    share = 100.0 * c["delta_aas"] / aas0 if aas0 else None
    head = (f"{share:+.1f} % {c['name']}" if share is not None and abs(share) < 1000 else
            f"{fmt_num(c['delta_aas'], signed=True)} AAS {c['name']}")
    if c["volume_aas"] is None:
        return head
    (r0, r1), (a0, a1) = c["per_s"], c["avg_ms"]
    cpu = c["kind"] == "cpu"
    vol = (c["volume_aas"], (f"{'more' if c['volume_aas'] > 0 else 'less'} work (executions/s {_ratio_words(r0, r1)})" if cpu else
                             f"{'more' if c['volume_aas'] > 0 else 'fewer'} waits (waits/s {_ratio_words(r0, r1)})"))
    lat = (c["latency_aas"], (f"{'more' if c['latency_aas'] > 0 else 'less'} CPU per execution ({_ms(a0)} → {_ms(a1)} ms)" if cpu else
                              f"{'slower' if c['latency_aas'] > 0 else 'faster'} ({_ms(a0)} → {_ms(a1)} ms per wait)"))
    inner = sorted((p for p in (vol, lat) if p[0]), key=lambda p: -abs(p[0]))
    # a half that is a tenth of the net change or less, beside a larger other half, is not worth a word
    keep = [p for p in inner if abs(p[0]) >= 0.1 * abs(c["delta_aas"]) or p is inner[0]]
    return head + ": " + ", ".join(
        w + (f" {100.0 * a / aas0:+.1f} %" if aas0 and abs(100.0 * a / aas0) < 1000 else f" {fmt_num(a, signed=True)} AAS") for a, w in keep)


def _parts(c: dict) -> list[tuple[float, str]]:
    """The DBA words of a contribution's parts: (AAS, 'more db file sequential read (waits/s +60.2 %)')."""
    n = c["name"]
    if c["volume_aas"] is None:
        return [(c["delta_aas"], f"{'more' if c['delta_aas'] > 0 else 'less'} {n}")]
    (r0, r1), (a0, a1) = c["per_s"], c["avg_ms"]
    if c["kind"] == "cpu":
        vol = f"{'more' if c['volume_aas'] > 0 else 'less'} work on CPU (executions/s {_ratio_words(r0, r1)})"
        lat = f"{'more' if c['latency_aas'] > 0 else 'less'} CPU per execution ({_ms(a0)} → {_ms(a1)} ms)"
    else:
        vol = f"{'more' if c['volume_aas'] > 0 else 'fewer'} {n} waits ({c['measure']} {_ratio_words(r0, r1)})"
        lat = f"{'slower' if c['latency_aas'] > 0 else 'faster'} {n} ({_ms(a0)} → {_ms(a1)} ms per wait)"
    return [(c["volume_aas"], vol), (c["latency_aas"], lat)]


def _background(s0: dict, s1: dict) -> list[dict]:
    """Background events that changed a lot: not DB time, but often the reason DB time changed."""
    out = []
    e0, e1 = s0["elapsed_s"], s1["elapsed_s"]
    for k in set(s0["bg"]) | set(s1["bg"]):
        if k == "log file parallel write":  # said with the write path, per write
            continue
        n0, t0, w0 = s0["bg"].get(k, (None, 0.0, None))
        n1, t1, w1 = s1["bg"].get(k, (None, 0.0, None))
        a, b = t0 / e0, t1 / e1
        if max(a, b) < BG_MIN_AAS or (a and b and max(a / b, b / a) < BG_FACTOR):
            continue
        avg = [1000.0 * t0 / w0 if w0 else None, 1000.0 * t1 / w1 if w1 else None]
        out.append({"name": n1 or n0, "before_per_s": a, "after_per_s": b, "avg_ms": avg,
                    "words": f"{n1 or n0} {_ratio_words(a, b)} (background time/s {fmt_num(a)} → {fmt_num(b)})"})
    return sorted(out, key=lambda x: -abs(x["after_per_s"] - x["before_per_s"]))


def _write_path_notes(s0: dict, s1: dict, bg: list[dict]) -> list[str]:
    """What changed under the commit path, in the seed's terms: LGWR write latency, redo block size, wastage."""
    notes = []
    m0, m1 = s0["metrics"], s1["metrics"]
    lg0, lg1 = s0["bg"].get("log file parallel write"), s1["bg"].get("log file parallel write")
    if lg0 and lg1 and lg0[2] and lg1[2] and min(lg0[1], lg1[1]) >= MIN_SPLIT_S:
        a0, a1 = 1000.0 * lg0[1] / lg0[2], 1000.0 * lg1[1] / lg1[2]
        if a0 and abs(a1 - a0) >= 0.2 * a0:
            notes.append(f"LGWR writes (log file parallel write) {fmt_value(a0, 'ms')} → {fmt_num(a1, 'ms')}")
    b0, b1 = m0.get("redo_block_size_est"), m1.get("redo_block_size_est")
    if b0 and b1 and b0 != b1:
        notes.append(f"redo block size {b0:,.0f} → {b1:,.0f} B (estimated from redo wastage per write)")
    w0, w1 = m0.get("redo_wastage_Bps"), m1.get("redo_wastage_Bps")
    if w0 and w1 and max(w0 / w1, w1 / w0) >= 2 and max(w0, w1) >= 0.1 * 2**20:
        notes.append(f"redo wastage {_ratio_words(w0, w1)} ({fmt_num(w0 / 2**20, 'MiB/s')} → {fmt_num(w1 / 2**20, 'MiB/s')})")
    return notes


def decompose(s0: dict, s1: dict) -> dict | None:
    """The change between two periods (``side_input`` of each), or None when either has no ledger or elapsed time."""
    led0, led1, e0, e1 = s0["ledger"], s1["ledger"], s0["elapsed_s"], s1["elapsed_s"]
    if not led0 or not led1 or not e0 or not e1:
        return None
    l0, l1 = _leaves(led0), _leaves(led1)
    x0, x1 = s0["load"]["executions_per_s"], s1["load"]["executions_per_s"]
    contributions = [_contribution(k, l0.get(k), l1.get(k), e0, e1, x0, x1) for k in dict.fromkeys([*l0, *l1])]
    contributions.sort(key=lambda c: -abs(c["delta_aas"]))
    aas0, aas1 = led0["db_time_s"] / e0, led1["db_time_s"] / e1
    total = sum(c["delta_aas"] for c in contributions)
    for c in contributions:
        c["pct_of_before"] = 100.0 * c["delta_aas"] / aas0 if aas0 else None
        for k in ("before_aas", "after_aas", "delta_aas", "volume_aas", "latency_aas", "pct_of_before"):
            if c.get(k) is not None:
                c[k] = round(c[k], 6)
    load = {k: {"label": label, "before": s0["load"][k], "after": s1["load"][k], "pct": _pct(s0["load"][k], s1["load"][k])}
            for k, label, _, _ in LOAD}
    bg = _background(s0, s1)
    notes = _write_path_notes(s0, s1, bg)
    parts = sorted((p for c in contributions for p in _parts(c) if p[0]), key=lambda p: -abs(p[0]))
    named = [c for c in contributions if c["kind"] != "remainder" and aas0
             and abs(100.0 * c["delta_aas"] / aas0) >= NOISE_PCT][:VERDICT_PARTS]
    verdict = _verdict(aas0, aas1, load, [_leaf_words(c, aas0) for c in named], bg, notes)
    return {"schema_version": CHANGE_SCHEMA_VERSION,
            "db_time_per_s": {"before": aas0, "after": aas1, "delta": aas1 - aas0, "pct": _pct(aas0, aas1)},
            "load": load, "contributions": contributions,
            "identity": {"formula": "sum of the leaves' delta_aas = DB time/s after - DB time/s before; each leaf's "
                                    "volume_aas + latency_aas = its delta_aas (midpoint split)",
                         "sum_delta_aas": round(total, 6), "delta_aas": round(aas1 - aas0, 6),
                         "residual_aas": round(aas1 - aas0 - total, 9)},
            "parts": [{"aas": round(a, 6), "pct_of_before": round(100.0 * a / aas0, 3) if aas0 else None, "words": w}
                      for a, w in parts[:12]],
            "background": bg[:6], "write_path": notes, "verdict": verdict}


def _verdict(aas0: float, aas1: float, load: dict, leaves: list[str], bg: list, notes: list) -> str:
    head = f"DB time {_ratio_words(aas0, aas1)} ({fmt_value(aas0, 'sessions')} → {fmt_value(aas1, 'sessions')} average active sessions)" if aas0 else \
        f"DB time {fmt_value(aas0, 'sessions')} → {fmt_value(aas1, 'sessions')} average active sessions"
    lw = [f"{v['label']} {_ratio_words(v['before'], v['after'])}" for v in load.values()
          if v["before"] and v["after"] is not None][:3]
    out = head + ("; load: " + ", ".join(lw) if lw else "; load not printed")
    if leaves:
        out += ". Largest changes (% of the first period's DB time): " + "; ".join(leaves)
    if notes:
        out += ". Write path: " + ", ".join(notes)
    if bg:
        out += ". Outside DB time: " + "; ".join(b["words"] for b in bg[:2])
    return out + "."
