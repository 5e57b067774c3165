"""Shared fixtures. The corpus lives in ../shared/corpus beside the checkout; under
CI=true a missing corpus is a failure, elsewhere the corpus tests are skipped."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    if not (CORPUS / "manifest.tsv").is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"the shared corpus is missing at {CORPUS} (CI=true requires it)")
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    return CORPUS
