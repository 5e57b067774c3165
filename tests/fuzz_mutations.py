"""Mutation fuzzer over report files: shared by the bounded CI test and the long run.

    python tests/fuzz_mutations.py --count 20000 --seed 1 --jobs 2   # a long run on demand
    python tests/fuzz_mutations.py --replay crash_1_42.bin           # one saved input again

An input is a mutated corpus or fixture report, as bytes: lines deleted,
duplicated or shuffled, the file cut anywhere (inside a character too), bytes
flipped, re-encoded (UTF-16, cp1252, a BOM, CRLF), HTML and structure bombs
injected, numbers overflowed, gzip-wrapped. Each goes through what the CLI does
with a file (``read_sources`` -> ``parse_source`` -> ``analyze`` -> JSON, text,
Markdown and HTML rendering) and must give a result or an ``AwrscopeError``
with a one-line message (exit 2), and:

* no other exception (a traceback), and no "internal error";
* no hang: a per-input bound on CPU time (not wall time: on a shared machine a
  starved process is not a hang);
* bounded memory: the traced peak of one input under ``MEMORY_FACTOR`` times its
  size plus a floor;
* report text stays inert in the HTML output (the injected marker never comes
  out as a tag).

Failing inputs are saved byte-exact (``--save``, a temporary directory by default:
most come from corpus reports, which are not copied into the project). Reduce each
to a file made from the project's fixtures in ``tests/fixtures/fuzz/`` (its README
lists them); ``tests/test_fuzz.py`` replays every one.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import signal
import sys
import tempfile
import time
import tracemalloc
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from awrscope.analysis import analyze  # noqa: E402
from awrscope.errors import AwrscopeError  # noqa: E402
from awrscope.parsers import parse_source  # noqa: E402
from awrscope.parsers.source import read_sources  # noqa: E402
from awrscope.render import render_markdown, render_text  # noqa: E402
from awrscope.render.html import render_analysis  # noqa: E402

CPU_SECONDS = 10.0
MEMORY_FACTOR = 10  # the issue's bound: memory under 10x the input size ...
MEMORY_FLOOR = 48_000_000  # ... above what any small input needs (tables, caches, the HTML page)
MARKER = "awrscopeFuzzMarker"  # injected as <script>/<img onerror> text; must never come out as markup
HOSTILE = [f"<script>{MARKER}()</script>", f"<img src=x onerror={MARKER}()>", f"\"><b>{MARKER}</b>",
           "<table><tr><td>", "</table></table>", "<h3 class=\"awr\">", "<td class='awrc'>" + "9" * 500,
           "<!--", "<![CDATA[", "&#x0;", "&#99999999;", "&nbsp;&amp;&lt;", "<tr><th colspan=99999>x</th>",
           "<td colspan=\"-3\">", "<TABLE\nBORDER=1\n", "<a name=x>", "<li>", "<br/>"]
# Short pieces repeated thousands of times: deep nesting, unclosed tags, runs that
# could make a regex backtrack or a reader recurse.
BOMBS = ["<table>", "<tr>", "<td>", "<a ", "<td class='", "\"", "<!--", "-->", "<", "DB/Inst: X/x  Snaps: 1-2 ",
         "-" * 80 + "\n", "~~~~\n", "   1,234.5", "######", "\n", "&amp", "Event  Waits  Time(s)\n"]
ENCODINGS = ["utf-8", "utf-8-sig", "utf-16", "utf-16-le-bom", "cp1252", "latin-1"]


def _encode(text: str, encoding: str) -> bytes:
    if encoding == "utf-16-le-bom":
        return b"\xff\xfe" + text.encode("utf-16-le", "surrogatepass")
    return text.encode(encoding, "replace")


def mutate(text: str, rng: random.Random) -> str:
    """One mutation of the text."""
    lines = text.splitlines(keepends=True)
    op = rng.randrange(10)
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
    elif op == 4:  # line ends
        return text.replace("\n", rng.choice(["\r\n", "\r", "\n\n", "\f\n"]))
    elif op == 5 and lines:  # inject HTML / garbage, inside a line or between lines
        i = rng.randrange(len(lines))
        j = rng.randrange(len(lines[i]) + 1)
        lines[i] = lines[i][:j] + rng.choice(HOSTILE) + lines[i][j:]
    elif op == 6 and lines:  # numbers to overflow / odd cells
        i = rng.randrange(len(lines))
        odd = rng.choice(["#", "9" * 30, "-", ",", ".", "1e308", "K", "\xa0"])
        lines[i] = "".join(odd if ch.isdigit() and rng.random() < 0.5 else ch for ch in lines[i])
    elif op == 7 and lines:  # very long line
        i = rng.randrange(len(lines))
        lines[i] = lines[i].rstrip("\n") + " " + rng.choice(["x", " ", "9", "-", "<"]) * rng.randint(1000, 200000) + "\n"
    elif op == 8 and lines:  # a structure bomb
        i = rng.randrange(len(lines))
        lines.insert(i, rng.choice(BOMBS) * rng.randint(100, 20000))
    elif op == 9 and lines:  # swap two runs far apart (sections out of order)
        i, j = sorted(rng.randrange(len(lines)) for _ in range(2))
        k = rng.randint(1, 30)
        lines[i:i + k], lines[j:j + k] = lines[j:j + k], lines[i:i + k]
    return "".join(lines)


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """Byte-level damage after encoding: flips, a cut inside a character, NULs, gzip."""
    op = rng.randrange(5)
    if op == 0 and data:
        b = bytearray(data)
        for _ in range(rng.randint(1, 50)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    if op == 1:
        return data[: rng.randrange(len(data) + 1)]
    if op == 2 and data:
        i = rng.randrange(len(data))
        return data[:i] + b"\x00" * rng.randint(1, 4) + data[i:]
    if op == 3:
        z = gzip.compress(data, compresslevel=1)
        return z[: rng.randrange(len(z) // 2, len(z) + 1)] if rng.random() < 0.3 else z  # truncated gzip too
    return data


def make_input(texts: list[str], n: int, seed: int) -> tuple[int, bytes]:
    """Input #n of a run: (index of its seed text, bytes). The same whatever the number of jobs."""
    rng = random.Random(seed * 1_000_003 + n)
    k = rng.randrange(len(texts))
    text = texts[k]
    for _ in range(rng.randint(1, 3)):
        text = mutate(text, rng)
    data = _encode(text, rng.choice(ENCODINGS) if rng.random() < 0.3 else "utf-8")
    if rng.random() < 0.3:
        data = mutate_bytes(data, rng)
    return k, data


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def _pipeline(path: Path) -> None:
    """What `awrscope analyze` does with one file, every output format."""
    for src in read_sources(str(path)):
        report = parse_source(src)
        raised = [i.message for i in report.issues if "could not be read (" in i.message]
        if raised:  # a section mapper raised: the report survives it, but it is a bug
            raise AssertionError(raised[0])
        doc = analyze(report)
        json.dumps(doc, default=str)
        render_text(doc)
        render_markdown(doc)
        problem = markup_from_report(render_analysis(doc, report))
        if problem:
            raise AssertionError(problem)


