"""Report headers misread on public reports outside the corpus (tests/fixtures/hunt/, sources.tsv): each value
below was checked by hand against the report line quoted beside it."""
from __future__ import annotations

from pathlib import Path

from conftest import analyze_path, parse_path

HUNT = Path(__file__).parent / "fixtures" / "hunt"
PDB_TEXT = HUNT / "awr_txt_19c_rac_pdb_racdb1_37_38_OUTPUTspool_PREFIX.txt"


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
