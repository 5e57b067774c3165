"""Turn report bytes into what the store keeps: the Analysis JSON (the source of
truth), the indexed columns, the narrow metric and finding rows, the compressed raw bytes.

Everything here is picklable and free of database access, so it runs in worker
processes (``db import -j``, the web app's upload pool).
"""
from __future__ import annotations

import math
import zlib
from msgspec import Struct, field

from ..documents import all_findings
from ..errors import AwrscopeError, InputError, internal_message, skip_reason
from ..parsers.source import DEFAULT_MAX_BYTES, Source, iter_sources, sources_of_bytes

COMPRESSION = "zlib"


class Prepared(Struct):
    """One analysed report, ready to be written in one transaction."""

    name: str
    sha256: str
    size: int
    raw_z: bytes
    doc: dict
    meta: dict  # the indexed columns of the reports table
    metrics: list[tuple[str, float, str | None]] = field(default_factory=list)
    findings: list[tuple[int, str, str, str | None, float | None, str]] = field(default_factory=list)


class Failed(Struct):
    name: str
    message: str
    skipped: str | None = None  # why a found file (an archive member) is skipped: not a report, binary...


def prepare(src: Source, config: dict | None = None) -> Prepared | Failed:
    """Parse and analyse one source. Never raises for a bad input: returns Failed with one line."""
    from ..analysis import analyze
    from ..parsers import parse_source

    try:
        report = parse_source(src)
        doc = analyze(report, config or {})
    except AwrscopeError as e:
        return Failed(src.name, str(e), skip_reason(e, src.found))
    except RecursionError:
        return Failed(src.name, f"{src.name}: the report is nested too deeply to read")
    except MemoryError:
        return Failed(src.name, f"{src.name}: not enough memory to read this report")
    except Exception as e:  # an analyser bug must not stop an import of many files
        return Failed(src.name, internal_message(src.name, e))
    h = report.header
    meta = {
        "kind": report.kind,
        "format": report.format,
        "version": report.version,
        "generation": report.generation,
        "dbid": h.dbid,
        "db_name": h.db_name,
        "instance": ",".join(report.instance_names) or None,
        "host": h.host,
        "begin_snap": h.begin.snap_id if h.begin else None,
        "end_snap": h.end.snap_id if h.end else None,
        "begin_time": _ts(h.begin.time) if h.begin else None,
        "end_time": _ts(h.end.time) if h.end else None,
        "elapsed_s": _num(report.elapsed_s),
        "db_time_s": _num(report.db_time_s),
    }
    meta["trend_windows"] = trend_windows_json(report, config)
    return Prepared(src.name, src.sha256, src.size, zlib.compress(src.data, 6), doc, meta,
                    metric_rows(doc), finding_rows(doc))


def trend_windows_json(report, config: dict | None = None) -> str | None:
    """awrscope.change.trend's windows of a report as JSON; None when they cannot be built (the trend then skips it)."""
    import json

    from ..change.trend import windows_of

    try:
        return json.dumps(windows_of(report, config or {}), ensure_ascii=False, default=str, allow_nan=False)
    except Exception:  # a trend window is a convenience; the analysis is what must be stored
        return None


def prepare_path(path: str, max_bytes: int = DEFAULT_MAX_BYTES, config: dict | None = None) -> list[Prepared | Failed]:
    """A file or archive to one result per report inside it."""
    try:
        return [_prepared(item, path, config) for item in iter_sources(path, max_bytes)]
    except AwrscopeError as e:
        return [Failed(path, str(e))]


def prepare_bytes(name: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES,
                  config: dict | None = None) -> list[Prepared | Failed]:
    """Uploaded bytes (plain, .gz or .zip) to one result per report, with the same limits and the same rule
    as files: the upload itself is named (not a report is an error), an archive's members are found (skipped)."""
    try:
        return [_prepared(item, name, config) for item in sources_of_bytes(name, data, max_bytes)]
    except AwrscopeError as e:
        return [Failed(name, str(e))]
    except Exception as e:  # a hostile archive must give a message, not a traceback
        return [Failed(name, f"{name}: not a readable archive ({type(e).__name__})")]


def _prepared(item: Source | AwrscopeError, name: str, config: dict | None) -> Prepared | Failed:
    if isinstance(item, AwrscopeError):
        return Failed(getattr(item, "source_name", name), str(item), skip_reason(item, True))
    return prepare(item, config)


def metric_rows(doc: dict) -> list[tuple[str, float, str | None]]:
    rows = []
    for mid, m in (doc.get("metrics") or {}).items():
        v = _num(m.get("value")) if isinstance(m, dict) else None
        if v is not None:
            rows.append((mid, v, m.get("unit")))
    return rows


def finding_rows(doc: dict) -> list[tuple[int, str, str, str | None, float | None, str]]:
    return [(i, f["id"], f["severity"], f.get("confidence"), _num((f.get("impact") or {}).get("pct_db_time")),
             f.get("title") or f["id"]) for i, f in enumerate(all_findings(doc))]


def decompress(raw_z: bytes, compression: str) -> bytes:
    if compression != COMPRESSION:
        raise InputError(f"unknown compression {compression!r} in the store")
    return zlib.decompress(raw_z)


def _ts(t) -> str | None:
    return t.strftime("%Y-%m-%d %H:%M:%S") if t else None


def _num(v) -> float | None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    v = float(v)
    return v if math.isfinite(v) else None
