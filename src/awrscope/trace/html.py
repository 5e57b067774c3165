"""One self-contained HTML page of the trace document: inline CSS, inline SVG bars, no script, no
external fetch. Every string that comes from the trace (SQL text, event, module and file names) is
escaped: a trace is untrusted input."""
from __future__ import annotations

from html import escape

from .render import (CALL_HEAD, LEDGER_HEAD, LEDGER_TITLE, PROFILE_HEAD, _call_rows, _head, _impact, _issues,
                     _ledger_rows, _profile_rows, _stmt_rows, statement_time)

_CSS = """body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;color:#1b1f24;padding:0 16px}
h1{font-size:20px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #d0d7de}h3{font-size:15px}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 8px;border-bottom:1px solid #eaeef2;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}pre{background:#f6f8fa;padding:8px;overflow:auto;
white-space:pre-wrap;max-height:240px}.sev{font-weight:600;text-transform:uppercase;font-size:12px;padding:1px 6px;
border-radius:4px;background:#eaeef2}.critical,.major{background:#ffebe9;color:#82071e}.moderate{background:#fff8c5}
.issue{color:#82071e}.head{color:#57606a;white-space:pre-wrap}svg{vertical-align:middle}
@media print{pre{max-height:none}}"""


def _e(v) -> str:
    return escape("" if v is None else str(v), quote=True)


def _table(rows: list[list[str]], head: list[str], numeric: set[int], bars: int | None = None,
           pct: list | None = None) -> str:
    h = "".join(f'<th class="n">{_e(c)}</th>' if i in numeric else f"<th>{_e(c)}</th>" for i, c in enumerate(head))
    body = []
    for k, r in enumerate(rows):
        cells = []
        for i, c in enumerate(r):
            cell = _e(c)
            if bars is not None and i == bars and pct is not None and k < len(pct) and pct[k]:
                w = max(0.0, min(100.0, float(pct[k])))
                cell = (f'<svg width="80" height="10" role="img" aria-label="{w:.1f}%"><rect width="80" height="10" '
                        f'fill="#eaeef2"/><rect width="{0.8 * w:.1f}" height="10" fill="#0969da"/></svg> ') + cell
            cells.append(f'<td class="n">{cell}</td>' if i in numeric else f"<td>{cell}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{h}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def render_html(doc: dict, statements: int = 10) -> str:
    title = "SQL trace " + doc["source"]["path"]
    parts = [f"<!doctype html><html lang=en><head><meta charset=utf-8><meta name=viewport "
             f"content='width=device-width'><title>{_e(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{_e(title)}</h1>", f'<p class="head">{_e(chr(10).join(x.strip() for x in _head(doc)[1:]))}</p>']
    if doc["issues"]:
        parts.append("<h2>Issues reading the trace" + (" (partial profile)" if doc["partial"] else "") + "</h2><ul>")
        parts += [f'<li class="issue">{_e(x.strip())}</li>' for x in _issues(doc)]
        parts.append("</ul>")
    if doc.get("ledger"):
        rows = _ledger_rows(doc)
        bars = [float(r[6].rstrip("%")) if r[6] else None for r in rows]
        parts += [f"<h2 id=ledger>{_e(LEDGER_TITLE)}</h2>", _table(rows, LEDGER_HEAD, {3, 4, 5, 6}, bars=6, pct=bars)]
    pct = [p["pct"] for p in doc["profile"]] + [100.0]
    parts += ["<h2 id=profile>Response-time profile</h2>",
              _table(_profile_rows(doc), PROFILE_HEAD, {1, 2, 3, 4, 5, 6}, bars=1, pct=pct)]
    parts.append("<h2 id=findings>Findings</h2>")
    if not doc["findings"]:
        parts.append("<p>None.</p>")
    for f in doc["findings"]:
        parts.append(f'<h3 id="finding-{_e(f["id"])}"><span class="sev {_e(f["severity"])}">{_e(f["severity"])}</span> '
                     f'{_e(f["id"])} {_e(f["title"])}: {_e(_impact(f))}</h3><ul>')
        for ev in f["evidence"]:
            lines = ", ".join(str(s["line"]) for s in ev["source"])
            val = "" if ev["value"] is None else f"{ev['value']} {ev['unit']}"
            parts.append(f"<li>{_e(ev['metric'])}: {_e(val)}" + (f" (line {_e(lines)})" if lines else "") +
                         (f"; {_e(ev['note'])}" if ev.get("note") else "") + "</li>")
        parts.append(f"</ul><p><b>Recommendation:</b> {_e(f['recommendation'])}</p>")
    parts.append("<h2 id=statements>Top statements by time in calls</h2>")
    for i, st in enumerate(doc["statements"][:statements], 1):
        parts.append(f'<h3 id="statement-{i}">#{i} {_e(st["key"])} — {_e(st["command"])}, dep={_e(st["depth"])}, '
                     f'line {_e(st["line"])}: {_e(statement_time(st))}</h3>')
        parts.append(f"<pre>{_e(st['text'])}</pre>")
        parts.append(_table(_call_rows(st), CALL_HEAD, set(range(1, 9))))
        parts.append(_table(_stmt_rows(st), ["Component", "%", "Seconds", "Calls", "Max"], {1, 2, 3, 4}, bars=1,
                            pct=[p.get("pct") for p in st["profile"]]))
    parts.append("<h2 id=histograms>Wait duration histograms</h2>")
    if doc["histograms"]:
        labels = [b["label"] for b in doc["histograms"][0]["buckets"]]
        rows = [[h["event"], h["count"], f"{h['min_s']:.6f}", f"{h['avg_s']:.6f}", f"{h['max_s']:.6f}"] +
                [b["count"] for b in h["buckets"]] for h in doc["histograms"]]
        parts.append(_table(rows, ["Event", "Count", "Min s", "Avg s", "Max s"] + labels, set(range(1, 5 + len(labels)))))
    parts.append(f"<p class=head>awrscope {_e(doc.get('awrscope_version'))} · {_e(doc['schema'])}</p></body></html>")
    return "\n".join(parts)
