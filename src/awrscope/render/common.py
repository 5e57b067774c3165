"""What the text and Markdown renderings share: the key metrics they list and the cells of
compare and trend rows."""
from __future__ import annotations

from ..compare import pct_words
from .numbers import fmt_num

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
    return fmt_num(d["before"]), fmt_num(d["after"]), pct_words(d, 0 if d.get("kind") != "rate" else 1)


def window_label(w: dict) -> str:
    t = w["begin_time"] or "?"
    e = (w["end_time"] or "?")[11:16] if w["end_time"] else "?"
    snaps = f"{w['begin_snap']}-{w['end_snap']}" if w["begin_snap"] is not None else "?"
    return f"{t[:16]}..{e} {w['instance'] or ''} snaps {snaps}"


def reading_warnings(doc: dict) -> list[str]:
    """Problems reading the report that bear on all its figures (truncated, an error, a report-wide warning):
    shown right under the header of every output, before any verdict, not only in the issues list at the end."""
    return [i["message"] for i in doc.get("issues") or ()
            if i["level"] == "error" or (i["level"] == "warning" and not i.get("section"))]


def owner_note(doc: dict, cp: dict) -> str:
    """Who the non-I/O remainder of log file sync belongs to, said truthfully: a rule named as its owner
    only points to a finding when that rule fired."""
    owner = cp.get("non_io_owner")
    if not owner or owner == "undetermined":
        return "owner undetermined"
    fired = {f["id"] for f in doc.get("findings") or ()} | {f["id"] for f in doc.get("observations") or ()}
    return f"-> {owner}" if owner in fired else f"{owner}'s to examine, below its threshold: no finding"


def instance_lines(doc: dict) -> list[str]:
    """The per-instance breakdown of a RAC global report, one plain line per instance, busiest first."""
    out = []
    for i in doc.get("instances") or ():
        lfs = i.get("log_file_sync")
        lfs_text = (f"log file sync {fmt_num(lfs['avg_ms'])} ms x {fmt_num(lfs['waits'])}" if lfs and lfs.get("avg_ms")
                    is not None else "log file sync not in its top events")
        top = ", ".join(f"{e['event']} {fmt_num(e['pct_db_time'])} %" for e in i["top_events"] if e["event"] != "DB CPU")[:160]
        cpus = f" on {fmt_num(i['cpus'])} CPUs" if i.get("cpus") else ""
        redo = f", redo {fmt_num(i['redo_Bps'] / 2**20)} MiB/s" if i.get("redo_Bps") is not None else ""
        busiest = f"  <- {fmt_num(i['x_mean_db_time'])}x the mean DB time" if i.get("busiest") else ""
        out.append(f"{i['instance']}: DB time {fmt_num(i['db_time_s'])} s ({fmt_num(i['pct_of_cluster_db_time'])} %), "
                   f"AAS {fmt_num(i['aas'])}{cpus}{redo}, {lfs_text}; top: {top or '-'}{busiest}")
    return out
