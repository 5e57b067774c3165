"""Markdown (GitHub-flavoured) renderings of the analysis, compare, trend and fleet documents, for
tickets and chat. Every report string is escaped: a module or SQL text holding HTML shows as text."""
from __future__ import annotations

from .common import (KEY_METRICS, claim_lines, delta_cells, instance_lines, ledger_owner_text, ledger_rows, no_findings_text,
                     cause_share, owner_note,
                     evidence_label, prose, reading_warnings, side_line, snaps_label, source_lines, window_label,
                     window_text)
from .numbers import fmt_num, fmt_value


def _md(v) -> str:
    """A Markdown table cell or inline text from a report string: no raw HTML, no table breakout."""
    text = "" if v is None else str(v)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # brackets escaped: '[x](javascript:...)' from a report's text must not become a live link
    text = text.replace("[", "\\[").replace("]", "\\]")
    return text.replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def _md_range(v, unit: str = "") -> str:
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return fmt_value(v[0], unit) if v[0] == v[1] else f"{fmt_value(v[0], unit)} – {fmt_value(v[1], unit)}{(' ' + unit) if unit else ''}"
    return fmt_value(v, unit)


def render_markdown(doc: dict, verbose: bool = False) -> str:
    """The same verdict and tables as the HTML report, for tickets and chat (GitHub-flavoured Markdown).
    Every report string is escaped: a module or SQL text holding HTML shows as text."""
    r = doc["report"]
    out = [f"# awrscope analysis: {_md(doc['source']['path'])}", "",
           f"{_md(r['kind'])} {_md(r['format'])} {_md(r['version'] or '?')} · db **{_md(r['db_name'] or '?')}** · "
           + (f"container {_md(r['container'])} · " if r.get("container") else "")
           + (f"role {_md(r['role'])} · " if (r.get("role") or "PRIMARY").upper() != "PRIMARY" else "") +
           f"instance(s) {_md(', '.join(r['instances']) or '?')} · host {_md(r['host'] or '?')}"
           + (f" · {snaps_label(doc)}" if snaps_label(doc) else "")
           + (f" · DBID {r['dbid']}" if r.get("dbid") else "")
           + (f" · {window_text(doc, '→')}" if window_text(doc) else ""),
           "", f"elapsed {fmt_num(r['elapsed_s'], 's')}, DB time {fmt_num(r['db_time_s'], 's')} ({_md(r['db_time_basis'])}, "
           f"confidence {_md(r['db_time_confidence'])})", ""]
    out += [f"> **Warning:** {_md(w)}" for w in reading_warnings(doc)] + ([""] if reading_warnings(doc) else [])
    out += ["## Verdict", ""]
    v = doc.get("verdict") or {}
    if v.get("load"):
        out += [f"**Load**: {_md(v['load']['summary'])}", ""]
    if v.get("peak"):
        out += [f"**Peak**: {_md(v['peak']['title'])}", ""]
    if doc.get("instances"):
        out += ["**Per instance** (busiest first; top events of all sessions, background included, as the report's Top Timed Events print them: the ledger below counts foreground time only):", ""] + [f"- {_md(line)}" for line in instance_lines(doc)] + [""]
    if v.get("headline"):
        top = v["headline"]
        out += [f"**Verdict** ({top['severity'].upper()}): {_md(top['line'])}", ""]
    if v.get("top_of_db_time"):
        h = v["top_of_db_time"]
        out += [f"**Context**: {_md(h['title'])}", ""]
        parts = [f"{_md(e['metric'].split('[', 1)[-1].rstrip(']'))} {fmt_num(e['value'], '%')}" for e in h["evidence"] if e["value"] is not None]
        if parts:
            out += ["Largest components of DB time: " + "; ".join(parts), ""]
    if doc.get("periods"):
        out.append("Compare-period report: each period is diagnosed on its own below.")
    elif not doc["findings"]:
        out.append(_md(no_findings_text(doc)) + ".")
    for i, f in enumerate(doc["findings"], 1):
        out.append(f"{i}. **{f['severity'].upper()}** {f['id']} {_md(f['title'])} — {fmt_num(f['impact']['pct_db_time'], '%')} "
                   f"of DB time, confidence {f['confidence']}")
    rows = ledger_rows(doc)
    if rows:
        led = doc["ledger"]
        out += ["", "## Where the time went", "", f"{_md(led['basis'])}; the findings claim "
                f"{fmt_num(led['claimed_pct_db_time'], '%')} of DB time, no second of it twice.", "",
                "| Part of DB time | Seconds | % of DB time | Claimed by / described as |", "|---|---:|---:|---|"]
        out += [f"| {_md(r['name'])} | {fmt_value(r['seconds'], 's')} | {fmt_value(r['pct'], '%')} | {_md(ledger_owner_text(r))} |" for r in rows]
    cp = doc.get("commit_path")
    if cp and cp.get("pct_db_time") is not None:
        out += ["", "## Commit path", "", "| part | seconds | % of DB time |", "|---|---:|---:|",
                f"| log file sync ({fmt_num(cp['lfs_ms'], 'ms')} × {fmt_num(cp['lfs_waits'])} waits) | {fmt_value(cp.get('lfs_time_s'), 's')} | "
                f"{fmt_value(cp['pct_db_time'], '%')} |",
                f"| I/O part (LGWR write {fmt_num(cp.get('lgwr_ms_per_write'), 'ms')}, {_md(cp.get('lgwr_source'))}) | "
                f"{fmt_value(cp.get('io_part_s'), 's')} | {fmt_value(cp.get('io_part_pct_db_time'), '%')} |",
                f"| non-I/O remainder | {fmt_value(cp.get('non_io_part_s'), 's')} | "
                f"{fmt_value(cp.get('non_io_part_pct_db_time'), '%')} |"]
        out += [f"| — {_md(p['name'])}, {fmt_num(p['ms_per_wait'], 'ms')} per wait (owner {p['owner']}) | "
                f"{fmt_value(p['seconds'], 's')} | {fmt_value(p['pct_db_time'], '%')} |" for p in cp.get("parts") or () if p["ms_per_wait"] > 0]
    out += ["", "## Findings (causes ranked by the DB time they claim; views of that time last)", "",
            "| # | Severity | Rule | Title | Claims (% DB time) | Confidence |", "|---|---|---|---|---:|---|"]
    for i, f in enumerate(doc["findings"], 1):
        share = fmt_value(f['impact']['pct_db_time'], '%')
        share = f"view: sees {share}" if f.get("role") == "view" else share
        out.append(f"| {i} | {f['severity']} | {f['id']} | {_md(f['title'])} | {share} | {f['confidence']} |")
    for f in doc["findings"]:
        out += ["", f"### {f['id']} {_md(f['title'])}", "", f"- severity **{f['severity']}**, confidence **{f['confidence']}**, "
                f"impact {fmt_num(f['impact']['db_time_s'], 's')} ({fmt_num(f['impact']['pct_db_time'], '%')} of DB time)", "",
                "| Metric | Value | Unit | Threshold | Source |", "|---|---:|---|---|---|"]
        for e in f["evidence"]:
            if not verbose and (e["value"] is None or (e["value"] == 0 and e["unit"] == "%")):
                continue  # a share of 0 % proves nothing
            src = ", ".join(f"{_md(x['section'])} line {x['line']}" for x in source_lines(e["source"]) if x.get("line"))
            note = f" ({_md(e['note'])})" if e.get("note") else ""
            out.append(f"| {_md(evidence_label(e['metric']))} | {fmt_value(e['value'], e['unit'])}{note} | {_md(e['unit'])} | "
                       f"{_md(e['threshold'] or '')} | {src} |")
        if f.get("culprits"):
            out += ["", "| Culprit | Name | Measure | Share | Detail | Source |", "|---|---|---:|---:|---|---|"]
            for c in f["culprits"]:
                share = f"{fmt_num(c['share_pct'], '%')} of {_md(c['share_of'])}" if c.get("share_pct") is not None else ""
                out.append(f"| {c['kind']} | `{_md(c['name'])}` | {fmt_value(c['value'], c['unit'])} {_md(c['measure'])} | {share} | "
                           f"{_md(c['detail'])} | {_md(c['section'])} line {c['line']} |")
        elif f.get("culprits_missing"):
            out += ["", f"Culprits: {_md(f['culprits_missing'])}"]
        out += [""] + [f"- {_md(line)}" for line in claim_lines(f)] if claim_lines(f) else []
        out += ["", f"**Recommendation**: {_md(prose(f['recommendation']))}"]
        if f.get("confirm"):
            out.append(f"\n**Confirm**: {_md(prose(f['confirm']))}  \n**Refute**: {_md(prose(f['refute']))}")
        for w in f["whatif"]:
            bounds = "; ".join(f"{k} {_md_range(v)}" for k, v in (w.get("result") or {}).items())
            out.append(f"\n- What-if: {_md(w['text'])}" if not verbose else
                       f"\n- What-if {w['id']}: {_md(w['text'])}" + (f" (bounds: {bounds})" if bounds else "") +
                       f" (assumptions: {_md('; '.join(w['assumptions']))})")
        for c in f["caveats"]:
            out.append(f"- Caveat: {_md(prose(c))}")
    if doc.get("annotations"):
        out += ["", "## Where the time goes, nothing wrong", "", "Annotations of the ledger: where to tune, not a fault; "
                "not ranked, not counted by `--fail-on`.", ""]
        out += [f"- {a['id']} {_md(a['title'])}: {_md(prose(a['recommendation']))}" for a in doc["annotations"]]
    if doc.get("addm"):
        out += ["", "## ADDM beside awrscope", "", "| ADDM finding | % of active sessions | Window | awrscope | Line |", "|---|---:|---|---|---:|"]
        for a in doc["addm"]:
            ours = f"{a['ours']['id']} {_md(a['ours']['title'])}" if a.get("ours") else ""
            win = a["window"] + (f" ({fmt_num(a['pct_of_report_db_time'], '%')} of the report's DB time)" if a["window"] == "inside" else "")
            out.append(f"| {_md(a['name'])} | {fmt_value(a['pct_active_sessions'], '%')} | {_md(win)} | {_md(a['status'])}"
                       + (f": {ours}" if ours else "") + f" | {a['line']} |")
    if doc.get("observations"):
        out += ["", "## Observations", "", "No DB time to claim: shown, not ranked, not counted by `--fail-on`.", ""]
        out += [f"- {f['id']} {_md(f['title'])}" for f in doc["observations"]]
    km = [(k, doc["metrics"][k]) for k in KEY_METRICS
          if verbose and k in doc.get("metrics", {}) and doc["metrics"][k]["value"] is not None]
    if km:
        out += ["", "## Key metrics", "", "| Metric | Value | Unit | Lines |", "|---|---:|---|---|"]
        out += [f"| {k} | {fmt_value(m['value'], m['unit'])} | {_md(m['unit'])} | "
                f"{', '.join(str(s['line']) for s in m.get('source', []) if s.get('line'))} |" for k, m in km]
    if verbose and doc["not_applicable"] and not doc.get("periods"):
        out += ["", "## Not applicable", ""] + [f"- {n['id']} {_md(n['title'])}: needs {_md(', '.join(n['needs']))}"
                                                for n in doc["not_applicable"]]
    if doc.get("issues"):
        out += ["", "## Parse issues", "", "| Level | Section | Line | Message |", "|---|---|---:|---|"]
        out += [f"| {i['level']} | {_md(i['section'] or '')} | {i['line'] or ''} | {_md(i['message'])} |" for i in doc["issues"]]
    out += change_markdown(doc.get("change")) + sql_change_markdown(doc.get("sql_change")) if doc.get("change") else []
    for k, p in enumerate(doc.get("periods") or (), 1):
        r = p["report"]
        body = render_markdown(dict(p, source=doc["source"]), verbose).split("\n")[2:]  # the period's own verdict, one level down
        out += ["", f"## Period {k}: snaps {r['begin_snap']}-{r['end_snap']}"] + \
               [("#" + line) if line.startswith("#") else line for line in body]
    return "\n".join(out)


