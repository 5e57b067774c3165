"""End to end in headless Chromium (Debian's /usr/bin/chromium driven by Playwright; no browser
is downloaded): drop two corpus reports on the upload page, open the analysis, open compare,
check the top finding and a chart are shown. Screenshots go to test-artifacts/."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import httpx
import pytest

from _server import Server

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
SP_A = "statspack_txt_11203_antognini_top2_1830_1845.txt"
SP_B = "statspack_txt_11203_antognini_top2_1930_1945.txt"


def _need_browser():
    try:
        from playwright.sync_api import sync_playwright  # noqa: F401
    except ImportError:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("playwright is not installed (pip install -e '.[test]')")
        pytest.skip("playwright not installed")
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("chromium is not installed (apt-get install chromium)")
        pytest.skip("chromium not installed")


@pytest.fixture(scope="module")
def browser_page(tmp_path_factory):
    _need_browser()
    from playwright.sync_api import sync_playwright

    srv = Server(str(tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"))
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        dialogs: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        # nothing may leave the machine: every request must go to the test server
        outside: list[str] = []
        page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(srv.base) else None)
        try:
            yield srv, page, errors, dialogs, outside
        finally:
            browser.close()
            srv.stop()


def _drop_files(page, selector: str, files: list[tuple[str, str]]) -> None:
    """Drop files on an element the way a browser does: a DataTransfer carrying File objects."""
    page.evaluate("""([selector, files]) => {
        const dt = new DataTransfer();
        for (const [name, text] of files) dt.items.add(new File([text], name, {type: "text/plain"}));
        const zone = document.querySelector(selector);
        for (const type of ["dragenter", "dragover", "drop"]) {
            zone.dispatchEvent(new DragEvent(type, {dataTransfer: dt, bubbles: true, cancelable: true}));
        }
    }""", [selector, files])


def test_upload_analysis_compare_in_chromium(browser_page, corpus_dir):
    srv, page, errors, dialogs, outside = browser_page
    corpus = corpus_dir / "reports"
    files = [(n, (corpus / n).read_text(encoding="latin-1")) for n in (SP_A, SP_B)]

    page.goto(srv.base + "/")
    assert page.locator("#dropzone").is_visible()
    page.screenshot(path=str(ARTIFACTS / "web_01_empty_list.png"))

    with page.expect_navigation(timeout=120_000):
        _drop_files(page, "#dropzone", files)
    assert page.url.endswith("/upload")
    assert page.locator("tr.result-added").count() == 2
    page.screenshot(path=str(ARTIFACTS / "web_02_uploaded.png"), full_page=True)

    reports = httpx.get(srv.base + "/api/reports").json()["reports"]
    by_name = {Path(r["source_name"]).name: r for r in reports}
    a, b = by_name[SP_A], by_name[SP_B]

    page.get_by_role("link", name=f"Open #{a['id']}").click()
    page.wait_for_load_state()
    top = page.locator(".verdict").first
    assert a["top_finding_title"] in top.inner_text()
    chart = page.locator("section.charts svg").first
    assert chart.is_visible() and chart.bounding_box()["width"] > 200
    page.screenshot(path=str(ARTIFACTS / "web_03_analysis.png"), full_page=False)
    page.screenshot(path=str(ARTIFACTS / "web_03_analysis_full.png"), full_page=True)

    # compare picked from the list: tick the two reports, press compare
    page.goto(srv.base + "/")
    assert page.locator("table.reports tbody tr").count() == 2
    assert a["top_finding_title"] in page.locator("table.reports").inner_text()
    page.screenshot(path=str(ARTIFACTS / "web_04_list.png"))
    page.check(f"input[name=id][value='{a['id']}']")
    page.check(f"input[name=id][value='{b['id']}']")
    with page.expect_navigation():
        page.click("#compare-button")
    assert "/compare" in page.url
    assert "G01" in page.locator("#findings-delta").inner_text()
    assert b["top_finding_title"] in page.locator("#findings-delta").inner_text()
    assert page.locator("svg").count() > 0 and page.locator("svg").first.is_visible()
    page.screenshot(path=str(ARTIFACTS / "web_05_compare.png"), full_page=False)

    page.goto(srv.base + "/trend?db=DBM11203")
    assert page.locator("svg.line polyline").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "web_06_trend.png"))

    page.goto(srv.base + "/rules")
    assert page.locator("section.rule").count() >= 10
    assert not errors, errors  # no script error, no CSP violation
    assert not dialogs and not outside, (dialogs, outside)


def test_hostile_upload_in_chromium(browser_page, corpus_dir):
    srv, page, errors, dialogs, outside = browser_page
    text = (corpus_dir / "reports" / SP_B).read_text(encoding="latin-1")
    text = text.replace("helicon    ", "<script>hel", 1).replace("SELECT", "SELECT /* <img src=x onerror=alert(2)> */", 3)
    page.goto(srv.base + "/")
    with page.expect_navigation(timeout=120_000):
        _drop_files(page, "#dropzone", [("<img src=x onerror=alert(1)>.txt", text),
                                         ("notes.txt", "not a report, just <b>words</b>")])
    assert "not an AWR or Statspack report" in page.inner_text("body")
    assert "<img src=x onerror=alert(1)>.txt" in page.inner_text("body")  # shown as text
    page.screenshot(path=str(ARTIFACTS / "web_07_hostile_upload.png"))
    link = page.locator("tr.result-added a").first
    with page.expect_navigation():
        link.click()
    assert "<script>hel" in page.inner_text("body")
    page.screenshot(path=str(ARTIFACTS / "web_08_hostile_analysis.png"))
    page.goto(srv.base + "/reports/424242")
    assert "No report #424242" in page.inner_text("body")
    page.screenshot(path=str(ARTIFACTS / "web_09_not_found.png"))
    assert not dialogs, dialogs  # no injected script ran
    assert not [e for e in errors if "404" not in e], errors
    assert not outside, outside
