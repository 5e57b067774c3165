"""Store backends for tests: SQLite always; PostgreSQL from $AWRSCOPE_TEST_PG
(skipped when unset, except under CI=true where it must run). Each PostgreSQL
store lives in its own schema, dropped afterwards."""
from __future__ import annotations

import os
import uuid
from urllib.parse import quote

import pytest

BACKENDS = ["sqlite", "postgresql"]


def pg_base_url() -> str:
    url = os.environ.get("AWRSCOPE_TEST_PG")
    if not url:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("AWRSCOPE_TEST_PG is not set: under CI the PostgreSQL store tests must run")
        pytest.skip("AWRSCOPE_TEST_PG not set: PostgreSQL variant skipped")
    return url


class PgSchema:
    """A throw-away schema; its URL pins search_path to it."""

    def __init__(self, base: str):
        import psycopg

        self.base = base
        self.name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(base, autocommit=True) as c:
            c.execute(f"CREATE SCHEMA {self.name}")
        sep = "&" if "?" in base else "?"
        self.url = f"{base}{sep}options={quote(f'-csearch_path={self.name}')}"

    def drop(self) -> None:
        import psycopg

        with psycopg.connect(self.base, autocommit=True) as c:
            c.execute(f"DROP SCHEMA {self.name} CASCADE")


def make_url(backend: str, tmp_path) -> tuple[str, object]:
    """(url, cleanup) for a fresh empty store."""
    if backend == "sqlite":
        return str(tmp_path / "store.sqlite3"), lambda: None
    schema = PgSchema(pg_base_url())
    return schema.url, schema.drop
