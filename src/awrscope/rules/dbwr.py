"""Datafile-side write rules: R08 (DBWR), R09 (TEMP), R10 (UNDO), R11 (TRUNCATE/DROP
object checkpoints), R16 (hot write tablespace, context)."""
from __future__ import annotations

from ..metrics import Source
from ..metrics.storage import by_tablespace
from ..whatif import w4_pga, w6_truncate_to_gtt
from .base import Context, Evidence, Needs, make_finding, rule
from .culprits import implausible_read_ms
from ..numfmt import fmt_num

REUSE = ("local write wait", "enq: RO - fast object reuse", "enq: KO - fast object checkpoint", "enq: CR - block range reuse ckpt")


@rule("R08", "dbwr-behind", "DBWR cannot keep up (free buffer / write complete waits)", culprits=("segments:physical_writes", "tablespace:writes"), minor_pct=1.0, warning_pct=5.0,
      dfpw_ms=20.0)
def r08(ctx: Context, th: dict):
    """Foregrounds wait for DBWR to free or finish writing buffers.

    What it detects: 'free buffer waits' or 'write complete waits' >= 1 % of DB time; corroborated by
    slow 'db file parallel write', co-occurring checkpoint-incomplete waits, checkpoint-dominated writes.
    What to do: enable async I/O, add DB writers when async is unavailable or DBWR is CPU-bound,
    faster/cached datafile storage, spread hot write tablespaces.
    References: spec R08.
    """
    ctx.need_events()
    m = ctx.m
    fb, wc = m.pct_db_time("free buffer waits") or 0.0, m.pct_db_time("write complete waits") or 0.0
    if max(fb, wc) < th["minor_pct"]:
        return None
    corro = []
    if (m.v("dfpw_ms") or 0) >= th["dfpw_ms"]:
        corro.append(ctx.ev("dfpw_ms", f">= {th['dfpw_ms']} ms"))
    if m.fg("log file switch (checkpoint incomplete)"):
        corro.append(ctx.event_ev("log file switch (checkpoint incomplete)", "> 0"))
    ev = [ctx.event_ev("free buffer waits", f">= {th['minor_pct']} %"), ctx.event_ev("write complete waits", f">= {th['minor_pct']} %"),
          ctx.ev("dfpw_ms"), ctx.ev("ckpt_write_share")] + corro
    for e in ("free buffer waits", "write complete waits"):  # DBWR behind: sessions wait for it by these names
        ctx.explain(e)
    return make_finding(ctx, "R08", ctx.claim_all(("free buffer waits", "write complete waits")),
                        "high" if corro else "medium", ev,
                        "Enable asynchronous I/O (disk_asynch_io, filesystemio_options); add DB writers when async I/O "
                        "is unavailable or DBWR is CPU-bound; faster or write-cached datafile storage; spread hot write "
                        "tablespaces (R16); review huge conventional DML. A bigger cache only helps if writes are healthy.",
                        confirm="iostat on datafile devices; db file parallel write histogram.", refute="DBWR idle with low write latency.")


def _r09_volume_only(ctx: Context, th: dict):
    """No wait events / DB time: TEMP volume alone (Tablespace IO) at Low confidence, no time impact."""
    m = ctx.m
    share = m.v("temp_ts_share")
    if share is None:
        raise Needs("wait events and DB time (direct path read/write temp) or Tablespace IO Stats")
    if share < th["temp_ts_volume_pct"]:
        return None
    return make_finding(ctx, "R09", 0.0, "low", [ctx.ev("temp_ts_share", f">= {th['temp_ts_volume_pct']} % of tablespace I/O")],
                        "TEMP carries most of the tablespace I/O: check for sorts/hash joins spilling (PGA Memory Advisory, "
                        "SQL ordered by User I/O); raise pga_aggregate_target or tune the spilling SQL; put TEMP on fast storage.",
                        title=f"TEMP spill I/O (volume only): TEMP {share:.0f} % of tablespace I/O",
                        caveats=["no wait events or DB time in the report: the time cost of the spills cannot be measured",
                                 "shares are of the tablespaces printed in the report"])


