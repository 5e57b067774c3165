"""The ASH sections awrscope reads, one format-neutral mapper each: records to typed rows.

``top_events`` is the ASH *Top User Events* list in the shape of an AWR Top-N list
(``pct_db_time``, ``wait_class``), so the metrics and rules written for AWR run on an ASH
report as they do on a Top-N list. The parser keeps only printed figures: an event's seconds
(its share of the DB time estimated from AAS x elapsed) are derived by the metrics, since ASH
samples activity, it does not time it. *CPU + Wait for CPU* keeps its name: it is CPU to the analysis.
"""
from __future__ import annotations

import re
from msgspec import Struct, field
from typing import Callable

from ...model import ParseIssue, Row, Section, make_section
from ...oracle.events import canonical_event
from ..numbers import parse_number
from .records import Record, Starts, Table, cell
from ... import patterns

_SQL_ID = patterns.compile(r"^[0-9a-z]{13}$")
_HASH_VALUE = patterns.compile(r"^\d{5,}$")  # 10g reports name statements by hash value
_SID = patterns.compile(r"^\d+\s*,\s*\d+")
_SLOT = patterns.compile(r"^\d{1,2}:\d{2}")
_DURATION = patterns.compile(r"\(\s*(-?[\d.,]+)\s*(min|sec|s|hr|h)\w*\s*\)", re.I)  # 19c: "(-1,837 secs)"
_DURATION_S = {"min": 60.0, "sec": 1.0, "s": 1.0, "hr": 3600.0, "h": 3600.0}

# column name patterns (names squashed: lower case, no white space)
EVENT = r"^event$"
PCT_EVENT = r"^%event$"
PCT_ACTIVITY = r"^%activity$"
AAS = r"^avgactive(sessions)?$"
SQL_ID = r"^sqlid$|^hashvalue$|^sqlhash"


class Context(Struct):
    """What a mapper needs beyond its table: the estimated DB time, the sample count, the
    full SQL texts of the HTML *Complete List of SQL Text*, and the report's issues."""

    db_time_s: float | None
    samples: float | None
    issues: list[ParseIssue]
    sql_texts: dict[str, str] = field(default_factory=dict)
    derived: dict[str, Section] = field(default_factory=dict)  # further sections a mapper read from its table


Mapper = Callable[[Table, str, Context], "Section | None"]


class Spec(Struct, frozen=True):
    key: str
    pattern: re.Pattern  # on the title, lower case, single spaced
    starts: Starts
    mapper: Mapper
    free_text: bool = False  # text reports print free text (SQL text) under each record


def _num(text: str) -> float | None:
    return parse_number(text).value if text else None


# -- record starts --------------------------------------------------------------------------


def _starts_event(cells: dict[str, str]) -> tuple | None:
    name = cell(cells, EVENT)
    pct = cell(cells, PCT_ACTIVITY) or cell(cells, PCT_EVENT)
    return (name,) if name and _num(pct) is not None else None


def _starts_sql(cells: dict[str, str]) -> tuple | None:
    """A statement's record: by SQL id, plan hash and container (a CDB report prints one statement once per
    PDB, one after the other, each with its own share of activity; its further events repeat all three hidden)."""
    ident = cell(cells, SQL_ID)
    ok = _SQL_ID.match(ident) or _HASH_VALUE.match(ident)
    if not ok or _num(cell(cells, PCT_ACTIVITY)) is None:
        return None
    return ident, cell(cells, r"^planhash$"), cell(cells, r"^containername$")


def _starts_session(cells: dict[str, str]) -> tuple | None:
    sid = " ".join(cell(cells, r"^sid,serial#$|^sid,serial").split())
    return (sid,) if _SID.match(sid) and _num(cell(cells, PCT_ACTIVITY)) is not None else None


def _starts_module(cells: dict[str, str]) -> tuple | None:
    module = cell(cells, r"^module$")
    if not module or _num(cell(cells, PCT_ACTIVITY)) is None:
        return None
    return cell(cells, r"^service$"), module


