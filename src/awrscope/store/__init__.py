"""The report store: SQLite by default, PostgreSQL behind the same protocol and SQL."""
from __future__ import annotations

from .backend import StoreError, connect, default_url, migrate
from .ingest import Failed, Prepared, prepare, prepare_bytes, prepare_path
from .store import DEFAULT_TREND_METRICS, ImportResult, Store, open_store

__all__ = ["Store", "open_store", "StoreError", "ImportResult", "Prepared", "Failed", "prepare", "prepare_bytes",
           "prepare_path", "connect", "default_url", "migrate", "DEFAULT_TREND_METRICS"]