@rule("R09", "temp-spill", "TEMP spill I/O", culprits=("segments:direct_physical_writes", "tablespace:writes"), share_pct=5.0, temp_write_ms=5.0, temp_ts_volume_pct=50.0)
def r09(ctx: Context, th: dict):
    """Sorts and hash joins spill to TEMP and sessions wait on that I/O.

    What it detects: direct path write temp + direct path read temp >= 5 % of DB time, corroborated
    by disk sorts, one-pass/multi-pass work areas, TEMP among the busiest tablespaces.
    Split: temp_write_ms >= 5 ms => storage latency; otherwise volume => memory/SQL.
    What to do: raise pga_aggregate_target (PGA Memory Advisory), tune the spilling SQL, lower DOP,
    move TEMP to faster storage. With workarea_size_policy=MANUAL the *_area_size parameters govern.
    References: spec R09; Ault.
    """
    m = ctx.m
    if m.event_basis is None or not m.v("db_time_s"):
        return _r09_volume_only(ctx, th)
    share = m.v("temp_io_share")
    if share is None or share < th["share_pct"]:
        return None
    corro = [ctx.ev(k, t) for k, t in (("disk_sort_pct", "> 0"), ("multipass_onepass", "> 0"), ("temp_ts_share", "high"))
             if (m.v(k) or 0) > 0]
    slow = (m.v("temp_write_ms") or 0.0) >= th["temp_write_ms"]
    t = m.fg_time("direct path write temp") + m.fg_time("direct path read temp")
    ctx.claim_all(("direct path write temp", "direct path read temp"))
    for e in ("direct path write temp", "direct path read temp"):  # the spill's symptoms (the PGA advisory's too)
        ctx.explain(e)
    ev = [ctx.ev("temp_io_share", f">= {th['share_pct']} %"), ctx.ev("temp_write_ms", f">= {th['temp_write_ms']} ms => storage"),
          ctx.ev("temp_write_MBps")] + corro
    kind = "slow TEMP storage" if slow else "spill volume (memory/SQL)"
    return make_finding(ctx, "R09", t, "high" if corro else "medium", ev,
                        "Raise pga_aggregate_target toward the PGA Memory Advisory point with no extra work-area I/O; tune "
                        "the SQL that spills (hash joins, sorts: see SQL ordered by User I/O); reduce DOP; "
                        + ("move TEMP to faster storage; " if slow else "")
                        + "with workarea_size_policy=MANUAL raise sort_area_size/hash_area_size instead.",
                        title=f"TEMP spill I/O {share:.1f} % of DB time ({kind})",
                        confirm="v$sql_workarea one-pass/multi-pass executions; PGA Memory Advisory.",
                        refute="TEMP time from a single batch job outside the period of interest.",
                        whatif=[w4_pga(t, m.v("db_time_s"))])


@rule("R10", "undo-write-pressure", "UNDO write pressure / rollback cost", culprits=("segments:db_block_changes",),
      us_pct=2.0, undo_write_share_pct=20.0, rollback_ratio_pct=5.0)
