"""Mutation fuzzer over report files: shared by the bounded CI test and the long run.

    python tests/fuzz_mutations.py --count 20000 --seed 1 --jobs 2   # a long run on demand
    python tests/fuzz_mutations.py --replay crash_1_42.bin           # one saved input again
    python tests/fuzz_mutations.py --file-types --rounds 50 --seconds 300   # the file-type stage

An input is a mutated corpus or fixture report, as bytes: lines deleted,
duplicated or shuffled, the file cut anywhere (inside a character too), bytes
flipped, re-encoded (UTF-16, cp1252, a BOM, CRLF), HTML and structure bombs
injected, numbers overflowed, gzip-wrapped. Each goes through what the CLI does
with a file (``read_sources`` -> ``parse_source`` -> ``analyze`` -> JSON, text,
Markdown and HTML rendering) and must give a result or an ``AwrscopeError``
with a one-line message (exit 2); then through one real CLI command picked by
the input's number (:data:`CLI_RUNS`: ``analyze`` in each ``--format``, ``parse``,
``compare``, ``trend``, ``redact``, ``db import``, ``trace`` in each format), run
in-process by click, which must exit 0, 1, 2 or 4 (a SQL trace given to a report command), never 3; and:

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

The file-type stage (``--file-types``) builds hostile file-system entries in a
temporary directory and runs the real CLI (``python -m awrscope``) on them: named
pipes with a writer sending a report or random bytes and one with no writer
inside a directory, character devices (through a symlink in a directory, and
named with a small ``--max-size``), symbolic link loops and dangling links,
unreadable files and subdirectories, and ``-o`` onto an input (directly, through
a symlink, a hard link, a file found in a directory), into a missing directory,
onto a directory. Each run must end within a time bound (a run whose processes
all sleep without using CPU is a hang too), exit 0, 1 or 2 (3 is a bug), print
no traceback and only ``awrscope: `` lines on stderr, still analyse the good
reports beside the bad entries, and leave every input byte for byte unchanged.
"""
from __future__ import annotations

import argparse
import contextlib
import errno
import gzip
import io
import json
import os
import random
import re
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
import zipfile
from collections import Counter
from dataclasses import dataclass, field
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


# One CLI run per input, chosen by its number: every command and output format of the tool. "{in}" is the
# input file, "{dir}" a fresh directory for the command's outputs.
CLI_RUNS = [["analyze", "--format", f, "{in}"] for f in ("json", "text", "markdown", "html")] + [
    ["parse", "{in}"],
    ["compare", "--format", "json", "{in}", "{in}"],
    ["trend", "--format", "json", "{in}"],
    ["redact", "-o", "{dir}/red", "--key-file", "{dir}/key", "{in}"],
    ["db", "import", "-q", "-j", "1", "--db", "{dir}/store.db", "{in}"],
] + [["trace", "--format", f, "{in}"] for f in ("json", "text", "markdown", "html")]


def cli_run_for(n: int, seed: int) -> list[str]:
    return CLI_RUNS[random.Random(seed * 7_919 + n).randrange(len(CLI_RUNS))]


def _cli(argv: list[str], path: Path) -> int:
    """Exit code of one CLI run on ``path``, in this process (as tools/json_snapshot.py runs it)."""
    from click.testing import CliRunner

    from awrscope.cli import main as cli_main

    out = path.parent / "cli"
    out.mkdir(exist_ok=True)
    for old in out.rglob("*"):  # each run starts from an empty output directory
        if old.is_file():
            old.unlink()
    args = [a.replace("{in}", str(path)).replace("{dir}", str(out)) for a in argv]
    res = CliRunner().invoke(cli_main, args, catch_exceptions=True)
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        raise res.exception
    return res.exit_code


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


def check(data: bytes, workdir: Path, memory: bool = True, seconds: float = CPU_SECONDS,
          cli: list[str] | None = None, codes: Counter | None = None) -> str | None:
    """None when the input is handled as the contract says; else what went wrong. With ``cli``, the input
    then goes through that CLI run too (its exit code counted in ``codes``)."""
    path = workdir / "input.bin"
    path.write_bytes(data)
    problem = _check_pipeline(path, data, memory, seconds)
    if problem or cli is None:
        return problem
    old = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, seconds * 2)
    try:
        code = _cli(cli, path)
    except Timeout:
        return f"{cli[0]}: took more than {seconds * 2:g} s of CPU"
    except Exception as e:  # noqa: BLE001 - what the fuzzer looks for
        return f"{' '.join(cli[:3])}: {type(e).__name__}: {str(e)[:300]}"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    if codes is not None:
        codes[(" ".join(a for a in cli[:3] if "{" not in a and a not in ("-o", "-q")), code)] += 1
    if code not in (0, 1, 2, 4):  # 4: a SQL trace (a trace fixture, mutated) given to a report command
        return f"{' '.join(cli[:3])}: exit {code}"
    return None


