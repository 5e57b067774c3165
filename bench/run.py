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
import shutil
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from awrscope.errors import AwrscopeError  # noqa: E402
from awrscope.parse import build_report  # noqa: E402
from awrscope.parse.detect import detect  # noqa: E402
from awrscope.parse.source import decode, read_sources  # noqa: E402
from awrscope.parse.text import blocks_from_text, normalise_lines  # noqa: E402
from awrscope.serialize import parse_document  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"


def _analyze():
    try:  # the diagnosis layer, when present
        from awrscope.analysis import analyze, analysis_document  # type: ignore
        return analyze, analysis_document
    except ImportError:
        return None, None


def split(text: str):
    det = detect(text)
    if det.format == "html":
        from awrscope.parse.html import blocks_from_html
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
    json.dumps(analysis_document(analysis) if analysis is not None else parse_document(report), default=str)
    t5 = time.perf_counter()
    t["read+decode"] = t1 - t0
    t["detect+split"] = t2 - t1
    t["section parsing"] = t3 - t2
    t["metrics+rules"] = t4 - t3
    t["rendering"] = t5 - t4
    t["bytes"] = src.size
    return t


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", help="only corpus reports of this manifest kind")
    ap.add_argument("--files", nargs="*", help="benchmark these files instead of the corpus")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions; the best time per report counts")
    ap.add_argument("--no-cli", action="store_true", help="skip the whole-CLI timing")
    args = ap.parse_args()

    if args.files:
        paths = [Path(f) for f in args.files]
    else:
        rows = list(csv.DictReader(open(CORPUS / "manifest.tsv", newline=""), delimiter="\t"))
        paths = [CORPUS / "reports" / r["local_file"] for r in rows if not args.kind or r["kind"] == args.kind]
    analyze, analysis_document = _analyze()

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
            if best is None or sum(v for k, v in t.items() if k != "bytes") < sum(v for k, v in best.items() if k != "bytes"):
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

    if not args.no_cli:
        exe = shutil.which("awrscope")
        typical = sorted(paths, key=lambda p: p.stat().st_size)[len(paths) // 2]
        cmd = [exe, "analyze" if analyze else "parse", "--format", "json", str(typical)] if exe else None
        if cmd:
            runs = []
            for _ in range(5):
                t0 = time.perf_counter()
                subprocess.run(cmd, capture_output=True)
                runs.append(time.perf_counter() - t0)
            print(f"whole CLI `{Path(exe).name} {cmd[1]}` on a typical report ({typical.name}, "
                  f"{typical.stat().st_size / 1e6:.2f} MB): median {statistics.median(runs) * 1000:.0f} ms "
                  f"(interpreter start included)")
        else:
            print("whole CLI: `awrscope` is not on PATH (pip install -e .)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
