"""Trend (one database, many snapshot windows) and fleet (many databases) views
(docs/compare.md). Pure: windows are built from parsed reports by
:func:`windows_of`, then grouped and ranked by :func:`trend` / :func:`fleet` /
:func:`build`."""
from __future__ import annotations

from datetime import datetime

from .compare import side
from ..model import Report

TREND_SCHEMA_VERSION = "1.0"

#: The series of a trend, in order: (id, label, unit).
SERIES = (
    ("db_time_s", "DB time", "s"),
    ("aas", "average active sessions", "sessions"),
    ("lfs_ms", "log file sync", "ms"),
    ("redo_write_ms", "redo write time per write", "ms"),
    ("redo_MBps", "redo MB/s", "MB/s"),
    ("commits_per_s", "user commits/s", "1/s"),
    ("log_switches_per_hour", "log switches/h", "1/h"),
    ("temp_io_share", "TEMP I/O share of DB time", "%"),
    ("undo_block_write_share", "UNDO share of block writes", "%"),
)
#: Report kinds that are not snapshot windows of their own
NOT_TRENDED = {"ash": "an ASH report", "addm": "an ADDM report"}
#: A pause longer than this between two windows of one instance is a gap (seconds).
GAP_SLACK_S = 120.0


def windows_of(report: Report, config: dict | None = None) -> list[dict]:
    """One window per snapshot period (a compare-period report gives two). JSON-ready, picklable.
    An ASH or ADDM report is another view of a window an AWR report already covers, with none of the
    trended metrics but DB time: it gives no window (the caller says it skipped it)."""
    if report.kind in NOT_TRENDED:
        return []
    if report.kind == "awr_diff" and report.periods:
        out = []
        for k, p in enumerate(report.periods):
            p.source_path = p.source_path or report.source_path
            out.append(_window(p, config, f"period {k + 1} of a compare-period report"))
        return out
    return [_window(report, config, None)]


def _window(report: Report, config: dict | None, note: str | None) -> dict:
    s = side(report, config)
    r, m = s["report"], s["metrics"]
    doc = s["analysis"]
    redo = m["redo_Bps"]["value"]
    commits = m["commits_per_s"]["value"]
    values = {
        "db_time_s": r["db_time_s"], "aas": m["aas"]["value"], "lfs_ms": m["lfs_ms"]["value"],
        "redo_write_ms": m["redo_write_ms"]["value"], "redo_MBps": redo / 2**20 if redo is not None else None,
        "commits_per_s": commits if commits is not None else m["txn_per_s"]["value"],
        "log_switches_per_hour": m["log_switches_per_hour"]["value"], "temp_io_share": m["temp_io_share"]["value"],
        "undo_block_write_share": m["undo_block_write_share"]["value"],
    }
    elapsed = r["elapsed_s"]
    cpu_aas = m["db_cpu_per_s"]["value"]
    # DB time over time by wait class, as average active sessions (seconds / elapsed): Enterprise Manager's picture
    by_class = {}
    if elapsed:
        if cpu_aas is not None:
            by_class["CPU"] = cpu_aas
        for c in s["wait_classes"]:
            by_class[c["label"]] = c["time_s"] / elapsed
        rest = (r["db_time_s"] or 0.0) / elapsed - sum(by_class.values())
        if by_class and rest > 0.01 * ((r["db_time_s"] or 0.0) / elapsed):
            by_class["unaccounted"] = rest  # DB time neither CPU nor a printed wait: CPU queue, unprinted events
    findings = [{"id": f["id"], "title": f["title"], "severity": f["severity"], "pct_db_time": f["impact"]["pct_db_time"],
                 "db_time_s": f["impact"]["db_time_s"], "role": f.get("role", "cause")} for f in doc["findings"]]
    # score: average active sessions the window's causes claim on its ledger (disjoint claims: they add up; views,
    # which see the same time by statement, do not); the write path (R rules) is kept as a column of its own
    lost = sum(f["db_time_s"] or 0.0 for f in findings if f["role"] == "cause")
    lost_write = sum(f["db_time_s"] or 0.0 for f in findings if f["role"] == "cause" and f["id"].startswith("R"))
    h = report.header
    startup = h.instances[0].startup_time.isoformat(sep=" ") if h.instances and h.instances[0].startup_time else None
    return {
        "path": r and s["source"]["path"], "note": note, "kind": r["kind"], "format": r["format"], "version": r["version"],
        "db_name": r["db_name"], "dbid": r["dbid"], "instance": (r["instances"] or [None])[0], "host": r["host"],
        "startup_time": startup, "begin_snap": r["begin_snap"], "end_snap": r["end_snap"],
        "begin_time": r["begin_time"], "end_time": r["end_time"], "elapsed_s": r["elapsed_s"],
        "values": values, "aas_by_class": {k: round(v, 4) for k, v in by_class.items()}, "findings": findings,
        "score": lost / r["elapsed_s"] if r["elapsed_s"] else lost / 3600.0,
        "write_path_score": lost_write / r["elapsed_s"] if r["elapsed_s"] else lost_write / 3600.0,
        "restarted": any(i["level"] == "error" and "restart" in i["message"] for i in doc["issues"]),
    }


