"""Render Analysis documents as plain text (terminal) or Markdown. Pure string building."""
from __future__ import annotations

KEY_METRICS = ("elapsed_s", "db_time_s", "aas", "db_cpu_s", "host_cpu_busy_pct", "redo_rate_Bps", "commit_rate",
               "redo_per_commit_B", "lfs_ms", "lfpw_ms_per_write", "redo_write_ms", "synch_ms", "lfs_lfpw_ratio",
               "non_io_residual_ms", "log_switches_per_hour", "redo_block_size_est", "temp_io_share",
               "undo_block_write_share", "reuse_wait_share")


def _num(v) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, (int, float)):
        a = abs(v)
        if a >= 1e6:
            return f"{v:,.0f}"
        if a >= 100:
            return f"{v:,.1f}"
        return f"{v:.3g}" if a < 1 else f"{v:.2f}"
    return str(v)


def _header(doc: dict) -> list[str]:
    r = doc["report"]
    return [f"{doc['source']['path']}",
            f"  {r['kind']} {r['format']} {r['version'] or 'version not printed'}  db {r['db_name']}  instance(s) {', '.join(r['instances']) or '?'}  "
            f"snaps {r['begin_snap']}-{r['end_snap']}",
            f"  elapsed {_num(r['elapsed_s'])} s, DB time {_num(r['db_time_s'])} s ({r['db_time_basis']}, confidence {r['db_time_confidence']})"]


def render_text(doc: dict) -> str:
    out = _header(doc)
    cp = doc.get("commit_path")
    if cp and cp.get("pct_db_time") is not None:
        line = f"  commit path: log file sync {_num(cp['lfs_ms'])} ms x {cp['lfs_waits']:,.0f} waits = {_num(cp['pct_db_time'])} % of DB time"
        if cp.get("io_part_pct_db_time") is not None:
            line += f"; I/O part {_num(cp['io_part_pct_db_time'])} %, non-I/O remainder {_num(cp['non_io_part_pct_db_time'])} %"
            if cp.get("non_io_range_pct_db_time"):
                lo, hi = cp["non_io_range_pct_db_time"]
                line += f" (range {_num(lo)}-{_num(hi)} %)"
            line += f" -> {cp['non_io_owner']}"
        out.append(line)
    out.append("")
    if not doc["findings"]:
        out.append("  no findings")
    for i, f in enumerate(doc["findings"], 1):
        imp = f["impact"]
        out.append(f"  {i}. [{f['severity'].upper()}] {f['id']} {f['title']}")
        out.append(f"     impact {_num(imp['db_time_s'])} s = {_num(imp['pct_db_time'])} % of DB time; confidence {f['confidence']}")
        for e in f["evidence"][:6]:
            if e["value"] is None:
                continue
            src = e["source"][0] if e["source"] else None
            where = f"  [{src['section']} line {src['line']}]" if src and src.get("line") else ""
            th = f" (threshold {e['threshold']})" if e.get("threshold") else ""
            out.append(f"       - {e['metric']} = {_num(e['value'])} {e['unit']}{th}{where}")
        out.append(f"     do: {f['recommendation']}")
        for w in f["whatif"]:
            out.append(f"     what-if {w['id']}: {w['text']}")
        for c in f["caveats"]:
            out.append(f"     caveat: {c}")
    if doc["not_applicable"]:
        out.append("")
        groups: dict[str, list[str]] = {}
        for n in doc["not_applicable"]:
            groups.setdefault(", ".join(n["needs"]), []).append(n["id"])
        for need, rids in groups.items():
            out.append(f"  not applicable ({', '.join(sorted(rids))}): needs {need}")
    out.append("")
    out.append("  key metrics: " + ", ".join(f"{k}={_num(doc['metrics'][k]['value'])}" for k in KEY_METRICS
                                             if k in doc["metrics"] and doc["metrics"][k]["value"] is not None))
    return "\n".join(out)


def _md(v) -> str:
    """A Markdown table cell or inline text from a report string: no raw HTML, no table breakout."""
    text = "" if v is None else str(v)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _md_range(v, unit: str = "") -> str:
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return _num(v[0]) if v[0] == v[1] else f"{_num(v[0])} – {_num(v[1])}{(' ' + unit) if unit else ''}"
    return _num(v)


