"""The value grammar of Statspack/AWR cells (spec A.3).

A cell is empty, ``N/A``, an overflow (``####``), or a number with optional
thousands separators, exponent, K/M/G/T/P suffix, time unit and ``%``.
Suffixes are upper case and time units lower case: ``12M`` is mega, ``1.32m``
minutes. Everything here is pure and allocation-light because it runs once per
cell of every report.
"""
from __future__ import annotations

import os
import re
from typing import NamedTuple
from .. import patterns

SUFFIX_1000 = {"K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
SUFFIX_1024 = {"K": 1024.0, "M": 1024.0**2, "G": 1024.0**3, "T": 1024.0**4, "P": 1024.0**5}
# Time units to seconds. 'm' and 'h' are defensive (spec A.3: unverified in reports).
TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "cs": 1e-2, "m": 60.0, "h": 3600.0}

OVERFLOW = "overflow"
NA = "na"
EMPTY = "empty"
BAD = "bad"

_NUMBER = patterns.compile(
    r"""^(?P<sign>[-+]?)
        (?P<mant>\d[\d,]*(?:\.\d*)?|\.\d+)
        (?P<exp>[eE][-+]?\d+)?
        \s?(?P<suffix>[KMGTP])?
        \s?(?P<unit>ns|us|ms|cs|s|m|h)?
        \s?(?P<pct>%)?$""",
    re.VERBOSE,
)
# A comma followed by one or two digits at the end of the mantissa can only be a
# decimal comma (non-English NLS masks, e.g. "11,1K", "92,07"); thousands groups
# always have three digits.
_DECIMAL_COMMA = patterns.compile(r"^[-+]?\d+,\d{1,2}(?:[eE][-+]?\d+)?\s?[KMGTP]?\s?(?:ns|us|ms|cs|s|m|h)?\s?%?$")


class Number(NamedTuple):
    """A parsed cell: value in the cell's own unit (suffix applied, time units
    converted to seconds when ``unit`` is set), its resolution (half of the last
    printed digit) and a flag for non-values."""

    value: float | None
    resolution: float
    unit: str | None = None  # time unit printed in the cell, already applied (value in s)
    flag: str | None = None


_EMPTY = Number(None, 0.0, None, EMPTY)
_NA = Number(None, 0.0, None, NA)
_OVER = Number(None, 0.0, None, OVERFLOW)
_BAD = Number(None, 0.0, None, BAD)


def parse_number(cell: str, *, binary: bool = False) -> Number:
    """Parse one cell. ``binary`` selects 1024-based suffixes (IOStat "Data" columns).

    Memoised: reports repeat the same cells ('0', '0.00', '', '100.00') all
    over, and a :class:`Number` is immutable. The memo is bounded."""
    n = _MEMO.get(cell)
    if n is None or binary:
        n = _parse(cell, binary)
        if not binary and len(cell) <= 40:  # only short cells: the memo never holds a huge string
            if len(_MEMO) >= _MEMO_MAX:
                _MEMO.clear()
            _MEMO[cell] = n
    return n


_MEMO: dict[str, Number] = {}
_MEMO_MAX = 20000


# Magnitudes no report prints (counters are 64-bit, under 1.9e19; the undo sentinel 'max tuned retention' prints
# up to ~1e40): a cell past them is garbage. Kept as a value, 1e306 waits/s times the elapsed seconds made inf,
# and inf is not JSON (the store refused it: exit 3); products of three cells inside the bounds stay finite.
_HUGE, _TINY = 1e100, 1e-100


def _parse(cell: str, binary: bool) -> Number:
    s = cell.strip()
    if not s:
        return _EMPTY
    # Fast path: plain integers and decimals, by far the most common cells.
    first = s[0]
    # (scientific cells take the slow path: their resolution scales with the exponent)
    # float() reads '7180_54859' as 718054859: an underscore makes a name (a partition), never a number
    if "_" in s:
        return _BAD
    if (first.isdigit() or first == "." or first == "-") and "E" not in s and "e" not in s:
        try:
            plain = s.replace(",", "") if "," in s else s
            v = float(plain)
            if not -_HUGE < v < _HUGE or (v and -_TINY < v < _TINY):  # past what Oracle prints (inf too)
                return _BAD
            if "," in s and _DECIMAL_COMMA.match(s):
                return _parse_slow(s, binary)
            return Number(v, _resolution(plain), None, None)
        except ValueError:
            pass
    if first == "#":
        return _OVER if s.strip("#") == "" else _BAD
    if s in ("N/A", "n/a", "NA"):
        return _NA
    return _parse_slow(s, binary)


def _parse_slow(s: str, binary: bool) -> Number:
    if "," in s and _DECIMAL_COMMA.match(s):
        s = s.replace(",", ".")
    m = _NUMBER.match(s)
    if m is None:
        return _BAD
    mant = m.group("mant").replace(",", "")
    exp = m.group("exp") or ""
    try:
        v = float(mant + exp)
    except ValueError:
        return _BAD
    res = _resolution(mant)
    if exp:
        res *= float("1" + exp)  # not 10.0 ** n, which raises past 1e308
    suffix = m.group("suffix")
    if suffix:
        mult = (SUFFIX_1024 if binary else SUFFIX_1000)[suffix]
        v *= mult
        res *= mult
    unit = m.group("unit")
    if unit:
        scale = TIME_UNITS[unit]
        v *= scale
        res *= scale
    if not v < _HUGE or (v and v < _TINY) or res - res != 0.0:  # past the range of a double (1e400, 1e305P)
        return _BAD
    if m.group("sign") == "-":
        v = -v
    return Number(v, res, unit, None)


def _resolution(mant: str) -> float:
    """Half of the last printed digit: '558.' -> 0.5, '1.07' -> 0.005, '.8' -> 0.05."""
    dot = mant.find(".")
    if dot < 0:
        return 0.5
    if "e" in mant or "E" in mant:
        mant = re.split("[eE]", mant)[0]
    decimals = len(mant) - dot - 1
    return 0.5 * 10.0**-decimals


# The compiled twin of parse_number (parsers/_values.c) when it was built and not turned off
# (AWRSCOPE_PURE_PYTHON=1): the memo and the plain cells in C, every other cell through _parse; also the row loop
# of sections/common.table_rows. tests/test_compiled_core.py compares both paths.
try:
    if os.environ.get("AWRSCOPE_PURE_PYTHON", "") == "1":
        raise ImportError
    from . import _values as _compiled
except ImportError:
    _compiled = None
python_parse_number = parse_number
if _compiled is not None:
    _compiled.bind(_MEMO, _MEMO_MAX, _parse, Number, _EMPTY, _BAD, OVERFLOW)
    parse_number = _compiled.parse_number  # noqa: F811 - the same function, compiled


def value(cell: str, *, binary: bool = False) -> float | None:
    """Just the value of a cell (None for empty, N/A, overflow, garbage)."""
    return parse_number(cell, binary=binary).value


def is_number(cell: str) -> bool:
    n = parse_number(cell)
    return n.value is not None or n.flag in (OVERFLOW, NA)
