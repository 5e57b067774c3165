"""G15: the time no rule explains. ADDM reports what costs 10 % of DB time; so does awrscope: after
every cause has claimed its leaves, a leaf or a wait class of 10 % or more of DB time that no
finding claimed and no characterisation describes is named here, with what that kind of wait
usually means, instead of passing in silence. DB CPU left over is described on its leaf (an
annotation): CPU on a host with CPU to spare is where the time goes, not a fault."""
from __future__ import annotations

from ..ledger.model import CPU
from .base import Context, Evidence, make_finding, pct_text, rule
from ..numfmt import fmt_num

#: What a wait class, or an event family, usually means and where to look. The first match wins.
ADVICE: tuple[tuple[str, str], ...] = (
    ("sga: allocation forcing component growth", "automatic SGA resizing moves memory between pools while sessions "
                                                 "wait: set minimum sizes for the shared pool and buffer cache (or a "
                                                 "fixed SGA) and check V$SGA_RESIZE_OPS"),
    ("name-service call wait", "the RAC name service (an instance start or reconfiguration): the alert log around the "
                               "window"),
    ("dfs lock handle", "a RAC global enqueue (sequences with ORDER, DDL or TRUNCATE across instances): the enqueue type "
                        "in P1, from ASH"),
    ("rdbms ipc reply", "sessions wait for a background process to reply (object checkpoints of TRUNCATE/DROP, a busy "
                        "DBWR or LGWR)"),
    ("log file sequential read", "reads of online redo logs in the foreground (archiver, Data Guard, LogMiner/Streams "
                                 "capture)"),
    ("tcp socket", "network calls from PL/SQL (UTL_HTTP, UTL_TCP, UTL_SMTP): the remote service's latency"),
    ("enqueue", "an enqueue (the report prints all types as one event): the Enqueue Activity section names the type"),
    ("temp", "sorts and hash joins spill to TEMP (R09 names it from 5 % of DB time): PGA sizing and the SQL that spills"),
    ("db file sequential read", "single-block reads of data (index access): the SQL with most physical reads "
                                "(SQL ordered by Reads) and the read latency of its files"),
    ("db file scattered read", "multi-block reads of data (full scans through the buffer cache): the SQL behind them "
                               "and their access paths"),
    ("db file parallel read", "batched single-block reads (prefetch, index range scans): the SQL behind them"),
    ("external procedure", "calls to an external procedure agent (extproc): its listener and agent start-up (each "
                           "'initial connection' spawns a process) and the procedure's own work"),
    ("direct path read", "reads that bypass the buffer cache (full scans of large segments, parallel query): the SQL "
                         "behind them (SQL ordered by Reads) and their access paths"),
    ("direct path write", "direct-path writes (loads, CTAS, LOBs): the SQL behind them and the write latency of their files"),
    ("logon delay", "failed logons are delayed one by one (wrong passwords): find the client with the wrong credentials "
                    "in the audit trail or the listener log"),
    ("sql*net more data from client", "the client sends large binds or many rows per call: array sizes, LOB handling, "
                                      "network throughput between the application and the database"),
    ("sql*net more data to client", "large result sets are sent to the client: fetch only what is needed, network throughput"),
    ("dblink", "the sessions wait on a remote database over a database link: the remote SQL and the network to it"),
    ("sql*net", "round trips between client and database: larger fetch/bind arrays, fewer calls, the network's latency"),
    ("backup", "RMAN backup or restore I/O in the foreground: schedule backups outside the busy window, limit channels "
               "or RATE, incremental backups with block change tracking"),
    ("control file", "control file I/O: frequent log switches or checkpoints, control file on slow storage"),
    ("resmgr:", "Resource Manager throttles the sessions: the plan's CPU limits, or more demand than the plan allows"),
    ("enq: ", "sessions queue on an enqueue: the Enqueue Activity section names it and its holders' work"),
    ("latch", "latch contention: the Latch Activity / Latch Sleep Breakdown sections name the latch"),
)
CLASS_ADVICE = {
    "Network": "network waits: round trips and transfer volume between client and database",
    "System I/O": "system I/O in the foreground: backup, control file or redo I/O done by sessions",
    "Other": "the 'Other' class: look the event up (My Oracle Support) and in the report's sections that name it",
    "Administrative": "DBA operations during the window (index rebuilds, moves, switchovers)",
    "Scheduler": "Resource Manager scheduling: the plan's limits",
    "User I/O": "user I/O that is not reads of data (direct path writes, file operations): the SQL behind it",
    "Configuration": "a configuration limit (log buffer, log files, sequence caches, free lists)",
    "Queueing": "queueing in Streams / GoldenGate / AQ",
    "Commit": "commit waits: LGWR's write latency and the commit rate decide (see the commit path line)",
}

