"""F01-F15: the long tail of wait events, as knowledge kept as data (oracle/wait_families.tsv). Each family of
events no specific rule explains (network round trips and database links, RAC services, SGA resizing, external
procedures, direct writes of LOBs, parallel execution, transaction recovery, Data Guard and Streams, enqueues by
type, library cache loads, background replies) becomes a rule of its own: it claims the time of its events that no
cause before it claimed, with the events' times and average waits and the Instance Activity statistics the
catalogue names for it (per second and per user call) as evidence, its mechanism and its action. G15 is left with
the events the catalogue does not know."""
from __future__ import annotations

from ..numfmt import fmt_num

import functools
import os

from msgspec import Struct

from ..metrics.values import Source
from .base import Context, Evidence, make_finding, rule

#: A family claims its events from this share of DB time (the minor share: below it, its time is an observation).
FAMILY_PCT = 2.0


class Family(Struct, frozen=True):
    id: str
    slug: str
    title: str
    events: tuple[str, ...]  # lower case; a trailing '*' is a prefix
    mechanism: str
    statistics: tuple[str, ...]
    action: str

    def matches(self, event: str) -> bool:
        e = event.lower()
        return any(e.startswith(p[:-1]) if p.endswith("*") else e == p for p in self.events)


def _load() -> tuple[Family, ...]:
    out = []
    with open(os.path.join(os.path.dirname(__file__), "..", "oracle", "wait_families.tsv"), encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("#") or not line.strip():
                continue
            fid, slug, title, events, mech, stats, action = line.rstrip("\n").split("\t")
            out.append(Family(fid, slug, title, tuple(e.strip() for e in events.split(",") if e.strip()), mech,
                              tuple(s.strip() for s in stats.split(";") if s.strip()), action))
    return tuple(out)


FAMILIES: tuple[Family, ...] = _load()


@functools.lru_cache(maxsize=8192)
def family_of(event: str) -> Family | None:
    """The catalogue's family of a wait event, the first that matches (once per event name: every family's rule asks
    for every event of every report)."""
    return next((f for f in FAMILIES if f.matches(event)), None)


def _stat_evidence(ctx: Context, name: str) -> Evidence | None:
    """A statistic the catalogue names, per second and per user call, from Instance Activity."""
    row = ctx.report.stat(name)
    if row is None or row.values.get("total") is None:
        return None
    total = row.values["total"]
    e, calls = ctx.m.v("elapsed_s"), ctx.report.stat_total("user calls")
    per = [f"{fmt_num(total / e)} per second" if e else "", f"{fmt_num(total / calls)} per user call" if calls else ""]
    return Evidence(f"stat[{name}]", total, "count", None, (Source("instance_activity", row.name, "total", row.line, total),),
                    ", ".join(p for p in per if p) or None)


def _ms(v: float) -> str:
    return fmt_num(v, "ms")[:-3]


def _run(fam: Family):
    def run(ctx: Context, th: dict):
        ctx.need_events()
        dbt = ctx.m.v("db_time_s")
        # the family's events as their own rule knows them; one a cause before it took is not named again
        evs = sorted((e for e in ctx.m.fg_events.values() if e.time_s > 0 and family_of(e.name) is fam
                      and (not dbt or e.time_s <= 1.001 * dbt)), key=lambda e: -e.time_s)
        free = {e.name: ctx.free(e.name) for e in evs}
        if not dbt or 100.0 * sum(free.values()) / dbt < th["pct"]:
            return None
        claimed = {e.name: ctx.claim(e.name, free[e.name]) for e in evs if free[e.name] > 0}
        # an event of which a cause before took nearly all is that cause's, not named here
        shown = [e for e in evs if claimed.get(e.name, 0.0) >= 0.0005 * dbt]
        ev = [Evidence(f"pct_db_time[{e.name}]", round(100.0 * e.time_s / dbt, 3), "%", f"family >= {th['pct']} %",
                       e.sources, f"{_ms(e.avg_ms)} ms per wait over {e.waits:,.0f} waits" if e.avg_ms is not None
                       and e.waits else None) for e in shown][:5]
        ev += [x for x in (_stat_evidence(ctx, s) for s in fam.statistics) if x is not None]
        top = shown[:2]
        total = sum(claimed.values())
        title = (f"{fam.title}: " + ", ".join(f"{e.name} {fmt_num(100.0 * claimed[e.name] / dbt, '%')}" for e in top)
                 + (f" ({fmt_num(100.0 * total / dbt, '%')} in all)" if len(shown) > len(top) else ""))
        slow = [e for e in top if e.avg_ms is not None and e.avg_ms >= 100.0 and e.waits]
        caveats = [f"what it is: {fam.mechanism}"]
        if slow:  # a long average wait says a holder or a stall, not a rate
            caveats.append("; ".join(f"{e.name} averages {_ms(e.avg_ms)} ms a wait" for e in slow)
                           + ": waits this long are a holder or a stall (a blocked process, paging, a hung remote end), "
                             "not a rate to reduce: find who holds it (ASH blocking sessions) first")
        return make_finding(ctx, fam.id, total, "medium", ev, fam.action, title=title,
                            confirm="ASH for the sessions in these waits (their SQL, module, P1-P3, blocking session)"
                                    + ("; " + ", ".join(fam.statistics) + " beside them" if fam.statistics else "") + ".",
                            refute="The events belong to a job outside the period of interest.", caveats=caveats)
    run.__doc__ = (f"{fam.mechanism}\n\nWhat it detects: the events {', '.join(fam.events)} take >= {FAMILY_PCT:g} % of "
                   f"DB time that no cause before it claimed: it claims that time.\nFigures beside it: "
                   f"{', '.join(fam.statistics) or 'the events themselves'}.\nWhat to do: {fam.action}\n"
                   "References: oracle/wait_families.tsv (Oracle Database Reference, wait events).")
    return run


for _fam in FAMILIES:
    rule(_fam.id, _fam.slug, _fam.title, family="general", pct=FAMILY_PCT)(_run(_fam))