def _check_pipeline(path: Path, data: bytes, memory: bool, seconds: float) -> str | None:
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
    out = [p for p in out if "fuzz" not in p.parts] + sorted((ROOT / "tests" / "fixtures" / "trace").glob("*.trc"))
    if corpus and (corpus / "reports").is_dir():
        out += sorted(p for p in (corpus / "reports").iterdir() if p.suffix in (".txt", ".lst", ".html", ".htm"))
    return out


def run(count: int, seed: int, corpus: Path | None, save_dir: Path | None = None, jobs: int = 1,
        memory: bool = True, cli: bool = False, codes: Counter | None = None) -> list[str]:
    """Mutate and check ``count`` inputs; input #n depends on ``seed`` and n only,
    so a failure is replayed by its number. ``cli``: each input also through its CLI run
    (:func:`cli_run_for`), (command, exit code) counted in ``codes``."""
    if jobs <= 1:
        parts = [_run_slice((count, seed, corpus, save_dir, 1, 0, memory, cli))]
    else:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_run_slice, [(count, seed, corpus, save_dir, jobs, k, memory, cli)
                                               for k in range(jobs)]))
    if codes is not None:
        for _, c in parts:
            codes.update(c)
    return [f for fs, _ in parts for f in fs]


def _run_slice(args) -> tuple[list[str], Counter]:
    count, seed, corpus, save_dir, jobs, part, memory, cli = args
    codes: Counter = Counter()
    files = seeds(corpus)
    texts = [p.read_bytes().decode("utf-8", "replace") for p in files]
    failures = []
    with tempfile.TemporaryDirectory(prefix="awrscope-fuzz-") as tmp:
        for n in range(part, count, jobs):
            k, data = make_input(texts, n, seed)
            problem = check(data, Path(tmp), memory, cli=cli_run_for(n, seed) if cli else None, codes=codes)
            if problem:
                failures.append(f"#{n} from {files[k].name}: {problem}")
                if save_dir:
                    save_dir.mkdir(parents=True, exist_ok=True)
                    (save_dir / f"crash_{seed}_{n}.bin").write_bytes(data)
            if count >= 1000 and n % 1000 < jobs:
                print(f"  ... input {n}: {len(failures)} failures in this worker", file=sys.stderr, flush=True)
    return failures, codes


# --- The file-type stage: hostile file-system entries through the real CLI -------------------------------

FILE_TYPE_TIMEOUT = 30.0  # wall-clock seconds one CLI run may take: killed after that (a hang)
STALL_SECONDS = 3.0  # every process of a run asleep, no CPU used, this long: a hang (a starved process is runnable)
DEVICES = ["/dev/zero", "/dev/urandom", "/dev/null", "/dev/full", "/dev/random"]
COMMANDS = ["analyze", "parse", "trend", "db import"]  # the ones that walk directories
OUTPUT_COMMANDS = ["analyze", "parse", "compare", "trend"]  # the ones with -o
_DB_LINE = re.compile(r"^(added|duplicate)\s+#\d+\s+(\S+)|^\d+ added, ")  # db import's own stderr lines


@dataclass
class Case:
    """One CLI run over entries built in ``cwd``, and what must hold after it."""
    name: str
    cwd: Path
    argv: list[str] = field(default_factory=list)
    layout: list[str] = field(default_factory=list)  # what was built, for the failure line
    good: list[str] = field(default_factory=list)  # names that must come out analysed
    codes: frozenset = frozenset({0, 1, 2})
    unchanged: dict = field(default_factory=dict)  # path -> bytes it must still hold
    dirs_unchanged: dict = field(default_factory=dict)  # directory -> listing it must still have
    absent: list = field(default_factory=list)  # paths that must not exist after the run
    output: Path | None = None  # where the document goes (-o), else stdout
    writers: list = field(default_factory=list)  # FIFO writers: (path, chunks, hold seconds)
    restore: list = field(default_factory=list)  # (path, mode) put back after the run
    skip: str | None = None  # why this case cannot run here


@dataclass
class FileTypeStats:
    ran: int = 0
    outcomes: Counter = field(default_factory=Counter)  # "exit 0", "exit 2", "killed", "skipped"
    per_case: dict = field(default_factory=dict)  # case name -> Counter of outcomes
    failures: list = field(default_factory=list)
    notes: set = field(default_factory=set)

    def summary(self) -> str:
        lines = [f"{self.ran} file-type cases run: " + ", ".join(f"{k} {v}" for k, v in sorted(self.outcomes.items()))]
        for name, c in sorted(self.per_case.items()):
            bad = sum(1 for f in self.failures if f.split(" ", 1)[0] == name)
            counts = ", ".join(f"{k} {v}" for k, v in sorted(c.items()))
            lines.append(f"  {name:26s} {sum(c.values()):4d} runs: {counts}" + (f"; {bad} failed" if bad else ""))
        lines += [f"  note: {n}" for n in sorted(self.notes)]
        return "\n".join(lines)


