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


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 12)), min_size=1, max_size=8),
       st.text(alphabet=" \t-abc123.,#~>\xa0", max_size=90))
def test_column_cutting_fast_path_equals_token_walk(layout, line):
    """The slice fast path of assign() gives what the per-token walk gives."""
    from awrscope.parse.text.tables import _best_column, _TOKEN, assign, owners

    spans, pos = [], 0
    for gap, width in layout:
        pos += gap
        spans.append((pos, pos + width))
        pos += width
    owner = owners(spans)
    cells: list[list[str]] = [[] for _ in spans]
    for m in _TOKEN.finditer(line):
        a, b = m.start(), m.end()
        ka = owner[a] if a < len(owner) else -1
        if ka >= 0 and b - 1 < len(owner) and owner[b - 1] == ka:
            cells[ka].append(m.group())
        else:
            cells[_best_column(a, b, spans)].append(m.group())
    assert assign(line, spans, owner) == [" ".join(c) if len(c) != 1 else c[0] for c in cells]


_MANT = st.one_of(st.integers(0, 10**9).map(lambda v: f"{v:,}"),
                  st.tuples(st.integers(0, 99999), st.integers(0, 999)).map(lambda t: f"{t[0]}.{t[1]:03d}"))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["", "-"]), _MANT, st.sampled_from(["", "K", "M", "G", "T", "P"]),
       st.sampled_from(["", "ns", "us", "ms", "cs", "s"]), st.sampled_from(["", "%"]))
def test_number_grammar_values(sign, mant, suffix, unit, pct):
    """sign, mantissa with thousands groups, K/M/G suffix, time unit and % compose as the grammar says
    (and the memo gives the same answer twice)."""
    from awrscope.parse.numbers import SUFFIX_1000, TIME_UNITS

    cell = f"{sign}{mant}{suffix}{unit}{pct}"
    n = parse_number(cell)
    expect = float(mant.replace(",", "")) * (SUFFIX_1000[suffix] if suffix else 1.0) * (TIME_UNITS[unit] if unit else 1.0)
    expect = -expect if sign else expect
    assert n.value is not None and abs(n.value - expect) <= 1e-9 * max(1.0, abs(expect)), cell
    assert n.unit == (unit or None)
    assert parse_number(cell) == n and parse_number(" " + cell + " ") == n
