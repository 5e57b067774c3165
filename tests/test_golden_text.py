"""Golden values of text AWR and Statspack reports, one report per version
and kind. Every expected value was read by hand in the report file; the
comment gives its source line. Values are in the units of the parsed model
(seconds for time_s, ms for avg_wait_ms, MB for IOStat data, ...)."""
from __future__ import annotations

from datetime import datetime
from functools import lru_cache

import pytest

from awrscope.parsers import parse

from conftest import find_corpus


@lru_cache(maxsize=None)
def load(name: str):
    c = find_corpus()
    return parse(str(c / "reports" / name))


def row(report, section: str, name: str):
    sec = report.sections.get(section)
    assert sec is not None, f"section {section} missing"
    r = sec.row(name)
    assert r is not None, f"{section}: no row {name!r} (rows: {[x.name for x in sec.rows][:40]})"
    return r.values


def field(report, section: str, name: str, key: str):
    r = row(report, section, name)
    if key in r:
        return r[key]
    return report.sections[section].row(name).text.get(key)


# (section, row name, field, expected, source line)
def G(*a):
    return a

GOLDEN: dict[str, dict] = {}

# ---------------------------------------------------------------- AWR 11.2.0.3
GOLDEN["awr_txt_11203_antognini_top2_1830_1845.txt"] = {
    "header": dict(db_name="DBM11203", dbid=2532911053, instance="DBM11203", inst_num=1,  # line 6
                   version="11.2.0.3.0", host="helicon", cpus=8,  # lines 6, 10
                   begin_snap=1822, end_snap=1823,  # lines 14-15
                   begin_time=datetime(2014, 4, 23, 18, 30, 5), end_time=datetime(2014, 4, 23, 18, 45, 6),
                   elapsed_s=15.03 * 60, db_time_s=6404.5),  # line 16; time model DB time line 100
    "values": [
        G("load_profile", "Redo size", "per_second", 393267.0, 28),
        G("load_profile", "Redo size", "per_transaction", 1931.8, 28),
        G("load_profile", "Logical reads", "per_second", 406407.8, 29),
        G("load_profile", "User calls", "per_second", 2896.4, 33),
        G("load_profile", "Transactions", "per_second", 203.6, 40),
        G("instance_efficiency", "Buffer Nowait %", "value", 100.00, 44),
        G("instance_efficiency", "Redo NoWait %", "value", 99.97, 44),
        G("instance_efficiency", "Soft Parse %", "value", 98.98, 46),
        G("instance_efficiency", "Latch Hit %", "value", 99.96, 47),
        G("top_events", "db file sequential read", "waits", 520207, 62),
        G("top_events", "db file sequential read", "time_s", 4568, 62),
        G("top_events", "DB CPU", "pct_db_time", 26.6, 63),
        G("top_events", "log file sync", "avg_wait_ms", 1, 64),
        G("time_model", "sql execute elapsed time", "time_s", 6114.4, 94),
        G("time_model", "DB CPU", "time_s", 1701.4, 95),
        G("os_stats", "BUSY_TIME", "value", 176851, 112),
        G("os_stats", "NUM_CPUS", "value", 8, 120),
        G("wait_classes", "User I/O", "time_s", 4595, 152),
        G("wait_classes", "Commit", "waits", 182738, 154),
        G("wait_events_fg", "log file sync", "time_s", 94, 174),
        G("wait_events_fg", "log file sync", "waits", 182738, 174),
        G("wait_events_bg", "log file parallel write", "waits", 178859, 205),
        G("wait_events_bg", "log file parallel write", "pct_bg_time", 36.1, 205),
        G("wait_histogram", "db file sequential read", "<8ms", 49.1, 272),
        G("wait_histogram", "db file sequential read", "<=1s", 3.4, 272),
        G("wait_histogram", "db file sequential read", "<32ms", 4.4, 272),
        G("wait_histogram", "log file sync", "<1ms", 96.3, 294),
        G("instance_activity", "redo size", "total", 354549884, 1169),
        G("instance_activity", "redo writes", "total", 178894, 1178),
        G("instance_activity", "redo write time", "total", 5260, 1177),
        G("instance_activity", "user commits", "total", 183536, 1211),
        G("instance_activity", "redo wastage", "total", 55374424, 1176),
        G("instance_activity", "redo blocks written", "total", 826743, 1162),
        G("thread_activity", "log switches (derived)", "total", 11, 1235),
        G("thread_activity", "log switches (derived)", "per_hour", 43.92, 1235),
        G("iostat_function", "LGWR", "write_data_mb", 811, 1248),
        G("iostat_function", "LGWR", "write_reqs_per_s", 399.0, 1248),
        G("iostat_function", "DBWR", "write_data_mb", 2.6 * 1024, 1247),
        G("tablespace_io", "SOE", "reads", 519831, 1325),
        G("tablespace_io", "SOE", "writes", 234576, 1325),
        G("tablespace_io", "UNDOTBS1", "writes", 1363, 1329),
        G("tablespace_io", "TEMP", "read_ms", 10.0, 1335),
        G("buffer_pool", "D", "physical_writes", 340346, 1368),
        G("buffer_pool", "D", "buffer_busy_waits", 3322, 1368),
        G("instance_recovery", "B", "estd_mttr_s", 19, 1389),
        G("instance_recovery", "B", "actual_redo_blks", 167937, 1389),
        G("pga_target_stats", "B", "pga_mem_alloc_m", 178.2, 1456),
        G("enqueue_activity", "TX-Transaction (row lock contention)", "waits", 684, 1604),
        G("enqueue_activity", "TX-Transaction (index contention)", "avg_wait_ms", 14.29, 1606),
        G("undo_summary", "2", "transactions", 247075, 1621),
        G("undo_summary", "2", "max_query_s", 939, 1621),
        G("latch_activity", "redo allocation", "get_requests", 900547, 1868),
        G("latch_activity", "redo writing", "get_requests", 566775, 1870),
        G("sql_by_elapsed", "82ud5h0qcg0bf", "elapsed_time_s", 1863.0, 403),
        G("sql_by_elapsed", "82ud5h0qcg0bf", "executions", 124882, 403),
        G("init_parameters", "log_buffer", "begin", "8183808", 2454),
    ],
}

