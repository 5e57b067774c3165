"""The chart block of the HTML report: plain, JSON-ready numbers taken from the
analysis document and, when the caller has it, the parsed Report.

The analysis document (docs/analysis.md) carries metrics and findings but not
the parsed sections, so histograms, tablespace I/O and the DB time breakdown
are read from the Report. Every series keeps the report line it came from.
The block is embedded in the HTML as JSON (``<script type="application/json"
id="awrscope-data">``) so tests and the web app read the same numbers the SVG
charts draw. Pure: no I/O.
"""
from __future__ import annotations

import re

from ...model import Report
from ...metrics.events import time_by_wait_class
from ..common import owner_note
from ... import patterns

#: Events whose wait histograms are drawn (write path first, then the reference read).
HISTOGRAM_EVENTS = ("log file sync", "log file parallel write", "db file sequential read")
#: Histogram sections in the order their buckets grow (19c splits one histogram into several).
HISTOGRAM_SECTIONS = ("wait_histogram_us", "wait_histogram", "wait_histogram_32ms", "wait_histogram_64ms_2s",
                      "wait_histogram_4s_2m")
#: Redo figures shown as tiles (metric ids of the catalogue).
REDO_METRICS = {"redo_rate_Bps": "redo generated", "redo_write_size_B": "average redo write",
                "redo_wastage_pct": "redo wastage", "redo_block_size_est": "inferred redo block size",
                "redo_write_ms": "redo write time per write", "lfpw_ms_per_write": "log file parallel write per write",
                "commit_rate": "user commits", "redo_per_commit_B": "redo per commit",
                "log_switches_per_hour": "log switches", "minutes_between_switches": "minutes between switches"}
TOP_EVENTS = 10
TOP_IO_ROWS = 15

_TEMP = patterns.compile(r"temp", re.I)
_UNDO = patterns.compile(r"undo|rbs|rollback", re.I)


def io_kind(name: str | None) -> str | None:
    """'temp' / 'undo' for tablespaces and files the write path cares about (by name: TEMP*, UNDOTBS*, RBS)."""
    if not name:
        return None
    head = name.split()[0] if name.split() else name
    if _TEMP.search(head) or _TEMP.search(name.rsplit("/", 1)[-1]):
        return "temp"
    if _UNDO.search(head):
        return "undo"
    return None


def chart_data(doc: dict, report: Report | None = None) -> dict:
    """The ``charts`` block: db_time, commit_path, histograms, io, redo. Keys whose inputs are absent are None
    (or empty lists), never zeros."""
    metrics = None
    if report is not None and report.kind != "awr_diff":
        from ...metrics import wait_events
        metrics = wait_events(report)
    return {
        "db_time": _db_time(doc, report, metrics),
        "commit_path": _commit_path(doc),
        "histograms": _histograms(report) if report is not None else [],
        "io": _io(report) if report is not None else None,
        "redo": _redo(doc),
    }


def _pct(t: float | None, dbt: float | None) -> float | None:
    return None if t is None or not dbt else round(100.0 * t / dbt, 3)


def _db_time(doc: dict, report: Report | None, metrics) -> dict | None:
    dbt = doc["report"].get("db_time_s")
    m = doc.get("metrics", {})
    cpu = (m.get("db_cpu_s") or {}).get("value")
    if not dbt and cpu is None:
        return None
    cpu_line = next((s.get("line") for s in (m.get("db_cpu_s") or {}).get("source", [])), None)
    components = []
    if cpu is not None:
        components.append({"label": "DB CPU", "kind": "cpu", "time_s": round(cpu, 3), "pct": _pct(cpu, dbt),
                           "line": cpu_line})
    classes = [{"label": c["label"], "kind": "class", "time_s": c["time_s"], "pct": _pct(c["time_s"], dbt),
                "line": c["line"], **({"derived": c["derived"]} if c["derived"] else {})}
               for c in time_by_wait_class(report, metrics)]
    components += classes
    events = []
    if metrics is not None:
        for e in sorted(metrics.fg_events.values(), key=lambda e: -e.time_s)[:TOP_EVENTS]:
            if e.time_s <= 0:
                continue
            events.append({"label": e.name, "wait_class": e.wait_class, "time_s": round(e.time_s, 3),
                           "pct": _pct(e.time_s, dbt), "line": e.sources[0].line if e.sources else None,
                           "basis": e.basis})
    if cpu is not None:
        events.append({"label": "DB CPU", "wait_class": None, "time_s": round(cpu, 3), "pct": _pct(cpu, dbt),
                       "line": cpu_line, "basis": "time model"})
        events.sort(key=lambda e: -e["time_s"])
    known = sum(c["time_s"] for c in components)
    over = bool(dbt) and known > 1.01 * dbt
    other = (dbt - known) if dbt else None
    return {"db_time_s": dbt, "basis": doc["report"].get("db_time_basis"),
            "event_basis": doc["report"].get("event_basis"), "components": components,
            "unaccounted_s": round(other, 3) if other is not None and other > 0.005 * dbt else None,
            "exceeds_db_time": over,
            "events": events[:TOP_EVENTS]}


