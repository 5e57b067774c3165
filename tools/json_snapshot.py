"""Snapshot every JSON output of the CLI over the corpus, or compare two snapshots.

    python tools/json_snapshot.py write DIR    # analyze/parse/compare --format json of every corpus report, trend of the corpus
    python tools/json_snapshot.py diff OLD NEW # how many outputs are byte-identical; the names of those that are not

Used to prove a refactoring changes no output (issue 13). Runs the click commands in-process
(same code path as the console script) so that 4x132 runs take a minute, not ten.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "reports"


def _run(args: list[str]) -> bytes:
    from click.testing import CliRunner

    from awrscope.cli import main

    res = CliRunner().invoke(main, args, catch_exceptions=True)
    out = res.stdout_bytes if hasattr(res, "stdout_bytes") else res.output.encode()
    return b"exit=%d\n" % res.exit_code + out


def write(dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    files = sorted(CORPUS.iterdir())
    for f in files:
        for cmd in ("analyze", "parse", "compare"):
            extra = ["-j", "1"] if cmd != "compare" else []
            (dest / f"{f.name}.{cmd}.json").write_bytes(_run([cmd, "--format", "json", *extra, str(f)]))
    # compare of two single reports of the same database, in name order
    pairs = [("awr_html_11203_antognini_top2_1830_1845.html", "awr_html_11203_antognini_top2_1930_1945.html"),
             ("awr_html_11204_pcambell_xydb_36006_36007.html", "awr_html_11204_pcambell_xydb_36008_36009.html"),
             ("statspack_txt_81741_radtek-oraclescripts_oracle_116_117.lst",
              "statspack_txt_81741_radtek-oraclescripts_oracle_118_119.lst")]
    for a, b in pairs:
        (dest / f"pair.{a}.{b}.compare.json").write_bytes(
            _run(["compare", "--format", "json", str(CORPUS / a), str(CORPUS / b)]))
    (dest / "corpus.trend.json").write_bytes(_run(["trend", "--format", "json", "-j", "1", str(CORPUS)]))


def diff(old: Path, new: Path) -> int:
    names = sorted({p.name for p in old.iterdir()} | {p.name for p in new.iterdir()})
    bad = [n for n in names if not (old / n).exists() or not (new / n).exists()
           or (old / n).read_bytes() != (new / n).read_bytes()]
    print(f"{len(names) - len(bad)} of {len(names)} outputs byte-identical")
    for n in bad:
        print("  differs:", n)
    return 1 if bad else 0


if __name__ == "__main__":
    os.environ.setdefault("COLUMNS", "120")
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        write(Path(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "diff":
        sys.exit(diff(Path(sys.argv[2]), Path(sys.argv[3])))
    else:
        sys.exit(__doc__)
