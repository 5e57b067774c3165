"""What the text and Markdown renderings share: the key metrics they list and the cells of
compare and trend rows."""
from __future__ import annotations

import re

from .numbers import fmt_num, fmt_value
from .. import patterns

KEY_METRICS = ("elapsed_s", "db_time_s", "aas", "db_cpu_s", "host_cpu_busy_pct", "redo_rate_Bps", "commit_rate",
               "redo_per_commit_B", "lfs_ms", "lfpw_ms_per_write", "redo_write_ms", "synch_ms", "lfs_lfpw_ratio",
               "non_io_residual_ms", "log_switches_per_hour", "redo_block_size_est", "temp_io_share",
               "undo_block_write_share", "reuse_wait_share")


def side_line(s: dict) -> str:
    r = s["report"]
    snaps = f"snaps {r['begin_snap']}-{r['end_snap']}" if r["begin_snap"] is not None else "snaps ?"
    el = f"{r['elapsed_s']:,.1f} s" if r["elapsed_s"] else "elapsed ?"
    return (f"{s['label']}: {s['source']['path']}  {r['kind']} {r['format']} {r['version'] or '?'}  db {r['db_name'] or '?'}  "
            f"{snaps}  {el} ({r['elapsed_basis']})")


def delta_cells(d: dict) -> tuple[str, str, str]:
    from ..change.compare import pct_words  # the compare module only when a delta is printed

    unit = d.get("unit") or ""
    return fmt_value(d["before"], unit), fmt_value(d["after"], unit), pct_words(d, 0 if d.get("kind") != "rate" else 1)


def source_lines(sources) -> list[dict]:
    """An evidence's report lines, each once: the figures one line gave (a count and its time, a numerator and its
    denominator) are said together in its title ('wait_events / log file sync / waits = 182,738; ... time_s = 94'),
    not as the same link twice. In the order of first citation; a source without a line keeps its own entry."""
    out: list[dict] = []
    seen: dict[tuple, dict] = {}
    for x in sources or ():
        what = f"{x.get('row')} / {x.get('field')} = {fmt_num(x.get('value'))}"
        key = (x.get("section"), x.get("line"))
        if x.get("line") and key in seen:
            seen[key]["title"] += "; " + what
            continue
        entry = {"section": x.get("section"), "line": x.get("line"), "title": f"{x.get('section')} / {what}"}
        out.append(entry)
        if x.get("line"):
            seen[key] = entry
    return out


def unit_of(name: str) -> str:
    """The unit a JSON key names by its words ('lfs_ms_after' -> 'ms', 'saved_s' -> 's', 'pct_db_time_saved' ->
    '%', 'max_redo_writes_per_s_per_lgwr' -> '1/s'), '' when it names none: for a figure shown with its key."""
    words = name.split("_")
    if "pct" in words or "share" in words:
        return "%"
    if "ms" in words:
        return "ms"
    if any(a == "per" and b == "s" for a, b in zip(words, words[1:])):
        return "1/s"
    return "s" if words[-1] == "s" else ""


def time_span(begin: str | None, end: str | None, sep: str = "..") -> str:
    """A window to the minute: '2023-12-23 04:00..05:00' within one day, '2023-12-23 05:59..2023-12-24 04:00' when it
    ends on another day (the end's date is never dropped: '05:59..04:00' reads as a window that ends before it began)."""
    b = (begin or "?")[:16]
    if not end:
        return f"{b}{sep}?"
    e = end[:16]
    same_day = bool(begin) and len(begin) >= 10 and len(e) > 11 and e[:10] == begin[:10]
    return f"{b}{sep}{e[11:] if same_day else e}"


def window_label(w: dict) -> str:
    snaps = f"{w['begin_snap']}-{w['end_snap']}" if w["begin_snap"] is not None else "?"
    return f"{time_span(w['begin_time'], w['end_time'])} {w['instance'] or ''} snaps {snaps}"


def snaps_label(doc: dict) -> str:
    """'snaps 1822-1823', both periods' for a compare-period report ('snaps 1822-1823 vs 1826-1827'), or ''
    for a report that prints no snapshot ids (ASH, ADDM)."""
    spans = [p["report"] for p in doc.get("periods") or ()] or [doc["report"]]
    shown = [f"{r['begin_snap']}-{r['end_snap']}" for r in spans if r.get("begin_snap") is not None]
    return "snaps " + " vs ".join(shown) if shown else ""


def window_text(doc: dict, sep: str = "..") -> str:
    """The window(s) the report covers: both periods' for a compare-period report, '' when none is printed."""
    spans = [p["report"] for p in doc.get("periods") or ()] or [doc["report"]]
    shown = [f"{r['begin_time'][:19]} {sep} {(r.get('end_time') or '?')[:19]}" for r in spans if r.get("begin_time")]
    return " vs ".join(shown)


