from __future__ import annotations

import os
from pathlib import Path

import pytest

from awrscope.analysis import analyze
from awrscope.parse import parse_source
from awrscope.parse.source import read_sources

HERE = Path(__file__).parent
SEEDS = HERE / "fixtures" / "seeds"
CORPUS = Path(os.environ.get("AWRSCOPE_CORPUS", "/work/shared/corpus/reports"))


def parse_path(path: Path):
    return parse_source(read_sources(str(path), 10**9)[0])


def analyze_path(path: Path, config: dict | None = None) -> dict:
    return analyze(parse_path(path), config)


def finding(doc: dict, rule_id: str) -> dict | None:
    return next((f for f in doc["findings"] if f["id"] == rule_id), None)


def na(doc: dict, rule_id: str) -> dict | None:
    return next((n for n in doc["not_applicable"] if n["id"] == rule_id), None)


@pytest.fixture
def corpus():
    if not CORPUS.is_dir():
        pytest.skip("corpus not available")
    return CORPUS