# ------------------------------------------------------------ Statspack 10.2
GOLDEN["statspack_txt_10204_rbogusze_bpsc10_2_3.lst"] = {
    # Database column blank (line 5): the DB name comes from the 'DB/Inst: BPSC10/BPSC10' suffixes
    "header": dict(db_name="BPSC10", dbid=4070638498, instance="BPSC10", inst_num=1,  # line 5
                   version="10.2.0.4.0", host="omega1.koral.tmp", cpus=16,  # line 7
                   begin_snap=2, end_snap=3,  # lines 12-13
                   begin_time=datetime(2013, 2, 17, 20, 40, 36), end_time=datetime(2013, 2, 17, 20, 42, 8),
                   elapsed_s=1.53 * 60, db_time_s=4150.4),  # line 14; time model line 93
    "values": [
        G("load_profile", "Redo size", "per_second", 43770674.78, 23),
        G("load_profile", "Redo size", "per_transaction", 5205.74, 23),
        G("load_profile", "Logical reads", "per_second", 860691.82, 24),
        G("load_profile", "Transactions", "per_second", 8408.16, 34),
        G("load_profile", "Recursive Call %", "value", 97.08, 36),
        G("load_profile", "Rows per Sort", "value", 33.15, 37),
        G("instance_efficiency", "Buffer Nowait %", "value", 99.99, 41),
        G("instance_efficiency", "Redo NoWait %", "value", 100.00, 41),
        G("instance_efficiency", "Library Hit %", "value", 103.84, 43),
        G("instance_efficiency", "% Non-Parse CPU", "value", 99.99, 45),
        G("top_events", "log file sync", "waits", 535402, 57),
        G("top_events", "log file sync", "time_s", 1487, 57),
        G("top_events", "log file sync", "pct_total_call_time", 39.8, 57),
        G("top_events", "enq: HW - contention", "avg_wait_ms", 23, 59),
        G("host_cpu", "host_cpu", "cpus", 16, 67),  # from the title, line 63
        G("host_cpu", "host_cpu", "load_begin", 31.04, 67),
        G("host_cpu", "host_cpu", "pct_user", 82.97, 67),
        G("host_cpu", "host_cpu", "pct_wio", 0.60, 67),
        G("time_model", "DB CPU", "time_s", 2378.2, 89),
        G("time_model", "DB time", "time_s", 4150.4, 93),
        G("wait_events", "log file sync", "time_s", 1487, 107),
        G("wait_events", "db file sequential read", "avg_wait_ms", 6, 113),
        G("wait_events_bg", "log file parallel write", "waits", 141052, 177),
        G("wait_histogram", "log file sync", "total_waits", 534000, 238),
        G("wait_histogram", "log file sync", "<1ms", 25.3, 238),
        G("wait_histogram", "log file sync", "<8ms", 16.3, 238),
        G("wait_histogram", "log file sync", "<=1s", 0.0, 238),
        G("sql_by_elapsed", "2369897509", "elapsed_time_s", 1471.34, 385),
        G("sql_by_elapsed", "2369897509", "executions", 255365, 385),
        G("instance_activity", "redo blocks written", "total", 8194522, 985),
        G("instance_activity", "redo size", "total", 4026902080, 991),
        G("instance_activity", "redo wastage", "total", 34609464, 994),
        G("instance_activity", "redo write time", "total", 7345, 995),
        G("instance_activity", "redo writes", "total", 141077, 997),
        G("instance_activity", "user commits", "total", 772259, 1032),
        G("thread_activity", "log switches (derived)", "total", 0, 1054),
        G("os_stats", "BUSY_TIME", "value", 136473, 1062),
        G("os_stats", "NUM_CPUS", "value", 16, 1070),
        G("tablespace_io", "TPCCTAB", "writes", 40621, 1082),
        G("tablespace_io", "UNDOTBS1", "writes", 1, 1086),
        G("tablespace_io", "UNDOTBS1", "buffer_waits", 7309, 1086),
        G("tablespace_io", "UNDOTBS1", "buffer_wait_ms", 5.9, 1086),
        G("buffer_pool", "D", "buffers", 1094000, 1132),  # '1094K'
        G("buffer_pool", "D", "physical_writes", 56910, 1132),
        G("buffer_pool", "D", "buffer_busy_waits", 11749, 1132),
        G("instance_recovery", "B", "actual_redo_blks", 10331847, 1142),
        G("instance_recovery", "E", "recovery_estd_ios", 938192, 1143),
        G("enqueue_activity", "HW-Segment High Water Mark", "waits", 9413, 1477),
        G("enqueue_activity", "HW-Segment High Water Mark", "wait_time_s", 230, 1477),
        G("enqueue_activity", "TX-Transaction (row lock contention)", "requests", 19560, 1479),
        G("latch_activity", "redo allocation", "get_requests", 7567576, 1576),
        G("latch_activity", "redo allocation", "pct_get_miss", 6.1, 1576),
        G("latch_activity", "redo writing", "get_requests", 424078, 1578),
        G("init_parameters", "db_block_size", "begin", "8192", 1875),
        G("init_parameters", "processes", "begin", "150", 1886),
    ],
}