def db_key(w: dict) -> str:
    """Group by DBID when printed (a compare-period text report may print the instance name
    in place of the DB name), else by name."""
    return f"DBID {w['dbid']}" if w["dbid"] else (w["db_name"] or "?").upper()


def _t(s: str | None) -> datetime | None:
    return datetime.fromisoformat(s) if s else None


def _order(w: dict) -> tuple:
    return (_t(w["begin_time"]) or datetime.max, w["begin_snap"] if w["begin_snap"] is not None else 1 << 62,
            w["instance"] or "", w["path"] or "")


def _continuity(windows: list[dict]) -> list[dict]:
    """Gaps, overlaps, duplicates and restarts between consecutive windows of each instance."""
    out: list[dict] = []
    by_inst: dict[str, list[int]] = {}
    for k, w in enumerate(windows):
        by_inst.setdefault((w["instance"] or "?").lower(), []).append(k)
    for inst, idx in by_inst.items():
        for i, j in zip(idx, idx[1:]):
            a, b = windows[i], windows[j]
            ea, bb = _t(a["end_time"]), _t(b["begin_time"])
            ba, eb = _t(a["begin_time"]), _t(b["end_time"])
            if ba and ba == bb and ea == eb:
                out.append({"type": "duplicate", "windows": [i, j], "instance": inst,
                            "detail": f"the same window is reported twice ({a['path']}, {b['path']})"})
                continue
            if a["startup_time"] and b["startup_time"] and a["startup_time"] != b["startup_time"]:
                out.append({"type": "restart", "windows": [i, j], "instance": inst,
                            "detail": f"instance startup time changed {a['startup_time']} -> {b['startup_time']}"})
            if ea and bb:
                d = (bb - ea).total_seconds()
                if d > GAP_SLACK_S:
                    out.append({"type": "gap", "windows": [i, j], "instance": inst, "seconds": d,
                                "detail": f"no report covers {a['end_time']} .. {b['begin_time']} ({d / 60:,.0f} min)"})
                elif d < -GAP_SLACK_S:
                    out.append({"type": "overlap", "windows": [i, j], "instance": inst, "seconds": -d,
                                "detail": f"windows overlap by {-d / 60:,.0f} min: totals are not additive"})
            elif a["end_snap"] is not None and b["begin_snap"] is not None and a["end_snap"] != b["begin_snap"]:
                kind = "gap" if b["begin_snap"] > a["end_snap"] else "overlap"
                out.append({"type": kind, "windows": [i, j], "instance": inst,
                            "detail": f"snapshots {a['end_snap']} -> {b['begin_snap']}"})
        for k in idx:
            if windows[k]["restarted"]:
                out.append({"type": "restart", "windows": [k], "instance": inst,
                            "detail": "the report says the instance restarted inside this window: its deltas are invalid"})
    return out


