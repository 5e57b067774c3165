#!/usr/bin/env python3
"""A short load test of `awrscope serve` on loopback: requests/s and latency per page, server memory.

    python bench/load.py                      # 20 s per scenario, 4 clients, 12 corpus reports stored
    python bench/load.py --seconds 10 --clients 8

Starts the server in a subprocess on 127.0.0.1 and a free port with a fresh SQLite store, imports a
few corpus reports through the JSON API, then runs each scenario for a fixed time with N client
threads issuing requests back to back: the report list page, an analysis page, the JSON API of one
report, a compare page, and uploads (each upload a report not stored yet, so every one is parsed).
Prints for each: requests, requests/s, p50 and p99 latency, errors; and the server's resident memory
(VmRSS sampled every 0.2 s, and its peak VmHWM) over the whole run. Loopback only; bounded in time.
Not a test: nothing here asserts a time.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from _server import Server  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "reports"


def memory_mib(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) of a process in MiB (Linux /proc; (0, 0) elsewhere)."""
    try:
        fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                      if ":" in line)
        return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024
    except (OSError, KeyError, ValueError):
        return 0.0, 0.0


def run_scenario(name: str, request, seconds: float, clients: int) -> dict:
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def client(k: int) -> None:
        with httpx.Client(timeout=120) as c:
            i = 0
            while time.perf_counter() < stop_at:
                t = time.perf_counter()
                try:
                    ok = request(c, k, i)
                except httpx.HTTPError:
                    ok = False
                if ok is None:  # nothing left to do
                    return
                dt = time.perf_counter() - t
                with lock:
                    latencies.append(dt)
                    errors[0] += 0 if ok else 1
                i += 1

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = min(time.perf_counter(), stop_at) - started
    lat = sorted(latencies)
    p = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] * 1000) if lat else (lambda q: float("nan"))
    return {"scenario": name, "requests": len(lat), "rps": len(lat) / wall, "p50_ms": p(0.50),
            "p99_ms": p(0.99), "errors": errors[0]}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="duration of each scenario")
    ap.add_argument("--clients", type=int, default=4, help="concurrent client threads")
    ap.add_argument("--stored", type=int, default=12, help="corpus reports imported before the run")
    args = ap.parse_args()
    reports = sorted(p for p in CORPUS.glob("*") if p.is_file() and p.stat().st_size < 3_000_000
                     and p.name.startswith(("awr_html", "awr_txt", "statspack_")))  # single-window reports: comparable
    if len(reports) < args.stored + 2:
        print(f"need the shared corpus beside the checkout ({CORPUS})", file=sys.stderr)
        return 2
    stored, to_upload = reports[:args.stored], reports[args.stored:]
    tmp = tempfile.mkdtemp(prefix="awrscope-load-")
    srv = Server(str(Path(tmp) / "load.db"), "--max-upload", "64")
    samples: list[float] = []
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.is_set():
            samples.append(memory_mib(srv.proc.pid)[0])
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    try:
        base = srv.base
        ids = []
        t = time.perf_counter()
        for f in stored:
            r = httpx.post(base + "/api/reports", files=[("files", (f.name, f.read_bytes()))], timeout=300)
            ids += [x["id"] for x in r.json()["results"] if x.get("id")]
        import_s = time.perf_counter() - t
        ids = sorted(set(ids))
        cold = []  # the first view of each analysis page parses the report and draws the page, then keeps it
        for rid in ids:
            t = time.perf_counter()
            httpx.get(f"{base}/reports/{rid}", timeout=120)
            cold.append((time.perf_counter() - t) * 1000)
        rss_start = memory_mib(srv.proc.pid)[0]
        sampler.start()
        upload_queue = list(to_upload)
        queue_lock = threading.Lock()

        def ok(r: httpx.Response) -> bool:
            return r.status_code == 200

        def upload(c, k, i):
            with queue_lock:
                if not upload_queue:
                    return None
                f = upload_queue.pop(0)
            return ok(c.post(base + "/api/reports", files=[("files", (f.name, f.read_bytes()))]))

        def pick(k: int, i: int) -> int:
            return ids[(k * 7 + i) % len(ids)]

        scenarios = [
            ("list page  GET /", lambda c, k, i: ok(c.get(base + "/"))),
            ("analysis   GET /reports/ID", lambda c, k, i: ok(c.get(f"{base}/reports/{pick(k, i)}"))),
            ("JSON API   GET /api/reports/ID", lambda c, k, i: ok(c.get(f"{base}/api/reports/{pick(k, i)}"))),
            ("compare    GET /compare?a=&b=", lambda c, k, i: ok(c.get(f"{base}/compare?a={ids[0]}&b={ids[1]}"))),
            ("upload     POST /api/reports", upload),
        ]
        results = [run_scenario(name, fn, args.seconds, args.clients) for name, fn in scenarios]
        uploaded = len(to_upload) - len(upload_queue)
        sampling.set()
        sampler.join()
        rss_end, hwm = memory_mib(srv.proc.pid)
    finally:
        srv.stop()
    print(f"awrscope load test — {platform.node() or 'host'} · {platform.machine()} · {os.cpu_count()} cores · "
          f"Python {platform.python_version()} · loopback, SQLite")
    print(f"{len(ids)} reports stored in {import_s:.1f} s before the run; {args.clients} clients; "
          f"{args.seconds:g} s per scenario")
    print(f"first view of each analysis page (parse + draw + keep): median {statistics.median(cold):.0f} ms, "
          f"max {max(cold):.0f} ms; the scenarios below are later views")
    print(f"{'scenario':34s} {'requests':>8s} {'req/s':>8s} {'p50 ms':>8s} {'p99 ms':>8s} {'errors':>6s}")
    for r in results:
        print(f"{r['scenario']:34s} {r['requests']:8d} {r['rps']:8.1f} {r['p50_ms']:8.1f} {r['p99_ms']:8.1f} "
              f"{r['errors']:6d}")
    print(f"uploads: {uploaded} distinct reports parsed during the upload scenario")
    if samples:
        print(f"server memory: RSS {rss_start:.0f} MiB at start, median {statistics.median(samples):.0f}, "
              f"max sampled {max(samples):.0f}, {rss_end:.0f} at end; peak (VmHWM) {hwm:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
