"""View models: what the templates show, computed in Python (charts as SVG Markup, tables as cells)."""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import chain
from typing import Callable

from markupsafe import Markup

from ...model import Report, Row
from ...oracle.events import EVENT_CLASS
from ..common import time_span
from ..numbers import fmt_num, fmt_value, plain_number
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
MAX_REF_TEXT = 400  # characters of a row's text in the title of a line reference


def _trunc(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"
KEY_METRICS = ("elapsed_s", "db_time_s", "aas", "db_cpu_s", "host_cpu_busy_pct", "redo_rate_Bps", "commit_rate",
               "redo_per_commit_B", "lfs_ms", "lfpw_ms_per_write", "redo_write_ms", "synch_ms", "lfs_lfpw_ratio",
               "non_io_residual_ms", "log_switches_per_hour", "redo_block_size_est", "redo_wastage_pct",
               "temp_io_share", "undo_block_write_share", "reuse_wait_share")


def _cls(name: str | None, wait_class: str | None = None) -> str:
    if wait_class:
        wc = wait_class.lower()
        hit = CLASS_COLOUR.get(wc) or next((v for k, v in CLASS_COLOUR.items() if k.startswith(wc)), None)
        if hit:
            return hit
    low = (name or "").lower()
    if low.startswith(("latch", "cursor:", "library cache", "row cache")):
        return "conc"
    if low.startswith("enq:"):
        return "app" if "row lock" in low else "cfg"
    if low in EVENT_CLASS:
        return CLASS_COLOUR.get(EVENT_CLASS[low].lower(), "oth")
    if name and name.lower() in CLASS_COLOUR:
        return CLASS_COLOUR[name.lower()]
    return EVENT_COLOUR.get(low, "oth")


def analysis_view(doc: dict, report: Report | None = None) -> dict:
    charts = chart_data(doc, report)
    r = doc["report"]
    when = f"snaps {r.get('begin_snap')}-{r.get('end_snap')}" if r.get("begin_snap") is not None else \
        (r.get("begin_time") or "")[:16]
    title = f"awrscope: {r.get('db_name') or '?'} {when}".rstrip()
    tables = section_tables(report) if report is not None else []
    return {"title": title, "doc": doc, "report": r, "charts": charts, "svg": _charts_svg(charts),
            "key_metrics": _key_metrics(doc), "tables": tables, "refs": row_refs(tables, _cited(doc)),
            "has_report": report is not None, "na_groups": _na_groups(doc), "activity": ash_activity_chart(doc)}


def ash_activity_chart(doc: dict):
    """An ASH report's Activity Over Time (analysis 'ash_activity'): sampled average active sessions per slot,
    stacked by wait class on a true time axis, the samples beyond each slot's three printed events apart."""
    from ...metrics.activity import REST

    slots = doc.get("ash_activity") or []
    cols = [{"begin": _when(a["begin"]), "end": _when(a["end"]), "parts": a["parts"],
             "title": f"{time_span(a['begin'], a['end'], ' → ')}, {a['samples']:,.0f} samples, {fmt_value(a['aas'], 'sessions')} active sessions"
                      f" (line {a['line']})"} for a in slots]
    if not cols:
        return None
    names = {n for c in cols for n in c["parts"]}
    order = [n for n in STACK_ORDER if n in names] + sorted(names - set(STACK_ORDER) - {REST}) + \
        ([REST] if REST in names else [])
    classes = [(n, "cpu" if n == "CPU" else "rest" if n == REST else _cls(n, n)) for n in order]
    return svg.aas_by_class(cols, label="Sampled activity by wait class, average active sessions per slot",
                            kind="activity", classes=classes)


def _cited(doc: dict) -> set[tuple[str, int]]:
    """(section, line) of every report row a finding cites: its evidence and culprits, its periods' too."""
    out: set[tuple[str, int]] = set()
    for d in [doc, *(doc.get("periods") or [])]:
        heads = [(d.get("verdict") or {}).get("top_of_db_time") or {}]
        for f in [*d.get("findings", []), *heads]:
            for e in f.get("evidence") or []:
                out |= {(s.get("section"), s.get("line")) for s in e.get("source") or [] if s.get("line")}
            out |= {(c.get("section"), c.get("line")) for c in f.get("culprits") or [] if c.get("line")}
    return out


def row_refs(tables: list[dict], cited: set[tuple[str, int]]) -> dict[str, dict]:
    """'section:line' -> {id, title} of each cited row that the page's section tables show: the line reference
    becomes a link to the row (which gets that id), titled with the row's cells (report text: the templates
    escape it). Only cited rows get an id: a large report's tables hold thousands of rows."""
    refs: dict[str, dict] = {}
    lines_of: dict[str, set[int]] = {}
    for section, line in cited:
        lines_of.setdefault(section, set()).add(line)
    for t in tables:
        wanted = lines_of.get(t["key"])
        if not wanted:
            continue
        cols = t["columns"]
        for i, row in enumerate(t["rows"]):
            ref = f"{t['key']}:{row.line}"
            if row.line not in wanted or ref in refs:  # one id per (section, line): an HTML report
                continue                               # may print several rows on one line
            text = " · ".join(f"{c['label']} {x}" if c["key"] != "name" else x for c, (x, _) in zip(cols, cells(row, cols))
                              if x != "" and c["key"] != "line" and (c["key"] == "name" or x != row.name))
            t["anchors"][i] = f"{t['key']}-L{row.line}"
            refs[ref] = {"id": t["anchors"][i], "title": _trunc(f"{t['title']}, line {row.line}: {text}", MAX_REF_TEXT)}
    return refs


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
        parts = [{"label": x["label"], "value": x["time_s"], "pct": x["pct"], "cls": _cls(x["label"])}
                 for x in dt["components"]]
        if dt.get("unaccounted_s"):
            parts.append({"label": "other / unattributed", "value": dt["unaccounted_s"],
                          "pct": 100 * dt["unaccounted_s"] / dt["db_time_s"], "cls": "rest"})
        out["db_time_split"] = svg.stacked(parts, label="DB time: CPU and wait classes", kind="db_time_split",
                                           total=dt["db_time_s"])
        ev = [{"label": e["label"], "value": e["pct"] if e["pct"] is not None else e["time_s"],
               "cls": "cpu" if e["label"] == "DB CPU" else _cls(e["label"], e.get("wait_class")),
               "note": f"({fmt_num(e['time_s'], 's')})"} for e in dt["events"]]
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
        {"h": h, **svg.histogram([{"label": b["label"], "pct": b["pct"], "cls": _cls(h["event"])} for b in h["buckets"]],
                                 label=f"{h['event']}: % of waits per bucket ({h['title']})", kind="histogram")}
        for h in c.get("histograms", [])]
    io = c.get("io")
    if io:
        rows = [dict(r, label=r["name"] + (f" [{r['kind'].upper()}]" if r.get("kind") else ""),
                     note_b=f"  avg write {fmt_num(r['write_ms'], 'ms')}" if r.get("write_ms") is not None else "")
                for r in io["rows"]]

        def note(r):
            return f"  avg read {fmt_num(r['read_ms'], 'ms')}" if r.get("read_ms") is not None else ""
        out["io"] = svg.paired(rows, label=f"{io['title']}: reads and writes", kind="io", a_key="reads",
                               b_key="writes", a_name="reads", b_name="writes",
                               unit="MB" if io["unit"] == "MB" else "", note=note)
    return out


