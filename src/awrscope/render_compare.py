"""Text and Markdown renderings of the compare, trend and fleet documents
(docs/compare.md). Pure string building from the JSON-ready dicts."""
from __future__ import annotations

from .compare import _fmt, _pct_words


def _side_line(s: dict) -> str:
    r = s["report"]
    snaps = f"snaps {r['begin_snap']}-{r['end_snap']}" if r["begin_snap"] is not None else "snaps ?"
    el = f"{r['elapsed_s']:,.1f} s" if r["elapsed_s"] else "elapsed ?"
    return (f"{s['label']}: {s['source']['path']}  {r['kind']} {r['format']} {r['version'] or '?'}  db {r['db_name'] or '?'}  "
            f"{snaps}  {el} ({r['elapsed_basis']})")


def _delta_cells(d: dict) -> tuple[str, str, str]:
    return _fmt(d["before"]), _fmt(d["after"]), _pct_words(d, 0 if d.get("kind") != "rate" else 1)


def compare_text(doc: dict) -> str:
    out = ["awrscope compare (" + doc["mode"] + ")", "  " + _side_line(doc["before"]), "  " + _side_line(doc["after"]), ""]
    out.append("Effect: " + ("; ".join(doc["effect"]) if doc["effect"] else "no change of note"))
    c = doc["comparability"]
    out.append("Comparable: yes" if c["comparable"] else "NOT COMPARABLE: " + "; ".join(c["warnings"]))
    out += ["", f"  {'metric':44s} {'before':>12s} {'after':>12s}  change"]
    for mid, d in doc["metrics"].items():
        if d["before"] is None and d["after"] is None:
            continue
        b, a, ch = _delta_cells(d)
        out.append(f"  {d['label'] + ' (' + d['unit'] + ')':44.44s} {b:>12s} {a:>12s}  {ch}")
    ev = [e for e in doc["events"] if (e["time_per_s"]["before"] or 0) + (e["time_per_s"]["after"] or 0) > 0][:12]
    if ev:
        out += ["", f"  {'event (time/s, avg ms)':44s} {'before':>12s} {'after':>12s}  change"]
        for e in ev:
            t, a = e["time_per_s"], e["avg_ms"]
            out.append(f"  {e['event'] + ' [' + e['scope'] + ']':44.44s} {_fmt(t['before']):>12s} {_fmt(t['after']):>12s}  "
                       f"{_pct_words(t)}; avg {_fmt(a['before'])} → {_fmt(a['after'])} ms")
    if doc["findings"]:
        out += ["", "  findings:"]
        for f in doc["findings"]:
            out.append(f"    {f['status']:11s} {f['id']} {f['title']} ({f['severity_before'] or '-'} → {f['severity_after'] or '-'}; "
                       f"{_fmt(f['pct_db_time_before'])} → {_fmt(f['pct_db_time_after'])} % of DB time)")
    if doc["whatif_checks"]:
        out += ["", "  what-if checks (BEFORE's models against the AFTER measurement):"]
        for w in doc["whatif_checks"]:
            if not w["checked"]:
                out.append(f"    {w['id']} {w['title']}: not checked ({w['reason']})")
                continue
            lo, hi = w["predicted"]
            out.append(f"    {w['id']} {w['title']}: predicted {w['metric']} {_fmt(lo)}-{_fmt(hi)} {w['unit']}, measured "
                       f"{_fmt(w['measured'])} {w['unit']}: {w['verdict']} (error {_fmt(w['error'])} {w['unit']}"
                       + (f", {w['error_pct']:+.0f} %" if w["error_pct"] is not None else "") + ")")
    s = doc.get("scalability")
    if s:
        out += ["", f"  scalability (M103): {s['streams'][0]:g} → {s['streams'][1]:g} streams, elapsed "
                    f"{_fmt(s['elapsed_s'][0])} → {_fmt(s['elapsed_s'][1])} s ({s['elapsed_basis']}): s = "
                    + ("n/a" if s["s"] is None else f"{s['s']:.3f}")]
    return "\n".join(out)


def compare_markdown(doc: dict) -> str:
    out = [f"# awrscope compare ({doc['mode']})", "", "- " + _side_line(doc["before"]), "- " + _side_line(doc["after"]), "",
           "**Effect**: " + ("; ".join(doc["effect"]) if doc["effect"] else "no change of note"), ""]
    c = doc["comparability"]
    out += ["**Comparable**: yes" if c["comparable"] else "**Not comparable**: " + "; ".join(c["warnings"]), "",
            "| Metric | Unit | Before | After | Change |", "|---|---|---|---|---|"]
    for d in doc["metrics"].values():
        if d["before"] is None and d["after"] is None:
            continue
        b, a, ch = _delta_cells(d)
        out.append(f"| {d['label']} | {d['unit']} | {b} | {a} | {ch} |")
    out += ["", "## Events (time per second, average ms)", "", "| Event | Scope | Time/s before | after | Avg ms before | after |",
            "|---|---|---|---|---|---|"]
    for e in doc["events"][:20]:
        out.append(f"| {e['event']} | {e['scope']} | {_fmt(e['time_per_s']['before'])} | {_fmt(e['time_per_s']['after'])} | "
                   f"{_fmt(e['avg_ms']['before'])} | {_fmt(e['avg_ms']['after'])} |")
    if doc["findings"]:
        out += ["", "## Findings", "", "| Status | Rule | Title | Severity | % DB time |", "|---|---|---|---|---|"]
        for f in doc["findings"]:
            out.append(f"| {f['status']} | {f['id']} | {f['title']} | {f['severity_before'] or '-'} → {f['severity_after'] or '-'} | "
                       f"{_fmt(f['pct_db_time_before'])} → {_fmt(f['pct_db_time_after'])} |")
    if doc["whatif_checks"]:
        out += ["", "## What-if checks", ""]
        for w in doc["whatif_checks"]:
            if w["checked"]:
                out.append(f"- {w['id']} {w['title']}: predicted {_fmt(w['predicted'][0])}-{_fmt(w['predicted'][1])} {w['unit']}, "
                           f"measured {_fmt(w['measured'])} {w['unit']}: {w['verdict']}")
            else:
                out.append(f"- {w['id']} {w['title']}: not checked ({w['reason']})")
    s = doc.get("scalability")
    if s and s["s"] is not None:
        out += ["", f"**Scalability (M103)**: s = {s['s']:.3f} ({s['streams'][0]:g} → {s['streams'][1]:g} streams)"]
    return "\n".join(out)


