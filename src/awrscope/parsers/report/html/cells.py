"""One cell's text: tags dropped, entities decoded, white space squeezed, length bounded;
and the attributes of a tag."""
from __future__ import annotations

import re

from ...numbers import parse_number
from .... import patterns

# Cells longer than this are cut: SQL text and plan cells can be huge and no
# mapper needs more; it keeps memory bounded on hostile input.
MAX_CELL_CHARS = 2000

MAX_ISSUES = 50

_NBSP = "\xa0"

_BREAK_IN_NUMBER = patterns.compile(r"\s*\n\s*")

_HEADINGS = frozenset({"h1", "h2", "h3", "h4"})

_BLOCK_LEVEL = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "div", "pre", "hr", "dl",
                          "blockquote", "form", "table"})

# A tag's attributes: unquoted runs stop at '<' (an unclosed tag ends its scan
# at the next tag, so hostile input stays linear); quoted values may hold '<'
# and '>' (AWR 12c: id="<8us", id=">=512us"). The repeat of the three alternatives is made possessive by an
# atomic group around a greedy repeat, not by '{0,256}+': CPython before 3.11.5 (gh-106052; Debian 12 ships
# 3.11.2) let a possessive repeat of a subpattern that backtracks match where the greedy one does not
# ('<td\xa0=">' was a cell there, and not in the compiled cutter). tests/test_patterns.py keeps every pattern so.
_ATTRS_NC = r"""(?>(?:[^<>"']++|"[^"]*+"|'[^']*+'){0,256})"""
_ATTRS = "(" + _ATTRS_NC + ")"

# A tag, a comment opener, a doctype or a processing instruction.
_TAG = patterns.compile(r"<(?:(/\s*+)?([A-Za-z][A-Za-z0-9:_.-]*+)" + _ATTRS + r">|(!--)|![^>]*+>|\?[^>]*+>)")

# Elements whose content is not text to read: skipped to their end tag.
_RAW_TEXT = ("script", "style", "title", "textarea")

_NAME_END = frozenset(" \t\n\f\r/>")

_ATTR = patterns.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")

_COLSPAN = patterns.compile(r"""colspan\s*=\s*["']?\s*([0-9]*)""", re.I)

def clean_cell(raw: str) -> str:
    """Entity-decoded cell text: ``&nbsp;`` gone, whitespace collapsed, and a
    line break inside a number removed (AWR hard-wraps long numeric cells:
    ``4\\n.6``, ``3,760\\n,240``)."""
    s = raw.replace(_NBSP, " ").strip()
    if "\n" in s and len(s) < 200:  # longer is text (SQL), not a wrapped number
        joined = _BREAK_IN_NUMBER.sub("", s)
        if parse_number(joined).value is not None:
            return joined
    if len(s) > MAX_CELL_CHARS:
        s = s[:MAX_CELL_CHARS]
    # split/join collapses the same whitespace as re's \s+ on a stripped string, 4x faster
    return " ".join(s.split()) if ("  " in s or "\n" in s or "\t" in s) else s

def _decoded(raw: str) -> str:
    if "&" not in raw:
        return raw
    from html import unescape  # here: its table of 2,231 entity names loads only for a text that has one

    return unescape(raw)

def _attrs(raw: str) -> dict[str, str]:
    """Attributes of a start tag, names lower-cased, values entity-decoded."""
    out: dict[str, str] = {}
    for m in _ATTR.finditer(raw):
        name = m.group(1).lower()
        if name not in out:
            value = m.group(2) if m.group(2) is not None else m.group(3) if m.group(3) is not None else m.group(4)
            out[name] = _decoded(value or "")
    return out