def r10(ctx: Context, th: dict):
    """Undo generation, undo segment contention or rollbacks cost writes and time.

    What it detects (time first): 'enq: US - contention' + 'undo segment extension' >= 2 % of DB
    time, STO/OOS > 0. Volume evidence (Ault): undo block writes >= 20 % of physical writes (or UNDO
    tablespaces >= 20 % of tablespace writes), rollback ratio >= 5 % (unless the rollbacks apply less than one
    undo record each: rollbacks with nothing to undo write no undo). Volume-only => Low/Medium:
    undo block writes are DBWR background work, not foreground time.
    What to do: find the source of rollbacks, split huge transactions, size UNDO (retention vs
    tuned retention), put UNDO on adequate storage.
    References: spec R10; Ault.
    """
    m = ctx.m
    us = m.v("us_enq_share")
    time_ev = us is not None and us >= th["us_pct"]
    sto = (m.v("sto_oos") or 0) > 0
    ubw = m.v("undo_block_write_share")
    rbr = m.v("rollback_ratio")
    # rollbacks that apply less than one undo record each mostly had nothing to undo (an application or a connection
    # pool ending read-only work with a rollback): they write no undo and are no evidence of undo pressure
    applied = m.v("undo_records_per_rollback")
    # without Instance Activity (a rate from the Load Profile) whether they undo anything cannot be told: not counted
    empty = (applied is not None and applied < 1.0) or (applied is None and "instance_activity" not in ctx.report.sections)
    vol = []
    if ubw is not None and ubw >= th["undo_write_share_pct"]:
        vol.append(ctx.ev("undo_block_write_share", f">= {th['undo_write_share_pct']} %"))
    if rbr is not None and rbr >= th["rollback_ratio_pct"] and not empty:
        vol.append(ctx.ev("rollback_ratio", f">= {th['rollback_ratio_pct']} %"))
    if not (time_ev or sto or vol):
        if ubw is None and us is None and rbr is None:
            from .base import Needs
            raise Needs("undo_block_write_share or us_enq_share or rollback_ratio")
        return None
    ev = ([ctx.ev("us_enq_share", f">= {th['us_pct']} %")] if us is not None else []) + (
        [ctx.ev("sto_oos", "> 0")] if sto else []) + vol + [ctx.ev("undo_share_of_redo"), ctx.ev("rollback_apply_rate")] + (
        [ctx.ev("undo_records_per_rollback")] if applied is not None and rbr is not None and rbr >= th["rollback_ratio_pct"]
        else [])
    conf = "high" if time_ev else "medium" if (sto or len(vol) > 1) else "low"
    seconds = ctx.claim_all(("enq: US - contention", "undo segment extension"))
    return make_finding(ctx, "R10", seconds, conf, ev,
                        "Find the source of undo and rollbacks (application errors, timeouts, huge transactions) and split "
                        "huge transactions; size UNDO for the retention actually needed (compare undo_retention with the "
                        "tuned retention); put the UNDO tablespace on storage that can absorb its writes.",
                        title="UNDO write pressure" + (f": UNDO {ubw:.0f} % of writes ({m.get('undo_block_write_share').note})"
                                                        if ubw is not None and ubw >= th["undo_write_share_pct"] else
                                                        f": rollbacks {rbr:.0f} % of transactions" if rbr is not None
                                                        and not empty
                                                        and rbr >= th["rollback_ratio_pct"] else ""),
                        confirm="v$undostat per 10 minutes; v$transaction for long/huge transactions.",
                        refute="undo volume proportional to the business workload with no waits.",
                        caveats=[] if time_ev else ["volume evidence only: undo block writes are DBWR background work, not foreground time"])


