"""Uploads are parsed in separate processes, one per file, with a time and memory
limit, so a huge or hostile file cannot stall or crash the server. So are the
stored reports that a report or compare page needs parsed again (their
histograms and section tables): the server process itself never parses a
report, and holds only what a page shows.

Each job gets its own process forked from a forkserver that has awrscope
imported already (a few milliseconds per job): a job that runs too long is
killed alone, without disturbing the uploads parsed beside it. This is
concurrent.futures' ProcessPoolExecutor minus its one weakness here: a pool
cannot kill one task.
"""
from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
from msgspec import Struct

from ..store.ingest import Failed, Prepared, prepare_bytes

_PRELOAD = ["awrscope.store.ingest", "awrscope.analysis", "awrscope.parsers", "awrscope.parsers.report.html",
            "awrscope.render.html", "awrscope.change.compare", "awrscope.store.store"]


def _cap_memory(memory_bytes: int | None) -> None:
    if memory_bytes:
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        except (ImportError, ValueError, OSError):  # not on this platform: the timeout still applies
            pass


def _child(conn, name: str, data: bytes, max_bytes: int, config: dict | None, memory_bytes: int | None) -> None:
    _cap_memory(memory_bytes)
    try:
        result = prepare_bytes(name, data, max_bytes, config)
    except MemoryError:
        result = [Failed(name, f"{name}: needs more memory than an upload may use")]
    except BaseException as e:  # never let a child die silently
        result = [Failed(name, f"{name}: could not be read ({type(e).__name__})")]
    try:
        conn.send(result)
    except MemoryError:
        conn.send([Failed(name, f"{name}: needs more memory than an upload may use")])
    conn.close()


