"""Report headers misread on public reports outside the corpus (tests/fixtures/hunt/, sources.tsv): each value
below was checked by hand against the report line quoted beside it."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

from conftest import analyze_path, parse_path

HUNT = Path(__file__).parent / "fixtures" / "hunt"
PDB_TEXT = HUNT / "awr_txt_19c_rac_pdb_racdb1_37_38_OUTPUTspool_PREFIX.txt"
DIFF_19C = HUNT / "awr_diff_txt_19c_pdb_cdb1_91_92_vs_88_89_FRAGMENT.txt"


def test_pdb_text_report_host_columns_are_not_shifted():
    """A 19c PDB report prints its Container table, then blank lines, then the one-line host header: the blank
    lines made the header itself pass for Statspack 12c's wrapped host header, every column one to the right
    (host 'Linux x86 64-bit', platform '2', sockets 7, no memory).
    Line 18: 'Host Name        Platform                         CPUs Cores Sockets Memory(GB)'
    Line 20: 'rac1             Linux x86 64-bit                    2     2       2       7.31'
    Line 10: 'racdb1              1 10-Jun-26 08:22'"""
    h = parse_path(PDB_TEXT).header
    assert (h.host, h.platform, h.cpus, h.cores, h.sockets, h.memory_gb) == ("rac1", "Linux x86 64-bit", 2, 2, 2, 7.31)
    assert [(i.name, i.number, i.host) for i in h.instances] == [("racdb1", 1, "rac1")]
    # line 6: 'RACDB         1231980070 racdb       PRIMARY          EE      19.0.0.0.0 YES YES'; line 14: '... PDB1 ...'
    assert (h.db_name, h.dbid, h.unique_name, h.version, h.rac, h.cdb, h.container) == (
        "RACDB", 1231980070, "racdb", "19.0.0.0.0", True, True, "PDB1")
    doc = analyze_path(PDB_TEXT)["report"]  # the analysis document's report block
    assert (doc["host"], doc["instances"]) == ("rac1", ["racdb1"])


def test_statspack_12c_wrapped_host_header_still_read(corpus):
    """The real wrapped header (Statspack 12.1) keeps its reading.
    Line 8:  'Host                             Name             Platform                CPUs'
    Line 9:  'Cores Sockets   Memory (G)'
    Line 10: '~~~~ ---------------- ---------------------- ----- ----- ------- ------------'
    Line 11: '     cgm-szara.root.d Linux x86 64-bit          22    22      22        126.0'"""
    h = parse_path(corpus / "statspack_txt_12102_jasmin_clinprd1_70371_70372.txt").header
    assert (h.host, h.platform, h.cpus, h.cores, h.sockets, h.memory_gb) == (
        "cgm-szara.root.d", "Linux x86 64-bit", 22, 22, 22, 126.0)


def test_compare_period_19c_text_reads_db_and_instance_from_the_titles():
    """awrddrpt 19c prints no DB Name and no Instance column; the section titles print both, per period.
    Line 3:  'Snapshot Set    DB Id    Unique Name DB Role          Edition Release     Cluster CDB Host ...'
    Line 5:  'First (1st)    909607496 CDB1        PRIMARY          EE      19.0.0.0.0  NO      YES db-upgrade ...'
    Line 47: 'Top Timed Events   First DB/Inst: CDB1/CDB1 Snaps: 91-92 (...),  Second DB/Inst: CDB1/CDB1 Snaps: 88-89'
    Line 10: '1st                      91 08-Dec-23 00:29:40 (Fri)           92 08-Dec-23 00:34:40 (Fri) ...'
    Line 11: '2nd                      88 08-Dec-23 00:23:57 (Fri)           89 08-Dec-23 00:28:57 (Fri) ...'"""
    r = parse_path(DIFF_19C)
    assert (r.header.db_name, [i.name for i in r.header.instances]) == ("CDB1", ["CDB1"])
    assert (r.header.unique_name, r.header.dbid, r.header.host) == ("CDB1", 909607496, "db-upgrade")
    first, second = (p.header for p in r.periods)
    assert (first.db_name, [i.name for i in first.instances], first.begin.snap_id, first.end.snap_id) == (
        "CDB1", ["CDB1"], 91, 92)
    assert (second.db_name, [i.name for i in second.instances], second.begin.snap_id, second.end.snap_id) == (
        "CDB1", ["CDB1"], 88, 89)
    assert first.begin.time == datetime(2023, 12, 8, 0, 29, 40) and second.end.time == datetime(2023, 12, 8, 0, 28, 57)
    assert any("no DB name" in i.message and "titles" in i.message for i in r.issues)
    doc = analyze_path(DIFF_19C)
    assert (doc["report"]["db_name"], doc["report"]["instances"]) == ("CDB1", ["CDB1"])  # 'db None' before


def test_compare_period_text_db_name_from_titles_not_the_instance(corpus):
    """A 10g compare-period text report prints Instance but no DB Name: the upper-cased instance name stood in
    (RAC8), while the titles print the DB name, as the HTML report of the same database does (PDERP01).
    Line 5:  'Snapshot Set    DB Id    Instance     Inst Num Release     Cluster Host'
    Line 7:  'First (1st)   3043736469 rac8                8 10.2.0.3.0  YES     ux_erp8'
    Line 62: 'RAC Statistics  First DB/Inst: PDERP01/rac8 Snaps: 50460-50474,  Second DB/Inst: PDERP01/rac8 ...'"""
    r = parse_path(corpus / "awr_diff_txt_10203_radtek_pderp01_rac8_50460_50474_vs_50628_50642.txt")
    for h in [r.header] + [p.header for p in r.periods]:
        assert (h.db_name, [(i.name, i.number) for i in h.instances]) == ("PDERP01", [("rac8", 8)])
    html = parse_path(corpus / "awr_diff_html_10203_radtek_pderp01_rac8_46401_46407_vs_46545_46551.html")
    assert html.header.db_name == r.header.db_name


def test_a_page_with_its_charset_before_html_and_russian_months_is_read():
    """A 12.1.0.2 AWR page kept as a Go parser's test data (trimmed there inside Load Profile): line 1 is
    '<meta http-equiv="content-type" ...><html lang="en"><head><title>AWR Report for DB: ZP ...' (refused: the
    document was looked for at a line start only), and the snapshots print Russian months: '10-Дек-17 13:30:55'
    (line 27), '10-Дек-17 14:00:00' (line 28), which left the window unread without a word."""
    from datetime import datetime

    from awrscope.parsers import parse_path

    rep, = parse_path(str(HUNT / "awr_html_12102_ru_zp_111755_111758_TRIMMED.html"))
    h = rep.header
    assert (h.db_name, h.begin.snap_id, h.end.snap_id) == ("ZP", 111755, 111758)
    assert (h.begin.time, h.end.time) == (datetime(2017, 12, 10, 13, 30, 55), datetime(2017, 12, 10, 14, 0, 0))


def test_month_names_in_the_languages_reports_are_printed_in():
    from datetime import datetime

    from awrscope.parsers.timefmt import parse_time

    assert parse_time("05-Май-19 10:00:01") == datetime(2019, 5, 5, 10, 0, 1)  # 'й' folds to 'и'
    assert parse_time("10-12月-17 13:30:55") == datetime(2017, 12, 10, 13, 30, 55)
    assert parse_time("03-7월-21 09:00:00") == datetime(2021, 7, 3, 9, 0, 0)  # Hangul is not folded
    assert parse_time("12-Ağu-20 10:00") == datetime(2020, 8, 12, 10, 0)
    assert parse_time("1-13月-17 10:00") is None
    assert parse_time("23-1月 -18 09:05:00") == datetime(2018, 1, 23, 9, 5)  # Oracle pads a one-digit month
    assert parse_time("23-Lip-14 10:00") is None  # Polish July, Croatian June: not guessed


def test_a_whole_cdb_s_report_is_no_one_container_s(corpus):
    """xydb 9691 (19c RAC) is a 'WORKLOAD REPOSITORY report for' the whole CDB: its container table lists ETPDB,
    EAMSPDB, DATAASSETS, PDB$SEED, CDB$ROOT, ... and the last one listed was shown as the report's container
    ('container CWPDB'). A PDB report ('WORKLOAD REPOSITORY PDB report (root snapshots)') lists its one container:
    idcdb's SJJH."""
    rep = parse_path(corpus / "awr_html_19c_rac_pcambell_xydb_9691_9692.html")
    assert (rep.header.cdb, rep.header.container) == (True, None)
    rep = parse_path(corpus / "awr_html_12201_rac_pcambell_idcdb_56288_56289.html")
    assert (rep.header.cdb, rep.header.container) == (True, "SJJH")


