"""The one display-number formatter (numfmt.py): numbers as a DBA writes them (issue 41)."""
from __future__ import annotations

import pytest

from awrscope.numfmt import decimals_for, fmt_num, fmt_value, plain_number


@pytest.mark.parametrize("v,unit,text", [
    # float noise never reaches a reader
    (326.40000000000003, "", "326.4"), (326.40000000000003, "s", "326.4 s"), (0.1 + 0.2, "", "0.3"),
    # milliseconds: three significant figures, at most to the microsecond
    (12.804474, "ms", "12.8 ms"), (0.0947, "ms", "0.095 ms"), (0.97, "ms", "0.97 ms"), (2465.29, "ms", "2,465.3 ms"),
    (0.0004, "ms", "<0.001 ms"),
    # shares of DB time, active sessions, seconds, rates: at most two decimals
    (55.34, "%", "55.34 %"), (0.0212, "%", "0.02 %"), (0.00247, "%", "<0.01 %"), (0.00015, "%", "<0.01 %"),
    (0.0134, "sessions", "0.01 sessions"), (13.97, "sessions", "14 sessions"), (45.21, "sessions", "45.2 sessions"),
    (7.1, "sessions", "7.1 sessions"), (0.0816, "s", "0.08 s"), (0.0608, "1/s", "0.06/s"),
    (2.9, "1/h", "2.9/h"), (0.0377, "MiB/s", "0.04 MiB/s"),
    # a bare ratio keeps three decimals at most
    (0.0039, "", "0.004"), (0.000124, "", "<0.001"), (-0.000124, "", ">-0.001"), (0.111, "", "0.111"),
    # whole numbers and large ones
    (7, "", "7"), (182738.0, "", "182,738"), (54220.6, "s", "54,220.6 s"), (1.2e7, "", "12,000,000"),
    (0, "%", "0 %"), (-0.0, "", "0"), (-1.47, "", "-1.47"), (-0.0588, "", "-0.059"),
    # bytes scale to KiB / MiB / GiB
    (512, "B", "512 B"), (5 * 2**20, "B", "5 MiB"), (3.5 * 2**30, "B/s", "3.5 GiB/s"), (20480, "B", "20 KiB"),
])
def test_fmt_num(v, unit, text):
    assert fmt_num(v, unit) == text


def test_missing_and_non_numbers():
    assert fmt_num(None) == "n/a" and fmt_num(None, "ms", none="-") == "-"
    assert fmt_num("12 ms") == "12 ms" and fmt_num(True) == "True"
    assert plain_number(float("inf")) == "inf"
    assert fmt_value(None) == "n/a" and fmt_value(0.0947, "ms") == "0.095" and fmt_value(3, "count") == "3"


def test_decimals_per_unit():
    assert decimals_for("ms") == 3 and decimals_for("%") == 2 and decimals_for("s") == 2
    assert decimals_for(None) == decimals_for("") == decimals_for("ratio") == 3


@pytest.mark.parametrize("v", [1e-9, 3.3e-5, 0.00049, 0.0123456, 0.123456, 1.23456, 12.3456, 123.456, 1234.56,
                               12345.678, 0.999999, 99.99999, -0.0123456, -12.3456])
@pytest.mark.parametrize("unit", ["", "ms", "s", "%", "sessions", "1/s", "MiB/s", "ratio", "count"])
def test_never_more_decimals_than_the_unit_needs(v, unit):
    text = plain_number(v, unit)
    decimals = len(text.split(".")[1]) if "." in text else 0
    assert decimals <= decimals_for(unit), text
    assert "e" not in text.lower(), text  # no scientific notation for a reader
    if not text.startswith(("<", ">")):
        # what is shown is the value rounded, not another one
        assert float(text.replace(",", "")) == pytest.approx(v, rel=0.01, abs=0.5 * 10 ** -decimals_for(unit))
