"""Time base and wait events: DB time, elapsed, CPU, foreground/background event times
(spec M01-M12), the per-event write-path metrics and the LGWR histogram tail."""
from __future__ import annotations


from ..model import Report
from ..oracle.events import BACKGROUND_ONLY, CPU_ROWS, NOT_DB_TIME_PREFIXES, WRITE_PATH_EVENTS, is_idle_row
from .builder import Builder, row_source
from .catalog import BY_ID
from .values import MEASURED_DB_TIME, EventTime, Source
from .. import patterns


def _top_time(r: Report, row, whole: bool = False) -> tuple[float | None, tuple[Source, ...]]:
    """A Top-N row's seconds; an ASH report prints only the share of sampled activity, which is
    the share of DB time estimated from the samples (AAS x elapsed)."""
    t = row.values.get("time_s")
    if t is None and r.kind == "ash" and r.db_time_s and row.values.get("pct_db_time") is not None:
        return row.values["pct_db_time"] / 100.0 * r.db_time_s, (row_source("top_events", row, "pct_db_time"),)
    return _seconds(row, "top_events", whole)


def prints_whole_seconds(section) -> bool:
    """Whether a section prints its events' totals in whole seconds: every total in it is a whole number
    (11.2's text report: 'name-service call wait  12  0  1  49', 1 s for 12 waits of 49 ms)."""
    totals = [t for t in (row.values.get("time_s") for row in section or ()) if t is not None]
    return bool(totals) and all(t % 1 == 0 for t in totals)


def _seconds(row, section: str, whole: bool = False, db_time: float | None = None) -> tuple[float | None, tuple[Source, ...]]:
    """A row's seconds and where they come from: the printed total, or the most precise of the row's other
    figures when the total was printed rounded: to thousands ('20K' beside 2,945 waits of 6,775 ms: 19,952 s),
    or to the second in a section that prints ``whole`` seconds ('1' beside 12 waits of 49 ms: 0.59 s).

    The other figures: waits x the printed average (within waits x 0.5 ms, the average printed to the ms at
    least), and, given the ``db_time`` the row's '% DB time' is of, that share of it (within 0.05 points of the
    share, and the share of DB time's own last printed digit). A figure replaces the total only where the total
    cannot be it (they differ by more than the figure's own rounding) and could be its rounding (they differ by
    no more than half the rounding step), and where the figures agree with each other within their roundings.
    The finest such figure is taken: an average of '1' ms is half a millisecond wide, and the share of DB time,
    where printed, is then the finer one."""
    t = row.values.get("time_s")
    src = row_source(section, row, "time_s")
    if t is None or t % 1:
        return t, (src,)
    if t and t % 1000 == 0:
        step = 1000.0
        while t % (step * 1000) == 0 and step < 1e15:
            step *= 1000
    elif whole:
        step = 1.0
    else:
        return t, (src,)
    figures = []  # (half width, value, sources)
    w, avg = row.values.get("waits"), row.values.get("avg_wait_ms")
    if w and avg and not (w >= 1000 and w % 1000 == 0) and not (avg >= 1000 and avg % 1000 == 0):
        figures.append((w * 0.0005, w * avg / 1000.0,
                        (src, row_source(section, row, "waits"), row_source(section, row, "avg_wait_ms"))))
    pct = row.values.get("pct_db_time")
    if db_time and pct:
        figures.append((db_time * 0.0005 + pct / 100.0 * _last_digit_half(db_time), pct / 100.0 * db_time,
                        (src, row_source(section, row, "pct_db_time"))))
    for half, value, sources in sorted(figures, key=lambda f: f[0]):
        if half < abs(value - t) <= step / 2 and \
                all(abs(value - other) <= half + other_half for other_half, other, _ in figures):
            return value, sources
    return t, (src,)


def _last_digit_half(v: float) -> float:
    """Half the last digit of ``v`` written shortest ('1.9' -> 0.05, '54520.0' -> 0.5): never finer than the
    digits it was printed with (a printed '2.00' reads back as 2.0, taken as 0.05 wide)."""
    text = repr(float(v))
    if "e" in text or "E" in text:
        return abs(v) * 5e-16
    frac = text.partition(".")[2]
    return 0.5 if frac in ("", "0") else 0.5 * 10.0 ** -len(frac)