def _esc(value) -> str:
    """markupsafe.escape's output, as a plain str (a Markup object per cell cost as much as the rest)."""
    text = str(value)
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;") \
            .replace("'", "&#39;")
    return text


def _cell_text(v: float) -> str:
    """A numeric cell as shown, escaped: a report's tables repeat their values (0, 1, 100...) many times.
    Cached by value, type and sign (-0.0 == 0.0 and 3 == 3.0 to a dict, not to the formatter)."""
    return _cell_text_of(v, type(v), math.copysign(1.0, v))


@lru_cache(maxsize=1 << 16)
def _cell_text_of(v: float, _type: type, _sign: float) -> str:
    return _esc(fmt_num(v))


def _num_td(v: float) -> str:
    if v.__class__ is float:  # the common case, without fmt_num's unit branches; digits and signs need no escape,
        text = plain_number(v)  # a '<0.001' does
        return f'<td class="n" data-v="{v}">{_esc(text) if text[0] in "<>" else text}</td>'
    return f'<td class="n" data-v="{v}">{_cell_text(v)}</td>'


# Whole numeric cells by value: one dict look-up per cell instead of a formatting call. Floats and ints apart
# (3 == 3.0 to a dict, not to the page), -0.0 never looked up (it is 0.0 to a dict); None is the empty cell.
_FLOAT_TD: dict[float | None, str] = {}
_INT_TD: dict[int, str] = {}
_TD_CACHE_MAX = 1 << 16


