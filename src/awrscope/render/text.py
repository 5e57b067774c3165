"""Plain-text (terminal) renderings of the analysis, compare, trend and fleet documents. Pure string building."""
from __future__ import annotations

from ..change.compare import pct_words
from .common import (KEY_METRICS, claim_lines, delta_cells, instance_lines, ledger_owner_text, ledger_rows, no_findings_text,
                     cause_share, owner_note,
                     evidence_label, prose, reading_warnings, side_line, snaps_label, window_label,
                     window_text)
from .numbers import fmt_num, fmt_value




def _header(doc: dict) -> list[str]:
    r = doc["report"]
    snaps, window = snaps_label(doc), window_text(doc)
    times = (f"elapsed {fmt_num(r['elapsed_s'], 's')}, DB time {fmt_num(r['db_time_s'], 's')} ({r['db_time_basis']}, "
             f"confidence {r['db_time_confidence']})")
    if doc.get("periods"):
        times = "; ".join(f"period {k}: elapsed {fmt_num(p['report']['elapsed_s'], 's')}, DB time {fmt_num(p['report']['db_time_s'], 's')}"
                          for k, p in enumerate(doc["periods"], 1))
    return [f"{doc['source']['path']}",
            f"  {r['kind']} {r['format']} {r['version'] or 'version not printed'}  db {r['db_name'] or '?'}"
            + (f"  container {r['container']}" if r.get("container") else "")
            + (f"  role {r['role']}" if (r.get("role") or "PRIMARY").upper() != "PRIMARY" else "")
            + f"  instance(s) {', '.join(r['instances']) or '?'}"
            + (f"  {snaps}" if snaps else "") + (f"  dbid {r['dbid']}" if r.get("dbid") else ""),
            *([f"  window {window}"] if window else []),
            f"  {times}",
            *[f"  WARNING: {w}" for w in reading_warnings(doc)]]


def _verdict_lines(doc: dict, verbose: bool = False) -> list[str]:
    v = doc.get("verdict") or {}
    out = []
    j = doc.get("joined")
    if j:
        out.append(f"  joined with ASH report {j['path']} ({fmt_num(j['overlap_pct'], '%')} of this window): "
                   f"SQL named for {j['findings_named']} finding(s)")
    if v.get("load"):
        out.append(f"  load: {v['load']['summary']}")
    if v.get("peak"):
        out.append(f"  peak: {v['peak']['title']}" + (f" ({v['peak']['id']})" if verbose else ""))
    if doc.get("instances"):
        out.append("  per instance (busiest first; top events of all sessions, background included, as the report's Top Timed Events print them: the ledger below counts foreground time only):")
        out += [f"    {line}" for line in instance_lines(doc)]
    if v.get("headline"):
        top = v["headline"]
        out.append(f"  verdict: {top['line']} [{top['severity'].upper()}]" + (f" ({top['id']})" if verbose else ""))
    h = v.get("top_of_db_time")
    if h:
        out.append(f"  context: {h['title']}" + (f" ({h['id']})" if verbose else ""))
        shown = {(c["kind"], c["name"]) for f in doc.get("findings") or () for c in f.get("culprits") or ()}
        # a statement or segment under the verdict and under a finding is said once, with the finding
        rest = [c for c in h.get("culprits") or () if verbose or (c["kind"], c["name"]) not in shown]
        below = [c["name"] for c in h.get("culprits") or () if c not in rest]
        if below:  # said, so that the verdict's first culprit is not taken for the one left here
            out.append(f"     culprit {', '.join(below)}: with the findings below")
        out += _culprit_lines(dict(h, culprits=rest))
    return out


def _culprit_lines(f: dict) -> list[str]:
    out = []
    for c in f.get("culprits") or ():
        share = f", {fmt_num(c['share_pct'], '%')} of {c['share_of']}" if c.get("share_pct") is not None else ""
        detail = f" - {c['detail']}" if c.get("detail") else ""
        out.append(f"     culprit {c['kind']} {c['name']}: {fmt_value(c['value'], c['unit'])} {c['unit'] if c['unit'] != 'count' else ''}"
                   .rstrip() + f" {c['measure']}{share}{detail}  [{c['section']} line {c['line']}]")
    if f.get("culprits_missing") and (f["impact"].get("pct_db_time") or 0) >= 5:
        out.append(f"     culprits: {f['culprits_missing']}")
    return out


