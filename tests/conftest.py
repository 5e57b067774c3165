"""Shared fixtures: the report corpus lives next to the repository in
``<parent of repo>/shared/corpus`` (reports/ + manifest.tsv)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def find_corpus() -> Path | None:
    """The corpus directory: $AWRSCOPE_CORPUS, else ../shared/corpus from the repo root
    (the repo root of a git worktree is the directory holding pyproject.toml)."""
    env = os.environ.get("AWRSCOPE_CORPUS")
    candidates = [Path(env)] if env else [REPO_ROOT.parent / "shared" / "corpus"]
    for c in candidates:
        if (c / "manifest.tsv").is_file() and (c / "reports").is_dir():
            return c
    return None


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    c = find_corpus()
    if c is None:
        where = os.environ.get("AWRSCOPE_CORPUS") or REPO_ROOT.parent / "shared" / "corpus"
        msg = f"report corpus not found (looked in {where})"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(msg)
        pytest.skip(msg)
    return c