class _MarkupCheck(HTMLParser):
    """Where the marker lands in a rendered page: as text, a plain attribute
    value or inside a JSON island it is inert; in an event handler, a
    ``javascript:`` URL or an executable script it is not. A JSON island must
    still parse (a report string that closed the <script> early would cut it)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.problems: list[str] = []
        self._script: tuple[str | None, list[str]] | None = None

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            value = value or ""
            if MARKER in name or (MARKER in value and (name.startswith("on") or
                                                       value.lstrip().lower().startswith("javascript:"))):
                self.problems.append(f"report text in <{tag} {name}=...>")
        if tag == "script":
            self._script = (dict(attrs).get("type"), [])

    def handle_data(self, data):
        if self._script is not None:
            self._script[1].append(data)

    def handle_endtag(self, tag):
        if tag == "script" and self._script is not None:
            kind, parts = self._script
            body = "".join(parts)
            if kind == "application/json":
                try:
                    json.loads(body)
                except ValueError:
                    self.problems.append("a JSON island does not parse (cut by report text?)")
            elif MARKER in body:
                self.problems.append("report text inside an executable <script>")
            self._script = None


def markup_from_report(page: str) -> str | None:
    """None when report strings stayed inert in the HTML page, else what escaped."""
    if MARKER not in page:
        return None
    check = _MarkupCheck()
    check.feed(page)
    check.close()
    return "; ".join(check.problems[:3]) or None


def check(data: bytes, workdir: Path, memory: bool = True, seconds: float = CPU_SECONDS) -> str | None:
    """None when the input is handled as the contract says; else what went wrong."""
    path = workdir / "input.bin"
    path.write_bytes(data)
    old = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds * (3 if memory else 1))  # tracing costs ~3x the CPU
    if memory:
        tracemalloc.start()
    try:
        _pipeline(path)
    except AwrscopeError as e:
        message = str(e)
        if not message.strip() or "\n" in message.strip():
            return f"error message is not one line: {message!r}"
        if "internal error" in message:
            return f"internal error: {message}"
    except Timeout:
        return f"took more than {seconds:g} s of CPU"
    except Exception as e:  # noqa: BLE001 - what the fuzzer looks for
        tb = e.__traceback__
        while tb and tb.tb_next:
            tb = tb.tb_next
        where = f" at {Path(tb.tb_frame.f_code.co_filename).name}:{tb.tb_lineno}" if tb else ""
        return f"{type(e).__name__}{where}: {str(e)[:300]}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        peak = tracemalloc.get_traced_memory()[1] if memory else 0
        if memory:
            tracemalloc.stop()
    if memory and peak > MEMORY_FACTOR * len(data) + MEMORY_FLOOR:
        return f"traced peak {peak / 1e6:.0f} MB for {len(data) / 1e6:.1f} MB of input"
    return None


def seeds(corpus: Path | None) -> list[Path]:
    out = sorted((ROOT / "tests" / "fixtures").rglob("*.txt"))
    out = [p for p in out if "fuzz" not in p.parts]
    if corpus and (corpus / "reports").is_dir():
        out += sorted(p for p in (corpus / "reports").iterdir() if p.suffix in (".txt", ".lst", ".html", ".htm"))
    return out


def run(count: int, seed: int, corpus: Path | None, save_dir: Path | None = None, jobs: int = 1,
        memory: bool = True) -> list[str]:
    """Mutate and check ``count`` inputs; input #n depends on ``seed`` and n only,
    so a failure is replayed by its number."""
    if jobs <= 1:
        return _run_slice((count, seed, corpus, save_dir, 1, 0, memory))
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(_run_slice, [(count, seed, corpus, save_dir, jobs, k, memory) for k in range(jobs)])
        return [f for fs in parts for f in fs]


def _run_slice(args) -> list[str]:
    count, seed, corpus, save_dir, jobs, part, memory = args
    files = seeds(corpus)
    texts = [p.read_bytes().decode("utf-8", "replace") for p in files]
    failures = []
    with tempfile.TemporaryDirectory(prefix="awrscope-fuzz-") as tmp:
        for n in range(part, count, jobs):
            k, data = make_input(texts, n, seed)
            problem = check(data, Path(tmp), memory)
            if problem:
                failures.append(f"#{n} from {files[k].name}: {problem}")
                if save_dir:
                    save_dir.mkdir(parents=True, exist_ok=True)
                    (save_dir / f"crash_{seed}_{n}.bin").write_bytes(data)
            if count >= 1000 and n % 1000 < jobs:
                print(f"  ... input {n}: {len(failures)} failures in this worker", file=sys.stderr, flush=True)
    return failures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--save", type=Path, default=Path(tempfile.gettempdir()) / "awrscope-fuzz-failures",
                    help="where failing inputs are written (byte-exact)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--no-memory", action="store_true", help="skip the traced-memory bound (3x faster)")
    ap.add_argument("--replay", type=Path, nargs="*", help="check these saved inputs instead")
    args = ap.parse_args()
    if args.replay:
        with tempfile.TemporaryDirectory() as tmp:
            bad = [(p, check(p.read_bytes(), Path(tmp), not args.no_memory)) for p in args.replay]
        for p, problem in bad:
            print(f"{p}: {problem or 'ok'}")
        return 1 if any(problem for _, problem in bad) else 0
    t0 = time.perf_counter()
    failures = run(args.count, args.seed, args.corpus, args.save, jobs=args.jobs, memory=not args.no_memory)
    for f in failures:
        print(f)
    print(f"{args.count} inputs, {len(failures)} failures, {time.perf_counter() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
