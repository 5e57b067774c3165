"""The self-contained HTML report (issue 6): findings, numbers and chart data in the output, no external
reference, every report string escaped."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import CORPUS, find_corpus, parse_path

from awrscope.analysis import analyze
from awrscope.cli import main
from awrscope.render.html import render_analysis, render_compare, render_trend

HOSTILE = Path(__file__).parent / "fixtures" / "hostile_awr_11204.txt"
MINI = Path(__file__).parent / "fixtures" / "mini_awr_11204.txt"
# The largest corpus page (the azurelab 3-day RAC report, 150 wait events) is 1.04 MB since the JSON island carries
# the DB-time ledger (every leaf with its report line: +58 KB); the guard keeps pages from growing unnoticed.
MAX_BYTES = 1_100_000


class Page(HTMLParser):
    """Elements, attributes, text and the JSON data island of a rendered page."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.scripts: list[tuple[dict, str]] = []
        self.styles: list[str] = []
        self._in: tuple[str, dict] | None = None
        self._buf: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag in ("script", "style"):
            self._in, self._buf = (tag, a), []

    def handle_endtag(self, tag):
        if self._in and tag == self._in[0]:
            body = "".join(self._buf)
            (self.scripts.append((self._in[1], body)) if tag == "script" else self.styles.append(body))
            self._in = None

    def handle_data(self, data):
        (self._buf if self._in else self.text).append(data)

    @property
    def data(self):
        return json.loads(next(b for a, b in self.scripts if a.get("id") == "awrscope-data"))

    def find(self, tag: str, **attrs) -> list[dict]:
        return [a for t, a in self.tags if t == tag and all(a.get(k) == v for k, v in attrs.items())]

    @property
    def all_text(self) -> str:
        return " ".join(" ".join(self.text).split())


EXTERNAL = re.compile(r"^\s*(https?:|//|ftp:|file:|javascript:)", re.I)


def assert_self_contained(html: str) -> Page:
    page = Page(html)
    for tag, attrs in page.tags:
        for k, v in attrs.items():
            if k in ("src", "href", "xlink:href", "action", "formaction", "poster", "data", "srcset", "background"):
                assert v is None or v.startswith("#") or not EXTERNAL.match(v), (tag, k, v)
                assert v is None or v.startswith(("#", "data:")), (tag, k, v)
        assert tag not in ("link", "iframe", "img", "object", "embed", "base", "frame"), tag
        if tag == "script":
            assert "src" not in attrs
    for css in page.styles:
        assert "url(" not in css and "@import" not in css
    for attrs, js in page.scripts:
        assert not re.search(r"https?://", js) or attrs.get("type") == "application/json"
        assert "fetch(" not in js and "XMLHttpRequest" not in js and "import(" not in js
    assert len(html.encode()) < MAX_BYTES
    return page


def _render(name: str):
    report = parse_path(CORPUS / name)
    doc = analyze(report)
    return doc, render_analysis(doc, report)


