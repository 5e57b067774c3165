"""View models: what the templates show, computed in Python (charts as SVG Markup, tables as cells)."""
from __future__ import annotations

from markupsafe import Markup

from ..model import Report
from . import svg
from .data import chart_data, io_kind

#: Colour class per wait class (CSS decides the colour, light and dark).
CLASS_COLOUR = {"db cpu": "cpu", "commit": "commit", "user i/o": "uio", "system i/o": "sio",
                "configuration": "cfg", "concurrency": "conc", "application": "app", "other": "oth",
                "cluster": "clu", "network": "net", "scheduler": "sch", "administrative": "adm", "queueing": "oth"}
EVENT_COLOUR = {"log file sync": "commit", "log file parallel write": "sio", "db file sequential read": "uio",
                "db file scattered read": "uio", "direct path write temp": "uio", "direct path read temp": "uio",
                "direct path write": "uio", "direct path read": "uio", "log buffer space": "cfg",
                "db file parallel write": "sio"}
MAX_TABLE_ROWS = 400
KEY_METRICS = ("elapsed_s", "db_time_s", "aas", "db_cpu_s", "host_cpu_busy_pct", "redo_rate_Bps", "commit_rate",
               "redo_per_commit_B", "lfs_ms", "lfpw_ms_per_write", "redo_write_ms", "synch_ms", "lfs_lfpw_ratio",
               "non_io_residual_ms", "log_switches_per_hour", "redo_block_size_est", "redo_wastage_pct",
               "temp_io_share", "undo_block_write_share", "reuse_wait_share")


def _cls(name: str | None, wait_class: str | None = None) -> str:
    if wait_class and wait_class.lower() in CLASS_COLOUR:
        return CLASS_COLOUR[wait_class.lower()]
    if name and name.lower() in CLASS_COLOUR:
        return CLASS_COLOUR[name.lower()]
    return EVENT_COLOUR.get((name or "").lower(), "s0")


def analysis_view(doc: dict, report: Report | None = None) -> dict:
    charts = chart_data(doc, report)
    r = doc["report"]
    title = f"awrscope: {r.get('db_name') or '?'} snaps {r.get('begin_snap')}-{r.get('end_snap')}"
    return {"title": title, "doc": doc, "report": r, "charts": charts, "svg": _charts_svg(charts),
            "key_metrics": _key_metrics(doc), "tables": section_tables(report) if report is not None else [],
            "has_report": report is not None, "na_groups": _na_groups(doc)}


def _na_groups(doc: dict) -> list[dict]:
    groups: dict[str, list[str]] = {}
    for n in doc.get("not_applicable", []):
        groups.setdefault(", ".join(n["needs"]), []).append(n["id"])
    return [{"needs": k, "ids": sorted(v)} for k, v in groups.items()]


def _key_metrics(doc: dict) -> list[dict]:
    m = doc.get("metrics", {})
    out = []
    for k in KEY_METRICS:
        x = m.get(k)
        if x and x.get("value") is not None:
            out.append({"id": k, "value": x["value"], "unit": x["unit"], "formula": x.get("formula"),
                        "lines": [s.get("line") for s in x.get("source", []) if s.get("line")]})
    return out


