"""Shared fixtures: the corpus lives beside the repository (../shared/corpus),
never inside it. Without it the corpus tests skip, except on CI where a
missing corpus is a failure."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "reports"


def corpus_file(name: str) -> Path:
    path = CORPUS / name
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"corpus report missing on CI: {path}")
        pytest.skip(f"corpus not available: {path}")
    return path


def lookup(report, path: tuple):
    """('header', 'db_name') | ('section', key, row name, field) | ('report', attr)."""
    kind = path[0]
    if kind == "header":
        return getattr(report.header, path[1])
    if kind == "report":
        return getattr(report, path[1])
    if kind == "begin" or kind == "end":
        snap = getattr(report.header, kind)
        return getattr(snap, path[1]) if snap else None
    if kind == "section":
        _, key, name, field = path
        sec = report.sections.get(key)
        assert sec is not None, f"section {key} missing"
        row = sec.row(name)
        assert row is not None, f"{key}: no row {name!r}"
        return row.text.get(field) if field in row.text else row.get(field)
    raise ValueError(path)


def check_golden(report, expected: dict) -> None:
    failures = []
    for path, want in expected.items():
        got = lookup(report, path)
        if isinstance(want, float):
            ok = got is not None and abs(got - want) <= 1e-6 * max(1.0, abs(want))
        else:
            ok = got == want
        if not ok:
            failures.append(f"{path}: expected {want!r}, got {got!r}")
    assert not failures, "\n".join(failures)