def _window_label(w: dict) -> str:
    t = w["begin_time"] or "?"
    e = (w["end_time"] or "?")[11:16] if w["end_time"] else "?"
    snaps = f"{w['begin_snap']}-{w['end_snap']}" if w["begin_snap"] is not None else "?"
    return f"{t[:16]}..{e} {w['instance'] or ''} snaps {snaps}"


def trend_text(doc: dict) -> str:
    if doc["kind"] == "fleet":
        return fleet_text(doc)
    d = doc["database"]
    out = [f"awrscope trend: {d['key']}  instances {', '.join(d['instances']) or '?'}  {len(doc['windows'])} windows", ""]
    ids = [s["id"] for s in doc["series_meta"]]
    heads = {"db_time_s": "DBtime s", "aas": "AAS", "lfs_ms": "lfs ms", "redo_write_ms": "rw ms", "redo_MBps": "redo MB/s",
             "commits_per_s": "commits/s", "log_switches_per_hour": "sw/h", "temp_io_share": "temp %",
             "undo_block_write_share": "undo %"}
    out.append(f"  {'#':>3s} {'window':52s} " + " ".join(f"{heads[i]:>9s}" for i in ids) + "  findings")
    for k, w in enumerate(doc["windows"]):
        cells = " ".join(f"{_fmt(w['values'][i]):>9s}" for i in ids)
        fs = ",".join(f["id"] for f in w["findings"] if f["id"].startswith("R"))
        out.append(f"  {k:>3d} {_window_label(w):52.52s} {cells}  {fs}")
    worst = [k for k in doc["worst"] if doc["windows"][k]["score"] > 0]
    out += ["", "  worst windows first (average active sessions lost to write-path findings): " +
            ", ".join(f"#{k} ({doc['windows'][k]['score']:.3g})" for k in worst[:5])
            if worst else "  no write-path finding costs DB time in any window"]
    if doc["findings"]:
        out += ["", "  findings by window:"]
        for f in doc["findings"]:
            out.append(f"    {f['id']} {f['title']}: windows {', '.join('#' + str(k) for k in f['windows'])} "
                       f"(max {_fmt(f['max_pct_db_time'])} % of DB time, {f['worst_severity']})")
    for c in doc["continuity"]:
        out.append(f"  {c['type'].upper()}: windows {', '.join('#' + str(k) for k in c['windows'])}: {c['detail']}")
    for e in doc["errors"]:
        out.append(f"  ERROR {e['error']}")
    return "\n".join(out)


def fleet_text(doc: dict) -> str:
    out = [f"awrscope fleet: {len(doc['databases'])} databases, worst first", ""]
    for k, d in enumerate(doc["databases"], 1):
        top = "; ".join(f"{f['id']} {f['title']}" for f in d["top_findings"]) or "no findings"
        out.append(f"  {k:>3d}. {d['key']:32.32s} {d['windows']:>3d} windows  score {d['score']:.3g}  {top}")
    for e in doc["errors"]:
        out.append(f"  ERROR {e['error']}")
    return "\n".join(out)


def trend_markdown(doc: dict) -> str:
    if doc["kind"] == "fleet":
        out = ["# awrscope fleet", "", "| # | Database | Windows | Score | Top findings |", "|---|---|---|---|---|"]
        for k, d in enumerate(doc["databases"], 1):
            top = "; ".join(f"{f['id']} {f['title']}" for f in d["top_findings"])
            out.append(f"| {k} | {d['key']} | {d['windows']} | {d['score']:.3g} | {top} |")
        if doc["errors"]:
            out += ["", "## Errors", ""] + [f"- `{e['path']}`: {e['error']}" for e in doc["errors"]]
        return "\n".join(out)
    ids = [s["id"] for s in doc["series_meta"]]
    out = [f"# awrscope trend: {doc['database']['key']}", "",
           "| # | Window | " + " | ".join(f"{s['label']} ({s['unit']})" for s in doc["series_meta"]) + " | Findings |",
           "|---|---|" + "---|" * len(ids) + "---|"]
    for k, w in enumerate(doc["windows"]):
        out.append(f"| {k} | {_window_label(w)} | " + " | ".join(_fmt(w["values"][i]) for i in ids) + " | "
                   + ", ".join(f["id"] for f in w["findings"]) + " |")
    if doc["continuity"]:
        out += ["", "## Gaps, overlaps, restarts", ""] + [f"- **{c['type']}** {c['windows']}: {c['detail']}" for c in doc["continuity"]]
    if doc["errors"]:
        out += ["", "## Errors", ""] + [f"- `{e['path']}`: {e['error']}" for e in doc["errors"]]
    return "\n".join(out)
