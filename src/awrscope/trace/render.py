"""Text and Markdown of the trace document: where the time went (the ledger: time in calls and between
them), the profile table of Method R / TVD$XTAT (component, % of R, seconds, calls, per-call average,
min and max), the findings, the top statements with their own profiles, each event's duration
histogram, the reading issues."""
from __future__ import annotations

from ..render.numbers import fmt_num


def _s(v) -> str:
    return "" if v is None else f"{v:.4f}s"


def _p(v) -> str:
    return "" if v is None else f"{v:.1f}%"


def _n(v) -> str:
    return "" if v is None else fmt_num(v)


def _head(doc: dict) -> list[str]:
    ses, src, iv = doc["session"], doc["source"], doc["interval"]
    out = [f"SQL trace {src['path']}: {src['lines']:,} lines, {src['records']:,} trace records"]
    if ses.get("banner"):
        out.append(f"  {ses['banner']}")
    who = [f"{k} {', '.join(ses[k])}" for k in ("session_ids", "services", "modules", "actions") if ses.get(k)]
    if who:
        out.append("  " + "; ".join(who))
    if ses.get("first_timestamp"):  # the '*** ' lines Oracle prints: not every call has one
        same = ses["first_timestamp"] == ses["last_timestamp"]
        out.append(f"  '***' timestamp {ses['first_timestamp']}" if same else
                   f"  '***' timestamps {ses['first_timestamp']} .. {ses['last_timestamp']}")
    out.append(f"  response time R = {iv['response_time_s']:.4f}s (tim lines {iv['first_tim_line']}-"
               f"{iv['last_tim_line']}); time unit: {doc['time_unit']}")
    tx = doc["transactions"]
    out.append(f"  transactions: {tx['commits']} commits, {tx['rollbacks']} rollbacks, {tx['read_only']} read-only")
    return out


def _issues(doc: dict) -> list[str]:
    return [f"  [{i['severity']}] " + (f"line {i['line']}: " if i["line"] else "") + i["message"] for i in doc["issues"]]


def _table(rows: list[list[str]], head: list[str], right: set[int]) -> list[str]:
    w = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
    fmt = lambda r: "  ".join(str(c).rjust(w[i]) if i in right else str(c).ljust(w[i]) for i, c in enumerate(r))  # noqa: E731
    return [fmt(head), "  ".join("-" * x for x in w)] + [fmt(r).rstrip() for r in rows]


def _profile_rows(doc: dict) -> list[list[str]]:
    rows = [[p["component"], _p(p["pct"]), _s(p["seconds"]), _n(p["calls"]), _s(p["avg_s"]), _s(p["min_s"]),
             _s(p["max_s"])] for p in doc["profile"]]
    rows.append(["Total (R)", "100.0%", _s(doc["interval"]["response_time_s"]), "", "", "", ""])
    return rows


PROFILE_HEAD = ["Component", "% R", "Seconds", "Calls", "Avg", "Min", "Max"]
LEDGER_HEAD = ["Where", "Component", "Kind", "Seconds", "Count", "% in calls", "% R"]
LEDGER_TITLE = "Where the time went (R = time in database calls + time between calls)"
LEDGER_SHOWN = 8  # in-call leaves listed before the rest are summed: the table stays short


def _ledger_row(where: str, x: dict) -> list[str]:
    name = x["name"] + (f", avg {x['avg_ms']:.1f} ms" if x["kind"] == "round_trip" and x.get("avg_ms") else "")
    return [where, name, x["kind"], _s(x["seconds"]), _n(x["count"]), _p(x["pct_in_calls"]), _p(x["pct_response_time"])]


