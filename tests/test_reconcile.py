"""Cross-section repairs, each checked against the report text."""
from __future__ import annotations

from awrscope.parsers import parse_path


def test_histogram_total_that_lost_its_K(corpus):
    # awr_txt_11203_antognini_top2_1830_1845.txt line 272:
    #   'db file sequential read    521.6   2.1   2.9  19.8  49.1  18.3   4.4   3.4'
    # while the Foreground (line 173: 520,207) and Background (line 207: 1,159) wait
    # events count 521,366 waits: the 5-character column dropped the K.
    r = parse_path(str(corpus / "awr_txt_11203_antognini_top2_1830_1845.txt"))[0]
    row = r.sections["wait_histogram"].row("db file sequential read")
    assert row.get("total_waits") == 521_600
    assert row.get("<8ms") == 49.1
    assert any("lost its K suffix" in i.message and i.line == 272 for i in r.issues)
    # a total printed as an integer is left alone: 'control file sequential re  2680'
    assert r.sections["wait_histogram"].row("control file sequential read").get("total_waits") == 2680
