"""The Hypothesis profiles of the test suite, loaded by conftest.py before any test module is imported.

``awrscope`` (the default, what ``python3 -m pytest`` runs): every property test is derandomised (its examples
come from a seed made of the test itself), keeps no example database and has no deadline nor timing health
check, so two runs on any machine try the same examples and give the same result. A failure found by the
open-ended search (``tests/fuzz_cutters.py``, or ``AWRSCOPE_HYPOTHESIS_PROFILE=fuzz python3 -m pytest FILE``)
is kept as an ``@example`` on its test, so the default run tries it every time.

``fuzz``: randomised, with an example database under .hypothesis/fuzz (failures found are replayed, shrunk
and printed there before any new search)."""
from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

FUZZ_DATABASE = Path(__file__).resolve().parents[1] / ".hypothesis" / "fuzz"

settings.register_profile("awrscope", derandomize=True, database=None, deadline=None, max_examples=100,
                          print_blob=False, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", derandomize=False, database=DirectoryBasedExampleDatabase(str(FUZZ_DATABASE)),
                          deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])


def load(name: str | None = None) -> str:
    """Load the profile named, else $AWRSCOPE_HYPOTHESIS_PROFILE, else ``awrscope``; its name."""
    name = name or os.environ.get("AWRSCOPE_HYPOTHESIS_PROFILE") or "awrscope"
    settings.load_profile(name)
    return name