def _ledger_rows(doc: dict) -> list[list[str]]:
    """The ledger's leaves, in calls then between calls, with a total per side and R; the smallest
    in-call leaves are summed in one line."""
    led = doc.get("ledger")
    if not led:
        return []
    inside = [x for x in led["leaves"] if x["where"] == "in_calls" and x["kind"] != "unaccounted"]
    unacc = [x for x in led["leaves"] if x["where"] == "in_calls" and x["kind"] == "unaccounted"]
    rows = [_ledger_row("in calls", x) for x in inside[:LEDGER_SHOWN]]
    rest = inside[LEDGER_SHOWN:]
    if rest:
        sec = sum(x["seconds"] for x in rest)
        rows.append(["in calls", f"{len(rest)} other components", "", _s(sec), _n(sum(x["count"] or 0 for x in rest)),
                     _p(sum(x["pct_in_calls"] or 0 for x in rest)), _p(sum(x["pct_response_time"] or 0 for x in rest))])
    rows += [_ledger_row("in calls", x) for x in unacc]
    rows.append(["in calls", "Total in database calls", "", _s(led["in_calls_s"]), "", "100.0%",
                 _p(led["in_calls_pct"])])
    rows += [_ledger_row("between calls", x) for x in led["leaves"] if x["where"] == "between_calls" and x["count"]]
    rows.append(["between calls", "Total between calls", "", _s(led["between_calls_s"]), "", "",
                 _p(100 * led["between_calls_s"] / led["response_time_s"] if led["response_time_s"] else None)])
    rows.append(["", "Total (R)", "", _s(led["response_time_s"]), "", "", "100.0%"])
    return rows


def _impact(f: dict) -> str:
    """A finding's impact: seconds, share of R, and of the base it was judged against when that is not R."""
    imp = f["impact"]
    out = f"{imp['seconds']:.4f}s, {_p(imp['pct_response_time'])} of R"
    if imp.get("base") and imp["base"] != "response time R" and imp.get("pct_base") is not None:
        out += f" ({imp['pct_base']:.1f}% of the {imp['base']})"
    return out


def _stmt_rows(st: dict) -> list[list[str]]:
    return [[p["component"], _p(p.get("pct")), _s(p["seconds"]), _n(p.get("calls")), _s(p.get("max_s"))]
            for p in st["profile"]]


def _call_rows(st: dict) -> list[list[str]]:
    return [[c["call"], _n(c["count"]), _s(c["cpu_s"]), _s(c["elapsed_s"]), _n(c["disk"]), _n(c["query"]),
             _n(c["current"]), _n(c["rows"]), _n(c["misses"])] for c in st["calls"]]


CALL_HEAD = ["Call", "Count", "CPU", "Elapsed", "Disk", "Query", "Current", "Rows", "Misses"]


def render_text(doc: dict, statements: int = 5) -> str:
    out = _head(doc)
    if doc["issues"]:
        out += ["", "Issues reading the trace" + (" (partial profile)" if doc["partial"] else "") + ":"] + _issues(doc)
    if doc.get("ledger"):
        out += ["", LEDGER_TITLE] + ["  " + x for x in _table(_ledger_rows(doc), LEDGER_HEAD, {3, 4, 5, 6})]
    out += ["", "Response-time profile"] + ["  " + x for x in _table(_profile_rows(doc), PROFILE_HEAD, {1, 2, 3, 4, 5, 6})]
    if doc["calls"]:
        rows = [[c["call"], c["depth"], _n(c["count"]), _s(c["cpu_s"]), _s(c["elapsed_s"]), _n(c["disk"]),
                 _n(c["query"]), _n(c["current"]), _n(c["rows"])] for c in doc["calls"]]
        out += ["", "Database calls (dep=0 make up the response time; dep>0 are inside them)"]
        out += ["  " + x for x in _table(rows, ["Call", "Depth", "Count", "CPU", "Elapsed", "Disk", "Query",
                                                 "Current", "Rows"], {2, 3, 4, 5, 6, 7, 8})]
    out += ["", "Findings" if doc["findings"] else "Findings: none"]
    for f in doc["findings"]:
        out.append(f"  {f['id']} [{f['severity']}] {f['title']}: {_impact(f)}")
        for e in f["evidence"]:
            lines = ", ".join(str(s["line"]) for s in e["source"])
            val = "" if e["value"] is None else f"{fmt_num(e['value'])} {e['unit']}".rstrip()
            out.append(f"    - {e['metric']}: {val}" + (f" (line {lines})" if lines else "") +
                       (f"; {e['note']}" if e.get("note") else ""))
        out.append(f"    -> {f['recommendation']}")
    out += ["", f"Top statements by time in calls ({len(doc['statements'])} of {doc['statement_count']})"]
    for i, st in enumerate(doc["statements"][:statements], 1):
        out.append(f"  #{i} {st['key']} {st['command']} dep={st['depth']} line {st['line']}: {statement_time(st)}")
        text = " ".join(st["text"].split())
        out.append("     " + (text[:200] + ("..." if len(text) > 200 else "")))
        out += ["     " + x for x in _table(_call_rows(st), CALL_HEAD, set(range(1, 9)))]
        out += ["     " + x for x in _table(_stmt_rows(st), ["Component", "%", "Seconds", "Calls", "Max"], {1, 2, 3, 4})]
    out += ["", "Wait duration histograms (count of waits per duration bucket)"]
    for h in doc["histograms"][:10]:
        bars = "  ".join(f"{b['label']}:{b['count']}" for b in h["buckets"] if b["count"])
        out.append(f"  {h['event']}: n={h['count']} min {_s(h['min_s'])} avg {_s(h['avg_s'])} max {_s(h['max_s'])} "
                   f"(line {h['max_line']})  {bars}")
    return "\n".join(out)


