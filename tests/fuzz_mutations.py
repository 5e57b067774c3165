"""Mutation fuzzer over report texts: shared by the bounded CI test and the long run.

    python tests/fuzz_mutations.py --count 20000 --seed 1 --jobs 2   # a long run on demand

Every mutated input must give a Report (possibly with issues) and an analysis
document that serialises to JSON, or an AwrscopeError (one-line message, exit 2):
never another exception, never a hang (a per-input CPU-time bound), and bounded
memory (the traced peak of one input stays under a multiple of its size).
"""
from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from awrscope.errors import AwrscopeError  # noqa: E402
from awrscope.analysis import analyze  # noqa: E402
from awrscope.parse import parse_text  # noqa: E402

HTML_SNIPPETS = ["<script>alert(1)</script>", "<table><tr><td>", "</table></table>", "<h3 class=\"awr\">",
                 "<td class='awrc'>" + "9" * 500, "<!--", "<![CDATA[", "&#x0;", "&nbsp;&amp;&lt;"]


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines(keepends=True)
    op = rng.randrange(9)
    if op == 0 and lines:  # delete a run of lines
        i = rng.randrange(len(lines))
        del lines[i:i + rng.randint(1, 40)]
    elif op == 1 and lines:  # duplicate a run
        i = rng.randrange(len(lines))
        lines[i:i] = lines[i:i + rng.randint(1, 40)]
    elif op == 2 and lines:  # shuffle a window
        i = rng.randrange(len(lines))
        window = lines[i:i + rng.randint(2, 30)]
        rng.shuffle(window)
        lines[i:i + len(window)] = window
    elif op == 3:  # cut anywhere
        return text[: rng.randrange(len(text) + 1)]
    elif op == 4:  # flip bytes
        b = bytearray(text.encode("utf-8", "replace"))
        for _ in range(rng.randint(1, 50)):
            if b:
                b[rng.randrange(len(b))] = rng.randrange(256)
        return b.decode("latin-1")
    elif op == 5:  # change encodings / line ends
        return text.replace("\n", rng.choice(["\r\n", "\r", "\n\n", "\f\n"]))
    elif op == 6 and lines:  # inject HTML / garbage
        i = rng.randrange(len(lines))
        lines.insert(i, rng.choice(HTML_SNIPPETS) + "\n")
    elif op == 7 and lines:  # numbers to overflow / weird cells
        i = rng.randrange(len(lines))
        lines[i] = "".join(rng.choice(["#", ch]) if ch.isdigit() else ch for ch in lines[i])
    elif op == 8 and lines:  # very long line
        i = rng.randrange(len(lines))
        lines[i] = lines[i].rstrip("\n") + " " + "x" * rng.randint(1000, 200000) + "\n"
    return "".join(lines)


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def check(text: str, seconds: float = 10.0) -> str | None:
    """None when the input is handled; else a description of the failure."""
    # CPU time, not wall time: on a shared 2-core machine a starved process is not a hang
    # (a first 20000-input run on wall time flagged 5 inputs that replay in 0.2 s)
    old = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        report = parse_text(text, name="fuzz")
        json.dumps(analyze(report), default=str)
    except AwrscopeError as e:
        if "\n" in str(e):
            return f"multi-line error message: {e!r}"
    except Timeout:
        return f"took longer than {seconds} s"
    except Exception as e:  # noqa: BLE001 - this is what the fuzzer looks for
        return f"{type(e).__name__}: {e}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    return None


def _html_reader() -> bool:
    try:
        from awrscope.parse import html  # noqa: F401
        return True
    except ImportError:
        return False


def seeds(corpus: Path | None) -> list[Path]:
    out = sorted((ROOT / "tests" / "fixtures").rglob("*.txt"))
    if corpus and (corpus / "reports").is_dir():
        suffixes = (".txt", ".lst", ".html") if _html_reader() else (".txt", ".lst")
        out += sorted(p for p in (corpus / "reports").iterdir() if p.suffix in suffixes)
    return out


def run(count: int, seed: int, corpus: Path | None, save_dir: Path | None = None, jobs: int = 1) -> list[str]:
    """Mutate and check ``count`` inputs. Input #n is the same whatever ``jobs``
    is (one generator per input, seeded from ``seed`` and n), so a failure is
    replayed by its number alone."""
    if jobs <= 1:
        return _run_slice((count, seed, corpus, save_dir, 1, 0))
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(_run_slice, [(count, seed, corpus, save_dir, jobs, k) for k in range(jobs)])
        return [f for fs in parts for f in fs]


def _run_slice(args) -> list[str]:
    count, seed, corpus, save_dir, jobs, part = args
    files = seeds(corpus)
    texts = [p.read_text(errors="replace") for p in files]
    failures = []
    for n in range(part, count, jobs):
        rng = random.Random(seed * 1_000_003 + n)
        k = rng.randrange(len(texts))
        text = texts[k]
        for _ in range(rng.randint(1, 3)):
            text = mutate(text, rng)
        problem = check(text)
        if problem:
            failures.append(f"#{n} from {files[k].name}: {problem}")
            if save_dir:
                save_dir.mkdir(parents=True, exist_ok=True)
                # bytes as they were: a text-mode write/read would turn '\r' into '\n'
                (save_dir / f"crash_{seed}_{n}.txt").write_bytes(text.encode("utf-8", "surrogatepass"))
        if count >= 1000 and n % 1000 < jobs:
            print(f"  ... input {n}: {len(failures)} failures in this worker", file=sys.stderr, flush=True)
    return failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--save", type=Path, default=ROOT / "tests" / "fixtures" / "fuzz")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = ap.parse_args()
    t0 = time.perf_counter()
    failures = run(args.count, args.seed, args.corpus, args.save, jobs=args.jobs)
    for f in failures:
        print(f)
    print(f"{args.count} inputs, {len(failures)} failures, {time.perf_counter() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