def _starts_blocker(cells: dict[str, str]) -> tuple | None:
    sid = " ".join(cell(cells, r"^blockingsid").split())
    return (sid,) if _SID.match(sid) and _num(cell(cells, PCT_ACTIVITY)) is not None else None


def _starts_object(cells: dict[str, str]) -> tuple | None:
    ident = cell(cells, r"^objectid$")
    return (ident,) if ident.isdigit() and _num(cell(cells, PCT_ACTIVITY)) is not None else None


def _starts_slot(cells: dict[str, str]) -> tuple | None:
    slot = " ".join(cell(cells, r"^slottime").split())
    # the hidden repeat of an HTML continuation row prints the count without separators
    return (slot, _num(cell(cells, r"^slotcount$"))) if _SLOT.match(slot) else None


# -- mappers --------------------------------------------------------------------------------


def _shares(r: Record) -> dict[str, float | None]:
    """A record's share of all activity, and of its event where printed."""
    values: dict[str, float | None] = {"pct_activity": _num(r.get(PCT_ACTIVITY))}
    pct_event = _num(r.get(PCT_EVENT))
    if pct_event is not None:
        values["pct_event"] = pct_event
    return values


def _texts(r: Record, fields: tuple[tuple[str, str], ...], squash: bool = False) -> dict[str, str]:
    """The record's printed text fields (field, column pattern), the blank ones left out; ``squash``: white space
    runs made one space (a program name wrapped in its column)."""
    out = {}
    for f, pattern in fields:
        v = r.get(pattern)
        if v:
            out[f] = " ".join(v.split()) if squash else v
    return out


def map_events(table: Table, key: str, ctx: Context) -> Section | None:
    """Top User (or Background) Events: % Activity (10.2) or % Event (11g+) of all sampled
    activity, average active sessions, event class."""
    cut = table.width(EVENT)
    rows = []
    for r in table.records:
        name = canonical_event(r.get(EVENT), cut - 1 if cut else None)
        pct = _num(r.get(PCT_ACTIVITY) or r.get(PCT_EVENT))
        values: dict[str, float | None] = {"pct_db_time": pct}
        aas = _num(r.get(AAS))
        if aas is not None:
            values["aas"] = aas
        text = {"wait_class": r.get(r"^eventclass$|^waitclass$")} if r.get(r"^eventclass$|^waitclass$") else {}
        rows.append(Row(name, r.line, values, text))
    units = {"pct_db_time": "%", "aas": "sessions", "wait_class": "text"}
    return _section(key, table, units, rows)


def map_top_sql(table: Table, key: str, ctx: Context) -> Section | None:
    """Top SQL with Top Events (11g+) or Top SQL Statements (10.2): the statement's share of
    activity, its top event and that event's share, sampled executions, and its text."""
    rows = []
    for r in table.records:
        ident = r.get(SQL_ID)
        values: dict[str, float | None] = {"pct_activity": _num(r.get(PCT_ACTIVITY))}
        for field_, pattern in (("pct_event", PCT_EVENT), ("executions", r"executions$")):
            v = _num(r.get(pattern))
            if v is not None:
                values[field_] = v
        text = {"sql_id": ident}
        for field_, pattern in (("event", EVENT), ("module", r"^module$"), ("plan_hash", r"^planhash$"),
                                ("top_row_source", r"^toprowsource$")):
            v = r.get(pattern)
            if v and v.upper() != "N/A":
                text[field_] = v
        sql_text = ctx.sql_texts.get(ident) or _joined(r.text) or r.get(r"^sqltext$")
        if sql_text:
            text["sql_text"] = sql_text[:1000]
        rows.append(Row(ident, r.line, values, text))
        # the statement's further events, each on a row of its own (HTML: its key cells repeated hidden; text: after
        # a blank line, in the event level's layout): a row per event, with the event's share and no share of
        # activity, which the statement's first row holds once
        for line, cells in r.more:
            event, pct_event = cell(cells, EVENT), _num(cell(cells, PCT_EVENT))
            if not event or pct_event is None:
                continue
            more = {k: v for k, v in text.items() if k in ("sql_id", "plan_hash", "module", "sql_text")}
            more["event"] = event
            source = cell(cells, r"^toprowsource$")
            if source and source.upper() != "N/A":
                more["top_row_source"] = source
            rows.append(Row(ident, line, {"pct_event": pct_event}, more))
    units = {"pct_activity": "%", "pct_event": "%", "executions": "count", "sql_id": "text", "sql_text": "text",
             "event": "text", "module": "text", "plan_hash": "text", "top_row_source": "text"}
    return _section(key, table, units, rows)