def _ledger_lines(doc: dict) -> list[str]:
    rows = ledger_rows(doc)
    if not rows:
        return []
    led = doc["ledger"]
    out = [f"  where the time went ({led['basis']}; findings claim {fmt_num(led['claimed_pct_db_time'], '%')} of it):"]
    for r in rows:
        who = ledger_owner_text(r)
        out.append(f"    {r['name'][:40]:40s} {fmt_value(r['seconds'], 's'):>12s} s {fmt_value(r['pct'], '%'):>7s} %" + (f"  {who}" if who else ""))
    return out


def render_text(doc: dict, verbose: bool = False) -> str:
    """Window and load, the verdict, where the time went, the findings with their evidence, fix and how to
    confirm it, then the rest; ``verbose`` adds what only explains the diagnosis (rules not applicable, key
    metrics, rule ids, what-if bounds), all of which JSON always carries."""
    out = _header(doc)
    if doc.get("change"):
        out += [""] + change_lines(doc["change"], "  ") + sql_change_lines(doc.get("sql_change"), "  ")
    out += _body(doc, verbose=verbose)
    for k, p in enumerate(doc.get("periods") or (), 1):
        r = p["report"]
        out += ["", f"  === period {k} of this compare-period report: snaps {r['begin_snap']}-{r['end_snap']}, elapsed "
                    f"{fmt_num(r['elapsed_s'], 's')}, DB time {fmt_num(r['db_time_s'], 's')} ==="]
        out += _body(p, metrics=False, verbose=verbose)
    return "\n".join(out)


def _commit_path_line(doc: dict, verbose: bool = False) -> list[str]:
    cp = doc.get("commit_path")
    if not cp or cp.get("pct_db_time") is None or (not verbose and cp["pct_db_time"] < 1.0):
        return []  # commits that cost under 1 % of DB time are not part of the story
    line = f"  commit path: log file sync {fmt_num(cp['lfs_ms'], 'ms')} x {cp['lfs_waits']:,.0f} waits = {fmt_num(cp['pct_db_time'], '%')} of DB time"
    if cp.get("io_part_pct_db_time") is not None:
        line += f"; I/O part {fmt_num(cp['io_part_pct_db_time'], '%')}, non-I/O remainder {fmt_num(cp['non_io_part_pct_db_time'], '%')}"
        if cp.get("non_io_range_pct_db_time"):
            lo, hi = cp["non_io_range_pct_db_time"]
            line += f" (range {fmt_value(lo, '%')}-{fmt_num(hi, '%')})"
        line += "; " + owner_note(doc, cp)
    return [line]


def _evidence_shown(e: dict, verbose: bool) -> bool:
    """A figure worth a line: printed, and (unless verbose) not a share of 0 % that proves nothing."""
    return e["value"] is not None and (verbose or e["value"] != 0 or e["unit"] != "%")


