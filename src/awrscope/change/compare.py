"""Before/after comparison of two report periods (docs/compare.md): pure functions
from parsed :class:`~awrscope.model.Report` objects to one JSON-ready dict.

The two sides are two reports of any kind (AWR/Statspack, text/HTML) or the two
periods of one compare-period report (``awrddrpt``), compared the same way.
Periods differ in length and load, so every volume is normalised per second and
per transaction before it is compared; latencies are compared as they are.
"""
from __future__ import annotations

from msgspec.structs import replace
import math

from ..analysis import analyze
from .timebase import _lp, with_time_base
from ..metrics import DEFAULT_ALPHA, derive
from ..metrics.events import time_by_wait_class
from ..oracle.events import BACKGROUND_ONLY, CPU_ROWS, NOT_DB_TIME_PREFIXES
from ..oracle.events import is_idle_row
from ..model import Report, normalise_name
from ..whatif import w1_faster_redo
from ..numfmt import fmt_num

COMPARE_SCHEMA_VERSION = "1.0"

#: A printed average is used when its rounding error is at most this share of it
#: (two significant digits from 0.20 up); otherwise 1000*time/waits is used.
PRINTED_AVG_MAX_ROUNDING = 0.025

#: Key metrics compared, in order: (id, label, unit, kind). kind "rate" values are
#: per second (and also shown per transaction); "latency"/"share"/"ratio" as they are.
KEY = (
    ("aas", "average active sessions (DB time/s)", "sessions", "rate"),
    ("db_cpu_per_s", "DB CPU per second", "s/s", "rate"),
    ("txn_per_s", "transactions/s", "1/s", "rate"),
    ("commits_per_s", "user commits/s", "1/s", "rate"),
    ("db_time_per_txn_ms", "DB time per transaction", "ms", "latency"),
    ("redo_Bps", "redo size/s", "B/s", "rate"),
    ("redo_per_txn_B", "redo per transaction", "B", "ratio"),
    ("redo_wastage_Bps", "redo wastage/s", "B/s", "rate"),
    ("redo_wastage_pct", "redo wastage share", "%", "share"),
    ("redo_writes_per_s", "redo writes/s", "1/s", "rate"),
    ("lfs_ms", "log file sync", "ms", "latency"),
    ("lfs_pct_db_time", "log file sync share of DB time", "%", "share"),
    ("lfpw_ms", "log file parallel write", "ms", "latency"),
    ("lfpw_ms_per_write", "log file parallel write per redo write", "ms", "latency"),
    ("redo_write_ms", "redo write time per write (statistics)", "ms", "latency"),
    ("synch_ms", "redo synch time per synch write (statistics)", "ms", "latency"),
    ("log_switches_per_hour", "log switches/h", "1/h", "ratio"),
    ("phys_write_blocks_ps", "physical writes (blocks)/s", "1/s", "rate"),
    ("temp_io_share", "TEMP I/O share of DB time", "%", "share"),
    ("undo_block_write_share", "UNDO share of block writes", "%", "share"),
    ("reuse_wait_share", "object-reuse waits share of DB time", "%", "share"),
)
_KEY_IDS = [k[0] for k in KEY]
#: The order in which the effect sentence names changes (write path first).
HEADLINE = ("lfs_ms", "lfpw_ms", "redo_write_ms", "txn_per_s", "aas", "redo_Bps", "redo_wastage_Bps",
            "log_switches_per_hour", "temp_io_share", "undo_block_write_share", "reuse_wait_share")
#: Load differing by more than this factor makes the periods "not comparable" (warning).
LOAD_FACTOR = 2.0


# ----------------------------------------------------------------------------- sides
def _printed_avg(report: Report, event: str) -> float | None:
    for key in ("wait_events_fg", "wait_events", "wait_events_bg", "top_events"):
        sec = report.sections.get(key)
        r = sec.row(event) if sec else None
        if r is not None and r.get("avg_wait_ms") is not None:
            return r.get("avg_wait_ms")
    return None


