"""Building blocks shared by the section mappers: column matching by header
text, unit conversion, and key/value lines (``Label:  value  value``)."""
from __future__ import annotations

from msgspec import Struct
from typing import Callable, Iterable

from ....model import ParseIssue, Row, Section, make_section
from ...numbers import _MEMO as _NUMBER_MEMO, OVERFLOW, _compiled, parse_number
from ..raw import Block, RawTable
from .... import patterns

# Conversion factors between time units, to the field's unit.
_TO_SECONDS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "cs": 1e-2, "min": 60.0}


class Col(Struct, frozen=True):
    """How one field is found in a table: a regex on the header with all
    whitespace removed and lower-cased (``Avg wait (ms)`` -> ``avgwait(ms)``)."""

    field: str
    pattern: str
    unit: str = "count"
    kind: str = "num"  # num | text | name
    binary: bool = False  # 1024-based K/M/G suffixes (IOStat "Data" columns)


def squash(header: str) -> str:
    return "".join(header.lower().split())


def header_time_unit(header: str) -> str | None:
    h = squash(header)
    if "(cs)" in h or h.endswith("cs"):
        return "cs"
    if "(ms)" in h or h.endswith("ms)") or "ms/" in h:
        return "ms"
    if "(us)" in h:
        return "us"
    if "(s)" in h or "(sec)" in h or "(secs)" in h:
        return "s"
    if "(min" in h:
        return "min"
    return None


def match_columns(table: RawTable, cols: Iterable[Col]) -> list[tuple[int, Col, str | None]]:
    """Pair table columns with field specs: [(column index, spec, header time unit)].

    Memoised on (column names, specs): the same header meets the same specs in
    every report of a version, and some mappers match once per row. The result
    is shared: callers read it, never change it."""
    key = (tuple(table.columns), tuple(cols))
    out = _MATCHED.get(key)
    if out is None:
        if len(_MATCHED) > 4096:
            _MATCHED.clear()
        out = _MATCHED[key] = _match_columns(key[0], key[1])
    return out


_MATCHED: dict[tuple, list[tuple[int, Col, str | None]]] = {}


def _match_columns(columns: tuple[str, ...], specs: tuple[Col, ...]) -> list[tuple[int, Col, str | None]]:
    used: set[str] = set()
    out: list[tuple[int, Col, str | None]] = []
    compiled = [(c, patterns.compile(c.pattern)) for c in specs]
    for idx, name in enumerate(columns):
        h = squash(name)
        for c, rx in compiled:
            if c.field in used:
                continue
            if (c.kind == "name" and idx == 0 and (not h or rx.search(h))) or (h and rx.search(h)):
                out.append((idx, c, header_time_unit(name)))
                used.add(c.field)
                break
    return out


def cell_value(cell: str, col: Col, hunit: str | None, issues: list[ParseIssue] | None = None,
               section: str | None = None, line: int | None = None) -> float | None:
    c = cell.strip()
    if col.unit == "MB" and c[-1:] in ("K", "M", "G", "T", "P"):
        # IOStat data cells: '4G', '811M', '.9M' are 1024-based sizes whose
        # field is in MB (bare numbers such as '4.53108' are already MB)
        n = parse_number(c, binary=True)
        return n.value / 1024.0**2 if n.value is not None else None
    n = parse_number(cell, binary=col.binary)
    if n.value is None:
        if n.flag == OVERFLOW and issues is not None:
            issues.append(ParseIssue("warning", section, line,
                                     f"{col.field}: value overflowed its column ({cell.strip()}); treated as unknown"))
        return None
    v = n.value
    if col.unit in _TO_SECONDS:
        if n.unit:  # the cell printed its own unit; the value is in seconds
            return v / _TO_SECONDS[col.unit]
        if hunit and hunit != col.unit and hunit in _TO_SECONDS:
            return v * _TO_SECONDS[hunit] / _TO_SECONDS[col.unit]
    return v