def _charts_svg(c: dict) -> dict:
    out: dict[str, Markup | list] = {}
    dt = c.get("db_time")
    if dt:
        parts = [{"label": x["label"], "value": x["time_s"], "cls": _cls(x["label"])} for x in dt["components"]]
        if dt.get("unaccounted_s"):
            parts.append({"label": "other / unattributed", "value": dt["unaccounted_s"], "cls": "rest"})
        out["db_time_split"] = svg.stacked(parts, label="DB time: CPU and wait classes", kind="db_time_split",
                                           total=dt["db_time_s"] if dt["db_time_s"] and
                                           dt["db_time_s"] >= sum(p["value"] for p in parts) else None)
        ev = [{"label": e["label"], "value": e["pct"] if e["pct"] is not None else e["time_s"],
               "cls": "cpu" if e["label"] == "DB CPU" else _cls(e["label"], e.get("wait_class")),
               "note": f"({svg._n(e['time_s'], 's')})"} for e in dt["events"]]
        unit = "%" if all(e["pct"] is not None for e in dt["events"]) else "s"
        out["db_time_events"] = svg.hbars(ev, label="Top foreground events and DB CPU, % of DB time",
                                          kind="db_time_events", unit=unit, note_key="note")
    cp = c.get("commit_path")
    if cp:
        parts = [{"label": "I/O part (LGWR write)", "value": cp.get("io_part_s"), "cls": "sio"},
                 {"label": "non-I/O remainder", "value": cp.get("non_io_part_s"), "cls": "cfg"}]
        out["commit_split"] = svg.stacked(parts, label="log file sync time: I/O part vs non-I/O remainder",
                                          kind="commit_split", total=cp.get("lfs_time_s"))
        ms = [{"label": "log file sync (avg per wait)", "value": cp.get("lfs_ms"), "cls": "commit"},
              {"label": f"LGWR write ({cp.get('lgwr_source') or 'n/a'})", "value": cp.get("lgwr_ms_per_write"),
               "cls": "sio"},
              {"label": "non-I/O remainder per commit", "value": cp.get("non_io_ms_per_commit"), "cls": "cfg"}]
        out["commit_ms"] = svg.hbars(ms, label="Commit path latency, ms", kind="commit_ms", unit="ms")
    out["histograms"] = [
        {"h": h, "svg": svg.columns([{"label": b["label"], "pct": b["pct"],
                                      "cls": _cls(h["event"])} for b in h["buckets"]],
                                    label=f"{h['event']}: % of waits per bucket ({h['title']})", kind="histogram")}
        for h in c.get("histograms", [])]
    io = c.get("io")
    if io:
        rows = [dict(r, label=r["name"]) for r in io["rows"]]

        def note(r):
            bits = []
            if r.get("read_ms") is not None:
                bits.append(f"rd {svg._n(r['read_ms'], 'ms')}")
            if r.get("write_ms") is not None:
                bits.append(f"wr {svg._n(r['write_ms'], 'ms')}")
            tag = f" [{r['kind'].upper()}]" if r.get("kind") else ""
            return ("  " + ", ".join(bits) if bits else "") + tag
        out["io"] = svg.paired(rows, label=f"{io['title']}: reads and writes", kind="io", a_key="reads",
                               b_key="writes", a_name="reads", b_name="writes",
                               unit="MB" if io["unit"] == "MB" else "", note=note)
    return out


def section_tables(report: Report | None) -> list[dict]:
    """Every parsed section as a table: columns (label, unit), rows of (text, sort value) cells, the report line."""
    if report is None:
        return []
    tables = []
    for key, sec in report.sections.items():
        text_cols: list[str] = []
        for row in sec.rows:
            for k in row.text:
                if k not in text_cols:
                    text_cols.append(k)
        val_cols = [k for k in sec.units if k not in text_cols and any(k in r.values for r in sec.rows)]
        for row in sec.rows:
            for k in row.values:
                if k not in val_cols:
                    val_cols.append(k)
        cols = [{"key": "name", "label": "name", "unit": "", "num": False}]
        cols += [{"key": k, "label": k, "unit": "", "num": False} for k in text_cols if k != "name"]
        cols += [{"key": k, "label": k, "unit": sec.units.get(k, ""), "num": True} for k in val_cols]
        cols.append({"key": "line", "label": "line", "unit": "", "num": True})
        rows = []
        for row in sec.rows[:MAX_TABLE_ROWS]:
            cells = []
            for c in cols:
                if c["key"] == "name":
                    cells.append((row.name or "", row.name or ""))
                elif c["key"] == "line":
                    cells.append((str(row.line), row.line))
                elif c["num"]:
                    v = row.values.get(c["key"])
                    cells.append(("" if v is None else svg._n(v), "" if v is None else v))
                else:
                    t = row.text.get(c["key"], "")
                    cells.append((t, t))
            rows.append({"cells": cells, "kind": io_kind(row.name) if key in ("tablespace_io", "file_io") else None})
        tables.append({"key": key, "title": sec.title, "line": sec.line, "columns": cols, "rows": rows,
                       "total_rows": len(sec.rows), "notes": list(sec.notes)})
    return tables


def compare_view(doc: dict) -> dict:
    raise NotImplementedError


def trend_view(doc: dict) -> dict:
    raise NotImplementedError
