"""Reading analysis documents (the JSON-ready dicts of docs/analysis.md) without importing the
analysis machinery: the store, the CLI exit code and the lists only need to walk them."""
from __future__ import annotations


def all_findings(doc: dict) -> list[dict]:
    """The ranked findings of an analysis document; of a compare-period report, those of every
    period, each titled with its period (for --fail-on, the store and lists)."""
    if doc.get("periods"):
        out = []
        for k, p in enumerate(doc["periods"], 1):
            out += [dict(f, title=f"period {k}: {f['title']}", period=k) for f in p["findings"]]
        return sorted(out, key=lambda f: -(f["impact"]["db_time_s"] or 0.0))
    return doc.get("findings") or []