CASES = {
    # file: (finding ids in rank order prefix, commit path lfs_ms, histogram events expected, I/O section)
    # lfs_ms: line 249 prints 260.52ms (+-0.002 %), finer than 280 s / 1,076 waits (+-0.2 %)
    "awr_txt_12201_rbogusze_insaas3_4912_4913.txt": (["F06", "R01"], 260.52,
                                                     {"log file sync", "log file parallel write", "db file sequential read"},
                                                     "iostat_filetype"),
    "awr_txt_11203_antognini_top2_1830_1845.txt": (None, None, {"log file sync", "log file parallel write"}, "tablespace_io"),
    "awr_html_19c_pcambell_orcl_17676_17677.html": (None, None, None, None),
    "statspack_txt_10204_rbogusze_bpsc10_2_3.lst": (None, None, None, None),
    "awr_html_12201_rac_exadata_azurelab_dbs_3day.html": (None, None, None, None),  # the largest output (~1.04 MB)
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_corpus_report_renders_findings_numbers_and_charts(corpus, name):
    doc, html = _render(name)
    page = assert_self_contained(html)
    want_ids, lfs_ms, hist_events, io_section = CASES[name]
    # verdict: every finding, in rank order, with its impact and recommendation text
    cards = page.find("article", **{})
    ranked = [a["data-finding"] for t, a in page.tags if t == "article" and "data-finding" in a]
    assert ranked == [f["id"] for f in doc["findings"]]
    if want_ids:
        assert ranked[: len(want_ids)] == want_ids
    text = page.all_text
    from awrscope.render.common import prose
    for f in doc["findings"]:
        assert prose(f["recommendation"]) in text  # rule ids named in words, as every output says them
        for w in f["whatif"]:
            assert w["text"] in text
        lines = {s["line"] for e in f["evidence"] for s in e["source"] if s.get("line")}
        for ln in lines:
            assert f"line {ln}" in text
    assert cards
    # chart data island: the same numbers the SVG draws
    data = page.data
    assert data["analysis"]["findings"] == json.loads(json.dumps(doc["findings"]))
    charts = data["charts"]
    svgs = {a.get("data-chart") for t, a in page.tags if t == "svg"}
    assert "db_time_split" in svgs and "db_time_events" in svgs
    assert charts["db_time"]["events"], "top events"
    if lfs_ms is not None:
        assert charts["commit_path"]["lfs_ms"] == pytest.approx(lfs_ms, rel=1e-4)
        assert {"commit_split", "commit_ms"} <= svgs
        assert f"{lfs_ms:.1f} ms" in text
    if hist_events:
        assert hist_events <= {h["event"] for h in charts["histograms"]}
        assert "histogram" in svgs
    if io_section:
        assert charts["io"]["section"] == io_section
        assert "io" in svgs
    # parsed sections as sortable tables, one per section
    tables = [a["data-section"] for t, a in page.tags if t == "table" and "data-section" in a]
    assert tables == list(parse_path(CORPUS / name).sections)


def test_insaas3_values_drawn(corpus):
    doc, html = _render("awr_txt_12201_rbogusze_insaas3_4912_4913.txt")
    page = Page(html)
    c = page.data["charts"]
    # Foreground Wait Class (line 226): User I/O 928 s; time model DB CPU 116.8 s (line 157)
    comps = {x["label"]: x for x in c["db_time"]["components"]}
    assert comps["User I/O"]["time_s"] == 928.0 and comps["User I/O"]["line"] == 226
    assert comps["DB CPU"]["time_s"] == pytest.approx(116.8)
    # log file sync histogram (19c-style split, merged): 23.1 % in <250ms (line 578)
    lfs = next(h for h in c["histograms"] if h["event"] == "log file sync")
    assert {b["label"]: b["pct"] for b in lfs["buckets"]}["<250ms"] == 23.1
    assert 578 in lfs["lines"]
    bars = [a for t, a in page.tags if t == "g" and a.get("data-label") == "<250ms"]
    assert bars and bars[0]["data-value"] == "23.1"
    redo = {t["metric"]: t for t in c["redo"]}
    assert redo["redo_block_size_est"]["value"] == 512
    assert redo["log_switches_per_hour"]["value"] == pytest.approx(15.58)
    # commit path: I/O part 280 s of 280 s
    assert c["commit_path"]["io_part_s"] == pytest.approx(280.0)


def test_tablespace_io_highlights_temp_and_undo(corpus):
    _, html = _render("awr_txt_11203_antognini_top2_1830_1845.txt")
    page = Page(html)
    kinds = {r["name"]: r["kind"] for r in page.data["charts"]["io"]["rows"]}
    assert any(k == "undo" for k in kinds.values()) and any(k == "temp" for k in kinds.values())
    assert page.find("tr", **{"class": "hl undo"}) or page.find("tr", **{"class": "hl temp"})


def test_hostile_report_renders_as_text():
    report = parse_path(HOSTILE)
    doc = analyze(report)
    html = render_analysis(doc, report)
    page = assert_self_contained(html)
    # only our two scripts (data island + sorting); no element, attribute or handler from the report
    assert len(page.scripts) == 2
    assert not any(k.startswith("on") for _, a in page.tags for k in a)
    assert not page.find("b") and not page.find("i") and not page.find("img") and not page.find("iframe")
    text = page.all_text
    assert "<script>alert('module')</script>" in text
    assert """INSERT INTO t VALUES ('</script><script>alert("sql")</script><img src=x onerror=alert(1)>')""" in text
    assert "<script>alert(1)</script>" in text  # event name, in the events chart and tables
    assert "<i>host</i>" in text
    assert 'JDBC "Thin" & <b>bold</b>' in text
    assert "<script>" not in html.replace("<script>\n(function", "").replace(
        '<script type="application/json" id="awrscope-data">', "")
    # the data island round-trips the hostile strings unchanged
    events = [e["label"] for e in page.data["charts"]["db_time"]["events"]]
    assert "<script>alert(1)</script>" in events


def test_analysis_without_report_still_renders():
    doc = analyze(parse_path(MINI))
    page = assert_self_contained(render_analysis(doc))
    assert [a["data-finding"] for t, a in page.tags if t == "article" and "data-finding" in a] == \
        [f["id"] for f in doc["findings"]]
    assert "Histograms need the parsed report" in page.all_text


def test_cli_html_inferred_from_extension(tmp_path):
    out = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["analyze", str(MINI), "-o", str(out)])
    assert res.exit_code == 0, res.output
    page = assert_self_contained(out.read_text())
    assert page.data["analysis"]["report"]["db_name"] == "DEMO"
    res = CliRunner().invoke(main, ["analyze", "--format", "html", str(MINI), str(HOSTILE)])
    assert res.exit_code == 0
    page = Page(res.output)
    assert len(page.data) == 2 and len(page.find("article", **{"class": "report"})) == 2


