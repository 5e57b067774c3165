"""Load many inputs at once: one task per input file, run in a process pool on
all cores when there are several, with a progress bar on stderr when it is a
terminal. Every input yields rows ``(name, result or None, error or None)``;
one bad input never stops the others and is never dropped."""
from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Callable

from .errors import AwrscopeError, internal_message
from .parsers import parse_source
from .parsers.source import expand_inputs, read_sources

Row = tuple[str, object, "str | None"]


def parse_one(path: str, max_bytes: int, then: Callable | None = None) -> list[Row]:
    """Parse every report in one input (a file, a .gz or a .zip); ``then(report)`` maps a parsed report
    (e.g. to its analysis) inside the worker, so only small picklable results travel back."""
    try:
        sources = read_sources(path, max_bytes)
    except AwrscopeError as e:
        return [(path, None, str(e))]
    out: list[Row] = []
    for src in sources:
        try:
            rep = parse_source(src)
            out.append((src.name, then(rep) if then else rep, None))
        except AwrscopeError as e:
            out.append((src.name, None, str(e)))
        except RecursionError:
            out.append((src.name, None, f"{src.name}: the report is nested too deeply to read"))
        except MemoryError:
            out.append((src.name, None, f"{src.name}: not enough memory to read this report"))
        except Exception as e:  # noqa: BLE001 - one report's bug never stops the run
            out.append((src.name, None, internal_message(src.name, e)))
    return out


def _task(args: tuple) -> list[Row]:
    return parse_one(*args)


def load_many(paths: list[str] | tuple[str, ...], max_bytes: int, then: Callable | None = None,
              workers: int | None = None, progress: bool | None = None) -> list[Row]:
    """Rows in input order. ``then`` must be a module-level function when several inputs run in processes."""
    try:
        inputs = expand_inputs(list(paths))
    except AwrscopeError as e:
        return [("", None, str(e))]
    if progress is None:
        progress = sys.stderr.isatty()
    workers = workers or os.cpu_count() or 1
    tasks = [(p, max_bytes, then) for p in inputs]
    results: list[list[Row]] = []
    if len(tasks) <= 1 or workers <= 1 or "-" in inputs:
        for t in _bar(map(_task, tasks), len(tasks), progress):
            results.append(t)
    else:
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
            for t in _bar(pool.map(_task, tasks, chunksize=1), len(tasks), progress):
                results.append(t)
    return [row for rows in results for row in rows]


def _bar(it, total: int, show: bool):
    """A tiny progress bar on stderr (only on a terminal, only for several inputs)."""
    if not show or total < 2:
        yield from it
        return
    width = 30
    for k, x in enumerate(it, 1):
        done = int(width * k / total)
        sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {k}/{total} reports")
        sys.stderr.flush()
        yield x
    sys.stderr.write("\n")