# ------------------------------------------------------------ Statspack 8.1.7
GOLDEN["statspack_txt_81741_radtek-oraclescripts_oracle_116_117.lst"] = {
    # 8i has no DB time: db_time_s is an estimate, not a printed value (not checked)
    "header": dict(db_name="ORACLE", dbid=1307164038, instance="orcl", inst_num=1,  # line 6
                   version="8.1.7.4.1", host="ORCL2",  # line 6
                   begin_snap=116, end_snap=117,  # lines 10-11
                   begin_time=datetime(2004, 3, 4, 9, 24, 18), end_time=datetime(2004, 3, 4, 9, 40, 51),
                   elapsed_s=16.55 * 60),  # line 12
    "values": [
        G("cache_sizes", "log_buffer", "begin", 1048576, 16),
        G("cache_sizes", "db_block_size", "begin", 8192, 17),
        G("load_profile", "Redo size", "per_second", 64942.11, 22),
        G("load_profile", "Redo size", "per_transaction", 10878.46, 22),
        G("load_profile", "Transactions", "per_second", 5.97, 33),
        G("load_profile", "% Blocks changed per Read", "value", 0.36, 35),
        G("load_profile", "Rows per Sort", "value", 309.11, 36),
        G("instance_efficiency", "Buffer Nowait %", "value", 100.00, 40),
        G("instance_efficiency", "Redo NoWait %", "value", 99.99, 40),
        G("instance_efficiency", "Buffer Hit %", "value", 99.43, 41),
        G("instance_efficiency", "Execute to Parse %", "value", 71.05, 43),
        # 'Time (cs)' columns: centiseconds converted to seconds
        G("top_events", "db file sequential read", "waits", 141356, 56),
        G("top_events", "db file sequential read", "time_s", 464.00, 56),
        G("top_events", "db file sequential read", "pct_total_wait_time", 60.55, 56),
        G("top_events", "db file scattered read", "time_s", 105.80, 57),
        G("wait_events", "db file sequential read", "time_s", 464.00, 71),
        G("wait_events", "db file sequential read", "avg_wait_ms", 3, 71),
        G("wait_events", "log file parallel write", "waits", 3757, 78),
        G("wait_events", "log file parallel write", "time_s", 8.26, 78),
        G("wait_events", "log file sync", "waits", 572, 82),
        G("wait_events", "log file sync", "time_s", 3.32, 82),
        G("wait_events", "log file sync", "avg_wait_ms", 6, 82),
        # printed 'SQL*Net more data from clien' (cut at 28 characters)
        G("wait_events", "SQL*Net more data from client", "waits", 900, 96),
        G("wait_events", "SQL*Net more data from client", "time_s", 0.09, 96),
        G("wait_events_bg", "log file parallel write", "time_s", 8.26, 106),
        G("sql_by_gets", "1669247656", "buffer_gets", 15910739, 133),
        G("sql_by_gets", "1669247656", "executions", 10, 133),
        G("instance_activity", "CPU used by this session", "total", 264794, 491),
        G("instance_activity", "background checkpoints completed", "total", 11, 504),
        G("instance_activity", "redo blocks written", "total", 132128, 573),
        G("instance_activity", "redo size", "total", 64487516, 579),
        G("instance_activity", "redo wastage", "total", 903016, 582),
        G("instance_activity", "redo write time", "total", 3082, 583),
        G("instance_activity", "redo writes", "total", 3760, 585),
        G("instance_activity", "user commits", "total", 5922, 615),
        G("tablespace_io", "PARUS3", "reads", 95690, 628),
        G("tablespace_io", "TEMP", "reads", 18702, 630),
        G("tablespace_io", "TEMP", "read_ms", 30.7, 630),
        G("tablespace_io", "TEMP", "writes", 31636, 630),
        G("buffer_pool", "D", "physical_writes", 12978, 761),
        G("buffer_pool", "D", "buffer_busy_waits", 21, 761),
        G("latch_activity", "redo allocation", "get_requests", 193597, 965),
        G("latch_activity", "redo writing", "get_requests", 18806, 966),
        G("init_parameters", "db_block_size", "begin", "8192", 1165),
        G("init_parameters", "log_buffer", "begin", "1048576", 1179),
        G("init_parameters", "processes", "begin", "300", 1185),
    ],
}

# ------------------------------------------------------------ Statspack 9.2
GOLDEN["statspack_txt_92040_radtek-oraclescripts_oracle_1_11.lst"] = {
    "header": dict(db_name="ORACLE", dbid=1398087215, instance="orcl", inst_num=1,  # line 6
                   version="9.2.0.4.0", host="ORCL2",  # line 6
                   begin_snap=1, end_snap=11,  # lines 10-11
                   begin_time=datetime(2004, 5, 12, 14, 17, 21), end_time=datetime(2004, 5, 12, 15, 1, 57),
                   elapsed_s=44.60 * 60),  # line 12
    "values": [
        G("load_profile", "Redo size", "per_second", 65988.66, 22),
        G("load_profile", "Redo size", "per_transaction", 27617.40, 22),
        G("load_profile", "Executes", "per_second", 943.26, 32),
        G("load_profile", "Transactions", "per_second", 2.39, 33),
        G("load_profile", "Rows per Sort", "value", 614.36, 36),
        G("instance_efficiency", "Buffer Hit %", "value", 99.87, 41),
        G("instance_efficiency", "Soft Parse %", "value", 98.44, 42),
        G("instance_efficiency", "Parse CPU to Parse Elapsd %", "value", 6.90, 44),
        G("top_events", "db file sequential read", "waits", 263537, 56),
        G("top_events", "db file sequential read", "time_s", 10238, 56),
        G("top_events", "db file sequential read", "pct_total_ela_time", 64.34, 56),
        G("top_events", "CPU time", "time_s", 4500, 57),
        G("top_events", "log file sync", "time_s", 197, 59),
        G("wait_events", "log file sync", "waits", 1765, 75),
        G("wait_events", "log file sync", "timeouts", 13, 75),
        G("wait_events", "log file sync", "time_s", 197, 75),
        G("wait_events", "log file sync", "avg_wait_ms", 112, 75),
        G("wait_events", "log file parallel write", "timeouts", 4949, 78),
        G("wait_events", "log file parallel write", "avg_wait_ms", 10, 78),
        G("wait_events_bg", "log file parallel write", "time_s", 54, 110),
        G("instance_activity", "CPU used by this session", "total", 449951, 838),
        G("instance_activity", "redo blocks written", "total", 358579, 933),
        G("instance_activity", "redo size", "total", 176585644, 939),
        G("instance_activity", "redo wastage", "total", 1201300, 942),
        G("instance_activity", "redo write time", "total", 35239, 943),
        G("instance_activity", "redo writes", "total", 5211, 945),
        G("instance_activity", "user commits", "total", 6338, 978),
        G("tablespace_io", "TEMP", "reads", 19906, 998),
        G("tablespace_io", "TEMP", "writes", 14312, 998),
        G("tablespace_io", "SYSTEM", "buffer_wait_ms", 170.0, 1010),
        G("tablespace_io", "UNDOTBS1", "writes", 11391, 1016),
        G("tablespace_io", "UNDOTBS1", "buffer_waits", 29, 1016),
        G("buffer_pool", "D", "buffers", 128128, 1179),
        G("buffer_pool", "D", "hit_pct", 99.9, 1179),
        G("buffer_pool", "D", "physical_writes", 25611, 1179),
        G("buffer_pool", "D", "buffer_busy_waits", 12869, 1179),
        G("instance_recovery", "B", "actual_redo_blks", 100135, 1189),
        G("instance_recovery", "E", "recovery_estd_ios", 3835, 1190),
        G("pga_target_stats", "B", "pga_mem_alloc_m", 304.8, 1253),
        G("pga_target_stats", "E", "pga_mem_alloc_m", 339.2, 1254),
        # 9i: 'Avg Wt Time (ms)' comes before 'Wait Time (s)'
        G("enqueue_activity", "TX", "requests", 9330, 1309),
        G("enqueue_activity", "TX", "waits", 9, 1309),
        G("enqueue_activity", "TX", "avg_wait_ms", 286.67, 1309),
        G("enqueue_activity", "TX", "wait_time_s", 3, 1309),
        G("undo_summary", "1", "transactions", 415984, 1370),
        G("undo_summary", "1", "max_query_s", 4220, 1370),
        G("undo_summary", "1", "sto", 0, 1370),
        G("latch_activity", "redo allocation", "get_requests", 597764, 1441),
        G("latch_activity", "redo writing", "get_requests", 21450, 1443),
        G("init_parameters", "db_block_size", "begin", "8192", 1717),
        G("init_parameters", "log_buffer", "begin", "1000448", 1735),
        G("init_parameters", "processes", "begin", "300", 1744),
    ],
}