def _body(doc: dict, metrics: bool = True, verbose: bool = False) -> list[str]:
    out = _verdict_lines(doc, verbose)
    out += _ledger_lines(doc)
    out += _commit_path_line(doc, verbose)
    out.append("")
    if doc.get("periods"):
        out.append("  compare-period report: each period is diagnosed on its own below")
    elif not doc["findings"]:
        out.append(f"  {no_findings_text(doc)}")
    for i, f in enumerate(doc["findings"], 1):
        imp = f["impact"]
        out.append(f"  {i}. [{f['severity'].upper()}] {f['id']} {f['title']}")
        if f.get("role") == "view":
            out.append(f"     sees {fmt_num(imp['db_time_s'], 's')} = {fmt_num(imp['pct_db_time'], '%')} of DB time by statement or segment "
                       f"(a view of the time the causes above claim: not added); confidence {f['confidence']}")
        else:
            out.append(f"     impact {fmt_num(imp['db_time_s'], 's')} = {fmt_num(imp['pct_db_time'], '%')} of DB time; confidence {f['confidence']}")
        for e in [e for e in f["evidence"] if _evidence_shown(e, verbose)][:6]:
            src = e["source"][0] if e["source"] else None
            where = f"  [{src['section']} line {src['line']}]" if src and src.get("line") else ""
            th = e.get("threshold") or ""
            th = "" if not th else f" (threshold {th})" if th[0] in "<>=≥≤" or th.startswith("sum") else f" ({th})"
            label = evidence_label(e["metric"]) + (f" ({e['metric']})" if verbose else "")
            note = f"; {prose(e['note'])}" if e.get("note") else ""
            out.append(f"       - {label} = {_value(e['value'], e['unit'])}{th}{note}{where}")
        out += [f"     {line}" for line in claim_lines(f)]
        out += _culprit_lines(f)
        out.append(f"     do: {prose(f['recommendation'])}")
        if f.get("confirm"):
            out.append(f"     confirm: {prose(f['confirm'])}")
        if f.get("refute"):
            out.append(f"     refute: {prose(f['refute'])}")
        for w in f["whatif"]:
            out.append(f"     what-if: {w['text']}" if not verbose else
                       f"     what-if {w['id']}: {w['text']}" + "".join(f"; {k} {_range(v)}" for k, v in (w.get("result") or {}).items()))
        for c in f["caveats"]:
            out.append(f"     caveat: {prose(c)}")
    if doc.get("annotations"):
        out += ["", "  where the time goes, nothing wrong (annotations of the ledger; not ranked):"]
        for a in doc["annotations"]:
            out.append(f"    - {a['id']} {a['title']}")
            out.append(f"      do: {prose(a['recommendation'])}")
    if doc.get("addm"):
        out += ["", "  ADDM findings printed in the report, beside awrscope's:"]
        for a in doc["addm"]:
            ours = f" -> {a['ours']['id']} {a['ours']['title']}" if a.get("ours") else ""
            part = f", {fmt_num(a['pct_of_report_db_time'], '%')} of this report's DB time" if a["window"] == "inside" else ""
            out.append(f"    {a['name']} {fmt_num(a['pct_active_sessions'], '%')} ({a['window']} window{part}): {a['status']}{ours}"
                       f"  [addm_findings line {a['line']}]")
    if doc.get("observations"):
        out += ["", "  observations (context, or DB time under the minor share: not ranked, not counted by --fail-on):"]
        for f in doc["observations"]:
            out.append(f"    - {f['id']} {f['title']}")
    if verbose and doc["not_applicable"] and not doc.get("periods"):
        out.append("")
        groups: dict[str, list[str]] = {}
        for n in doc["not_applicable"]:
            groups.setdefault(", ".join(n["needs"]), []).append(n["id"])
        for need, rids in groups.items():
            out.append(f"  not applicable ({', '.join(sorted(rids))}): needs {need}")
    problems = sorted((i for i in doc.get("issues") or () if i["level"] in ("warning", "error")),
                      key=lambda i: (i["level"] != "error", not i["message"].startswith("invariant")))
    if problems:
        out += ["", f"  issues ({len(problems)}; every one in --format json):"]
        for i in problems[:8]:
            out.append(f"    {i['level']}: {i['message']}" + (f" [{i['section'] + ' ' if i.get('section') else ''}line {i['line']}]"
                                                                  if i.get("line") else ""))
    if verbose and metrics and doc["metrics"]:
        out.append("")
        out.append("  key metrics: " + ", ".join(f"{k}={fmt_num(doc['metrics'][k]['value'])}" for k in KEY_METRICS
                                                 if k in doc["metrics"] and doc["metrics"][k]["value"] is not None))
    return out


def _value(v: float, unit: str) -> str:
    """A figure with the unit a reader needs: bytes in MiB/GiB once they are large, a count or ratio bare."""
    if unit in ("B", "Bps") and abs(v) >= 2**20:
        big = abs(v) >= 2**30
        return f"{fmt_value(v / (2**30 if big else 2**20), 'GiB')} {'GiB' if big else 'MiB'}" + ("/s" if unit == "Bps" else "")
    shown = "" if unit in ("count", "ratio", "stat") else unit
    return f"{fmt_value(v, unit)} {shown}".rstrip()


def _range(v, unit: str = "") -> str:
    return f"{fmt_value(v[0], unit)}-{fmt_value(v[1], unit)}" if isinstance(v, (list, tuple)) and len(v) == 2 else \
        fmt_value(v, unit) if isinstance(v, (int, float)) else str(v)