def _decimals(v: float) -> int:
    s = repr(float(v))
    if "e" in s:
        return 6
    return len(s.split(".")[1].rstrip("0")) if "." in s else 0


def _event_row(report: Report, m, name: str, elapsed: float | None, dbt: float | None, scope: str) -> dict:
    ev = (m.fg_events if scope == "fg" else m.bg_events).get(name)
    waits = ev.waits if ev else None
    if ev is not None and waits is None and elapsed:
        sec = report.sections.get("wait_events")
        r = sec.row(name) if sec else None
        if r is not None and r.get("waits_per_s") is not None:
            waits = r.get("waits_per_s") * elapsed  # compare-period reports print waits per second
    t = ev.time_s if ev else None
    computed = 1000.0 * t / waits if (t is not None and waits) else None
    printed = _printed_avg(report, name)
    avg, basis = computed, "1000*time/waits"
    if printed is not None and printed > 0:
        # relative rounding errors of the two candidates (half a unit of the last printed digit)
        err_p = 0.5 * 10 ** -_decimals(printed) / printed
        err_c = (0.5 * 10 ** -_decimals(t) / t) if t else math.inf
        if err_p <= PRINTED_AVG_MAX_ROUNDING or err_p < err_c or computed is None:
            avg, basis = printed, "printed average"
    return {"scope": scope, "name": ev.name if ev else name, "waits": waits, "time_s": t,
            "waits_per_s": waits / elapsed if (waits is not None and elapsed) else None,
            "time_per_s": t / elapsed if (t is not None and elapsed) else None,
            "avg_ms": avg, "avg_ms_basis": basis, "avg_ms_printed": printed, "avg_ms_computed": computed,
            "pct_db_time": 100.0 * t / dbt if (t is not None and dbt and scope == "fg") else None}


def _events_without_time(rep: Report, events: dict, elapsed: float | None, dbt: float | None) -> None:
    """Compare-period reports of some versions print an event's waits per second, average and
    % of DB time but no total time: the metrics layer skips such rows, so rebuild them here
    (time = waits x printed average, else % DB time x DB time)."""
    for key in ("wait_events", "top_events"):
        sec = rep.sections.get(key)
        for r in (sec.rows if sec else ()):
            if not r.name or r.get("time_s") is not None or is_idle_row(r.name, r.text):
                continue
            low = r.name.lower()
            scope = "bg" if (low in BACKGROUND_ONLY or low.startswith(NOT_DB_TIME_PREFIXES)) else "fg"
            if f"{scope}:{low}" in events or low in CPU_ROWS:
                continue
            waits = r.get("waits")
            if waits is None and r.get("waits_per_s") is not None and elapsed:
                waits = r.get("waits_per_s") * elapsed
            avg = r.get("avg_wait_ms")
            t = waits * avg / 1000.0 if (waits is not None and avg is not None) else \
                (r.get("pct_db_time") * dbt / 100.0 if (r.get("pct_db_time") is not None and dbt) else None)
            if t is None:
                continue
            events[f"{scope}:{low}"] = {
                "scope": scope, "name": r.name, "waits": waits, "time_s": t,
                "waits_per_s": waits / elapsed if (waits is not None and elapsed) else None,
                "time_per_s": t / elapsed if elapsed else None, "avg_ms": avg, "avg_ms_basis": "printed average",
                "avg_ms_printed": avg, "avg_ms_computed": None,
                "pct_db_time": 100.0 * t / dbt if (dbt and scope == "fg") else None}


