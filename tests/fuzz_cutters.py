"""Open-ended search for inputs on which the compiled core and the Python code it mirrors disagree.

    python tests/fuzz_cutters.py --count 10000 --seconds 600            # each property, 10,000 inputs at most
    python tests/fuzz_cutters.py --count 10000 --seconds 600 --seed 7   # the same inputs again
    python tests/fuzz_cutters.py --only generated_tables --count 50000

The test suite's property tests (tests/test_compiled_core.py) are derandomised: the same examples every run
(tests/_hypothesis_profiles.py). This command drives the same tests with new inputs: random byte strings
handed to Hypothesis' fuzz target of each test (``fuzz_one_input``), so each input goes through the test's own
strategies and its own assertions. It stops a property at ``--count`` valid inputs or at ``--seconds`` (a
bound for the whole run, shared by the properties), whichever comes first, and says how many it ran.

A disagreement is kept in Hypothesis' example database (.hypothesis/fuzz, not committed), then the test is run
once more the usual way: Hypothesis replays it, shrinks it and prints the falsifying example. Add it to the
test as ``@example(...)``, so that the suite's run tries it every time. Exit status: 0 when every input agreed,
1 when some did not, 2 when the compiled core is not built here (nothing to compare).
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _hypothesis_profiles  # noqa: E402

_hypothesis_profiles.load("fuzz")  # before the test module is imported: its @settings take this parent

import test_compiled_core as core  # noqa: E402

# The properties that compare a compiled function with the Python one it mirrors.
PROPERTIES = {
    "generated_tables": core.test_both_cutters_agree_on_generated_tables,
    "quoted_gt": core.test_the_quoted_gt_look_is_the_pattern,
    "table_events": core.test_both_table_event_finders_agree,
    "text_lines": core.test_both_text_cutters_agree_on_generated_lines,
    "number_cells": core.test_both_number_readers_agree_on_generated_cells,
    "row_tables": core.test_both_row_readers_agree_on_generated_tables,
}


def fuzz(name: str, test, count: int, deadline: float, rng: random.Random) -> tuple[int, int, int]:
    """(valid inputs run, inputs the test's strategies refused, failures) of one property."""
    target = test.hypothesis.fuzz_one_input
    valid = refused = failed = 0
    while valid < count and time.monotonic() < deadline:
        buffer = rng.randbytes(rng.choice((16, 64, 256, 1024, 4096)))
        try:
            kept = target(buffer)
        except Exception as e:  # noqa: BLE001 - a disagreement (or a crash): kept in the database, replayed below
            failed += 1
            valid += 1
            print(f"{name}: input {valid}: {type(e).__name__}: {str(e)[:300]}", flush=True)
            continue
        if kept is None:
            refused += 1
        else:
            valid += 1
    return valid, refused, failed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=10_000, help="valid inputs per property (default 10,000)")
    ap.add_argument("--seconds", type=float, default=600.0, help="bound on the whole run's wall time")
    ap.add_argument("--seed", type=int, default=None, help="the random bytes' seed (default: from the clock)")
    ap.add_argument("--only", action="append", choices=sorted(PROPERTIES), help="this property alone (repeatable)")
    args = ap.parse_args(argv)
    if core.tables.cut_rows is core.tables._cut_rows:
        print("the compiled core is not built here: nothing to compare", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    rng = random.Random(seed)
    start = time.monotonic()
    deadline = start + args.seconds
    print(f"{sys.executable} (Python {sys.version.split()[0]}), seed {seed}", flush=True)
    total_failed = 0
    timed_out = False
    for name in args.only or list(PROPERTIES):
        test = PROPERTIES[name]
        t0 = time.monotonic()
        valid, refused, failed = fuzz(name, test, args.count, deadline, rng)
        total_failed += failed
        timed_out |= valid < args.count
        print(f"{name}: {valid:,} inputs, {failed} disagreements ({refused:,} byte strings refused by the "
              f"strategies), {time.monotonic() - t0:.1f} s", flush=True)
        if failed:
            print(f"{name}: replaying the failure to shrink it; add the falsifying example below to "
                  f"{test.__name__} as @example(...)", flush=True)
            try:
                test()
            except Exception as e:  # noqa: BLE001 - the failure, with the example Hypothesis noted on it
                notes = "\n".join(getattr(e, "__notes__", []))
                print(f"{name}: {type(e).__name__}: {str(e)[:2000]}\n{notes}", flush=True)
            else:
                print(f"{name}: the replay passed: the failure depends on more than the test's input", flush=True)
    verdict = "0 disagreements" if not total_failed else f"{total_failed} disagreements"
    bound = " (the time bound cut the run short)" if timed_out else ""
    print(f"seed {seed}: {verdict} in {time.monotonic() - start:.1f} s{bound}", flush=True)
    return 1 if total_failed else 0


if __name__ == "__main__":
    sys.exit(main())
