"""ADDM beside us: the findings Oracle's ADDM embedded in the report ("Top ADDM Findings by Average
Active Sessions", 12c+), each matched with awrscope's findings of the same kind.

status: "agreed" (a finding of the same kind), "described as no fault" (an annotation of ours describes that
time as healthy), "ours more specific" (a finding that names the cause
ADDM only classifies, e.g. a CPU queue for "CPU Usage"), "missed" (no awrscope result of that kind),
"other window" (the ADDM task analysed a period outside the report's), "diluted" (an ADDM task
inside a longer report whose finding is under 5 % of the report's DB time: too small to show over
the whole window), "not evaluable: needs ..." (the report lacks what our rule of that kind needs)
or "unknown kind". A task
"inside" the report's window analysed a part of it (hourly tasks in a multi-day report): its
finding's DB time as a share of the whole report's says how much of it the report can show."""
from __future__ import annotations

import re
from datetime import datetime

from ..model import Report
from ..oracle.dates import full_year, month_number
from .. import patterns

#: ADDM finding name pattern -> (same kind, more specific) awrscope rule ids
KINDS: tuple[tuple[re.Pattern, tuple[str, ...], tuple[str, ...]], ...] = tuple(
    (patterns.compile(p, re.I), same, specific) for p, same, specific in (
        (r"^top sql", ("G18", "G07"), ()),
        (r"^top segments", ("G12",), ()),
        (r'"user i/o" wait class|^i/o throughput|^undersized i/o', ("G06", "G15"), ("G11", "G12", "R09")),
        (r"^undersized (buffer cache|sga)", ("G11",), ()),
        (r"^undersized pga|^pga_aggregate_limit|^temp space", ("G14", "R09"), ()),
        (r"^hard parse|^soft parse|^shared pool|^library cache|^cursor", ("G08",), ()),
        (r"^cpu usage|^host cpu|cpu bottleneck", ("G02", "G10"), ("G08",)),
        (r"^row lock|application wait class|^row lock", ("G03",), ()),
        (r"^commits and rollbacks|^log file sync|commit", ("R03", "R17"), ("R01", "R02", "R14", "R15")),
        (r"^session connect", ("G09",), ()),
        (r"global cache|cluster|interconnect|^rac", ("G05",), ()),
        (r"buffer busy|concurrency|^sequence|latch", ("G04",), ("G08",)),
        (r"log file switch|checkpoint|^undersized redo", ("R04", "R05"), ()),
        (r"^undo|undersized undo", ("R10",), ()),
        (r"log buffer", ("R06",), ("R01",)),
        (r"^free buffer|dbwr", ("R08",), ()),
    ))


#: ADDM finding name pattern -> the DB-time leaves it is about: a wait class ('class:User I/O'), an event or an event
#: prefix ('event:log file sync', 'prefix:log file switch'), DB CPU ('cpu') or the time neither on CPU nor waiting
#: ('remainder'). The awrscope finding that claims most of those leaves answers it, whatever its rule's name: ADDM's
#: 'Commits and Rollbacks' is the commit cause that holds log file sync, its "User I/O" whoever claims the reads.
LEAVES: tuple[tuple[re.Pattern, tuple[str, ...]], ...] = tuple((patterns.compile(p, re.I), leaves) for p, leaves in (
    (r'"user i/o" wait class|^i/o throughput|^undersized i/o', ("class:User I/O",)),
    (r"^cpu usage|^host cpu|cpu bottleneck", ("cpu", "remainder")),
    (r"^commits and rollbacks|^log file sync|commit", ("event:log file sync",)),
    (r"^row lock|application wait class", ("class:Application",)),
    (r"global cache|cluster|interconnect|^rac", ("class:Cluster",)),
    (r"buffer busy|concurrency|^sequence|latch|^shared pool|^library cache|^cursor", ("class:Concurrency",)),
    (r"log file switch|checkpoint|^undersized redo", ("prefix:log file switch",)),
    (r"log buffer", ("event:log buffer space",)),
    (r"^free buffer|dbwr", ("event:free buffer waits",)),
    (r"^network|sql\*net", ("class:Network",)),
))


