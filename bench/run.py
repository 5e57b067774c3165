#!/usr/bin/env python3
"""Throughput and latency of awrscope on the shared corpus, phase by phase.

    python bench/run.py                 # all corpus reports, 3 repetitions, best of 3
    python bench/run.py --kind statspack --repeat 5
    python bench/run.py --files a.txt b.html

Prints for each phase (read+decode, detect+split, section parsing, metrics+rules,
rendering) MB/s and reports/s; per-report latency (median, max); peak traced
memory as a multiple of the input size; the whole-CLI time for one typical report
(interpreter start included); and the ratio of the full parse to the bare
read+decode of the same bytes (the floor any parser pays). Not a test: nothing
here asserts a time.
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from awrscope.errors import AwrscopeError  # noqa: E402
from awrscope.parsers.report import build_report  # noqa: E402
from awrscope.parsers.detect import detect  # noqa: E402
from awrscope.parsers.source import decode, read_sources  # noqa: E402
from awrscope.parsers.report.text import blocks_from_text, normalise_lines  # noqa: E402
from awrscope.serialize import parse_document  # noqa: E402
from awrscope.render.json import to_json  # noqa: E402

CORPUS = Path(os.environ.get("AWRSCOPE_CORPUS") or ROOT.parent / "shared" / "corpus")  # as tests/conftest.py


def _analyze():
    try:  # the diagnosis layer, when present: analyze(report) is the JSON-ready document
        from awrscope.analysis import analyze  # type: ignore
        return analyze, None
    except ImportError:
        return None, None


def split(text: str):
    det = detect(text)
    if det.format == "html":
        from awrscope.parsers.report.html import blocks_from_html
        header_lines, first, blocks, issues = blocks_from_html(text)
    else:
        header_lines, first, blocks = blocks_from_text(normalise_lines(text))
        issues = []
    return det, header_lines, first, blocks, issues


def run_once(path: Path, analyze, analysis_document) -> dict[str, float] | None:
    t = {}
    t0 = time.perf_counter()
    src = read_sources(str(path))[0]
    text, _ = decode(src.data)
    t1 = time.perf_counter()
    det, header_lines, first, blocks, issues = split(text)
    if det.kind not in ("awr", "statspack", "awr_global", "awr_diff"):
        return None
    t2 = time.perf_counter()
    report = build_report(det, header_lines, first, blocks, issues, text)
    t3 = time.perf_counter()
    analysis = analyze(report) if analyze else None
    t4 = time.perf_counter()
    to_json(analysis if analysis is not None else parse_document(report))
    t5 = time.perf_counter()
    t["read+decode"] = t1 - t0
    t["detect+split"] = t2 - t1
    t["section parsing"] = t3 - t2
    t["metrics+rules"] = t4 - t3
    t["rendering"] = t5 - t4
    t["bytes"] = src.size
    t["html"] = det.format == "html"
    return t


def _total(t: dict) -> float:
    return sum(v for k, v in t.items() if k not in ("bytes", "html"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", help="only corpus reports of this manifest kind")
    ap.add_argument("--files", nargs="*", help="benchmark these files instead of the corpus")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions; the best time per report counts")
    ap.add_argument("--no-cli", action="store_true", help="skip the whole-CLI timing")
    ap.add_argument("--parallel", action="store_true",
                    help="also time `awrscope analyze` on the whole corpus with -j 1 and one process per core")
    args = ap.parse_args()

    if args.files:
        paths = [Path(f) for f in args.files]
    else:
        rows = list(csv.DictReader(open(CORPUS / "manifest.tsv", newline=""), delimiter="\t"))
        paths = [CORPUS / "reports" / r["local_file"] for r in rows if not args.kind or r["kind"] == args.kind]
    analyze, analysis_document = _analyze()  # second item: unused, kept for older diagnosis layers

    per_report: list[dict[str, float]] = []
    skipped = 0
    for p in paths:
        best = None
        for _ in range(args.repeat):
            try:
                t = run_once(p, analyze, analysis_document)
            except AwrscopeError:
                t = None
            if t is None:
                break
            if best is None or _total(t) < _total(best):
                best = t
        if best is None:
            skipped += 1
            continue
        per_report.append(best)

    if not per_report:
        print("nothing to benchmark")
        return 1
    total_bytes = sum(t["bytes"] for t in per_report)
    mb = total_bytes / 1e6
    phases = ["read+decode", "detect+split", "section parsing", "metrics+rules", "rendering"]
    print(f"awrscope benchmark — {platform.node()} · {platform.processor() or platform.machine()} · "
          f"{os.cpu_count()} cores · Python {platform.python_version()}")
    print(f"{len(per_report)} reports ({skipped} skipped: ASH/ADDM/unreadable), {mb:.1f} MB, best of {args.repeat}")
    print(f"{'phase':<18}{'seconds':>10}{'MB/s':>10}{'reports/s':>12}")
    total = 0.0
    for ph in phases:
        s = sum(t[ph] for t in per_report)
        total += s
        note = "" if ph != "metrics+rules" or analyze else "   (diagnosis layer not installed)"
        print(f"{ph:<18}{s:>10.3f}{(mb / s if s else float('inf')):>10.1f}{(len(per_report) / s if s else float('inf')):>12.1f}{note}")
    print(f"{'all phases':<18}{total:>10.3f}{mb / total:>10.1f}{len(per_report) / total:>12.1f}")
    for label, is_html in (("text", False), ("HTML", True)):
        sub = [t for t in per_report if t["html"] == is_html]
        if sub:
            s = sum(_total(t) for t in sub)
            smb = sum(t["bytes"] for t in sub) / 1e6
            print(f"  {label:<6} reports: {len(sub):>4}, {smb:6.1f} MB, all phases {s:7.3f} s = {smb / s:5.1f} MB/s")
    lat = sorted(sum(t[ph] for ph in phases) for t in per_report)
    print(f"per-report latency: median {statistics.median(lat) * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")
    floor = sum(t["read+decode"] for t in per_report)
    print(f"full pipeline / bare read+decode: {total / floor:.1f}x")

    # peak memory of the largest report, traced
    biggest = max(paths, key=lambda p: p.stat().st_size if p.exists() else 0)
    tracemalloc.start()
    try:
        run_once(biggest, analyze, analysis_document)
    except AwrscopeError:
        pass
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    size = biggest.stat().st_size
    print(f"peak traced memory on the largest report ({biggest.name}, {size / 1e6:.1f} MB): "
          f"{peak / 1e6:.1f} MB = {peak / size:.1f}x its size")

    # peak RSS (C allocations included: libxml2's tree is not traced) in a fresh interpreter
    hwm = ("def _hwm_kb():\n"  # VmHWM: ru_maxrss would include the parent's high-water mark
           "    for l in open('/proc/self/status'):\n"
           "        if l.startswith('VmHWM:'):\n"
           "            return int(l.split()[1])\n"
           "    import resource\n"
           "    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n")
    code = (hwm + "import json, sys\n"
            "from awrscope.parsers import parse_path\n"
            "from awrscope.analysis import analyze\n"
            "json.dumps(analyze(parse_path(sys.argv[1])[0]), default=str)\n"
            "print(_hwm_kb())\n")
    base = (hwm + "import awrscope.parsers, awrscope.analysis\n"
            "from awrscope.parsers.report import html\n"
            "print(_hwm_kb())\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    try:
        rss = int(subprocess.run([sys.executable, "-c", code, str(biggest)], capture_output=True, env=env,
                                 check=True).stdout.split()[-1]) * 1024
        rss0 = int(subprocess.run([sys.executable, "-c", base], capture_output=True, env=env,
                                  check=True).stdout.split()[-1]) * 1024
        print(f"peak RSS on the largest report: {rss / 1e6:.0f} MB ({(rss - rss0) / 1e6:.0f} MB over the "
              f"{rss0 / 1e6:.0f} MB of a bare interpreter with awrscope imported = {(rss - rss0) / size:.1f}x its size)")
    except (subprocess.CalledProcessError, ValueError, IndexError):
        print("peak RSS: could not be measured")

    if args.parallel and not args.files:
        for jobs in ("1", "0"):
            cmd = [sys.executable, "-m", "awrscope", "analyze", "--format", "json", "-j", jobs,
                   *[str(p) for p in paths if p.exists()]]
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, env=env)
            dt = time.perf_counter() - t0
            if b"no such option" in p.stderr.lower():
                print("many inputs: this version has no -j/--jobs option")
                break
            print(f"whole CLI `awrscope analyze -j {jobs}` on all {len(paths)} corpus files "
                  f"({'one process' if jobs == '1' else 'one process per core'}): {dt:.1f} s = "
                  f"{sum(p.stat().st_size for p in paths if p.exists()) / 1e6 / dt:.1f} MB/s")

    if not args.no_cli:
        # this checkout's code, not whatever `awrscope` is installed: python -m awrscope with src/ on the path
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        verb = "analyze" if analyze else "parse"
        readable = [p for p in paths if p.exists()]
        typical = min(readable, key=lambda p: abs(p.stat().st_size - 1_000_000))  # the issue's "typical 1 MB report"
        median_size = sorted(readable, key=lambda p: p.stat().st_size)[len(readable) // 2]
        for label, target in (("a typical 1 MB report", typical), ("the median-size report", median_size)):
            cmd = [sys.executable, "-m", "awrscope", verb, "--format", "json", str(target)]
            runs = []
            for _ in range(5):
                t0 = time.perf_counter()
                subprocess.run(cmd, capture_output=True, env=env)
                runs.append(time.perf_counter() - t0)
            print(f"whole CLI `awrscope {verb}` on {label} ({target.name}, {target.stat().st_size / 1e6:.2f} MB): "
                  f"median {statistics.median(runs) * 1000:.0f} ms, best {min(runs) * 1000:.0f} ms "
                  f"(interpreter start included)")
        cmd = [sys.executable, "-m", "awrscope", "--help"]
        runs = []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run(cmd, capture_output=True, env=env)
            runs.append(time.perf_counter() - t0)
        print(f"interpreter start + import (`awrscope --help`): median {statistics.median(runs) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
