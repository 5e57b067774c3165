"""How the verdicts fall over a directory of reports (issue 15's measurements).

    python tools/verdict_survey.py [DIR]     # default: ../shared/corpus/reports

Prints the worst severity per report by kind, how many reports `--fail-on major` fails, the quiet
reports and their worst finding, and the agreement with the ADDM findings the reports embed
(one row per report and ADDM finding name >= 10 % of active sessions, the largest task kept).
"""
from __future__ import annotations

import collections
import sys
from pathlib import Path

from awrscope import parse
from awrscope.analysis import analyze
from awrscope.documents import all_findings

SEV = ["critical", "major", "moderate", "minor", "info"]
CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "reports"


def main(directory: Path) -> None:
    worst: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    failing: collections.Counter = collections.Counter()
    quiet, addm = [], []
    for path in sorted(p for p in directory.iterdir() if p.is_file() and not p.name.endswith(".tsv")):
        report = parse(str(path))
        doc = analyze(report)
        ranks = [SEV.index(f["severity"]) for f in all_findings(doc)]
        top = SEV[min(ranks)] if ranks else "none"
        worst[report.kind][top] += 1
        failing[report.kind, bool(ranks) and min(ranks) <= SEV.index("major")] += 1
        if ((doc.get("verdict") or {}).get("load") or {}).get("level") == "quiet":
            quiet.append((path.name, top))
        best: dict[str, dict] = {}
        for a in doc.get("addm") or ():
            if a["pct_active_sessions"] is not None and a["pct_active_sessions"] > best.get(a["name"], {}).get("pct_active_sessions", -1):
                best[a["name"]] = a
        addm += [(path.name, a) for a in best.values() if a["pct_active_sessions"] >= 10]
    print("worst severity per report, by kind:")
    for kind, c in sorted(worst.items()):
        print(f"  {kind:11s} " + "  ".join(f"{s} {c[s]}" for s in SEV[:4] + ["none"] if c[s]))
    print("--fail-on major (exit 1 / exit 0), by kind:")
    for kind in sorted(worst):
        print(f"  {kind:11s} {failing[kind, True]} / {failing[kind, False]}")
    print(f"quiet reports ({len(quiet)}): " + ", ".join(f"{n} [{t}]" for n, t in quiet))
    status = collections.Counter(a["status"].split(":")[0] for _, a in addm)
    print(f"ADDM findings >= 10 % ({len(addm)}): " + ", ".join(f"{k} {v}" for k, v in status.most_common()))
    for name, a in addm:
        ours = f" {a['ours']['id']}" if a["ours"] else ""
        print(f"  {name}: {a['name']} {a['pct_active_sessions']:.2f} % ({a['window']}) -> {a['status']}{ours}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else CORPUS)