def head_html(t: dict) -> Markup:
    """The <thead> row of a section table (in the template, its attribute look-ups cost as much as the rows)."""
    out = []
    for c in t["columns"]:
        unit = c["unit"]
        num = ' class="n" data-num="1"' if c["num"] else ' data-num="0"'
        shown = f' <span class="unit">{_esc(unit)}</span>' if unit and unit not in ("stat", "text") else ""
        out.append(f'<th{num} title="click to sort">{_esc(c["label"])}{shown}</th>')
    return Markup("<thead><tr>" + "".join(out) + "</tr></thead>")


def section_table_html(t: dict, prefix: str = "") -> Markup:
    """One parsed section as a collapsed, sortable table (a template macro cost a third of the page's time in
    attribute look-ups when a report has fifty sections)."""
    key = _esc(t["key"])
    notes = "".join(f'<p class="muted small">{_esc(n)}</p>' for n in t["notes"])
    shown = len(t["rows"])
    more = f'<p class="muted small">First {shown} of {_esc(t["total_rows"])} rows.</p>' if t["total_rows"] > shown else ""
    return Markup(
        f'<details class="section" id="{_esc(prefix)}section-{key}">\n'
        f'<summary><strong>{_esc(t["title"])}</strong> <span class="muted">{key} · {_esc(t["total_rows"])} rows · '
        f'line {_esc(t["line"])}</span></summary>\n'
        f'{notes}<div class="scroll">\n<table class="sortable" data-section="{key}">\n{head_html(t)}\n<tbody>\n'
        f'{rows_html(t, prefix)}</tbody>\n</table>\n</div>\n{more}</details>\n')


def rows_html(t: dict, prefix: str = "") -> Markup:
    """The <tbody> rows of a section table, built here from the parsed rows rather than cell by cell in the
    template (the template loop was two thirds of the HTML report's time); every cell escaped, as the
    template's autoescape did."""
    plan = [(0 if c["key"] == "name" else 1 if c["key"] == "line" else 2 if c["num"] else 3, c["key"])
            for c in t["columns"]]
    global _FLOAT_TD, _INT_TD
    if len(_FLOAT_TD) > _TD_CACHE_MAX or len(_INT_TD) > _TD_CACHE_MAX:
        # new dicts, not clear(): a page drawn at the same time in another thread keeps the one it holds
        _FLOAT_TD, _INT_TD = {None: _EMPTY_NUM_TD}, {}
    hows = [how for how, _ in plan]
    k = hows.count(3)
    # section_tables' layout (name, text columns, numeric columns, line), floats only and no -0.0 (a dict takes
    # it for 0.0): the numeric cells of a row are two map() calls over the cache, the misses made one by one
    if hows[:1 + k] == [0] + [3] * k and hows[-1:] == [1] and all(h == 2 for h in hows[1 + k:-1]):
        values = list(chain.from_iterable(row.values.values() for row in t["rows"]))
        if set(map(type, values)) <= _FLOAT_TYPES and not any(v == 0 and math.copysign(1.0, v) < 0 for v in values):
            return Markup(_float_rows_html(t, [key for _, key in plan[1:1 + k]], [key for _, key in plan[1 + k:-1]],
                                           prefix))
    attrs = _row_attrs(t, prefix)
    out = []
    for i, row in enumerate(t["rows"]):
        out.append(f"<tr{attrs(i)}>{''.join(_cell_td(how, key, row) for how, key in plan)}</tr>\n")
    return Markup("".join(out))


