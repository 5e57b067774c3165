"""Numbers as a DBA writes them (issue 41), over the whole corpus: every report analysed once and rendered as text
(default and --verbose), Markdown and HTML, then read as a DBA would. No figure has more decimals than its unit
needs (``326.40000000000003``, ``12.804474 ms``, ``0.00015 %``), no culprit is listed at 0 %, no evidence row links
the same report line twice, no finding ranked first speaks of 'the findings above', and a window across midnight
keeps its end date. The report's own strings (SQL text, module names, its section tables' text cells) and
identifiers (hashes, versions, sql_ids) are not our numbers and are left out of the scan. A few seconds in all."""
from __future__ import annotations

import html
import re

import pytest
from conftest import CORPUS, parse_path

from awrscope.analysis import analyze
from awrscope.change.compare import compare
from awrscope.change.trend import trend, windows_of
from awrscope.mcp.tools import summary
from awrscope.render.html import render_analysis, render_compare, render_trend
from awrscope.render.markdown import compare_markdown, render_markdown, trend_markdown
from awrscope.render.text import compare_text, render_text, trend_text

REPORTS = sorted(CORPUS.iterdir()) if CORPUS.is_dir() else []

#: a decimal with four digits or more after the point, or a thousand and more with decimals but no thousands
#: separator ('1096.8 ms', '1973.00 ms'), not part of an identifier, a version or a dotted name
LONG_DECIMAL = re.compile(r"(?<![\w.])\d[\d,]*\.\d{4,}(?![\w.])|(?<![\w.,])\d{4,}\.\d+(?![\w.])")
#: a culprit line's share written as nothing: '0 % of', '<0.01 % of'
ZERO_SHARE = re.compile(r"(?<![\d.])(?:0|<0\.0*1) % of ")
ABOVE = re.compile(r"findings? above")


_HIDDEN = re.compile(r"<(script|style|code)\b[^>]*>.*?</\1>", re.S)
_SECTION = re.compile(r'<details class="section".*?</details>', re.S)
_TEXT_CELL = re.compile(r"<td>[^<]*</td>")  # a section table's text cell (its numeric cells are <td class="n" ...>)
_TITLE = re.compile(r'\stitle="([^"]*)"')
_TAG = re.compile(r"<[^>]+>")


def visible_text(page: str) -> str:
    """What a reader sees of an HTML page: its text and tooltips, without scripts, styles, the JSON data island,
    ``<code>`` (sql_ids, SQL text) and the text cells of the report's own section tables (the report's strings;
    their numeric cells are ours and stay)."""
    page = _HIDDEN.sub(" ", page)
    page = _SECTION.sub(lambda m: _TEXT_CELL.sub(" ", m.group()), page)
    titles = "\n".join(_TITLE.findall(page))
    return html.unescape(_TAG.sub(" ", page) + "\n" + titles)


def _report_strings(doc: dict) -> list[str]:
    """The report's own words that an output quotes: culprits' names and details (SQL text, modules), the SQL that
    changed, the source path; longest first, so that a quote is removed before any part of it."""
    out = [doc["source"]["path"]]
    for group in ("findings", "observations", "annotations"):
        for f in doc.get(group) or ():
            out += [s for c in f.get("culprits") or () for s in (c["name"], c.get("detail") or "")]
    head = (doc.get("verdict") or {}).get("headline") or {}
    out += [s for c in head.get("culprits") or () for s in (c["name"], c.get("detail") or "")]
    for p in doc.get("periods") or ():
        out += _report_strings(p)
    for r in (doc.get("sql_change") or {}).get("statements") or ():
        out += [r.get("text") or "", r.get("module") or ""]
    return sorted({s for s in out if s}, key=len, reverse=True)


def _without(text: str, quoted: list[str]) -> str:
    for s in quoted:
        text = text.replace(s, " ")
    return text


def _long_decimals(text: str) -> list[str]:
    return [f"{m.group()} in ...{text[max(0, m.start() - 70):m.end() + 20]}..." for m in LONG_DECIMAL.finditer(text)]


@pytest.fixture(scope="module")
def analysed():
    """Each corpus report parsed, analysed and drawn as HTML once for all the checks below: the document, what a
    reader sees of the page and the page's evidence tables (not the whole page: a megabyte each)."""
    cache: dict = {}

    def get(path):
        if path not in cache:
            report = parse_path(path)
            doc = analyze(report)
            page = render_analysis(doc, report)
            cache[path] = (doc, visible_text(page), re.findall(r'<table class="ev">(.*?)</table>', page, re.S))
        return cache[path]
    return get


