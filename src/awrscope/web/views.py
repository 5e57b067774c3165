"""View models the pages and their JSON twins share: compare, rules, charts.

Pure functions of Analysis documents and store rows; no web framework here."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from ..render.numbers import fmt_num as _fmt_num

SEVERITY_ORDER = {"critical": 0, "major": 1, "moderate": 2, "minor": 3, "info": 4}

def rules_doc() -> list[dict]:
    from ..rules import RULES

    order = sorted(RULES, key=lambda k: (k[0] != "R", k))
    return [{"id": RULES[k].id, "slug": RULES[k].slug, "title": RULES[k].title, "family": RULES[k].family,
             "doc": RULES[k].doc, "thresholds": RULES[k].thresholds} for k in order]


# -- charts: inline SVG, drawn on the server (no script, no CDN) -----------------------------------------------

def line_chart(points: list[tuple], width: int = 1100, height: int = 230) -> dict | None:
    """(x label, value, report id[, begin, end as ISO text]) in time order to polyline geometry with axis labels.
    With every point's times the x axis is true time (a point at its window's middle; the line breaks across a
    gap longer than a window; ticks at round times, with the year when the span crosses one)."""
    if not points:
        return None
    from ..render.html.svg import TimeAxis

    pad_l, pad_r, pad_t, pad_b = 84, 16, 12, 40
    vals = [p[1] for p in points]
    lo, hi = min(0.0, min(vals)), max(vals)
    if hi == lo:
        hi = lo + 1.0
    n = len(points)
    plot_w, plot_h = width - pad_l - pad_r, height - pad_t - pad_b
    times = [(_when(p[3]), _when(p[4])) if len(p) >= 5 else (None, None) for p in points]
    axis = None
    if all(b and e for b, e in times):
        axis = TimeAxis(min(b for b, _ in times), max(e for _, e in times), pad_l, pad_l + plot_w)

    def x(i: int) -> float:
        if axis:
            b, e = times[i]
            return axis.x(b + (e - b) / 2)
        return pad_l + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(v: float) -> float:
        return pad_t + plot_h * (1 - (v - lo) / (hi - lo))

    dots = [{"x": round(x(i), 1), "y": round(y(p[1]), 1), "label": p[0], "value": p[1], "report_id": p[2]}
            for i, p in enumerate(points)]
    ticks = [{"y": round(y(lo + (hi - lo) * k / 4), 1), "value": lo + (hi - lo) * k / 4} for k in range(5)]
    if axis:
        xlabels = [{"x": round(tx, 1), "label": label} for tx, label in axis.ticks()]
        runs, run = [], [dots[0]]
        for i in range(1, n):
            (pb, pe), (b, e) = times[i - 1], times[i]
            if b - pe > max(e - b, pe - pb):  # a gap longer than a window: the line does not bridge it
                runs.append(run)
                run = []
            run.append(dots[i])
        runs.append(run)
    else:
        step = max(1, math.ceil(n / 6))
        xlabels = [{"x": d["x"], "label": (d["label"] or "?")[:16]} for d in dots[::step]]
        runs = [dots]
    return {"width": width, "height": height, "pad_l": pad_l, "plot_bottom": pad_t + plot_h, "plot_right": pad_l + plot_w,
            "paths": [" ".join(f"{d['x']},{d['y']}" for d in r) for r in runs if len(r) > 1],
            "dots": dots, "ticks": ticks, "xlabels": xlabels}


def _when(text):
    from datetime import datetime

    try:
        return datetime.fromisoformat(str(text)) if text else None
    except ValueError:
        return None


def fmt_num(v: Any) -> str:
    """The web pages' number: the renderers' formatter, a dash for a missing value."""
    return _fmt_num(v, none="–")


def _metric_info() -> dict[str, dict]:
    from ..metrics import CATALOG

    return {m.id: {"unit": m.unit, "formula": m.formula, "setting": "config" in m.inputs} for m in CATALOG}


#: What the metric picker shows beside an id: its unit, and its formula on hover
METRIC_INFO = _metric_info()
#: Model settings stored beside the measured metrics (alpha): not a measurement to trend
MODEL_CONSTANTS = frozenset(k for k, v in METRIC_INFO.items() if v["setting"])


def upload_name(filename: str | None) -> str:
    """The stored name of an upload: its last part, without control characters (a NUL cannot be kept by
    PostgreSQL, a CR or LF would end a header line): they become '_'."""
    name = Path((filename or "upload").replace("\\", "/")).name
    name = "".join("_" if ord(ch) < 32 or ord(ch) == 127 else ch for ch in name)
    return name[:200] or "upload"


#: The heading of an error page, by HTTP status
ERROR_TITLES = {400: "Bad request", 401: "Token required", 403: "Refused", 404: "Not found", 413: "Upload too large",
                422: "Cannot use this input", 429: "Too many attempts", 500: "Internal error", 503: "Not available now"}


def result_dict(r) -> dict:
    """One upload's outcome (an ImportResult) as the JSON reply lists it."""
    return {k: getattr(r, k) for k in ("name", "status", "id", "message", "db_name", "top_finding")}
