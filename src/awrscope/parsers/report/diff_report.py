"""Compare-period reports (``awrddrpt.sql``, spec A.4.11), text and HTML.

Every table prints the two periods side by side. Two layouts exist:

* *column groups*: shared columns (Event, Statistic) then, per figure, a
  ``1st`` column, a ``2nd`` column and often a ``Diff``/``%Diff`` column. HTML
  repeats the figure name in each column (``% DB Time 1st``); text stacks the
  header so the name is spread over the group (``1st`` / ``% DB Time 2nd`` /
  ``Diff``), hence the label is the ordered union of the group's words;
* *two halves*: the Top Timed Events table prints the first period's list
  then the second's (``1st Event ... 2nd Event ...``).

Each period becomes an ordinary table, fed to the same section mappers, so a
period is a :class:`Report` like any other; the Diff columns become
``Report.diff`` sections.
"""
from __future__ import annotations

import re

from ...model import Header, ParseIssue, Report, Section
from .header import parse_header_tables
from .raw import Block, RawTable
from .sections import lookup
from .sections.common import squash
from .sections.misc import generic_table
from .text.tables import read_block
from ... import patterns

# Only the abbreviations mark a period in column names: 'per Second' is a rate.
_FIRST = frozenset({"1st", "(1st)"})
_SECOND = frozenset({"2nd", "(2nd)"})
_DIFF = frozenset({"diff", "%diff", "diff:", "%diff:"})
# Compare-period figures whose single-period name differs: the per-second
# rate single-instance reports print is the one over elapsed time.
_LABEL_ALIASES = {
    "persecond(dbtime)": "per DB-time second",
    "persecond(elapsedtime)": "per Second",
    # Operating System Statistics: the single-period report's 'Value' column (times in centi-seconds there too)
    "value(centi-seconds)": "Value",
}


def _marker(column: str) -> tuple[str | None, list[str]]:
    """('1st' | '2nd' | 'diff' | None, the other words of the header)."""
    words = column.split()
    for k, w in enumerate(words):
        lw = w.lower()
        kind = "1st" if lw in _FIRST else "2nd" if lw in _SECOND else "diff" if lw in _DIFF else None
        if kind:
            return kind, words[:k] + words[k + 1:]
    return None, words


def split_table(table: RawTable) -> tuple[RawTable, RawTable, RawTable | None]:
    """(first period, second period, diff) tables of one compare-period table."""
    marks = [_marker(c) for c in table.columns]
    halves = _halves(marks)
    if halves is not None:
        cut = halves
        first = _project(table, list(range(cut)), [" ".join(m[1]) for m in marks[:cut]])
        second = _project(table, list(range(cut, len(marks))), [" ".join(m[1]) for m in marks[cut:]])
        return first, second, None
    shared: list[int] = []
    groups: list[dict] = []  # {"words": [...], "1st": idx, "2nd": idx, "diff": idx}
    for k, (kind, words) in enumerate(marks):
        if kind is None:
            if groups and not groups[-1].get("closed"):
                groups[-1]["closed"] = True
            shared.append(k)
            continue
        if kind == "1st" or not groups or groups[-1].get("closed") or kind in groups[-1]:
            groups.append({"words": []})
        g = groups[-1]
        g[kind] = k
        g["words"].extend(words)
        if kind == "diff":
            g["closed"] = True
    labels = [_LABEL_ALIASES.get(squash(lab), lab) for lab in (_label(g) for g in groups)]
    first = _project(table, shared + [g.get("1st", -1) for g in groups],
                     [table.columns[k] for k in shared] + labels)
    second = _project(table, shared + [g.get("2nd", -1) for g in groups],
                      [table.columns[k] for k in shared] + labels)
    diffs = [(g["diff"], lab) for g, lab in zip(groups, labels) if "diff" in g]
    diff = None
    if diffs:
        kind_of = {k: ("%Diff" if any(w.lower().rstrip(":") == "%diff" for w in table.columns[k].split()) else "Diff")
                   for k, _ in diffs}
        diff = _project(table, shared + [k for k, _ in diffs],
                        [table.columns[k] for k in shared] + [f"{lab} {kind_of[k]}" for k, lab in diffs])
    return first, second, diff