def _leaf_match(spec: tuple[str, ...], leaf: str) -> bool:
    from ..oracle.events import wait_class

    low = leaf.lower()
    for s in spec:
        kind, _, arg = s.partition(":")
        if (kind == "cpu" and low in ("db cpu", "cpu + wait for cpu")) or (kind == "remainder" and low == "(remainder)") \
                or (kind == "event" and low == arg) or (kind == "prefix" and low.startswith(arg)) \
                or (kind == "class" and low not in ("db cpu", "(remainder)") and wait_class(leaf) == arg):
            return True
    return False


def _by_leaves(name: str, results: list[dict]) -> dict | None:
    """The finding (not an annotation) that claims most of the leaves an ADDM finding of this name is about."""
    spec = next((leaves for rx, leaves in LEAVES if rx.search(name or "")), None)
    if spec is None:
        return None
    best, most = None, 0.0
    for f in results:
        if f.get("leaves") is not None or f.get("id") == "G01":  # annotations describe, the top of DB time is context
            continue
        s = sum(c["seconds"] for c in f.get("claims") or () if _leaf_match(spec, c["leaf"]))
        if s > most:
            best, most = f, s
    return best


def _task_end_snap(task: str | None) -> int | None:
    m = re.search(r"_(\d+)\s*$", task or "")
    return int(m.group(1)) if m else None


#: An ADDM task's time, '15-Jul-15 14:00': what datetime.strptime(..., '%d-%b-%y %H:%M') reads in the C locale,
#: by its own field patterns (it would load _strptime, calendar and locale for it), and the month in the report's
#: language as the snapshot times print it ('10-Дек-17 13:30', timefmt)
_TASK_TIME = patterns.compile(r"(3[01]|[12]\d|0[1-9]|[1-9]|\ [1-9])-([^\W\d_]{3,5}\.?|\d{1,2}[月월] ?)-"
                              r"(\d\d) (2[0-3]|[0-1]\d|\d):([0-5]\d|\d)", re.IGNORECASE)


def task_time(text: str | None) -> datetime | None:
    m = _TASK_TIME.fullmatch(" ".join((text or "").split()))
    month = month_number(m[2]) if m else None
    if month is None:
        return None
    try:
        return datetime(full_year(int(m[3])), month, int(m[1]), int(m[4]), int(m[5]))
    except ValueError:  # a day past the month's end
        return None


def _window(row, report: Report) -> tuple[str, float | None]:
    """Where the ADDM task's period lies against the report's: "same", "inside" (a part of it: an
    hourly task in a longer report) or "outside"; and the task's length in seconds when printed.
    By the task's begin and end times where printed (HTML), else by the end snapshot in the task
    name (ADDM:dbid_inst_endsnap)."""
    h = report.header
    tb, te = task_time(row.text.get("begin")), task_time(row.text.get("end"))
    rb = h.begin.time.replace(second=0, microsecond=0) if h.begin and h.begin.time else None
    re_ = h.end.time.replace(second=0, microsecond=0) if h.end and h.end.time else None
    if tb and te and rb and re_:
        length = (te - tb).total_seconds()
        if (tb, te) == (rb, re_):
            return "same", length
        return ("inside" if rb <= tb and te <= re_ else "outside"), length
    end = _task_end_snap(row.text.get("task_name"))
    b = h.begin.snap_id if h.begin else None
    e = h.end.snap_id if h.end else None
    if end is None or e is None:
        return "same", None  # nothing says otherwise: the section belongs to the report
    if end == e:
        return ("same" if b is None or e - b <= 1 else "inside"), None
    return ("inside" if b is not None and b < end < e else "outside"), None


def _named_event(name: str | None, report: Report) -> str | None:
    """The foreground wait event an ADDM finding is named after ('Latch Free Waits' -> 'latch free'), when the
    report prints it; None for a finding named after something else."""
    low = " ".join((name or "").lower().split())
    if not low.endswith(" waits"):
        return None
    ev = low[: -len(" waits")]
    for key in ("wait_events_fg", "wait_events", "top_events"):
        sec = report.sections.get(key)
        if sec is not None and sec.row(ev) is not None:
            return ev
    return None