def reading_warnings(doc: dict) -> list[str]:
    """Problems reading the report that bear on all its figures (truncated, an error, a report-wide warning):
    shown right under the header of every output, before any verdict, not only in the issues list at the end."""
    return [i["message"] for i in doc.get("issues") or ()
            if i["level"] == "error" or (i["level"] == "warning" and not i.get("section"))]


def no_findings_text(doc: dict) -> str:
    """Why a report has no finding: nothing costs a notable share of DB time, or the report prints too little for
    the rules (no wait events: the not-applicable rules say what they need)."""
    na = doc.get("not_applicable") or ()
    if (doc.get("report") or {}).get("kind") == "addm":
        return ("No finding of awrscope's: an ADDM report prints none of the AWR figures its rules read"
                + ("" if doc.get("addm") else "; the ADDM report lists no finding either"))
    if doc.get("ledger") is None and na:
        events = sum(any("wait events" in n for n in r["needs"]) for r in na)
        return (f"No finding, but {len(na)} rules could not be evaluated for want of what the report does not print"
                + (f", {events} of them its wait events with DB time" if events else "") + " (rules not applicable)")
    rest = next((l for l in (doc.get("ledger") or {}).get("leaves") or () if l["kind"] == "remainder"), None)
    if rest is not None and rest["pct_db_time"] >= 50.0:  # the findings could see only the rest
        return (f"No finding in the {100.0 - rest['pct_db_time']:.0f} % of DB time the report itemises; "
                f"{rest['pct_db_time']:.0f} % is " + ("neither CPU nor a printed wait" if rest["name"] == "unaccounted"
                                                      else "in no printed event"))
    return "No finding: nothing on the write path or elsewhere costs a notable share of DB time"


def cause_share(f: dict) -> str:
    """A trend window's finding with the share of DB time it claims there ('R03 14 %'): a cause's share per window,
    so that windows of one database can be read side by side."""
    pct = f.get("pct_db_time")
    return f"{f['id']} {fmt_num(pct, '%')}" if pct is not None and f.get("role", "cause") == "cause" else f["id"]


def owner_note(doc: dict, cp: dict) -> str:
    """The commit wait's parts (the assessment's commit path) per wait, each with the finding that claims it when
    that finding was made: every part of the wait has an owner, named only where it points to a finding."""
    parts = [p for p in cp.get("parts") or () if p["ms_per_wait"] > 0]
    if not parts:
        return "not split: the report has no LGWR write latency" if cp.get("lgwr_ms_per_write") is None else \
            "not split"
    fired = {f["id"] for f in doc.get("findings") or ()} | {f["id"] for f in doc.get("observations") or ()}
    items = [f"{p['name']} {fmt_num(p['ms_per_wait'], 'ms')}" + (f" -> {p['owner']}" if p["owner"] in fired else "")
             for p in parts]
    tail = "" if any(p["owner"] in fired for p in parts) else \
        " (under the commit rules' materiality: no finding)" if not cp.get("material") else " (no finding)"
    return "per wait: " + ", ".join(items) + tail


def instance_lines(doc: dict) -> list[str]:
    """The per-instance breakdown of a RAC global report, one plain line per instance, busiest first."""
    out = []
    for i in doc.get("instances") or ():
        lfs = i.get("log_file_sync")
        lfs_text = (f"log file sync {fmt_num(lfs['avg_ms'], 'ms')} x {fmt_num(lfs['waits'])}" if lfs and lfs.get("avg_ms")
                    is not None else "log file sync not in its top events")
        top = ", ".join(f"{e['event']} {fmt_num(e['pct_db_time'], '%')}" for e in i["top_events"] if e["event"] != "DB CPU")[:160]
        cpus = f" on {fmt_num(i['cpus'])} CPUs" if i.get("cpus") else ""
        redo = f", redo {fmt_num(i['redo_Bps'] / 2**20, 'MiB/s')}" if i.get("redo_Bps") is not None else ""
        busiest = f"  <- {fmt_num(i['x_mean_db_time'])}x the mean DB time" if i.get("busiest") else ""
        out.append(f"{i['instance']}: DB time {fmt_num(i['db_time_s'], 's')} ({fmt_num(i['pct_of_cluster_db_time'], '%')}), "
                   f"AAS {fmt_value(i['aas'], 'sessions')}{cpus}{redo}, {lfs_text}; top: {top or '-'}{busiest}")
    return out


#: Leaves below this share of DB time are summed into one "other" row of the "where the time went" table.
LEDGER_ROW_PCT = 1.0
LEDGER_ROWS = 10


