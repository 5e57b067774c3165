"""The report header: database, instance, host, snapshots, elapsed and DB time.

Header layouts differ by generation (spec A.1); they are all small tables with
a dashed (or, in Statspack 10g+, tilde) underline, plus ``Elapsed:`` and
``DB Time:`` lines. Columns are found by their header text.
"""
from __future__ import annotations

import re

from ...model import Header, Instance, ParseIssue, Snapshot
from ..numbers import parse_number
from .text.tables import read_block
from ..timefmt import parse_time
from ... import patterns

_ELAPSED = patterns.compile(r"^\s*Elapsed:\s*([\d,.]+)\s*\(mins?\)", re.I)
_DBTIME = patterns.compile(r"DB\s*time:\s*([\d,.]+)\s*\(mins?\)", re.I)
_HOSTLINE = patterns.compile(r"Host\s+Name:\s*(\S+)(?:\s+Num CPUs:\s*(\d+))?(?:.*?Phys Memory \(MB\):\s*([\d,]+))?", re.I)
#: The database row of an AWR 10g-12.1 text header, by its tokens: an instance or DB name wider than its
#: column shifts every later cell, so the column cut reads '16:49 11.2.0.3.0' as the release
_DB_ROW = patterns.compile(r"^\s*(?P<db>\S+)\s+(?P<dbid>\d+)\s+(?P<inst>\S+)\s+(?P<num>\d+)\s+"
                           r"(?P<startup>\d{1,2}-[A-Za-z]{3}-\d{2}\s+\d{1,2}:\d{2})\s+(?P<rel>\d+(?:\.\d+){2,5})\s+"
                           r"(?P<rac>YES|NO)\b(?:\s+(?P<cdb>YES|NO)\b)?\s*$", re.I)
_VERSION = patterns.compile(r"^\d+(?:\.\d+){2,5}$")
_SUFFIX_DB = patterns.compile(r"(?:DB/Inst:\s*([^/\s]+)/(\S+)|for DB:\s*(\S+)\s+Instance:\s*(\S+))")


def parse_header(lines: list[str], first_line: int, issues: list[ParseIssue]) -> Header:
    h = Header(line=first_line)
    # Statspack 10g/11g print 'Host  Name: x  Num CPUs: n  Phys Memory (MB): m' on a
    # line of its own, after a blank line but still below the Database table
    # (tables continue across blank lines): read it only with _HOSTLINE below,
    # or its words become the DB name and release of the first table.
    cleaned = ["" if _HOSTLINE.search(ln) else ln.replace("~", " ") for ln in lines]
    block = read_block(cleaned, first_line)
    inst = Instance(None)
    for table in block.tables:
        cols = [" ".join(c.lower().split()) for c in table.columns]
        if _is_host_wrap(lines, table.header_line - first_line):
            cols = ["", "host", "platform", "cpus", "cores", "sockets", "memory (g)"][: len(cols)]
        elif cols[:2] == ["host", "name"]:
            # Statspack 11g 'Host Name' over '~~~~ ------': 'Host' sits over the
            # tilde label column, the names are printed under the 'Name' dashes.
            cols = ["", "host"] + cols[2:]
        for line, cells in table.rows:
            label = cells[0].strip().lower().rstrip(":") if cells else ""
            if _take_snapshot(h, label, cols, cells, line):
                continue
            row_cols, row_cells = _by_tokens(cols, cells)
            if not _is_database_row(row_cols, row_cells):
                continue
            inst = _fill(h, inst, row_cols, row_cells, line)
    if inst.name or inst.number is not None:
        h.instances = [inst]
    for j, line in enumerate(lines):
        m = _ELAPSED.search(line)
        if m and h.elapsed_min is None:
            h.elapsed_min, h.elapsed_line = parse_number(m.group(1)).value, first_line + j
        m = _DBTIME.search(line)
        if m and h.db_time_min is None:
            h.db_time_min, h.db_time_line = parse_number(m.group(1)).value, first_line + j
        m = _HOSTLINE.search(line)
        if m and h.host is None:
            h.host = m.group(1)
            if m.group(2):
                h.cpus, h.host_line = int(m.group(2)), first_line + j
            if m.group(3):
                h.memory_gb = round(parse_number(m.group(3)).value / 1024, 2)
    if h.instances and h.instances[0].host is None and h.host:
        # the host line comes after the instance table (Statspack 10g/11g)
        i0 = h.instances[0]
        h.instances[0] = Instance(i0.name, i0.number, h.host, i0.startup_time)
    return _one_container(h)


