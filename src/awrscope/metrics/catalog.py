"""The metric catalogue (spec WRITE_PATH.md section B): every metric id with its
spec number, unit, formula text and inputs. Derivation lives in derive.py; this
module is data only so that docs and ``awrscope rules`` can list it."""
from __future__ import annotations

from msgspec import Struct

#: Reason codes for a metric that has no value (spec B preamble).
REASONS = {
    "MISSING_INPUT": "an input section, statistic or event is not in the report",
    "OVERFLOW": "an input was printed as ##### (column overflow)",
    "AMBIGUOUS_NAME": "a truncated name matches several statistics",
    "LOW_PRECISION": "inputs are too coarse for a meaningful value",
    "DIV_ZERO": "the denominator is zero",
    "INCONSISTENT": "a part printed larger than its whole (a counter the report cannot be trusted on)",
    "NOT_A_PEAK": "the report's average is no peak figure (a window of many hours, or less than what the system holds)",
}


class MetricDef(Struct, frozen=True):
    id: str
    number: str  # spec id, e.g. "M30"
    unit: str
    formula: str
    inputs: tuple[str, ...]


def _m(number: str, id: str, unit: str, formula: str, *inputs: str) -> MetricDef:
    return MetricDef(id, number, unit, formula, inputs)


CATALOG: tuple[MetricDef, ...] = (
    # B.1 time base and load
    _m("M01", "elapsed_s", "s", "Elapsed(mins)*60 from the header, else end snap time - begin snap time", "header"),
    _m("M02", "db_time_s", "s", "Time Model 'DB time'; else header DB Time*60; SP 8i/9i: CPU used by this session/100 + FG non-idle waits; "
       "last resort: Top-N time / (%Total/100) (includes background waits)", "time_model", "header", "top_events"),
    _m("M03", "aas", "sessions", "db_time_s / elapsed_s", "db_time_s", "elapsed_s"),
    _m("M04", "db_cpu_s", "s", "Time Model 'DB CPU'; else Top-N 'CPU time'/'DB CPU'; else 'CPU used by this session'/100",
       "time_model", "top_events", "instance_activity"),
    _m("M05", "host_cpu_busy_pct", "%", "100*BUSY_TIME/(BUSY_TIME+IDLE_TIME)", "os_stats"),
    _m("M06", "os_cpu_wait_share", "ratio", "OS_CPU_WAIT_TIME/BUSY_TIME", "os_stats"),
    _m("M13", "host_sys_cpu_pct", "%", "100*SYS_TIME/BUSY_TIME: the kernel's part of the host's busy CPU", "os_stats"),
    _m("M19", "instance_busy_cpu_pct", "%", "Instance CPU '% of busy CPU for Instance' (HTML '%Busy CPU'): this "
       "instance's part of the host's busy CPU", "instance_cpu"),
    _m("M07", "cpu_demand_ratio", "ratio", "(db_cpu_s + background cpu time)/(NUM_CPUS*elapsed_s)", "time_model", "os_stats"),
    _m("M09", "cpu_count", "count", "OS Statistics NUM_CPUS; else header CPUs; else init.ora cpu_count (logical CPUs: SMT threads count)",
       "os_stats", "header", "init_parameters"),
    _m("M14", "cpu_cores", "count", "OS Statistics NUM_CPU_CORES; else header Cores", "os_stats", "header"),
    _m("M15", "cpu_queue_aas", "sessions", "OS_CPU_WAIT_TIME(cs)/100/elapsed_s: processes waiting in the run queue on average",
       "os_stats"),
    _m("M16", "unaccounted_s", "s", "max(0, db_time_s - db_cpu_s - sum of foreground non-idle waits): time in calls spent neither on "
       "CPU nor in an instrumented wait, mostly waiting for CPU in the OS run queue (spec P08)", "db_time_s", "db_cpu_s", "wait events"),
    _m("M18", "unaccounted_pct", "%", "100*unaccounted_s/db_time_s", "unaccounted_s", "db_time_s"),
    _m("M08", "rsrc_mgr_wait_share", "%", "100*T_FG('resmgr:cpu quantum')/db_time_s", "wait events"),
    # B.2 event level (for every event of interest, suffix [event name])
    _m("M10", "avg_ms", "ms", "1000*T(e)/W(e) (foreground)", "wait events"),
    _m("M11", "pct_db_time", "%", "100*T_FG(e)/db_time_s", "wait events", "db_time_s"),
    _m("M12", "fg_time_s", "s", "AWR 11g+: Foreground Wait Events; SP/AWR 10g: Wait Events - Background Wait Events", "wait events"),
    _m("M17", "lfpw_tail_share_8ms", "%", "100 - cumulative % of 'log file parallel write' waits below 8 ms (Wait Event Histogram)",
       "wait_histogram"),
    # B.3 redo generation and commits
    _m("M20", "redo_rate_Bps", "B/s", "'redo size'/elapsed_s", "instance_activity"),
    _m("M21", "commit_rate", "1/s", "'user commits'/elapsed_s", "instance_activity"),
    _m("M22", "txn_rate", "1/s", "('user commits'+'user rollbacks')/elapsed_s", "instance_activity"),
    _m("M23", "redo_per_commit_B", "B", "'redo size'/'user commits'", "instance_activity"),
    _m("M24", "redo_per_txn_B", "B", "'redo size'/('user commits'+'user rollbacks')", "instance_activity"),
    _m("M25", "sync_per_commit", "ratio", "'redo synch writes'/'user commits'", "instance_activity"),
    _m("M26", "commits_per_redo_write", "ratio", "'user commits'/'redo writes'", "instance_activity"),
    _m("M27", "lfs_waits_per_commit", "ratio", "W_FG(log file sync)/'user commits'", "wait events", "instance_activity"),
    _m("M28", "exec_per_commit", "ratio", "'execute count'/'user commits'", "instance_activity"),
    _m("M29", "rollback_ratio", "%", "100*'user rollbacks'/('user commits'+'user rollbacks')", "instance_activity"),
    _m("M97", "undo_records_per_rollback", "ratio", "'rollback changes - undo records applied'/'user rollbacks': "
       "below 1, most rollbacks had nothing to undo (a connection pool's reset) and cost no undo", "instance_activity"),
    # B.4 LGWR
    _m("M30", "redo_write_ms", "ms", "'redo write time (usec)'/1000/'redo writes'; else 10*'redo write time'(cs)/'redo writes'",
       "instance_activity"),
    _m("M31", "lfpw_ms_per_wait", "ms", "1000*T_BG(log file parallel write)/W_BG(log file parallel write)", "background wait events"),
    _m("M32", "lfpw_ms_per_write", "ms", "1000*T_BG(log file parallel write)/'redo writes'", "background wait events",
       "instance_activity"),
    _m("M33", "lfpw_write_ratio", "ratio", "W_BG(log file parallel write)/'redo writes' (flag outside [0.8, 1.25])",
       "background wait events", "instance_activity"),
    _m("M34", "redo_write_size_B", "B", "('redo size'+'redo wastage')/'redo writes'", "instance_activity"),
    _m("M35", "redo_block_size_est", "B", "16 + ('redo size'+'redo wastage')/'redo blocks written', snapped to 512/1024/4096",
       "instance_activity"),
    _m("M36", "redo_wastage_pct", "%", "100*'redo wastage'/('redo size'+'redo wastage')", "instance_activity"),
    _m("M37", "wastage_per_write_B", "B", "'redo wastage'/'redo writes'", "instance_activity"),
    _m("M38", "redo_write_iops", "1/s", "'redo writes'/elapsed_s", "instance_activity"),
    _m("M39", "redo_write_MBps", "MB/s", "('redo size'+'redo wastage')/elapsed_s/2^20", "instance_activity"),
    _m("M40", "redo_phys_write_reqs", "1/s", "IO Profile 'Redo Requests' Write/Second; else IOStat LGWR write Reqs per sec",
       "io_profile", "iostat_function"),
    _m("M41", "members_est", "ratio", "redo_phys_write_reqs / redo_write_iops", "redo_phys_write_reqs", "redo_write_iops"),
    _m("M43", "fg_checksum_blocks_per_write", "blocks", "'redo blocks checksummed by FG (exclusive)'/'redo writes'",
       "instance_activity"),
    _m("M45", "worker_delay_us", "us", "'redo write worker delay (usec)'/'redo write worker delay count'", "instance_activity"),
    # B.5 commit wait decomposition
    _m("M50", "lfs_ms", "ms", "1000*T_FG(log file sync)/W_FG(log file sync)", "wait events"),
    _m("M51", "synch_ms", "ms", "'redo synch time (usec)'/1000/'redo synch writes'; else 10*'redo synch time'(cs)/'redo synch writes'",
       "instance_activity"),
    _m("M52", "lfs_lfpw_ratio", "ratio", "lfs_ms / lfpw_ms_per_write (falls back to redo_write_ms, then lfpw_ms_per_wait)",
       "lfs_ms", "lfpw_ms_per_write"),
    _m("M53", "non_io_residual_ms", "ms", "max(0, lfs_ms - alpha*L), L = lfpw_ms_per_write -> redo_write_ms -> lfpw_ms_per_wait",
       "lfs_ms", "lfpw_ms_per_write", "alpha"),
    _m("M54", "alpha", "ratio", "queueing factor, default 1.5 (range 1.0-2.0), configurable", "config"),
    _m("M55", "fg_wakeup_overhead_us", "us", "'redo synch time overhead (usec)'/'redo synch writes'", "instance_activity"),
    _m("M56", "overhead_share", "%", "100*'redo synch time overhead (usec)'/'redo synch time (usec)'", "instance_activity"),
    _m("M57", "overhead_bucket_dist", "%", "share of waits in 'redo synch time overhead count (<2/<8/<32/<128/>=128 msec)'; "
       "the share over 8 ms as the value, null (AMBIGUOUS_NAME, sum kept in the note) when the text report cut the labels "
       "and fewer than all five rows are printed (P16)", "instance_activity"),
    _m("M58", "poll_share", "%", "100*'redo synch poll writes'/'redo synch writes'", "instance_activity"),
    _m("M59", "remote_sync_ms", "ms", "avg_ms of 'SYNC Remote Write' or 'LNS wait on SENDREQ'/'LGWR-LNS wait on channel'",
       "background wait events"),
    # B.6 log switching / checkpoints
    _m("M60", "log_switches_per_hour", "1/h", "Thread Activity 'log switches (derived)' per Hour (or Total*3600/elapsed_s)",
       "thread_activity"),
    _m("M61", "minutes_between_switches", "min", "60 / log_switches_per_hour", "log_switches_per_hour"),
    _m("M62", "est_log_size_B", "B", "('redo size'+'redo wastage')/log switches (when >= 2 switches)", "instance_activity",
       "thread_activity"),
    _m("M63", "recommended_log_size_B", "B", "redo_rate_Bps*60*target_minutes (20) * 1.5 safety for a single report",
       "redo_rate_Bps"),
    _m("M64", "log_size_ckpt_share", "%", "100*Log Size Writes/Total Physical Writes (Checkpoint Activity)", "checkpoint_activity"),
    _m("M65", "ckpt_overrun", "count", "'background checkpoints started' - 'background checkpoints completed'", "instance_activity"),
    _m("M66", "redo_space_wait_ms", "ms", "10*'redo log space wait time'(cs)/'redo log space requests'", "instance_activity"),
    _m("M67", "redo_nowait_pct", "%", "100*(1 - 'redo log space requests'/'redo entries')", "instance_activity"),
    _m("M68", "alloc_retry_ratio", "ratio", "'redo buffer allocation retries'/'redo entries'", "instance_activity"),
    # B.7 DBWR
    _m("M70", "phys_write_blocks_ps", "1/s", "'physical writes'/elapsed_s", "instance_activity"),
    _m("M71", "dbwr_write_iops", "1/s", "IOStat DBWR write Reqs per sec", "iostat_function"),
    _m("M73", "dfpw_ms", "ms", "avg_ms('db file parallel write') (background)", "background wait events"),
    _m("M74", "free_buffer_wait_share", "%", "100*T_FG('free buffer waits')/db_time_s", "wait events"),
    _m("M75", "write_complete_share", "%", "100*T_FG('write complete waits')/db_time_s", "wait events"),
    _m("M76", "ckpt_write_share", "%", "100*'DBWR checkpoint buffers written'/'physical writes'", "instance_activity"),
    _m("M78", "top_write_ts_share", "%", "100*Writes(t)/sum Writes for the tablespace with most writes", "tablespace_io"),
    # B.8 TEMP
    _m("M80", "temp_io_share", "%", "100*(T_FG('direct path write temp')+T_FG('direct path read temp'))/db_time_s", "wait events"),
    _m("M81", "temp_write_MBps", "MB/s", "'physical writes direct temporary tablespace'*db_block_size/elapsed_s/2^20",
       "instance_activity", "db_block_size"),
    _m("M82", "temp_write_ms", "ms", "avg_ms('direct path write temp')", "wait events"),
    _m("M83", "disk_sort_pct", "%", "100*'sorts (disk)'/('sorts (disk)'+'sorts (memory)')", "instance_activity"),
    _m("M84", "multipass_onepass", "%", "100*(onepass+multipass)/(optimal+onepass+multipass) workarea executions",
       "instance_activity"),
    _m("M87", "temp_ts_share", "%", "100*(Reads+Writes) of TEMP tablespaces / sum over all tablespaces", "tablespace_io"),
    # B.9 UNDO
    _m("M90", "undo_rate_Bps", "B/s", "'undo change vector size'/elapsed_s", "instance_activity"),
    _m("M91", "undo_share_of_redo", "ratio", "'undo change vector size'/'redo size'", "instance_activity"),
    _m("M92", "undo_block_write_share", "%", "100*'DBWR undo block writes'/'physical writes'; else 100*Writes(UNDO tablespaces)/sum Writes",
       "instance_activity", "tablespace_io"),
    _m("M93", "rollback_apply_rate", "1/s", "'rollback changes - undo records applied'/elapsed_s", "instance_activity"),
    _m("M94", "sto_oos", "count", "STO + OOS from Undo Segment Summary", "undo_summary"),
    _m("M95", "tuned_retention_min", "min", "minimum of Min/Max TR (mins)", "undo_summary"),
    _m("M96", "us_enq_share", "%", "100*(T_FG('enq: US - contention')+T_FG('undo segment extension'))/db_time_s", "wait events"),
    # B.10 object reuse
    _m("M100", "reuse_wait_share", "%", "100*sum T_FG(local write wait, enq: RO/KO/CR)/db_time_s", "wait events"),
    _m("M101", "ro_wait_ms", "ms", "Av Wt Time(ms) of 'RO-Multiple Object Reuse' (Enqueue Activity)", "enqueue_activity"),
    _m("M102", "drop_buffers_written", "1/s", "'DBWR object drop buffers written'/elapsed_s", "instance_activity"),
    _m("M103", "scalability_s", "ratio", "2*t5/t10 - 1 (benchmark only; awrscope.metrics.scalability)", "benchmark"),
    # B.11 impact (per finding, reported in findings[].impact)
    _m("M110", "addressable_s", "s", "sum over the rule's events of T_FG(e)*removable_fraction(e)", "findings"),
    _m("M111", "addressable_pct", "%", "100*addressable_s/db_time_s", "findings"),
    _m("M112", "addressable_aas", "sessions", "addressable_s/elapsed_s", "findings"),
    _m("M113", "amdahl_speedup_bound", "x", "1/(1 - addressable_pct/100)", "findings"),
)

BY_ID = {m.id: m for m in CATALOG}
BY_NUMBER = {m.number: m for m in CATALOG}
