"""Stream an extended SQL trace (event 10046, levels 1-12; Oracle 7 to 23ai) into trace statistics.

One pass, line by line, in bounded memory: nothing of the trace is kept but statistics per wait event,
per call kind and per statement (statement texts cut at ``MAX_TEXT`` characters, at most
``MAX_STATEMENTS`` statements). The response-time model is Method R's:

* the wall clock R runs from the start of the first timed line (its ``tim`` minus its duration) to the
  last ``tim``;
* database calls (PARSE, EXEC, FETCH, CLOSE) count at ``dep=0`` only: a parent call's ``c`` and ``e``
  already include those of its recursive (``dep>0``) children;
* a WAIT line is written when the wait ends, before the line of the call it belongs to: a wait is
  *inside* the next ``dep=0`` call when it ended after that call began (``tim >= call tim - e``), else it
  was waited *between* calls (SQL*Net message from client, mostly);
* unaccounted-for time = R - (CPU of dep=0 calls + every wait);
* a ``SQL*Net message from client`` wait between calls is a client gap: a *round trip* when it lies
  between an EXEC or FETCH and a FETCH of the same cursor (one fetch loop) and is shorter than
  ``ROUND_TRIP_MAX_US``, else *think time* (ledger.py turns these into the session's ledger).
"""
from __future__ import annotations

import gzip
import io
import sys
from msgspec import Struct, field
from typing import IO

from .model import (CALL_KINDS, CLIENT_WAIT, ROUND_TRIP_MAX_US, CallStats, EventStats, Statement, TraceIssue,
                    TraceSession)
from .. import patterns

MAX_TEXT = 4000          # characters of a statement's text kept
MAX_STATEMENTS = 20_000  # distinct statements tracked; later ones are summed in one "(other statements)"
MAX_PENDING = 200_000    # waits held while the next dep=0 call is awaited; older ones are counted between calls
SNIFF_LINES = 20_000     # lines without any trace record before a file is declared not a trace
MAX_ISSUES = 50

_RELEASE = patterns.compile(r"Release (\d+)\.(\d+)[\d.]*|Version (\d+)\.(\d+)[\d.]*")
_SESSION = patterns.compile(r"^\*\*\* (SESSION ID|MODULE NAME|ACTION NAME|SERVICE NAME|CLIENT ID):\((.*?)\)")
_TIMESTAMP = patterns.compile(r"^\*\*\* (\d{4}-\d\d-\d\d[ T][\d:.]+)")
_PID = patterns.compile(r"(?:Unix process pid|Windows thread id): (\d+)|\[ Unix process pid: (\d+) \]")


class NotATraceError(ValueError):
    """The input holds no extended SQL trace record: one line saying why."""


class TraceStats(Struct):
    """What one pass over a trace leaves: the session, the statistics, the issues met."""

    name: str
    session: TraceSession = field(default_factory=TraceSession)
    events: dict[str, EventStats] = field(default_factory=dict)
    calls: dict[str, CallStats] = field(default_factory=dict)           # dep=0 calls by kind
    recursive_calls: dict[str, CallStats] = field(default_factory=dict)  # dep>0 calls by kind
    orphan_calls: dict[str, CallStats] = field(default_factory=dict)  # dep>0 calls outside any dep=0 call
    statements: dict[str, Statement] = field(default_factory=dict)
    commits: int = 0            # XCTEND rlbk=0, rd_only=0: a commit that wrote redo
    rollbacks: int = 0          # XCTEND rlbk=1
    readonly_ends: int = 0      # XCTEND rd_only=1
    xctend_lines: list[int] = field(default_factory=list)  # first few, for evidence
    lines: int = 0
    bytes: int = 0
    records: int = 0
    time_factor: int = 1        # 1: µs; 10000: centiseconds converted
    time_unit_basis: str = "assumed microseconds (10g and later)"
    t_start: float | None = None
    t_end: float | None = None
    first_tim_line: int = 0
    last_tim_line: int = 0
    between_us: float = 0.0
    inside_us: float = 0.0
    backwards: int = 0
    first_backwards_line: int = 0
    # the client gaps (SQL*Net message from client between calls), split as the ledger needs them
    round_trip: EventStats = field(default_factory=lambda: EventStats("round trips"))
    think: EventStats = field(default_factory=lambda: EventStats("think time"))
    round_trip_max_us: float = ROUND_TRIP_MAX_US
    issues: list[TraceIssue] = field(default_factory=list)
    truncated: bool = False

    def issue(self, line: int, severity: str, message: str) -> None:
        if len(self.issues) < MAX_ISSUES:
            self.issues.append(TraceIssue(line, severity, message))

    @property
    def wall_us(self) -> float:
        if self.t_start is None or self.t_end is None:
            return 0.0
        return max(0.0, self.t_end - self.t_start)