def statement_time(st: dict) -> str:
    """A statement's time in its calls, and apart from it the time between its calls (the client's think time
    after them, which is not the statement's)."""
    out = f"{st['elapsed_s']:.4f}s in calls ({st['executions']} executions)"
    if st.get("between_calls_s"):
        out += f"; then {st['between_calls_s']:.4f}s between calls (waiting for the client: not the statement's time)"
    return out


def _md_esc(s: str) -> str:
    return str(s).replace("\\", "\\\\").replace("|", "\\|").replace("`", "'").replace("<", "&lt;").replace("\n", " ")


def _md_table(rows: list[list[str]], head: list[str]) -> list[str]:
    return (["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"] +
            ["| " + " | ".join(_md_esc(c) for c in r) + " |" for r in rows])


def render_markdown(doc: dict, statements: int = 5) -> str:
    out = ["## SQL trace " + _md_esc(doc["source"]["path"]), ""] + ["    " + x.strip() for x in _head(doc)[1:]]
    if doc["issues"]:
        out += ["", "**Issues reading the trace**" + (" (partial profile)" if doc["partial"] else ""), ""]
        out += ["- " + _md_esc(x.strip()) for x in _issues(doc)]
    if doc.get("ledger"):
        out += ["", "### " + LEDGER_TITLE, ""] + _md_table(_ledger_rows(doc), LEDGER_HEAD)
    out += ["", "### Response-time profile", ""] + _md_table(_profile_rows(doc), PROFILE_HEAD)
    out += ["", "### Findings", ""]
    if not doc["findings"]:
        out.append("None.")
    for f in doc["findings"]:
        out.append(f"- **{f['id']} {_md_esc(f['title'])}** ({f['severity']}): {_md_esc(_impact(f))}")
        for e in f["evidence"]:
            lines = ", ".join(str(s["line"]) for s in e["source"])
            val = "" if e["value"] is None else f"{fmt_num(e['value'])} {e['unit']}"
            out.append(f"  - {_md_esc(e['metric'])}: {val}" + (f" (line {lines})" if lines else "") +
                       (f"; {_md_esc(e['note'])}" if e.get("note") else ""))
        out.append(f"  - *Recommendation:* {_md_esc(f['recommendation'])}")
    out += ["", "### Top statements", ""]
    for i, st in enumerate(doc["statements"][:statements], 1):
        out += [f"**#{i} {_md_esc(st['key'])}** — {st['command']}, dep={st['depth']}, line {st['line']}: "
                f"{statement_time(st)}", "", "```sql",
                st["text"][:2000].replace("```", "'''"), "```", ""]
        out += _md_table(_call_rows(st), CALL_HEAD) + [""]
        out += _md_table(_stmt_rows(st), ["Component", "%", "Seconds", "Calls", "Max"]) + [""]
    out += ["### Wait duration histograms", ""]
    rows = [[h["event"], _n(h["count"]), _s(h["min_s"]), _s(h["avg_s"]), _s(h["max_s"])] +
            [_n(b["count"]) for b in h["buckets"]] for h in doc["histograms"][:15]]
    if rows:
        out += _md_table(rows, ["Event", "Count", "Min", "Avg", "Max"] +
                         [b["label"] for b in doc["histograms"][0]["buckets"]])
    return "\n".join(out)