#: A 21c report's header as a blog note prints it (`head -20 SBY_awrrpt_1_1_2.txt`, index file 31903138078): an
#: AWR report of a physical standby, through the Remote Management Framework, of the whole CDB
STANDBY_21C = """WORKLOAD REPOSITORY report for

DB Name         DB Id    Unique Name DB Role          Edition Release    RAC CDB
------------ ----------- ----------- ---------------- ------- ---------- --- ---
DBSDU         3442244332 DBSDU_fra2b PHYSICAL STANDBY XP      21.0.0.0.0 NO  YES

Instance     Inst Num Startup Time    User Name    System Data Visible
------------ -------- --------------- ------------ --------------------
DBSDU               1 23-Jun-21 09:29 SYS          YES

Container DB Id  Container Name       Open Time
--------------- --------------- ---------------
      549332648 CDB$ROOT        29-Jun-21 13:19
     3068248347 PDB$SEED        29-Jun-21 13:19
     3978915883 PDBSDU          29-Jun-21 13:20

Host Name        Platform                         CPUs Cores Sockets Memory(GB)
---------------- -------------------------------- ---- ----- ------- ----------
dbcnsby          Linux x86 64-bit                    2     1       1      14.43
"""


def test_a_standby_s_report_says_so_and_is_no_pdb_s():
    """The role PHYSICAL STANDBY was read and shown nowhere; the last container listed, PDBSDU, was given as the
    report's."""
    from awrscope.analysis import analyze
    from awrscope.parsers import parse_text
    from awrscope.render.text import render_text

    doc = analyze(parse_text(STANDBY_21C))
    r = doc["report"]
    assert (r["db_name"], r["role"], r["container"], r["version"]) == ("DBSDU", "PHYSICAL STANDBY", None, "21.0.0.0.0")
    assert "db DBSDU  role PHYSICAL STANDBY  instance(s) DBSDU" in render_text(doc)