def _waits(row, elapsed_s: float | None) -> float | None:
    """The row's wait count; a compare-period (AWR Diff) report prints only waits per second, so
    the count is that rate times the period's elapsed time (as precise as the printed rate)."""
    w = row.values.get("waits")
    if w is None and row.values.get("waits_per_s") is not None and elapsed_s:
        w = row.values["waits_per_s"] * elapsed_s
    return w


#: Instance CPU's row of the instance's part of the host's busy CPU, as the text and the HTML reports name it
_BUSY_CPU_ROWS = frozenset({"% of busy cpu for instance", "%busy cpu"})


def collect_events(b: Builder) -> None:
    r, m = b.r, b.m
    bg_sec = r.sections.get("wait_events_bg")
    if bg_sec is not None:
        whole = prints_whole_seconds(bg_sec)
        for row in bg_sec:
            t, srcs = _seconds(row, "wait_events_bg", whole)
            # a second row under one name never replaces the first (the parser warns of it)
            if row.name and t is not None and not is_idle_row(row.name, row.text) and row.name.lower() not in m.bg_events:
                m.bg_events[row.name.lower()] = EventTime(row.name, t, row.values.get("waits"), "bg", srcs,
                                                          printed_avg_ms=row.values.get("avg_wait_ms"))
    fg_sec = r.sections.get("wait_events_fg")
    all_sec = r.sections.get("wait_events")
    if fg_sec is not None:
        m.event_basis = "fg"
        whole = prints_whole_seconds(fg_sec)
        for row in fg_sec:
            t, srcs = _seconds(row, "wait_events_fg", whole, r.db_time_s)
            if row.name and t is not None and not is_idle_row(row.name, row.text) and row.name.lower() not in m.fg_events:
                m.fg_events[row.name.lower()] = EventTime(row.name, t, row.values.get("waits"), "fg", srcs,
                                                          wait_class=row.text.get("wait_class"),
                                                          printed_avg_ms=row.values.get("avg_wait_ms"))
    elif all_sec is not None:
        # Statspack / AWR 10g: "Wait Events" is system-wide; FG = all - BG (spec M12, P09).
        m.event_basis = "all-bg" if bg_sec is not None else "all"
        whole = prints_whole_seconds(all_sec)
        for row in all_sec:
            t, srcs = _seconds(row, "wait_events", whole)
            if t is None and r.db_time_s and row.values.get("pct_db_time") is not None:
                # a 10g compare-period report prints each event's share of DB time, its waits per second and
                # average, but not its seconds: the share of the period's DB time is the time
                t, srcs = row.values["pct_db_time"] / 100.0 * r.db_time_s, (row_source("wait_events", row, "pct_db_time"),)
            if not row.name or t is None or is_idle_row(row.name, row.text) or row.name.lower() in m.fg_events:
                continue
            srcs = list(srcs)
            w = _waits(row, r.elapsed_s)
            bg = m.bg_events.get(row.name.lower())
            if bg is None and (row.name.lower() in BACKGROUND_ONLY or row.name.lower().startswith(NOT_DB_TIME_PREFIXES)):
                m.bg_events[row.name.lower()] = EventTime(row.name, t, w, "all", tuple(srcs),
                                                          printed_avg_ms=row.values.get("avg_wait_ms"))  # system-wide = BG
                continue
            if bg is not None:
                t = max(0.0, t - bg.time_s)
                if w is not None and bg.waits is not None:
                    w = max(0.0, w - bg.waits)
                srcs += list(bg.sources)
            # with no background section to subtract, the printed average of the system-wide row stands
            m.fg_events[row.name.lower()] = EventTime(row.name, t, w, m.event_basis, tuple(srcs),
                                                      wait_class=row.text.get("wait_class"),
                                                      printed_avg_ms=row.values.get("avg_wait_ms") if bg is None else None)
    elif r.sections.get("top_events") is not None:
        # Last resort: the Top-N projection (system-wide in SP, P04). Low precision.
        m.event_basis = "top"
        whole = prints_whole_seconds(r.sections["top_events"])
        for row in r.sections["top_events"]:
            t, srcs = _top_time(r, row, whole)
            if not row.name or t is None or row.name.lower() in CPU_ROWS \
                    or (row.text.get("wait_class") or "").lower().startswith("idle"):  # Top-N never lists idle events
                continue
            et = EventTime(row.name, t, row.values.get("waits"), "top", srcs,
                           wait_class=row.text.get("wait_class"), printed_avg_ms=row.values.get("avg_wait_ms"))
            if row.name.lower() in BACKGROUND_ONLY:
                # background-only events never count as foreground time; keep them as BG evidence (M31)
                m.bg_events.setdefault(row.name.lower(), et)
                continue
            m.fg_events[row.name.lower()] = et