def _good_reports() -> list[Path]:
    """Small fixture reports that analyse cleanly (AWR and Statspack): the good files beside the bad entries."""
    global _GOOD
    if _GOOD is None:
        out = []
        for p in sorted((ROOT / "tests" / "fixtures" / "seeds").glob("*.txt")) + [ROOT / "tests" / "fixtures" /
                                                                                  "mini_awr_11204.txt"]:
            try:
                if parse_source(read_sources(str(p))[0]).kind in ("awr", "statspack"):
                    out.append(p)
            except AwrscopeError:
                continue
        _GOOD = out
    return _GOOD


_GOOD: list[Path] | None = None


def _put_good(rng: random.Random, d: Path, n: int, case: Case, wrap: bool = False) -> list[str]:
    """n distinct good reports copied into d under names of every shape (awr.txt.128, no extension, .lst);
    with ``wrap`` some are gzip- or zip-wrapped. Their names go to ``case.good``."""
    d.mkdir(parents=True, exist_ok=True)
    names = []
    for k, src in enumerate(rng.sample(_good_reports(), n)):
        data = src.read_bytes()
        name = rng.choice(["{}.txt", "awrrpt_{}.lst", "{}.txt.{}", "{}", "sp_{}.out"]).format(f"{src.stem}-{k}", k + 1)
        how = rng.choice(["plain", "plain", "gz", "zip"]) if wrap else "plain"
        if how == "gz":
            name, data = name + ".gz", gzip.compress(data, compresslevel=1)
        elif how == "zip":
            name, data = name + ".zip", _zipped(data, "member.txt")
        (d / name).write_bytes(data)
        names.append(name)
        case.layout.append(f"{_rel(d / name, case.cwd)}: good report ({how})")
    case.good += names
    return names


def _zipped(data: bytes, member: str) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, data)
    return buf.getvalue()


def _rel(p: Path, cwd: Path) -> str:
    return os.path.relpath(p, cwd)


def _bad_place(rng: random.Random, d: Path) -> Path:
    """Where a bad entry goes: beside the good reports or in a subdirectory, under a name sorted before,
    between or after theirs."""
    where = d / "sub" if rng.random() < 0.3 else d
    where.mkdir(exist_ok=True)
    return where / rng.choice(["00-bad", "aaa", "m-entry.txt", "zz-last", "awrrpt_9.txt", "pipe.lst"])


def _walk(rng: random.Random, case: Case, d: Path, max_size: bool = False) -> None:
    """A command walking d (a directory argument, spelled several ways, or a glob), its document as JSON."""
    cmd = rng.choice(COMMANDS)
    arg = rng.choice([d.name, d.name + "/", f"./{d.name}", f"{d.name}/*"])
    argv = cmd.split()
    if cmd == "db import":
        argv += ["--db", "store.sqlite3"]
    else:
        argv += ["--format", "json"]
    if rng.random() < 0.7:
        argv += ["-j", rng.choice(["1", "2"])]
    if max_size or rng.random() < 0.2:
        argv += ["--max-size", "1"]
    if cmd != "db import" and rng.random() < 0.3:
        case.output = case.cwd / rng.choice(["out.json", f"{d.name}/out.json"])
        argv += ["-o", _rel(case.output, case.cwd)]
    case.argv = argv + [arg] + (["extra-good.txt"] if rng.random() < 0.2 and _extra(case) else [])


def _extra(case: Case) -> bool:
    """A good report named beside the directory: named inputs and walked ones together."""
    src = _good_reports()[0]
    (case.cwd / "extra-good.txt").write_bytes(src.read_bytes())
    case.good.append("extra-good.txt")
    return True


def _chunks(rng: random.Random, data: bytes) -> list[bytes]:
    out, i = [], 0
    while i < len(data):
        n = rng.choice([1, 7, 512, 4096, 65536, 1 << 20])
        out.append(data[i:i + n])
        i += n
    if len(out) > 400:  # tiny chunks only for small data
        out = [data]
    return out


def _fifo(case: Case, path: Path, data: bytes | None, rng: random.Random, what: str) -> None:
    os.mkfifo(path)
    if data is not None:
        case.writers.append((path, _chunks(rng, data), rng.choice([0.0, 0.0, 0.05, 0.3])))
    case.layout.append(f"{_rel(path, case.cwd)}: FIFO, {what}")


