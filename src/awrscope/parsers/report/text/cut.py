"""Cut one line of a text table into cells by its column spans: each whitespace token goes to the column it overlaps
most (spec A.2.4). The compiled cutter (_assign.c) when it was built, this module's Python otherwise. Imports
nothing from the raw model, so that RawTable can cut its own lines lazily without a cycle."""
from __future__ import annotations

import os

from .... import patterns

_TOKEN = patterns.compile(r"\S+")

# The compiled cutter when it was built and not turned off (AWRSCOPE_PURE_PYTHON=1; tests/test_compiled_core.py).
try:
    if os.environ.get("AWRSCOPE_PURE_PYTHON", "") == "1":
        raise ImportError
    from . import _assign as _compiled
except ImportError:
    _compiled = None


def assign(line: str, spans: list[tuple[int, int]], owner: list[int] | None = None) -> list[str]:
    """Cut one line into cells by column spans.

    ``owner`` (from :func:`owners`) maps a character position to the column
    whose span holds it; a token whose first and last characters fall in the
    same column is settled without measuring overlaps (the common case).
    The compiled twin (_assign.c) cuts one-byte lines; :func:`_assign` is the
    reference it mirrors and cuts the others."""
    if owner is None:
        owner = owners(spans)
    if _compiled is not None:
        cells = _compiled.assign(line, spans, owner)
        if cells is not NotImplemented:
            return cells
    return _assign(line, spans, owner)


def _assign(line: str, spans: list[tuple[int, int]], owner: list[int]) -> list[str]:
    width = len(owner)
    if spans:
        # Fast path: when no token crosses a column border (nor lies left of the
        # first column or right of the last), each column's slice holds exactly
        # its tokens. Most data lines; the per-token walk below is the fallback.
        n = len(line)
        start = spans[0][0]
        if (start == 0 or not line[:start].strip()) and (n <= width or not line[width:].strip()):
            out: list[str] = []
            prev = start
            for _, e in spans:
                if 0 < e < n and not line[e - 1].isspace() and not line[e].isspace():
                    break
                cell = line[prev:e].strip()
                # " ".join(cell.split()) without a list per cell: the same text when no run of spaces and
                # no other white space (tabs, NBSP: not printable) is left inside
                out.append(cell if "  " not in cell and cell.isprintable() else " ".join(cell.split()))
                prev = e
            else:
                return out
    cells: list[list[str]] = [[] for _ in spans]
    for m in _TOKEN.finditer(line):
        a, b = m.start(), m.end()
        ka = owner[a] if a < width else -1
        if ka >= 0 and b - 1 < width and owner[b - 1] == ka:
            cells[ka].append(m.group())
            continue
        cells[_best_column(a, b, spans)].append(m.group())
    return [" ".join(c) if len(c) != 1 else c[0] for c in cells]


def owners(spans: list[tuple[int, int]]) -> list[int]:
    """Column index per character position. A gap before a column belongs to
    that column: right-aligned numbers overflow one character to the left."""
    width = spans[-1][1] if spans else 0
    owner = [-1] * width
    prev_end = 0
    for k, (s, e) in enumerate(spans):
        for pos in range(prev_end if k else s, e):
            owner[pos] = k
        prev_end = e
    return owner


def _best_column(a: int, b: int, spans: list[tuple[int, int]]) -> int:
    best, best_overlap = -1, 0
    for k, (s, e) in enumerate(spans):
        if s >= b:
            break
        ov = min(b, e) - max(a, s)
        if ov > best_overlap:
            best, best_overlap = k, ov
    if best < 0:  # token in a gap between columns, or past the last: nearest column
        best = min(range(len(spans)), key=lambda k: min(abs(spans[k][0] - b), abs(spans[k][1] - a)))
    return best
