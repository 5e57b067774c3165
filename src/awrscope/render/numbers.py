"""The renderers' name for the one display-number formatter (``awrscope.numfmt``), which every layer may import."""
from __future__ import annotations

from ..numfmt import decimals_for, fmt_num, fmt_value, plain_number

__all__ = ["decimals_for", "fmt_num", "fmt_value", "plain_number"]
