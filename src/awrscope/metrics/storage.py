"""DBWR, TEMP and UNDO: physical writes, checkpoint writes, temporary and undo I/O,
object-reuse waits and the per-tablespace shares (spec M70-M99)."""
from __future__ import annotations

from ..model import Report, Row
from ..oracle.events import REUSE_EVENTS
from .builder import Builder, row_source
from .values import Source


def db_block_size(r: Report) -> tuple[float | None, Source | None]:
    cs = r.sections.get("cache_sizes")
    row = cs.row("Std Block Size") if cs else None
    if row is not None and row.values.get("begin"):
        return row.values["begin"], row_source("cache_sizes", row, "begin")
    ip = r.sections.get("init_parameters")
    row = ip.row("db_block_size") if ip else None
    if row is not None:
        try:
            v = float(row.text.get("begin", "").replace(",", ""))
            return v, Source("init_parameters", row.name, "begin", row.line, v)
        except ValueError:
            pass
    return None, None

def dbwr_temp_undo(b: Builder) -> None:
    m, r = b.m, b.r
    e, dbt = m.v("elapsed_s"), m.v("db_time_s")
    (pw, ckb, tempw, sd, sm, wopt, wone, wmulti, ucv, redo, undob, rbapp, dropb), srcs, _ = b.stats(
        "physical writes", "DBWR checkpoint buffers written", "physical writes direct temporary tablespace",
        "sorts (disk)", "sorts (memory)", "workarea executions - optimal", "workarea executions - onepass",
        "workarea executions - multipass", "undo change vector size", "redo size", "DBWR undo block writes",
        "rollback changes - undo records applied", "DBWR object drop buffers written")
    b.ratio("phys_write_blocks_ps", pw, e, [srcs[0]])
    ios = r.sections.get("iostat_function")
    row = ios.row("DBWR") if ios else None
    b.put("dbwr_write_iops", row.values.get("write_reqs_per_s") if row else None,
          [row_source("iostat_function", row, "write_reqs_per_s")] if row else [])
    dfpw = m.bg("db file parallel write")
    b.put("dfpw_ms", dfpw.avg_ms if dfpw else None, dfpw.sources if dfpw else ())
    has_events = m.event_basis is not None and dbt
    for id, names in (("free_buffer_wait_share", ("free buffer waits",)), ("write_complete_share", ("write complete waits",)),
                      ("temp_io_share", ("direct path write temp", "direct path read temp")),
                      ("us_enq_share", ("enq: US - contention", "undo segment extension")),
                      ("reuse_wait_share", REUSE_EVENTS)):
        if has_events:
            evs = [m.fg(n) for n in names]
            b.put(id, m.pct_db_time(*names), [s for ev in evs if ev for s in ev.sources],
                  low=m.db_time_confidence == "low" or m.event_basis == "top",
                  note=None if any(evs) else "none of the events is printed (below the print threshold or absent)")
        else:
            b.miss(id, note="needs wait events and DB time")
    b.ratio("ckpt_write_share", ckb, pw, [srcs[1], srcs[0]], scale=100.0)
    bs, bss = db_block_size(r)
    b.ratio("temp_write_MBps", tempw * bs / 2**20 if tempw is not None and bs else None, e, [srcs[2], bss])
    tw = m.fg("direct path write temp")
    b.put("temp_write_ms", tw.avg_ms if tw else None, tw.sources if tw else ())
    tot_sorts = sd + sm if sd is not None and sm is not None else None
    b.ratio("disk_sort_pct", sd, tot_sorts, [srcs[3], srcs[4]], scale=100.0)
    if wopt is not None and wone is not None:
        allw = wopt + wone + (wmulti or 0.0)
        b.ratio("multipass_onepass", wone + (wmulti or 0.0), allw, srcs[5:8], scale=100.0)
    else:
        b.miss("multipass_onepass")
    _tablespaces(b)
    b.ratio("undo_rate_Bps", ucv, e, [srcs[8]])
    b.ratio("undo_share_of_redo", ucv, redo, [srcs[8], srcs[9]])
    if undob is not None and pw:
        b.put("undo_block_write_share", 100.0 * undob / pw, [srcs[10], srcs[0]],
              note="'DBWR undo block writes' / 'physical writes'")
    elif m.v("_undo_ts_write_share") is not None:
        mv = m.values.pop("_undo_ts_write_share")
        b.put("undo_block_write_share", mv.value, mv.sources, note="UNDO tablespace writes / all tablespace writes")
    else:
        b.miss("undo_block_write_share")
    m.values.pop("_undo_ts_write_share", None)
    b.ratio("rollback_apply_rate", rbapp, e, [srcs[11]])
    us = r.sections.get("undo_summary")
    if us is not None and us.rows:
        sto = sum((x.values.get("sto") or 0.0) + (x.values.get("oos") or 0.0) for x in us.rows)
        b.put("sto_oos", sto, [row_source("undo_summary", us.rows[0], "sto")])
        trs = [x.values.get("min_tuned_retention_min") for x in us.rows if x.values.get("min_tuned_retention_min") is not None]
        b.put("tuned_retention_min", min(trs) if trs else None, [row_source("undo_summary", us.rows[0], "min_tuned_retention_min")])
    else:
        b.miss("sto_oos")
        b.miss("tuned_retention_min")
    enq = r.sections.get("enqueue_activity")
    ro = next((x for x in (enq or ()) if x.name and x.name.upper().startswith("RO-")), None)
    b.put("ro_wait_ms", ro.values.get("avg_wait_ms") if ro else None, [row_source("enqueue_activity", ro, "avg_wait_ms")] if ro else [])
    b.ratio("drop_buffers_written", dropb, e, [srcs[12]])

