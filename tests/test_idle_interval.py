"""An idle interval (DB time 0) is analysed without dividing by zero: the rules
that need DB time say so instead of guessing."""
from __future__ import annotations

from pathlib import Path

from awrscope.analysis import analyze
from awrscope.parsers import parse_text

MINI = Path(__file__).parent / "fixtures" / "mini_awr_11204.txt"


def test_zero_db_time_is_not_a_crash():
    text = MINI.read_text()
    text = text.replace("DB time                                               7,200.0",
                        "DB time                                                   0.0")
    text = text.replace("DB Time:              120.00 (mins)", "DB Time:                0.00 (mins)")
    text = text.replace("DB CPU                                                1,800.0",
                        "DB CPU                                                    0.0")
    doc = analyze(parse_text(text))
    assert all(f["impact"]["pct_db_time"] is None or f["impact"]["pct_db_time"] >= 0 for f in doc["findings"])
    assert "G02" not in {f["id"] for f in doc["findings"]}