def test_compare_renders_before_after_with_deltas(corpus):
    from awrscope.change.compare import compare
    a = parse_path(CORPUS / "awr_txt_11203_antognini_top2_1830_1845.txt")
    b = parse_path(CORPUS / "awr_html_11203_antognini_top2_1930_1945.html")
    doc = compare(a, b)
    html = render_compare(doc)
    page = assert_self_contained(html)
    assert page.data["metrics"]["lfs_ms"]["before"] == pytest.approx(doc["metrics"]["lfs_ms"]["before"])
    svgs = {a.get("data-chart") for t, a in page.tags if t == "svg"}
    assert {"cmp_latency", "cmp_events", "cmp_findings"} <= svgs
    text = page.all_text
    for e in doc["effect"]:
        assert e in text
    assert [a["data-finding"] for t, a in page.tags if t == "tr" and "data-finding" in a] == \
        [f["id"] for f in doc["findings"]]
    # log file sync 0.514 -> 1.04 ms, +102 % drawn as two bars with the change
    assert "0.514 ms" in text and "1.04 ms" in text and "(+102 %)" in text


def test_cli_compare_html(corpus, tmp_path):
    out = tmp_path / "c.html"
    res = CliRunner().invoke(main, ["compare", str(CORPUS / "awr_txt_11203_antognini_top2_1830_1845.txt"),
                                    str(CORPUS / "awr_html_11203_antognini_top2_1930_1945.html"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert_self_contained(out.read_text())


def test_trend_marks_windows_where_findings_fire():
    # a trend document as awrscope.change.trend builds it (docs/compare.md): windows in time order, series per window
    w = lambda i, t, findings: {"index": i, "path": f"r{i}.txt", "note": None, "instance": "DB1", "db_name": "DB",
                                "begin_snap": 10 + i, "end_snap": 11 + i, "begin_time": f"2024-01-01 {t}:00:00",
                                "end_time": f"2024-01-01 {t}:59:00", "elapsed_s": 3540.0, "score": 0.5 if findings else 0,
                                "values": {}, "findings": findings}
    doc = {"schema_version": "1.0", "kind": "trend", "database": {"db_name": "DB", "dbid": 1, "instances": ["DB1"]},
           "series_meta": [{"id": "lfs_ms", "label": "log file sync", "unit": "ms"},
                           {"id": "aas", "label": "average active sessions", "unit": "sessions"}],
           "windows": [w(0, "10", []),
                       w(1, "11", [{"id": "R01", "title": "Redo write I/O <latency>", "severity": "major",
                                    "pct_db_time": 30.0, "db_time_s": 100.0},
                                   {"id": "G07", "title": "Top SQL", "severity": "moderate", "role": "view",
                                    "pct_db_time": 40.0, "db_time_s": 200.0}]),
                       w(2, "12", [{"id": "G07", "title": "Top SQL", "severity": "moderate", "role": "view",
                                    "pct_db_time": 40.0, "db_time_s": 200.0}])],
           "series": {"lfs_ms": [1.0, 9.5, 1.2], "aas": [2.0, 5.0, None]},
           "findings": [{"id": "R01", "title": "Redo write I/O <latency>", "windows": [1], "max_pct_db_time": 30.0,
                         "worst_severity": "major"}],
           "worst": [1, 0, 2], "continuity": [], "errors": []}
    page = assert_self_contained(render_trend(doc))
    marks = [a for t, a in page.tags if t == "rect" and a.get("class") == "mark"]
    assert marks and {m["data-i"] for m in marks} == {"1"}  # a view (G07) alone does not mark window 2
    doc["windows"][2]["findings"].append({"id": "G06", "title": "User I/O reads", "severity": "critical",
                                          "pct_db_time": 74.6, "db_time_s": 300.0})
    marks = [a for t, a in assert_self_contained(render_trend(doc)).tags if t == "rect" and a.get("class") == "mark"]
    assert {m["data-i"] for m in marks} == {"1", "2"}  # any critical or major cause marks its window
    dots = [a["data-value"] for t, a in page.tags if t == "circle"]
    assert dots.count("9.5") == 1 and len(dots) == 5  # aas has a hole in window 2
    assert "R01 Redo write I/O <latency>" in page.all_text
    assert page.data["series"]["lfs_ms"] == [1.0, 9.5, 1.2]


def test_trend_and_fleet_from_corpus(corpus, tmp_path):
    c = CORPUS
    eventdb = [str(c / n) for n in ("awr_html_10204_radtek_eventdb_eventdb1_1636_1638.html",
                                    "awr_html_10204_radtek_eventdb_eventdb1_1669_1670.html",
                                    "awr_html_10204_radtek_eventdb_eventdb1_1757_1768.html")]
    out = tmp_path / "t.html"
    res = CliRunner().invoke(main, ["trend", *eventdb, "-o", str(out)])
    assert res.exit_code == 0, res.output
    page = assert_self_contained(out.read_text())
    assert page.data["kind"] == "trend" and len(page.data["windows"]) == 3
    assert len([a for t, a in page.tags if t == "svg" and a.get("data-chart") == "trend"]) >= 5
    out = tmp_path / "f.html"
    res = CliRunner().invoke(main, ["trend", *eventdb, str(c / "awr_txt_12201_rbogusze_insaas3_4912_4913.txt"),
                                    "-o", str(out)])
    assert res.exit_code == 0, res.output
    page = assert_self_contained(out.read_text())
    assert page.data["kind"] == "fleet"
    text = page.all_text
    assert "INSAAS3" in text and "EVENTDB" in text and "R01" in text


def test_markdown_has_the_verdict_and_escapes_report_strings():
    from awrscope.render import render_markdown
    doc = analyze(parse_path(HOSTILE))
    md = render_markdown(doc)
    assert "<script>" not in md and "<i>" not in md
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in md  # an event name in the headline's components
    assert "module &lt;script&gt;alert('module')&lt;/script&gt;" in md  # a culprit's module
    verdict = md.split("## Verdict", 1)[1].split("##", 1)[0]
    ranked = [line for line in verdict.strip().splitlines() if line[:1].isdigit()]
    assert [line.split()[2] for line in ranked] == [f["id"] for f in doc["findings"]]
    assert f"**Load**: {doc['verdict']['load']['summary']}" in verdict
    assert "## Commit path" in md
    # what only explains the diagnosis waits for --verbose (JSON always has it)
    assert "## Key metrics" not in md and "(bounds: lfs_ms_after" not in md and "## Not applicable" not in md
    full = render_markdown(doc, verbose=True)
    assert "## Key metrics" in full and "(bounds: lfs_ms_after" in full


def _ids_and_links(html: str) -> tuple[list[str], list[str]]:
    page = Page(html)
    ids = [a["id"] for _, a in page.tags if a.get("id") is not None]
    links = [a["href"][1:] for t, a in page.tags if t == "a" and (a.get("href") or "").startswith("#")]
    return ids, links


MULTI_PAGES = {
    "fixtures": ("HOSTILE", "MINI", "HOSTILE"),  # the same report twice: every id of one report repeated
    "corpus_mixed": ("awr_txt_12201_rbogusze_insaas3_4912_4913.txt", "statspack_txt_11203_antognini_top2_1830_1845.txt",
                     "statspack_txt_11203_antognini_top2_1930_1945.txt", "awr_html_19c_pcambell_orcl_17676_17677.html"),
    "compare_period": ("awr_diff_txt_11203_antognini_top2.txt", "awr_txt_11203_antognini_top2_1830_1845.txt",
                       "awr_diff_html_10204_radtek_oracont_oracont01_2327_2330_vs_2353_2357.html"),
}


@pytest.mark.parametrize("case", sorted(MULTI_PAGES))
def test_multi_report_pages_have_unique_ids(case):
    """Issue 17: 'analyze A B -o x.html' repeated ids (charts, findings, verdict, section-*): each report's ids carry
    its index (r1-, r2-; a compare-period report's periods r1-p1-...), and every in-page link finds its target."""
    from awrscope.render.html import render_analyses
    names = MULTI_PAGES[case]
    if case != "fixtures" and find_corpus() is None:
        pytest.skip("report corpus not found")
    paths = [{"HOSTILE": HOSTILE, "MINI": MINI}.get(n) or CORPUS / n for n in names]
    items = []
    for k, p in enumerate(paths):
        report = parse_path(p)
        items.append((analyze(report), report if k % 3 != 2 or case == "fixtures" else None))  # some without report
    html = render_analyses(items)
    ids, links = _ids_and_links(html)
    dup = sorted({i for i in ids if ids.count(i) > 1})
    assert dup == [], dup[:20]
    assert len([i for i in ids if i.endswith("verdict")]) == len(items)
    missing = sorted(set(links) - set(ids))
    assert missing == [], missing[:20]
    # a single report keeps the plain ids its earlier pages had (#finding-R01, #section-wait_events)
    one_ids, one_links = _ids_and_links(render_analysis(*items[0]))
    assert "verdict" in one_ids and not set(one_links) - set(one_ids)
    assert len(one_ids) == len(set(one_ids))


class _Refs(HTMLParser):
    """Line-reference links (a.ref: href, title, text) and table rows (id -> cells' text)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.refs: list[dict] = []
        self.rows: dict[str, list[str]] = {}
        self._a = self._row = None
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and "ref" in (a.get("class") or "").split():
            self._a = {"href": a["href"], "title": a.get("title"), "text": ""}
            self.refs.append(self._a)
        elif tag == "tr":
            self._row = self.rows.setdefault(a["id"], []) if a.get("id") else None
        elif tag == "td" and self._row is not None:
            self._row.append("")

    def handle_endtag(self, tag):
        if tag == "a":
            self._a = None
        elif tag == "tr":
            self._row = None

    def handle_data(self, data):
        if self._a is not None:
            self._a["text"] += data
        if self._row:
            self._row[-1] += data


def test_line_references_link_to_their_rows(corpus):
    """Issue 17: 'wait_events_fg line 114' in a finding's evidence is a link to that row of the page's own section
    table, its title the row's cells; without the parsed report it stays text."""
    report = parse_path(CORPUS / "statspack_txt_11203_antognini_top2_1830_1845.txt")
    doc = analyze(report)
    html = render_analysis(doc, report)
    p = _Refs(html)
    cited = {(s["section"], s["line"]) for f in doc["findings"] for e in f["evidence"] for s in e["source"] if s.get("line")}
    cited |= {(c["section"], c["line"]) for f in doc["findings"] for c in f.get("culprits") or []}
    assert len(p.refs) >= len(cited) >= 5
    for r in p.refs:
        section, line = r["text"].rsplit(" line ", 1)
        assert r["href"] == f"#{section}-L{line}"
        cells = p.rows[r["href"][1:]]  # the row exists in the page, in that section, at that line
        assert cells[-1] == line
        assert r["title"].startswith(f"line {line}: ") or f", line {line}: " in r["title"]
        assert cells[0] in r["title"]  # the row's name
    lfs = next(r for r in p.refs if r["href"] == "#wait_events_fg-L114")
    assert "db file sequential read" in lfs["title"] and "519,094" in lfs["title"]
    assert not _Refs(render_analysis(doc)).refs  # report=None: plain text, no link
    assert "wait_events_fg line 114" in Page(render_analysis(doc)).all_text


def test_line_reference_titles_escape_report_text():
    report = parse_path(HOSTILE)
    doc = analyze(report)
    html = render_analysis(doc, report)
    page = assert_self_contained(html)
    p = _Refs(html)
    assert p.refs and all(p.rows.get(r["href"][1:]) for r in p.refs)
    assert any("<script>" in (r["title"] or "") for r in p.refs)  # the hostile text, as text of the title
    assert len(page.scripts) == 2 and not any(k.startswith("on") for _, a in page.tags for k in a)


def test_line_references_of_a_multi_report_page_stay_in_their_report(corpus):
    from awrscope.render.html import render_analyses
    items = [(analyze(r), r) for r in (parse_path(CORPUS / "statspack_txt_11203_antognini_top2_1830_1845.txt"),
                                       parse_path(CORPUS / "statspack_txt_11203_antognini_top2_1930_1945.txt"))]
    html = render_analyses(items)
    for k, part in enumerate(html.split('<article class="report"')[1:], 1):
        p = _Refs(part)
        assert p.refs and all(r["href"].startswith(f"#r{k}-") and r["href"][1:] in p.rows for r in p.refs)


def test_compiled_templates_are_kept_between_runs_and_an_unusable_cache_costs_nothing(corpus, tmp_path):
    """Issue 20: the page's templates are compiled once and kept in the user's cache directory (Jinja's
    bytecode cache, per Jinja version); the second run reads them and draws the same page. A cache directory
    that cannot be made (here a path under a regular file), one that others can write to, or
    AWRSCOPE_TEMPLATE_CACHE=0 only costs the compile."""
    import os
    import subprocess
    import sys

    report = str(corpus / "awr_html_10204_radtek_orass1_dbcont03_46333_46339.html")

    def page(cache_home: Path, **env) -> bytes:
        run = subprocess.run([sys.executable, "-m", "awrscope", "analyze", "--format", "html", report],
                             capture_output=True, check=True,
                             env={**os.environ, "XDG_CACHE_HOME": str(cache_home), **env})
        assert run.stderr == b""
        return run.stdout

    first = page(tmp_path / "cache")
    kept = sorted((tmp_path / "cache").glob("awrscope/templates-jinja*/__jinja2_*.cache"))
    assert len(kept) >= 5  # the page and its partials
    stamps = [p.stat().st_mtime_ns for p in kept]
    assert page(tmp_path / "cache") == first
    assert [p.stat().st_mtime_ns for p in kept] == stamps  # read, not written again
    from jinja2.bccache import bc_magic

    # a damaged file (cut inside the checksum after Jinja's magic: pickle raises) is compiled again
    kept[0].write_bytes(kept[0].read_bytes()[:len(bc_magic) + 3])
    assert page(tmp_path / "cache") == first
    (tmp_path / "file").write_text("x")
    assert page(tmp_path / "file" / "below") == first
    assert page(tmp_path / "off", AWRSCOPE_TEMPLATE_CACHE="0") == first
    assert not list((tmp_path / "off").glob("awrscope/templates-*"))
    assert page(tmp_path / "none", AWRSCOPE_CACHE="0") == first  # every cache off (patterns too): nothing made
    assert not (tmp_path / "none").exists()
    # a cache directory others can write to is not used: it holds code that is run
    shared = tmp_path / "shared"
    page(shared)
    folder = next((shared / "awrscope").glob("templates-jinja*"))
    for p in folder.iterdir():
        p.unlink()
    folder.chmod(0o777)
    assert page(shared) == first
    assert not any(folder.iterdir())  # nothing read from it, nothing written to it


def test_markdown_never_makes_a_link_of_report_text():
    # issue 28: a module or SQL text '[x](javascript:alert(1))' came through the Markdown output as a live link
    from awrscope.render.markdown import _md
    assert _md("[x](javascript:alert(1))") == "\\[x\\](javascript:alert(1))"


def test_rule_ids_are_tags_not_words_of_advice():
    from awrscope.render.common import prose
    # R04's refutation as the rule writes it, and as every output prints it
    assert prose("DBWR is idle (then look at archiving, R05).") == \
        "DBWR is idle (then look at archiving, “archiver falling behind”)."
    assert prose("speed up DBWR (R08); compare") == "speed up DBWR (see “DBWR falling behind”); compare"
    assert prose("points to R09/R10.") == "points to “TEMP spills”/“UNDO write pressure”."
    assert prose("EBS R12.2 and G99 stay") == "EBS R12.2 and G99 stay"  # a release and an unknown id are kept
