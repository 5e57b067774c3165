"""Failures of the server's surroundings (its disk, its database, a name it was given), told apart from its
own bugs: they are answered 4xx or 503 with one line saying what to fix, never 500 ("a bug in awrscope").

Read-only store, full disk, a store the server may not write, a database that went away, a NUL character a
PostgreSQL text column cannot hold: each arrives as a different exception class (OSError, sqlite3's,
psycopg's, the store's own StoreError), often with only its message to tell what happened."""
from __future__ import annotations

import errno

from ..errors import InputError
from ..store.backend import StoreError

_OS = {
    errno.ENOSPC: (503, "The store's disk is full"),
    errno.EDQUOT: (503, "The store's disk quota is used up"),
    errno.EROFS: (503, "The store is on a read-only file system"),
    errno.EACCES: (503, "The server may not write the store (permission denied)"),
    errno.EPERM: (503, "The server may not write the store (operation not permitted)"),
    errno.EMFILE: (503, "The server has too many open files; retry in a moment"),
    errno.ENFILE: (503, "The system has too many open files; retry in a moment"),
    errno.ENOMEM: (503, "The server is out of memory"),
    errno.EIO: (503, "The store's disk reports an I/O error"),
}

#: sqlite3 says what happened in its message only (its error codes reach Python 3.11+ but not for every case)
_SQLITE = [
    ("readonly", (503, "The store is read-only")),
    ("read-only", (503, "The store is read-only")),
    ("disk is full", (503, "The store's disk is full")),
    ("disk i/o error", (503, "The store's disk reports an I/O error")),
    ("unable to open", (503, "The store cannot be opened")),
    ("locked", (503, "The store is busy; retry in a moment")),
    ("busy", (503, "The store is busy; retry in a moment")),
    ("malformed", (503, "The store's file is damaged")),
    ("not a database", (503, "The store's file is not a database")),
    ("no such table", (503, "The store is not set up (run awrscope db list once to create it)")),
]

#: PostgreSQL by SQLSTATE (class or code): the message is localised, the code is not
_SQLSTATE = {
    "25006": (503, "The store is read-only (a read-only PostgreSQL transaction or standby)"),
    "53100": (503, "The store's disk is full"),
    "53200": (503, "The database server is out of memory"),
    "53300": (503, "The database server has too many connections; retry in a moment"),
    "42501": (503, "The server may not write the store (insufficient privilege)"),
    "57P01": (503, "The database server is shutting down"),
    "57P03": (503, "The database server is not accepting connections yet"),
    "08": (503, "The database server cannot be reached"),
    "58": (503, "The database server reports a system error"),
}


def _chain(exc: BaseException):
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def environment_failure(exc: BaseException) -> tuple[int, str] | None:
    """(status, one-line message) when ``exc`` comes from the surroundings, else None (a bug: 500)."""
    for e in _chain(exc):
        text = str(e).strip().splitlines()[0] if str(e).strip() else ""
        if isinstance(e, OSError) and e.errno in _OS:
            status, what = _OS[e.errno]
            return status, f"{what}: nothing was changed."
        low = text.lower()
        if "(0x00)" in low or "embedded null" in low:  # psycopg's DataError; os and open() refusing a name
            return 400, "A name or field holds a NUL character, which the store cannot keep: rename it and retry."
        module = type(e).__module__ or ""
        if module.startswith("psycopg"):
            state = getattr(e, "sqlstate", None) or ""
            hit = _SQLSTATE.get(state) or _SQLSTATE.get(state[:2])
            if hit:
                return hit[0], f"{hit[1]}: nothing was changed."
            if type(e).__name__ in ("OperationalError", "InterfaceError"):
                return 503, "The database server cannot be reached: nothing was changed."
        if module == "sqlite3":
            for needle, (status, what) in _SQLITE:
                if needle in low:
                    return status, f"{what} ({text[:120]}): nothing was changed."
        if isinstance(e, InputError):  # the request's own value refused by the store (a filter over 1,000 characters)
            return 400, text[:200] or "The request holds a value the store refuses."
        if isinstance(e, StoreError):  # its message names the file or server: not for every client to read
            why = text.rsplit(": ", 1)[-1] if ": " in text else ""
            for needle, (status, what) in _SQLITE[:4]:  # read-only, full, I/O error: say so first
                if needle in why.lower():
                    return status, f"{what} ({why[:120]}): nothing was changed."
            return 503, f"The store cannot be opened ({why[:120]}): nothing was changed." if why else \
                "The store cannot be opened: nothing was changed."
    return None
