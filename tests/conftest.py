"""Shared fixtures and helpers. The report corpus lives next to the repository in
``<parent of repo>/shared/corpus`` (reports/ + manifest.tsv), or in $AWRSCOPE_CORPUS.
Under CI=true a missing corpus fails the run; elsewhere corpus tests are skipped."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from _hypothesis_profiles import load as _load_hypothesis_profile

_load_hypothesis_profile()  # before the test modules are imported: their @settings take it as their parent

from awrscope.analysis import analyze  # noqa: E402
from awrscope.parsers import parse_source  # noqa: E402
from awrscope.parsers.source import read_sources  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).parent
SEEDS = HERE / "fixtures" / "seeds"


def find_corpus() -> Path | None:
    """The corpus directory: $AWRSCOPE_CORPUS, else ../shared/corpus from the repo root."""
    env = os.environ.get("AWRSCOPE_CORPUS")
    candidates = [Path(env)] if env else [REPO_ROOT.parent / "shared" / "corpus"]
    for c in candidates:
        if (c / "manifest.tsv").is_file() and (c / "reports").is_dir():
            return c
    return None


CORPUS = (find_corpus() or REPO_ROOT.parent / "shared" / "corpus") / "reports"


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


@pytest.fixture
def corpus(corpus_dir: Path) -> Path:
    """The corpus reports directory."""
    return corpus_dir / "reports"


def parse_path(path: Path):
    return parse_source(read_sources(str(path), 10**9)[0])


def analyze_path(path: Path, config: dict | None = None) -> dict:
    return analyze(parse_path(path), config)


def finding(doc: dict, rule_id: str) -> dict | None:
    return next((f for f in doc["findings"] if f["id"] == rule_id), None)


def observation(doc: dict, rule_id: str) -> dict | None:
    """A zero-impact or context result: shown, never ranked nor failed on."""
    return next((f for f in doc["observations"] if f["id"] == rule_id), None)


def headline(doc: dict) -> dict | None:
    return doc["verdict"]["top_of_db_time"]


def na(doc: dict, rule_id: str) -> dict | None:
    return next((n for n in doc["not_applicable"] if n["id"] == rule_id), None)