def _is_temp(name: str) -> bool:
    return "TEMP" in name.upper()

def _is_undo(name: str) -> bool:
    u = name.upper()
    return "UNDO" in u or u.startswith("RBS") or u == "ROLLBACK" or u.startswith("ROLLBACK")

def by_tablespace(sec) -> list[Row]:
    """File IO Stats rows ("TS  filename") summed per tablespace."""
    agg: dict[str, list] = {}
    for x in sec:
        if not x.name or x.values.get("writes") is None:
            continue
        ts = x.name.split()[0]
        a = agg.setdefault(ts, [0.0, 0.0, x.line])
        a[0] += x.values["writes"]
        a[1] += x.values.get("reads") or 0.0
    return [Row(ts, line, {"writes": w, "reads": rd}) for ts, (w, rd, line) in agg.items()]

def _tablespaces(b: Builder) -> None:
    sec, key = b.r.sections.get("tablespace_io"), "tablespace_io"
    if sec is None and b.r.sections.get("file_io") is not None:
        # File IO Stats rows are per file ("TS  filename"): aggregate by tablespace
        sec, key = by_tablespace(b.r.sections["file_io"]), "file_io"
    rows = [x for x in (sec or ()) if x.name and x.values.get("writes") is not None]
    total_w = sum(x.values["writes"] for x in rows)
    total_io = sum(x.values["writes"] + (x.values.get("reads") or 0.0) for x in rows)
    if not rows or total_w <= 0:
        b.miss("top_write_ts_share", "DIV_ZERO" if rows else "MISSING_INPUT")
        b.miss("temp_ts_share", "DIV_ZERO" if rows else "MISSING_INPUT")
        return
    top = max(rows, key=lambda x: x.values["writes"])
    b.put("top_write_ts_share", 100.0 * top.values["writes"] / total_w, [row_source(key, top, "writes")],
          note=f"tablespace {top.name}")
    temp = [x for x in rows if _is_temp(x.name)]
    b.put("temp_ts_share", 100.0 * sum(x.values["writes"] + (x.values.get("reads") or 0.0) for x in temp) / total_io,
          [row_source(key, x, "writes") for x in temp])
    undo = [x for x in rows if _is_undo(x.name)]
    if undo:
        b.put("_undo_ts_write_share", 100.0 * sum(x.values["writes"] for x in undo) / total_w,
              [row_source(key, x, "writes") for x in undo], unit="%", formula="")