def _random_bytes(rng: random.Random) -> tuple[bytes, str]:
    kind = rng.randrange(7)
    n = rng.choice([0, 1, 100, 8191, 8193, 70_000, 300_000])
    if kind == 0:
        return rng.randbytes(n), f"{n} random bytes"
    if kind == 1:
        return b"\x1f\x8b" + rng.randbytes(n), f"gzip magic + {n} random bytes"
    if kind == 2:
        return b"PK\x03\x04" + rng.randbytes(n), f"zip magic + {n} random bytes"
    if kind == 3:
        return gzip.compress(rng.randbytes(n)), f"gzip of {n} random bytes"
    if kind == 4:
        head = rng.choice(_good_reports()).read_bytes()
        k = rng.randrange(len(head))
        return head[:k] + rng.randbytes(n), f"a report cut at {k} + {n} random bytes"
    if kind == 5:
        return b"", "nothing (opened and closed)"
    n = rng.choice([1 << 20, 3 << 20])
    return (b"x" * 79 + b"\n") * (n // 80 + 1), f"{n + 80} bytes of text (over --max-size 1)"


def _report_payload(rng: random.Random) -> tuple[bytes, str]:
    src = rng.choice(_good_reports())
    data = src.read_bytes()
    how = rng.choice(["plain", "plain", "gzip", "zip"])
    if how == "gzip":
        data = gzip.compress(data)
    elif how == "zip":
        data = _zipped(data, src.name)
    return data, f"writer sends {src.name} ({how})"


def case_fifo_report(rng: random.Random, cwd: Path) -> Case:
    """A named pipe whose writer sends a report: named (it must be analysed) or found in a directory."""
    case = Case("fifo-report", cwd)
    data, what = _report_payload(rng)
    if rng.random() < 0.5:
        _put_good(rng, cwd / "d", rng.randint(1, 3), case, wrap=True)
        _fifo(case, _bad_place(rng, cwd / "d"), data, rng, what)
        _walk(rng, case, cwd / "d")
        return case
    _fifo(case, cwd / "report.pipe", data, rng, what)
    cmd = rng.choice(["analyze", "parse", "trend", "compare"])
    args = ["report.pipe"]
    if cmd == "compare" or rng.random() < 0.3:
        args.append(_put_good(rng, cwd, 1, case)[0])
        rng.shuffle(args)
    case.argv = [cmd, "--format", "json", *args]
    case.good.append("report.pipe")
    case.codes = frozenset({0})
    return case


def case_fifo_random(rng: random.Random, cwd: Path) -> Case:
    """A named pipe whose writer sends random bytes (bombs, broken magic, more than --max-size)."""
    case = Case("fifo-random", cwd)
    data, what = _random_bytes(rng)
    big = len(data) > 1 << 20
    if rng.random() < 0.5:
        _put_good(rng, cwd / "d", rng.randint(1, 3), case, wrap=True)
        _fifo(case, _bad_place(rng, cwd / "d"), data, rng, what)
        _walk(rng, case, cwd / "d", max_size=big)
        return case
    _fifo(case, cwd / "noise.pipe", data, rng, what)
    case.argv = [rng.choice(["analyze", "parse", "trend"]), "--format", "json"] + (["--max-size", "1"] if big else [])
    case.argv += ["noise.pipe"] + (_put_good(rng, cwd, 1, case) if rng.random() < 0.5 else [])
    return case


def case_fifo_idle_in_dir(rng: random.Random, cwd: Path) -> Case:
    """A named pipe nobody writes to, found by a directory walk: skipped or an error line, never a hang."""
    case = Case("fifo-idle-in-dir", cwd)
    _put_good(rng, cwd / "d", rng.randint(1, 3), case, wrap=True)
    _fifo(case, _bad_place(rng, cwd / "d"), None, rng, "no writer")
    _walk(rng, case, cwd / "d")
    return case


def _devices() -> list[str]:
    return [d for d in DEVICES if os.path.exists(d) and stat.S_ISCHR(os.stat(d).st_mode)]


def case_device_in_dir(rng: random.Random, cwd: Path) -> Case:
    """A symlink to a character device inside a walked directory: skipped, never read."""
    case = Case("device-in-dir", cwd)
    _put_good(rng, cwd / "d", rng.randint(1, 3), case, wrap=True)
    dev = rng.choice(_devices())
    link = _bad_place(rng, cwd / "d")
    link.symlink_to(dev)
    case.layout.append(f"{_rel(link, cwd)} -> {dev}")
    _walk(rng, case, cwd / "d")
    return case


def case_device_named(rng: random.Random, cwd: Path) -> Case:
    """A character device named on the command line (itself or through a symlink), with a small --max-size."""
    case = Case("device-named", cwd)
    dev = rng.choice(_devices())
    arg = dev
    if rng.random() < 0.5:
        (cwd / "dev.txt").symlink_to(dev)
        arg = "dev.txt"
        case.layout.append(f"dev.txt -> {dev}")
    args = [arg] + (_put_good(rng, cwd, 1, case) if rng.random() < 0.5 else [])
    cmd = rng.choice(COMMANDS).split()
    if cmd == ["db", "import"]:
        cmd += ["--db", "store.sqlite3"]
    elif rng.random() < 0.7:
        cmd += ["--format", "json"]
    else:
        case.good = []  # text output: only the exit code and stderr are checked
    case.argv = [*cmd, "--max-size", rng.choice(["1", "2"]), *args]
    case.codes = frozenset({2})
    return case


def case_symlink_loop(rng: random.Random, cwd: Path) -> Case:
    """Symlink loops (a -> b -> a, c -> c, a directory link to its parent) and dangling links, found in a
    directory or named: one error line each (or skipped), the good reports still analysed."""
    case = Case("symlink-loop", cwd)
    d = cwd / "d"
    _put_good(rng, d, rng.randint(1, 3), case, wrap=True)
    made = []
    kinds = rng.sample(["pair", "self", "triple", "dangling", "dir-up", "dir-self", "chain-to-loop"], rng.randint(1, 4))
    for k in kinds:
        base = _bad_place(rng, d)
        a, b, c = (base.with_name(f"{base.name}-{k}-{i}") for i in range(3))
        if k == "pair":
            a.symlink_to(b.name), b.symlink_to(a.name)
        elif k == "self":
            a.symlink_to(a.name)
        elif k == "triple":
            a.symlink_to(b.name), b.symlink_to(c.name), c.symlink_to(a.name)
        elif k == "dangling":
            a.symlink_to("no-such-file.txt")
        elif k == "dir-up":
            a.symlink_to("..")
        elif k == "dir-self":
            a.symlink_to(".")
        else:  # a link into a loop elsewhere
            b.symlink_to(c), c.symlink_to(b)
            a.symlink_to(b)
        made.append(a)
        case.layout.append(f"{_rel(a, cwd)}: {k} link")
    if rng.random() < 0.3:  # named on the command line beside the good reports
        args = [*(_rel(p, cwd) for p in made), *(f"d/{n}" for n in case.good)]
        rng.shuffle(args)
        case.argv = [rng.choice(["analyze", "parse", "trend"]), "--format", "json", *args]
    else:
        _walk(rng, case, d)
    return case


def case_unreadable(rng: random.Random, cwd: Path) -> Case:
    """A file and a subdirectory with mode 000 among good reports: one error line each, the rest analysed."""
    case = Case("unreadable", cwd)
    d = cwd / "d"
    _put_good(rng, d, rng.randint(1, 3), case)
    which = rng.choice(["file", "dir", "both"])
    locked = []
    if which in ("file", "both"):
        f = d / rng.choice(["locked.txt", "0-locked", "zz-locked.lst"])
        f.write_bytes(_good_reports()[0].read_bytes())
        locked.append(f)
    if which in ("dir", "both"):
        sub = d / rng.choice(["locked-dir", "0-locked-dir"])
        sub.mkdir()
        (sub / "inside.txt").write_bytes(_good_reports()[0].read_bytes())
        locked.append(sub)
    for p in locked:
        case.restore.append((p, p.stat().st_mode & 0o7777))
        p.chmod(0)
        case.layout.append(f"{_rel(p, cwd)}: mode 000")
    try:
        with open(locked[0] if locked[0].is_file() else locked[0] / "inside.txt", "rb"):
            case.skip = f"running as uid {os.getuid()}: mode 000 does not stop reads, the unreadable case is skipped"
    except PermissionError:
        pass
    if rng.random() < 0.3:
        case.argv = [rng.choice(["analyze", "parse", "trend"]), "--format", "json",
                     *(_rel(p, cwd) for p in locked), *(f"d/{n}" for n in case.good)]
    else:
        _walk(rng, case, d)
    return case


def _inputs_for(rng: random.Random, cmd: str, cwd: Path, case: Case) -> list[str]:
    return _put_good(rng, cwd, 2 if cmd == "compare" else rng.randint(1, 3), case, wrap=True)


def _alias(rng: random.Random, cwd: Path, target: Path, case: Case) -> tuple[str, str]:
    """-o naming ``target`` some way: as given, spelled otherwise, through a symlink, through a hard link;
    (the -o value, which way)."""
    how = rng.choice(["same", "spelled", "absolute", "symlink", "hardlink"])
    ext = rng.choice(["", ".json", ".html", ".md", ".txt"])
    if how == "same":
        out = _rel(target, cwd)
    elif how == "spelled":
        (cwd / "sub").mkdir(exist_ok=True)
        out = f"./sub/../{_rel(target, cwd)}"
    elif how == "absolute":
        out = str(target)
    elif how == "symlink":
        link = cwd / "links" / f"out-link{ext}"
        link.parent.mkdir(exist_ok=True)
        link.symlink_to(os.path.relpath(target, link.parent) if rng.random() < 0.5 else target)
        out = _rel(link, cwd)
    else:
        link = cwd / f"out-hard{ext}"
        os.link(target, link)
        out = _rel(link, cwd)
    case.layout.append(f"-o {out} ({how}) is {_rel(target, cwd)}")
    return out, how


def _target(rng: random.Random, names: list[str]) -> str:
    """The input -o will name: mostly a plain one (-o x.gz or x.zip is refused for its extension alone)."""
    plain = [n for n in names if not n.endswith((".gz", ".zip"))]
    return rng.choice(plain if plain and rng.random() < 0.8 else names)


def _keep(case: Case, paths) -> None:
    for p in paths:
        case.unchanged[p] = p.read_bytes()


def case_output_onto_input(rng: random.Random, cwd: Path) -> Case:
    """-o naming an input of analyze, parse, compare or trend: exit 2, the input byte for byte the same."""
    case = Case("output-onto-input", cwd)
    cmd = rng.choice(OUTPUT_COMMANDS)
    names = _inputs_for(rng, cmd, cwd, case)
    out, _ = _alias(rng, cwd, cwd / _target(rng, names), case)
    _keep(case, [cwd / n for n in names])
    fmts = ["json", "text"] if cmd == "parse" else ["json", "text", "html", "markdown"]
    fmt = ["--format", rng.choice(fmts)] if rng.random() < 0.5 else []
    case.argv = [cmd, *fmt, "-o", out, *names]
    case.good, case.codes = [], frozenset({2})
    return case


def case_output_onto_found_input(rng: random.Random, cwd: Path) -> Case:
    """-o naming a report found in a directory (or a glob) given as input: the report is never written over;
    exit 2 when -o names it itself (through a link, writing replaces the link, not the report: 0 is fine too)."""
    case = Case("output-onto-found-input", cwd)
    cmd = rng.choice(OUTPUT_COMMANDS)
    if cmd == "compare":
        found = _put_good(rng, cwd / "d", 1, case) + _put_good(rng, cwd / "e", 1, case)
        args = ["d", "e"]
        target = cwd / "d" / found[0]
    else:
        found = _put_good(rng, cwd / "d", rng.randint(1, 3), case, wrap=True)
        args = [rng.choice(["d", "d/", "./d", "d/*"])]
        target = cwd / "d" / _target(rng, found)
    out, how = _alias(rng, cwd, target, case)
    _keep(case, [p for p in cwd.glob("[de]/*") if p.is_file() and not p.is_symlink()])
    case.argv = [cmd, "-o", out, *args]
    case.good, case.codes = [], frozenset({2} if how in ("same", "spelled", "absolute") else {0, 1, 2})
    return case


def case_output_missing_dir(rng: random.Random, cwd: Path) -> Case:
    """-o into a directory that does not exist (or under a regular file): one line, exit 2, nothing written."""
    case = Case("output-missing-dir", cwd)
    cmd = rng.choice(OUTPUT_COMMANDS)
    names = _inputs_for(rng, cmd, cwd, case)
    out = rng.choice(["missing/out.json", "missing/deeper/out.html", f"{names[0]}/out.json", "missing/"])
    case.layout.append(f"-o {out}")
    _keep(case, [cwd / n for n in names])
    case.absent.append(cwd / "missing")
    case.argv = [cmd, "-o", out, *names]
    case.good, case.codes = [], frozenset({2})
    return case


def case_output_onto_directory(rng: random.Random, cwd: Path) -> Case:
    """-o naming a directory (or a symlink to one, or the walked input directory): one line, exit 2."""
    case = Case("output-onto-directory", cwd)
    cmd = rng.choice(OUTPUT_COMMANDS)
    names = _inputs_for(rng, cmd, cwd, case)
    (cwd / "outdir").mkdir()
    (cwd / "outdir" / "keep.txt").write_text("kept\n")
    how = rng.choice(["outdir", "outdir/", "link", ".", "input-dir"])
    out, args = how, names
    if how == "link":
        (cwd / "dirlink").symlink_to("outdir")
        out = "dirlink"
    elif how == "input-dir":
        out, args = "outdir", (names if cmd == "compare" else ["outdir", *names])
    case.layout.append(f"-o {out} (a directory)")
    _keep(case, [cwd / n for n in names] + [cwd / "outdir" / "keep.txt"])
    case.dirs_unchanged = {cwd / "outdir": ["keep.txt"]}
    case.argv = [cmd, "-o", out, *args]
    case.good, case.codes = [], frozenset({2})
    return case


#: Case kinds by name, in the order of a round: case #n is kind n % len of round n // len.
FILE_TYPE_CASES = {c.__name__[5:].replace("_", "-"): c for c in (
    case_fifo_report, case_fifo_random, case_fifo_idle_in_dir, case_device_in_dir, case_device_named,
    case_unreadable, case_output_onto_input, case_output_onto_found_input, case_output_missing_dir,
    case_output_onto_directory, case_symlink_loop)}


def _feed(path: Path, chunks: list[bytes], hold: float, stop: threading.Event) -> None:
    """Write to a FIFO once a reader has opened it (polled: a blocking open would wait forever for a CLI that
    never reads this pipe); stop when told, or when the reader goes away."""
    fd = None
    while fd is None and not stop.is_set():
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            if e.errno != errno.ENXIO:  # ENXIO: no reader yet
                return
            stop.wait(0.01)
    if fd is None:
        return
    os.set_blocking(fd, True)
    try:
        for chunk in chunks:
            view = memoryview(chunk)
            while view and not stop.is_set():
                view = view[os.write(fd, view):]
        stop.wait(hold)
    except OSError:  # the reader closed it (enough bytes, or killed)
        pass
    finally:
        os.close(fd)


def _session(sid: int) -> list[tuple[int, str, int]]:
    """(pid, state, CPU ticks) of every process in the session ``sid`` (the CLI and its workers)."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid:  # state ppid pgrp session ... utime(14) stime(15)
            out.append((int(name), fields[0].decode(), int(fields[11]) + int(fields[12])))
    return out


def _waiting_in(procs) -> str:
    where = []
    for pid, state, _ in procs:
        try:
            where.append(Path(f"/proc/{pid}/wchan").read_text().strip() or state)
        except OSError:
            where.append(state)
    return ", ".join(where)


def run_cli(argv: list[str], cwd: Path, timeout: float = FILE_TYPE_TIMEOUT,
            stall: float | None = STALL_SECONDS) -> tuple[int | None, str, str, str | None]:
    """(exit code or None when killed, stdout, stderr, why it was killed) of ``python -m awrscope *argv``."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("AWRSCOPE_DEBUG", None)  # that one shows tracebacks on purpose
    env.pop("AWRSCOPE_DB", None)
    watch = stall is not None and os.path.isdir("/proc/self")
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([sys.executable, "-m", "awrscope", *argv], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                             stdout=out, stderr=err, start_new_session=True)
        t0 = time.monotonic()
        killed, last, quiet_since = None, None, t0
        while killed is None:
            try:
                p.wait(timeout=0.1 if watch else timeout)
                break
            except subprocess.TimeoutExpired:
                pass
            now = time.monotonic()
            if now - t0 > timeout:
                killed = f"still running after {timeout:g} s"
            elif watch and now - t0 > 1.0:
                procs = _session(p.pid)
                cpu = sum(t for _, _, t in procs)
                if any(s not in "SZI" for _, s, _ in procs) or cpu != last:
                    last, quiet_since = cpu, now
                elif now - quiet_since >= stall:
                    killed = (f"hangs: its {len(procs)} process(es) asleep with no CPU used for {stall:g} s "
                              f"(waiting in: {_waiting_in(procs)})")
        leftover = _session(p.pid) if watch and not killed else []
        for _ in range(20):  # workers still on their way out
            if not leftover:
                break
            time.sleep(0.05)
            leftover = _session(p.pid)
        if killed or leftover:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)  # the process group this run created, workers included
            p.wait()
        if leftover and not killed:
            killed = f"exited but left {len(leftover)} process(es) running"
        out.seek(0)
        err.seek(0)
        return (None if killed and p.returncode < 0 else p.returncode), out.read().decode("utf-8", "replace"), \
            err.read().decode("utf-8", "replace"), killed