def _commit_path(doc: dict) -> dict | None:
    cp = doc.get("commit_path")
    if not cp or cp.get("lfs_ms") is None:
        return None
    return {
        "lfs_ms": cp.get("lfs_ms"), "lfs_waits": cp.get("lfs_waits"), "lfs_time_s": cp.get("lfs_time_s"),
        "pct_db_time": cp.get("pct_db_time"),
        "lgwr_ms_per_write": cp.get("lgwr_ms_per_write"), "lgwr_source": cp.get("lgwr_source"),
        "alpha": cp.get("alpha"),
        "io_part_s": cp.get("io_part_s"), "io_part_pct_db_time": cp.get("io_part_pct_db_time"),
        "non_io_part_s": cp.get("non_io_part_s"), "non_io_part_pct_db_time": cp.get("non_io_part_pct_db_time"),
        "non_io_range_pct_db_time": cp.get("non_io_range_pct_db_time"),
        "non_io_ms_per_commit": cp.get("non_io_ms_per_commit"), "non_io_owner": cp.get("non_io_owner"), "owner_note": owner_note(doc, cp),
    }


def _histograms(report: Report) -> list[dict]:
    """Per event, the histogram sections it appears in. 19c splits one histogram over several sections whose
    percentages all refer to the event's total waits and whose ranges chain (the overflow bucket '>=512us' of one
    is detailed by the next, which starts with the cumulative '<512us'): those are merged into one histogram.
    Sections that do not chain are drawn on their own."""
    out = []
    for event in HISTOGRAM_EVENTS:
        parts = []
        for key in HISTOGRAM_SECTIONS:
            sec = report.sections.get(key)
            row = sec.row(event) if sec is not None else None
            if row is None:
                continue
            buckets = [{"label": f, "pct": row.values.get(f)} for f, u in sec.units.items() if u == "%"]
            if not buckets or not any(b["pct"] for b in buckets):
                continue
            parts.append({"event": row.name, "sections": [key], "title": sec.title, "lines": [row.line],
                          "total_waits": row.values.get("total_waits"), "buckets": buckets})
        merged: list[dict] = []
        for p in parts:
            prev = merged[-1] if merged else None
            last = prev["buckets"][-1]["label"] if prev else ""
            if prev and last.startswith(">=") and p["buckets"][0]["label"] == "<" + last[2:]:
                prev["buckets"] = prev["buckets"][:-1] + p["buckets"][1:]
                prev["sections"] += p["sections"]
                prev["lines"] += p["lines"]
                prev["title"] = f"Wait Event Histogram, {len(prev['sections'])} sections merged"
                prev["total_waits"] = report.sections[prev["sections"][0]].row(event).values.get("total_waits")
            else:
                merged.append(p)
        for m in merged:
            m["section"], m["line"] = m["sections"][0], m["lines"][0]
        out += merged
    return out


_IO_FIELDS = {
    "tablespace_io": ("reads", "writes", "read_ms", "write_ms", "count"),
    "file_io": ("reads", "writes", "read_ms", "write_ms", "count"),
    "iostat_filetype": ("read_data_mb", "write_data_mb", "small_read_ms", "avg_ms", "MB"),
}


def _io(report: Report) -> dict | None:
    for key in ("tablespace_io", "file_io", "iostat_filetype"):
        sec = report.sections.get(key)
        if sec is None or not len(sec):
            continue
        rf, wf, rms, wms, unit = _IO_FIELDS[key]
        rows = []
        for row in sec:
            if not row.name or row.name.strip().upper() == "TOTAL":
                continue
            r, w = row.values.get(rf), row.values.get(wf)
            if r is None and w is None:
                continue
            rows.append({"name": row.name, "reads": r, "writes": w, "read_ms": row.values.get(rms),
                         "write_ms": row.values.get(wms), "kind": io_kind(row.name), "line": row.line})
        if not rows:
            continue
        rows.sort(key=lambda x: -((x["reads"] or 0) + (x["writes"] or 0)))
        # TEMP and UNDO always shown, even when small: they are the write-path suspects.
        top = rows[:TOP_IO_ROWS] + [x for x in rows[TOP_IO_ROWS:] if x["kind"]]
        return {"section": key, "title": sec.title, "unit": unit, "rows": top, "total_rows": len(rows)}
    return None


def _redo(doc: dict) -> list[dict]:
    m = doc.get("metrics", {})
    out = []
    for k, label in REDO_METRICS.items():
        x = m.get(k)
        if not x or x.get("value") is None:
            continue
        out.append({"metric": k, "label": label, "value": x["value"], "unit": x["unit"], "formula": x.get("formula"),
                    "note": x.get("note"), "lines": [s.get("line") for s in x.get("source", []) if s.get("line")]})
    return out
