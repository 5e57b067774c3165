"""The typed report model: what every parser produces and every later layer reads.

A report is a header plus named sections. Each section is a table of rows; a
row has a label (event, statistic, tablespace, ...), its source line and its
fields. Field units are declared once per section (``Section.units``) using
the vocabulary of :data:`UNITS`, so no number travels without its unit.
"""
from __future__ import annotations

from bisect import bisect_left

from msgspec import Struct, field
from msgspec.structs import force_setattr
from datetime import datetime
from typing import Iterable, Iterator, Mapping

from . import patterns

SCHEMA_VERSION = "1.0"

#: Units used in ``Section.units``.
UNITS = {
    "s": "seconds",
    "ms": "milliseconds",
    "us": "microseconds",
    "cs": "centiseconds (V$SYSSTAT time statistics are printed in cs)",
    "count": "a count of events or requests",
    "B": "bytes",
    "KB": "kibibytes",
    "MB": "mebibytes",
    "GB": "gibibytes",
    "blocks": "database blocks",
    "%": "percent",
    "1/s": "per second",
    "1/txn": "per transaction",
    "ratio": "dimensionless ratio",
    "sessions": "average active sessions",
    "text": "text",
    "stat": "unit of the statistic itself (see its name)",
}


class ParseIssue(Struct, frozen=True, gc=False):
    level: str  # "error" | "warning" | "info"
    section: str | None
    line: int | None
    message: str

    def as_dict(self) -> dict:
        return {"level": self.level, "section": self.section, "line": self.line, "message": self.message}


class Row(Struct, frozen=True, gc=False):
    """One row of a section. ``values`` holds numbers (None when the cell was
    blank, N/A or overflowed), ``text`` holds the non-numeric fields."""

    name: str | None
    line: int
    values: Mapping[str, float | None]
    text: Mapping[str, str] = field(default_factory=dict)

    def get(self, key: str) -> float | None:
        return self.values.get(key)

    def as_dict(self) -> dict:
        d: dict = {"name": self.name, "line": self.line}
        d.update(self.text)
        d.update(self.values)
        return d


class Section(Struct, frozen=True):
    key: str
    title: str
    line: int
    units: Mapping[str, str]
    rows: tuple[Row, ...]
    notes: tuple[str, ...] = ()
    # Lookup by normalised row name (first row wins), built when a row is first looked up by name: most
    # sections are only ever iterated, and the index cost a tenth of the parse.
    index: Mapping[str, Row] | None = None
    # The index's normalised names in order, built at the first name not found whole: a cut name's rows are the
    # run of names it begins (a bisect, not a walk over every name at each miss: a fifth of the analysis' time).
    sorted_names: list[str] | None = None

    def row(self, name: str) -> Row | None:
        """The row with this name; a name cut short as the text report prints it
        (``control file sequential re``) finds the row when exactly one matches."""
        index = self.index
        if index is None:
            index = {}
            for r in self.rows:
                if r.name:
                    index.setdefault(normalise_name(r.name), r)
                    index.setdefault("=" + " ".join(r.name.split()), r)
            force_setattr(self, "index", index)  # frozen: a cache, not a change of the section
        found = index.get("=" + " ".join(name.split()))  # exact case first: 'DML lock allocation' vs 'dml lock allocation'
        if found is not None:
            return found
        key = normalise_name(name)
        found = index.get(key)
        if found is None and len(key) >= 10:
            names = self.sorted_names
            if names is None:
                names = sorted(k for k in index if not k.startswith("="))
                force_setattr(self, "sorted_names", names)
            at = bisect_left(names, key)
            if at < len(names) and names[at].startswith(key) and \
                    not (at + 1 < len(names) and names[at + 1].startswith(key)):
                found = index[names[at]]
        return found

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def as_dict(self) -> dict:
        return {
            "title": self.title,
            "line": self.line,
            "units": dict(self.units),
            "notes": list(self.notes),
            "rows": [r.as_dict() for r in self.rows],
        }


def make_section(key: str, title: str, line: int, units: Mapping[str, str], rows: Iterable[Row],
                 notes: Iterable[str] = ()) -> Section:
    return Section(key, title, line, dict(units), tuple(rows), tuple(notes))