@rule("R11", "truncate-object-checkpoint", "TRUNCATE/DROP serialization (object checkpoint)", culprits=("segments:db_block_changes",), share_pct=2.0, em_pct=20.0)
def r11(ctx: Context, th: dict):
    """Concurrent TRUNCATE/DROP statements serialize on object checkpoints.

    What it detects: local write wait + enq: RO/KO/CR >= 2 % of DB time (EM warning for local write
    wait: 20 %). The foreground takes RO exclusively while CKPT/DBWR write the object's dirty buffers
    and invalidate the clean ones; concurrent truncates queue behind each other.
    What to do: global temporary tables for work tables (no object checkpoint), less truncate
    concurrency, larger uniform extents (1 MB) and/or a 32 KB block size tablespace, REUSE STORAGE
    trade-offs. Do NOT replace TRUNCATE with DELETE (redo/undo, checkpoint incomplete, log buffer space).
    References: spec R11; Kurtz (scalability metric s = 2*t5/t10 - 1); MOS 1475659.1, 334822.1.
    """
    ctx.need_events()
    m = ctx.m
    share = m.v("reuse_wait_share")
    if share is None or share < th["share_pct"]:
        return None
    present = [e for e in REUSE if m.fg(e)]
    conf = "high" if ("local write wait" in present and any(e.startswith("enq:") for e in present)) else "medium"
    ev = [ctx.ev("reuse_wait_share", f">= {th['share_pct']} %")] + [ctx.event_ev(e) for e in present] + [
        ctx.ev("ro_wait_ms"), ctx.ev("drop_buffers_written")]
    t = sum(m.fg_time(e) for e in REUSE)
    return make_finding(ctx, "R11", ctx.claim_all(REUSE, 0.9), conf, ev,
                        "Use global temporary tables for work tables (no object checkpoint); reduce TRUNCATE concurrency "
                        "or reschedule; use larger uniform extents (1 MB) and/or a 32 KB block size tablespace to cut "
                        "per-truncate work; weigh REUSE STORAGE. Do not replace TRUNCATE with DELETE: it moves the cost to "
                        "redo/undo, log file switch (checkpoint incomplete) and log buffer space. Validate with the "
                        "scalability metric s = 2*t5/t10 - 1 (M103) before and after.",
                        title=f"TRUNCATE/DROP object checkpoints serialize sessions: {share:.1f} % of DB time",
                        confirm="TRUNCATE/DROP in SQL ordered by Executions; RO rows in Enqueue Activity; DBWR object drop buffers written.",
                        refute="no TRUNCATE/DROP in the workload (local write wait from other direct operations).",
                        whatif=[w6_truncate_to_gtt(t, m.v("db_time_s"))])


def _read_latency_note(ctx: Context, read_ms: float | None) -> str | None:
    """A tablespace's printed read latency, said to be implausible rather than repeated when it is
    (culprits.implausible_read_ms)."""
    if read_ms is None:
        return None
    seq = implausible_read_ms(ctx.report, read_ms)
    if seq is not None:
        return f"read latency {read_ms} ms as printed: not plausible beside 'db file sequential read' at {fmt_num(seq, 'ms')}"
    return f"read latency {read_ms} ms"


@rule("R16", "hot-write-tablespace", "Hot write tablespace / file (context finding)", culprits=("tablespace:writes",), family="context", temp_undo_pct=20.0, top_pct=50.0)
def r16(ctx: Context, th: dict):
    """Where the datafile writes go (context for R08-R10).

    What it detects: a TEMP or UNDO tablespace with >= 20 % of tablespace writes, or one tablespace
    with >= 50 % of them (Tablespace IO Stats). Informational: no write latency column exists there.
    References: spec R16; Ault.
    """
    ctx.need("top_write_ts_share")
    sec, key = ctx.report.sections.get("tablespace_io"), "tablespace_io"
    if sec is None:
        sec, key = by_tablespace(ctx.report.sections.get("file_io") or ()), "file_io"
    rows = sorted([r for r in sec if r.name and r.values.get("writes") is not None], key=lambda r: -r.values["writes"])
    total = sum(r.values["writes"] for r in rows) or 1.0
    flagged = []
    for r in rows[:5]:
        share = 100.0 * r.values["writes"] / total
        u = r.name.upper()
        special = "TEMP" in u or "UNDO" in u or u.startswith("RBS")
        if (special and share >= th["temp_undo_pct"]) or share >= th["top_pct"]:
            flagged.append(Evidence(f"ts_write_share[{r.name}]", round(share, 2), "%",
                                    f">= {th['temp_undo_pct']} % (TEMP/UNDO) or >= {th['top_pct']} %",
                                    (Source(key, r.name, "writes", r.line, r.values["writes"]),),
                                    note=_read_latency_note(ctx, r.values.get("read_ms"))))
    if not flagged:
        return None
    return make_finding(ctx, "R16", 0.0, "medium", flagged,
                        "Context: place the hottest write tablespaces on storage that absorbs their writes; TEMP and UNDO "
                        "write volume points to R09/R10.",
                        title="Hot write tablespace: " + ", ".join(f"{e.metric[15:-1]} {e.value:.0f} %" for e in flagged))