def sql_change_markdown(sc: dict | None, level: str = "##") -> list[str]:
    """The statements whose elapsed time per second changed most, one table row each."""
    if not sc or not sc["statements"]:
        return []
    from ..change.sql import sql_words
    out = [f"{level} SQL that changed", "", f"From {_md(sc.get('source') or 'SQL ordered by Elapsed Time')}: "
           f"{_md(sc['note'])}.", "",
           "| Statement | Change | Module / text |", "|---|---|---|"]
    out += [f"| `{_md(r['sql_id'])}` | {_md(sql_words(r).split(' ', 1)[1])} | {_md(r['module'] or '')} {_md(r['text'][:60])} |"
            for r in sc["statements"][:10]]
    return out + [""]


def change_markdown(ch: dict | None, level: str = "##") -> list[str]:
    """'What changed' (docs/compare.md): the verdict and the leaves' changes split into volume and latency."""
    if not ch:
        return []
    out = [f"{level} What changed", "", _md(ch["verdict"]), "",
           "| Part of DB time | AAS before | after | change | volume | latency | % of before |", "|---|---:|---:|---:|---:|---:|---:|"]
    for c in [c for c in ch["contributions"] if abs(c["delta_aas"]) >= 0.005][:10]:
        out.append(f"| {_md(c['name'])} | {fmt_num(c['before_aas'])} | {fmt_num(c['after_aas'])} | {fmt_num(c['delta_aas'])} | "
                   f"{fmt_num(c['volume_aas'])} | {fmt_num(c['latency_aas'])} | {fmt_value(c['pct_of_before'], '%')} |")
    i = ch["identity"]
    return out + ["", f"The parts add up to the change: {fmt_num(i['sum_delta_aas'])} of {fmt_num(i['delta_aas'])} average active "
                      f"sessions (residual {fmt_num(i['residual_aas'])}).", ""]


