"""Load many inputs at once: one task per input file, run in a process pool on
all cores when there are several, with a progress bar on stderr when it is a
terminal. Every input yields rows ``(name, result or None, error or None)``;
one bad input never stops the others and is never dropped."""
from __future__ import annotations

import os
import sys
from msgspec import Struct
from typing import Callable

from .errors import AwrscopeError, internal_message, skip_reason
from .parsers import parse_source
from .parsers.source import Input, expand_inputs, iter_sources

Row = tuple[str, object, "str | None"]


class Skip(Struct, frozen=True):
    """A found file that is not a report, in place of a row's error: summed up, not reported one by one."""
    reason: str
    message: str


def parse_one(inp: Input | str, max_bytes: int, then: Callable | None = None) -> list[Row]:
    """Parse every report in one input (a file, a .gz or a .zip, one member at a time); ``then(report)`` maps
    a parsed report (e.g. to its analysis) inside the worker, so only small picklable results travel back."""
    inp = Input(inp) if isinstance(inp, str) else inp
    try:
        sources = iter_sources(inp, max_bytes)
    except AwrscopeError as e:
        return [_failure(inp.path, e, inp.found)]
    out: list[Row] = []
    for src in sources:
        if isinstance(src, AwrscopeError):  # an archive member that cannot be read
            out.append(_failure(getattr(src, "source_name", inp.path), src, True))
            continue
        try:
            rep = parse_source(src)
            out.append((src.name, then(rep) if then else rep, None))
        except AwrscopeError as e:
            out.append(_failure(src.name, e, src.found))
        except RecursionError:
            out.append((src.name, None, f"{src.name}: the report is nested too deeply to read"))
        except MemoryError:
            out.append((src.name, None, f"{src.name}: not enough memory to read this report"))
        except Exception as e:  # noqa: BLE001 - one report's bug never stops the run
            out.append((src.name, None, internal_message(src.name, e)))
    return out


def _failure(name: str, e: AwrscopeError, found: bool) -> tuple:
    reason = skip_reason(e, found)
    return (name, None, Skip(reason, str(e)) if reason else str(e))


def _size(path: str) -> int:
    """Bytes of a file on disk (an archive's, a compressed file's), 0 where it cannot be told."""
    try:
        return os.stat(path).st_size
    except (OSError, ValueError):
        return 0


def _task(args: tuple) -> list[Row]:
    return parse_one(*args)


def load_many(paths: list[str] | tuple[str, ...], max_bytes: int, then: Callable | None = None,
              workers: int | None = None, progress: bool | None = None,
              skipped: list[tuple[str, str]] | None = None) -> list[Row]:
    """Rows in input order. ``then`` must be a module-level function when several inputs run in processes.
    Files found in directories, globs and archives that are not reports go to ``skipped`` as (name, reason)
    (see :func:`skip_summary`); without that list they are error rows like any other."""
    try:
        inputs = expand_inputs(list(paths))
    except AwrscopeError as e:
        return [("", None, str(e))]
    if progress is None:
        progress = sys.stderr.isatty()
    workers = workers or os.cpu_count() or 1
    tasks = [(inp, max_bytes, then) for inp in inputs]
    results: list[list[Row]] = []
    if len(tasks) <= 1 or workers <= 1 or any(inp.path == "-" for inp in inputs):
        for t in _bar(map(_task, tasks), len(tasks), progress):
            results.append(t)
    else:
        from concurrent.futures import ProcessPoolExecutor  # 10 ms of imports one input never needs

        # the largest inputs first: the workers finish together instead of one parsing the last big report alone
        order = sorted(range(len(tasks)), key=lambda k: -_size(inputs[k].path))
        results = [[]] * len(tasks)
        with ProcessPoolExecutor(max_workers=min(workers, len(tasks))) as pool:
            done = pool.map(_task, [tasks[k] for k in order], chunksize=1)
            for k, t in zip(order, _bar(done, len(tasks), progress)):
                results[k] = t
    rows: list[Row] = []
    for name, value, err in (row for rs in results for row in rs):
        if isinstance(err, Skip):
            if skipped is not None:
                skipped.append((name, err.reason))
                continue
            err = err.message
        rows.append((name, value, err))
    return rows


def skip_summary(skipped: list[tuple[str, str]], shown: int = 3) -> str | None:
    """One line: how many found files were skipped, by reason, with a few names each."""
    if not skipped:
        return None
    by: dict[str, list[str]] = {}
    for name, reason in skipped:
        by.setdefault(reason, []).append(name)
    parts = []
    for reason, names in sorted(by.items(), key=lambda kv: -len(kv[1])):
        listed = ", ".join(os.path.basename(n) if ".zip:" not in n else n for n in names[:shown])
        parts.append(f"{len(names)} {reason} ({listed}{', ...' if len(names) > shown else ''})")
    n = len(skipped)
    return f"skipped {n} file{'' if n == 1 else 's'}: " + "; ".join(parts)


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