def time_base(b: Builder) -> None:
    r, m = b.r, b.m
    h = r.header
    if r.elapsed_s is not None:
        b.put("elapsed_s", r.elapsed_s, [Source("header", "Elapsed", "elapsed_min", h.elapsed_line or h.line, h.elapsed_min)])
    else:
        b.miss("elapsed_s")
    tm, tm_src = b.time_model("DB time")
    estimated = any("db_time_s is estimated" in i.message or ("estimat" in i.message.lower() and "db time" in i.message.lower())
                    for i in r.issues)
    if r.db_time_s is not None and r.kind == "ash":
        # ASH: one sample per active session per second; AAS x elapsed counts background sessions too, which DB
        # time does not: the foreground part is what is left after the Top Background Events' share of activity
        bg_sec = r.sections.get("ash_top_bg_events")
        bg = [row for row in (bg_sec or ()) if row.values.get("pct_db_time")]
        bg_pct = min(100.0, sum(row.values["pct_db_time"] for row in bg))
        src = [Source("header", "Avg Active Sessions", "db_time", h.db_time_line or h.line, r.db_time_s)]
        src += [row_source("ash_top_bg_events", row, "pct_db_time") for row in bg]
        m.db_time_confidence = "medium"
        m.db_time_basis = "ASH samples: foreground average active sessions x elapsed"
        b.put("db_time_s", r.db_time_s * (1.0 - bg_pct / 100.0), src,
              note=f"estimated from ASH samples: average active sessions x elapsed ({r.db_time_s:,.1f} s), less the "
                   f"{bg_pct:.2f} % of sampled activity in Top Background Events (a top-N list: the foreground share is "
                   "an upper bound)" if bg else
                   "estimated from ASH samples (AAS x elapsed): the report prints no background activity, all of it is "
                   "taken as foreground")
    elif r.db_time_s is not None:
        if estimated:
            m.db_time_confidence, m.db_time_basis = "low", "estimated: CPU used by this session + FG non-idle waits"
            b.put("db_time_s", r.db_time_s, [tm_src] if tm_src else _estimate_sources(b),
                  note="Statspack before 10g has no DB time; estimated by the parser (spec M02) - shares are approximate",
                  low=True)
        else:
            m.db_time_basis = "time model" if tm_src else "header"
            note = None
            total = r.printed_total_db_time() if not tm_src else None
            if total is not None and h.db_time_min and total[0] == r.db_time_s != h.db_time_min * 60:
                # the parser took the SQL section's Total DB Time over the header's: the report's shares are of it
                m.db_time_basis = "the SQL section's Total DB Time"
                tm_src = Source(total[1], "Total DB Time (s)", "total_db_time_s", total[2], total[0])
                note = (f"the header prints {h.db_time_min:g} min ({h.db_time_min * 60:,.1f} s); the report's "
                        f"shares and the SQL section's Total DB Time are of {total[0]:,.0f} s (see issues)")
            if not tm_src and r.kind in ("awr", "statspack") and h.db_time_min and 100.0 * 0.3 / r.db_time_s > 0.5:
                # the header prints minutes to two decimals: 0.86 min is 51.6 s give or take 0.3 s
                m.db_time_confidence = "medium"
                note = (f"DB time from the header's {h.db_time_min:g} minutes (printed to 0.01 min, within 0.3 s: "
                        f"{100.0 * 0.3 / r.db_time_s:.1f} % of it); the time model's DB time row is not in the report")
            b.put("db_time_s", r.db_time_s, [tm_src or Source("header", "DB Time", "db_time_min", h.db_time_line or h.line, h.db_time_min)],
                  note=note)
    else:
        base = _call_time_base(r)
        if base is not None:
            value, src = base
            m.db_time_confidence, m.db_time_basis = "low", "Top-N %Total base (includes background waits)"
            b.put("db_time_s", value, [src], low=True,
                  note="no DB time in the report: total call/elapsed time implied by the Top-N %Total column is used; "
                       "it includes background waits (P07), so shares are approximate")
        else:
            m.db_time_confidence, m.db_time_basis = "low", "none"
            b.miss("db_time_s")
    e, dbt = m.v("elapsed_s"), m.v("db_time_s")
    b.ratio("aas", dbt, e, [])
    cpu, cpu_src = b.time_model("DB CPU")
    if cpu is None:
        top = r.sections.get("top_events")
        for row in (top or ()):
            t, srcs = _top_time(r, row)
            if row.name and row.name.lower() in CPU_ROWS and t is not None:
                cpu, cpu_src = t, srcs[0]
                break
    if cpu is None:
        v, s, _ = b.stat("CPU used by this session")
        if v is not None:
            cpu, cpu_src = v / 100.0, s
    b.put("db_cpu_s", cpu, [cpu_src])
    busy, bs = b.os_stat("BUSY_TIME")
    idle, is_ = b.os_stat("IDLE_TIME")
    if busy is not None and idle is not None and busy + idle > 0:
        b.put("host_cpu_busy_pct", 100.0 * busy / (busy + idle), [bs, is_])
    else:
        hc = r.sections.get("host_cpu")
        row = hc.rows[0] if hc and hc.rows else None
        if row is not None and row.values.get("pct_idle") is not None:
            b.put("host_cpu_busy_pct", 100.0 - row.values["pct_idle"], [row_source("host_cpu", row, "pct_idle")],
                  note="100 - Host CPU %Idle")
        else:
            b.miss("host_cpu_busy_pct")
    ow, os_ = b.os_stat("OS_CPU_WAIT_TIME")
    b.ratio("os_cpu_wait_share", ow, busy, [os_, bs])
    sys_t, ss = b.os_stat("SYS_TIME")
    b.ratio("host_sys_cpu_pct", sys_t, busy, [ss, bs], scale=100.0)
    ic = r.sections.get("instance_cpu")
    row = next((x for x in ic or () if " ".join((x.name or "").lower().split()) in _BUSY_CPU_ROWS), None)
    if row is not None and row.values.get("value") is not None:
        b.put("instance_busy_cpu_pct", row.values["value"], [row_source("instance_cpu", row, "value")])
    else:
        b.miss("instance_busy_cpu_pct")
    ncpu, ns = b.os_stat("NUM_CPUS")
    if ncpu is None and h.cpus:
        ncpu, ns = float(h.cpus), Source("header", "CPUs", "cpus", h.host_line or h.line, float(h.cpus))
    if ncpu is None:  # a compare-period report's period: its Host Configuration Comparison
        ncpu, ns = _host_config(r, "number of cpus")
    if ncpu is None:
        ip = r.sections.get("init_parameters")
        row = ip.row("cpu_count") if ip else None
        begin = (row.text.get("begin") or "").replace(",", "") if row is not None else ""
        if begin.isdigit() and int(begin) > 0:
            ncpu, ns = float(begin), Source("init_parameters", row.name, "begin", row.line, float(begin))
    b.put("cpu_count", ncpu, [ns])
    cores, cs = b.os_stat("NUM_CPU_CORES")
    if cores is None and h.cores:
        cores, cs = float(h.cores), Source("header", "Cores", "cores", h.host_line or h.line, float(h.cores))
    if cores is None:
        cores, cs = _host_config(r, "number of cpu cores")
    b.put("cpu_cores", cores, [cs])
    b.ratio("cpu_queue_aas", ow, e, [os_], scale=0.01)
    _unaccounted(b, dbt, cpu, cpu_src)
    bgcpu, bgs = b.time_model("background cpu time")
    if cpu is not None and ncpu and e:
        b.put("cpu_demand_ratio", (cpu + (bgcpu or 0.0)) / (ncpu * e), [cpu_src, bgs, ns],
              note=None if bgcpu is not None else "background cpu time not printed: DB CPU only")
    else:
        b.miss("cpu_demand_ratio")
    rm = m.fg("resmgr:cpu quantum")
    if dbt and m.event_basis:
        b.put("rsrc_mgr_wait_share", 100.0 * (rm.time_s if rm else 0.0) / dbt, rm.sources if rm else ())
    else:
        b.miss("rsrc_mgr_wait_share")

