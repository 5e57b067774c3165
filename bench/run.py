#!/usr/bin/env python3
"""Throughput and latency of awrscope on the shared corpus, phase by phase.

    python bench/run.py                 # all corpus reports, 3 repetitions, best of 3
    python bench/run.py --kind statspack --repeat 5
    python bench/run.py --files a.txt b.html
    python bench/run.py --no-cli --peers ~/peers   # also time jas-min / awr2csv found there

Prints for each phase (read+decode, detect+split, section parsing, metrics+rules,
rendering) MB/s and reports/s; per-report latency (median, max); peak traced
memory as a multiple of the input size; the whole-CLI time for one typical report
(interpreter start included); and the ratio of the full parse to the bare
read+decode of the same bytes (the floor any parser pays). The floor is measured
twice: the pipeline's own read phase (``read_sources``, which also hashes with
sha256) and, separately, bare ``open().read()`` + ``decode()`` alone, best of
--floor-repeat runs per file. With --peers DIR, the peer tools found there or on
PATH (jas-min, an awr2csv checkout) are timed on the same reports against the
whole ``awrscope analyze --format json -j 1`` CLI. Not a test: nothing here
asserts a time.
"""
from __future__ import annotations

import argparse
import csv
import gzip
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
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
    t["cells"] = _cells(report)
    return t


_NOT_TIMES = ("bytes", "html", "cells")


def _cells(report) -> int:
    """Parsed cells of a report (each row's values and texts, and its name): text reports carry three times
    the cells of an HTML report per byte, so per cell is how the two formats' parsers compare."""
    sections = list(report.sections.values()) + [s for p in report.periods for s in p.sections.values()]
    return sum(len(r.values) + len(r.text) + 1 for s in sections for r in s.rows)


def _runs(cmd: list[str], env: dict, n: int = 7) -> list[float]:
    """Wall times of a command, the first (cold page cache, template cache written) not counted."""
    subprocess.run(cmd, capture_output=True, env=env)
    runs = []
    for _ in range(n):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, env=env)
        runs.append(time.perf_counter() - t0)
    return runs


def _total(t: dict) -> float:
    return sum(v for k, v in t.items() if k not in _NOT_TIMES)


def _read_plain(path: Path) -> bytes:
    """The file's bytes, gunzipped when they are gzip (two corpus files are): what the reports hold."""
    with open(path, "rb") as fh:
        data = fh.read()
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def floor_seconds(paths: list[Path], repeat: int) -> float:
    """The floor any parser pays: open(path, 'rb').read() + decode(data), nothing else (no sha256, no
    size checks). Best time per file over `repeat` runs, summed over the files (gzip files are
    decompressed inside the timed read)."""
    total = 0.0
    for p in paths:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            with open(p, "rb") as fh:
                data = fh.read()
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            decode(data)
            best = min(best, time.perf_counter() - t0)
        total += best
    return total


# --- peers -----------------------------------------------------------------------------------------
# jas-min (github.com/ora600pl/jas-min, Rust): `jas-min --file F` parses one AWR (HTML or text) or
# Statspack report and prints its JSON to stdout; `--directory D` parses a directory of .txt/.html
# reports of ONE database as a time series (and panics on a report it cannot read), so the per-report
# comparison uses --file, one process per report. It tells HTML from text by the file extension.
# awr2csv (github.com/yasushiyy/awr2csv, forked as 1newstar/awr2csv): `python awrhtml2csv.py F...`
# (AWR HTML, ElementTree, so well-formed pages only) and `python awrtext2csv.py F...` (AWR text,
# written against 11.2.0.4) write one CSV per section into the current directory, all files in one
# process.

PEER_FILE_TIMEOUT = 60.0     # seconds for one peer run on one report
PEER_BATCH_TIMEOUT = 600.0   # seconds for one peer run on all its reports


def _find_jas_min(peers_dir: Path) -> tuple[list[str] | None, str]:
    cands = [peers_dir / "jas-min", peers_dir / "jas-min" / "target" / "release" / "jas-min",
             peers_dir / "jas-min" / "jas-min"]
    for c in cands:
        if c.is_file() and os.access(c, os.X_OK):
            return [str(c)], str(c)
    on_path = shutil.which("jas-min")
    if on_path:
        return [on_path], on_path
    return None, "looked for " + ", ".join(str(c) for c in cands) + " and `jas-min` on PATH"


def _find_awr2csv(peers_dir: Path, script: str) -> tuple[Path | None, str]:
    cands = [peers_dir / "awr2csv" / script, peers_dir / "awr2csv-master" / script, peers_dir / script]
    for c in cands:
        if c.is_file():
            return c, str(c)
    return None, "looked for " + ", ".join(str(c) for c in cands)