def ledger_rows(doc: dict) -> list[dict]:
    """The rows of "where the time went": the ledger's leaves of at least 1 % of DB time (at most ten),
    the rest summed as one row, and the remainder; each with who claims it and what describes it."""
    led = doc.get("ledger")
    if not led:
        return []
    leaves = [l for l in led["leaves"] if l["kind"] != "remainder"]
    shown = [l for l in leaves if l["pct_db_time"] >= LEDGER_ROW_PCT][:LEDGER_ROWS]
    rest = [l for l in leaves if l not in shown]
    rows = [{"name": l["name"], "kind": l["kind"], "wait_class": l["wait_class"], "seconds": l["seconds"],
             "pct": l["pct_db_time"], "claimed_by": [c["id"] for c in l["claimed_by"]],
             "explained_by": l["explained_by"],
             "annotations": [a["text"] for a in l["annotations"]] or ([l["note"]] if l["kind"] == "background" else [])}
            for l in shown]
    if rest and sum(l["pct_db_time"] for l in rest) >= 0.05:
        claims: dict[str, float] = {}
        for l in rest:
            for c in l["claimed_by"]:
                claims[c["id"]] = claims.get(c["id"], 0.0) + c["seconds"]
        rows.append({"name": f"{len(rest)} other part(s)", "kind": "other", "wait_class": None,
                     "seconds": round(sum(l["seconds"] for l in rest), 3), "pct": round(sum(l["pct_db_time"] for l in rest), 3),
                     "claimed_by": sorted(claims), "claimed_s": claims, "explained_by": [], "annotations": []})
    for l in led["leaves"]:
        if l["kind"] == "remainder" and (abs(l["pct_db_time"]) >= 0.05):
            rows.append({"name": l["name"], "kind": "remainder", "wait_class": None, "seconds": l["seconds"],
                         "pct": l["pct_db_time"], "claimed_by": [c["id"] for c in l["claimed_by"]], "explained_by": [],
                         "annotations": [l["note"] or led["remainder_meaning"]]})
    return rows


def ledger_owner_text(row: dict) -> str:
    """Who answers for a row: 'R01', 'R01 (its symptom)' when the cause explains it, or the annotation."""
    parts = []
    if row.get("claimed_s"):  # several leaves summed: how much of them each finding holds
        total = row["seconds"]
        parts.append(", ".join(i if row["claimed_s"][i] >= 0.995 * total else f"{i} ({fmt_num(row['claimed_s'][i], 's')} of it)"
                               for i in row["claimed_by"]))
    elif row["claimed_by"]:
        parts.append(", ".join(f"{i} (its symptom)" if i in row["explained_by"] else i for i in row["claimed_by"]))
    others = [i for i in row["explained_by"] if i not in row["claimed_by"]]
    if others:
        parts.append("explained by " + ", ".join(others))
    parts += row["annotations"]
    return "; ".join(parts)


def claim_lines(f: dict) -> list[str]:
    """A finding's symptoms, as every output says them: 'explains: log buffer space 32.8 % of DB time'."""
    out = [f"explains: {e['leaf']} {fmt_num(e['pct_db_time'], '%')} of DB time"
           + (f" ({fmt_num(e['claimed_s'], 's')} of it in this finding's impact)" if e.get("claimed_s") else "")
           for e in f.get("explains") or ()]
    out += [f"also: {r['id']} {r['title']}: {r['note']}" for r in f.get("related") or ()]
    return out


