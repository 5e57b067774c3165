"""The JSON contract of ``awrscope parse`` (see docs/schema.md, docs/parse.schema.json)."""
from __future__ import annotations

from .model import SCHEMA_VERSION, Report


def report_summary(r: Report) -> dict:
    h = r.header
    return {
        "kind": r.kind,
        "format": r.format,
        "version": r.version,
        "generation": r.generation,
        "db_name": h.db_name,
        "dbid": h.dbid,
        "unique_name": h.unique_name,
        "instance_names": r.instance_names,
        "instances": [i.as_dict() for i in h.instances],
        "host": h.host,
        "platform": h.platform,
        "cpus": h.cpus,
        "cores": h.cores,
        "sockets": h.sockets,
        "memory_gb": h.memory_gb,
        "rac": h.rac,
        "cdb": h.cdb,
        "container": h.container,
        "begin": _snap(h.begin),
        "end": _snap(h.end),
        "elapsed_s": _round(r.elapsed_s),
        "db_time_s": _round(r.db_time_s),
    }


def _snap(s) -> dict:
    if s is None:
        return {"snap_id": None, "time": None}
    return s.as_dict()


def _round(v: float | None) -> float | None:
    return None if v is None else round(v, 6)


def parse_document(r: Report) -> dict:
    doc = {
        "schema_version": SCHEMA_VERSION,
        "source": {"path": r.source_path, "sha256": r.source_sha256, "bytes": r.source_bytes},
        "report": report_summary(r),
        "sections": {k: s.as_dict() for k, s in r.sections.items()},
        "issues": [i.as_dict() for i in r.issues],
    }
    if r.periods:
        doc["periods"] = [parse_document(p) for p in r.periods]
    if r.diff:
        doc["diff"] = {k: s.as_dict() for k, s in r.diff.items()}
    return doc
