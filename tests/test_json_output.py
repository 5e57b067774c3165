"""The JSON output's spelling: ``to_json`` re-indents the C encoder's one-line text with msgspec for
speed, and must give exactly the standard library's indented text for any document, including the
values msgspec refuses (NaN, infinities, lone surrogates), which take the standard library's way."""
from __future__ import annotations

import datetime as dt
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from awrscope.render.json import join_json, to_json

_SCALARS = (st.none() | st.booleans() | st.integers(-(2**80), 2**80) | st.floats()
            | st.text(max_size=12) | st.sampled_from(["\ud800", "\u2028", "\x7f", "\x00", "é中", '"\\/']))
_DOCS = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(_DOCS, st.sampled_from([1, 2, None, 0, -1]))
def test_same_text_as_the_standard_library(doc, indent):
    assert to_json(doc, indent) == json.dumps(doc, indent=indent, ensure_ascii=False, default=str)


def test_values_json_cannot_hold_are_strings():
    doc = {"at": dt.datetime(2024, 3, 1, 10, 0), "empty": {}, "none": [], "nan": float("nan")}
    assert to_json(doc) == ('{\n "at": "2024-03-01 10:00:00",\n "empty": {},\n "none": [],\n'
                            ' "nan": NaN\n}')


@settings(max_examples=400, deadline=None)
@given(st.lists(_DOCS, max_size=5), st.sampled_from([1, 2, 3]))
def test_documents_written_apart_join_into_the_list_written_whole(docs, indent):
    """Worker processes write each analysis document; the list they make is the list written at once."""
    assert join_json([to_json(d, indent) for d in docs], indent) == to_json(docs, indent)


def test_several_reports_give_one_json_list_of_their_documents(corpus, tmp_path):
    """`analyze --format json` of several reports in worker processes: the list is the documents each report
    gives alone, in the order given."""
    import subprocess
    import sys

    names = ["awr_html_11203_antognini_top2_1830_1845.html", "statspack_txt_81741_radtek-oraclescripts_oracle_116_117.lst",
             "awr_txt_11203_antognini_top2_1830_1845.txt"]
    paths = [str(corpus / n) for n in names]
    both = subprocess.run([sys.executable, "-m", "awrscope", "analyze", "--format", "json", "-j", "2", *paths],
                          capture_output=True, text=True, timeout=300)
    docs = json.loads(both.stdout)
    assert [d["source"]["path"] for d in docs] == paths
    alone = [json.loads(subprocess.run([sys.executable, "-m", "awrscope", "analyze", "--format", "json", p],
                                       capture_output=True, text=True, timeout=300).stdout) for p in paths]
    assert docs == alone
    assert both.stdout == to_json(alone) + "\n"