def _culprits(doc: dict):
    for group in ("findings", "observations", "annotations"):
        for f in doc.get(group) or ():
            for c in f.get("culprits") or ():
                yield f["id"], c
    head = (doc.get("verdict") or {}).get("headline") or {}
    for c in head.get("culprits") or ():
        yield head.get("id"), c
    for p in doc.get("periods") or ():
        yield from _culprits(p)


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_every_output_writes_numbers_as_a_dba_does(analysed, path):
    doc, seen, _ = analysed(path)
    quoted = _report_strings(doc)
    outputs = {"text": render_text(doc), "text --verbose": render_text(doc, verbose=True),
               "markdown": render_markdown(doc), "markdown --verbose": render_markdown(doc, verbose=True),
               "html": seen}
    mcp = summary(doc)  # the MCP summary's sentences (its numbers stay raw JSON numbers)
    outputs["mcp summary"] = "\n".join([*(e for f in mcp["findings"] for e in f["evidence"] + f["culprits"]),
                                        *(f["title"] for f in mcp["findings"]), mcp["verdict"]["load"] or ""])
    bad = {fmt: found for fmt, text in outputs.items() if (found := _long_decimals(_without(text, quoted)))}
    assert not bad, bad


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_no_culprit_is_listed_at_zero_percent(analysed, path):
    doc, _, _ = analysed(path)
    # in the document every output (JSON, MCP, text, Markdown, HTML) lists its culprits from
    zero = [(rid, c["name"], c["share_pct"]) for rid, c in _culprits(doc)
            if c.get("share_pct") is not None and round(c["share_pct"], 1) == 0]
    assert not zero
    # and as the outputs write them
    quoted = _report_strings(doc)
    lines = [line for text in (render_text(doc), render_text(doc, verbose=True)) for line in text.splitlines()
             if line.lstrip().startswith("culprit ")]
    assert not [line for line in lines if ZERO_SHARE.search(_without(line, quoted))]


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_an_evidence_row_links_each_report_line_once(analysed, path):
    doc, _, evidence_tables = analysed(path)
    for table in evidence_tables:
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
            cell = row.rsplit("<td>", 1)[-1]
            refs = re.findall(r'href="#([^"]+)"', cell)
            assert len(refs) == len(set(refs)), cell
            said = re.findall(r'>([^<>]+) <span class="nw">line (\d+)</span>', cell)
            assert len(said) == len(set(said)), cell
    md = render_markdown(doc, verbose=True)
    for line in md.splitlines():
        if line.startswith("| ") and " line " in line:
            cited = re.findall(r"([\w.]+ line \d+)", line.rsplit("|", 2)[-2])
            assert len(cited) == len(set(cited)), line


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_nothing_refers_to_findings_above_it_that_are_not_there(analysed, path):
    doc, _, _ = analysed(path)
    for d in [doc, *(doc.get("periods") or ())]:
        findings = d.get("findings") or []
        for k, f in enumerate(findings):
            words = " ".join([f["title"], f["recommendation"] or "", *f.get("caveats", ())])
            if ABOVE.search(words):
                # only a finding under a cause (a view of the causes' time) may speak of the findings above it
                assert k > 0 and any(g.get("role") != "view" for g in findings[:k]), (f["id"], words)
        head = (d.get("verdict") or {}).get("headline") or {}
        for f in [head, *(d.get("observations") or ()), *(d.get("annotations") or ())]:
            assert not ABOVE.search(f.get("title") or ""), f.get("title")


MIDNIGHT = ["awr_html_10204_radtek-oraclescripts_nb_110965_111029.html", "awr_html_11204_tanjie_dquito_6day.html",
            "awr_html_12201_rac_exadata_azurelab_dbs_3day.html"]


@pytest.mark.parametrize("name", MIDNIGHT)
def test_a_window_across_midnight_keeps_its_end_date(analysed, name):
    path = CORPUS / name
    if not path.exists():
        pytest.skip(f"corpus not available: {path}")
    doc = trend(windows_of(parse_path(path)))
    (w,) = doc["windows"]
    begin, end = w["begin_time"], w["end_time"]
    assert begin[:10] != end[:10]  # the report spans midnight
    want = f"{begin[:16]}..{end[:16]}"
    assert want in trend_text(doc) and want in trend_markdown(doc)
    assert end[:16] in visible_text(render_trend(doc))


PAIRS = [("awr_html_11203_antognini_top2_1830_1845.html", "awr_html_11203_antognini_top2_1930_1945.html"),
         ("awr_txt_11203_slob_skoehler_100k_iops.txt", "awr_txt_11203_antognini_top2_1830_1845.txt"),
         ("awr_html_12102_sarthi2020_2.html", "awr_html_12102_sarthi2020_4.html"),
         ("statspack_txt_11203_antognini_top2_1830_1845.txt", "statspack_txt_11203_antognini_top2_1930_1945.txt")]


@pytest.mark.parametrize("before,after", PAIRS, ids=lambda n: n[:32])
def test_compare_outputs_write_numbers_as_a_dba_does(before, after):
    """``awrscope compare`` of two reports: its tables of changes ('+50800.0 %' was the HTML's statistics table)."""
    paths = [CORPUS / before, CORPUS / after]
    if not all(p.exists() for p in paths):
        pytest.skip("corpus not available")
    doc = compare(*(parse_path(p) for p in paths))
    quoted = _report_strings({"source": {"path": ""}, "sql_change": doc.get("sql_change")})
    outputs = {"text": compare_text(doc), "markdown": compare_markdown(doc), "html": visible_text(render_compare(doc))}
    bad = {fmt: found for fmt, text in outputs.items() if (found := _long_decimals(_without(text, quoted)))}
    assert not bad, bad
