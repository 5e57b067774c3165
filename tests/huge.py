"""Build a huge report from a real one: the data rows of its first 'SQL ordered
by' table repeated until the report reaches a size (a multi-day report with
thousands of SQL rows). Text and HTML reports. Used by tests/test_scale.py and
on demand:

    python tests/huge.py REPORT.txt 200 /tmp/huge.txt     # a 200 MB text report
    python tests/huge.py REPORT.html 200 /tmp/huge.html   # a 200 MB HTML report
"""
from __future__ import annotations

import sys
from pathlib import Path


def make_huge(text: str, target_bytes: int) -> str:
    if "<table" in text[:200_000].lower():
        return _make_huge_html(text, target_bytes)
    lines = text.splitlines(keepends=True)
    start = next(i for i, l in enumerate(lines) if l.startswith("SQL ordered by"))
    dashes = next(i for i in range(start, len(lines)) if lines[i].startswith("----------"))
    end = next(i for i in range(dashes + 1, len(lines))
               if lines[i].startswith("SQL ordered by") or lines[i].strip().startswith("-------------------"))
    rows = "".join(lines[dashes + 1:end])
    reps = max(1, (target_bytes - len(text)) // max(1, len(rows)) + 1)
    return "".join(lines[:dashes + 1]) + rows * reps + "".join(lines[dashes + 1:])


def _make_huge_html(text: str, target_bytes: int) -> str:
    """The rows after the header row of the table under the first 'SQL ordered by' heading."""
    heading = text.index("SQL ordered by", text.index("<h3"))
    table = text.index("<table", heading)
    first_row = text.index("<tr", text.index("</tr>", table))  # after the header row
    end = text.index("</table>", first_row)
    rows = text[first_row:end]
    reps = max(1, (target_bytes - len(text)) // max(1, len(rows)) + 1)
    return text[:first_row] + rows * reps + text[first_row:]


if __name__ == "__main__":
    src, mb, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    Path(out).write_text(make_huge(Path(src).read_text(errors="replace"), int(mb * 1e6)))
