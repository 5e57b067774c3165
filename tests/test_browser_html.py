"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``, installed by .ci/run) driven
over the DevTools protocol. No console error, charts drawn, hostile strings inert, nothing fetched from the
network; screenshots (light, dark) and a print PDF saved under test-artifacts/."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import CORPUS, parse_path

from awrscope.analysis import analyze
from awrscope.render.html import render_analysis, render_compare

pytest.importorskip("websocket", reason="needs websocket-client (the [test] extra)")
from _browser import ARTIFACTS, Browser, chromium_path  # noqa: E402

HOSTILE = Path(__file__).parent / "fixtures" / "hostile_awr_11204.txt"


@pytest.fixture(scope="module")
def browser():
    exe = chromium_path()
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium missing on CI (.ci/run installs it)")
        pytest.skip("chromium not installed (apt-get install -y chromium)")
    b = Browser(exe)
    b.call("Network.enable")
    yield b
    b.close()


CHARTS_DRAWN = """(() => {
  const svgs = [...document.querySelectorAll('svg.chart')];
  return svgs.map(s => {
    const r = s.getBoundingClientRect();
    const marks = [...s.querySelectorAll('rect.bar, rect.seg, circle.dot, polyline.line')]
      .filter(e => { const b = e.getBBox(); return b.width > 0 && b.height > 0; }).length;
    return {kind: s.dataset.chart, w: r.width, h: r.height, marks: marks};
  });
})()"""


def _check(browser, html: str, name: str, *, dark_too: bool = True) -> list[dict]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.html"
    path.write_text(html, encoding="utf-8")
    browser.open(path)
    assert browser.errors() == []
    assert [u for u in browser.requests_made() if not u.startswith("file:")] == []
    assert not [e for e in browser.events if e["method"] == "Page.javascriptDialogOpening"]
    charts = browser.eval(CHARTS_DRAWN)
    assert charts, "no chart"
    for c in charts:
        assert c["w"] > 100 and c["h"] > 20 and c["marks"] > 0, c
    # sortable tables sort: click a numeric header twice, the first column comes out in order
    sorted_ok = browser.eval("""(() => {
      const t = document.querySelector('table.sortable'); if (!t) return true;
      const th = [...t.tHead.rows[0].cells].find(c => c.dataset.num === '1'); if (!th) return true;
      th.click(); const i = th.cellIndex;
      const v = [...t.tBodies[0].rows].map(r => parseFloat(r.cells[i].dataset.v)).filter(x => !isNaN(x));
      return v.every((x, k) => k === 0 || v[k - 1] >= x);
    })()""")
    assert sorted_ok
    browser.screenshot(ARTIFACTS / f"{name}.png")
    browser.pdf(ARTIFACTS / f"{name}.pdf")
    if dark_too:
        browser.open(path, dark=True)
        assert browser.errors() == []
        assert browser.eval("getComputedStyle(document.documentElement).backgroundColor") != "rgb(255, 255, 255)"
        browser.screenshot(ARTIFACTS / f"{name}-dark.png", max_height=2400)
    return charts


TEXT_LAYOUT = """(() => {
  // per chart: pairs of its texts whose rendered boxes intersect, and the largest rendered font size in px
  return [...document.querySelectorAll('svg.chart[data-chart=histogram], svg.chart[data-chart^=cmp_]')].map(s => {
    const k = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
    const boxes = [...s.querySelectorAll('text')].filter(t => t.textContent.trim())
      .map(t => [t.getBoundingClientRect(), t.textContent]);
    const hits = [];
    boxes.forEach(([a, ta], i) => boxes.slice(i + 1).forEach(([b, tb]) => {
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) hits.push(ta + ' / ' + tb);
    }));
    const fs = Math.max(...[...s.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize))) * k;
    return {kind: s.dataset.chart, hits: hits, font_px: fs};
  });
})()"""


@pytest.mark.parametrize("name", ["awr_txt_12201_rbogusze_insaas3_4912_4913.txt",
                                  "awr_html_19c_pcambell_orcl_17676_17677.html",
                                  "statspack_txt_10204_rbogusze_bpsc10_2_3.lst"])
def test_report_in_browser(browser, corpus, name):
    report = parse_path(CORPUS / name)
    charts = _check(browser, render_analysis(analyze(report), report), Path(name).stem)
    assert "db_time_split" in {c["kind"] for c in charts}
    _text_fits(browser)


def _text_fits(browser):
    """Issue 17: merged 12c+ histograms once drew 28 px text and labels over one another."""
    from awrscope.render.html.svg import FONT, ZOOM
    browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
    for c in browser.eval(TEXT_LAYOUT):
        assert c["hits"] == [], c
        if c["kind"] == "histogram":
            assert c["font_px"] <= FONT * ZOOM + 0.5, c


def test_compare_in_browser(browser, corpus):
    from awrscope.change.compare import compare
    doc = compare(parse_path(CORPUS / "awr_txt_11203_antognini_top2_1830_1845.txt"),
                  parse_path(CORPUS / "awr_html_11203_antognini_top2_1930_1945.html"))
    charts = _check(browser, render_compare(doc), "compare_antognini")
    assert {"cmp_latency", "cmp_events", "cmp_rates"} <= {c["kind"] for c in charts}
    _text_fits(browser)