# ------------------------------------------------------------ Statspack 11.2
GOLDEN["statspack_txt_11203_antognini_top2_1830_1845.txt"] = {
    "header": dict(db_name="DBM11203", dbid=2532911053, instance="DBM11203", inst_num=1,  # line 6
                   version="11.2.0.3.0", host="helicon", cpus=8,  # line 10 ('Host Name' table)
                   begin_snap=548, end_snap=549,  # lines 14-15
                   begin_time=datetime(2014, 4, 23, 18, 30, 40), end_time=datetime(2014, 4, 23, 18, 45, 40),
                   elapsed_s=15.00 * 60, db_time_s=6392.9),  # line 16; time model line 102
    "values": [
        G("cache_sizes", "Log Buffer", "begin", 7992 * 1024, 22),
        G("load_profile", "DB time(s)", "per_second", 7.1, 26),
        G("load_profile", "Redo size", "per_second", 392163.4, 28),
        G("load_profile", "Redo size", "per_transaction", 1928.3, 28),
        G("load_profile", "Transactions", "per_second", 203.4, 40),
        G("instance_efficiency", "Redo NoWait %", "value", 99.98, 44),
        G("instance_efficiency", "Optimal W/A Exec %", "value", 100.00, 45),
        G("instance_efficiency", "Library Hit %", "value", 100.01, 46),
        G("instance_efficiency", "% Non-Parse CPU", "value", 98.84, 48),
        G("top_events", "db file sequential read", "time_s", 4567, 60),
        G("top_events", "log file sync", "waits", 182275, 62),
        G("top_events", "log file parallel write", "pct_total_call_time", 0.6, 63),
        G("host_cpu", "host_cpu", "cpus", 8, 70),  # title line 66
        G("host_cpu", "host_cpu", "sockets", 2, 70),
        G("host_cpu", "host_cpu", "load_end", 7.09, 70),
        G("host_cpu", "host_cpu", "pct_idle", 74.75, 70),
        G("host_cpu", "host_cpu", "pct_wio", 21.86, 70),
        G("time_model", "DB CPU", "time_s", 1701.1, 97),
        G("wait_events_fg", "db file sequential read", "waits", 519094, 114),
        G("wait_events_fg", "log file sync", "time_s", 94, 115),
        G("wait_events_fg", "log file sync", "pct_total_call_time", 1.5, 115),
        G("wait_events_bg", "log file parallel write", "waits", 178406, 145),
        G("wait_events_bg", "LGWR wait for redo copy", "waits", 826, 156),
        G("wait_events", "db file sequential read", "waits", 520240, 192),
        G("wait_histogram", "log file parallel write", "<1ms", 98.7, 299),
        G("wait_histogram", "log file sync", "total_waits", 182000, 304),
        G("wait_histogram", "log file sync", "<16ms", 0.8, 304),
        G("sql_by_elapsed", "3739063178", "elapsed_time_s", 1861.91, 384),
        G("sql_by_elapsed", "3739063178", "executions", 124585, 384),
        G("instance_activity", "redo blocks written", "total", 823333, 811),
        G("instance_activity", "redo size", "total", 352947044, 822),
        G("instance_activity", "redo wastage", "total", 55266600, 829),
        G("instance_activity", "redo write time", "total", 5251, 830),
        G("instance_activity", "redo writes", "total", 178395, 831),
        G("instance_activity", "user commits", "total", 183034, 863),
        G("thread_activity", "log switches (derived)", "total", 10, 883),
        G("thread_activity", "log switches (derived)", "per_hour", 40.00, 883),
        G("os_stats", "BUSY_TIME", "value", 176820, 891),
        G("os_stats", "NUM_CPUS", "value", 8, 898),
        G("iostat_function", "LGWR", "write_data_mb", 807, 929),
        G("iostat_function", "LGWR", "write_reqs_per_s", 398.5, 929),
        G("iostat_function", "LGWR", "waits", 179000, 929),
        G("iostat_function", "Buffer Cache Re", "read_data_mb", 4074, 928),
        G("tablespace_io", "SOE", "writes", 234024, 958),
        G("tablespace_io", "UNDOTBS1", "writes", 1352, 962),
        G("tablespace_io", "TEMP", "read_ms", 10.0, 968),
        G("instance_recovery", "B", "actual_redo_blks", 167642, 1028),
        G("instance_recovery", "E", "recovery_estd_ios", 20317, 1029),
        G("buffer_pool", "D", "buffers", 89000, 1090),
        G("buffer_pool", "D", "physical_writes", 339572, 1090),
        G("pga_target_stats", "E", "pga_mem_alloc_m", 183.1, 1125),
        G("enqueue_activity", "TX-Transaction (row lock contention)", "waits", 679, 1411),
        G("enqueue_activity", "TX-Transaction (row lock contention)", "avg_wait_ms", 1.19, 1411),
        G("undo_summary", "2", "undo_blocks_k", 31.8, 1428),
        G("undo_summary", "2", "transactions", 369847, 1428),
        G("undo_summary", "2", "min_tuned_retention_min", 19.6, 1428),
        G("undo_summary", "2", "max_tuned_retention_min", 29.7, 1428),
        G("undo_summary", "2", "oos", 0, 1428),
        G("latch_activity", "redo allocation", "get_requests", 897978, 1676),
        G("latch_activity", "redo writing", "get_requests", 565073, 1678),
        G("init_parameters", "log_buffer", "begin", "8183808", 2105),
        G("init_parameters", "processes", "begin", "150", 2111),
    ],
}

