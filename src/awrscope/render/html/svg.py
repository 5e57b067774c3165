"""Inline SVG charts drawn server-side (no JavaScript library, nothing fetched).

Each function takes plain numbers and labels and returns ``Markup``; every label
is escaped here, because report strings (event and tablespace names) reach the
charts. Colours are CSS classes (``s0``..``s7``, ``temp``, ``undo``, ...) so the
stylesheet decides light, dark and print.
"""
from __future__ import annotations

from markupsafe import Markup, escape

from ..numbers import fmt_num as _n, fmt_value

W = 720  # viewBox width; the SVG scales to its container
FONT = 12


def _compact(v: float, unit: str = "") -> str:
    """Axis labels: 109,063.8 s -> 109k s."""
    a = abs(v)
    if unit not in ("B", "B/s") and a >= 1e4:
        for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
            if a >= div:
                return f"{v / div:.3g}{suf}" + (f" {unit}" if unit and not unit.startswith("1/") else unit[1:] if unit else "")
    return _n(v, unit)


def _trunc(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _open(h: int, label: str, kind: str, width: int = W) -> str:
    return (f'<svg class="chart" data-chart="{escape(kind)}" viewBox="0 0 {width} {h}" width="100%" '
            f'preserveAspectRatio="xMinYMin meet" role="img" aria-label="{escape(label)}" '
            f'font-size="{FONT}"><title>{escape(label)}</title>')


def hbars(items: list[dict], *, label: str, kind: str, unit: str = "", value_key: str = "value",
          note_key: str | None = None, label_w: int = 250) -> Markup:
    """Horizontal bars: one row per item {label, value, cls?, note?}; the value is printed right of the bar."""
    rows = [i for i in items if i.get(value_key) is not None]
    if not rows:
        return Markup("")
    row_h, top = 22, 6
    h = top + row_h * len(rows) + 6
    vmax = max(i[value_key] for i in rows) or 1.0
    bar_w = W - label_w - 150
    out = [_open(h, label, kind)]
    for k, i in enumerate(rows):
        y = top + k * row_h
        v = i[value_key]
        w = max(1.0, bar_w * v / vmax) if v > 0 else 0
        cls = i.get("cls") or "s0"
        text = _n(v, unit)
        if note_key and i.get(note_key):
            text += f"  {i[note_key]}"
        out.append(f'<g class="row" data-label="{escape(i["label"])}" data-value="{v}">'
                   f'<title>{escape(i["label"])}: {escape(text)}</title>'
                   f'<text class="lbl" x="{label_w - 8}" y="{y + 15}" text-anchor="end">'
                   f'{escape(_trunc(str(i["label"]), 38))}</text>'
                   f'<rect class="bar {escape(cls)}" x="{label_w}" y="{y + 3}" width="{w:.1f}" height="{row_h - 6}" rx="2"/>'
                   f'<text class="val" x="{label_w + w + 6:.1f}" y="{y + 15}">{escape(text)}</text></g>')
    out.append("</svg>")
    return Markup("".join(out))


def stacked(parts: list[dict], *, label: str, kind: str, total: float | None = None, unit: str = "s") -> Markup:
    """One 100 % bar split into parts {label, value, cls}; a legend below with value and share."""
    legend = [p for p in parts if p.get("value") is not None]
    parts = [p for p in legend if p["value"] > 0]
    if not parts:
        return Markup("")
    total = total or sum(p["value"] for p in parts)
    x0, bw, bh = 4, W - 8, 34
    ncol = 3 if len(legend) > 4 else 2
    leg_rows = (len(legend) + ncol - 1) // ncol
    h = bh + 14 + leg_rows * 20 + 4
    out = [_open(h, label, kind)]
    x = float(x0)
    # bar widths are shares of the drawn total; printed shares are the part's own "pct" when given
    # (% of DB time), so the chart never contradicts the tables when the parts exceed DB time.
    drawn = max(total, sum(p["value"] for p in parts))
    for p in parts:
        w = bw * p["value"] / drawn
        share = p["pct"] if p.get("pct") is not None else 100 * p["value"] / total
        out.append(f'<rect class="seg {escape(p.get("cls") or "s0")}" x="{x:.1f}" y="2" width="{max(w, 0.5):.1f}" '
                   f'height="{bh}" data-label="{escape(p["label"])}" data-value="{p["value"]}">'
                   f'<title>{escape(p["label"])}: {escape(_n(p["value"], unit))} ({share:.1f} %)</title></rect>')
        if w > 60:
            out.append(f'<text class="inbar" x="{x + 6:.1f}" y="{bh / 2 + 6:.1f}">{share:.0f} %</text>')
        x += w
    for k, p in enumerate(legend):
        col, row = k % ncol, k // ncol
        lx, ly = x0 + col * (W // ncol), bh + 20 + row * 20
        share = p["pct"] if p.get("pct") is not None else 100 * p["value"] / total
        out.append(f'<rect class="seg {escape(p.get("cls") or "s0")}" x="{lx}" y="{ly - 10}" width="12" height="12" rx="2"/>'
                   f'<text class="lbl" x="{lx + 17}" y="{ly}">{escape(_trunc(p["label"], 24))} '
                   f'{escape(_n(p["value"], unit))} ({share:.1f} %)</text>')
    out.append("</svg>")
    return Markup("".join(out))


#: Text widths in em of DejaVu Sans, the widest common sans-serif (Debian's default): estimates that err wide, so
#: a layout that fits them fits the narrower system fonts too.
_EM = {**{c: 0.64 for c in "0123456789"}, "<": 0.84, ">": 0.84, "=": 0.84, "%": 0.95, ".": 0.32, ",": 0.32,
       " ": 0.32, "-": 0.36, "m": 0.98, "w": 0.82, "M": 0.87, "W": 0.99}


def text_width(text: str, size: float = FONT) -> float:
    """Estimated width of ``text`` at ``size`` px (see _EM)."""
    return size * sum(_EM.get(c, 0.72 if c.isupper() else 0.62) for c in text)


#: The report's content is ~1044 px wide (main 1100 px less its padding) and the charts' viewBox W: a chart drawn
#: full width shows its text at ZOOM x FONT. Histograms are given that same size in px (no larger; CSS shrinks them
#: on a narrow screen), so their text matches the other charts whether drawn half or full width.
ZOOM = 1044 / W
HALF = 352  # viewBox width of a half-width chart (a column of the report's two-column grid at ZOOM)


def histogram(buckets: list[dict], *, label: str, kind: str) -> dict:
    """Vertical bars of a wait histogram: buckets {label, pct, cls?}; blank buckets drawn as 0. Returns {svg, wide}:
    half width when every label fits its column, else full width (``wide``: the figure spans the grid). Text is
    always FONT px: labels that do not fit across a column stand upright (rotated -90), and if even upright ones
    would touch, only every k-th bucket is labelled (every bucket keeps its tooltip). No two labels overlap."""
    if not buckets:
        return {"svg": Markup(""), "wide": False}
    if len(buckets) > 8:  # drop the empty ends (keep one empty bucket each side for context)
        filled = [k for k, b in enumerate(buckets) if b.get("pct")]
        if filled:
            buckets = buckets[max(0, filled[0] - 1): filled[-1] + 2]
    n = len(buckets)
    fs, pad, line = FONT, 6, FONT * 1.25
    vals = ["-" if b.get("pct") is None else f"{b['pct']:g}%" for b in buckets]
    lab_w = max(text_width(str(b["label"]), fs) for b in buckets)
    val_w = max(text_width(v, fs) for v in vals)
    need = max(lab_w, val_w) + pad
    width = HALF if (HALF - 20) / n >= need else W
    wide = width == W
    slot = (width - 20) / n
    upright_lab = lab_w + pad > slot  # x labels rotated -90 (read bottom to top), anchored at the axis
    upright_val = val_w + pad > slot
    every = 1 if slot >= line else -(-line // slot)  # upright text is `line` px thick
    every = int(every)
    vmax = max([b.get("pct") or 0 for b in buckets] + [1.0])  # scale to the tallest bucket; labels give the %
    top = (val_w if upright_val else fs) + 8
    plot = 112
    base = top + plot
    h = base + (lab_w if upright_lab else fs) + 10
    disp = round(width * ZOOM)
    out = [f'<svg class="chart" data-chart="{escape(kind)}" viewBox="0 0 {width} {h:.0f}" width="{disp}" '
           f'height="{round(h * ZOOM)}" preserveAspectRatio="xMinYMin meet" role="img" aria-label="{escape(label)}" '
           f'font-size="{fs}"><title>{escape(label)}</title>',
           f'<line class="axis" x1="10" y1="{base:.0f}" x2="{width - 10}" y2="{base:.0f}"/>']
    for k, b in enumerate(buckets):
        v = b.get("pct")
        x = 10 + k * slot
        cx = x + slot / 2
        bh = plot * (v or 0) / vmax
        cls = b.get("cls") or "s0"
        show = k % every == 0
        shown = vals[k] if show and not (v is None and upright_val) else ""
        if upright_lab:
            lx, ly = cx + fs * 0.35, base + 6
            lab = (f'<text class="lbl" x="{lx:.1f}" y="{ly:.0f}" text-anchor="end" '
                   f'transform="rotate(-90 {lx:.1f} {ly:.0f})">{escape(b["label"]) if show else ""}</text>')
        else:
            lab = f'<text class="lbl" x="{cx:.1f}" y="{base + fs + 4:.0f}" text-anchor="middle">{escape(b["label"])}</text>'
        if upright_val:
            vx, vy = cx + fs * 0.35, base - bh - 4
            val = (f'<text class="val" x="{vx:.1f}" y="{vy:.1f}" text-anchor="start" '
                   f'transform="rotate(-90 {vx:.1f} {vy:.1f})">{escape(shown)}</text>')
        else:
            val = f'<text class="val" x="{cx:.1f}" y="{base - bh - 4:.1f}" text-anchor="middle">{escape(shown)}</text>'
        out.append(f'<g class="col" data-label="{escape(b["label"])}" data-value="{"" if v is None else v}">'
                   f'<title>{escape(b["label"])}: {"-" if v is None else f"{v:g} %"}</title>'
                   f'<rect class="bar {escape(cls)}" x="{x + slot * 0.15:.1f}" y="{base - bh:.1f}" '
                   f'width="{slot * 0.7:.1f}" height="{max(bh, 0):.1f}" rx="2"/>{val}{lab}</g>')
    out.append("</svg>")
    return {"svg": Markup("".join(out)), "wide": wide}


def paired(rows: list[dict], *, label: str, kind: str, a_key: str, b_key: str, a_name: str, b_name: str,
           unit: str = "", label_w: int = 270, note=None) -> Markup:
    """Two bars per row (e.g. reads and writes, or before and after), each scaled to the largest value of all.
    ``note(row)`` adds text after the first bar; a row's ``note_b`` after the second (e.g. the change in %)."""
    rows = [r for r in rows if r.get(a_key) is not None or r.get(b_key) is not None]
    if not rows:
        return Markup("")
    row_h, top = 34, 24
    h = top + row_h * len(rows) + 4
    vmax = max(max(r.get(a_key) or 0, r.get(b_key) or 0) for r in rows) or 1.0
    bar_w = W - label_w - 190
    out = [_open(h, label, kind),
           f'<rect class="bar pa" x="{label_w}" y="4" width="12" height="12"/><text class="lbl" x="{label_w + 17}" y="14">{escape(a_name)}</text>'
           f'<rect class="bar pb" x="{label_w + 140}" y="4" width="12" height="12"/><text class="lbl" x="{label_w + 157}" y="14">{escape(b_name)}</text>']
    for k, r in enumerate(rows):
        y = top + k * row_h
        hl = f' hl {r["kind"]}' if r.get("kind") else ""
        extra = note(r) if note else ""
        out.append(f'<g class="row{hl}" data-label="{escape(r["label"])}">'
                   f'<text class="lbl{hl}" x="{label_w - 8}" y="{y + 19}" text-anchor="end">'
                   f'{escape(_trunc(str(r["label"]), 40))}</text>')
        for j, (key, cls) in enumerate(((a_key, "pa"), (b_key, "pb"))):
            v = r.get(key)
            w = 0 if not v else max(1.0, bar_w * v / vmax)
            yy = y + 3 + j * 14
            out.append(f'<rect class="bar {cls}" x="{label_w}" y="{yy}" width="{w:.1f}" height="12" rx="2" '
                       f'data-value="{"" if v is None else v}"/>'
                       f'<text class="val" x="{label_w + w + 5:.1f}" y="{yy + 10}">'
                       f'{escape(_n(v, unit))}{escape(extra if j == 0 else (r.get("note_b") or ""))}</text>')
        out.append("</g>")
    out.append("</svg>")
    return Markup("".join(out))


def panels(rows: list[dict], *, label: str, kind: str, a_key: str, b_key: str, a_name: str, b_name: str,
           cols: int = 2) -> Markup:
    """Small multiples: one panel per row {label, unit, a_key, b_key, pct?}, each with its own scale (the larger
    of its two values fills the panel), for metrics whose units or magnitudes differ: on one shared axis most of
    their bars would be slivers. The panels are boxed apart so no bar is read against another panel's."""
    rows = [r for r in rows if r.get(a_key) is not None or r.get(b_key) is not None]
    if not rows:
        return Markup("")
    gap, head, ph = 16, 22, 70
    cols = max(1, min(cols, len(rows)))
    pw = (W - gap * (cols - 1)) / cols
    nrows = -(-len(rows) // cols)
    h = head + nrows * (ph + 10)
    val_w = 96  # room right of the longest bar for its value
    out = [_open(h, label, kind),
           f'<rect class="bar pa" x="0" y="4" width="12" height="12"/><text class="lbl" x="17" y="14">{escape(a_name)}</text>'
           f'<rect class="bar pb" x="140" y="4" width="12" height="12"/><text class="lbl" x="157" y="14">{escape(b_name)}</text>']
    chars = int((pw - 16) / 7)  # ~7 px per character at 12 px
    for k, r in enumerate(rows):
        x0, y0 = (k % cols) * (pw + gap), head + (k // cols) * (ph + 10)
        unit = r.get("unit") or ""
        pct = r.get("pct")
        change = "" if pct is None else _n(round(pct), "%", signed=True)
        vmax = max(r.get(a_key) or 0, r.get(b_key) or 0) or 1.0
        bar_w = pw - 16 - val_w
        title = f"{r['label']}: {a_name} {_n(r.get(a_key), unit)}, {b_name} {_n(r.get(b_key), unit)}" + \
            (f" ({change})" if change else "")
        room = chars - (len(change) + 2 if change else 0)
        out.append(f'<g class="panel" data-label="{escape(r["label"])}" data-unit="{escape(unit)}">'
                   f'<title>{escape(title)}</title>'
                   f'<rect class="frame" x="{x0 + 0.5:.1f}" y="{y0 + 0.5:.1f}" width="{pw - 1:.1f}" height="{ph:.1f}" rx="4"/>'
                   f'<text class="lbl hl" x="{x0 + 8:.1f}" y="{y0 + 17}">{escape(_trunc(str(r["label"]), room))}</text>'
                   + (f'<text class="val" x="{x0 + pw - 8:.1f}" y="{y0 + 17}" text-anchor="end">{escape(change)}</text>'
                      if change else ""))
        for j, (key, cls) in enumerate(((a_key, "pa"), (b_key, "pb"))):
            v = r.get(key)
            w = 0 if not v else max(1.0, bar_w * v / vmax)
            yy = y0 + 27 + j * 20
            out.append(f'<rect class="bar {cls}" x="{x0 + 8:.1f}" y="{yy}" width="{w:.1f}" height="14" rx="2" '
                       f'data-value="{"" if v is None else v}"/>'
                       f'<text class="val" x="{x0 + 8 + w + 5:.1f}" y="{yy + 11}">{escape(_n(v, unit))}</text>')
        out.append("</g>")
    out.append("</svg>")
    return Markup("".join(out))


def nice_ticks(top: float, most: int = 5) -> list[float]:
    """0 and round values (1, 2 or 5 times a power of ten apart) up to the first at or above ``top``:
    at most ``most`` intervals, so that an axis reads 0, 5, 10, 15 ms and not only 0 and 13.7."""
    import math

    raw = top / most
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    n = math.ceil(top / step - 1e-9)
    return [round(k * step, 12) for k in range(n + 1)]


def series(points: list[dict], *, label: str, kind: str, unit: str = "", marks: list[dict] | None = None) -> Markup:
    """A time series: points {x (label), y, begin?, end? (datetimes)} in order; marks {i (point index), label}
    shade the windows where findings fire. With every point's begin and end, the x axis is true time (each
    point at its window's middle, the line broken across a gap longer than a window); else points are evenly
    spaced. Missing values break the line."""
    n = len(points)
    if not n or all(p.get("y") is None for p in points):
        return Markup("")
    h, left, right, top, base = 210, 96, 20, 14, 160
    timed = all(p.get("begin") and p.get("end") for p in points)
    axis = TimeAxis(min(p["begin"] for p in points), max(p["end"] for p in points), left, W - right) if timed else None
    step = (W - left - right) / max(n - 1, 1)
    ys = [p["y"] for p in points if p.get("y") is not None]
    ticks = nice_ticks(max(ys) if ys and max(ys) > 0 else 1.0)
    ymax = ticks[-1]
    if axis:
        xs = [axis.x(p["begin"] + (p["end"] - p["begin"]) / 2) for p in points]
    else:
        xs = [left + k * step if n > 1 else left + (W - left - right) / 2 for k in range(n)]
    out = [_open(h, label, kind),
           f'<line class="axis" x1="{left}" y1="{base}" x2="{W - right}" y2="{base}"/>',
           f'<text class="lbl" x="{left - 6}" y="{base}" text-anchor="end">0</text>']
    for t in ticks[1:]:  # readable values between 0 and the top, each with its unit
        y = base - (base - top) * t / ymax
        out += [f'<line class="grid" x1="{left}" y1="{y:.1f}" x2="{W - right}" y2="{y:.1f}"/>',
                f'<text class="lbl" x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{escape(_compact(t, unit))}</text>']
    half = max(step / 2, 6)
    for m in marks or []:
        if 0 <= m["i"] < n:
            if axis:
                x0, x1 = axis.x(points[m["i"]]["begin"]), axis.x(points[m["i"]]["end"])
                x0, width = (x0, x1 - x0) if x1 - x0 >= 4 else (xs[m["i"]] - 2, 4)
            else:
                x0, width = xs[m["i"]] - half, 2 * half
            out.append(f'<rect class="mark" x="{x0:.1f}" y="{top}" width="{width:.1f}" '
                       f'height="{base - top}" data-i="{m["i"]}"><title>{escape(m["label"])}</title></rect>')
    runs: list[list[tuple[float, float]]] = [[]]
    for k, p in enumerate(points):
        gap = axis and k and (p["begin"] - points[k - 1]["end"]) > max(p["end"] - p["begin"],
                                                                        points[k - 1]["end"] - points[k - 1]["begin"])
        if p.get("y") is None or gap:
            runs.append([])
            if p.get("y") is None:
                continue
        runs[-1].append((xs[k], base - (base - top) * p["y"] / ymax))
    for run in runs:
        if len(run) > 1:
            out.append('<polyline class="line" fill="none" points="' + " ".join(f"{x:.1f},{y:.1f}" for x, y in run) + '"/>')
    for k, p in enumerate(points):
        if p.get("y") is None:
            continue
        y = base - (base - top) * p["y"] / ymax
        out.append(f'<circle class="dot" cx="{xs[k]:.1f}" cy="{y:.1f}" r="3.5" data-i="{k}" data-value="{p["y"]}">'
                   f'<title>{escape(p["x"])}: {escape(_n(p["y"], unit))}</title></circle>')
    if axis:
        out += _axis_marks(axis, top, base)
    else:
        every = max(1, -(-n // 8))
        for k, p in enumerate(points):
            if k % every == 0 or k == n - 1:
                out.append(f'<text class="lbl" x="{xs[k]:.1f}" y="{base + 16}" text-anchor="middle">'
                           f'{escape(_trunc(str(p["x"]), 24 if n <= 6 else 12))}</text>')
    out.append("</svg>")
    return Markup("".join(out))


# -- a true time axis ------------------------------------------------------------------------------------------
_STEPS = [60 * m for m in (5, 10, 15, 30)] + [3600 * h for h in (1, 2, 3, 6, 12)] + \
         [86400 * d for d in (1, 2, 7, 14, 30, 91, 182, 365)]


class TimeAxis:
    """Maps datetimes to x between ``left`` and ``right``: windows sit at their times, so a 60-minute gap and a
    102-day gap look as different as they are. Ticks at a round step (5 minutes to a year), labelled with the
    date whenever it changes and the year whenever the span crosses one."""

    def __init__(self, t0, t1, left: float, right: float):
        span = max((t1 - t0).total_seconds(), 60.0)
        self.t0, self.span, self.left, self.width = t0, span, left, right - left
        self.step = next((s for s in _STEPS if span / s <= 7), _STEPS[-1])
        self.years = t0.year != t1.year

    def x(self, t) -> float:
        return self.left + self.width * (t - self.t0).total_seconds() / self.span

    def ticks(self) -> list[tuple[float, str]]:
        import datetime as dt

        step = dt.timedelta(seconds=self.step)
        first = self.t0.replace(second=0, microsecond=0)
        if self.step < 3600:
            first = first.replace(minute=first.minute - first.minute % (self.step // 60))
        elif self.step < 86400:
            first = first.replace(minute=0, hour=first.hour - first.hour % (self.step // 3600))
        else:
            first = first.replace(minute=0, hour=0)
        out, t, last_date = [], first, None
        end = self.t0 + dt.timedelta(seconds=self.span)
        while t <= end and len(out) < 12:
            if t >= self.t0:
                if self.step >= 86400:
                    label = t.strftime("%Y-%m-%d" if self.years else "%b %d")
                elif t.date() != last_date:
                    label = t.strftime("%Y-%m-%d %H:%M" if self.years else "%b %d %H:%M")
                else:
                    label = t.strftime("%H:%M")
                last_date = t.date()
                out.append((self.x(t), label))
            t += step
        return out


def _axis_marks(axis: TimeAxis, top: float, base: float) -> list[str]:
    out = []
    for x, label in axis.ticks():
        out.append(f'<line class="grid" x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{base}"/>'
                   f'<text class="lbl" x="{x:.1f}" y="{base + 16}" text-anchor="middle">{escape(label)}</text>')
    return out


def aas_by_class(windows: list[dict], *, label: str, kind: str, classes: list[tuple[str, str]],
                 marks: list[dict] | None = None) -> Markup:
    """DB time over time as average active sessions, stacked by wait class: each window {begin, end (datetimes),
    parts {class: AAS}, title} is a column as wide as its time, at its place on a true time axis (gaps show as
    gaps). ``classes`` [(name, css class)] orders the stack, CPU at the bottom; a legend names them."""
    windows = [w for w in windows if w.get("begin") and w.get("end") and w.get("parts")]
    if not windows:
        return Markup("")
    h, left, right, top, base = 250, 56, 12, 14, 176
    axis = TimeAxis(min(w["begin"] for w in windows), max(w["end"] for w in windows), left, W - right)
    ticks = nice_ticks(max(sum(v for v in w["parts"].values() if v > 0) for w in windows) or 1.0)
    ymax = ticks[-1]
    scale = (base - top) / ymax
    out = [_open(h, label, kind), f'<text class="lbl" x="{left - 6}" y="{base}" text-anchor="end">0</text>']
    for t in ticks[1:]:  # round values between 0 and the top, not only the maximum
        y = base - t * scale
        out += [f'<line class="grid" x1="{left}" y1="{y:.1f}" x2="{W - right}" y2="{y:.1f}"/>',
                f'<text class="lbl" x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{escape(_compact(t))}</text>']
    out.append(f'<text class="lbl" x="6" y="{(top + base) / 2:.0f}" transform="rotate(-90 6 {(top + base) / 2:.0f})" '
               'text-anchor="middle" dominant-baseline="hanging">active sessions</text>')
    out += _axis_marks(axis, top, base)
    for m in marks or []:
        w = windows[m["i"]] if 0 <= m["i"] < len(windows) else None
        if w:
            x0, x1 = axis.x(w["begin"]), axis.x(w["end"])
            out.append(f'<rect class="mark" x="{x0:.1f}" y="{top}" width="{max(x1 - x0, 2):.1f}" height="{base - top}">'
                       f'<title>{escape(m["label"])}</title></rect>')
    for k, w in enumerate(windows):
        x0, x1 = axis.x(w["begin"]), axis.x(w["end"])
        width = max(x1 - x0 - 0.6, 1.5)
        y = float(base)
        for name, css in classes:
            v = w["parts"].get(name) or 0.0
            if v <= 0:
                continue
            hgt = v * scale
            y -= hgt
            out.append(f'<rect class="seg {css}" x="{x0:.1f}" y="{y:.1f}" width="{width:.1f}" height="{hgt:.1f}" '
                       f'data-i="{k}" data-class="{escape(name)}" data-value="{v:.4g}">'
                       f'<title>{escape(w.get("title") or "")}: {escape(name)} {fmt_value(v, "sessions")} active sessions</title></rect>')
    out.append(f'<line class="axis" x1="{left}" y1="{base}" x2="{W - right}" y2="{base}"/>')
    shown = [(n, c) for n, c in classes if any((w["parts"].get(n) or 0) > 0 for w in windows)]
    for k, (name, css) in enumerate(shown):
        lx, ly = left + (k % 6) * ((W - left) // 6), base + 38 + (k // 6) * 18
        out.append(f'<rect class="seg {css}" x="{lx}" y="{ly - 10}" width="12" height="12" rx="2"/>'
                   f'<text class="lbl" x="{lx + 17}" y="{ly}">{escape(_trunc(name, 14))}</text>')
    out.append("</svg>")
    return Markup("".join(out).replace(f'viewBox="0 0 {W} {h}"', f'viewBox="0 0 {W} {base + 44 + (len(shown) - 1) // 6 * 18}"'))
