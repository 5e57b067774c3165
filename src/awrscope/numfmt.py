"""The one display-number formatter of every output: the renderers (text, Markdown, HTML), the sentences the
rules, the what-if models and the compare and trend documents write, the MCP tools and the web app. It imports
nothing from awrscope, so that every layer may use it (docs/architecture.md).

A number is written as a DBA writes it: about three significant figures, thousands separated, and never
more decimals than its unit is worth. Oracle times waits to the microsecond, so a millisecond figure keeps
at most three decimals (``0.095 ms``, not ``0.0947 ms``); a share of DB time, a count of active sessions, a
time in seconds, a rate or a volume per second at most two; a bare ratio at most three. A figure too small
for those decimals but not zero reads ``<0.01`` (never ``0``, which would say it is nothing). The JSON keeps
the raw values: this module is for what a reader sees.
"""
from __future__ import annotations

import math

#: The most decimals each unit is worth showing; a unit not listed (a bare ratio, a factor) gets DEFAULT_DECIMALS.
UNIT_DECIMALS = {
    "ms": 3, "us": 2, "µs": 2,
    "s": 2, "min": 2, "h": 2,
    "%": 2,
    "sessions": 2, "AAS": 2, "processes": 2, "CPUs": 2,
    "MiB": 2, "GiB": 2, "KiB": 1, "MB": 2, "GB": 2, "MiB/s": 2, "MB/s": 2, "GiB/s": 2,
    "1/s": 2, "/s": 2, "1/h": 2, "1/min": 2,
    "count": 2, "blocks": 2, "samples": 2, "B": 0, "B/s": 0, "Bps": 0,
}
DEFAULT_DECIMALS = 3
#: Units written to three significant figures between 10 and 100 too (14.0 average active sessions, not 13.97);
#: other figures keep two decimals there, as the report prints its shares and times (74.43 %).
THREE_FIGURES = {"sessions", "AAS"}


def decimals_for(unit: str | None) -> int:
    """How many decimals a figure in ``unit`` is worth at most."""
    return UNIT_DECIMALS.get(unit or "", DEFAULT_DECIMALS)


def fmt_num(v: float | int | None, unit: str = "", none: str = "n/a", *, signed: bool = False) -> str:
    """A number for display with its unit: bytes scaled to KiB/MiB/GiB, thousands separated,
    about three significant digits, no more decimals than the unit needs, ``none`` for a missing value;
    ``signed`` writes a '+' before a positive change."""
    if v is None:
        return none
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    if signed and v > 0:
        return "+" + fmt_num(v, unit)
    a = abs(v)
    if unit in ("B", "B/s"):
        per = "/s" if unit == "B/s" else ""
        if a >= 1e9:
            return f"{plain_number(v / 2**30, 'GiB')} GiB{per}"
        if a >= 1e6:
            return f"{plain_number(v / 2**20, 'MiB')} MiB{per}"
        if a >= 1e4:
            return f"{plain_number(v / 1024, 'KiB')} KiB{per}"
    s = plain_number(v, unit)
    if unit in ("1/s", "1/h", "1/min"):
        return f"{s}{unit[1:]}"
    return f"{s} {unit}".rstrip() if unit else s


def fmt_value(v: float | int | None, unit: str = "", none: str = "n/a", *, signed: bool = False) -> str:
    """The number alone, at the precision of ``unit`` (for a table whose unit is in its own column)."""
    if v is None:
        return none
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    return ("+" if signed and v > 0 else "") + plain_number(v, unit)


def plain_number(v: float | int, unit: str = "") -> str:
    """A number without its unit: thousands separated, about three significant digits, at most the decimals
    ``unit`` is worth (three without a unit)."""
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if v == 0:
        return "0"  # -0.0 too
    cap = decimals_for(unit)
    a = abs(v)
    if a >= 1e6 or (a >= 100 and float(v).is_integer()):
        return f"{v:,.0f}"
    if a >= 100:
        return _trim(f"{v:,.{min(1, cap)}f}")  # 1,054 ms, not 1,054.0
    if a >= 1:
        return _trim(f"{v:.{min(1 if a >= 10 and unit in THREE_FIGURES else 2, cap)}f}")
    # below 1: three significant figures, as many decimals as the unit allows
    sig = max(0, 2 - math.floor(math.log10(a)))
    places = min(sig, cap)
    if round(a, places) == 0:  # too small to show in this unit, but not nothing
        step = "1" if places == 0 else "0." + "0" * (places - 1) + "1"
        return f"<{step}" if v > 0 else f">-{step}"
    return _trim(f"{v:.{places}f}")


def _trim(s: str) -> str:
    return s.rstrip("0").rstrip(".") if "." in s else s