SHARE_PCT = 10.0  # a leaf or class this large must be explained (ADDM's 10 %)
MEMBER_PCT = 0.5  # the events of an unexplained class listed and claimed from this share up


def _covered(leaf) -> bool:
    return bool(leaf.annotations)


def _num(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 100 else fmt_num(v)


def _commit_facts(ctx: Context) -> str:
    """What the report says of the commit path, for a log file sync no commit rule claimed (the commit rules
    disabled in the config, or none of them applicable): its parts per wait from the assessment."""
    ca = ctx.commit
    parts = [p for p in (ca.parts if ca is not None else ()) if p.ms > 0]
    if not parts:
        return "the report prints no LGWR write latency to split the commit wait by (see R17)"
    return ("the commit wait's parts per wait: " + ", ".join(f"{p.name} {_num(p.ms)} ms ({p.owner})" for p in parts)
            + ": compare them with R01-R03 in `awrscope rules`")


def _advice(name: str, cls: str | None) -> str:
    low = name.lower()
    for key, text in ADVICE:
        if key in low:
            return text
    return CLASS_ADVICE.get(cls or "Other", CLASS_ADVICE["Other"])


@rule("G15", "unexplained-time", "Time no other finding explains", family="general", pct=SHARE_PCT, member_pct=MEMBER_PCT)
def g15(ctx: Context, th: dict):
    """A leaf of the ledger (a foreground wait event) or a wait class with >= 10 % of DB time that no
    finding before it claimed and no characterisation describes: named with what that kind of wait
    usually means, so that no large part of DB time goes without a finding. It claims that time. DB CPU
    left over >= 10 % gets an annotation on its leaf instead (CPU is where time goes, not a fault)."""
    led = ctx.ledger
    ctx.need_events()
    if led is None:
        return None
    dbt = led.db_time_s
    cpu = led.leaf(CPU)
    if cpu is not None and not _covered(cpu) and led.pct(cpu.free) >= th["pct"] and cpu.free >= 0.5 * cpu.seconds:
        busy = ctx.m.v("host_cpu_busy_pct")
        where = ("the statements ASH saw on CPU (Top SQL with Top Events) are" if ctx.report.kind == "ash" else
                 "the SQL with most CPU (SQL ordered by CPU Time) is")
        led.annotate(CPU, "G15", f"{cpu.name} {led.pct(cpu.seconds):.1f} % of DB time"
                     + (f", host {pct_text(busy)} busy" if busy is not None else "") + f": {where} where to tune it")
    rest = led.leaf("(remainder)")
    if rest is not None and rest.name == "not itemised" and not _covered(rest) and led.pct(rest.free) >= th["pct"]:
        led.annotate("(remainder)", "G15", f"{led.pct(rest.seconds):.1f} % of DB time is in no event the report itemises "
                     "(its event list is a Top-N or the sections could not be read: see the issues); the findings cover "
                     "only the rest")
    picked = []
    for l in led.leaves.values():
        if l.kind == "wait" and not _covered(l) and led.pct(l.free) >= th["pct"]:
            picked.append(l)
    for cls, members in led.by_class().items():
        total = sum(l.seconds for l in members)
        free = sum(l.free for l in members if not _covered(l))
        if led.pct(total) >= th["pct"] and led.pct(free) >= th["pct"]:
            picked += [l for l in members if l not in picked and not _covered(l) and led.pct(l.free) >= th["member_pct"]]
    if not picked:
        return None
    picked.sort(key=lambda l: -l.free)
    for l in picked:
        ctx.claim(l.name, l.free)
    shown = picked[:4]
    ev = [Evidence(f"pct_db_time[{l.name}]", round(led.pct(l.seconds), 3), "%", f">= {th['pct']} % (leaf or class)", l.sources,
                   f"wait class {l.wait_class}" + (f", {fmt_num(l.avg_ms, 'ms')} per wait" if l.avg_ms is not None else ""))
          for l in shown]
    advice = list(dict.fromkeys(f"{l.name}: " + (_commit_facts(ctx) if l.name.lower() == "log file sync" else
                                                 _advice(l.name, l.wait_class)) for l in shown))
    got = {l.key: l.claims.get("G15", 0.0) for l in shown}
    names = ", ".join(f"{l.name} {led.pct(got[l.key]):.1f} %" + (f" (of its {led.pct(l.seconds):.1f} %; the rest is "
                                                                   "claimed above)" if l.seconds - got[l.key] > 0.005 * dbt else "")
                      for l in shown)
    return make_finding(ctx, "G15", 0.0, "medium", ev,
                        "No specific rule explains this time; what it usually means: " + "; ".join(advice) + ".",
                        title=f"Not explained by another finding: {names}" + (" ..." if len(picked) > len(shown) else ""),
                        confirm="ASH for the sessions in these waits (their SQL, module, blocking session).",
                        refute="The events belong to a job outside the period of interest.")