def side(report: Report, config: dict | None = None, label: str = "") -> dict:
    """Identity, time base, key metrics, events, statistics and analysis of one period."""
    config = config or {}
    rep, ebasis = with_time_base(report)
    elapsed = rep.elapsed_s
    alpha = float(config.get("metrics", {}).get("alpha", DEFAULT_ALPHA))
    m = derive(rep, alpha=alpha)
    doc = analyze(rep, config)
    dbt = m.v("db_time_s") or rep.db_time_s
    h = rep.header
    events: dict[str, dict] = {}
    for scope, evs in (("fg", m.fg_events), ("bg", m.bg_events)):
        for name in evs:
            events[f"{scope}:{name}"] = _event_row(rep, m, name, elapsed, dbt, scope)
    _events_without_time(rep, events, elapsed, dbt)
    stats: dict[str, dict] = {}
    sec = rep.sections.get("instance_activity")
    for r in (sec.rows if sec else ()):
        if not r.name:
            continue
        tot = r.get("total")
        ps = r.get("per_second") if r.get("per_second") is not None else (tot / elapsed if tot is not None and elapsed else None)
        stats[normalise_name(r.name)] = {"total": tot, "per_s": ps}
    km = _key_metrics(rep, m, doc, elapsed, dbt, events, stats)
    from .decompose import side_input

    return {
        "change_input": side_input(rep, doc), "parsed": rep,
        "label": label,
        "source": {"path": rep.source_path, "sha256": rep.source_sha256},
        "report": {"kind": rep.kind, "format": rep.format, "version": rep.version, "db_name": h.db_name, "dbid": h.dbid,
                   "instances": rep.instance_names, "host": h.host, "cpus": h.cpus,
                   "begin_snap": h.begin.snap_id if h.begin else None, "end_snap": h.end.snap_id if h.end else None,
                   "begin_time": h.begin.time.isoformat(sep=" ") if h.begin and h.begin.time else None,
                   "end_time": h.end.time.isoformat(sep=" ") if h.end and h.end.time else None,
                   "elapsed_s": elapsed, "elapsed_basis": ebasis, "db_time_s": dbt},
        "metrics": km,
        "events": events,
        "wait_classes": [{"label": c["label"], "time_s": c["time_s"], "line": c["line"]}
                         for c in time_by_wait_class(rep, m)],
        "statistics": stats,
        "analysis": doc,
    }


def _key_metrics(rep: Report, m, doc: dict, elapsed, dbt, events: dict, stats: dict) -> dict:
    """The KEY metrics of one side: {id: {"value", "unit", "basis"}}."""
    def stat_rate(name: str) -> float | None:
        s = stats.get(name)
        return s["per_s"] if s else None

    out: dict[str, dict] = {}

    def put(mid: str, value, basis: str) -> None:
        unit = next(k[2] for k in KEY if k[0] == mid)
        out[mid] = {"value": value, "unit": unit, "basis": basis if value is not None else "missing"}

    mv = lambda k: (doc["metrics"].get(k) or {}).get("value")  # noqa: E731
    put("aas", dbt / elapsed if dbt and elapsed else None, "DB time / elapsed")
    cpu = m.v("db_cpu_s")
    put("db_cpu_per_s", cpu / elapsed if cpu is not None and elapsed else None, "DB CPU / elapsed")
    txn, tb = _lp(rep, "Transactions"), "Load Profile Transactions per second"
    if txn is None:
        c, rb = stat_rate("user commits"), stat_rate("user rollbacks")
        txn, tb = (c + (rb or 0.0), "(user commits + user rollbacks) / elapsed") if c is not None else (None, "")
    put("txn_per_s", txn, tb)
    put("commits_per_s", stat_rate("user commits"), "user commits / elapsed")
    put("db_time_per_txn_ms", 1000.0 * dbt / elapsed / txn if dbt and elapsed and txn else None, "DB time / transactions")
    redo, rbasis = _lp(rep, "Redo size"), "Load Profile Redo size per second"
    if redo is None:
        redo, rbasis = stat_rate("redo size"), "redo size / elapsed"
    put("redo_Bps", redo, rbasis)
    put("redo_per_txn_B", redo / txn if redo is not None and txn else None, "redo per second / transactions per second")
    put("redo_wastage_Bps", stat_rate("redo wastage"), "redo wastage / elapsed")
    put("redo_wastage_pct", mv("redo_wastage_pct"), "M36")
    put("redo_writes_per_s", stat_rate("redo writes"), "redo writes / elapsed")
    lfs = events.get("fg:log file sync") or events.get("bg:log file sync")
    put("lfs_ms", lfs["avg_ms"] if lfs else None, f"log file sync {lfs['avg_ms_basis']}" if lfs else "")
    put("lfs_pct_db_time", lfs["pct_db_time"] if lfs else None, "100 * FG time / DB time")
    lfpw = events.get("bg:log file parallel write") or events.get("fg:log file parallel write")
    put("lfpw_ms", lfpw["avg_ms"] if lfpw else None, f"log file parallel write {lfpw['avg_ms_basis']}" if lfpw else "")
    for k in ("lfpw_ms_per_write", "redo_write_ms", "synch_ms", "log_switches_per_hour", "phys_write_blocks_ps",
              "temp_io_share", "undo_block_write_share", "reuse_wait_share"):
        put(k, mv(k), "analysis metric " + k)
    return out