def _unaccounted(b: Builder, dbt: float | None, cpu: float | None, cpu_src) -> None:
    """DB time neither on CPU nor in a foreground wait (spec P08): on a busy host the run queue.
    Only from a complete foreground event list; a Top-N list would call every unprinted event 'unaccounted'."""
    m = b.m
    if not dbt or cpu is None or m.event_basis not in ("fg", "all-bg") or m.db_time_basis not in MEASURED_DB_TIME:
        b.miss("unaccounted_s")
        b.miss("unaccounted_pct")
        return
    waits = sum(e.time_s for e in m.fg_events.values())
    srcs = [b.m.get("db_time_s").sources[0] if b.m.get("db_time_s") and b.m.get("db_time_s").sources else None, cpu_src]
    gap = max(0.0, dbt - cpu - waits)
    b.put("unaccounted_s", gap, srcs, note=f"DB time {dbt:,.1f} s - DB CPU {cpu:,.1f} s - foreground waits {waits:,.1f} s")
    b.put("unaccounted_pct", 100.0 * gap / dbt, srcs)


def _estimate_sources(b: Builder) -> list[Source]:
    """What the parser's estimate of DB time (Statspack before 10g) is made of: 'CPU used by this session' and the
    non-idle waits of Wait Events less Background Wait Events, each cited where the report prints it."""
    r = b.r
    cpu, cpu_src, _ = b.stat("CPU used by this session")
    srcs = [cpu_src] if cpu_src else []
    waits = r.db_time_s - cpu / 100.0 if cpu is not None and r.db_time_s is not None else None
    for key in ("wait_events", "wait_events_bg"):
        sec = r.sections.get(key)
        if sec is not None:
            srcs.append(Source(key, "non-idle events", "time_s", sec.line,
                               round(waits, 3) if key == "wait_events" and waits is not None else None))
    return srcs


