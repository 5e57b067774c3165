"""The one display-number formatter of every renderer (text, Markdown, HTML) and the web app."""
from __future__ import annotations


def fmt_num(v: float | int | None, unit: str = "", none: str = "n/a") -> str:
    """A number for display with its unit: bytes scaled to KiB/MiB/GiB, thousands separated,
    about three significant digits below 100, ``none`` for a missing value."""
    if v is None:
        return none
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    a = abs(v)
    if a >= 1e9 and unit in ("B", "B/s"):
        s = f"{v / 2**30:.2f} GiB"
        return s + ("/s" if unit == "B/s" else "")
    if a >= 1e6 and unit in ("B", "B/s"):
        s = f"{v / 2**20:.2f} MiB"
        return s + ("/s" if unit == "B/s" else "")
    if a >= 1e4 and unit in ("B", "B/s"):
        s = f"{v / 1024:.1f} KiB"
        return s + ("/s" if unit == "B/s" else "")
    s = plain_number(v)
    if unit in ("1/s", "1/h", "1/min"):
        return f"{s}{unit[1:]}"
    return f"{s} {unit}".rstrip() if unit else s


def plain_number(v: float | int) -> str:
    """A number without its unit: thousands separated, about three significant digits below 100."""
    a = abs(v)
    if a >= 1e6 or (a >= 100 and float(v).is_integer()):
        return f"{v:,.0f}"
    if a >= 100:
        return f"{v:,.1f}"
    if a >= 1 or a == 0:
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return f"{v:.3g}"