# ----------------------------------------------------------------------------- comparison
def _delta(a, b) -> dict:
    d: dict = {"before": a, "after": b, "diff": None, "pct": None, "ratio": None}
    if a is not None and b is not None:
        d["diff"] = b - a
        if a:
            d["pct"] = 100.0 * (b - a) / abs(a)
            d["ratio"] = b / a
    return d


def _fmt(v: float | None) -> str:
    if v is None:
        return "n/a"
    a = abs(v)
    if a >= 1e6:
        return f"{v / 1e6:,.1f}M"
    if a >= 1000:
        return f"{v:,.1f}"
    if a >= 10:
        return f"{v:.1f}"
    return fmt_num(v)


def pct_words(d: dict, decimals: int = 0) -> str:
    """'−47 %', '+23.6 %', '×15', '−99 %, 179× lower'. Percentages of latencies are whole, of rates one decimal."""
    r, p = d["ratio"], d["pct"]
    if r is not None and r >= 3:
        return f"×{r:.0f}" if r >= 10 else f"×{r:.1f}"
    if p is None:
        return "new" if d["before"] in (0, 0.0) and d["after"] else "n/a"
    sign = "+" if p > 0 else "−" if p < 0 else "±"
    words = f"{sign}{abs(p):.{decimals}f} %"
    if r is not None and 0 < r <= 1 / 3:
        words += f", {1 / r:.0f}× lower" if 1 / r >= 10 else f", {1 / r:.1f}× lower"
    return words


def _sentence(mid: str, d: dict) -> str:
    label, unit = next((k[1], k[2]) for k in KEY if k[0] == mid)
    if mid in ("txn_per_s", "aas") or unit in ("B/s",):
        return f"{label} {pct_words(d, 1)}" if d["ratio"] is not None and d["ratio"] < 3 else \
            f"{label} {_fmt(d['before'])} → {_fmt(d['after'])} ({pct_words(d, 1)})"
    u = "" if unit in ("1/s", "1/h", "sessions") else f" {unit}" if unit != "%" else " %"
    return f"{label} {_fmt(d['before'])} → {_fmt(d['after'])}{u} ({pct_words(d)})"


def _effect(metrics: dict) -> list[str]:
    """Plain-word statements, write path first; a worsening redo wastage is stated as the price."""
    parts, price = [], []
    for mid in HEADLINE:
        d = metrics.get(mid)
        if not d or d["before"] is None or d["after"] is None or d["before"] == d["after"] == 0:
            continue
        if d["pct"] is not None and abs(d["pct"]) < 5 and mid not in ("txn_per_s",):
            continue
        if mid == "redo_wastage_Bps" and d["ratio"] and d["ratio"] >= 2:
            price.append(f"redo wastage ×{d['ratio']:.0f}")
            continue
        parts.append(_sentence(mid, d))
    if price:
        parts.append("at the price of " + ", ".join(price))
    return parts


