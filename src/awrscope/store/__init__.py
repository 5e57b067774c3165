"""The report store: SQLite by default, PostgreSQL behind the same protocol and SQL."""
from __future__ import annotations

from ..lazy import lazy_exports

_LAZY = {"StoreError": "backend", "connect": "backend", "default_url": "backend", "migrate": "backend",
         "Failed": "ingest", "Prepared": "ingest", "prepare": "ingest", "prepare_bytes": "ingest",
         "prepare_path": "ingest", "DEFAULT_TREND_METRICS": "store", "ImportResult": "store", "Store": "store",
         "open_store": "store"}


#: Imported on first use: registering the `db` commands at start-up must not load the store
__getattr__ = lazy_exports(__name__, _LAZY, globals())
__all__ = ["Store", "open_store", "StoreError", "ImportResult", "Prepared", "Failed", "prepare", "prepare_bytes",
           "prepare_path", "connect", "default_url", "migrate", "DEFAULT_TREND_METRICS"]