def test_a_header_that_cannot_be_read_is_said():
    """A 9.2 Statspack header as a Chinese blog page prints it, a blank line after every line (cnitblog.com tjitty,
    'statspack 分析报告详解', 2008): its database and instance were lost as 'db ?' without a word. The lines below are
    the page's."""
    from awrscope.parsers import parse_text

    text = ("STATSPACK report for \n\nDB Name         DB Id    Instance     Inst Num Release     Cluster Host\n\n"
            "------------ ----------- ------------ -------- ----------- ------- ------------\n\n"
            "GDTJ          3127284842 gdtj                1 9.2.0.6.0   NO      S1TJ\n\n"
            "              Snap Id     Snap Time      Sessions Curs/Sess Comment\n\n"
            "            --------- ------------------ -------- --------- -------------------\n\n"
            "Begin Snap:         5 26-Feb-08 15:43:03      163      14.4\n\n"
            "  End Snap:         6 03-Mar-08 15:20:29      162       1.8\n\n"
            "   Elapsed:            8,617.43 (mins)\n\n")
    rep = parse_text(text)
    assert rep.header.db_name is None and rep.elapsed_s == 8617.43 * 60
    assert any(i.level == "warning" and i.message.startswith("the header's database and instance were not found in it")
               for i in rep.issues)
