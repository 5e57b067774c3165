"""The report store: Analysis JSON as the source of truth, indexed columns,
narrow finding and metric tables, the raw report compressed. Every write of one
report is one transaction, so an interrupted import leaves no half report."""
from __future__ import annotations

import json
import zlib
from concurrent.futures import ProcessPoolExecutor
from msgspec import Struct
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Iterator

from .. import __version__
from ..errors import InputError
from ..documents import all_findings
from ..parsers.source import DEFAULT_MAX_BYTES, Source, expand_inputs
from ..limits import MAX_FILTER_CHARS
from .backend import Connection, StoreError, connect, default_url
from .backend import migrate as _migrate
from .ingest import COMPRESSION, Failed, Prepared, decompress, prepare

LIST_COLUMNS = ("id", "sha256", "source_name", "bytes", "imported_at", "analyzed_at", "kind", "format", "version",
                "generation", "dbid", "db_name", "instance", "host", "begin_snap", "end_snap", "begin_time",
                "end_time", "elapsed_s", "db_time_s", "n_findings", "top_finding_id", "top_finding_title",
                "top_severity", "top_pct_db_time")
SEVERITIES = ["critical", "major", "moderate", "minor", "info"]

#: metrics a trend shows when none are asked for
DEFAULT_TREND_METRICS = ("aas", "db_cpu_s", "redo_rate_Bps", "commit_rate", "lfs_ms", "redo_write_ms")


class ImportResult(Struct, frozen=True):
    name: str
    status: str  # added | duplicate | skipped (found, not a report: message is why) | error
    id: int | None = None
    message: str | None = None
    db_name: str | None = None
    top_finding: str | None = None


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