def compare_text(doc: dict) -> str:
    out = ["awrscope compare (" + doc["mode"] + ")", "  " + side_line(doc["before"]), "  " + side_line(doc["after"]), ""]
    out += change_lines(doc.get("change"))
    out += sql_change_lines(doc.get("sql_change"))
    out.append("Effect: " + ("; ".join(doc["effect"]) if doc["effect"] else "no change of note"))
    c = doc["comparability"]
    out.append("Comparable: yes" if c["comparable"] else "NOT COMPARABLE: " + "; ".join(c["warnings"]))
    out += [f"  note: {n}" for n in c.get("notes") or ()]
    out += ["", f"  {'metric':44s} {'before':>12s} {'after':>12s}  change"]
    for mid, d in doc["metrics"].items():
        if d["before"] is None and d["after"] is None:
            continue
        b, a, ch = delta_cells(d)
        out.append(f"  {d['label'] + ' (' + d['unit'] + ')':44.44s} {b:>12s} {a:>12s}  {ch}")
    ev = [e for e in doc["events"] if (e["time_per_s"]["before"] or 0) + (e["time_per_s"]["after"] or 0) > 0][:12]
    if ev:
        out += ["", f"  {'event (time/s, avg ms)':44s} {'before':>12s} {'after':>12s}  change"]
        for e in ev:
            t, a = e["time_per_s"], e["avg_ms"]
            out.append(f"  {e['event'] + ' [' + e['scope'] + ']':44.44s} {fmt_num(t['before']):>12s} {fmt_num(t['after']):>12s}  "
                       f"{pct_words(t)}; avg {fmt_value(a['before'], 'ms')} → {fmt_num(a['after'], 'ms')}")
    if doc["findings"]:
        out += ["", "  findings:"]
        for f in doc["findings"]:
            out.append(f"    {f['status']:11s} {f['id']} {f['title']} ({f['severity_before'] or '-'} → {f['severity_after'] or '-'}; "
                       f"{fmt_value(f['pct_db_time_before'], '%')} → {fmt_num(f['pct_db_time_after'], '%')} of DB time)")
    if doc["whatif_checks"]:
        out += ["", "  what-if checks (BEFORE's models against the AFTER measurement):"]
        for w in doc["whatif_checks"]:
            if not w["checked"]:
                out.append(f"    {w['id']} {w['title']}: not checked ({w['reason']})")
                continue
            lo, hi = w["predicted"]
            out.append(f"    {w['id']} {w['title']}: predicted {w['metric']} {fmt_value(lo, w['unit'])}-{fmt_value(hi, w['unit'])} {w['unit']}, measured "
                       f"{fmt_value(w['measured'], w['unit'])} {w['unit']}: {w['verdict']} (error {fmt_value(w['error'], w['unit'])} {w['unit']}"
                       + (f", {fmt_num(round(w['error_pct']), '%', signed=True)}" if w["error_pct"] is not None else "") + ")")
    s = doc.get("scalability")
    if s:
        out += ["", f"  scalability (M103): {s['streams'][0]:g} → {s['streams'][1]:g} streams, elapsed "
                    f"{fmt_value(s['elapsed_s'][0], 's')} → {fmt_num(s['elapsed_s'][1], 's')} ({s['elapsed_basis']}): s = "
                    + fmt_num(s["s"])]
    return "\n".join(out)


def change_lines(ch: dict | None, indent: str = "") -> list[str]:
    """'What changed': the verdict, then the leaves whose change in DB time per second is largest, each split
    into its volume and latency parts (docs/compare.md)."""
    if not ch:
        return []
    out = [f"{indent}What changed: {ch['verdict']}", "",
           f"{indent}  {'part of DB time (AAS = DB time/s)':36s} {'before':>9s} {'after':>9s} {'change':>9s} {'volume':>9s} "
           f"{'latency':>9s}  % of before"]
    for c in [c for c in ch["contributions"] if abs(c["delta_aas"]) >= 0.005][:10]:
        out.append(f"{indent}  {c['name'][:36]:36s} {fmt_num(c['before_aas']):>9s} {fmt_num(c['after_aas']):>9s} "
                   f"{fmt_num(c['delta_aas']):>9s} {fmt_num(c['volume_aas']):>9s} {fmt_num(c['latency_aas']):>9s}  "
                   f"{fmt_value(c['pct_of_before'], '%')}")
    i = ch["identity"]
    out.append(f"{indent}  the parts add up to the change: {fmt_num(i['sum_delta_aas'])} of {fmt_num(i['delta_aas'])} AAS "
               f"(residual {fmt_num(i['residual_aas'])})")
    return out + [""]