def _is_database_row(cols: list[str], cells: list[str]) -> bool:
    """Whether a row under the database table's header is one: its DB Id is a number. Free text a SQL*Plus error
    printed under the table (Statspack 9.2 'PLS-00103: Encountered the symbol ...' lines) ran into the table and
    made the release 'su', the instance 'min prior sql' and the host 'following:'."""
    if "db id" not in cols:
        return True
    k = cols.index("db id")
    return k < len(cells) and parse_number(cells[k]).value is not None


def _is_host_wrap(lines: list[str], idx: int) -> bool:
    """Statspack 12c wraps its host header over the two lines right above the underline at ``idx``:
    'Host  Name  Platform  CPUs' / 'Cores Sockets Memory (G)' / '~~~~ ----'. The one-line header of AWR
    12.2+ and Statspack 11g ('Host Name  Platform  CPUs Cores Sockets Memory(GB)') is not wrapped, even
    when blank lines come before it (a PDB report's Container table, a spool's blanked 'OUTPUT' lines)."""
    if idx < 2:
        return False
    head, tail = lines[idx - 2].strip(), lines[idx - 1].strip()
    return head.startswith("Host") and "Platform" in head and tail.startswith("Cores Sockets")


def _take_snapshot(h: Header, label: str, cols: list[str], cells: list[str], line: int) -> bool:
    """A 'Begin Snap:' / 'End Snap:' row goes to the header's begin/end snapshot."""
    if label not in ("begin snap", "end snap"):
        return False
    snap = _snapshot(cols, cells, line)
    if h.cdb is None and "cdb" in cols and cols.index("cdb") < len(cells) and cells[cols.index("cdb")].strip():
        h.cdb = cells[cols.index("cdb")].strip().upper().startswith("Y")  # 12.1 prints CDB beside the snapshots
    if label == "begin snap":
        h.begin = snap
    else:
        h.end = snap
    return True


def _snapshot(cols: list[str], cells: list[str], line: int) -> Snapshot:
    snap_id = time = sessions = curs = None
    for c, v in zip(cols, cells):
        v = v.strip()
        if not v:
            continue
        if c == "snap id":
            n = parse_number(v).value
            snap_id = int(n) if n is not None else None
        elif c == "snap time":
            time = parse_time(v)
        elif c == "sessions":
            sessions = parse_number(v).value
        elif c.startswith("curs"):
            curs = parse_number(v).value
    return Snapshot(snap_id, time, sessions, curs, line)


def _by_tokens(cols: list[str], cells: list[str]) -> tuple[list[str], list[str]]:
    """The database row read by its tokens when the column cut went wrong (a name wider than its column moved
    the release off its dashes); any other row, or a row the cut read right, as cut."""
    if "release" not in cols or "db id" not in cols:
        return cols, cells
    k = cols.index("release")
    if k < len(cells) and _VERSION.match(cells[k].strip()):
        return cols, cells
    m = _DB_ROW.match(" ".join(cells))
    if m is None:
        return cols, cells
    pairs = [("db name", m["db"]), ("db id", m["dbid"]), ("instance", m["inst"]), ("inst num", m["num"]),
             ("startup time", m["startup"]), ("release", m["rel"]), ("rac", m["rac"])]
    if m["cdb"]:
        pairs.append(("cdb", m["cdb"]))
    return [c for c, _ in pairs], [v for _, v in pairs]