def open_trace(path: str) -> tuple[IO[bytes], str]:
    """A binary stream of the trace (``-``: stdin; ``.gz`` decompressed on the fly) and its name."""
    if path == "-":
        return sys.stdin.buffer, "<stdin>"
    fh = open(path, "rb")  # noqa: SIM115 - closed by the caller
    head = fh.read(2)
    fh.seek(0)
    if head == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=fh), path  # type: ignore[return-value]
    return fh, path


def read_trace(path: str, time_unit: str | None = None, round_trip_max_us: float = ROUND_TRIP_MAX_US) -> TraceStats:
    """Read one trace file: its statistics; NotATraceError (one line) when it is none; OSError as raised."""
    fh, name = open_trace(path)
    try:
        return read_stream(fh, name, time_unit, round_trip_max_us)
    finally:
        if fh is not sys.stdin.buffer:
            fh.close()


def read_text(text: str, name: str = "<text>", time_unit: str | None = None,
              round_trip_max_us: float = ROUND_TRIP_MAX_US) -> TraceStats:
    return read_stream(io.BytesIO(text.encode("utf-8")), name, time_unit, round_trip_max_us)


def _fields(body: str) -> dict:
    """'c=0,e=24,p=0,...,tim=173' -> {'c': 0, 'e': 24, ...}; values that are not integers are skipped."""
    out = {}
    for part in body.split(","):
        k, _, v = part.partition("=")
        try:
            out[k.strip()] = int(v)
        except ValueError:
            try:
                out[k.strip()] = float(v)
            except ValueError:
                pass
    return out