def sql_change_lines(sc: dict | None, indent: str = "") -> list[str]:
    """The statements whose elapsed time per second changed most (SQL ordered by Elapsed Time of both sides, or
    a compare-period report's Top SQL Comparison)."""
    if not sc or not sc["statements"]:
        return []
    from ..change.sql import sql_words

    out = [f"{indent}SQL that changed ({sc.get('source') or 'SQL ordered by Elapsed Time'}; AAS = elapsed time per second):"]
    for r in sc["statements"][:8]:
        out.append(f"{indent}  {sql_words(r)} - {r['module'] + '; ' if r['module'] else ''}{r['text'][:60]}")
    return out + [f"{indent}  ({sc['note']})", ""]


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def trend_text(doc: dict) -> str:
    if doc["kind"] == "fleet":
        return fleet_text(doc)
    d = doc["database"]
    out = [f"awrscope trend: {d['key']}  instances {', '.join(d['instances']) or '?'}  {_count(len(doc['windows']), 'window')}", ""]
    ids = [s["id"] for s in doc["series_meta"]]
    heads = {"db_time_s": "DBtime s", "aas": "AAS", "lfs_ms": "lfs ms", "redo_write_ms": "rw ms", "redo_MBps": "redo MB/s",
             "commits_per_s": "commits/s", "log_switches_per_hour": "sw/h", "temp_io_share": "temp %",
             "undo_block_write_share": "undo %"}
    out.append(f"  {'#':>3s} {'window':52s} " + " ".join(f"{heads[i]:>9s}" for i in ids) + "  findings")
    for k, w in enumerate(doc["windows"]):
        cells = " ".join(f"{fmt_num(w['values'][i]):>9s}" for i in ids)
        fs = ", ".join(cause_share(f) for f in w["findings"] if f.get("role", "cause") == "cause")
        b = w.get("baseline") or {}
        flag = f"  OUTSIDE BASELINE (z {b['robust_z']:+.1f} vs {b['kind']})" if b.get("flag") else ""
        out.append(f"  {k:>3d} {window_label(w):52.52s} {cells}  {fs}{flag}")
    worst = [k for k in doc["worst"] if doc["windows"][k]["score"] > 0]
    out += ["", "  worst windows first (average active sessions the findings claim; write path alone in brackets): " +
            ", ".join(f"#{k} ({fmt_num(doc['windows'][k]['score'])}; {fmt_num(doc['windows'][k].get('write_path_score', 0.0))})"
                      for k in worst[:5])
            if worst else "  no finding claims DB time in any window"]
    if doc["findings"]:
        out += ["", "  findings by window:"]
        for f in doc["findings"]:
            out.append(f"    {f['id']} {f['title']}: windows {', '.join(_window_share(doc, k, f['id']) for k in f['windows'])} "
                       f"(max {fmt_num(f['max_pct_db_time'], '%')} of DB time, {f['worst_severity']})")
    for c in doc["continuity"]:
        out.append(f"  {c['type'].upper()}: windows {', '.join('#' + str(k) for k in c['windows'])}: {c['detail']}")
    for e in doc["errors"]:
        out.append(f"  ERROR {e['error']}")
    return "\n".join(out)


def _window_share(doc: dict, k: int, rid: str) -> str:
    """'#3 (12 %)': a window where the finding fires, with the share of DB time it claims there."""
    f = next((x for x in doc["windows"][k]["findings"] if x["id"] == rid), None)
    return f"#{k}" + (f" ({fmt_num(f['pct_db_time'], '%')})" if f is not None and f.get("pct_db_time") is not None else "")


def fleet_text(doc: dict) -> str:
    out = [f"awrscope fleet: {_count(len(doc['databases']), 'database')}, worst first (score: average active "
           "sessions the findings claim in the database's worst window)", ""]
    for k, d in enumerate(doc["databases"], 1):
        top = "; ".join(f"{f['id']} {f['title']}" for f in d["top_findings"]) or "no findings"
        out.append(f"  {k:>3d}. {d['key']:32.32s} {_count(d['windows'], 'window'):>11s}  score {fmt_num(d['score'])} AAS  {top}")
    for e in doc["errors"]:
        out.append(f"  ERROR {e['error']}")
    return "\n".join(out)
