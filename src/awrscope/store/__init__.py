"""The report store: SQLite by default, PostgreSQL behind the same protocol and SQL."""
from __future__ import annotations

_LAZY = {"StoreError": "backend", "connect": "backend", "default_url": "backend", "migrate": "backend",
         "Failed": "ingest", "Prepared": "ingest", "prepare": "ingest", "prepare_bytes": "ingest",
         "prepare_path": "ingest", "DEFAULT_TREND_METRICS": "store", "ImportResult": "store", "Store": "store",
         "open_store": "store"}


def __getattr__(name: str):
    """Imported on first use: registering the `db` commands at start-up must not load the store."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'awrscope.store' has no attribute {name!r}")

__all__ = ["Store", "open_store", "StoreError", "ImportResult", "Prepared", "Failed", "prepare", "prepare_bytes",
           "prepare_path", "connect", "default_url", "migrate", "DEFAULT_TREND_METRICS"]