class _Reader:
    """The state of one pass; ``feed`` takes one decoded line."""

    def __init__(self, name: str, time_unit: str | None, round_trip_max_us: float = ROUND_TRIP_MAX_US):
        self.st = TraceStats(name)
        self.st.round_trip_max_us = round_trip_max_us
        self.forced_unit = time_unit
        if time_unit == "cs":
            self.st.time_factor, self.st.time_unit_basis = 10_000, "centiseconds (--time-unit cs)"
        elif time_unit == "us":
            self.st.time_unit_basis = "microseconds (--time-unit us)"
        self.cursors: dict[str, str] = {}  # cursor number -> statement key
        self.pending: list[tuple[float, float, str, str, int]] = []  # (tim, µs, event, stmt key, line)
        self.pending_calls: list[tuple] = []  # dep>0 calls awaiting their dep=0 parent: (tim, c, e, dep, kind, f, n)
        self.prev_call: tuple[str, str] | None = None  # (kind, cursor) of the last dep=0 call; None after XCTEND
        self.in_text: Statement | None = None
        self.text_parts: list[str] = []
        self.text_len = 0
        self.text_line = 0
        self.last_tim: float | None = None
        self.header_done = False
        self.malformed = 0
        self.other_key = "(other statements)"

    # -- time -------------------------------------------------------------------------------------------
    def _mark(self, tim: float | None, dur: float, line: int) -> None:
        if tim is None:
            return
        st = self.st
        start = tim - dur
        if st.t_start is None or start < st.t_start:
            if st.t_start is None:
                st.first_tim_line = line
            st.t_start = start
        if st.t_end is None or tim >= st.t_end:
            st.t_end, st.last_tim_line = tim, line
        if self.last_tim is not None and tim < self.last_tim - 1000:  # 1 ms of tolerance for clock jitter
            st.backwards += 1
            if st.backwards == 1:
                st.first_backwards_line = line
        self.last_tim = tim

    # -- statements -----------------------------------------------------------------------------------
    def _statement_for(self, cursor: str, dep: int) -> Statement:
        key = self.cursors.get(cursor)
        sts = self.st.statements
        if key is None:
            key = f"cursor #{cursor}"
            self.cursors[cursor] = key
        s = sts.get(key)
        if s is None:
            if len(sts) >= MAX_STATEMENTS:
                key = self.other_key
                s = sts.get(key)
                if s is None:
                    s = sts[key] = Statement(key, None, None, "(statements past the first %d)" % MAX_STATEMENTS,
                                             None, dep, None, 0)
                return s
            s = sts[key] = Statement(key, None, None, "(text not in the trace: parsed before tracing began)",
                                     None, dep, None, 0)
        return s

    def _parsing(self, line: str, n: int) -> None:
        # PARSING IN CURSOR #140 len=35 dep=0 uid=64 oct=3 lid=64 tim=1059 hv=978141032 ad='7000' sqlid='83bh9d0x4ugv8'
        head, _, rest = line[19:].partition(" ")
        cursor = head.lstrip("#")
        f = {}
        for part in rest.split():
            k, _, v = part.partition("=")
            f[k] = v.strip("'")
        sql_id = f.get("sqlid") or None
        hv = f.get("hv") or None
        key = f"sqlid {sql_id}" if sql_id else (f"hv {hv}" if hv and hv != "0" else f"cursor #{cursor} line {n}")
        dep = _int(f.get("dep"), 0)
        sts = self.st.statements
        s = sts.get(key)
        if s is None and len(sts) >= MAX_STATEMENTS:
            if self.other_key not in sts:
                self.st.issue(n, "warning", f"more than {MAX_STATEMENTS} distinct statements: the later ones are "
                                            "summed up as '(other statements)'")
            key = self.other_key
            s = sts.get(key)
            if s is None:
                s = sts[key] = Statement(key, None, None, f"(statements past the first {MAX_STATEMENTS})",
                                         None, dep, None, n)
        elif s is None:
            s = sts[key] = Statement(key, sql_id, hv, "", _int(f.get("oct"), None), dep, _int(f.get("uid"), None), n)
            self.in_text, self.text_parts, self.text_len, self.text_line = s, [], 0, n
        self.cursors[cursor] = key
        tim = _num(f.get("tim"))
        if tim is not None:
            self._mark(tim * self.st.time_factor, 0.0, n)

    # -- records --------------------------------------------------------------------------------------
    def _call(self, kind: str, line: str, n: int) -> None:
        # EXEC #140:c=0,e=24,p=0,cr=0,cu=0,mis=0,r=0,dep=0,og=1,plh=1388734953,tim=1734873496566
        hash_at = line.find("#")
        sep = line.find(":", hash_at)
        if hash_at < 0:
            self.malformed += 1
            return
        if sep < 0 or "=" in line[hash_at:sep]:  # "EXEC #123 c=..." (no colon) is seen in a few ports
            sep = line.find(" ", hash_at)
        if sep < 0:
            self.malformed += 1
            return
        cursor = line[hash_at + 1:sep]
        f = _fields(line[sep + 1:])
        if "e" not in f and "c" not in f:
            self.malformed += 1
            return
        k = self.st.time_factor
        c, e = f.get("c", 0) * k, f.get("e", 0) * k
        dep = f.get("dep", 0)
        tim = f.get("tim")
        s = self._statement_for(cursor, dep)
        s.call(kind).add(c, e, f, n)
        if dep == 0:
            calls = self.st.calls
            cs = calls.get(kind)
            if cs is None:
                cs = calls[kind] = CallStats(kind)
            cs.add(c, e, f, n)
            self._settle(None if tim is None else tim * k - e, n, (kind, cursor))
            self.prev_call = (kind, cursor)
        else:
            rc = self.st.recursive_calls
            cs = rc.get(kind)
            if cs is None:
                cs = rc[kind] = CallStats(kind)
            cs.add(c, e, f, n)
            if tim is not None:
                self.pending_calls.append((tim * k, c, e, dep, kind, f, n))
                if len(self.pending_calls) > MAX_PENDING:
                    self._orphans(float("inf"))
        if tim is not None:
            self._mark(tim * k, e, n)

    def _orphans(self, call_start: float | None) -> None:
        """Recursive calls that ended before the dep=0 call beginning at ``call_start`` (or before the end of
        the trace) have no dep=0 parent in the trace: their CPU is counted on its own, once per tree (the
        deepest calls inside a shallower orphan are already in its c)."""
        if call_start is None:
            self.pending_calls.clear()
            return
        accepted: list[tuple[float, float, int]] = []
        oc = self.st.orphan_calls
        for tim, c, e, dep, kind, f, n in reversed(self.pending_calls):
            if tim >= call_start:
                continue
            if any(d < dep and s0 <= tim <= t1 for s0, t1, d in accepted[-8:]):
                continue
            accepted.append((tim - e, tim, dep))
            cs = oc.get(kind)
            if cs is None:
                cs = oc[kind] = CallStats(kind)
            cs.add(c, e, f, n)
        self.pending_calls.clear()

    def _settle(self, call_start: float | None, n: int, nxt: tuple[str, str] | None = None) -> None:
        """A dep=0 call (``nxt``: kind, cursor) began at ``call_start``: the pending waits that ended after it
        are inside it; the client gaps before it are round trips or think time."""
        st = self.st
        if self.pending_calls:
            self._orphans(call_start)
        for tim, us, event, key, line in self.pending:
            if call_start == float("inf"):
                inside = False
            elif tim is not None and call_start is not None:
                inside = tim - us / 2 > call_start  # the middle of the wait lies inside the call
            else:  # no tim (9i WAIT lines, calls without tim): only SQL*Net message from ... is between calls
                inside = not event.startswith("SQL*Net message from")
            s = st.statements.get(key)
            if s is not None:
                s.add_wait(event, us, line, inside)
            if inside:
                st.inside_us += us
            else:
                st.between_us += us
                st.events[event].between_us += us
                if event == CLIENT_WAIT:
                    self._client_gap(us, line, nxt)
        self.pending.clear()

    def _client_gap(self, us: float, line: int, nxt: tuple[str, str] | None) -> None:
        """A client gap is a round trip when it sits inside one cursor's fetch loop (EXEC or FETCH, then
        FETCH, on the same cursor: the client is draining a result set) and is short; anything else (a
        gap before another statement, across a transaction's end, at the trace's end, or a long pause in
        the loop) is think time: the application or its user doing something other than calling."""
        st, prev = self.st, self.prev_call
        in_loop = (prev is not None and nxt is not None and nxt[0] == "FETCH" and prev[0] in ("EXEC", "FETCH")
                   and prev[1] == nxt[1])
        if not (in_loop and us < st.round_trip_max_us):
            st.think.add(us, line)
            return
        st.round_trip.add(us, line)
        s = self._statement_for(nxt[1], 0)
        s.round_trips += 1
        s.round_trip_us += us
        if not s.round_trip_line:
            s.round_trip_line = line

    def _wait(self, line: str, n: int) -> None:
        # WAIT #140: nam='db file sequential read' ela= 1403 file#=420 block#=17125 blocks=1 obj#=3 tim=1330623405569521
        a = line.find("nam='")
        b = line.find("' ela=", a + 5)
        if a < 0 or b < 0:
            self.malformed += 1
            return
        event = line[a + 5:b]
        i = b + 6
        j = line.find(" ", i + 1) if line[i:i + 1] == " " else line.find(" ", i)
        try:
            ela = float(line[i:j] if j > 0 else line[i:])
        except ValueError:
            self.malformed += 1
            return
        k = self.st.time_factor
        us = ela * k
        t = line.rfind(" tim=")
        tim = _num(line[t + 5:].strip()) if t > 0 else None
        if tim is not None:
            tim *= k
        cursor = line[6:line.find(":", 6)] if line.find(":", 6) > 0 else "?"
        ev = self.st.events.get(event)
        if ev is None:
            ev = self.st.events[event] = EventStats(event)
        ev.add(us, n)
        key = self.cursors.get(cursor)
        if key is None:
            key = f"cursor #{cursor}"
            if cursor != "0":
                self._statement_for(cursor, 0)
        self.pending.append((tim, us, event, key, n))
        if len(self.pending) > MAX_PENDING:
            self._settle(float("inf"), n)  # a very long call or no call at all: count them between calls
        if tim is not None:
            self._mark(tim, us, n)

    def _xctend(self, line: str, n: int) -> None:
        # XCTEND rlbk=0, rd_only=0, tim=1419870619435523
        f = _fields(line[7:].replace(" ", ""))
        st = self.st
        self.prev_call = None  # a transaction ended: the next client gap is not inside a fetch loop
        if f.get("rlbk", 0):
            st.rollbacks += 1
        elif f.get("rd_only", 0):
            st.readonly_ends += 1
        else:
            st.commits += 1
            if len(st.xctend_lines) < 10:
                st.xctend_lines.append(n)
        if "tim" in f:
            self._mark(f["tim"] * st.time_factor, 0.0, n)

    def _star(self, line: str, n: int) -> None:
        ses = self.st.session
        m = _SESSION.match(line)
        if m:
            kind, value = m.group(1), m.group(2)
            target = {"SESSION ID": ses.session_ids, "MODULE NAME": ses.modules, "ACTION NAME": ses.actions,
                      "SERVICE NAME": ses.services, "CLIENT ID": ses.clients}[kind]
            if value and value not in target and len(target) < 50:
                target.append(value)
        m = _TIMESTAMP.match(line)
        if m:
            if ses.first_timestamp is None:
                ses.first_timestamp = m.group(1)
            ses.last_timestamp = m.group(1)
        m = _PID.search(line)
        if m:
            pid = m.group(1) or m.group(2)
            if ses.pid is None:
                ses.pid = pid
            elif pid != ses.pid and f"pid {pid}" not in ses.session_ids:
                ses.session_ids.append(f"pid {pid}")

    def _header(self, line: str, n: int) -> None:
        ses = self.st.session
        if line.startswith("Trace file "):
            ses.file_header = line.strip()
        elif ses.banner is None and ("Oracle" in line and ("Release" in line or "Edition" in line)):
            ses.banner = line.strip()
            self._version(line)
        elif line.startswith("Version ") and ses.major is not None and ses.major >= 18:
            self._version(line)  # 18c+: "Version 19.3.0.0.0" on its own line
        elif line.startswith("Instance name:"):
            ses.instance = line.split(":", 1)[1].strip()
        elif line.startswith("Node name:"):
            ses.node = line.split(":", 1)[1].strip()
        else:
            m = _PID.search(line)
            if m and ses.pid is None:
                ses.pid = m.group(1) or m.group(2)

    def _version(self, line: str) -> None:
        m = _RELEASE.search(line)
        if not m:
            return
        major = int(m.group(1) or m.group(3))
        ses = self.st.session
        ses.version = m.group(0).split(" ", 1)[1]
        ses.major = major
        if self.forced_unit:
            return
        if major < 9:
            self.st.time_factor = 10_000
            self.st.time_unit_basis = f"centiseconds (Oracle {major} trace), converted to microseconds"
        else:
            self.st.time_factor = 1
            self.st.time_unit_basis = f"microseconds (Oracle {major} trace)"

    def feed(self, line: str, n: int) -> None:
        if self.in_text is not None:
            if line.startswith("END OF STMT"):
                self._end_text()
                return
            if self.text_len < MAX_TEXT:
                self.text_parts.append(line)
                self.text_len += len(line) + 1
            else:
                self.in_text.text_truncated = True
            return
        c0 = line[:1]
        if c0 == "W" and line.startswith("WAIT #"):
            self.st.records += 1
            self._wait(line, n)
        elif c0 in "EFPC" and (line.startswith(("EXEC #", "FETCH #", "PARSE #", "CLOSE #"))):
            self.st.records += 1
            self._call(line[:line.find(" ")], line, n)
        elif c0 == "P" and line.startswith("PARSING IN CURSOR"):
            self.st.records += 1
            self._parsing(line, n)
        elif c0 == "X" and line.startswith("XCTEND"):
            self.st.records += 1
            self._xctend(line, n)
        elif c0 == "*" and line.startswith("*** "):
            self._star(line, n)
        elif c0 in "UST" and line.startswith(("UNMAP #", "SORT UNMAP #")):
            self.st.records += 1
            self._call("UNMAP" if line[0] == "U" else "SORT UNMAP", line, n)
        elif not self.st.records:
            self._header(line, n)

    def _end_text(self) -> None:
        s = self.in_text
        assert s is not None
        # the lines as Oracle wrote them: a line break of the statement is one in the trace (len= counts it),
        # and the reader took it off each line
        text = "\n".join(self.text_parts).rstrip("\n")
        if len(text) > MAX_TEXT:
            text, s.text_truncated = text[:MAX_TEXT], True
        s.text = text
        self.in_text = None
        self.text_parts = []

    def finish(self, n: int, last_line_complete: bool) -> TraceStats:
        st = self.st
        if self.in_text is not None:
            st.truncated = True
            st.issue(self.text_line, "warning", "the trace ends inside a statement's text (no END OF STMT): "
                                                "the file was cut")
            self._end_text()
        if self.pending or self.pending_calls:
            self._settle(float("inf"), n)  # waits after the last call: between calls (the trace ended)
        if st.orphan_calls:
            k = sum(c.count for c in st.orphan_calls.values())
            st.issue(0, "info", f"{k} recursive calls have no dep=0 parent in the trace (it began or ended inside "
                                "a call): their CPU is counted as its own line")
        if not last_line_complete and st.lines:
            st.truncated = True
            st.issue(n, "warning", "the last line has no end of line: the trace was cut while being written or copied")
        if self.malformed:
            st.issue(0, "warning", f"{self.malformed} trace lines could not be read (malformed PARSE/EXEC/FETCH/"
                                   "WAIT lines); their time is missing from the profile")
        if st.backwards:
            st.issue(st.first_backwards_line, "error",
                     f"tim went backwards {st.backwards} times (first at line {st.first_backwards_line}): lines "
                     "of several sessions are interleaved or files were concatenated; the wall clock spans all of "
                     "them and unaccounted-for time is not reliable")
        sessions = [s for s in st.session.session_ids]
        if len(sessions) > 1:
            st.issue(0, "warning", f"{len(sessions)} sessions in one file ({', '.join(sessions[:5])}): the profile "
                                   "mixes them (trcsess output or a shared server process)")
        if st.time_factor == 1 and st.session.major is None and not self.forced_unit:
            st.time_unit_basis = "microseconds (assumed: no version banner; use --time-unit cs for Oracle 8i and older)"
        if st.records and st.t_start is None:
            st.issue(0, "warning", "no tim values: the wall clock and unaccounted-for time cannot be measured")
        return st