def _comparability(a: dict, b: dict) -> dict:
    ra, rb = a["report"], b["report"]
    warnings: list[str] = []

    def differ(field: str, what: str) -> None:
        if ra[field] and rb[field] and str(ra[field]).upper() != str(rb[field]).upper():
            warnings.append(f"different {what}: {ra[field]} vs {rb[field]}")

    differ("dbid", "database (DBID)")
    differ("db_name", "database name")
    differ("version", "Oracle version")
    differ("cpus", "CPU count")
    notes: list[str] = []
    # a different load does not make two periods of one database incomparable: it is often the incident itself,
    # and the change in DB time is split into load and latency ("change"); it is said, not held against them
    for mid, what in (("aas", "load (average active sessions)"), ("txn_per_s", "load (transactions/s)")):
        x, y = a["metrics"][mid]["value"], b["metrics"][mid]["value"]
        if x and y and max(x / y, y / x) > LOAD_FACTOR:
            notes.append(f"very different {what}: {_fmt(x)} vs {_fmt(y)} (more than ×{LOAD_FACTOR:g}): see what changed")
    ea, eb = ra["elapsed_s"], rb["elapsed_s"]
    if ea and eb and max(ea / eb, eb / ea) > 4:
        warnings.append(f"very different period lengths: {ea:,.0f} s vs {eb:,.0f} s (compared per second)")
    if ea is None or eb is None:
        warnings.append("elapsed time unknown on one side: rates per second cannot be compared")
    return {"comparable": not warnings, "warnings": warnings, "notes": notes}


def _with_headline(doc: dict) -> list[dict]:
    """The findings and the verdict's headline (G01): how the top of DB time moved belongs in a comparison."""
    h = (doc.get("verdict") or {}).get("top_of_db_time")
    return doc["findings"] + ([h] if h else [])


def _findings_delta(da: dict, db: dict) -> list[dict]:
    fa = {f["id"]: f for f in _with_headline(da)}
    fb = {f["id"]: f for f in _with_headline(db)}
    out = []
    for fid in list(fa) + [k for k in fb if k not in fa]:
        x, y = fa.get(fid), fb.get(fid)
        pa = x["impact"]["pct_db_time"] if x else None
        pb = y["impact"]["pct_db_time"] if y else None
        status = "appeared" if x is None else "disappeared" if y is None else "changed"
        if status == "changed" and x["severity"] == y["severity"] and (pa is None or pb is None or abs(pb - pa) < 1.0):
            status = "unchanged"
        f = y or x
        out.append({"id": fid, "title": f["title"], "status": status,
                    "severity_before": x["severity"] if x else None, "severity_after": y["severity"] if y else None,
                    "pct_db_time_before": pa, "pct_db_time_after": pb})
    order = {"appeared": 0, "disappeared": 1, "changed": 2, "unchanged": 3}
    out.sort(key=lambda r: order[r["status"]])
    return out


def _whatif_checks(a: dict, b: dict, alpha: float) -> list[dict]:
    """Falsify the what-if models of BEFORE against the AFTER measurement."""
    checks: list[dict] = []
    measured_lfs = b["metrics"]["lfs_ms"]["value"]
    for f in a["analysis"]["findings"]:
        for w in f.get("whatif", []):
            res = w.get("result", {})
            if w["id"] == "W1" and res.get("lfs_ms_after") and measured_lfs is not None:
                checks.append(_check(w["id"], f"{f['id']}: {w['title']}", "lfs_ms", res["lfs_ms_after"], measured_lfs,
                                     "ms", "the AFTER redo latency may differ from the what-if's target"))
            elif w["id"] == "W1":
                checks.append({"id": w["id"], "finding": f["id"], "title": w["title"], "checked": False,
                               "reason": "not testable because the AFTER report prints no log file sync average"})
    from .whatif_check import check_whatifs

    checks += check_whatifs(a, b)
    # W1 replayed with the redo write latency AFTER actually achieved: the falsifiable form of the model.
    lkey = "lfpw_ms_per_write" if a["metrics"]["lfpw_ms_per_write"]["value"] and b["metrics"]["lfpw_ms_per_write"]["value"] \
        else "lfpw_ms"
    L, Lp = a["metrics"][lkey]["value"], b["metrics"][lkey]["value"]
    lfs = a["events"].get("fg:log file sync")
    if L and Lp and lfs and lfs["avg_ms"] and lfs["waits"] and measured_lfs is not None:
        w = w1_faster_redo(target_ms=Lp, L=L, lfs_ms=lfs["avg_ms"], waits=lfs["waits"], lfs_time_s=lfs["time_s"],
                           db_time_s=a["report"]["db_time_s"], alpha=alpha)
        c = _check("W1", f"replayed with the measured AFTER latency ({lkey} {fmt_num(L, 'ms')} → {fmt_num(Lp, 'ms')})", "lfs_ms",
                   w["result"]["lfs_ms_after"], measured_lfs, "ms",
                   "O (non-I/O part) held constant; alpha in [1, 2]")
        c["inputs"] = {k: w["inputs"][k] for k in ("L_ms", "lfs_ms", "lfs_waits", "target_ms", "alpha")}
        checks.append(c)
    return checks


