"""Regular expressions compiled once per machine, not once per run.

Python compiles a pattern in pure Python (``re._parser``, ``re._compiler``): the ~300 patterns a report
needs cost ~15 ms, about a tenth of a one-report run. What the compiler produces, the engine's code words
and group tables, is kept in a cache file per interpreter; later runs hand them straight to the engine
(``_sre.compile``), which checks the code words before using them. A pattern made this way equals the
one ``re.compile`` makes (``Pattern.__eq__`` compares the code words; ``tests/test_patterns.py``).

The cache is keyed by the interpreter's version and the engine's code format; any surprise (another
Python, an unreadable or damaged file, internals that moved) falls back to ``re.compile`` for the rest
of the run (awrscope.cachedir: ``AWRSCOPE_CACHE=0`` turns it off). The file is written
once at exit when a run compiled something new, atomically, and never holds report content: only the
project's own patterns pass through here (redaction's patterns made of a report's names use re.compile).
"""
from __future__ import annotations

import atexit
import marshal
import os
import re
import sys
import zlib
from array import array

from .cachedir import cache_folder

try:  # the engine's entry point and the compiler's two halves (CPython 3.11+)
    import _sre
    from re import _compiler, _parser
except ImportError:  # another implementation: re.compile only
    _sre = None
else:  # the array type whose items are the engine's code words
    _WORD = next((t for t in "IL" if array(t).itemsize == _sre.CODESIZE), None)
    if _WORD is None:
        _sre = None

_FORMAT = 2
_MAX_FILE = 8 << 20  # a cache file larger than this is not read (the project's patterns take ~0.5 MB)
# Patterns kept at most: the project compiles ~500 different ones. A pattern made afresh at every run (say, of a
# set's words in the set's order) would otherwise grow the file without end; past the bound it starts again.
_MAX_ENTRIES = 2000
_ENTRY = tuple[int, bytes, int, dict, tuple]  # flags, code words (array 'I' bytes), groups - 1, groupindex, indexgroup

_entries: dict[tuple[type, str, int], _ENTRY] | None = None  # None: not loaded yet
_new = False
_enabled = _sre is not None


def compile(pattern: str | bytes, flags: int | re.RegexFlag = 0) -> re.Pattern:  # noqa: A001 - re's name
    """``re.compile(pattern, flags)``, from the cache when this interpreter compiled it before."""
    global _enabled, _new
    flags = int(flags)
    if not _enabled:
        return re.compile(pattern, flags)
    entries = _entries if _entries is not None else _load()
    if not _enabled:
        return re.compile(pattern, flags)
    key = (type(pattern), pattern, flags)
    entry = entries.get(key)
    if entry is not None:
        try:
            return _made(pattern, entry)
        except Exception:  # noqa: BLE001 - a damaged file: the engine refused its entry; start the cache again
            entries.clear()
    try:
        entry = _compiled(pattern, flags)
        made = _made(pattern, entry)
    except Exception:  # noqa: BLE001 - the internals are not what this module knows
        made = None
    expected = re.compile(pattern, flags)
    if made is None or made != expected:  # never trust a way of compiling that disagrees with re's
        _enabled = False
        return expected
    if len(entries) >= _MAX_ENTRIES:
        entries.clear()
    entries[key] = entry
    if not _new:
        _new = True
        atexit.register(_save)
    return made


def _compiled(pattern: str | bytes, flags: int) -> _ENTRY:
    """What ``re._compiler.compile`` hands the engine, as plain data (the code words as the bytes of an
    unsigned array: a quarter of marshal's size for a list of ints, and read back in one call)."""
    p = _parser.parse(pattern, flags)
    code = _compiler._code(p, flags)
    groupindex = dict(p.state.groupdict)
    indexgroup = [None] * p.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    words = array(_WORD, [int(c) for c in code]).tobytes()
    return (int(flags | p.state.flags), words, p.state.groups - 1, groupindex, tuple(indexgroup))


def _made(pattern: str | bytes, entry: _ENTRY) -> re.Pattern:
    flags, words, groups, groupindex, indexgroup = entry
    code = array(_WORD)
    code.frombytes(words)
    return _sre.compile(pattern, flags, code.tolist(), groups, groupindex, indexgroup)


def _cache_path() -> str | None:
    folder = cache_folder("patterns")
    if folder is None:
        return None
    tag = zlib.crc32(f"{sys.version}|{_sre.MAGIC}|{_sre.CODESIZE}|{_FORMAT}".encode())
    return os.path.join(folder, f"python{sys.version_info[0]}.{sys.version_info[1]}-{tag:08x}.marshal")


def _load() -> dict:
    """The cache file's entries ({} when there is none or it cannot be used)."""
    global _entries, _enabled
    _entries = {}
    path = _cache_path()
    if path is None or not os.access(os.path.dirname(path), os.W_OK):  # a cache never kept would cost every run
        _enabled = False
        return _entries
    try:
        with open(path, "rb") as f:
            data = f.read(_MAX_FILE + 1)
        if len(data) <= _MAX_FILE:
            loaded = marshal.loads(data)
            if isinstance(loaded, dict):
                kinds = {"s": str, "b": bytes}
                _entries = {(kinds[kind], pattern, flags): entry
                            for (kind, pattern, flags), entry in loaded.items()}
    except (OSError, ValueError, EOFError, TypeError, KeyError):
        _entries = {}
    return _entries


def _save() -> None:
    """Write the entries at exit, atomically (a temporary file renamed over the old one); a cache that
    cannot be written is simply not kept."""
    path = _cache_path()
    if path is None or not _enabled or not _entries:
        return
    data = {("s" if kind is str else "b", pattern, flags): entry for (kind, pattern, flags), entry in _entries.items()}
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(marshal.dumps(data))
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
