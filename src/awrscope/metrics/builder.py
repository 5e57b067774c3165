"""The metric builder every metric family writes through: one place that attaches the
unit and formula of the catalogue and the provenance (section, row, line) of each input."""
from __future__ import annotations

from ..model import Report, Row
from .catalog import BY_ID
from .values import Metrics, MetricValue, Source, rounding_error


#: Load Profile rows that print the same figure per second as an Instance Activity statistic (AWR 'Redo size
#: (bytes):', Statspack and AWR 10g 'Redo size:').
_LOAD_PROFILE_NAMES = {"redo size": ("redo size (bytes)", "redo size")}


class Builder:
    def __init__(self, report: Report, alpha: float):
        self.r = report
        self.m = Metrics(alpha=alpha)

    # -- output ----------------------------------------------------------
    def put(self, id: str, value: float | None, sources=(), note: str | None = None, low: bool = False,
            unit: str | None = None, formula: str | None = None, reason: str | None = None) -> float | None:
        d = BY_ID.get(id.split("[")[0])
        unit = unit or (d.unit if d else "")
        formula = formula or (d.formula if d else "")
        if value is None and reason is None:
            reason = "MISSING_INPUT"
        self.m.values[id] = MetricValue(id, value, unit, formula, tuple(s for s in sources if s), reason if value is None else None,
                                        note, low)
        return value

    def miss(self, id: str, reason: str = "MISSING_INPUT", note: str | None = None, sources=()) -> None:
        self.put(id, None, sources, note=note, reason=reason)

    # -- inputs ----------------------------------------------------------
    def stat(self, name: str) -> tuple[float | None, Source | None, str | None]:
        """(value, source, reason) of an Instance Activity statistic total."""
        sec = self.r.sections.get("instance_activity")
        if sec is None:
            return None, None, "MISSING_INPUT"
        row = sec.row(name)
        if row is None:
            return None, None, "MISSING_INPUT"
        v = row.values.get("total")
        src = Source("instance_activity", row.name, "total", row.line, v)
        return v, src, (None if v is not None else "OVERFLOW")

    def stats(self, *names: str):
        """Values, sources and first reason for several statistics."""
        vals, srcs, reason = [], [], None
        for n in names:
            v, s, why = self.stat(n)
            vals.append(v)
            srcs.append(s)
            if v is None and reason is None:
                reason = why
        return vals, srcs, reason

    def ratio(self, id: str, num, den, srcs, scale: float = 1.0, reason: str | None = None, note: str | None = None,
              low: bool = False) -> float | None:
        if num is None or den is None:
            self.miss(id, reason or "MISSING_INPUT", sources=srcs)
            return None
        if den == 0:
            self.miss(id, "DIV_ZERO", sources=srcs)
            return None
        return self.put(id, scale * num / den, srcs, note=note, low=low)

    def rate(self, id: str, stat_name: str, elapsed_src_value: float | None) -> float | None:
        """A statistic per second: the report's printed 'per Second' figure (computed by Oracle from
        the exact snapshot times) unless total / elapsed is finer, which it is only when the elapsed
        time is itself printed more finely than the rate (``elapsed_src_value``: the printed minutes)."""
        sec = self.r.sections.get("instance_activity")
        row = sec.row(stat_name) if sec else None
        total, src, reason = self.stat(stat_name)
        e = self.m.v("elapsed_s")
        printed = row.values.get("per_second") if row is not None else None
        if printed is not None and printed > 0 and total:
            err_printed = rounding_error(printed)
            err_computed = rounding_error(total) + (rounding_error(elapsed_src_value) if elapsed_src_value else 0.0)
            if err_printed <= err_computed:
                return self.put(id, printed, [Source("instance_activity", row.name, "per_second", row.line, printed)],
                                note="printed per Second (finer than total / elapsed)")
        if total is None and printed is None:
            lp = self._load_profile_row(stat_name)
            if lp is not None:  # a report cut before Instance Activity Stats, or printing none (compare pages)
                v = lp.values["per_second"]
                return self.put(id, v, [Source("load_profile", lp.name, "per_second", lp.line, v)],
                                formula=f"Load Profile '{lp.name}' per Second",
                                note="no Instance Activity Statistics in this report")
        return self.ratio(id, total, e, [src], reason=reason)

    def _load_profile_row(self, stat_name: str) -> Row | None:
        sec = self.r.sections.get("load_profile")
        if sec is None:
            return None
        for name in _LOAD_PROFILE_NAMES.get(stat_name, ()):
            row = sec.row(name)
            if row is not None and row.values.get("per_second") is not None:
                return row
        return None

    def os_stat(self, name: str) -> tuple[float | None, Source | None]:
        sec = self.r.sections.get("os_stats")
        row = sec.row(name) if sec else None
        if row is None:
            return None, None
        v = row.values.get("value")
        return v, Source("os_stats", row.name, "value", row.line, v)

    def time_model(self, name: str) -> tuple[float | None, Source | None]:
        sec = self.r.sections.get("time_model")
        row = sec.row(name) if sec else None
        if row is None or row.values.get("time_s") is None:
            return None, None
        v = row.values["time_s"]
        return v, Source("time_model", row.name, "time_s", row.line, v)

def row_source(section: str, row: Row, field: str) -> Source:
    return Source(section, row.name, field, row.line, row.values.get(field))