# ------------------------------------------------------------ Statspack 12.1
GOLDEN["statspack_txt_12102_jasmin_clinprd1_70371_70372.txt"] = {
    # Database column blank (line 5); host header wrapped over two lines (lines 7-10)
    "header": dict(db_name="CLINPRD", dbid=2071347136, instance="clinprd1", inst_num=1,  # line 5
                   version="12.1.0.2.0", host="cgm-szara.root.d", cpus=22,  # line 10
                   begin_snap=70371, end_snap=70372,  # lines 14-15
                   begin_time=datetime(2024, 1, 14, 0, 37, 42), end_time=datetime(2024, 1, 14, 1, 37, 43),
                   elapsed_s=60.02 * 60, db_time_s=920.4),  # line 16; time model line 110
    "values": [
        G("cache_sizes", "Log Buffer", "begin", 247592 * 1024, 23),
        G("load_profile", "DB time(s)", "per_transaction", 0.6, 27),
        G("load_profile", "Redo size", "per_second", 66701.6, 29),
        G("load_profile", "Redo size", "per_transaction", 152213.1, 29),
        G("load_profile", "Logical reads", "per_second", 23540.8, 30),
        G("load_profile", "Transactions", "per_second", 0.4, 41),
        G("instance_efficiency", "Buffer Hit %", "value", 99.99, 46),
        G("instance_efficiency", "Library Hit %", "value", 99.66, 47),
        G("instance_efficiency", "Execute to Parse %", "value", 72.36, 48),
        G("top_events", "LGWR worker group idle", "time_s", 6885, 61),
        G("top_events", "LGWR worker group idle", "avg_wait_ms", 1327, 61),
        G("top_events", "AQPC idle", "avg_wait_ms", 30009, 62),
        G("top_events", "CPU time", "time_s", 861, 65),
        G("host_cpu", "host_cpu", "cpus", 22, 71),  # title line 67
        G("host_cpu", "host_cpu", "pct_user", 2.93, 71),
        G("host_cpu", "host_cpu", "pct_idle", 95.79, 71),
        G("time_model", "DB CPU", "time_s", 938.5, 97),
        G("time_model", "DB CPU", "pct_db_time", 102.0, 97),
        G("wait_events_fg", "direct path read", "waits", 160620, 122),
        G("wait_events_fg", "log file sync", "waits", 4491, 123),
        G("wait_events_fg", "log file sync", "avg_wait_ms", 5, 123),
        G("wait_events_bg", "log file parallel write", "time_s", 31, 164),
        G("wait_events_bg", "LGWR all worker groups", "avg_wait_ms", 12, 173),
        G("wait_events", "log file sync", "waits", 4496, 222),
        G("wait_histogram", "log file parallel write", "total_waits", 5225, 341),
        G("wait_histogram", "log file parallel write", "<4ms", 27.6, 341),
        G("wait_histogram", "log file parallel write", "<=1s", 1.2, 341),
        G("sql_by_elapsed", "82927862", "elapsed_time_s", 583.15, 422),
        G("sql_by_elapsed", "82927862", "executions", 120, 422),
        G("instance_activity", "redo blocks written", "total", 491365, 1705),
        G("instance_activity", "redo size", "total", 240192332, 1714),
        G("instance_activity", "redo wastage", "total", 3072716, 1731),
        G("instance_activity", "redo write time", "total", 3104, 1746),
        G("instance_activity", "redo write time (usec)", "total", 31032413, 1747),
        G("instance_activity", "redo writes", "total", 5225, 1750),
        G("instance_activity", "user commits", "total", 1557, 1817),
        G("thread_activity", "log switches (derived)", "total", 2, 1843),
        G("os_stats", "BUSY_TIME", "value", 332388, 1853),
        G("os_stats", "NUM_CPUS", "value", 22, 1861),
        G("iostat_function", "Direct Reads", "read_data_mb", 155 * 1024, 1891),
        G("iostat_function", "Direct Reads", "read_reqs_per_s", 44.6, 1891),
        G("iostat_function", "LGWR", "write_data_mb", 242, 1894),
        G("tablespace_io", "UNDOTBS1", "writes", 1733, 1925),
        G("tablespace_io", "UNDOTBS1", "buffer_waits", 16, 1925),
        G("instance_recovery", "B", "actual_redo_blks", 295892, 2070),
        G("instance_recovery", "E", "recovery_estd_ios", 10347, 2071),
        G("buffer_pool", "D", "buffers", 7246000, 2131),
        G("buffer_pool", "D", "physical_writes", 25374, 2131),
        G("enqueue_activity", "CR-Reuse Block Range (block range reuse ckpt)", "waits", 109, 2460),
        G("enqueue_activity", "CR-Reuse Block Range (block range reuse ckpt)", "avg_wait_ms", 11.56, 2460),
        G("enqueue_activity", "RO-Multiple Object Reuse (fast object reuse)", "requests", 1040, 2462),
        G("undo_summary", "2", "transactions", 8323, 2479),
        G("undo_summary", "2", "max_query_s", 1243, 2479),
        G("undo_summary", "2", "min_tuned_retention_min", 15, 2479),
        G("latch_activity", "redo allocation", "get_requests", 1134824, 2834),
        G("latch_activity", "redo writing", "get_requests", 28002, 2837),
        G("init_parameters", "db_block_size", "begin", "8192", 3173),
        G("init_parameters", "processes", "begin", "1000", 3197),
    ],
}