def test_hostile_report_is_inert_in_browser(browser):
    report = parse_path(HOSTILE)
    _check(browser, render_analysis(analyze(report), report), "hostile", dark_too=False)
    # the payloads are text: no element they would create exists, their text is visible
    assert browser.eval("document.querySelectorAll('img, iframe, b, i').length") == 0
    assert browser.eval("document.scripts.length") == 2
    assert browser.eval("document.body.textContent.includes(\"<script>alert('module')</script>\")")


def test_trend_in_browser(browser, corpus):
    from awrscope.render.html import render_trend
    from awrscope.change.trend import build, windows_of
    names = ("awr_html_10204_radtek_eventdb_eventdb1_1636_1638.html", "awr_html_10204_radtek_eventdb_eventdb1_1669_1670.html",
             "awr_html_10204_radtek_eventdb_eventdb1_1757_1768.html", "awr_html_10204_radtek_eventdb_eventdb3_1279_1287.html")
    windows = [w for n in names for w in windows_of(parse_path(CORPUS / n))]
    charts = _check(browser, render_trend(build(windows)), "trend_eventdb")
    assert {"trend", "activity"} == {c["kind"] for c in charts}  # metric series and DB time by wait class


WEB_CSS = Path(__file__).resolve().parents[1] / "src" / "awrscope" / "web" / "static" / "style.css"


def _web_page(body) -> str:
    """The web app's analysis / compare page as its base template builds it: the report's scoped stylesheet, then
    the web stylesheet, the report's <main> inside .awr-report."""
    from awrscope.web.embed import report_css
    return (f"<!doctype html><html><head><meta charset='utf-8'><style>{report_css()}</style>"
            f"<style>{WEB_CSS.read_text()}</style></head><body><main><div class='awr-report awr-report-main'>"
            f"{body}</div></main></body></html>")


COLOURS = """(() => {
  const fill = s => { const e = document.querySelector(s); return e ? getComputedStyle(e).fill : null; };
  const f = document.querySelector('.finding');
  return {pa: fill('rect.bar.pa'), pb: fill('rect.bar.pb'), cpu: fill('rect.bar.cpu'), uio: fill('rect.bar.uio'),
          commit: fill('rect.bar.commit'), finding_pad: f ? parseFloat(getComputedStyle(f).paddingLeft) : null};
})()"""


def test_web_pages_keep_the_report_colours(browser, corpus, tmp_path):
    """Issue 17: the web stylesheet once painted every report bar one blue (svg .bar beat .pa/.pb and the
    wait-class colours) and flattened the finding cards; the embedded report keeps its own look."""
    from awrscope.change.compare import compare
    from awrscope.web.embed import analysis_html, compare_html
    a = parse_path(CORPUS / "statspack_txt_11203_antognini_top2_1830_1845.txt")
    b = parse_path(CORPUS / "statspack_txt_11203_antognini_top2_1930_1945.txt")
    pages = {"web_compare": _web_page(compare_html(compare(a, b))),
             "web_analysis": _web_page(analysis_html(analyze(a), a))}
    seen = {}
    for name, html in pages.items():
        path = tmp_path / f"{name}.html"
        path.write_text(html, encoding="utf-8")
        browser.open(path)
        seen[name] = browser.eval(COLOURS)
        browser.screenshot(ARTIFACTS / f"{name}.png", max_height=2400)
    cmp_, ana = seen["web_compare"], seen["web_analysis"]
    assert cmp_["pa"] and cmp_["pb"] and cmp_["pa"] != cmp_["pb"], cmp_
    assert ana["cpu"] == "rgb(46, 125, 50)" and ana["uio"] == "rgb(47, 111, 209)", ana  # --cpu, --uio
    assert ana["commit"] == "rgb(227, 112, 45)", ana
    assert ana["finding_pad"] >= 12, ana  # the card keeps its padding


def test_line_reference_opens_its_row(browser, corpus, tmp_path):
    """Issue 17: a click on an evidence line reference opens the section table that holds the row (closed by
    default), lands on the row and highlights it; the row's text is the link's title. The reads at 8.8 ms are an
    annotation of the ledger (G06: where the time goes, nothing wrong), whose card cites Wait Events."""
    report = parse_path(CORPUS / "statspack_txt_11203_antognini_top2_1830_1845.txt")
    path = tmp_path / "refs.html"
    path.write_text(render_analysis(analyze(report), report), encoding="utf-8")
    browser.open(path)
    got = browser.eval("""(() => {
      const a = document.querySelector('[data-annotation="G06"] details.evidence a.ref'), id = a.getAttribute('href').slice(1);
      const row = document.getElementById(id), d = row.closest('details');
      const before = d.open; a.click();
      const r = row.getBoundingClientRect();
      return {title: a.title, before: before, open: d.open, hash: location.hash, id: id,
              visible: r.top >= 0 && r.bottom <= innerHeight, bg: getComputedStyle(row.cells[0]).backgroundColor};
    })()""")
    assert got["before"] is False and got["open"] is True and got["hash"] == "#" + got["id"], got
    assert got["visible"] and got["bg"] not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)"), got
    assert "db file sequential read" in got["title"]
    browser.screenshot(ARTIFACTS / "line_reference.png", max_height=2400)
    assert browser.errors() == []