def _check(wid: str, title: str, metric: str, rng: list, measured: float, unit: str, note: str) -> dict:
    lo, hi = min(rng), max(rng)
    if measured < lo:
        err, verdict = measured - lo, "better than predicted (model conservative)"
    elif measured > hi:
        err, verdict = measured - hi, "worse than predicted (model optimistic)"
    else:
        err, verdict = 0.0, "within the predicted range"
    mid = (lo + hi) / 2
    return {"id": wid, "title": title, "checked": True, "metric": metric, "unit": unit,
            "predicted": [lo, hi], "measured": measured, "error": err,
            "error_pct": 100.0 * err / (lo if measured < lo else hi) if (lo if measured < lo else hi) else None,
            "error_vs_mid_pct": 100.0 * (measured - mid) / mid if mid else None, "verdict": verdict, "note": note}


def scalability(t_low: float, t_high: float, n_low: float, n_high: float) -> float:
    """M103 generalised to any stream ratio k = n_high/n_low: s = (k*t_low/t_high - 1)/(k - 1);
    for k = 2 exactly the spec's s = 2*t5/t10 - 1 (1 perfect scaling, 0 no gain, < 0 throughput falls)."""
    k = n_high / n_low
    if k <= 1 or t_high <= 0:
        raise ValueError("needs n_high > n_low and a positive elapsed time")
    return (k * t_low / t_high - 1.0) / (k - 1.0)