def _analysed(doc, out: set[str]) -> None:
    """Base names of the sources a JSON document holds as analysed (not error rows)."""
    if isinstance(doc, dict):
        if "error" in doc:
            return
        if isinstance(doc.get("path"), str):
            out.add(os.path.basename(doc["path"]))
        for k, v in doc.items():
            if k != "errors":
                _analysed(v, out)
    elif isinstance(doc, list):
        for v in doc:
            _analysed(v, out)


def check_case(case: Case, code: int | None, stdout: str, stderr: str, killed: str | None) -> list[str]:
    """What broke the contract in one run (empty when it held)."""
    problems = [killed] if killed else []
    db = case.argv[:2] == ["db", "import"]
    if "Traceback" in stderr:
        problems.append("traceback on stderr")
    odd = [line for line in stderr.splitlines() if line.strip() and not line.startswith("awrscope: ")
           and not (db and _DB_LINE.match(line))]
    if odd:
        problems.append(f"stderr line not 'awrscope: ...': {odd[0][:200]!r}")
    if code == 3 or "internal error" in stderr:
        problems.append("internal error (exit 3)")
    elif code is not None and code not in case.codes:
        problems.append(f"exit {code}, expected {'/'.join(map(str, sorted(case.codes)))}")
    if case.good and not killed:
        names: set[str] = set()
        if db:
            rows = [_DB_LINE.match(line) for line in stderr.splitlines()]
            names = {m.group(2).rsplit("/", 1)[-1] for m in rows if m and m.group(2)}
        else:
            text = case.output.read_text("utf-8", "replace") if case.output and case.output.is_file() else stdout
            try:
                _analysed(json.loads(text), names)
            except ValueError:
                problems.append("the output is not JSON")
        missed = [g for g in case.good if not any(n == g or n.startswith(g + ":") for n in names)]
        if missed:
            problems.append(f"good report(s) not analysed: {', '.join(missed)}")
    for p, data in case.unchanged.items():
        if not p.is_file() or p.read_bytes() != data:
            problems.append(f"input {_rel(p, case.cwd)} changed ({len(data)} bytes before, "
                            f"{p.stat().st_size if p.is_file() else 'no file'} after)")
    for d, listing in case.dirs_unchanged.items():
        if not d.is_dir() or sorted(os.listdir(d)) != listing:
            problems.append(f"directory {_rel(d, case.cwd)} changed")
    problems += [f"{_rel(p, case.cwd)} was created" for p in case.absent if os.path.lexists(p)]
    leftovers = [q for q in case.cwd.rglob(".awrscope-*")]
    if leftovers:
        problems.append(f"temporary output left behind: {_rel(leftovers[0], case.cwd)}")
    return problems