def compare_markdown(doc: dict) -> str:
    out = [f"# awrscope compare ({doc['mode']})", "", "- " + side_line(doc["before"]), "- " + side_line(doc["after"]), ""]
    out += change_markdown(doc.get("change"))
    out += sql_change_markdown(doc.get("sql_change"))
    out += ["**Effect**: " + ("; ".join(doc["effect"]) if doc["effect"] else "no change of note"), ""]
    c = doc["comparability"]
    out += ["**Comparable**: yes" if c["comparable"] else "**Not comparable**: " + "; ".join(c["warnings"]), ""]
    out += [f"- {_md(n)}" for n in c.get("notes") or ()] + ([""] if c.get("notes") else [])
    out += [
            "| Metric | Unit | Before | After | Change |", "|---|---|---|---|---|"]
    for d in doc["metrics"].values():
        if d["before"] is None and d["after"] is None:
            continue
        b, a, ch = delta_cells(d)
        out.append(f"| {d['label']} | {d['unit']} | {b} | {a} | {ch} |")
    out += ["", "## Events (time per second, average ms)", "", "| Event | Scope | Time/s before | after | Avg ms before | after |",
            "|---|---|---|---|---|---|"]
    for e in doc["events"][:20]:
        out.append(f"| {e['event']} | {e['scope']} | {fmt_num(e['time_per_s']['before'])} | {fmt_num(e['time_per_s']['after'])} | "
                   f"{fmt_value(e['avg_ms']['before'], 'ms')} | {fmt_value(e['avg_ms']['after'], 'ms')} |")
    if doc["findings"]:
        out += ["", "## Findings", "", "| Status | Rule | Title | Severity | % DB time |", "|---|---|---|---|---|"]
        for f in doc["findings"]:
            out.append(f"| {f['status']} | {f['id']} | {f['title']} | {f['severity_before'] or '-'} → {f['severity_after'] or '-'} | "
                       f"{fmt_value(f['pct_db_time_before'], '%')} → {fmt_value(f['pct_db_time_after'], '%')} |")
    if doc["whatif_checks"]:
        out += ["", "## What-if checks", ""]
        for w in doc["whatif_checks"]:
            if w["checked"]:
                out.append(f"- {w['id']} {w['title']}: predicted {fmt_value(w['predicted'][0], w['unit'])}-{fmt_value(w['predicted'][1], w['unit'])} {w['unit']}, "
                           f"measured {fmt_value(w['measured'], w['unit'])} {w['unit']}: {w['verdict']}")
            else:
                out.append(f"- {w['id']} {w['title']}: not checked ({w['reason']})")
    s = doc.get("scalability")
    if s and s["s"] is not None:
        out += ["", f"**Scalability (M103)**: s = {fmt_num(s['s'])} ({s['streams'][0]:g} → {s['streams'][1]:g} streams)"]
    return "\n".join(out)