def _int(v, default):
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def _num(v):
    if v is None:
        return None
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return None


def read_stream(fh: IO[bytes], name: str, time_unit: str | None = None,
                round_trip_max_us: float = ROUND_TRIP_MAX_US) -> TraceStats:
    """Read a trace from a binary stream, one line at a time."""
    r = _Reader(name, time_unit, round_trip_max_us)
    st = r.st
    n = 0
    complete = True
    nbytes = 0
    for raw in fh:
        n += 1
        nbytes += len(raw)
        if n <= 50 and b"\x00" in raw:
            raise NotATraceError(f"{name}: binary data, not an Oracle SQL trace")
        complete = raw.endswith(b"\n")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            line = raw.decode("latin-1")
        if line.endswith("\n"):
            line = line[:-2] if line.endswith("\r\n") else line[:-1]
        r.feed(line, n)
        if n == SNIFF_LINES and not st.records:
            raise NotATraceError(f"{name}: not an Oracle SQL trace (no PARSING IN CURSOR, PARSE/EXEC/FETCH or "
                                 f"WAIT line in its first {SNIFF_LINES} lines)")
    st.lines, st.bytes = n, nbytes
    if n == 0:
        raise NotATraceError(f"{name}: empty file, not an Oracle SQL trace")
    if not st.records:
        raise NotATraceError(f"{name}: not an Oracle SQL trace (no PARSING IN CURSOR, PARSE/EXEC/FETCH or WAIT line)")
    return r.finish(n, complete)