#: What a DBA calls each figure a finding rests on; the JSON keeps the ids (``metric``).
EVIDENCE_LABELS = {
    "aas": "average active sessions", "cpu_count": "CPUs (logical)", "cpu_cores": "CPU cores",
    "host_cpu_busy_pct": "host CPU busy", "instance_busy_cpu_pct": "this instance's part of the busy host CPU",
    "host_sys_cpu_pct": "kernel part (SYS_TIME) of the busy host CPU", "cpu_demand_ratio": "CPU demand (DB + background CPU per CPU)",
    "cpu_queue_aas": "sessions waiting for CPU", "db_time_s": "DB time", "elapsed_s": "elapsed time",
    "lfs_ms": "log file sync, per wait", "lfs_lfpw_ratio": "log file sync / LGWR write time",
    "lfpw_ms_per_write": "LGWR write time (log file parallel write), per write",
    "lgwr_ms_per_write": "LGWR write time, per write", "redo_write_ms": "redo write time per write (statistics)",
    "redo_write_size_B": "redo per LGWR write", "non_io_residual_ms": "commit time not spent writing, per commit",
    "lfs_waits_per_commit": "log file sync waits per commit", "commits_per_redo_write": "commits per LGWR write",
    "poll_share": "share of commits that polled", "poll_bound_ms": "polling bound per commit",
    "redo_rate_Bps": "redo per second", "redo_block_size_est": "redo block size (estimated)",
    "log_switches_per_hour": "log switches per hour", "minutes_between_switches": "minutes between log switches",
    "recommended_log_size_B": "log size for 20 minutes between switches", "est_log_size_B": "current log size (estimated)",
    "log_size_ckpt_share": "checkpoints caused by log switches", "remote_sync_ms": "standby (SYNC) write time",
    "temp_io_share": "TEMP share of I/O", "temp_ts_share": "TEMP share of tablespace I/O",
    "temp_write_ms": "TEMP write time, per write", "temp_write_MBps": "TEMP writes per second",
    "undo_block_write_share": "UNDO share of block writes", "undo_share_of_redo": "UNDO share of redo",
    "ts_write_share": "share of the writes", "reuse_wait_share": "object-reuse waits, share of DB time",
    "ro_wait_ms": "object-reuse wait time, per wait", "drop_buffers_written": "DBWR object drop buffers written",
    "dfpw_ms": "DBWR write time (db file parallel write), per write", "unaccounted_s": "DB time not accounted for",
    "unaccounted_pct": "DB time not accounted for, share", "logons_per_s": "logons per second",
    "hard_parses_per_execution": "hard parses per execution", "rollback_ratio": "rollbacks per transaction",
    "undo_records_per_rollback": "undo records applied per rollback",
    "est_db_time_s": "advisory's estimated DB time", "est_phys_read_factor": "advisory's estimated physical reads factor",
    "estd_extra_mb_to_disk": "advisory's estimated extra MB to disk", "bg_time_s": "background process time",
    "io_fraction": "I/O part of the time", "share_of_reads": "share of the reads",
}
_KEYED = {"pct_db_time": "{}, share of DB time", "avg_ms": "{}, average per wait", "elapsed_s": "{}, elapsed time",
          "time_s": "{}, time", "waits": "{}, waits"}


def evidence_label(metric: str) -> str:
    """'pct_db_time[log file sync]' -> 'log file sync, share of DB time'; 'lfs_ms' -> 'log file sync, per wait'; an
    id without a label reads as words ('est_log_size_B' style suffixes dropped)."""
    name, _, key = metric.partition("[")
    if key:
        key = key.rstrip("]")
        return _KEYED.get(name, f"{_words(name)}: {{}}").format(key)
    return EVIDENCE_LABELS.get(metric) or _words(metric)


def _words(ident: str) -> str:
    parts = ident.split("_")
    if len(parts) > 1 and parts[-1] in ("ms", "s", "B", "Bps", "pct", "MBps", "mb", "MB"):
        parts = parts[:-1]
    return " ".join(parts)


#: Each rule as a sentence names it: a rule id is a tag beside a title, never a word of advice.
RULE_NAMES = {
    "R01": "slow redo writes", "R02": "LGWR CPU or scheduling delay", "R03": "too frequent commits",
    "R04": "undersized redo logs", "R05": "archiver falling behind", "R06": "log buffer space",
    "R07": "redo latch contention", "R08": "DBWR falling behind", "R09": "TEMP spills", "R10": "UNDO write pressure",
    "R11": "TRUNCATE/DROP object checkpoints", "R12": "4 KB redo blocks", "R13": "slowest redo log member",
    "R14": "Data Guard SYNC transport", "R15": "adaptive log file sync polling", "R16": "hot write tablespace",
    "R17": "commit waits the report cannot split", "G01": "largest part of DB time", "G02": "CPU bound",
    "G03": "row lock contention", "G04": "concurrency waits", "G05": "RAC cluster waits", "G06": "User I/O reads",
    "G07": "top SQL", "G08": "hard parsing", "G09": "logon storm", "G10": "CPU run queue", "G11": "undersized SGA",
    "G12": "hot segments", "G13": "RAC instance imbalance", "G14": "undersized PGA", "G15": "unexplained time",
    "G16": "resource limits reached", "G17": "activity peak",
}
_RULE_ID = patterns.compile(r"\b([RG]\d\d)\b(?!\.\d)")  # not a release ('EBS R12.2')


def prose(text: str | None) -> str:
    """Advice as a DBA reads it: 'speed up DBWR (R08)' -> 'speed up DBWR (see “DBWR falling behind”)'; the JSON
    keeps the ids."""
    if not text or not _RULE_ID.search(text):
        return text or ""
    text = re.sub(r"\((?:see )?([RG]\d\d)\)", lambda m: f"(see “{RULE_NAMES.get(m.group(1), m.group(1))}”)"
                  if m.group(1) in RULE_NAMES else m.group(0), text)
    return _RULE_ID.sub(lambda m: f"“{RULE_NAMES[m.group(1)]}”" if m.group(1) in RULE_NAMES else m.group(0), text)