def table_rows(block: Block, table: RawTable, cols: list[Col], key: str, issues: list[ParseIssue],
               name_fix: Callable[[str, int | None], str] | None = None) -> list[Row]:
    plan = _plan(match_columns(table, cols))
    cut_at = name_cut_width(block, table, next((idx for idx, _, _, how, _, _ in plan if how == 2), None)) if name_fix else None

    def overflowed(col: Col, line: int, cell: str) -> None:
        if issues is not None:
            issues.append(ParseIssue("warning", key, line, f"{col.field}: value overflowed its column "
                                                           f"({cell.strip()}); treated as unknown"))

    def converted(cell: str, col: Col, hunit: str | None, line: int) -> float | None:
        return cell_value(cell, col, hunit, issues, key, line)

    if _compiled is not None:
        return _compiled.read_rows(table.rows, plan, Row, overflowed, converted, name_fix, cut_at)
    return _read_rows(table.rows, plan, Row, overflowed, converted, name_fix, cut_at)


def _read_rows(table_rows: list[tuple[int, list[str]]], plan: list[tuple[int, Col, str | None, int, float | None, float | None]],
               row_type: type,
               overflowed: Callable[[Col, int, str], None], converted: Callable[[str, Col, str | None, int], float | None],
               name_fix: Callable[[str, int | None], str] | None, cut_at: int | None) -> list[Row]:
    """The row loop of :func:`table_rows`: each (line, cells) by the plan to a Row; a row with no name, no text
    and no value is left out. The compiled twin (parsers/_values.c, read_rows) runs where it was built."""
    rows: list[Row] = []
    memo = _NUMBER_MEMO
    for line, cells in table_rows:
        name = None
        values: dict[str, float | None] = {}
        text: dict[str, str] = {}
        ncells = len(cells)
        for idx, col, hunit, how, own, header in plan:
            if idx >= ncells:
                continue
            cell = cells[idx]
            if how == 0:  # a number: cell_value without its branches
                n = memo.get(cell)
                if n is None:
                    n = parse_number(cell)
                v = n.value
                if v is None:
                    if n.flag == OVERFLOW:
                        overflowed(col, line, cell)
                elif own is not None:
                    if n.unit:  # the cell printed its own unit: the value is in seconds
                        v = v / own
                    elif header is not None:
                        v = v * header / own
                values[col.field] = v
            elif how == 1:
                values[col.field] = converted(cell, col, hunit, line)
            elif how == 2:
                name = cell.strip().rstrip(":").strip() or None
            elif cell.strip():
                text[col.field] = cell.strip()
        if name is None and not text and not any(v is not None for v in values.values()):
            continue
        if name and name_fix:
            name = name_fix(name, cut_at)
        rows.append(row_type(name, line, values, text))
    return rows


# Text reports cut names to their column (26 to 33 characters by version and section); a table
# whose column spans are unknown is taken to cut no shorter than the narrowest of those.
NARROWEST_NAME_COLUMN = 26


def name_cut_width(block: Block, table: RawTable, name_idx: int | None) -> int | None:
    """The length at which a printed name may have been cut by the report's layout, or None
    where names are printed whole (HTML). A name shorter than this is complete and is never
    expanded to a longer name (``cursor: pin S`` is not ``cursor: pin S wait on X``). One
    character of slack: a cut at a space loses the space when the cell is stripped."""
    if block.format == "html":
        return None
    if name_idx is not None and table.spans and name_idx < len(table.spans):
        a, b = table.spans[name_idx]
        return max(b - a - 1, 1)
    return NARROWEST_NAME_COLUMN - 1


def _plan(matched: list[tuple[int, Col, str | None]]) -> list[tuple[int, Col, str | None, int, float | None, float | None]]:
    """How each matched column is read: (index, Col, header unit, how, own, header) with how 0 a number (decimal
    suffixes), 1 through :func:`cell_value` (sizes), 2 the row name, 3 text. A time field (``own``: its unit in
    seconds) divides a value printed with its own unit (already in seconds) by ``own``, and multiplies one in
    the header's unit by ``header`` (that unit in seconds, when it differs) before dividing: cell_value's
    arithmetic, in its order."""
    plan = _PLANS.get(id(matched))
    if plan is not None and plan[0] is matched:
        return plan[1]
    out = []
    for idx, col, hunit in matched:
        own = header = None
        if col.kind == "name":
            how = 2
        elif col.kind == "text":
            how = 3
        elif col.unit == "MB" or col.binary:
            how = 1
        else:
            how = 0
            if col.unit in _TO_SECONDS:
                own = _TO_SECONDS[col.unit]
                if hunit and hunit != col.unit and hunit in _TO_SECONDS:
                    header = _TO_SECONDS[hunit]
        out.append((idx, col, hunit, how, own, header))
    if len(_PLANS) > 4096:
        _PLANS.clear()
    _PLANS[id(matched)] = (matched, out)
    return out