_EMPTY_NUM_TD = '<td class="n" data-v=""></td>'
_FLOAT_TD[None] = _EMPTY_NUM_TD
_FLOAT_TYPES = {float, type(None)}


def _row_attrs(t: dict, prefix: str) -> Callable[[int], str]:
    """The attributes of row i of a table: its id when a finding cites it, its class when it is TEMP or UNDO."""
    anchors, kinds = t["anchors"], t["kinds"]
    if not anchors and not kinds:
        return lambda i: ""
    return lambda i: (f' id="{_esc(prefix)}{_esc(anchors[i])}"' if anchors.get(i) else "") + \
        (f' class="hl {_esc(kinds[i])}"' if kinds.get(i) else "")


def _float_rows_html(t: dict, text_keys: list[str], num_keys: list[str], prefix: str) -> str:
    cache = _FLOAT_TD
    get = cache.get
    attrs = _row_attrs(t, prefix)
    out = []
    for i, row in enumerate(t["rows"]):
        vals = list(map(row.values.get, num_keys))
        tds = list(map(get, vals))
        if None in tds:
            for j, td in enumerate(tds):
                if td is None:
                    tds[j] = cache[vals[j]] = _num_td(vals[j])
        texts = "".join([f"<td>{_esc(row.text.get(key, ''))}</td>" for key in text_keys]) if text_keys else ""
        out.append(f"<tr{attrs(i)}><td>{_esc(row.name or '')}</td>{texts}{''.join(tds)}"
                   f'<td class="n" data-v="{row.line}">{row.line}</td></tr>\n')
    return "".join(out)


def _cell_td(how: int, key: str, row) -> str:
    """One cell of the general way: any value type."""
    if how == 2:
        v = row.values.get(key)
        if v is None:
            return _EMPTY_NUM_TD
        cache = _FLOAT_TD if v.__class__ is float else _INT_TD if v.__class__ is int else None
        if not v or cache is None:
            return _num_td(v)
        td = cache.get(v)
        if td is None:
            td = cache[v] = _num_td(v)
        return td
    if how == 0:
        return f"<td>{_esc(row.name or '')}</td>"
    if how == 1:
        return f'<td class="n" data-v="{row.line}">{row.line}</td>'
    return f"<td>{_esc(row.text.get(key, ''))}</td>"


def cells(row: Row, cols: list[dict]) -> list[tuple[str, object]]:
    """A table row's (text, sort value) cells: made for the few rows a line reference needs, not for every row."""
    out = []
    for c in cols:
        if c["key"] == "name":
            out.append((row.name or "", row.name or ""))
        elif c["key"] == "line":
            out.append((str(row.line), row.line))
        elif c["num"]:
            v = row.values.get(c["key"])
            out.append(("" if v is None else fmt_num(v), "" if v is None else v))
        else:
            t = row.text.get(c["key"], "")
            out.append((t, t))
    return out


