"""The section registry: the titles of :mod:`awrscope.oracle.sections` bound to one mapper per key.

The first matching title wins. Sections whose title matches nothing are still delimited and
listed in ``Report.unrecognised``.
"""
from __future__ import annotations

import re
from msgspec import Struct
from typing import Callable

from ....model import ParseIssue, Section
from ....oracle.sections import SECTION_TITLES
from ..raw import Block
from . import activity, events, io, misc
from .... import patterns

Mapper = Callable[[Block, str, list[ParseIssue]], "Section | None"]


class SectionSpec(Struct, frozen=True):
    key: str
    pattern: re.Pattern
    mapper: Mapper
    description: str


MAPPERS: dict[str, Mapper] = {
    "addm_findings": misc.map_addm_findings,
    "cache_sizes": activity.map_cache_sizes,
    "load_profile": activity.map_load_profile,
    "instance_efficiency": activity.map_efficiency,
    "top_events": events.map_events,
    "wait_classes_total": events.map_wait_classes,
    "time_model": events.map_time_model,
    "wait_classes": events.map_wait_classes,
    "wait_events_fg": events.map_events,
    "wait_events_bg": events.map_events,
    "wait_events": events.map_events,
    "wait_histogram_64ms_2s": events.map_histogram,
    "wait_histogram_4s_2m": events.map_histogram,
    "wait_histogram_4m_1h": events.map_histogram,
    "wait_histogram_us": events.map_histogram,
    "wait_histogram_32ms": events.map_histogram,
    "wait_histogram": events.map_histogram,
    "host_cpu": activity.map_host_cpu,
    "instance_cpu": activity.map_instance_cpu,
    "memory_stats": activity.map_memory_stats,
    "os_stats": activity.map_os_stats,
    "io_profile": io.map_io_profile,
    "iostat_function_filetype": io.map_iostat,
    "iostat_function": io.map_iostat,
    "iostat_filetype": io.map_iostat,
    "tablespace_io": io.map_tablespace_io,
    "file_io": io.map_tablespace_io,
    "buffer_pool": io.map_buffer_pool,
    "checkpoint_activity": io.map_checkpoint,
    "instance_recovery": io.map_recovery,
    "buffer_pool_advisory": misc.generic_table,
    "pga_aggr_summary": misc.generic_table,
    "host_config": misc.generic_table,
    "pga_target_stats": misc.generic_table,
    "pga_histogram": misc.generic_table,
    "pga_advisory": misc.generic_table,
    "sga_target_advisory": misc.generic_table,
    "shared_pool_advisory": misc.generic_table,
    "memory_target_advisory": misc.generic_table,
    "buffer_waits": misc.map_buffer_waits,
    "enqueue_activity": misc.map_enqueues,
    "undo_summary": misc.map_undo_summary,
    "undo_stats": misc.generic_table,
    "resource_limits": misc.generic_table,
    "rollback_stats": misc.generic_table,
    "latch_activity": misc.map_latches,
    "thread_activity": activity.map_thread_activity,
    "instance_activity_absolute": activity.map_activity_absolute,
    "instance_activity": activity.map_instance_activity,
    "sql_comparison_elapsed": misc.map_sql_comparison,
    "sql_by_elapsed": misc.map_sql,
    "sql_by_cpu": misc.map_sql,
    "sql_by_user_io": misc.map_sql,
    "sql_by_gets": misc.map_sql,
    "sql_by_reads": misc.map_sql,
    "sql_by_physical_reads_unoptimized": misc.map_sql,
    "sql_by_executions": misc.map_sql,
    "sql_by_parse_calls": misc.map_sql,
    "sql_by_sharable_memory": misc.map_sql,
    "sql_by_version_count": misc.map_sql,
    "sql_by_cluster_wait": misc.map_sql,
    "segments_by_physical_writes": misc.generic_table,
    "segments_by_db_block_changes": misc.generic_table,
    "segments_by_direct_physical_writes": misc.generic_table,
    "segments_by_row_lock_waits": misc.generic_table,
    "segments_by_logical_reads": misc.generic_table,
    "segments_by_physical_reads": misc.generic_table,
    "segments_by_direct_physical_reads": misc.generic_table,
    "segments_by_table_scans": misc.generic_table,
    "segments_by_buffer_busy_waits": misc.generic_table,
    "segments_by_itl_waits": misc.generic_table,
    "segments_by_gc_buffer_busy": misc.generic_table,
    "segments_by_cr_blocks_received": misc.generic_table,
    "segments_by_current_blocks_received": misc.generic_table,
    "init_parameters": misc.map_parameters,
}

REGISTRY: list[SectionSpec] = [SectionSpec(key, patterns.compile(pattern), MAPPERS[key], description)
                               for key, pattern, description in SECTION_TITLES]

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