_PLANS: dict[int, tuple[list, list]] = {}


def units_of(cols: Iterable[Col]) -> dict[str, str]:
    return {c.field: ("text" if c.kind in ("text", "name") else c.unit) for c in cols}


def simple_table_section(block: Block, key: str, cols: list[Col], issues: list[ParseIssue],
                         name_fix: Callable[[str, int | None], str] | None = None, min_matched: int = 2) -> Section | None:
    """The common case: every table of the block holds rows of these fields."""
    rows: list[Row] = []
    for table in block.tables:
        if len(match_columns(table, cols)) < min_matched:
            continue
        rows.extend(table_rows(block, table, cols, key, issues, name_fix))
    if not rows:
        return None
    return make_section(key, block.title, block.line, units_of(cols), rows, block.notes)


# -- key/value lines -------------------------------------------------------

_LABEL_SPLIT = patterns.compile(r":(?=\s|$)")


def kv_pairs(line: str) -> list[tuple[str, list[str]]]:
    """``Buffer Nowait %:  100.00   Redo NoWait %:  100.00`` ->
    [("Buffer Nowait %", ["100.00"]), ("Redo NoWait %", ["100.00"])]."""
    parts = _LABEL_SPLIT.split(line)
    if len(parts) < 2:
        return []
    out: list[tuple[str, list[str]]] = []
    label = parts[0].strip()
    for k in range(1, len(parts)):
        tokens = parts[k].split()
        vals: list[str] = []
        j = 0
        while j < len(tokens) and _is_value_token(tokens[j]):
            vals.append(tokens[j])
            j += 1
        if label:
            out.append((label, vals))
        label = " ".join(tokens[j:])
    return out


def _is_value_token(tok: str) -> bool:
    n = parse_number(tok)
    return n.value is not None or n.flag is not None and n.flag != "bad" and n.flag != "empty"


def kv_section(block: Block, key: str, fields: list[str], unit: str = "stat",
               issues: list[ParseIssue] | None = None) -> Section | None:
    """Rows from ``Label: v1 v2`` lines; values go to ``fields`` in order."""
    rows: list[Row] = []
    for j, line in enumerate(block.lines):
        if line.lstrip().startswith("->"):
            continue
        for label, vals in kv_pairs(line):
            if not vals:
                continue
            values = {f: parse_number(v).value for f, v in zip(fields, vals)}
            rows.append(Row(label, block.first_line + j, values))
    if not rows:
        return None
    return make_section(key, block.title, block.line, {f: unit for f in fields}, rows, block.notes)


def table_or_kv(block: Block, key: str, fields: list[str], unit: str, issues: list[ParseIssue]) -> Section | None:
    """Summary-page blocks: a table whose first column is the label when the
    front end found one (HTML, text with column underline), else label lines."""
    rows: list[Row] = []
    for table in block.tables:
        for line, cells in table.rows:
            for label, vals in label_runs(cells):
                nums = [parse_number(c).value for c in vals]
                rows.append(Row(label, line, dict(zip(fields, nums))))
    if rows:
        return make_section(key, block.title, block.line, {f: unit for f in fields}, rows, block.notes)
    return kv_section(block, key, fields, unit, issues)


def label_runs(cells: list[str]) -> list[tuple[str, list[str]]]:
    """A table row cut at its label cells: ``[label, v1, v2]`` is one run and
    HTML's two-pairs-per-row ``[Buffer Nowait %:, 100.00, Redo NoWait %:, 99.97]``
    two. Values stay positional (an empty cell keeps its column)."""
    runs: list[tuple[str, list[str]]] = []
    for k, cell in enumerate(cells):
        c = cell.strip()
        if k == 0 or (c and not _is_value_token(c) and c.endswith(":")):
            label = c.rstrip(":").strip()
            runs.append((label, []))
        elif runs:
            runs[-1][1].append(cell)
    return [(label, vals) for label, vals in runs if label]