def section_tables(report: Report | None) -> list[dict]:
    """Every parsed section as a table: columns (label, unit), its parsed rows (the first MAX_TABLE_ROWS), the
    TEMP/UNDO kind of I/O rows by index; rows_html draws them, cells() gives one row's (text, sort value) cells."""
    if report is None:
        return []
    tables = []
    for key, sec in report.sections.items():
        # keys in the order of their first appearance, collected at C speed (a section has thousands of rows)
        text_cols = list(dict.fromkeys(chain.from_iterable(r.text for r in sec.rows)))
        seen_vals = dict.fromkeys(chain.from_iterable(r.values for r in sec.rows))
        val_cols = [k for k in sec.units if k not in text_cols and k in seen_vals]
        val_cols += [k for k in seen_vals if k not in val_cols]
        cols = [{"key": "name", "label": "name", "unit": "", "num": False}]
        cols += [{"key": k, "label": k, "unit": "", "num": False} for k in text_cols if k != "name"]
        cols += [{"key": k, "label": k, "unit": sec.units.get(k, ""), "num": True} for k in val_cols]
        cols.append({"key": "line", "label": "line", "unit": "", "num": True})
        rows = sec.rows[:MAX_TABLE_ROWS]
        kinds = {i: k for i, k in enumerate(map(io_kind, (r.name for r in rows))) if k} \
            if key in ("tablespace_io", "file_io") else {}
        # anchors: row index -> id, for the rows a finding cites (row_refs)
        tables.append({"key": key, "title": sec.title, "line": sec.line, "columns": cols, "rows": rows,
                       "kinds": kinds, "anchors": {}, "total_rows": len(sec.rows), "notes": list(sec.notes)})
    return tables


def _delta_cells(d: dict, unit: str = "") -> dict:
    pct = d.get("pct")
    return {"before": d.get("before"), "after": d.get("after"), "diff": d.get("diff"), "pct": pct, "unit": unit,
            "dir": None if pct is None or abs(pct) < 0.5 else ("up" if pct > 0 else "down")}


def compare_view(doc: dict) -> dict:
    """Before/after view of a compare document (awrscope.change.compare, docs/compare.md)."""
    b, a = doc["before"], doc["after"]
    title = (f"awrscope compare: {b['report'].get('db_name') or '?'} {b['report'].get('begin_snap')}-"
             f"{b['report'].get('end_snap')} vs {a['report'].get('db_name') or '?'} {a['report'].get('begin_snap')}-"
             f"{a['report'].get('end_snap')}")
    metrics = doc.get("metrics", {})
    rows = []
    for mid, d in metrics.items():
        rows.append({"id": mid, "label": d.get("label", mid), "kind": d.get("kind"), **_delta_cells(d, d.get("unit", ""))})
    def bar(r: dict) -> dict:
        return {"label": r["label"], "before": r["before"], "after": r["after"],
                "note_b": f"  ({fmt_num(round(r['pct']), '%', signed=True)})" if r.get("pct") is not None else ""}
    # DB time per transaction is a latency too, but ~100x the redo latencies: it would flatten them.
    lat = [bar(r) for r in rows if r["unit"] == "ms" and r["id"] != "db_time_per_txn_ms"
           and (r["before"] is not None or r["after"] is not None)]
    shares = [bar(r) for r in rows if r["unit"] == "%" and (r["before"] or r["after"])]
    # Rates differ in unit (sessions, s/s, 1/s, B/s) and magnitude (7 sessions beside 393 KiB/s of redo): one
    # small panel each, on its own scale. So do the per-transaction and per-hour figures drawn nowhere else.
    def panel(r: dict) -> dict:
        return {"label": r["label"], "unit": r["unit"], "before": r["before"], "after": r["after"], "pct": r["pct"]}
    rates = [panel(r) for r in rows if r["kind"] == "rate" and (r["before"] or r["after"])]
    per = [panel(r) for r in rows if (r["kind"] == "ratio" or r["id"] == "db_time_per_txn_ms")
           and (r["before"] or r["after"])]
    ev = [e for e in doc.get("events", []) if e.get("scope") == "fg"][:10]
    ev_rows = [bar({"label": e["event"], **e["pct_db_time"]}) for e in ev]
    fd = doc.get("findings", [])
    f_rows = [{"label": f"{f['id']} ({f['status']})", "before": f.get("pct_db_time_before"),
               "after": f.get("pct_db_time_after"), "note_b": ""} for f in fd if f.get("status") != "unchanged" or
              (f.get("pct_db_time_before") or 0) + (f.get("pct_db_time_after") or 0) >= 1]
    pair = dict(a_key="before", b_key="after", a_name=b.get("label") or "before", b_name=a.get("label") or "after")
    svgs = {
        "latency": svg.paired(lat, label="Latencies before and after, ms", kind="cmp_latency", unit="ms", **pair),
        "rates": svg.panels(rates, label="Rates before and after, each on its own scale", kind="cmp_rates", **pair),
        "per_txn": svg.panels(per, label="Per transaction and per hour, before and after, each on its own scale",
                              kind="cmp_per_txn", **pair),
        "shares": svg.paired(shares, label="Shares before and after, %", kind="cmp_shares", unit="%", **pair),
        "events": svg.paired(ev_rows, label="Top foreground events, % of DB time", kind="cmp_events", unit="%", **pair),
        "findings": svg.paired(f_rows, label="Findings, % of DB time", kind="cmp_findings", unit="%", **pair),
    }
    events = [{"event": e["event"], "scope": e["scope"],
               **{k: _delta_cells(e[k]) for k in ("avg_ms", "waits_per_s", "time_per_s", "pct_db_time")}}
              for e in doc.get("events", [])]
    stats = [{"statistic": s_["statistic"], "per_s": _delta_cells(s_["per_s"]), "per_txn": _delta_cells(s_["per_txn"])}
             for s_ in doc.get("statistics", [])]
    return {"title": title, "doc": doc, "before": b, "after": a, "metrics": rows, "svg": svgs, "events": events,
            "statistics": stats[:MAX_TABLE_ROWS], "statistics_total": len(stats)}