#: A window is flagged when its average active sessions are this many robust standard deviations (1.4826 x the
#: median absolute deviation) from the median of its baseline; the baseline needs at least BASELINE_MIN windows.
ROBUST_Z = 3.5
BASELINE_MIN = 4


def _robust_z(x: float, xs: list[float]) -> tuple[float | None, float, float]:
    """(z, median, MAD) of x against xs: z = (x - median) / (1.4826 MAD), None when the MAD is 0."""
    from statistics import median

    med = median(xs)
    mad = median(abs(v - med) for v in xs)
    return ((x - med) / (1.4826 * mad) if mad else None), med, mad


def _baselines(ws: list[dict]) -> None:
    """Each window's change against the previous one and against a baseline of comparable windows: the other
    windows of the same hour of day when there are at least BASELINE_MIN, else all the others. Rates per second
    (average active sessions), so that windows of unequal length compare."""
    aas = [(w["values"] or {}).get("aas") for w in ws]
    hours = [_t(w["begin_time"]).hour if _t(w["begin_time"]) else None for w in ws]
    for k, w in enumerate(ws):
        prev = aas[k - 1] if k else None
        w["change_vs_previous"] = ({"aas": round(aas[k] - prev, 4), "pct": round(100.0 * (aas[k] - prev) / prev, 1) if prev else None}
                                   if aas[k] is not None and prev is not None else None)
        same = [aas[j] for j in range(len(ws)) if j != k and aas[j] is not None and hours[j] is not None and hours[j] == hours[k]]
        others = [aas[j] for j in range(len(ws)) if j != k and aas[j] is not None]
        base, kind = (same, "same hour of day") if len(same) >= BASELINE_MIN else (others, "all other windows")
        if aas[k] is None or len(base) < BASELINE_MIN:
            w["baseline"] = None
            continue
        z, med, mad = _robust_z(aas[k], base)
        w["baseline"] = {"kind": kind, "size": len(base), "median_aas": round(med, 4), "mad_aas": round(mad, 4),
                         "robust_z": None if z is None else round(z, 2), "flag": z is not None and abs(z) >= ROBUST_Z,
                         "method": f"robust z-score: (AAS - median) / (1.4826 x MAD), flagged at |z| >= {ROBUST_Z}"}


def trend(windows: list[dict], errors: list[dict] | None = None) -> dict:
    """The trend document of one database's windows."""
    ws = sorted(windows, key=_order)
    for k, w in enumerate(ws):
        w["index"] = k
    _baselines(ws)
    fired: dict[str, dict] = {}
    for k, w in enumerate(ws):
        for f in w["findings"]:
            e = fired.setdefault(f["id"], {"id": f["id"], "title": f["title"], "windows": [], "max_pct_db_time": None,
                                           "worst_severity": f["severity"], "role": f.get("role", "cause")})
            e["windows"].append(k)
            if f["pct_db_time"] is not None and (e["max_pct_db_time"] is None or f["pct_db_time"] > e["max_pct_db_time"]):
                e["max_pct_db_time"], e["title"] = f["pct_db_time"], f["title"]
            e["worst_severity"] = _worse(e["worst_severity"], f["severity"])
    first = ws[0] if ws else {}
    return {
        "schema_version": TREND_SCHEMA_VERSION, "kind": "trend",
        "database": {"key": _db_label(ws), "db_name": first.get("db_name"), "dbid": first.get("dbid"),
                     "instances": sorted({w["instance"] for w in ws if w["instance"]})},
        "series_meta": [{"id": i, "label": lab, "unit": u} for i, lab, u in SERIES],
        "windows": ws,
        "series": {i: [w["values"].get(i) for w in ws] for i, _l, _u in SERIES},
        "findings": sorted(fired.values(), key=lambda e: (e["role"] == "view", -(e["max_pct_db_time"] or 0))),
        # worst first by the sessions the findings claim, then by average active sessions
        "worst": sorted(range(len(ws)), key=lambda k: (-ws[k]["score"], -((ws[k]["values"] or {}).get("aas") or 0.0))),
        "continuity": _continuity(ws),
        "errors": errors or [],
    }