def trend_markdown(doc: dict) -> str:
    if doc["kind"] == "fleet":
        out = ["# awrscope fleet", "", "Score: average active sessions the findings claim in the database's "
               "worst window.", "", "| # | Database | Windows | Score (AAS) | Top findings |", "|---|---|---:|---:|---|"]
        for k, d in enumerate(doc["databases"], 1):
            top = "; ".join(f"{f['id']} {f['title']}" for f in d["top_findings"])
            out.append(f"| {k} | {d['key']} | {d['windows']} | {fmt_num(d['score'])} | {top} |")
        if doc["errors"]:
            out += ["", "## Errors", ""] + [f"- `{e['path']}`: {e['error']}" for e in doc["errors"]]
        return "\n".join(out)
    ids = [s["id"] for s in doc["series_meta"]]
    out = [f"# awrscope trend: {doc['database']['key']}", "",
           "| # | Window | " + " | ".join(f"{s['label']} ({s['unit']})" for s in doc["series_meta"]) + " | Findings |",
           "|---|---|" + "---|" * len(ids) + "---|"]
    for k, w in enumerate(doc["windows"]):
        out.append(f"| {k} | {window_label(w)} | " + " | ".join(fmt_num(w["values"][i]) for i in ids) + " | "
                   + ", ".join(cause_share(f) for f in w["findings"]) + " |")
    if doc["continuity"]:
        out += ["", "## Gaps, overlaps, restarts", ""] + [f"- **{c['type']}** {c['windows']}: {c['detail']}" for c in doc["continuity"]]
    if doc["errors"]:
        out += ["", "## Errors", ""] + [f"- `{e['path']}`: {e['error']}" for e in doc["errors"]]
    return "\n".join(out)