#: Severity at or above which a write-path finding marks its window on the trend charts. General findings
#: (G rules) describe what dominates and fire in almost every window, so they do not mark windows.
MARK_SEVERITIES = ("critical", "major", "moderate", "minor")


def _window_label(w: dict, many_instances: bool) -> str:
    t = w.get("begin_time")
    x = t[5:16] if t and len(t) >= 16 else (f"{w.get('begin_snap')}-{w.get('end_snap')}" if w.get("begin_snap")
                                            is not None else f"#{w.get('index', '')}")
    return f"{x} {w.get('instance') or ''}".strip() if many_instances else x


def trend_view(doc: dict) -> dict:
    """A trend document (awrscope.change.trend, docs/compare.md): one series per ``series_meta`` entry over the windows
    in time order; windows where a write-path finding (R rule, minor or worse) or any other cause (major or worse)
    fires are shaded on every chart."""
    windows = doc.get("windows", [])
    many = len({w.get("instance") for w in windows}) > 1
    xs = [_window_label(w, many) for w in windows]
    marks = []
    for k, w in enumerate(windows):
        # write-path findings from minor up, and any cause (not a view) from major up: a window with a critical
        # User I/O finding is not left unshaded because it is not on the write path
        fired = [f for f in w.get("findings", []) if f.get("role", "cause") == "cause" and (
                 (f.get("id", "").startswith("R") and f.get("severity") in MARK_SEVERITIES)
                 or f.get("severity") in ("critical", "major"))]
        if fired:
            marks.append({"i": k, "x": xs[k], "label": "; ".join(f"{f['id']} {f.get('title', '')}" for f in fired),
                          "ids": [f["id"] for f in fired]})
    times = [(_when(w.get("begin_time")), _when(w.get("end_time"))) for w in windows]
    charts = []
    for meta in doc.get("series_meta", []):
        if meta["id"] == "db_time_s":  # a total per window of unequal length: drawn as its rate, average active sessions
            continue
        vals = doc.get("series", {}).get(meta["id"], [])
        if not any(v is not None for v in vals):
            continue
        charts.append({"id": meta["id"], "label": meta.get("label", meta["id"]), "unit": meta.get("unit", ""),
                       "svg": svg.series([{"x": x, "y": v, "begin": b, "end": e} for x, v, (b, e) in zip(xs, vals, times)],
                                         label=f"{meta.get('label', meta['id'])} per window", kind="trend",
                                         unit=meta.get("unit", ""), marks=marks)})
    db = doc.get("database") or {}
    title = f"awrscope trend: {db.get('db_name') or '?'}, {len(windows)} window{'' if len(windows) == 1 else 's'}"
    rows = [{"i": k, "x": xs[k], "w": w} for k, w in enumerate(windows)]
    return {"title": title, "doc": doc, "xs": xs, "charts": charts, "marks": marks, "windows": rows,
            "activity": activity_chart(windows, times, marks),
            "worst": [rows[i] for i in doc.get("worst", [])[:5] if 0 <= i < len(rows) and (rows[i]["w"].get("score") or 0) > 0]}