def map_sessions(table: Table, key: str, ctx: Context) -> Section | None:
    """Top Sessions: 'sid, serial#' as printed, user, program, the session's top event."""
    rows = []
    for r in table.records:
        sid = " ".join(r.get(r"^sid,serial").split())
        text = _texts(r, (("user", r"^user$"), ("program", r"^program$"), ("event", EVENT)))
        rows.append(Row(sid, r.line, _shares(r), text))
    units = {"pct_activity": "%", "pct_event": "%", "user": "text", "program": "text", "event": "text"}
    return _section(key, table, units, rows)


def map_blockers(table: Table, key: str, ctx: Context) -> Section | None:
    """Top Blocking Sessions: a blocking session ('sid, serial# (inst)' as printed), the share of activity it
    caused and of the event it caused, its user and program, and in how many samples it was itself active."""
    rows = []
    for r in table.records:
        sid = " ".join(r.get(r"^blockingsid").split())
        text = _texts(r, (("event", r"^eventcaused$"), ("user", r"^user$"), ("program", r"^program$"),
                          ("samples_active", r"^#samplesactive$")), squash=True)
        rows.append(Row(sid, r.line, _shares(r), text))
    units = {"pct_activity": "%", "pct_event": "%", "event": "text", "user": "text", "program": "text",
             "samples_active": "text"}
    return _section(key, table, units, rows)


def map_objects(table: Table, key: str, ctx: Context) -> Section | None:
    """Top DB Objects: an object's share of the activity on Application, Cluster, User I/O and buffer busy
    waits, its top event and that event's share, its name ('SOE.INVENTORIES (TABLE)') and tablespace."""
    rows = []
    for r in table.records:
        text = _texts(r, (("object_id", r"^objectid$"), ("event", EVENT), ("tablespace", r"^tablespace$")))
        rows.append(Row(r.get(r"^objectname") or r.get(r"^objectid$"), r.line, _shares(r), text))
    units = {"pct_activity": "%", "pct_event": "%", "object_id": "text", "event": "text", "tablespace": "text"}
    return _section(key, table, units, rows)


def map_modules(table: Table, key: str, ctx: Context) -> Section | None:
    """Top Service/Module: a module's share of activity and its top action. A text report
    prints the service once for the modules under it: a blank service is the one above."""
    rows = []
    service = ""
    for r in table.records:
        service = r.get(r"^service$") or service
        values: dict[str, float | None] = {"pct_activity": _num(r.get(PCT_ACTIVITY))}
        pct_action = _num(r.get(r"^%action$"))
        if pct_action is not None:
            values["pct_action"] = pct_action
        text = {"service": service} if service else {}
        if r.get(r"^action$"):
            text["action"] = r.get(r"^action$")
        rows.append(Row(r.get(r"^module$"), r.line, values, text))
    units = {"pct_activity": "%", "pct_action": "%", "service": "text", "action": "text"}
    return _section(key, table, units, rows)


