"""The section registry: which titles map to which section key and mapper.

Version differences in titles live here as data (one pattern per title family,
matched against the lower-cased title with single spaces). The first matching
entry wins, so specific titles come before general ones. Sections whose title
matches nothing are still delimited and listed in ``Report.unrecognised``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ....model import ParseIssue, Section
from ..raw import Block
from . import activity, events, io, misc

Mapper = Callable[[Block, str, list[ParseIssue]], "Section | None"]


@dataclass(frozen=True, slots=True)
class SectionSpec:
    key: str
    pattern: re.Pattern
    mapper: Mapper
    description: str


def _spec(key: str, pattern: str, mapper: Mapper, description: str) -> SectionSpec:
    return SectionSpec(key, re.compile(pattern), mapper, description)


REGISTRY: list[SectionSpec] = [
    _spec("cache_sizes", r"^cache sizes", activity.map_cache_sizes, "Cache Sizes (bytes)"),
    _spec("load_profile", r"^load profile|^workload comparison$", activity.map_load_profile, "Load Profile per second / transaction"),
    _spec("instance_efficiency", r"^instance efficiency (percentages|indicators)", activity.map_efficiency,
          "Instance Efficiency Percentages"),
    _spec("top_events", r"^top (5|10|\d+) (timed|wait) (foreground )?events|^top (5|10) foreground events|^top timed events",
          events.map_events, "Top-N timed events (all title generations)"),
    _spec("wait_classes_total", r"^wait classes by total wait time", events.map_wait_classes,
          "Wait classes, all sessions (12c+)"),
    _spec("time_model", r"^time model (statistics|system stats)", events.map_time_model, "Time Model Statistics"),
    _spec("wait_classes", r"^(foreground )?wait class( statistics)?$|^foreground wait class", events.map_wait_classes,
          "Wait Class (10g: all sessions; 11g+: foreground)"),
    _spec("wait_events_fg", r"^foreground wait events", events.map_events, "Foreground Wait Events (11g+)"),
    _spec("wait_events_bg", r"^background wait events", events.map_events, "Background Wait Events"),
    _spec("wait_events", r"^wait events( \(fg and bg\))?$|^wait events for", events.map_events,
          "Wait Events, system-wide (Statspack, AWR 10g)"),
    _spec("wait_histogram_64ms_2s", r"^wait event histogram detail \(64 msec to 2 sec|^wait event histogram \(up to 2 sec",
          events.map_histogram, "Wait Event Histogram Detail (64 msec to 2 sec)"),
    _spec("wait_histogram_4s_2m", r"^wait event histogram detail \(4 sec to 2 min|^wait event histogram \(up to 2 min",
          events.map_histogram, "Wait Event Histogram Detail (4 sec to 2 min)"),
    _spec("wait_histogram_4m_1h", r"^wait event histogram detail \(4 min to 1 hr|^wait event histogram \(up to 1 hr",
          events.map_histogram, "Wait Event Histogram Detail (4 min to 1 hr)"),
    _spec("wait_histogram_us", r"^wait event histogram \(up to 64 us", events.map_histogram,
          "Wait Event Histogram (microseconds)"),
    _spec("wait_histogram_32ms", r"^wait event histogram \(up to 32 ms", events.map_histogram,
          "Wait Event Histogram (up to 32 ms)"),
    _spec("wait_histogram", r"^wait event histogram", events.map_histogram, "Wait Event Histogram"),
    _spec("host_cpu", r"^host cpu", activity.map_host_cpu, "Host CPU"),
    _spec("instance_cpu", r"^instance cpu", activity.map_instance_cpu, "Instance CPU"),
    _spec("memory_stats", r"^memory statistics", activity.map_memory_stats, "Memory Statistics"),
    _spec("os_stats", r"^(operating system|os) statistics$", activity.map_os_stats, "Operating System Statistics"),
    _spec("io_profile", r"^io profile", io.map_io_profile, "IO Profile"),
    _spec("iostat_function_filetype", r"^iostat by function/filetype", io.map_iostat,
          "IOStat by Function/Filetype summary"),
    _spec("iostat_function", r"^io ?stat by function( -)? summary|^iostat by function summary", io.map_iostat,
          "IOStat by Function summary"),
    _spec("iostat_filetype", r"^iostat by filetype summary", io.map_iostat, "IOStat by Filetype summary"),
    _spec("tablespace_io", r"^tablespace io stats", io.map_tablespace_io, "Tablespace IO Stats"),
    _spec("file_io", r"^file io stats", io.map_tablespace_io, "File IO Stats"),
    _spec("buffer_pool", r"^buffer pool statistics", io.map_buffer_pool, "Buffer Pool Statistics"),
    _spec("checkpoint_activity", r"^checkpoint activity", io.map_checkpoint, "Checkpoint Activity"),
    _spec("instance_recovery", r"^instance recovery stats", io.map_recovery, "Instance Recovery Stats"),
    _spec("buffer_pool_advisory", r"^buffer pool advisory", misc.generic_table, "Buffer Pool Advisory"),
    _spec("pga_aggr_summary", r"^pga aggr(egate)? summary", misc.generic_table, "PGA Aggr Summary"),
    _spec("pga_target_stats", r"^pga aggr target stats", misc.generic_table, "PGA Aggr Target Stats"),
    _spec("pga_histogram", r"^pga aggr target histogram", misc.generic_table, "PGA Aggr Target Histogram"),
    _spec("pga_advisory", r"^pga memory advisory", misc.generic_table, "PGA Memory Advisory"),
    _spec("buffer_waits", r"^buffer wait statistics", misc.map_buffer_waits, "Buffer Wait Statistics"),
    _spec("enqueue_activity", r"^enqueue activity", misc.map_enqueues, "Enqueue Activity"),
    _spec("undo_summary", r"^undo segment summary", misc.map_undo_summary, "Undo Segment Summary"),
    _spec("undo_stats", r"^undo segment stats", misc.generic_table, "Undo Segment Stats"),
    _spec("rollback_stats", r"^rollback segment stats", misc.generic_table, "Rollback Segment Stats (8i/9i)"),
    _spec("latch_activity", r"^latch activity", misc.map_latches, "Latch Activity"),
    _spec("thread_activity", r"^instance activity stats - thread activity", activity.map_thread_activity,
          "Instance Activity Stats - Thread Activity"),
    _spec("instance_activity_absolute", r"^instance activity stats - absolute values", activity.map_activity_absolute,
          "Instance Activity Stats - Absolute Values"),
    _spec("instance_activity", r"^(key |other )?instance activity stats", activity.map_instance_activity,
          "Instance Activity Stats (Key and Other merged)"),
    _spec("sql_by_elapsed", r"^sql ordered by elapsed", misc.map_sql, "SQL ordered by Elapsed Time"),
    _spec("sql_by_cpu", r"^sql ordered by cpu", misc.map_sql, "SQL ordered by CPU Time"),
    _spec("sql_by_user_io", r"^sql ordered by user i/o", misc.map_sql, "SQL ordered by User I/O Wait Time"),
    _spec("sql_by_gets", r"^sql ordered by gets", misc.map_sql, "SQL ordered by Gets"),
    _spec("sql_by_reads", r"^sql ordered by reads", misc.map_sql, "SQL ordered by Reads"),
    _spec("sql_by_physical_reads_unoptimized", r"^sql ordered by physical reads", misc.map_sql,
          "SQL ordered by Physical Reads (UnOptimized)"),
    _spec("sql_by_executions", r"^sql ordered by executions", misc.map_sql, "SQL ordered by Executions"),
    _spec("sql_by_parse_calls", r"^sql ordered by parse calls", misc.map_sql, "SQL ordered by Parse Calls"),
    _spec("sql_by_sharable_memory", r"^sql ordered by sharable memory", misc.map_sql, "SQL ordered by Sharable Memory"),
    _spec("sql_by_version_count", r"^sql ordered by version count", misc.map_sql, "SQL ordered by Version Count"),
    _spec("sql_by_cluster_wait", r"^sql ordered by cluster wait", misc.map_sql, "SQL ordered by Cluster Wait Time"),
    _spec("segments_by_physical_writes", r"^segments by physical writes", misc.generic_table,
          "Segments by Physical Writes"),
    _spec("segments_by_db_block_changes", r"^segments by db blocks? changes", misc.generic_table,
          "Segments by DB Blocks Changes"),
    _spec("segments_by_direct_physical_writes", r"^segments by direct physical writes", misc.generic_table,
          "Segments by Direct Physical Writes"),
    _spec("segments_by_row_lock_waits", r"^segments by row lock waits", misc.generic_table,
          "Segments by Row Lock Waits"),
    _spec("init_parameters", r"^init\.ora parameters", misc.map_parameters, "init.ora Parameters"),
]

_BY_TITLE: dict[str, SectionSpec | None] = {}


def lookup(title: str) -> SectionSpec | None:
    norm = " ".join(title.lower().split())
    if norm in _BY_TITLE:
        return _BY_TITLE[norm]
    found = None
    for spec in REGISTRY:
        if spec.pattern.search(norm):
            found = spec
            break
    _BY_TITLE[norm] = found
    return found


def section_keys() -> list[tuple[str, str]]:
    """(key, description) of every section awrscope maps, in report order."""
    seen: dict[str, str] = {}
    for spec in REGISTRY:
        seen.setdefault(spec.key, spec.description)
    return list(seen.items())