#: The stack of the activity chart, bottom up: CPU first, as Enterprise Manager draws it
STACK_ORDER = ("CPU", "User I/O", "System I/O", "Commit", "Concurrency", "Application", "Configuration", "Cluster",
               "Network", "Scheduler", "Administrative", "Queueing", "Other", "unaccounted")


def _when(text: str | None):
    from datetime import datetime

    try:
        return datetime.fromisoformat(text) if text else None
    except ValueError:
        return None


def activity_chart(windows: list[dict], times: list[tuple], marks: list[dict]):
    """DB time over time by wait class (average active sessions), one column per snapshot window at its time.
    Windows of several instances over the same period add up (database-wide); a window read twice is drawn once."""
    cols: dict[tuple, dict] = {}
    seen: set[tuple] = set()
    index_of: dict[int, int] = {}
    for k, (w, (b, e)) in enumerate(zip(windows, times)):
        if not b or not e or not w.get("aas_by_class"):
            continue
        if (w.get("instance"), b, e) in seen:
            continue
        seen.add((w.get("instance"), b, e))
        col = cols.setdefault((b, e), {"begin": b, "end": e, "parts": {}, "instances": []})
        index_of[k] = list(cols).index((b, e))
        col["instances"].append(w.get("instance") or "?")
        for name, v in w["aas_by_class"].items():
            key = "CPU" if name in ("CPU", "DB CPU") else name
            col["parts"][key] = col["parts"].get(key, 0.0) + v
    if not cols:
        return None
    columns = sorted(cols.values(), key=lambda c: c["begin"])
    for c in columns:
        span = time_span(c["begin"].strftime("%Y-%m-%d %H:%M"), c["end"].strftime("%Y-%m-%d %H:%M"), " → ")
        c["title"] = (f"{span} ({', '.join(c['instances'])}), "
                      f"{fmt_value(sum(c['parts'].values()), 'sessions')} active sessions")
    names = {n for c in columns for n in c["parts"]}
    order = [n for n in STACK_ORDER if n in names] + sorted(names - set(STACK_ORDER))
    classes = [(n, "cpu" if n == "CPU" else "rest" if n == "unaccounted" else _cls(n, n)) for n in order]
    order_of = {id(c): i for i, c in enumerate(columns)}
    col_marks = []
    for m in marks:
        k = index_of.get(m["i"])
        if k is not None:
            col = list(cols.values())[k]
            col_marks.append({"i": order_of[id(col)], "label": m["label"]})
    return svg.aas_by_class(columns, label="DB time by wait class, average active sessions per window",
                            kind="activity", classes=classes, marks=col_marks)


def fleet_view(doc: dict) -> dict:
    """A fleet document: databases worst first, each with its own trend view."""
    dbs = [{"db": d, "trend": trend_view(d["trend"]) if d.get("trend") else None} for d in doc.get("databases", [])]
    return {"title": f"awrscope fleet: {len(dbs)} databases", "doc": doc, "databases": dbs}