# ---------------------------------------------------------------- AWR 10.2 (RAC)
GOLDEN["awr_txt_10204_radtek_oradb1_base01_54977_54986.txt"] = {
    "header": dict(db_name="ORADB1", dbid=1839837180, instance="base01", inst_num=1,  # line 6
                   version="10.2.0.4.0", host="base-vdb01-m",  # line 6
                   begin_snap=54977, end_snap=54986,  # lines 10-11
                   begin_time=datetime(2013, 11, 12, 2, 0, 3), end_time=datetime(2013, 11, 12, 10, 0, 39),
                   elapsed_s=480.61 * 60, db_time_s=54520.6),  # line 12; time model line 141
    "values": [
        G("cache_sizes", "Log Buffer", "begin", 14312 * 1024, 20),
        G("cache_sizes", "Buffer Cache", "end", 13696 * 1024 ** 2, 19),
        G("load_profile", "Redo size", "per_second", 5121.88, 25),
        G("load_profile", "Redo size", "per_transaction", 202.42, 25),
        G("load_profile", "Transactions", "per_second", 25.30, 36),
        G("load_profile", "Rollback per transaction %", "value", 96.93, 39),
        G("instance_efficiency", "Buffer Nowait %", "value", 99.98, 43),
        G("instance_efficiency", "Execute to Parse %", "value", -1.15, 46),
        G("instance_efficiency", "% Non-Parse CPU", "value", 96.20, 47),
        G("top_events", "gc cr multi block request", "waits", 404347, 59),
        G("top_events", "gc cr multi block request", "time_s", 26999, 59),
        G("top_events", "gc cr multi block request", "avg_wait_ms", 67, 59),
        G("top_events", "db file sequential read", "pct_total_call_time", 28.4, 60),
        G("top_events", "CPU time", "time_s", 10730, 61),
        G("time_model", "sql execute elapsed time", "time_s", 52961.0, 128),
        G("time_model", "DB CPU", "time_s", 10729.9, 129),
        G("wait_classes", "Cluster", "waits", 3497754, 157),
        G("wait_classes", "Cluster", "time_s", 28556, 157),
        G("wait_classes", "User I/O", "avg_wait_ms", 2, 158),
        G("wait_classes", "Commit", "time_s", 40, 162),
        # 10g AWR: 'Wait Events' holds all sessions (fg and bg)
        G("wait_events", "db file sequential read", "waits", 5844853, 180),
        G("wait_events", "log file sync", "waits", 24899, 194),
        G("wait_events", "log file sync", "time_s", 40, 194),
        G("wait_events", "log file parallel write", "waits", 31199, 196),
        G("wait_events_bg", "log file parallel write", "time_s", 35, 350),
        G("wait_events_bg", "db file sequential read", "waits", 2222, 355),
        G("os_stats", "BUSY_TIME", "value", 1711813, 399),
        G("os_stats", "NUM_CPUS", "value", 8, 408),
        G("sql_by_elapsed", "f4kwxw3t0hb13", "elapsed_time_s", 27642, 454),
        G("sql_by_elapsed", "f4kwxw3t0hb13", "cpu_time_s", 150, 454),
        G("sql_by_elapsed", "f4kwxw3t0hb13", "executions", 0, 454),
        G("instance_activity", "redo blocks written", "total", 316514, 1709),
        G("instance_activity", "redo size", "total", 147696748, 1715),
        G("instance_activity", "redo wastage", "total", 8734636, 1719),
        G("instance_activity", "redo write time", "total", 3934, 1720),
        G("instance_activity", "redo writes", "total", 31203, 1722),
        G("instance_activity", "user commits", "total", 22426, 1757),
        G("thread_activity", "log switches (derived)", "total", 3, 1779),
        G("thread_activity", "log switches (derived)", "per_hour", 0.37, 1779),
        G("tablespace_io", "SUAT_BIG_DATA", "reads", 2836374, 1791),
        G("tablespace_io", "SUAT_BIG_DATA", "buffer_waits", 122608, 1791),
        G("tablespace_io", "UNDOTBS01", "writes", 2581, 1831),
        G("tablespace_io", "UNDOTBS01", "buffer_waits", 81, 1831),
        G("buffer_pool", "D", "buffers", 3095296, 2710),
        G("buffer_pool", "D", "physical_writes", 86233, 2710),
        G("buffer_pool", "D", "buffer_busy_waits", 859170, 2710),
        G("instance_recovery", "B", "actual_redo_blks", 3598, 2720),
        G("instance_recovery", "E", "estd_mttr_s", 17, 2721),
        G("pga_target_stats", "B", "pga_mem_alloc_m", 904.0, 2777),
        G("pga_target_stats", "E", "w_per_a_pga_used_m", 0.0, 2778),
        G("enqueue_activity", "WF-AWR Flush", "waits", 145, 2908),
        G("enqueue_activity", "WF-AWR Flush", "avg_wait_ms", 585.31, 2908),
        G("enqueue_activity", "XR-Quiesce / Force Logging (database force logging)", "requests", 9600, 2912),
        G("undo_summary", "1", "transactions", 36829, 2969),
        G("undo_summary", "1", "max_query_s", 30322, 2969),
        G("undo_summary", "1", "max_tuned_retention_min", 600, 2969),
        G("latch_activity", "redo allocation", "get_requests", 106007, 3188),
        G("latch_activity", "redo writing", "get_requests", 228570, 3190),
        G("init_parameters", "db_block_size", "begin", "4096", 3797),
        G("init_parameters", "log_buffer", "begin", "14211072", 3817),
        G("init_parameters", "processes", "begin", "1000", 3834),
    ],
}

