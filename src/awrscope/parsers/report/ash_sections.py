"""The ASH sections an AWR report prints since 11.2 (Top SQL with Top Events, Top DB Objects, Top Blocking
Sessions; Activity Over Time since 12.1), read by the ASH report's own mappers: the same package writes them in
both reports, in the same layouts. They tie a statement, an object or a blocking session to the event it was
sampled on, which the AWR's 'SQL ordered by' lists do not, and show when in the window the time was spent."""
from __future__ import annotations

from ...model import ParseIssue, Section
from ..ash import map_table
from ..ash.records import Table, group_rows, squash
from ..ash.sections import Context, lookup as ash_lookup
from ..ash.text import read_levels, records_from_text, widths
from .raw import Block

#: The ASH sections read in an AWR report: those that name who waited on which event, and when
KEYS = frozenset({"ash_top_sql", "ash_top_objects", "ash_top_blockers", "ash_activity_over_time"})


def is_ash_section(title: str) -> bool:
    """Whether a section title is one of the ASH sections read in an AWR report."""
    spec = ash_lookup(title)
    return spec is not None and spec.key in KEYS


def map_ash_blocks(blocks: list[Block], sections: dict[str, Section], issues: list[ParseIssue],
                   db_time_s: float | None) -> None:
    """Add the AWR report's ASH sections of :data:`KEYS` to ``sections`` (the first printing of each)."""
    ctx = Context(db_time_s, None, issues)
    for block in blocks:
        spec = ash_lookup(block.title)
        if spec is None or spec.key not in KEYS or spec.key in sections:
            continue
        if block.format == "html":
            rows = [(line, {n: c for n, c in zip(map(squash, t.columns), cells) if n})
                    for t in block.tables[:1] for line, cells in t.rows]
            table = Table(block.title, block.line, group_rows(rows, spec.starts), {}, "html")
        else:
            levels, rows = read_levels([(block.first_line + k, line) for k, line in enumerate(block.lines)])
            table = Table(block.title, block.line, records_from_text(levels, rows, spec.starts, spec.free_text),
                          widths(levels), "text")
        sec = map_table(table, spec, ctx)
        if sec is not None and sec.rows:
            sections[spec.key] = sec
            sections.update((k, s) for k, s in ctx.derived.items() if k not in sections)  # a slot's events