def _call_time_base(r: Report):
    """DB-time proxy when the report has none: time / (%Total/100) of the largest Top-N row."""
    top = r.sections.get("top_events")
    best = None
    for row in (top or ()):
        t = row.values.get("time_s")
        for f in ("pct_db_time", "pct_total_call_time", "pct_total_ela_time", "pct_total_wait_time"):
            p = row.values.get(f)
            if t and p and p > 0 and (best is None or t > best[0]):
                best = (t, t / (p / 100.0), row_source("top_events", row, f))
    return (best[1], best[2]) if best else None

def event_metrics(b: Builder) -> None:
    m = b.m
    dbt = m.v("db_time_s")
    for name in WRITE_PATH_EVENTS:
        e = m.fg(name)
        if e is None:
            continue
        low = e.basis == "top"
        b.put(f"fg_time_s[{e.name}]", e.time_s, e.sources, unit="s", formula=BY_ID["fg_time_s"].formula, low=low)
        if dbt:
            b.put(f"pct_db_time[{e.name}]", 100.0 * e.time_s / dbt, e.sources, unit="%",
                  formula=BY_ID["pct_db_time"].formula, low=low or m.db_time_confidence == "low")
        if e.avg_ms is not None:
            b.put(f"avg_ms[{e.name}]", e.avg_ms, e.sources, unit="ms", formula=BY_ID["avg_ms"].formula, low=low)
    # LFPW histogram tail (M17): from the histogram family whose buckets have a bound at 8 ms
    for key in sorted(k for k in b.r.sections if k.startswith("wait_histogram")):
        row = b.r.sections[key].row("log file parallel write")
        tail = share_above(row.values, 8000.0) if row is not None else None
        if tail is not None:
            b.put("lfpw_tail_share_8ms", tail, [row_source(key, row, "total_waits")],
                  note=f"buckets of '{b.r.sections[key].title}' above 8 ms")
            break
    else:
        b.miss("lfpw_tail_share_8ms")