def map_activity(table: Table, key: str, ctx: Context) -> Section | None:
    """Activity Over Time: one row per time slot, named by its start time as printed, with
    its sample count, its top event (and the events after it) and the top event's count and
    share of all samples. The slot's share of all samples (Slot Count over the header's Sample
    Count) is not stored: the parser keeps printed figures only, a reader divides the two counts.
    Each slot's events (up to three, one per line) also go to ``ash_activity_events``, named by event,
    with their count and the slot's start time."""
    rows: list[Row] = []
    event_rows: list[Row] = []
    for r in table.records:
        slot = " ".join(r.get(r"^slottime").split())
        slot_count = _num(r.get(r"^slotcount$"))
        values: dict[str, float | None] = {"slot_count": slot_count,
                                           "event_count": _num(r.get(r"^eventcount$")),
                                           "pct_event": _num(r.get(PCT_EVENT))}
        m = _DURATION.search(slot)
        if m and _num(m.group(1)) is not None:
            values["duration_s"] = _num(m.group(1)) * _DURATION_S[m.group(2).lower()]
        events = [r.get(EVENT)] + [cell(c, EVENT) for _, c in r.more]
        events = [e for e in events if e]
        text = {"slot": slot}
        if events:
            text["event"] = events[0]
            text["events"] = "; ".join(events)
        rows.append(Row(slot.split()[0], r.line, values, text))
        # every event of the slot on its own line, in a section of its own: each figure keeps the line it is on
        for line, cells in [(r.line, None), *r.more]:
            name = r.get(EVENT) if cells is None else cell(cells, EVENT)
            count = r.get(r"^eventcount$") if cells is None else cell(cells, r"^eventcount$")
            if name:
                event_rows.append(Row(name, line, {"event_count": _num(count)}, {"slot": slot.split()[0]}))
    units = {"slot_count": "count", "event_count": "count", "pct_event": "%", "duration_s": "s", "slot": "text",
             "event": "text", "events": "text"}
    sec = _section(key, table, units, rows)
    if event_rows:
        ctx.derived["ash_activity_events"] = _section("ash_activity_events", table,
                                                      {"event_count": "count", "slot": "text"}, event_rows)
    return sec


def _section(key: str, table: Table, units: dict[str, str], rows: list[Row]) -> Section | None:
    if not rows:
        return None
    used = {k for r in rows for k in list(r.values) + list(r.text)}
    return make_section(key, table.title, table.line, {k: u for k, u in units.items() if k in used}, rows,
                        table.notes)


def _joined(lines: list[str]) -> str:
    """SQL text wrapped at the report's width (80): a line as wide, or one short of it (the
    statement's own pieces are 79 wide at times), goes on in the next line with no space
    between; a shorter line ended a word."""
    if not lines:
        return ""
    width = max(len(line) for line in lines)
    out = []
    for k, line in enumerate(lines):
        out.append(line)
        if k < len(lines) - 1 and len(line) < width - 1:
            out.append(" ")
    return " ".join("".join(out).split()) if len(lines) > 1 else lines[0].strip()


SPECS: tuple[Spec, ...] = (
    Spec("top_events", patterns.compile(r"^top user events$"), _starts_event, map_events),
    Spec("ash_top_bg_events", patterns.compile(r"^top background events$"), _starts_event, map_events),
    Spec("ash_top_sql", patterns.compile(r"^top sql with top events$|^top sql statements$"), _starts_sql, map_top_sql,
         free_text=True),
    Spec("ash_top_sessions", patterns.compile(r"^top sessions$"), _starts_session, map_sessions),
    Spec("ash_top_modules", patterns.compile(r"^top service/module$"), _starts_module, map_modules),
    Spec("ash_activity_over_time", patterns.compile(r"^activity over time$"), _starts_slot, map_activity),
    Spec("ash_top_objects", patterns.compile(r"^top db objects$"), _starts_object, map_objects),
    Spec("ash_top_blockers", patterns.compile(r"^top blocking sessions$"), _starts_blocker, map_blockers),
)


def lookup(title: str) -> Spec | None:
    t = " ".join(title.lower().split())
    return next((s for s in SPECS if s.pattern.search(t)), None)


def sql_texts(rows: list[tuple[int, dict[str, str]]]) -> dict[str, str]:
    """The HTML *Complete List of SQL Text*: SQL id -> full text (the top SQL table cuts it)."""
    out = {}
    for _, cells in rows:
        ident = cell(cells, r"^sqlid$")
        text = cell(cells, r"^sqltext$")
        if _SQL_ID.match(ident) and text:
            out[ident] = text
    return out


__all__ = ["SPECS", "Context", "Record", "lookup", "sql_texts"]