# ------------------------------------------------------- AWR 11.2.0.4 RAC instance
GOLDEN["awr_txt_11204_rac_1newstar_orcl1_2_3.txt"] = {
    "header": dict(db_name="ORCL", dbid=1380142923, instance="orcl1", inst_num=1,  # line 6
                   version="11.2.0.4.0", host="node1", cpus=1,  # line 10
                   begin_snap=2, end_snap=3,  # lines 14-15
                   begin_time=datetime(2014, 7, 10, 4, 0, 45), end_time=datetime(2014, 7, 10, 5, 0, 58),
                   elapsed_s=60.22 * 60, db_time_s=1.9),  # line 16; time model DB time line 144
    "values": [
        G("load_profile", "Redo size (bytes)", "per_second", 477.1, 23),
        G("load_profile", "Redo size (bytes)", "per_transaction", 59441.1, 23),
        G("load_profile", "Logical read (blocks)", "per_second", 5.9, 24),
        G("load_profile", "Executes (SQL)", "per_transaction", 129.6, 39),
        G("instance_efficiency", "Library Hit %", "value", 91.85, 47),
        G("instance_efficiency", "Soft Parse %", "value", 91.14, 47),
        G("instance_efficiency", "Parse CPU to Parse Elapsd %", "value", 52.53, 49),
        G("top_events", "DB CPU", "time_s", 1.1, 56),
        G("top_events", "name-service call wait", "waits", 12, 57),
        G("top_events", "name-service call wait", "time_s", 0.6, 57),
        G("top_events", "name-service call wait", "avg_wait_ms", 49, 57),
        G("top_events", "log file sync", "avg_wait_ms", 21, 60),
        G("wait_classes_total", "Other", "waits", 59089, 73),
        G("wait_classes_total", "Other", "pct_db_time", 1000, 73),  # printed '1.E+03'
        G("host_cpu", "host_cpu", "cpus", 1, 88),
        G("host_cpu", "host_cpu", "load_begin", 1.28, 88),
        G("host_cpu", "host_cpu", "pct_idle", 91.2, 88),
        G("time_model", "DB CPU", "time_s", 1.1, 137),
        G("time_model", "sql execute elapsed time", "time_s", 0.6, 138),
        G("os_stats", "BUSY_TIME", "value", 28330, 156),
        G("os_stats", "NUM_CPUS", "value", 1, 165),
        G("wait_events_fg", "name-service call wait", "avg_wait_ms", 49, 217),
        G("wait_events_fg", "log file sync", "waits", 2, 220),
        G("wait_events_bg", "log file parallel write", "waits", 196, 257),
        G("wait_events_bg", "log file parallel write", "avg_wait_ms", 2, 257),
        G("wait_events_bg", "db file sequential read", "waits", 73, 259),
        G("wait_histogram", "log file parallel write", "total_waits", 184, 448),
        G("wait_histogram", "log file parallel write", "<1ms", 72.8, 448),
        G("wait_histogram", "log file parallel write", "<32ms", 2.7, 448),
        G("wait_histogram", "log file parallel write", "<=1s", 2.2, 448),
        G("wait_histogram_64ms_2s", "log file parallel write", "<32ms", 97.8, 506),
        G("wait_histogram_64ms_2s", "log file parallel write", "<64ms", 2.2, 506),
        G("sql_by_elapsed", "6ajkhukk78nsr", "elapsed_time_s", 2.2, 578),
        G("sql_by_elapsed", "6ajkhukk78nsr", "pct_total", 115.1, 578),
        G("instance_activity", "redo size", "total", 1723792, 1878),
        G("instance_activity", "user commits", "total", 29, 1882),
        G("instance_activity", "redo blocks written", "total", 3578, 2046),
        G("instance_activity", "redo wastage", "total", 50652, 2061),
        G("instance_activity", "redo write time", "total", 59, 2065),
        G("instance_activity", "redo writes", "total", 183, 2066),
        G("thread_activity", "log switches (derived)", "total", 0, 2117),
        G("iostat_function", "Others", "read_data_mb", 140, 2128),
        G("iostat_function", "LGWR", "write_data_mb", 4, 2130),
        G("iostat_function", "LGWR", "waits", 183, 2130),
        G("iostat_function", "LGWR", "avg_ms", 2.6, 2130),
        # 11.2.0.4 prints Writes under '1-bk Rds/s' (348 writes for 39 reads)
        G("tablespace_io", "SYSAUX", "reads", 39, 2192),
        G("tablespace_io", "SYSAUX", "writes", 348, 2192),
        G("tablespace_io", "UNDOTBS1", "writes", 121, 2194),
        G("tablespace_io", "SYSTEM", "buffer_waits", 2, 2196),
        G("tablespace_io", "TEMP", "reads", 1, 2198),
        G("buffer_pool", "D", "buffers", 34018, 2227),
        G("buffer_pool", "D", "physical_writes", 780, 2227),
        G("instance_recovery", "B", "actual_redo_blks", 1715, 2248),
        G("instance_recovery", "E", "target_redo_blks", 91, 2249),
        G("pga_target_stats", "B", "pga_mem_alloc_m", 139.8, 2315),
        G("enqueue_activity", "FU-DBFUS", "wait_time_s", 16, 2436),
        G("enqueue_activity", "FU-DBFUS", "avg_wait_ms", 16070.00, 2436),
        G("enqueue_activity", "PS-PX Process Reservation", "waits", 53, 2438),
        G("undo_summary", "2", "undo_blocks_k", 0.1, 2493),
        G("undo_summary", "2", "transactions", 315, 2493),
        G("undo_summary", "2", "max_tuned_retention_min", 29.4, 2493),
        G("latch_activity", "redo allocation", "get_requests", 1519, 2772),
        G("latch_activity", "redo writing", "get_requests", 4820, 2774),
        G("init_parameters", "cluster_database", "begin", "TRUE", 3387),
        G("init_parameters", "db_block_size", "begin", "8192", 3390),
        G("init_parameters", "processes", "begin", "150", 3404),
    ],
}