class PageRefused(Exception):
    """A page the worker could not draw: an HTTP status and a message for the user."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def _page_child(conn, url: str, kind: str, ids: tuple[int, ...], config: dict | None, memory_bytes: int | None,
                renderer: str) -> None:
    _cap_memory(memory_bytes)
    try:
        result = ("ok", _draw(url, kind, ids, config, renderer))
    except PageRefused as e:
        result = ("refused", e.status, e.message)
    except MemoryError:
        result = ("refused", 503, _too_big(memory_bytes, ids))
    except BaseException as e:  # never let a child die silently
        from .failures import environment_failure

        status, message = environment_failure(e) or (500, f"Internal error ({type(e).__name__}) while drawing "
                                                          "the page.")
        result = ("refused", status, message)
    try:
        conn.send(result)
    except MemoryError:
        conn.send(("refused", 503, _too_big(memory_bytes, ids)))
    conn.close()


def _too_big(memory_bytes: int | None, ids: tuple[int, ...], died: bool = False) -> str:
    cap = f" ({memory_bytes / 2 ** 30:.1f} GiB)" if memory_bytes else ""
    what = ("The worker drawing this page stopped: it needed more memory than one page may use" + cap +
            ", or the report crashed the parser.") if died else \
        f"Drawing this page needs more memory than one page may use{cap}."
    return f"{what} {_still_there(ids)}"


def _still_there(ids: tuple[int, ...]) -> str:
    return "The stored analysis is still served as JSON: " + ", ".join(f"/api/reports/{i}" for i in ids) + "."


def _draw(url: str, kind: str, ids: tuple[int, ...], config: dict | None, renderer: str):
    """'analysis': the analysis page's body (str), kept in the store when drawn from the parsed report;
    'compare': (compare document, its page body)."""
    from ..parsers import parse_source
    from ..parsers.source import Source
    from ..store import Store
    from .embed import analysis_html, compare_html

    def raw_of(s, rid):
        raw = s.raw(rid)
        if raw is None:
            raise PageRefused(404, f"No report #{rid} in the store.")
        return raw

    if kind == "analysis":
        [rid] = ids
        with Store(url, migrate=False) as s:
            rec = s.get(rid)
            if rec is None:
                raise PageRefused(404, f"No report #{rid} in the store.")
            name, sha, data = raw_of(s, rid)
        try:
            report = parse_source(Source(name, data, sha, len(data)))
        except MemoryError:
            raise
        except Exception:  # the stored analysis is still worth showing without the parsed sections
            report = None
        del data
        html = str(analysis_html(rec["analysis"], report))
        if report is not None:
            try:
                with Store(url, migrate=False) as s:
                    s.keep_rendered(rid, "analysis", renderer, html)
            except Exception:  # noqa: BLE001 - a page not kept is drawn again next time, nothing worse
                pass
        return html
    from ..change.compare import compare

    a, b = ids
    reports = []
    for rid in (a, b):
        with Store(url, migrate=False) as s:
            name, sha, data = raw_of(s, rid)
        try:
            reports.append(parse_source(Source(name, data, sha, len(data))))
        except MemoryError:
            raise
        except Exception as e:
            raise PageRefused(422, f"Report #{rid} cannot be read again for a comparison ({type(e).__name__}: "
                                   f"{str(e)[:200]}).")
        del data
    try:
        doc = compare(reports[0], reports[1], config)
    except ValueError as e:
        raise PageRefused(422, str(e))
    doc["store_ids"] = {"before": a, "after": b}
    return doc, str(compare_html(doc))


class ParseLimits(Struct):
    max_bytes: int = 64 * 1024 * 1024  # per report, after decompression
    timeout_s: float = 60.0
    memory_bytes: int | None = 3 * 1024 ** 3
    workers: int = max(1, min(4, os.cpu_count() or 1))


class ParsePool:
    def __init__(self, limits: ParseLimits | None = None, config: dict | None = None):
        self.limits = limits or ParseLimits()
        self.config = config or {}
        method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        self._ctx = mp.get_context(method)
        if method == "forkserver":
            self._ctx.set_forkserver_preload(_PRELOAD)
        self._slots: asyncio.Semaphore | None = None

    def slot(self) -> asyncio.Semaphore:
        """Held while an upload's bytes are in memory, from reading them to the parse's end: however many
        uploads arrive at once, at most ``workers`` files are held (the rest wait on disk, where the form
        parser spooled them)."""
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.limits.workers)
        return self._slots

    async def parse(self, name: str, data: bytes) -> list[Prepared | Failed]:
        async with self.slot():
            return await self.parse_held(name, data)

    async def parse_held(self, name: str, data: bytes) -> list[Prepared | Failed]:
        """parse() for a caller already holding a slot()."""
        return await asyncio.to_thread(self._run, name, data)

    async def draw(self, url: str, kind: str, ids: tuple[int, ...], renderer: str):
        """A page of stored reports drawn in a worker (see _draw); raises PageRefused. Shares the upload
        slots: however many pages and uploads are asked for at once, at most ``workers`` workers run."""
        async with self.slot():
            return await asyncio.to_thread(self._run_page, url, kind, ids, renderer)

    def _run_page(self, url: str, kind: str, ids: tuple[int, ...], renderer: str):
        recv, send = self._ctx.Pipe(duplex=False)
        proc = self._ctx.Process(target=_page_child, args=(send, url, kind, ids, self.config, self.limits.memory_bytes,
                                                           renderer), daemon=True)
        proc.start()
        send.close()
        try:
            if recv.poll(self.limits.timeout_s):
                try:
                    answer = recv.recv()
                except (EOFError, OSError):  # the child died before answering: killed by the memory limit
                    raise PageRefused(503, _too_big(self.limits.memory_bytes, ids, died=True)) from None
                if answer[0] == "ok":
                    return answer[1]
                raise PageRefused(answer[1], answer[2])
            raise PageRefused(503, f"Drawing this page took longer than the {self.limits.timeout_s:g} s a page may "
                                   f"take (--parse-timeout). {_still_there(ids)}")
        finally:
            _reap(recv, proc)

    def _run(self, name: str, data: bytes) -> list[Prepared | Failed]:
        recv, send = self._ctx.Pipe(duplex=False)
        proc = self._ctx.Process(target=_child, args=(send, name, data, self.limits.max_bytes, self.config,
                                                      self.limits.memory_bytes), daemon=True)
        proc.start()
        send.close()
        try:
            if recv.poll(self.limits.timeout_s):
                try:
                    return recv.recv()
                except (EOFError, OSError):  # the child died before answering: killed by the memory limit
                    return [Failed(name, f"{name}: the parser stopped on this file (out of memory or crashed)")]
            return [Failed(name, f"{name}: reading took longer than {self.limits.timeout_s:g} s; refused")]
        finally:
            _reap(recv, proc)


def _reap(recv, proc) -> None:
    """Close the answer pipe and make sure the child is gone (killed if it still runs), whatever happened."""
    recv.close()
    if proc.is_alive():
        proc.kill()
    proc.join(5)
    if not proc.is_alive():
        proc.close()