def _label(group: dict) -> str:
    """HTML repeats the figure name in every column of the group: keep it once."""
    words = group["words"]
    n = len(words)
    for size in range(1, n // 2 + 1):
        if n % size == 0 and words == words[:size] * (n // size):
            return " ".join(words[:size])
    return " ".join(words)


def _halves(marks: list[tuple[str | None, list[str]]]) -> int | None:
    """Index where the second period's half starts, when the table prints two lists."""
    if len(marks) < 4 or len(marks) % 2:
        return None
    cut = len(marks) // 2
    a, b = marks[0], marks[cut]
    if a[1] and a[1] == b[1] and a[0] != "diff" and (a[0], b[0]) in (("1st", "2nd"), (None, None)):
        return cut
    return None


def _project(table: RawTable, idx: list[int], names: list[str]) -> RawTable:
    rows = [(line, [cells[k] if 0 <= k < len(cells) else "" for k in idx]) for line, cells in table.rows]
    return RawTable(names, [], table.header_line, rows, [(ln, "  ".join(c)) for ln, c in rows])


def period_headers(tables: list[RawTable], issues: list[ParseIssue]) -> list[Header]:
    """The two periods' headers from the DB table ('First (1st)' / 'Second (2nd)'
    rows) and the snapshot table ('1st' / '2nd' rows)."""
    per_period: list[list[RawTable]] = [[], []]
    for t in tables:
        cols = list(t.columns)
        snap = any("begin snap id" in " ".join(c.lower().split()) for c in cols)
        for line, cells in t.rows:
            tag = cells[0].strip().lower() if cells else ""
            which = 0 if (tag.startswith("first") or tag == "1st") else 1 if (
                tag.startswith("second") or tag == "2nd") else None
            if which is None:
                continue
            if snap:
                per_period[which].extend(_snapshot_tables(cols, cells, line))
            else:  # the 'First (1st)' cell would pass for a DB name
                per_period[which].append(RawTable([_db_column(c) for c in cols], [], t.header_line,
                                                  [(line, [""] + list(cells[1:]))]))
    headers = [parse_header_tables(p, p[0].header_line if p else 1, issues) for p in per_period]
    titled = next((t for t in tables if t.columns and t.columns[0] == _TITLE_NAMES and "DB Name" in t.columns), None)
    if titled is not None and any(h.db_name for h in headers):
        issues.append(ParseIssue("info", "header", titled.header_line,
                                 "the header table prints no DB name: it is read from the section titles ('DB/Inst:')"))
    return headers


def _db_column(col: str) -> str:
    c = " ".join(col.lower().split())
    return {"snapshot set": "", "cluster": "rac"}.get(c, col)


def _snapshot_tables(cols: list[str], cells: list[str], line: int) -> list[RawTable]:
    """Begin/End on one row to the single-instance shape: Begin Snap: / End Snap:
    rows plus Elapsed: and DB Time: rows."""
    d = {" ".join(c.lower().split()): v for c, v in zip(cols, cells)}
    snap = RawTable(["", "Snap Id", "Snap Time"], [], line, [
        (line, ["Begin Snap:", d.get("begin snap id", ""), _strip_day(d.get("begin snap time", ""))]),
        (line, ["End Snap:", d.get("end snap id", ""), _strip_day(d.get("end snap time", ""))]),
    ])
    times = RawTable(["", "value"], [], line, [
        (line, ["Elapsed:", f"{d.get('elapsed time (min)', '')} (mins)"]),
        (line, ["DB Time:", f"{d.get('db time (min)', '')} (mins)"]),
    ])
    return [snap, times]


def _strip_day(value: str) -> str:
    """'23-Apr-14 18:30:05 (Wed)' -> '23-Apr-14 18:30:05' (localised day names too)."""
    v = value.strip()
    if v.endswith(")") and "(" in v:
        v = v[: v.rfind("(")].strip()
    return v


def text_header_tables(text: str) -> list[RawTable]:
    """The text report's two header tables. They are read from the raw lines
    because the splitter takes the '2nd' snapshot row (above a tilde
    underline) for a section title. The names the DB table does not print come
    from the section titles (:func:`_title_names`)."""
    lines = []
    for line in text[:20000].splitlines()[:60]:
        if "Configuration Comparison" in line or line.strip().startswith("~~~") or "%Diff:" in line:
            if lines and "Configuration Comparison" in line:
                break
            lines.append("")
            continue
        lines.append(line)
    tables = read_block(lines, 1).tables
    names = _title_names(text, tables)
    return tables + ([names] if names is not None else [])


#: First column of the table :func:`_title_names` builds (the periods' names read from the section titles)
_TITLE_NAMES = "DB/Inst:"
_PERIOD_DB_INST = {which: patterns.compile(rf"\b{which}\s+DB/Inst:\s*([^/\s]+)/(\S+)") for which in ("First", "Second")}


def _title_names(text: str, tables: list[RawTable]) -> RawTable | None:
    """The DB and instance names the text header table does not print, from the section titles'
    'First DB/Inst: CDB1/CDB1 Snaps: 91-92 ..., Second DB/Inst: CDB1/CDB1 Snaps: 88-89 ...': 19c prints
    neither a DB Name nor an Instance column ('Snapshot Set  DB Id  Unique Name ...'), 10g/11g no DB
    Name. A table of the header's shape (a 'First'/'Second' row each) so that the same fillers read it."""
    printed = {" ".join(c.lower().split()) for t in tables for c in t.columns}
    missing = [(col, k) for col, k in (("DB Name", 1), ("Instance", 2)) if col.lower() not in printed]
    if not missing:
        return None
    rows = []
    for which, pattern in _PERIOD_DB_INST.items():
        m = pattern.search(text)
        if m is not None:
            rows.append((text.count("\n", 0, m.start()) + 1, [which] + [m.group(k) for _, k in missing]))
    if not rows:
        return None
    return RawTable([_TITLE_NAMES] + [col for col, _ in missing], [], rows[0][0], rows)


_PERIOD_TIMES = {which: patterns.compile(rf"\b{which}\s+DB/Inst:[^(\n]*\(Elapsed time:\s*([\d.,]+)\s*sec\s+DB time:\s*([\d.,]+)\s*sec", re.I)
                 for which in ("First", "Second")}


def title_times(text: str) -> list[tuple[float, float] | None]:
    """Each period's (elapsed, DB time) in seconds as the text sections' titles print them ('First DB/Inst: ...
    (Elapsed time: 901.55 sec  DB time: 6404.55 sec)'), finer than the header's minutes to one decimal."""
    out: list[tuple[float, float] | None] = []
    for pattern in _PERIOD_TIMES.values():
        m = pattern.search(text, 0, 200_000)  # the first titles follow the header closely
        out.append((float(m.group(1).replace(",", "")), float(m.group(2).replace(",", ""))) if m else None)
    return out


#: Sections read whole into ``Report.diff``: a row holds both periods of one statement.
WHOLE = frozenset({"sql_comparison_elapsed"})


def build_periods(blocks: list[Block], headers: list[Header], template: Report,
                  map_blocks) -> tuple[list[Report], dict[str, Section]]:
    """Two period Reports mapped by the registry, and the %Diff sections."""
    period_blocks: list[list[Block]] = [[], []]
    diff_blocks: list[Block] = []
    whole: dict[str, Section] = {}
    for b in blocks:
        firsts, seconds, diffs = [], [], []
        title = _period_title(b.title)
        spec = lookup(title)
        if spec is not None and spec.key in WHOLE:  # both periods in one row per statement: kept whole
            sec = spec.mapper(b, spec.key, [])
            if sec is not None and spec.key not in whole:
                whole[spec.key] = sec
            continue
        # a title no mapper reads: its tables are never looked at, do not cut them
        for t in (b.tables if spec is not None else ()):
            f, s, d = split_table(t)
            firsts.append(f)
            seconds.append(s)
            if d is not None:
                diffs.append(d)
        period_blocks[0].append(Block(title, b.line, b.notes, firsts, [], b.first_line, b.format))
        period_blocks[1].append(Block(title, b.line, b.notes, seconds, [], b.first_line, b.format))
        if diffs:
            diff_blocks.append(Block(title, b.line, b.notes, diffs, [], b.first_line, b.format))
    periods = []
    for k in range(2):
        issues: list[ParseIssue] = []
        sections = map_blocks(period_blocks[k], issues)
        periods.append(Report(kind="awr", format=template.format, version=headers[k].version or template.version,
                              header=headers[k], sections=sections, issues=issues))
    diff: dict[str, Section] = dict(whole)
    for b in diff_blocks:
        spec = lookup(b.title)
        if spec is None or spec.key in diff:
            continue
        sec = generic_table(b, spec.key, [])
        if sec is not None:
            diff[spec.key] = sec
    return periods, diff


def _period_title(title: str) -> str:
    """Text titles carry the 'First'/'Second' legend on their line ('Wait Events   First')."""
    words = title.split()
    while words and words[-1].lower() in ("first", "second", "1st", "2nd"):
        words.pop()
    return " ".join(words)
