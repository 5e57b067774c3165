"""View models the pages and their JSON twins share: compare, rules, charts.

Pure functions of Analysis documents and store rows; no web framework here."""
from __future__ import annotations

import math
from typing import Any

SEVERITY_ORDER = {"critical": 0, "major": 1, "moderate": 2, "minor": 3, "info": 4}

#: metrics worth a line in a compare table, in this order (others follow alphabetically)
KEY_METRICS = ("elapsed_s", "db_time_s", "aas", "db_cpu_s", "host_cpu_busy_pct", "redo_rate_Bps", "commit_rate",
               "txn_rate", "redo_per_commit_B", "lfs_ms", "redo_write_ms", "lfpw_ms_per_write", "redo_write_size_B",
               "redo_wastage_pct", "log_switches_per_hour", "redo_space_wait_ms", "dfpw_ms", "temp_write_MBps",
               "undo_rate_Bps")


def compare_docs(a: dict, b: dict) -> dict:
    """Two analyses side by side: findings matched by rule id, metrics with their change."""
    fa = {f["id"]: f for f in a.get("findings") or []}
    fb = {f["id"]: f for f in b.get("findings") or []}
    findings = []
    for rid in list(fa) + [r for r in fb if r not in fa]:
        x, y = fa.get(rid), fb.get(rid)
        pa = (x or {}).get("impact", {}).get("pct_db_time")
        pb = (y or {}).get("impact", {}).get("pct_db_time")
        if x and not y:
            change = "gone"
        elif y and not x:
            change = "new"
        elif pa is not None and pb is not None and abs(pb - pa) >= 1.0:
            change = "worse" if pb > pa else "better"
        else:
            change = "same"
        findings.append({"id": rid, "title_a": (x or {}).get("title"), "title_b": (y or {}).get("title"),
                         "severity_a": (x or {}).get("severity"), "severity_b": (y or {}).get("severity"),
                         "pct_db_time_a": pa, "pct_db_time_b": pb, "change": change})
    ma, mb = a.get("metrics") or {}, b.get("metrics") or {}
    both = [m for m in ma if m in mb and _val(ma[m]) is not None and _val(mb[m]) is not None]
    order = [m for m in KEY_METRICS if m in both] + sorted(m for m in both if m not in KEY_METRICS)
    metrics = []
    for m in order:
        va, vb = _val(ma[m]), _val(mb[m])
        metrics.append({"metric": m, "unit": ma[m].get("unit"), "a": va, "b": vb, "delta": vb - va,
                        "ratio": (vb / va) if va else None})
    return {"a": _summary(a), "b": _summary(b), "findings": findings, "metrics": metrics}


def _summary(doc: dict) -> dict:
    r = doc.get("report") or {}
    top = (doc.get("findings") or [None])[0]
    return {**{k: r.get(k) for k in ("kind", "version", "db_name", "instances", "host", "begin_snap", "end_snap",
                                       "elapsed_s", "db_time_s")},
            "source": (doc.get("source") or {}).get("path"),
            "top_finding": {"id": top["id"], "title": top["title"], "severity": top["severity"]} if top else None}


def _val(m: Any) -> float | None:
    v = m.get("value") if isinstance(m, dict) else None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return None
    return float(v)


def rules_doc() -> list[dict]:
    from ..rules import RULES

    order = sorted(RULES, key=lambda k: (k[0] != "R", k))
    return [{"id": RULES[k].id, "slug": RULES[k].slug, "title": RULES[k].title, "family": RULES[k].family,
             "doc": RULES[k].doc, "thresholds": RULES[k].thresholds} for k in order]


# -- charts: inline SVG, drawn on the server (no script, no CDN) -----------------------------------------------

def bar_chart(items: list[tuple[str, float, str]], width: int = 900, unit: str = "% of DB time") -> dict:
    """Horizontal bars: (label, value, css class). Returns geometry for the template."""
    top = max([v for _, v, _ in items] + [1e-9])
    scale = 100.0 if unit.startswith("%") and top <= 100 else top
    row_h, label_w = 26, 250
    bars = []
    for i, (label, value, cls) in enumerate(items):
        w = max(1.0, (width - label_w - 70) * value / scale)
        bars.append({"label": label, "value": value, "cls": cls, "y": i * row_h + 4, "w": round(w, 1),
                     "tx": round(label_w + w + 6, 1)})
    return {"width": width, "height": len(items) * row_h + 8, "label_w": label_w, "bars": bars, "unit": unit}


def line_chart(points: list[tuple[str, float, int]], width: int = 1100, height: int = 230) -> dict | None:
    """(x label, value, report id) in time order to polyline geometry with a few axis labels."""
    if not points:
        return None
    pad_l, pad_r, pad_t, pad_b = 84, 16, 12, 40
    vals = [v for _, v, _ in points]
    lo, hi = min(0.0, min(vals)), max(vals)
    if hi == lo:
        hi = lo + 1.0
    n = len(points)
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b

    def x(i: int) -> float:
        return pad_l + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v: float) -> float:
        return pad_t + plot_h * (1 - (v - lo) / (hi - lo))

    dots = [{"x": round(x(i), 1), "y": round(y(v), 1), "label": lab, "value": v, "report_id": rid}
            for i, (lab, v, rid) in enumerate(points)]
    ticks = [{"y": round(y(lo + (hi - lo) * k / 4), 1), "value": lo + (hi - lo) * k / 4} for k in range(5)]
    step = max(1, math.ceil(n / 6))
    xlabels = [{"x": d["x"], "label": (d["label"] or "?")[:16]} for d in dots[::step]]
    return {"width": width, "height": height, "pad_l": pad_l, "plot_bottom": pad_t + plot_h, "plot_right": pad_l + plot_w,
            "path": " ".join(f"{d['x']},{d['y']}" for d in dots), "dots": dots, "ticks": ticks, "xlabels": xlabels}


def fmt_num(v: Any, digits: int = 3) -> str:
    if v is None:
        return "–"
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if v == 0:
        return "0"
    a = abs(v)
    if a >= 1e6:
        return f"{v:,.0f}"
    if a >= 100:
        return f"{v:,.1f}"
    return f"{v:.{digits}g}"