def normalise_name(name: str) -> str:
    """Lower case, single spaces, no trailing colon: the lookup key of a row name."""
    return " ".join(name.lower().split()).rstrip(":").strip()


class Snapshot(Struct, frozen=True):
    snap_id: int | None
    time: datetime | None
    sessions: float | None = None
    cursors_per_session: float | None = None
    line: int | None = None

    def as_dict(self) -> dict:
        return {
            "snap_id": self.snap_id,
            "time": self.time.isoformat(sep=" ") if self.time else None,
            "sessions": self.sessions,
            "cursors_per_session": self.cursors_per_session,
        }


class Instance(Struct, frozen=True):
    name: str | None
    number: int | None = None
    host: str | None = None
    startup_time: datetime | None = None

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "number": self.number,
            "host": self.host,
            "startup_time": self.startup_time.isoformat(sep=" ") if self.startup_time else None,
        }


class Header(Struct):
    db_name: str | None = None
    dbid: int | None = None
    unique_name: str | None = None
    role: str | None = None
    edition: str | None = None
    version: str | None = None
    rac: bool | None = None
    cdb: bool | None = None
    container: str | None = None
    instances: list[Instance] = field(default_factory=list)
    host: str | None = None
    platform: str | None = None
    cpus: int | None = None
    cores: int | None = None
    sockets: int | None = None
    memory_gb: float | None = None
    begin: Snapshot | None = None
    end: Snapshot | None = None
    elapsed_min: float | None = None  # as printed in the header
    db_time_min: float | None = None  # as printed in the header
    elapsed_line: int | None = None  # where Elapsed and DB Time are printed (the header's first line if unknown)
    db_time_line: int | None = None
    host_line: int | None = None  # where CPUs and Cores are printed
    line: int | None = None


#: The SQL section's note of the DB time its shares are of
_TOTAL_DB_TIME = patterns.compile(r"Total DB Time \(s\):\s*([\d,]+(?:\.\d+)?)\s*$")


class Report(Struct):
    """A parsed report (one period). Compare-period reports hold two of these in ``periods``."""

    kind: str  # awr | statspack | awr_global | awr_diff | addm | ash
    format: str  # text | html
    version: str | None
    header: Header
    sections: dict[str, Section]
    issues: list[ParseIssue]
    elapsed_s: float | None = None
    db_time_s: float | None = None
    generation: str | None = None  # e.g. "sp8i", "awr11.2.0.4"
    periods: list["Report"] = field(default_factory=list)
    diff: dict[str, Section] = field(default_factory=dict)
    source_path: str | None = None
    source_sha256: str | None = None
    source_bytes: int | None = None

    # -- convenience accessors used by metrics and rules -------------------
    def section(self, key: str) -> Section | None:
        return self.sections.get(key)

    def printed_total_db_time(self) -> tuple[float, str, int] | None:
        """(seconds, section, its line) of the first 'Total DB Time (s): N' note of a SQL ordered by ... section:
        the DB time the report's SQL shares are of ('-> Total DB Time (s): 9,653'; HTML: 'Captured SQL account
        for 99.9% of Total DB Time (s): 38,493')."""
        for key, sec in self.sections.items():
            if key.startswith("sql_by_"):
                for note in sec.notes:
                    m = _TOTAL_DB_TIME.search(note)
                    if m:
                        return float(m.group(1).replace(",", "")), key, sec.line
        return None

    def stat(self, name: str) -> Row | None:
        """An Instance Activity statistic row (fields total, per_second, per_transaction)."""
        sec = self.sections.get("instance_activity")
        return sec.row(name) if sec else None

    def stat_total(self, name: str) -> float | None:
        r = self.stat(name)
        return r.values.get("total") if r else None

    def event(self, name: str, scope: str = "fg") -> Row | None:
        """A wait event row. scope: 'fg' (foreground), 'bg' (background), 'all' (system-wide)."""
        key = {"fg": "wait_events_fg", "bg": "wait_events_bg", "all": "wait_events"}[scope]
        sec = self.sections.get(key)
        return sec.row(name) if sec else None

    @property
    def instance_names(self) -> list[str]:
        return [i.name for i in self.header.instances if i.name]

    def warn(self, message: str, section: str | None = None, line: int | None = None) -> None:
        self.issues.append(ParseIssue("warning", section, line, message))
