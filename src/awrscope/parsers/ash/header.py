"""The header of an ASH report: database and instance, CPUs, the analysis period and the
average active sessions.

Both formats print the same two small tables (``DB Name | DB Id | Instance | Inst Num |
Release | RAC | Host`` and ``CPUs | SGA Size | ...``) and the same labelled lines
(``Analysis Begin Time:``, ``Elapsed Time:``, ``Average Active Sessions:`` ...); the front
ends hand them over as (columns, cells, line) and (label, value, line), read here once.
An ASH report analyses a time range, not a pair of snapshots: begin and end are
:class:`Snapshot`\\s without id."""
from __future__ import annotations

import re
from msgspec import Struct

from ...model import Header, Instance, Snapshot
from ..numbers import parse_number
from ..timefmt import parse_time
from ... import patterns

_TITLE = patterns.compile(r"ASH Report For\s+([^/\s]+)/(\S+)", re.I)
_MINUTES = patterns.compile(r"([\d.,]+)\s*\(mins?\)", re.I)


class AshHeader(Struct):
    header: Header
    aas: float | None = None  # Average Active Sessions as printed
    aas_line: int | None = None
    samples: float | None = None  # Sample Count


def build_header(tables: list[tuple[list[str], list[str], int]], pairs: list[tuple[str, str, int]],
                 title_line: tuple[int, str] | None) -> AshHeader:
    h = Header(line=title_line[0] if title_line else (tables[0][2] if tables else None))
    out = AshHeader(h)
    inst_name = inst_num = None
    for columns, cells, line in tables:
        for col, value in zip(columns, cells):
            inst_name, inst_num = _fill(h, " ".join(col.lower().split()), value.strip(), inst_name, inst_num, line)
    for label, value, line in pairs:
        _take_pair(out, " ".join(label.lower().split()), value, line)
    if title_line:
        m = _TITLE.search(title_line[1])
        if m:
            h.db_name = h.db_name or m.group(1)
            inst_name = inst_name or m.group(2)
    if inst_name or inst_num is not None:
        h.instances = [Instance(inst_name, inst_num, h.host)]
    return out


def _fill(h: Header, col: str, v: str, inst_name, inst_num, line: int):
    """One header table cell into the header; returns the instance name and number so far."""
    if not v:
        return inst_name, inst_num
    if col in ("db name", "database"):
        h.db_name = h.db_name or v
    elif col == "db id":
        h.dbid = _int(v) if _int(v) is not None else h.dbid
    elif col == "instance":
        inst_name = inst_name or v
    elif col in ("inst num", "inst number"):
        inst_num = _int(v) if inst_num is None else inst_num
    elif col == "release":
        h.version = h.version or v
    elif col == "rac":
        h.rac = v.upper().startswith("Y")
    elif col in ("host", "host name"):
        h.host = h.host or v
    elif col == "cpus":
        h.cpus, h.host_line = _int(v), line
    elif col in ("platform",):
        h.platform = v
    return inst_name, inst_num


def _take_pair(out: AshHeader, label: str, value: str, line: int) -> None:
    h = out.header
    if label == "analysis begin time":
        h.begin = Snapshot(None, parse_time(value), line=line)
    elif label == "analysis end time":
        h.end = Snapshot(None, parse_time(value), line=line)
    elif label == "elapsed time":
        m = _MINUTES.search(value)
        n = parse_number(m.group(1)).value if m else parse_number(value.split()[0] if value.split() else "").value
        if n is not None and h.elapsed_min is None:
            h.elapsed_min, h.elapsed_line = n, line
    elif label == "average active sessions":
        out.aas, out.aas_line = parse_number(value.split()[0] if value.split() else "").value, line
    elif label == "sample count":
        out.samples = parse_number(value.split()[0] if value.split() else "").value


def text_pairs(lines: list[tuple[int, str]]) -> list[tuple[str, str, int]]:
    """The ``Label:   value`` lines of a text header."""
    out = []
    for ln, raw in lines:
        m = _PAIR.match(raw)
        if m:
            out.append((m.group(1), m.group(2), ln))
    return out


_PAIR = patterns.compile(r"^\s*([A-Za-z][A-Za-z .#/()-]{2,40}?):\s+(\S.*?)\s*$")


def title_of(lines: list[tuple[int, str]]) -> tuple[int, str] | None:
    return next(((ln, raw) for ln, raw in lines if _TITLE.search(raw)), None)


def _int(v: str) -> int | None:
    n = parse_number(v).value
    return int(n) if n is not None and n == int(n) else None
