"""Uploads are parsed in separate processes, one per file, with a time and memory
limit, so a huge or hostile file cannot stall or crash the server.

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
from dataclasses import dataclass

from ..store.ingest import Failed, Prepared, prepare_bytes

_PRELOAD = ["awrscope.store.ingest", "awrscope.analysis", "awrscope.parsers", "awrscope.parsers.report.html"]


def _child(conn, name: str, data: bytes, max_bytes: int, config: dict | None, memory_bytes: int | None) -> None:
    if memory_bytes:
        try:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        except (ImportError, ValueError, OSError):  # not on this platform: the timeout still applies
            pass
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


@dataclass
class ParseLimits:
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
            recv.close()
            if proc.is_alive():
                proc.kill()
            proc.join(5)
            proc.close() if not proc.is_alive() else None