def render_markdown(doc: dict) -> str:
    """The same verdict and tables as the HTML report, for tickets and chat (GitHub-flavoured Markdown).
    Every report string is escaped: a module or SQL text holding HTML shows as text."""
    r = doc["report"]
    out = [f"# awrscope analysis: {_md(doc['source']['path'])}", "",
           f"{_md(r['kind'])} {_md(r['format'])} {_md(r['version'] or '?')} · db **{_md(r['db_name'])}** · "
           f"instance(s) {_md(', '.join(r['instances']) or '?')} · host {_md(r['host'])} · snaps {r['begin_snap']}-{r['end_snap']}",
           "", f"elapsed {_num(r['elapsed_s'])} s, DB time {_num(r['db_time_s'])} s ({_md(r['db_time_basis'])}, "
           f"confidence {_md(r['db_time_confidence'])})", ""]
    out += ["## Verdict", ""]
    if not doc["findings"]:
        out.append("No finding.")
    for i, f in enumerate(doc["findings"], 1):
        out.append(f"{i}. **{f['severity'].upper()}** {f['id']} {_md(f['title'])} — {_num(f['impact']['pct_db_time'])} % "
                   f"of DB time, confidence {f['confidence']}")
    cp = doc.get("commit_path")
    if cp and cp.get("pct_db_time") is not None:
        out += ["", "## Commit path", "", "| part | seconds | % of DB time |", "|---|---:|---:|",
                f"| log file sync ({_num(cp['lfs_ms'])} ms × {_num(cp['lfs_waits'])} waits) | {_num(cp.get('lfs_time_s'))} | "
                f"{_num(cp['pct_db_time'])} |",
                f"| I/O part (LGWR write {_num(cp.get('lgwr_ms_per_write'))} ms, {_md(cp.get('lgwr_source'))}) | "
                f"{_num(cp.get('io_part_s'))} | {_num(cp.get('io_part_pct_db_time'))} |",
                f"| non-I/O remainder (owner {_md(cp.get('non_io_owner'))}) | {_num(cp.get('non_io_part_s'))} | "
                f"{_num(cp.get('non_io_part_pct_db_time'))} |"]
    out += ["", "## Findings (ranked by impact)", "", "| # | Severity | Rule | Title | Impact (% DB time) | Confidence |",
            "|---|---|---|---|---:|---|"]
    for i, f in enumerate(doc["findings"], 1):
        out.append(f"| {i} | {f['severity']} | {f['id']} | {_md(f['title'])} | {_num(f['impact']['pct_db_time'])} | {f['confidence']} |")
    for f in doc["findings"]:
        out += ["", f"### {f['id']} {_md(f['title'])}", "", f"- severity **{f['severity']}**, confidence **{f['confidence']}**, "
                f"impact {_num(f['impact']['db_time_s'])} s ({_num(f['impact']['pct_db_time'])} % of DB time)", "",
                "| Metric | Value | Unit | Threshold | Source |", "|---|---:|---|---|---|"]
        for e in f["evidence"]:
            src = ", ".join(f"{_md(x['section'])} line {x['line']}" for x in e["source"] if x.get("line"))
            out.append(f"| {_md(e['metric'])} | {_num(e['value'])} | {_md(e['unit'])} | {_md(e['threshold'] or '')} | {src} |")
        out += ["", f"**Recommendation**: {_md(f['recommendation'])}"]
        if f.get("confirm"):
            out.append(f"\n**Confirm**: {_md(f['confirm'])}  \n**Refute**: {_md(f['refute'])}")
        for w in f["whatif"]:
            bounds = "; ".join(f"{k} {_md_range(v)}" for k, v in (w.get("result") or {}).items())
            out.append(f"\n- What-if {w['id']}: {_md(w['text'])}" + (f" (bounds: {bounds})" if bounds else "") +
                       f" (assumptions: {_md('; '.join(w['assumptions']))})")
        for c in f["caveats"]:
            out.append(f"- Caveat: {_md(c)}")
    km = [(k, doc["metrics"][k]) for k in KEY_METRICS if k in doc.get("metrics", {}) and doc["metrics"][k]["value"] is not None]
    if km:
        out += ["", "## Key metrics", "", "| Metric | Value | Unit | Lines |", "|---|---:|---|---|"]
        out += [f"| {k} | {_num(m['value'])} | {_md(m['unit'])} | "
                f"{', '.join(str(s['line']) for s in m.get('source', []) if s.get('line'))} |" for k, m in km]
    if doc["not_applicable"]:
        out += ["", "## Not applicable", ""] + [f"- {n['id']} {_md(n['title'])}: needs {_md(', '.join(n['needs']))}"
                                                for n in doc["not_applicable"]]
    if doc.get("issues"):
        out += ["", "## Parse issues", "", "| Level | Section | Line | Message |", "|---|---|---:|---|"]
        out += [f"| {i['level']} | {_md(i['section'] or '')} | {i['line'] or ''} | {_md(i['message'])} |" for i in doc["issues"]]
    return "\n".join(out)