def _db_label(ws: list[dict]) -> str | None:
    if not ws:
        return None
    names = sorted({(w["db_name"] or "?").upper() for w in ws})
    return "/".join(names) + (f" ({ws[0]['dbid']})" if ws[0]["dbid"] else "")


_SEV = ["critical", "major", "moderate", "minor", "info"]


def _worse(a: str, b: str) -> str:
    return a if _SEV.index(a) <= _SEV.index(b) else b


def fleet(windows: list[dict], errors: list[dict] | None = None) -> dict:
    """One line per database, worst first, each with its trend; error rows listed."""
    groups: dict[str, list[dict]] = {}
    for w in windows:
        groups.setdefault(db_key(w), []).append(w)
    dbs = []
    for key, ws in groups.items():
        t = trend(ws)
        worst = t["worst"][0] if t["windows"] else None
        # the causes first (views of their time by statement or segment after them), each by its largest share
        top = t["findings"][:3]
        dbs.append({"key": t["database"]["key"], "db_name": t["database"]["db_name"], "dbid": t["database"]["dbid"],
                    "instances": t["database"]["instances"], "windows": len(ws),
                    "score": t["windows"][worst]["score"] if worst is not None else 0.0, "worst_window": worst,
                    "top_findings": [{"id": f["id"], "title": f["title"], "severity": f["worst_severity"],
                                      "max_pct_db_time": f["max_pct_db_time"], "windows": len(f["windows"])} for f in top],
                    "trend": t})
    dbs.sort(key=lambda d: (-d["score"], d["key"]))
    return {"schema_version": TREND_SCHEMA_VERSION, "kind": "fleet", "databases": dbs, "errors": errors or []}


def build(windows: list[dict], errors: list[dict] | None = None) -> dict:
    """A trend when every window belongs to one database, else a fleet."""
    if len({db_key(w) for w in windows}) <= 1:
        return trend(windows, errors)
    return fleet(windows, errors)


def in_window(begin: str | None, end: str | None, since: datetime | None, until: datetime | None) -> bool | None:
    """Whether a window [begin, end] overlaps [since, until] (--begin/--end); None when its times are not printed."""
    if since is None and until is None:
        return True
    if not begin:
        return None
    b = datetime.fromisoformat(begin)
    e = datetime.fromisoformat(end) if end else b
    return (since is None or e >= since) and (until is None or b <= until)


def collect_windows(rows, since: datetime | None = None, until: datetime | None = None,
                    skipped: list[tuple[str, str]] | None = None) -> tuple[list[dict], list[dict], list[str]]:
    """The loader's rows of windows_of to (windows in the range, error rows, messages): what the trend command
    and the MCP tool share. An ASH or ADDM report views a window an AWR report covers: skipped, summed up."""
    from ..loader import skip_summary

    skipped = skipped if skipped is not None else []
    windows, errors, notes = [], [], []
    left_out = 0
    for name, ws, err in rows:
        if err:
            errors.append({"path": name, "error": err})
            notes.append(err)
        elif not ws:
            skipped.append((name, "ASH/ADDM: a view of a window, not trended"))
        else:
            kept = [w for w in ws if in_window(w["begin_time"], w["end_time"], since, until)]
            left_out += len(ws) - len(kept)
            windows.extend(kept)
    if skip_summary(skipped):
        notes.append(skip_summary(skipped))
    if left_out:
        notes.append(f"--begin/--end left out {left_out} window(s) outside the range or without times")
    return windows, errors, notes