def run_file_types(rounds: int, seed: int, cases: list[str] | None = None, seconds: float | None = None,
                   timeout: float = FILE_TYPE_TIMEOUT, stall: float | None = STALL_SECONDS,
                   log=None, only: int | None = None, first_failure: bool = False) -> FileTypeStats:
    """``rounds`` rounds of every case kind (or ``cases``), each built afresh from ``seed`` and its number (case
    #n is the same whatever ran before it: ``only`` runs that one again); stops early after ``seconds``, or
    at the first failure with ``first_failure``."""
    kinds = list(FILE_TYPE_CASES)
    names = list(cases or kinds) if only is None else [kinds[only % len(kinds)]]
    stats = FileTypeStats()
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="awrscope-filetypes-") as tmp:
        for r in (range(rounds) if only is None else [only // len(kinds)]):
            if seconds is not None and time.monotonic() - t0 > seconds:
                break
            for name in names:
                n = r * len(kinds) + kinds.index(name)
                cwd = Path(tmp) / f"case{n}"
                cwd.mkdir()
                case = FILE_TYPE_CASES[name](random.Random(seed * 1_000_003 + n), cwd)
                stats.per_case.setdefault(name, Counter())
                if case.skip:
                    outcome, problems = "skipped", []
                    stats.notes.add(case.skip)
                else:
                    stop = threading.Event()
                    threads = [threading.Thread(target=_feed, args=(*w, stop), daemon=True) for w in case.writers]
                    for t in threads:
                        t.start()
                    try:
                        code, out, err, killed = run_cli(case.argv, cwd, timeout, stall)
                    finally:
                        stop.set()
                        for t in threads:
                            t.join(5)
                        for p, mode in case.restore:
                            with contextlib.suppress(OSError):
                                p.chmod(mode)
                    outcome = "killed" if code is None else f"exit {code}"
                    problems = check_case(case, code, out, err, killed)
                    stats.ran += 1
                    if problems:
                        tail = " | ".join(err.strip().splitlines()[-2:])[:300]
                        stats.failures.append(f"{name} #{n} (seed {seed}): {'; '.join(problems)}\n"
                                              f"    awrscope {' '.join(case.argv)}\n"
                                              f"    entries: {'; '.join(case.layout)}\n    stderr: {tail}")
                stats.outcomes[outcome] += 1
                stats.per_case[name][outcome] += 1
                for p, mode in case.restore:  # a skipped case too: the directory must be removable
                    with contextlib.suppress(OSError):
                        p.chmod(mode)
                if first_failure and stats.failures:
                    return stats
                if log and n % 50 == 0 and n:
                    log(f"  ... case {n}: {stats.ran} run, {len(stats.failures)} failures, "
                        f"{time.monotonic() - t0:.0f} s")
    return stats


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--save", type=Path, default=Path(tempfile.gettempdir()) / "awrscope-fuzz-failures",
                    help="where failing inputs are written (byte-exact)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes")
    ap.add_argument("--no-memory", action="store_true", help="skip the traced-memory bound (3x faster)")
    ap.add_argument("--cli", action="store_true", help="each input also through one CLI command (CLI_RUNS)")
    ap.add_argument("--replay", type=Path, nargs="*", help="check these saved inputs instead")
    ap.add_argument("--file-types", action="store_true", help="run the file-type stage through the CLI instead")
    ap.add_argument("--rounds", type=int, default=10, help="file types: rounds of every case kind")
    ap.add_argument("--seconds", type=float, help="file types: start no round after this many seconds")
    ap.add_argument("--case", action="append", choices=sorted(FILE_TYPE_CASES), help="file types: only these kinds")
    ap.add_argument("--timeout", type=float, default=FILE_TYPE_TIMEOUT, help="file types: kill a run after this")
    ap.add_argument("--number", type=int, help="file types: run case #N (of --seed) again, alone")
    args = ap.parse_args()
    if args.file_types:
        t0 = time.perf_counter()
        stats = run_file_types(args.rounds, args.seed, args.case, args.seconds, args.timeout,
                               log=lambda m: print(m, file=sys.stderr, flush=True), only=args.number)
        for f in stats.failures:
            print(f)
        print(stats.summary())
        print(f"{len(stats.failures)} failures, {time.perf_counter() - t0:.0f} s")
        return 1 if stats.failures else 0
    if args.replay:
        with tempfile.TemporaryDirectory() as tmp:
            bad = [(p, check(p.read_bytes(), Path(tmp), not args.no_memory)) for p in args.replay]
        for p, problem in bad:
            print(f"{p}: {problem or 'ok'}")
        return 1 if any(problem for _, problem in bad) else 0
    t0 = time.perf_counter()
    codes: Counter = Counter()
    failures = run(args.count, args.seed, args.corpus, args.save, jobs=args.jobs, memory=not args.no_memory,
                   cli=args.cli, codes=codes)
    for f in failures:
        print(f)
    for (cmd, code), k in sorted(codes.items()):
        print(f"  {cmd}: exit {code} x {k}")
    if codes:
        by_code = Counter()
        for (_, code), k in codes.items():
            by_code[code] += k
        print("  exit codes: " + ", ".join(f"{c}: {k}" for c, k in sorted(by_code.items())))
    print(f"{args.count} inputs, {len(failures)} failures, {time.perf_counter() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