def compare_sides(a: dict, b: dict, config: dict | None = None, streams: tuple[float, float] | None = None,
                  run_elapsed: tuple[float, float] | None = None, mode: str = "two reports", comparison=None) -> dict:
    config = config or {}
    alpha = float(config.get("metrics", {}).get("alpha", DEFAULT_ALPHA))
    metrics = {}
    for mid, label, unit, kind in KEY:
        d = _delta(a["metrics"][mid]["value"], b["metrics"][mid]["value"])
        d.update({"label": label, "unit": unit, "kind": kind})
        if kind == "rate":
            ta, tb = a["metrics"]["txn_per_s"]["value"], b["metrics"]["txn_per_s"]["value"]
            d["per_txn"] = _delta(d["before"] / ta if d["before"] is not None and ta else None,
                                  d["after"] / tb if d["after"] is not None and tb else None)
        metrics[mid] = d
    events = []
    for key in list(a["events"]) + [k for k in b["events"] if k not in a["events"]]:
        x, y = a["events"].get(key, {}), b["events"].get(key, {})
        scope, name = key.split(":", 1)
        events.append({"event": x.get("name") or y.get("name") or name, "scope": scope,
                       "avg_ms": _delta(x.get("avg_ms"), y.get("avg_ms")),
                       "waits_per_s": _delta(x.get("waits_per_s"), y.get("waits_per_s")),
                       "time_per_s": _delta(x.get("time_per_s"), y.get("time_per_s")),
                       "pct_db_time": _delta(x.get("pct_db_time"), y.get("pct_db_time"))})
    events.sort(key=lambda e: -max(e["time_per_s"]["before"] or 0, e["time_per_s"]["after"] or 0))
    ta, tb = a["metrics"]["txn_per_s"]["value"], b["metrics"]["txn_per_s"]["value"]
    stats = []
    for name in list(a["statistics"]) + [k for k in b["statistics"] if k not in a["statistics"]]:
        x, y = a["statistics"].get(name, {}), b["statistics"].get(name, {})
        pa, pb = x.get("per_s"), y.get("per_s")
        stats.append({"statistic": name, "per_s": _delta(pa, pb),
                      "per_txn": _delta(pa / ta if pa is not None and ta else None, pb / tb if pb is not None and tb else None)})
    scal = None
    if streams:
        ea, eb = run_elapsed or (a["report"]["elapsed_s"], b["report"]["elapsed_s"])
        (n1, t1), (n2, t2) = sorted([(streams[0], ea), (streams[1], eb)])
        scal = {"streams": [n1, n2], "elapsed_s": [t1, t2],
                "elapsed_basis": "given" if run_elapsed else "report elapsed time",
                "formula": "s = (k*t_low/t_high - 1)/(k - 1), k = n_high/n_low; k = 2: s = 2*t5/t10 - 1 (M103)",
                "s": scalability(t1, t2, n1, n2) if t1 and t2 and n2 > n1 else None}
    slim = lambda s: {k: v for k, v in s.items() if k not in ("analysis", "change_input", "parsed")}  # noqa: E731
    from .decompose import decompose
    from .sql import sql_change

    change = decompose(a["change_input"], b["change_input"])
    sqlc = sql_change(a["parsed"], b["parsed"], a["report"]["elapsed_s"], b["report"]["elapsed_s"], comparison,
                      (a["report"]["db_time_s"], b["report"]["db_time_s"]))
    return {
        "schema_version": COMPARE_SCHEMA_VERSION,
        "kind": "compare",
        "mode": mode,
        "before": slim(a) | {"findings": [_fsum(f) for f in a["analysis"]["findings"]]},
        "after": slim(b) | {"findings": [_fsum(f) for f in b["analysis"]["findings"]]},
        "comparability": _comparability(a, b),
        "change": change,
        "sql_change": sqlc,
        "effect": _effect(metrics),
        "metrics": metrics,
        "events": events,
        "statistics": stats,
        "findings": _findings_delta(a["analysis"], b["analysis"]),
        "whatif_checks": _whatif_checks(a, b, alpha),
        "scalability": scal,
    }


def _fsum(f: dict) -> dict:
    return {"id": f["id"], "title": f["title"], "severity": f["severity"], "pct_db_time": f["impact"]["pct_db_time"]}


def compare(before: Report, after: Report | None = None, config: dict | None = None,
            streams: tuple[float, float] | None = None, run_elapsed: tuple[float, float] | None = None) -> dict:
    """Compare two reports, or the two periods of one compare-period report (``after`` None)."""
    if after is None:
        if not before.periods or len(before.periods) != 2:
            raise ValueError(f"{before.source_path}: not a compare-period report with two periods; give two reports")
        p1, p2 = before.periods
        for p in (p1, p2):
            p.source_path = p.source_path or before.source_path
            p.source_sha256 = p.source_sha256 or before.source_sha256
        a, b = side(p1, config, "1st period"), side(p2, config, "2nd period")
        return compare_sides(a, b, config, streams, run_elapsed, mode="compare-period report",
                             comparison=(before.diff or {}).get("sql_comparison_elapsed"))
    for r in (before, after):
        if r.kind == "awr_diff":
            raise ValueError(f"{r.source_path}: a compare-period report cannot be one side of a comparison; "
                             "give it alone to compare its two periods")
    return compare_sides(side(before, config, "before"), side(after, config, "after"), config, streams, run_elapsed)