def _covers(finding: dict | None, event: str) -> bool:
    """Whether a finding cites or claims the event."""
    if finding is None:
        return False
    cited = {(e.get("metric") or "").partition("[")[2].rstrip("]").lower() for e in finding.get("evidence") or ()}
    claimed = {(c.get("leaf") or "").lower() for c in finding.get("claims") or ()}
    return event in cited or event in claimed


def beside(report: Report, results: list[dict], not_applicable: list[dict] = (), min_pct: float = 10.0,
           diluted_pct: float = 5.0) -> list[dict]:
    """ADDM's embedded findings with awrscope's matching result. ``results``: the analysis' findings,
    observations and headline as dicts. Findings below ``min_pct`` of active sessions are listed
    with status but not counted by callers that measure agreement."""
    sec = report.sections.get("addm_findings")
    if sec is None:
        return []
    ours = {f["id"]: f for f in results}
    needs = {n["id"]: "needs " + ", ".join(n["needs"]) for n in not_applicable}
    dbt = report.db_time_s
    out = []
    for row in sec.rows:
        pct, aas = row.values.get("pct_active_sessions"), row.values.get("aas")
        kind = next(((same, spec) for rx, same, spec in KINDS if rx.search(row.name or "")), None)
        window, length = _window(row, report)
        # the finding's DB time as a share of the whole report's: an hourly spike in a 6-day report is small
        share = (100.0 * aas * pct / 100.0 * length / dbt) if (window == "inside" and aas and pct and length and dbt) \
            else (pct if window == "same" else None)
        match = None
        if report.kind == "addm":
            status = "ADDM report: no AWR figures to check it against (analyse the AWR report of the window)"
        elif window == "outside":
            status = "other window"
        elif kind is None:
            status = "unknown kind"
        else:
            same, spec = kind
            # of the same kind, the finding that claims the most DB time answers it (findings before annotations); a
            # more specific cause answers it instead when it claims ten times more: ADDM's 'Commits and Rollbacks' is
            # R01's 259 ms slow writes, not R03's 1.5 ms healthy write of each commit
            def order(c):
                return c.get("leaves") is not None, -((c.get("impact") or {}).get("db_time_s") or 0.0)

            def claimed(c):
                return (c.get("impact") or {}).get("db_time_s") or 0.0 if c is not None else 0.0
            match = _by_leaves(row.name, results) or min((ours[i] for i in same if i in ours), key=order, default=None)
            better = min((ours[i] for i in spec if i in ours and ours[i].get("role") != "view"), key=order, default=None)
            status = "agreed"
            if match is not None and match["id"] not in same and match["id"] not in spec:
                pass  # it claims the leaves ADDM's finding is about: the same time, whatever its rule's name
            elif match is None or (better is not None and claimed(better) > 10.0 * claimed(match)):
                match, status = better, "ours more specific" if better is not None else "missed"
            if match is not None and match.get("leaves") is not None:
                # our annotation describes that time as healthy (fast reads, CPU to spare): not an agreement on a problem
                status = "described as no fault"
            event = _named_event(row.name, report)
            if status == "agreed" and event is not None and not _covers(match, event):
                # same kind of finding, other events: ADDM's 'Latch Free Waits' is not G04's library cache mutex
                status = f"missed: '{event}' is in none of awrscope's findings"
                match = None
            if match is None and window == "inside" and share is not None and share < diluted_pct:
                status = "diluted"
            elif match is None and all(i in needs for i in same):
                status = "not evaluable: " + "; ".join(sorted({needs[i] for i in same}))
        out.append({"name": row.name, "pct_active_sessions": pct, "aas": aas, "task": row.text.get("task_name"),
                    "window": window, "pct_of_report_db_time": None if share is None else round(share, 2),
                    "line": row.line, "significant": (pct or 0.0) >= min_pct, "status": status,
                    "ours": None if match is None else {"id": match["id"], "title": match["title"]}})
    return out
