"""Throughput and memory of ``awrscope trace`` on a large generated trace (never committed).

    python bench/trace_bench.py            # 1 GiB: generated in a temporary file, read, deleted
    python bench/trace_bench.py --mb 200   # smaller

The trace repeats a realistic 12c+ block (parse, binds, executes with waits, fetches, recursive SQL,
commits) with varying statements (one new sqlid per 50 blocks) and timings, so statement tracking and
histograms do real work. It is read in a child process so that its peak RSS is the reader's alone."""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

BLOCK = """=====================
PARSING IN CURSOR #140{c} len=60 dep=0 uid=120 oct=3 lid=120 tim={t0} hv={hv} ad='a313b4b0' sqlid='{sqlid}'
SELECT /* bench {k} */ c1, c2 FROM t{k} WHERE id = :b1 AND c3 > :b2
END OF STMT
PARSE #140{c}:c=120,e=130,p=0,cr=0,cu=0,mis=0,r=0,dep=0,og=1,plh=2785089174,tim={t1}
BINDS #140{c}:

 Bind#0
  oacdty=02 mxl=22(22) mxlc=00 mal=00 scl=00 pre=00
  oacflg=00 fl2=1000001 frm=00 csi=00 siz=24 off=0
  kxsbbbfp=7f7d68774c68  bln=22  avl=03  flg=05
  value={k}
WAIT #140{c}: nam='db file sequential read' ela= {d1} file#=25 block#=31473 blocks=1 obj#=73219 tim={t2}
EXEC #140{c}:c=80,e={e2},p=1,cr=3,cu=0,mis=0,r=0,dep=0,og=1,plh=2785089174,tim={t3}
WAIT #140{c}: nam='SQL*Net message to client' ela= 1 driver id=1413697536 #bytes=1 p3=0 obj#=-1 tim={t4}
EXEC #999:c=40,e=50,p=0,cr=2,cu=3,mis=0,r=1,dep=1,og=4,plh=89955185,tim={t5}
WAIT #140{c}: nam='db file scattered read' ela= {d2} file#=25 block#=31480 blocks=8 obj#=73219 tim={t6}
FETCH #140{c}:c=300,e={e3},p=8,cr=40,cu=0,mis=0,r=15,dep=0,og=1,plh=2785089174,tim={t7}
STAT #140{c} id=1 cnt=15 pid=0 pos=1 obj=73219 op='TABLE ACCESS FULL T (cr=40 pr=8 pw=0 str=1 time=900 us cost=3 size=0 card=15)'
WAIT #140{c}: nam='SQL*Net message from client' ela= {d3} driver id=1413697536 #bytes=1 p3=0 obj#=-1 tim={t8}
XCTEND rlbk=0, rd_only=0, tim={t8}
WAIT #0: nam='log file sync' ela= {d4} buffer#=126992 sync scn=1104899636853 p3=0 obj#=-1 tim={t9}
CLOSE #140{c}:c=0,e=3,dep=0,type=3,tim={t10}
"""


def generate(path: str, mb: int) -> int:
    target = mb * 1024 * 1024
    t = 664028734122
    written = 0
    k = 0
    with open(path, "w") as fh:
        fh.write("Trace file /bench/x_ora_1.trc\nOracle Database 19c Enterprise Edition Release 19.0.0.0.0 - Production\n"
                 "*** SESSION ID:(1.1) 2024-01-01T00:00:00.000000+00:00\n")
        buf = []
        while written < target:
            k += 1
            d1, d2, d3, d4 = 100 + k % 900, 300 + k % 5000, 200 + k % 20000, 500 + k % 3000
            e2, e3 = d1 + 80 + 20, d2 + 300 + 50 + 40
            t0 = t
            t1 = t0 + 130
            t2 = t1 + d1 + 10
            t3 = t1 + e2
            t4 = t3 + 5
            t5 = t4 + 50
            t6 = t5 + d2
            t7 = t4 + e3
            t8 = t7 + d3 + 5
            t9 = t8 + d4
            t10 = t9 + 3
            t = t10 + 7
            s = BLOCK.format(c=k % 97, t0=t0, t1=t1, t2=t2, t3=t3, t4=t4, t5=t5, t6=t6, t7=t7, t8=t8, t9=t9, t10=t10,
                             hv=k // 50, sqlid=f"bench{k // 50:08d}", k=k // 50, d1=d1, d2=d2, d3=d3, d4=d4, e2=e2, e3=e3)
            buf.append(s)
            written += len(s)
            if len(buf) >= 2000:
                fh.write("".join(buf))
                buf = []
        fh.write("".join(buf))
    return os.path.getsize(path)


CHILD = """
import sys, time, resource
from awrscope.trace import read_trace, document_of
t = time.perf_counter()
st = read_trace(sys.argv[1])
doc = document_of(st)
el = time.perf_counter() - t
print(el, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, st.records, len(st.statements), doc['interval']['response_time_s'])
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, default=1024, help="size of the generated trace in MiB (default 1024)")
    ap.add_argument("--keep", metavar="FILE", help="generate into FILE and keep it (default: a temporary file)")
    a = ap.parse_args()
    path = a.keep or tempfile.mktemp(prefix="awrscope-trace-bench-", suffix=".trc")
    try:
        t = time.perf_counter()
        size = generate(path, a.mb)
        print(f"generated {size / 2**20:,.0f} MiB in {time.perf_counter() - t:.1f} s: {path}")
        out = subprocess.run([sys.executable, "-c", CHILD, path], capture_output=True, text=True, check=True).stdout.split()
        el, rss_kib, records, statements, r_s = float(out[0]), int(out[1]), int(out[2]), int(out[3]), float(out[4])
        print(f"read {size / 2**20:,.0f} MiB, {records:,} trace records, {statements:,} statements in {el:.1f} s: "
              f"{size / 2**20 / el:.1f} MB/s; peak RSS {rss_kib / 1024:.0f} MiB (ru_maxrss of the reading process); "
              f"R = {r_s:,.1f} s")
    finally:
        if not a.keep and os.path.exists(path):
            os.unlink(path)
    _ = resource  # the child measures itself


if __name__ == "__main__":
    main()
