"""View models the pages and their JSON twins share: compare, rules, charts.

Pure functions of Analysis documents and store rows; no web framework here."""
from __future__ import annotations

import math
from typing import Any

from ..render.numbers import fmt_num as _fmt_num

SEVERITY_ORDER = {"critical": 0, "major": 1, "moderate": 2, "minor": 3, "info": 4}

def rules_doc() -> list[dict]:
    from ..rules import RULES

    order = sorted(RULES, key=lambda k: (k[0] != "R", k))
    return [{"id": RULES[k].id, "slug": RULES[k].slug, "title": RULES[k].title, "family": RULES[k].family,
             "doc": RULES[k].doc, "thresholds": RULES[k].thresholds} for k in order]


# -- charts: inline SVG, drawn on the server (no script, no CDN) -----------------------------------------------

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


def fmt_num(v: Any) -> str:
    """The web pages' number: the renderers' formatter, a dash for a missing value."""
    return _fmt_num(v, none="–")