def _timed(cmd: list[str], cwd: str, timeout: float, env=None) -> tuple[float, int | str, str]:
    """One run: (seconds, exit code or 'timeout', last stderr line). Output goes to /dev/null and the
    run's own files into cwd (a temporary directory)."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout, env=env, check=False)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - t0, "timeout", f"killed after {timeout:g} s"
    except OSError as e:
        return time.perf_counter() - t0, "cannot run", str(e)
    dt = time.perf_counter() - t0
    lines = p.stderr.decode("utf-8", "replace").strip().splitlines()
    return dt, p.returncode, lines[-1][:160] if lines else ""


def _stage(paths: list[Path], into: Path) -> list[dict]:
    """Plain copies of the reports (gunzipped, named .html/.txt by content as jas-min needs), with the
    kind and format awrscope detects; every tool reads these same files."""
    into.mkdir()
    staged = []
    for i, p in enumerate(paths):
        data = _read_plain(p)
        det = detect(decode(data)[0])
        stem = p.name.removesuffix(".gz").rsplit(".", 1)[0]
        q = into / f"{i:03d}_{stem}.{'html' if det.format == 'html' else 'txt'}"
        q.write_bytes(data)
        staged.append({"path": q, "bytes": len(data), "kind": det.kind, "format": det.format})
    return staged


def run_peers(peers_dir: Path, paths: list[Path], repeat: int, peer_python: str) -> None:
    print(f"peers (--peers {peers_dir}): each on the benchmarked reports it reads, best of {repeat}, "
          f"run in a temporary directory")
    peers = []  # (label, how, argv prefix, accepts(report))
    jas, where = _find_jas_min(peers_dir)
    if jas:
        peers.append(("jas-min --file", "per file", jas + ["--file"],
                      lambda r: r["kind"] in ("awr", "statspack")))
    else:
        print(f"  jas-min: not found ({where})")
    for script, fmt in (("awrhtml2csv.py", "html"), ("awrtext2csv.py", "text")):
        found, where = _find_awr2csv(peers_dir, script)
        if found:
            peers.append((f"awr2csv {script}", "batch", [peer_python, str(found)],
                          lambda r, fmt=fmt: r["kind"] == "awr" and r["format"] == fmt))
        else:
            print(f"  awr2csv {script}: not found ({where})")
    if not peers:
        return

    env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.TemporaryDirectory(prefix="awrscope-peers-") as tmp:
        staged = _stage(paths, Path(tmp) / "in")
        out = Path(tmp) / "out"  # every tool's working directory: whatever it writes stays in tmp
        out.mkdir()
        awrscope_cache: dict[tuple, tuple[float, int | str, str]] = {}

        def awrscope_cli(files: list[dict], jobs: str = "1"):
            key = (jobs, *(str(r["path"]) for r in files))
            if key not in awrscope_cache:
                cmd = [sys.executable, "-m", "awrscope", "analyze", "--format", "json", *(("-j", jobs) if jobs else ()),
                       *key[1:]]
                runs = [_timed(cmd, str(out), PEER_BATCH_TIMEOUT, env) for _ in range(repeat)]
                ok = [r for r in runs if r[1] in (0, 1)]
                awrscope_cache[key] = min(ok) if ok else runs[-1]
            return awrscope_cache[key]

        def ratio_words(peer_s: float, mine_s: float) -> str:
            ratio = peer_s / mine_s
            return f"{ratio:.2f}x faster" if ratio >= 1 else f"{1 / ratio:.2f}x slower"

        rows = []
        for label, how, argv, accepts in peers:
            mine = [r for r in staged if accepts(r)]
            if not mine:
                print(f"  {label}: no benchmarked report of the kind it reads")
                continue
            failed: list[tuple[dict, int | str, str]] = []
            if how == "per file":  # one process per report, best of `repeat` per report, summed
                ok, secs = [], 0.0
                for r in mine:
                    runs = [_timed(argv + [str(r["path"])], str(out), PEER_FILE_TIMEOUT) for _ in range(repeat)]
                    good = [x for x in runs if x[1] == 0]
                    if good:
                        ok.append(r)
                        secs += min(x[0] for x in good)
                    else:
                        failed.append((r, runs[-1][1], runs[-1][2]))
            else:  # all reports in one process; when that fails, find the reports it reads one by one
                ok = mine
                first = _timed(argv + [str(r["path"]) for r in ok], str(out), PEER_BATCH_TIMEOUT)
                if first[1] != 0:
                    ok = []
                    for r in mine:
                        x = _timed(argv + [str(r["path"])], str(out), PEER_FILE_TIMEOUT)
                        if x[1] == 0:
                            ok.append(r)
                        else:
                            failed.append((r, x[1], x[2]))
                runs = [first] if first[1] == 0 else []
                if ok:
                    runs += [_timed(argv + [str(r["path"]) for r in ok], str(out), PEER_BATCH_TIMEOUT)
                             for _ in range(repeat - len(runs))]
                good = [x for x in runs if x[1] == 0]
                secs = min(x[0] for x in good) if good else 0.0
                if ok and not good:
                    failed += [(r, runs[-1][1], runs[-1][2]) for r in ok]
                    ok = []
            rows.append((label, how, len(mine), ok, secs, failed))

        print(f"  {'peer':<30}{'files':>9}{'MB':>7}{'seconds':>10}{'MB/s':>8}{'awrscope s':>12}  awrscope is")
        for label, how, tried, ok, secs, failed in rows:
            mb = sum(r["bytes"] for r in ok) / 1e6
            if ok:
                a_secs, a_rc, a_err = awrscope_cli(ok)
                if a_rc in (0, 1):
                    verdict = ratio_words(secs, a_secs) + " on one core (-j 1)"
                    d_secs, d_rc, _ = awrscope_cli(ok, jobs="")
                    if d_rc in (0, 1):
                        verdict += f"; {ratio_words(secs, d_secs)} with default jobs ({d_secs:.3f} s)"
                    a_col = f"{a_secs:>12.3f}"
                else:
                    verdict, a_col = f"(awrscope exit {a_rc}: {a_err})", f"{'-':>12}"
                print(f"  {label:<30}{f'{len(ok)}/{tried}':>9}{mb:>7.1f}{secs:>10.3f}{mb / secs:>8.1f}{a_col}  {verdict}")
            else:
                print(f"  {label:<30}{f'0/{tried}':>9}{'-':>7}{'-':>10}{'-':>8}{'-':>12}  (read none)")
            if failed:
                r, rc, err = failed[0]
                print(f"    {len(failed)} not read (exit {rc}), e.g. {r['path'].name[4:]}: {err}")
        print("  (awrscope: the whole `awrscope analyze --format json` CLI, one process over the files the "
              "peer read, with -j 1 and with the default jobs (one worker per core), interpreter start included; "
              "jas-min --file: one process per report, start-up included)")
        jas_read = next((ok for label, how, _, ok, _, _ in rows if label.startswith("jas-min")), [])
        if jas_read and jas:
            one = min(jas_read, key=lambda r: abs(r["bytes"] - 1_000_000))  # the issue's "one 1 MB report"
            mine_cmd = [sys.executable, "-m", "awrscope", "analyze", "--format", "json", str(one["path"])]
            theirs, ours = [], []
            for _ in range(9):  # alternating pairs: both see the same machine state
                theirs.append(_timed(jas + ["--file", str(one["path"])], str(out), PEER_FILE_TIMEOUT)[0])
                ours.append(_timed(mine_cmd, str(out), PEER_FILE_TIMEOUT, env)[0])
            t_med, o_med = statistics.median(theirs), statistics.median(ours)
            print(f"  one report, {one['path'].name[4:]} ({one['bytes'] / 1e6:.2f} MB), median of 9 alternating runs: "
                  f"jas-min --file {t_med * 1000:.0f} ms, awrscope analyze --format json {o_med * 1000:.0f} ms: "
                  f"awrscope at {t_med / o_med:.2f}x jas-min's speed")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", help="only corpus reports of this manifest kind")
    ap.add_argument("--files", nargs="*", help="benchmark these files instead of the corpus")
    ap.add_argument("--repeat", type=int, default=3, help="repetitions; the best time per report counts")
    ap.add_argument("--no-cli", action="store_true", help="skip the whole-CLI timing")
    ap.add_argument("--parallel", action="store_true",
                    help="also time `awrscope analyze` on the whole corpus with -j 1 and one process per core")
    ap.add_argument("--floor-repeat", type=int, default=5,
                    help="runs of bare open().read() + decode() per file for the floor; the best counts")
    ap.add_argument("--peers", metavar="DIR", type=Path,
                    help="also time peer tools found in DIR or on PATH (jas-min; an awr2csv checkout) "
                         "on the same reports")
    ap.add_argument("--peer-python", default=sys.executable,
                    help="interpreter for awr2csv's scripts (default: this one)")
    args = ap.parse_args()

    if args.files:
        paths = [Path(f) for f in args.files]
    else:
        rows = list(csv.DictReader(open(CORPUS / "manifest.tsv", newline=""), delimiter="\t"))
        paths = [CORPUS / "reports" / r["local_file"] for r in rows if not args.kind or r["kind"] == args.kind]
    analyze, analysis_document = _analyze()  # second item: unused, kept for older diagnosis layers

    per_report: list[dict[str, float]] = []
    kept: list[Path] = []  # the benchmarked reports, in per_report's order
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
        kept.append(p)

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
            cells = sum(t["cells"] for t in sub)
            print(f"  {label:<6} reports: {len(sub):>4}, {smb:6.1f} MB, all phases {s:7.3f} s = {smb / s:5.1f} MB/s; "
                  f"{cells:,} cells ({cells / smb:,.0f} per MB) = {cells / s / 1e3:,.0f}k cells/s")
    lat = sorted(sum(t[ph] for ph in phases) for t in per_report)
    print(f"per-report latency: median {statistics.median(lat) * 1000:.1f} ms, max {lat[-1] * 1000:.1f} ms")
    floor = sum(t["read+decode"] for t in per_report)
    print(f"full pipeline / bare read+decode: {total / floor:.1f}x")
    # the issue-20 target: parse+analyse (no read phase) <= 40x the floor, the floor measured alone
    bare = floor_seconds(kept, args.floor_repeat)
    parse_analyse = total - floor
    print(f"floor, bare open().read() + decode() alone (best of {args.floor_repeat} per file, summed): "
          f"{bare:.3f} s = {mb / bare:.1f} MB/s")
    print(f"parse+analyse (detect+split, section parsing, metrics+rules, rendering) / floor: "
          f"{parse_analyse / bare:.1f}x   (full pipeline, its read phase included, / floor: {total / bare:.1f}x)")

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
        corpus_files = [str(p) for p in paths if p.exists()]
        corpus_mb = sum(p.stat().st_size for p in paths if p.exists()) / 1e6
        whole: dict[tuple[str, str], float] = {}
        for fmt, jobs in (("json", "1"), ("json", "0"), ("html", "1")):
            # in-process main() with the peak RSS (VmHWM) printed last: the one HTML page holds every report
            code = (hwm + "import sys\nfrom awrscope.cli import main\n"
                    "try:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
                    "sys.stderr.write('\\nVmHWM %d\\n' % _hwm_kb())\n")
            cmd = [sys.executable, "-c", code, "analyze", "--format", fmt, "-j", jobs, "-o",
                   os.devnull if fmt == "json" else str(Path(tempfile.gettempdir()) / "awrscope-bench.html"),
                   *corpus_files]
            t0 = time.perf_counter()
            p = subprocess.run(cmd, capture_output=True, env=env)
            dt = whole[fmt, jobs] = time.perf_counter() - t0
            if b"no such option" in p.stderr.lower():
                print("many inputs: this version has no -j/--jobs option")
                break
            peak = p.stderr.rsplit(b"VmHWM", 1)[-1].split()
            print(f"whole CLI `awrscope analyze --format {fmt} -j {jobs}` on all {len(paths)} corpus files "
                  f"({'one process' if jobs == '1' else 'one process per core'}): {dt:.1f} s = {corpus_mb / dt:.1f} MB/s"
                  + (f", peak RSS {int(peak[0]) / 1024:.0f} MiB" if peak and peak[0].isdigit() and jobs == "1" else ""))
        if ("html", "1") in whole:
            print(f"HTML page / JSON output speed, whole corpus, one process: "
                  f"{whole['json', '1'] / whole['html', '1']:.2f}x")

    if not args.no_cli:
        # this checkout's code, not whatever `awrscope` is installed: python -m awrscope with src/ on the path
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", ""))
        verb = "analyze" if analyze else "parse"
        readable = [p for p in paths if p.exists()]
        typical = min(readable, key=lambda p: abs(p.stat().st_size - 1_000_000))  # the issue's "typical 1 MB report"
        median_size = sorted(readable, key=lambda p: p.stat().st_size)[len(readable) // 2]
        for label, target, fmt in (("a typical 1 MB report", typical, "json"), ("a typical 1 MB report", typical, "html"),
                                   ("the median-size report", median_size, "json")):
            if fmt == "html" and verb != "analyze":
                continue
            runs = _runs([sys.executable, "-m", "awrscope", verb, "--format", fmt, str(target)], env)
            print(f"whole CLI `awrscope {verb} --format {fmt}` on {label} ({target.name}, "
                  f"{target.stat().st_size / 1e6:.2f} MB): median {statistics.median(runs) * 1000:.0f} ms, "
                  f"best {min(runs) * 1000:.0f} ms (interpreter start included)")
        runs = _runs([sys.executable, "-m", "awrscope", "--help"], env)
        print(f"interpreter start + import (`awrscope --help`): median {statistics.median(runs) * 1000:.0f} ms")
        runs = _runs([sys.executable, "-c", "pass"], env)
        print(f"bare interpreter start (`python -c pass`, this interpreter's site hooks included): "
              f"median {statistics.median(runs) * 1000:.0f} ms")
    if args.peers:  # the same reports the phases above measured
        run_peers(args.peers.resolve(), kept, args.repeat, args.peer_python)  # the tools run in a temporary cwd
    return 0


if __name__ == "__main__":
    sys.exit(main())