class Store:
    def __init__(self, url: str | None = None, conn: Connection | None = None, migrate: bool = True):
        self.url = url or default_url()
        self.conn = conn or connect(self.url)
        if migrate:
            try:
                _migrate(self.conn)
            except BaseException:
                if conn is None and getattr(self.conn, "created", False):
                    self.conn.discard()  # a store this run began and could not set up (a full disk): no husk
                raise

    # -- context manager -------------------------------------------------------------------------------------
    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writes ----------------------------------------------------------------------------------------------
    def add(self, p: Prepared) -> tuple[int, bool]:
        """Store one analysed report; (id, True) when added, (existing id, False) when its content is known."""
        found = self.conn.execute("SELECT id FROM reports WHERE sha256 = ?", (p.sha256,))
        if found:
            return int(found[0][0]), False
        try:
            with self.conn.transaction():
                # checked again inside the write transaction: a parallel importer may have won
                found = self.conn.execute("SELECT id FROM reports WHERE sha256 = ?", (p.sha256,))
                if found:
                    return int(found[0][0]), False
                cols = self._report_columns(p.doc, p.meta)
                cols.update(sha256=p.sha256, source_name=p.name, bytes=p.size, imported_at=_now())
                names = list(cols)
                rid = int(self.conn.execute(
                    f"INSERT INTO reports ({', '.join(names)}) VALUES ({', '.join('?' * len(names))}) RETURNING id",
                    [cols[n] for n in names])[0][0])
                self.conn.execute("INSERT INTO report_sources (report_id, compression, data) VALUES (?, ?, ?)",
                                  (rid, COMPRESSION, p.raw_z))
                self._write_children(rid, p)
        except Exception as e:
            if _is_unique_violation(e):  # lost the race to a parallel importer of the same bytes
                found = self.conn.execute("SELECT id FROM reports WHERE sha256 = ?", (p.sha256,))
                if found:
                    return int(found[0][0]), False
            raise
        return rid, True

    def _write_children(self, rid: int, p: Prepared) -> None:
        if p.findings:
            self.conn.executemany("INSERT INTO findings (report_id, rank, rule_id, severity, confidence, pct_db_time, "
                                  "title) VALUES (?, ?, ?, ?, ?, ?, ?)", [(rid, *f) for f in p.findings])
        if p.metrics:
            self.conn.executemany("INSERT INTO metrics (report_id, metric, value, unit) VALUES (?, ?, ?, ?)",
                                  [(rid, *m) for m in p.metrics])

    @staticmethod
    def _report_columns(doc: dict, meta: dict) -> dict[str, Any]:
        findings = all_findings(doc)
        top = findings[0] if findings else None
        cols = dict(meta)
        cols.update(
            analyzed_at=_now(), awrscope_version=__version__, n_findings=len(findings),
            top_finding_id=top["id"] if top else None, top_finding_title=top.get("title") if top else None,
            top_severity=top["severity"] if top else None,
            top_pct_db_time=(top.get("impact") or {}).get("pct_db_time") if top else None,
            analysis_json=json.dumps(doc, ensure_ascii=False, default=str, allow_nan=False),
        )
        return cols

    def import_paths(self, paths: Iterable[str], max_bytes: int = DEFAULT_MAX_BYTES, config: dict | None = None,
                     jobs: int = 1, on_result: Callable[[ImportResult], None] | None = None) -> list[ImportResult]:
        """Import files, directories, globs and archives. Parsing runs on ``jobs`` processes;
        the writes stay in this process, one transaction per report."""
        from ..errors import AwrscopeError, skip_reason
        from ..parsers.source import iter_sources

        results: list[ImportResult] = []

        def emit(r: ImportResult) -> None:
            results.append(r)
            if on_result:
                on_result(r)

        def failure(name: str, e: AwrscopeError, found: bool) -> ImportResult:
            reason = skip_reason(e, found)
            return ImportResult(name, "skipped", message=reason) if reason else ImportResult(name, "error",
                                                                                             message=str(e))

        def sources() -> Iterator[Source]:
            for inp in expand_inputs(list(paths)):
                try:
                    srcs = iter_sources(inp, max_bytes)
                except AwrscopeError as e:
                    emit(failure(inp.path, e, inp.found))
                    continue
                for src in srcs:  # one archive member in memory at a time
                    if isinstance(src, AwrscopeError):
                        emit(failure(getattr(src, "source_name", inp.path), src, True))
                        continue
                    known = self.find_sha(src.sha256)  # idempotent and cheap: known bytes are never re-parsed
                    if known is not None:
                        emit(ImportResult(src.name, "duplicate", known))
                    else:
                        yield src

        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                pending = []
                for src in sources():
                    pending.append(pool.submit(prepare, src, config))
                    while len(pending) > 2 * jobs:  # bounded memory: keep a few reports in flight
                        emit(self.add_prepared(pending.pop(0).result()))
                for f in pending:
                    emit(self.add_prepared(f.result()))
        else:
            for src in sources():
                emit(self.add_prepared(prepare(src, config)))
        return results

    def add_prepared(self, item: Prepared | Failed) -> ImportResult:
        if isinstance(item, Failed):
            if item.skipped:
                return ImportResult(item.name, "skipped", message=item.skipped)
            return ImportResult(item.name, "error", message=item.message)
        try:
            rid, added = self.add(item)
        except StoreError as e:  # a full disk, a read-only file: this report is not stored, the next may be
            return ImportResult(item.name, "error", message=f"{item.name}: not stored ({e})")
        top = (all_findings(item.doc) or [{}])[0].get("title")
        return ImportResult(item.name, "added" if added else "duplicate", rid, db_name=item.meta.get("db_name"),
                            top_finding=top)

    def delete(self, rid: int) -> bool:
        if not _storable_id(rid):
            return False
        with self.conn.transaction():
            if not self.conn.execute("SELECT 1 FROM reports WHERE id = ?", (rid,)):
                return False
            # explicit child deletes: no reliance on ON DELETE CASCADE being enabled
            for table in ("metrics", "findings", "rendered_pages", "report_sources"):
                self.conn.execute(f"DELETE FROM {table} WHERE report_id = ?", (rid,))
            self.conn.execute("DELETE FROM reports WHERE id = ?", (rid,))
        return True

    def reanalyze(self, config: dict | None = None, ids: Iterable[int] | None = None,
                  on_result: Callable[[ImportResult], None] | None = None) -> list[ImportResult]:
        """Re-parse and re-analyse stored reports from their raw bytes (after a rule change)."""
        wanted = list(ids) if ids is not None else [r[0] for r in self.conn.execute("SELECT id FROM reports ORDER BY id")]
        results = []
        for rid in wanted:
            raw = self.raw(rid)
            if raw is None:
                r = ImportResult(str(rid), "error", rid, f"report {rid}: not in the store")
            else:
                name, sha, data = raw
                item = prepare(Source(name, data, sha, len(data)), config)
                if isinstance(item, Failed):
                    r = ImportResult(name, "error", rid, item.message)
                else:
                    cols = self._report_columns(item.doc, item.meta)
                    with self.conn.transaction():
                        self.conn.execute(f"UPDATE reports SET {', '.join(f'{k} = ?' for k in cols)} WHERE id = ?",
                                          [*cols.values(), rid])
                        self.conn.execute("DELETE FROM findings WHERE report_id = ?", (rid,))
                        self.conn.execute("DELETE FROM metrics WHERE report_id = ?", (rid,))
                        self.conn.execute("DELETE FROM rendered_pages WHERE report_id = ?", (rid,))
                        self._write_children(rid, item)
                    r = ImportResult(name, "reanalyzed", rid, db_name=item.meta.get("db_name"),
                                     top_finding=cols["top_finding_title"])
            results.append(r)
            if on_result:
                on_result(r)
        return results

    # -- reads -----------------------------------------------------------------------------------------------
    def _where(self, db: str | None = None, instance: str | None = None, since: str | None = None,
               until: str | None = None, finding: str | None = None, kind: str | None = None,
               severity: str | None = None) -> tuple[str, list]:
        clauses, params = [], []
        if any("\x00" in v for v in (db, instance, since, until, finding, kind, severity) if v):
            raise InputError("a filter value holds a NUL character")  # PostgreSQL refuses it, SQLite's LIKE stops at it
        longest = max((len(v) for v in (db, instance, since, until, finding, kind, severity) if v), default=0)
        if longest > MAX_FILTER_CHARS:  # SQLite refuses a LIKE pattern past 50,000 bytes; no stored name is this long
            raise InputError(f"a filter value of {longest:,} characters: at most {MAX_FILTER_CHARS:,}")
        if db:
            if db.isascii() and db.isdigit() and int(db) < 1 << 63:  # '²' is a digit to str.isdigit
                clauses.append("(dbid = ? OR UPPER(db_name) = ?)")
                params += [int(db), db.upper()]
            else:
                clauses.append("UPPER(db_name) = ?")
                params.append(db.upper())
        if instance:
            # instance holds 'a,b' for global reports: match one whole name
            clauses.append("(',' || LOWER(instance) || ',') LIKE ? ESCAPE '\\'")
            params.append(f"%,{_like_literal(instance.lower())},%")
        if since:
            clauses.append("end_time >= ?")
            params.append(since)
        if until:
            clauses.append("begin_time <= ?")
            params.append(until if len(until) > 10 else until + " 23:59:59")
        if kind:
            clauses.append("kind = ?")
            params.append(kind)
        if finding or severity:
            sub = ["f.report_id = reports.id"]
            if finding:
                sub.append("(UPPER(f.rule_id) = ? OR LOWER(f.title) LIKE ? ESCAPE '\\')")
                params += [finding.upper(), f"%{_like_literal(finding.lower())}%"]
            if severity:
                sub.append("f.severity IN (" + ", ".join("?" * (SEVERITIES.index(severity) + 1)) + ")")
                params += SEVERITIES[:SEVERITIES.index(severity) + 1]
            clauses.append(f"EXISTS (SELECT 1 FROM findings f WHERE {' AND '.join(sub)})")
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params

    def list(self, limit: int = 100, offset: int = 0, **filters: Any) -> list[dict]:
        where, params = self._where(**filters)
        rows = self.conn.execute(
            f"SELECT {', '.join(LIST_COLUMNS)} FROM reports{where} "
            "ORDER BY db_name, begin_time, instance, id LIMIT ? OFFSET ?", [*params, int(limit), int(offset)])
        return [dict(zip(LIST_COLUMNS, r)) for r in rows]

    def count(self, **filters: Any) -> int:
        where, params = self._where(**filters)
        return int(self.conn.execute(f"SELECT COUNT(*) FROM reports{where}", params)[0][0])

    def get(self, rid: int) -> dict | None:
        if not _storable_id(rid):
            return None  # SQLite's INTEGER holds none larger: no report has it (10**30 was an OverflowError)
        rows = self.conn.execute(f"SELECT {', '.join(LIST_COLUMNS)}, analysis_json FROM reports WHERE id = ?", (rid,))
        if not rows:
            return None
        rec = dict(zip(LIST_COLUMNS, rows[0][:-1]))
        rec["analysis"] = json.loads(rows[0][-1])
        return rec

    def find_sha(self, sha256: str) -> int | None:
        rows = self.conn.execute("SELECT id FROM reports WHERE sha256 = ?", (sha256,))
        return int(rows[0][0]) if rows else None

    def raw(self, rid: int) -> tuple[str, str, bytes] | None:
        if not _storable_id(rid):
            return None
        rows = self.conn.execute("SELECT r.source_name, r.sha256, s.compression, s.data FROM reports r "
                                 "JOIN report_sources s ON s.report_id = r.id WHERE r.id = ?", (rid,))
        if not rows:
            return None
        name, sha, comp, data = rows[0]
        return name, sha, decompress(bytes(data), comp)

    def rendered(self, rid: int, page: str, renderer: str) -> str | None:
        """A page drawn before for this report by this renderer, or None."""
        rows = self.conn.execute("SELECT html FROM rendered_pages WHERE report_id = ? AND page = ? AND renderer = ?",
                                 (rid, page, renderer))
        return zlib.decompress(bytes(rows[0][0])).decode("utf-8") if rows else None

    def keep_rendered(self, rid: int, page: str, renderer: str, html: str) -> None:
        data = zlib.compress(html.encode("utf-8"), 6)
        with self.conn.transaction():
            if not self.conn.execute("SELECT 1 FROM reports WHERE id = ?", (rid,)):
                return  # deleted meanwhile
            self.conn.execute("DELETE FROM rendered_pages WHERE report_id = ? AND page = ?", (rid, page))
            self.conn.execute("INSERT INTO rendered_pages (report_id, page, renderer, html) VALUES (?, ?, ?, ?)",
                              (rid, page, renderer, data))

    def databases(self) -> list[dict]:
        rows = self.conn.execute(
            "SELECT db_name, dbid, COUNT(*), MIN(begin_time), MAX(end_time) FROM reports "
            "GROUP BY db_name, dbid ORDER BY db_name, dbid")
        return [{"db_name": r[0], "dbid": r[1], "reports": int(r[2]), "first": r[3], "last": r[4]} for r in rows]

    def metric_names(self, db: str | None = None) -> list[str]:
        where, params = self._where(db=db)
        rows = self.conn.execute(f"SELECT DISTINCT metric FROM metrics WHERE report_id IN "
                                 f"(SELECT id FROM reports{where}) ORDER BY metric", params)
        return [r[0] for r in rows]

    def trend(self, db: str, metrics: Iterable[str] | None = None, instance: str | None = None,
              since: str | None = None, until: str | None = None) -> dict:
        """Time series of metrics for one database: one point per report, ordered by begin time."""
        wanted = list(metrics or DEFAULT_TREND_METRICS)
        where, params = self._where(db=db, instance=instance, since=since, until=until)
        marks = ", ".join("?" * len(wanted))
        rows = self.conn.execute(
            f"SELECT r.id, r.begin_time, r.end_time, r.instance, m.metric, m.value, m.unit FROM metrics m "
            f"JOIN (SELECT * FROM reports{where}) r ON r.id = m.report_id WHERE m.metric IN ({marks}) "
            "ORDER BY r.begin_time, r.instance, r.id", [*params, *wanted])
        series: dict[str, dict] = {m: {"metric": m, "unit": None, "points": []} for m in wanted}
        for rid, begin, end, inst, metric, value, unit in rows:
            s = series[metric]
            s["unit"] = s["unit"] or unit
            s["points"].append({"report_id": rid, "begin_time": begin, "end_time": end, "instance": inst,
                                "value": value})
        first = self.list(limit=1, db=db, instance=instance, since=since, until=until)
        return {"db": db, "db_name": first[0]["db_name"] if first else None, "instance": instance,
                "reports": self.count(db=db, instance=instance, since=since, until=until),
                "series": [series[m] for m in wanted]}

    def trend_windows(self, db: str, instance: str | None = None, since: str | None = None,
                      until: str | None = None, config: dict | None = None) -> list[dict]:
        """awrscope.change.trend windows of one database's reports, in time order. Rows stored before
        migration 002 get theirs computed from the stored bytes once, then kept."""
        from ..parsers import parse_source
        from .ingest import trend_windows_json

        where, params = self._where(db=db, instance=instance, since=since, until=until)
        rows = self.conn.execute(f"SELECT id, trend_windows FROM reports{where} ORDER BY begin_time, id", params)
        windows: list[dict] = []
        for rid, text in rows:
            if text is None:
                raw = self.raw(rid)
                try:
                    name, sha, data = raw
                    text = trend_windows_json(parse_source(Source(name, data, sha, len(data))), config)
                except Exception:
                    text = None
                if text is None:
                    continue
                with self.conn.transaction():
                    self.conn.execute("UPDATE reports SET trend_windows = ? WHERE id = ?", (text, rid))
            for w in json.loads(text):
                w["report_id"] = rid
                windows.append(w)
        return windows

    def iter_ids(self) -> Iterator[int]:
        for r in self.conn.execute("SELECT id FROM reports ORDER BY id"):
            yield int(r[0])


def _storable_id(rid: int) -> bool:
    """A report id the store's INTEGER column can hold: any other names no report."""
    return isinstance(rid, int) and 0 < rid < 1 << 63


def _like_literal(text: str) -> str:
    """Text matched literally inside a LIKE pattern (ESCAPE '\\'): '%' and '_' are not wildcards."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _is_unique_violation(e: Exception) -> bool:
    import sqlite3

    if isinstance(e, sqlite3.IntegrityError):
        return "UNIQUE" in str(e)
    return type(e).__name__ == "UniqueViolation"


def open_store(url: str | None = None) -> Store:
    return Store(url)
