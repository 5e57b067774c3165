"""Bounded fuzzing in CI: mutated reports and arbitrary cells never crash the parser.
A longer run: ``python tests/fuzz_mutations.py --count 20000`` (see the module)."""
from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).parent))
from fuzz_mutations import check, run  # noqa: E402

from awrscope.parse.numbers import parse_number  # noqa: E402
from awrscope.parse.text.tables import read_block  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"


def test_mutated_reports_never_crash(corpus_dir):
    failures = run(count=150, seed=20261122, corpus=corpus_dir)
    assert failures == []


def test_regression_inputs_stay_fixed():
    for path in sorted((FIXTURES / "fuzz").glob("*.txt")) if (FIXTURES / "fuzz").is_dir() else []:
        assert check(path.read_bytes().decode("utf-8", "replace")) is None, path.name


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet="0123456789.,-+eEKMGTP#%smunhc /N/A", max_size=20))
def test_any_cell_parses_or_is_flagged(cell):
    n = parse_number(cell)
    assert n.value is None or n.value == n.value  # never NaN
    assert n.value is not None or n.flag is not None


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=10**12), st.integers(min_value=0, max_value=3))
def test_formatted_numbers_round_trip(value, decimals):
    printed = f"{value / 10**decimals:,.{decimals}f}"
    assert parse_number(printed).value == float(printed.replace(",", ""))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet=" -abc123.,#~>", max_size=60), max_size=40))
def test_table_reader_takes_any_lines(lines):
    block = read_block(lines, 1)
    for table in block.tables:
        for _, cells in table.rows:
            assert len(cells) == len(table.spans)