def _fill(h: Header, inst: Instance, cols: list[str], cells: list[str], line: int | None) -> Instance:
    name, number, startup = inst.name, inst.number, inst.startup_time
    for k, (c, v) in enumerate(zip(cols, cells)):
        v = v.strip()
        if not v:
            continue
        if c in ("db name", "database") or (k == 0 and c == "" and "db id" in cols):
            h.db_name = h.db_name or v
        elif c == "db id":
            n = parse_number(v).value
            h.dbid = int(n) if n is not None else h.dbid
        elif c == "instance":
            name = v
        elif c in ("inst num", "inst number"):
            n = parse_number(v).value
            number = int(n) if n is not None else None
        elif c == "startup time":
            startup = parse_time(v)
        elif c == "release":
            h.version = v
        elif c in ("rac", "ops", "cluster"):
            h.rac = v.upper().startswith("Y")
        elif c == "cdb":
            h.cdb = v.upper().startswith("Y")
        elif c in ("host", "host name"):
            h.host = v
        elif c == "platform":
            h.platform = v
        elif c == "cpus":
            h.cpus, h.host_line = _int(v), line
        elif c == "cores":
            h.cores, h.host_line = _int(v), line
        elif c == "sockets":
            h.sockets = _int(v)
        elif c.startswith("memory"):
            h.memory_gb = parse_number(v).value
        elif c == "unique name":
            h.unique_name = v
        elif c in ("db role", "role"):  # 12.2+ HTML header: 'Role'
            h.role = v
        elif c == "edition":
            h.edition = v
        elif c.startswith("container name"):
            # a PDB report names its container; a whole CDB's report lists them all (CDB$ROOT, PDB$SEED, ...)
            h.container = v if h.container in (None, v) else _SEVERAL
    return Instance(name, number, h.host, startup)


#: Header.container while several containers are listed: the report is the whole CDB's, of no one container
_SEVERAL = "\x00several"


def _one_container(h: Header) -> Header:
    if h.container == _SEVERAL:
        h.container = None
    return h


def _int(v: str) -> int | None:
    n = parse_number(v).value
    return int(n) if n is not None else None


def db_from_titles(titles: list[str]) -> tuple[str | None, str | None]:
    """DB and instance names from section title suffixes (Statspack 10g+ leaves
    the header's Database column blank)."""
    for t in titles:
        m = _SUFFIX_DB.search(t)
        if m:
            return (m.group(1) or m.group(3)), (m.group(2) or m.group(4))
    return None, None


_MINUTES = patterns.compile(r"([\d.,]+)\s*\(mins?\)", re.I)


def parse_header_tables(tables: list, first_line: int, issues: list[ParseIssue]) -> Header:
    """The header from HTML tables (DB, host, snapshot tables): same column
    names as the text header, so the same fillers apply."""
    h = Header(line=first_line)
    inst = Instance(None)
    for table in tables:
        cols = [" ".join(c.lower().split()) for c in table.columns]
        for line, cells in table.rows:
            label = cells[0].strip().lower().rstrip(":") if cells else ""
            if _take_snapshot(h, label, cols, cells, line):
                continue
            if label in ("elapsed", "db time"):
                minutes = _minutes_in(cells[1:])
                if label == "elapsed" and h.elapsed_min is None:
                    h.elapsed_min, h.elapsed_line = minutes, line
                elif label == "db time" and h.db_time_min is None:
                    h.db_time_min, h.db_time_line = minutes, line
                continue
            inst = _fill(h, inst, cols, cells, line)
    if inst.name or inst.number is not None:
        h.instances = [inst]
    return _one_container(h)


def _minutes_in(cells: list[str]) -> float | None:
    for c in cells:
        m = _MINUTES.search(c)
        if m:
            return parse_number(m.group(1)).value
    return None
