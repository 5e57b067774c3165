"""The cell value grammar of spec A.3 (parsers/numbers.py)."""
from __future__ import annotations

import pytest

from awrscope.parsers.numbers import BAD, EMPTY, NA, OVERFLOW, is_number, parse_number, value


@pytest.mark.parametrize("cell,expected", [
    ("0", 0.0), ("42", 42.0), ("  42  ", 42.0), ("-1.15", -1.15), ("12.5%", 12.5),
    # thousands separators
    ("1,234", 1234.0), ("1,234,567", 1234567.0), ("176,851", 176851.0), ("1,863.0", 1863.0),
    # leading-dot and trailing-dot decimals
    (".0", 0.0), (".6", 0.6), (".005546", 0.005546), ("558.", 558.0),
    # K/M/G/T suffixes (1000-based unless the column is a data volume)
    ("12K", 12e3), ("521.8K", 521.8e3), ("3138.K", 3138e3), ("1.5M", 1.5e6), ("2.1G", 2.1e9), ("3T", 3e12),
    # scientific notation
    ("1.975906811E+11", 1.975906811e11), ("2.0E+04", 2.0e4), ("1.E+03", 1e3), ("3.4E+06", 3.4e6),
    ("1.3497E+07", 1.3497e7), ("7.0E+04", 7.0e4),
    # decimal commas (non-English NLS): one or two digits after the comma
    ("11,1K", 11.1e3), ("92,07", 92.07), ("0,5", 0.5),
])
def test_values(cell, expected):
    assert value(cell) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("cell,seconds,unit", [
    ("52.86 s", 52.86, "s"), ("19.72ms", 0.01972, "ms"), ("268.69us", 268.69e-6, "us"),
    ("109.72us", 109.72e-6, "us"), ("1.02us", 1.02e-6, "us"), ("15.94ms", 15.94e-3, "ms"),
    ("12cs", 0.12, "cs"), ("1.32m", 79.2, "m"),
])
def test_time_unit_cells_are_seconds(cell, seconds, unit):
    n = parse_number(cell)
    assert n.value == pytest.approx(seconds, rel=1e-12)
    assert n.unit == unit


def test_suffix_upper_case_is_mega_lower_case_m_is_minutes():
    assert value("12M") == 12e6
    assert value("12m") == 720.0


def test_binary_suffixes_for_data_volumes():
    assert parse_number("4G", binary=True).value == 4 * 1024.0 ** 3
    assert parse_number("811M", binary=True).value == 811 * 1024.0 ** 2
    assert parse_number(".9M", binary=True).value == pytest.approx(0.9 * 1024.0 ** 2)
    assert parse_number("4G").value == 4e9


@pytest.mark.parametrize("cell,flag", [
    ("######", OVERFLOW), ("#", OVERFLOW), ("##############", OVERFLOW),
    ("N/A", NA), ("n/a", NA), ("", EMPTY), ("   ", EMPTY), ("abc", BAD), ("12#", BAD),
    # past the range of a double: float() would give inf (or raise, for the resolution of 1e400)
    ("9" * 400, BAD), ("-" + "9" * 400 + ".5", BAD), ("1e400", BAD), ("1.5E+305P", BAD), ("1" * 310 + "K", BAD),
])
def test_non_values(cell, flag):
    n = parse_number(cell)
    assert n.value is None
    assert n.flag == flag


def test_is_number_counts_na_and_overflow():
    assert is_number("N/A") and is_number("#####") and is_number("1,234")
    assert not is_number("") and not is_number("Event")


@pytest.mark.parametrize("cell,resolution", [
    ("558.", 0.5), ("558", 0.5), ("1.07", 0.005), (".8", 0.05), (".0", 0.05), ("1,863.0", 0.05),
    ("3138.K", 500.0), ("521.8K", 50.0), ("1.5M", 5e4),
    ("1.975906811E+11", 50.0), ("2.0E+04", 500.0), ("1.E+03", 500.0),
    ("19.72ms", 5e-6), ("52.86 s", 0.005), ("92,07", 0.005), ("11,1K", 50.0),
])
def test_resolution_is_half_the_last_printed_digit(cell, resolution):
    assert parse_number(cell).resolution == pytest.approx(resolution, rel=1e-9)