# ---------------------------------------------------------------- AWR 12.2
GOLDEN["awr_txt_12201_aix_jasmin_bpsc_2668_2669.txt"] = {
    "header": dict(db_name="BPSC", dbid=1135854311, instance="bpsc", inst_num=1,  # lines 6, 10
                   version="12.2.0.1.0", host="oracle1", cpus=40,  # line 14
                   begin_snap=2668, end_snap=2669,  # lines 18-19
                   begin_time=datetime(2023, 2, 4, 19, 0, 39), end_time=datetime(2023, 2, 4, 20, 0, 54),
                   elapsed_s=60.25 * 60, db_time_s=3974.4),  # line 20; time model DB time line 167
    "values": [
        G("load_profile", "Redo size (bytes)", "per_second", 146118.4, 37),
        G("load_profile", "Redo size (bytes)", "per_transaction", 7016.0, 37),
        G("load_profile", "User calls", "per_second", 1055.4, 48),
        G("load_profile", "Transactions", "per_second", 20.8, 55),
        G("instance_efficiency", "Buffer Hit %", "value", 99.89, 60),
        G("instance_efficiency", "Execute to Parse %", "value", 39.92, 62),
        G("instance_efficiency", "Flash Cache Hit %", "value", 0.00, 64),
        # 12.2 prints average waits with their own unit: '109.72us', '15.94ms'
        G("top_events", "DB CPU", "time_s", 1234.8, 71),
        G("top_events", "db file sequential read", "waits", 360121, 72),
        G("top_events", "db file sequential read", "avg_wait_ms", 0.10972, 72),
        G("top_events", "log file sync", "time_s", 29.1, 73),
        G("top_events", "log file sync", "avg_wait_ms", 0.37376, 73),
        G("top_events", "cursor: pin S wait on X", "avg_wait_ms", 15.94, 75),
        G("wait_classes_total", "System I/O", "avg_wait_ms", 0.27987, 89),
        G("wait_classes_total", "User I/O", "waits", 367040, 90),
        G("wait_classes_total", "Commit", "time_s", 29, 91),
        G("host_cpu", "host_cpu", "cpus", 40, 102),
        G("host_cpu", "host_cpu", "cores", 5, 102),
        G("host_cpu", "host_cpu", "load_begin", 2.56, 102),
        G("host_cpu", "host_cpu", "pct_idle", 97.1, 102),
        G("time_model", "sql execute elapsed time", "time_s", 2765.8, 156),
        G("time_model", "DB CPU", "time_s", 1234.8, 157),
        G("os_stats", "BUSY_TIME", "value", 423547, 185),
        G("os_stats", "NUM_CPUS", "value", 40, 194),
        G("wait_events_fg", "log file sync", "waits", 77820, 249),
        G("wait_events_fg", "log file sync", "avg_wait_ms", 0.37376, 249),
        G("wait_events_bg", "log file parallel write", "waits", 103636, 296),
        G("wait_events_bg", "log file parallel write", "time_s", 40, 296),
        G("wait_events_bg", "log file parallel write", "avg_wait_ms", 0.38673, 296),
        G("wait_events_bg", "LGWR worker group idle", "avg_wait_ms", 69.74, 332),
        G("wait_histogram", "log file parallel write", "total_waits", 103600, 412),
        G("wait_histogram", "log file parallel write", "<512us", 92.8, 412),
        G("wait_histogram", "log file parallel write", ">=512us", 7.2, 412),
        G("wait_histogram", "log file sync", "<256us", 13.8, 416),
        G("wait_histogram_32ms", "log file parallel write", "total_waits", 7482, 569),
        G("wait_histogram_32ms", "log file parallel write", "<512us", 92.8, 569),
        G("wait_histogram_32ms", "log file parallel write", "<2ms", 1.3, 569),
        G("sql_by_elapsed", "5bxqqbbup9tx1", "elapsed_time_s", 710.5, 678),
        G("sql_by_elapsed", "5bxqqbbup9tx1", "executions", 3896, 678),
        G("instance_activity", "redo blocks written", "total", 1132226, 2000),
        G("instance_activity", "redo size", "total", 528179268, 1778),  # Key Instance Activity (again line 2007)
        G("instance_activity", "redo wastage", "total", 32205656, 2020),
        G("instance_activity", "redo write time", "total", 4410, 2036),
        G("instance_activity", "redo write time (usec)", "total", 44104430, 2037),
        G("instance_activity", "redo writes", "total", 103638, 2041),
        G("instance_activity", "user commits", "total", 74563, 1782),
        G("thread_activity", "log switches (derived)", "total", 6, 2130),
        G("thread_activity", "log switches (derived)", "per_hour", 5.98, 2130),
        G("iostat_function", "Buffer Cache Re", "read_data_mb", 2.8 * 1024, 2141),
        G("iostat_function", "Others", "write_data_mb", 779, 2142),
        G("iostat_function", "LGWR", "write_data_mb", 555, 2144),
        G("iostat_function", "LGWR", "write_reqs_per_s", 29.0, 2144),
        G("iostat_function", "LGWR", "avg_ms", 0.38596, 2144),
        G("buffer_pool", "D", "buffers", 1.3497e7, 2236),
        G("buffer_pool", "D", "physical_writes", 108139, 2236),
        G("buffer_pool", "D", "buffer_busy_waits", 324, 2236),
        G("instance_recovery", "B", "estd_mttr_s", 57, 2257),
        G("instance_recovery", "B", "actual_redo_blks", 690555, 2257),
        G("instance_recovery", "E", "log_sz_redo_blks", 2.62e7, 2258),
        G("pga_target_stats", "B", "pga_mem_alloc_m", 909.7, 2320),
        G("enqueue_activity", "SQ-Sequence Cache", "requests", 2103, 2515),
        G("enqueue_activity", "TM-DML", "requests", 921713, 2517),
        G("enqueue_activity", "TM-DML", "avg_wait_ms", None, 2517),  # N/A
        G("undo_summary", "2", "undo_blocks_k", 15.1, 2649),
        G("undo_summary", "2", "transactions", 94254, 2649),
        G("undo_summary", "2", "max_query_s", 1559, 2649),
        G("undo_summary", "2", "max_tuned_retention_min", 40, 2649),
        G("latch_activity", "redo allocation", "get_requests", 321524, 3070),
        G("latch_activity", "redo writing", "get_requests", 362718, 3074),
        G("init_parameters", "log_buffer", "begin", "1073717248", 4165),
        G("init_parameters", "processes", "begin", "3900", 4178),
    ],
}

# ======================================================================== tests


def _cases():
    return [(name, v) for name, g in GOLDEN.items() for v in g["values"]]


@pytest.mark.parametrize("name", list(GOLDEN))
def test_header(corpus_dir, name):
    exp = GOLDEN[name]["header"]
    rep = load(name)
    h = rep.header
    got = dict(db_name=h.db_name, dbid=h.dbid, instance=h.instances[0].name if h.instances else None,
               inst_num=h.instances[0].number if h.instances else None, version=h.version, host=h.host,
               cpus=h.cpus, begin_snap=h.begin.snap_id, end_snap=h.end.snap_id,
               begin_time=h.begin.time, end_time=h.end.time, elapsed_s=rep.elapsed_s, db_time_s=rep.db_time_s)
    for k, v in exp.items():
        if isinstance(v, float):
            assert got[k] == pytest.approx(v, rel=1e-9), k
        else:
            assert got[k] == v, k


@pytest.mark.parametrize("name,case", _cases(), ids=lambda x: x if isinstance(x, str) else f"{x[0]}:{x[1]}:{x[2]}@{x[4]}")
def test_value(corpus_dir, name, case):
    section, rname, key, expected, line = case
    rep = load(name)
    got = field(rep, section, rname, key)
    if expected is None or isinstance(expected, str):
        assert got == expected
    else:
        assert got == pytest.approx(expected, rel=1e-9, abs=1e-9), f"{section}/{rname}/{key} (report line {line})"
    r = rep.sections[section].row(rname)
    # the row points at its source line (or, for two-line rows, the line above)
    assert r.line in (line, line - 1, line - 2), f"row line {r.line}, expected {line}"


def test_at_least_30_values_per_report():
    for name, g in GOLDEN.items():
        assert len(g["values"]) + len(g["header"]) >= 30, name
