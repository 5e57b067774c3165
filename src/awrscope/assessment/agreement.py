"""Run-time check that an analysis says one thing about the window: the load line, the verdict and every finding
against the assessment they all read. A disagreement is a defect of awrscope, not of the report: it is said as
an issue of the document (tests/test_assessment.py holds the corpus to none)."""
from __future__ import annotations


def disagreements(doc: dict) -> list[str]:
    """What in the analysis document ``doc`` contradicts its assessment or its own ranking; empty when nothing."""
    a = doc.get("assessment")
    if not a:
        return []
    out = []
    cpu = a["cpu"]
    load = doc["verdict"].get("load") or {}
    if ": CPU-bound" in (load.get("summary") or "") and cpu["state"] != "saturated":
        out.append(f"the load line says CPU-bound while the CPU assessment reads '{cpu['state']}'")
    shown = {f["id"]: f for f in doc["findings"] + doc["observations"]}
    r02 = shown.get("R02")
    if r02 is not None and ("CPU / scheduling" in r02["title"]) != cpu["pressure"]:
        out.append("R02 names CPU / scheduling without the CPU pressure the assessment reads" if not cpu["pressure"]
                   else "R02 does not name the CPU pressure the assessment reads")
    g10 = shown.get("G10")
    if g10 is not None and cpu["gap_queued"] is None:
        out.append("G10 claims a run queue the CPU assessment does not confirm")
    head, findings = doc["verdict"].get("headline"), doc["findings"]
    if (head is None) != (not findings) or (head is not None and head["id"] != findings[0]["id"]):
        out.append("the verdict's headline is not the first ranked finding")
    cp = doc.get("commit_path") or {}
    parts = cp.get("parts") or ()
    if parts and abs(sum(p["ms_per_wait"] for p in parts) - cp["lfs_ms"]) > 0.002 + 1e-6 * cp["lfs_ms"]:
        out.append("the commit path's parts do not add up to the log file sync wait")
    return out