_BUCKET_LABEL = patterns.compile(r"^(<=?|>=?)\s*(\d+(?:\.\d+)?)\s*(us|ms|s|m|min|h)$")
_LABEL_US = {"us": 1.0, "ms": 1e3, "s": 1e6, "m": 60e6, "min": 60e6, "h": 3600e6}


def share_above(values, bound_us: float) -> float | None:
    """The % of waits above ``bound_us`` from one histogram row, or None when this family of
    buckets has no edge at that bound. Every bucket's unit is its own label's (``<8us``,
    ``<512us``, ``<8ms``, ``<2s``): 19c prints microsecond, millisecond and second families
    side by side and no bucket is taken to be in milliseconds. A ``<X`` bucket holds the waits
    from the previous edge to X; a ``>=X`` bucket those from X on."""
    edges: list[tuple[str, float, float | None]] = []
    for label, v in values.items():
        mm = _BUCKET_LABEL.match(label.strip())
        if mm:
            edges.append((mm.group(1), float(mm.group(2)) * _LABEL_US[mm.group(3)], v))
    if not edges or not any(abs(us - bound_us) < 1e-6 for _, us, _ in edges):
        return None
    edges.sort(key=lambda e: (e[1], e[0].startswith(">")))
    tail, lower = 0.0, 0.0
    for op, us, v in edges:
        low_edge = us if op.startswith(">") else lower
        if low_edge >= bound_us - 1e-6 and v:
            tail += v
        if not op.startswith(">"):
            lower = us
    return tail


#: Oracle's wait classes as printed (a narrow column cuts them: 'Configurat')
WAIT_CLASSES = ("User I/O", "System I/O", "Commit", "Configuration", "Concurrency", "Application", "Other", "Cluster",
                "Network", "Scheduler", "Administrative", "Queueing")


def time_by_wait_class(report: Report | None, metrics) -> list[dict]:
    """Foreground wait time per wait class, largest first: {label, time_s, line, derived}. From the report's
    own Foreground Wait Class section when printed; else (AWR 10g/11.1 text, Statspack) the foreground events
    summed by their class, as printed beside the event or in Top Events, else from the event catalogue."""
    from ..oracle.events import wait_class

    classes = []
    sec = report.sections.get("wait_classes") if report is not None else None
    for row in sec or ():
        t = row.values.get("time_s")
        if not row.name or t is None or row.name.lower().startswith(("idle", "db cpu")):
            continue
        classes.append({"label": row.name, "time_s": t, "line": row.line, "derived": None})
    if not classes and metrics is not None and metrics.fg_events:
        printed = {}
        for row in (report.sections.get("top_events") if report is not None else None) or ():
            if row.name and row.text.get("wait_class"):
                printed[row.name.lower()] = row.text["wait_class"]
        sums: dict[str, float] = {}
        for e in metrics.fg_events.values():
            wc = wait_class(e.name, e.wait_class or printed.get(e.name.lower()))
            wc = next((k for k in WAIT_CLASSES if k.lower().startswith(wc.lower())), wc)
            sums[wc] = sums.get(wc, 0.0) + e.time_s
        classes = [{"label": k, "time_s": round(v, 3), "line": None, "derived": "sum of foreground events"}
                   for k, v in sums.items() if v > 0]
    classes.sort(key=lambda c: -c["time_s"])
    return classes


def _host_config(r: Report, name: str) -> tuple[float | None, Source | None]:
    """A figure of a compare-period report's 'Host Configuration Comparison' for one period ('Number of CPUs:')."""
    sec = r.sections.get("host_config")
    for row in sec.rows if sec is not None else ():
        if " ".join((row.name or "").lower().rstrip(":").split()) == name:
            field, v = next(((k, v) for k, v in row.values.items() if v is not None and v > 0), (None, None))
            if v is not None:
                return float(v), Source("host_config", row.name, field, row.line, float(v))
    return None, None
