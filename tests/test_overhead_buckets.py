"""M57: the FG wake-up overhead distribution, read by label only where the labels are whole (P16, F10)."""
from __future__ import annotations

import pytest

from awrscope.metrics import derive
from awrscope.parsers import parse_path


def test_html_labels_give_the_distribution(corpus):
    # awr_html_11204_rac_1newstar_orcl1_2_3.html: '(<2 msec)' 7, '(<32 msec)' 0, '(<8 msec)' 0,
    # '(>=128 msec)' 2 -> 2 of 9 waits over 8 ms = 22.2 %
    m = derive(parse_path(str(corpus / "awr_html_11204_rac_1newstar_orcl1_2_3.html"))[0])
    assert m.v("overhead_bucket_dist") == pytest.approx(100 * 2 / 9)


def test_text_cut_labels_keep_only_the_sum(corpus):
    # the text twin prints the same four rows as 'redo synch time overhead count (' (lines 2056-2059):
    # which is which cannot be told, so no distribution, and the sum 7+0+0+2 = 9 in the note
    mv = derive(parse_path(str(corpus / "awr_txt_11204_rac_1newstar_orcl1_2_3.txt"))[0]).get("overhead_bucket_dist")
    assert mv.value is None and mv.reason == "AMBIGUOUS_NAME"
    assert "(9 waits)" in mv.note and len(mv.sources) == 4
