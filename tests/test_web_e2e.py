"""End to end in headless Chromium (Debian's /usr/bin/chromium driven by Playwright; no browser
is downloaded): drop two corpus reports on the upload page, open the analysis, open compare,
check the top finding and a chart are shown. Screenshots go to test-artifacts/. Then CSRF: pages
of a hostile site on another port make Chromium post to awrscope, which must refuse every write."""
from __future__ import annotations

import os
import shutil
import time
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
def chromium():
    """One headless Chromium for the module (each test opens its own context: cookies of its own)."""
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def browser_page(chromium, tmp_path_factory):
    srv = Server(str(tmp_path_factory.mktemp("e2e") / "e2e.sqlite3"))
    ARTIFACTS.mkdir(exist_ok=True)
    page = chromium.new_page(viewport={"width": 1280, "height": 900})
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
        page.context.close()
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
    # 18:30-18:45 and 19:30-19:45: two points at their times, not joined across the 45-minute gap
    assert page.locator("svg.line circle.dot").count() >= 2 and page.locator("svg.line polyline").count() == 0
    assert page.locator('svg[data-chart="activity"] rect.seg').count() >= 4  # stacked AAS by wait class
    # a true time axis, as drawn by the browser: the second window's column starts after a gap three times the
    # first window's width (18:45 -> 19:30 is 45 minutes after a 15-minute window)
    cpu = page.locator('svg[data-chart="activity"] rect.seg.cpu[data-i]')
    first, second = cpu.nth(0).bounding_box(), cpu.nth(1).bounding_box()
    gap = second["x"] - (first["x"] + first["width"])
    assert 2.5 * first["width"] < gap < 3.5 * first["width"], (first, second)
    assert abs(second["width"] - first["width"]) < 2  # two 15-minute windows: equal widths
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


# -- CSRF from a real browser -----------------------------------------------------------------------------------
# Each attack is one JavaScript function of ([url, text, csrf]) posting to url; it runs on the hostile site's
# pages and, as a control, on awrscope's own pages: the same code, only the origin and the token differ.
FORGED = "0" * 32  # a hostile page can neither read the session cookie nor compute the token derived from it
FETCH_JS = """async ([url, text, csrf]) => {
    const fd = new FormData();
    fd.append("files", new File([text], "planted.txt", {type: "text/plain"}));
    fd.append("csrf", csrf);
    const r = await fetch(url, {method: "POST", mode: "no-cors", credentials: "include", body: fd});
    return "response:" + r.type;
}"""
FILE_FORM_JS = """([url, text, csrf]) => {
    const f = document.createElement("form");
    f.method = "post"; f.enctype = "multipart/form-data"; f.action = url;
    const token = document.createElement("input");
    token.type = "hidden"; token.name = "csrf"; token.value = csrf;
    const input = document.createElement("input");
    input.type = "file"; input.name = "files";
    const dt = new DataTransfer();
    dt.items.add(new File([text], "planted.txt", {type: "text/plain"}));
    input.files = dt.files;
    f.append(token, input);
    document.body.append(f);
    f.submit();
}"""
FORM_JS = """([url, text, csrf]) => {
    const f = document.createElement("form");
    f.method = "post"; f.action = url;
    const token = document.createElement("input");
    token.type = "hidden"; token.name = "csrf"; token.value = csrf;
    f.append(token);
    document.body.append(f);
    f.submit();
}"""
# A hostile page: no referrer (a form then sends 'Origin: null'); the attack starts once the page is loaded,
# with a report fetched from the hostile site itself.
EVIL_PAGE = """<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<title>You have won</title><p>Loading your prize...</p>
<script>
window.addEventListener("load", () => {{
  fetch("/report.txt").then(r => r.text())
    .then(text => ({js})([{url!r}, text, {forged!r}]))
    .then(v => {{ window.__sent = String(v); }}, e => {{ window.__sent = "error: " + e; }});
}});
</script>"""


class EvilSite:
    """A hostile web site in a thread, on another port of 127.0.0.1: the pages it serves make the
    visitor's browser write to awrscope. Records the paths it served."""

    def __init__(self, pages: dict[str, tuple[str, bytes]]):
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        served = self.served = []

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                path = self.path.split("?")[0]
                served.append(path)
                if path not in pages:
                    self.send_error(404)
                    return
                ctype, body = pages[path]
                self.send_response(200)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(10)


def test_cross_site_writes_refused_in_chromium(chromium, tmp_path, corpus_dir):
    """Pages of another origin make the user's Chromium (holding awrscope's session cookie) post a hidden
    delete form, plant a report through the API (a no-cors fetch, a file form) and through the upload form;
    each is answered 403 and the store is unchanged. The same requests from awrscope's own pages write."""
    corpus = corpus_dir / "reports"
    kept_name, planted_name, form_name = SP_B, SP_A, "awr_txt_11203_antognini_top2_1830_1845.txt"
    for n in (kept_name, planted_name, form_name):
        if not (corpus / n).exists():
            pytest.skip(f"{n} not in the corpus")
    srv = Server(str(tmp_path / "csrf.sqlite3"))
    evil = None
    context = chromium.new_context()
    try:
        base = srv.base
        up = httpx.post(base + "/api/reports", timeout=30,
                        files=[("files", (kept_name, (corpus / kept_name).read_bytes(), "text/plain"))])
        assert up.status_code == 200, up.text
        rid = up.json()["results"][0]["id"]
        assert rid

        def count() -> int:
            return httpx.get(base + "/api/health", timeout=30).json()["reports"]

        def exists(report_id: int) -> bool:
            return httpx.get(f"{base}/api/reports/{report_id}", timeout=30).status_code == 200

        assert count() == 1 and exists(rid)

        planted = (corpus / planted_name).read_text(encoding="latin-1")
        attacks = {  # page -> (JS, the awrscope path it posts to)
            "delete-form": (FORM_JS, f"/reports/{rid}/delete"),
            "api-fetch": (FETCH_JS, "/api/reports"),
            "api-form": (FILE_FORM_JS, "/api/reports"),
            "upload-form": (FILE_FORM_JS, "/upload"),
        }
        pages = {"/report.txt": ("text/plain; charset=utf-8", planted.encode())}
        for name, (js, path) in attacks.items():
            html = EVIL_PAGE.format(js=js, url=base + path, forged=FORGED)
            pages[f"/{name}.html"] = ("text/html; charset=utf-8", html.encode())
        evil = EvilSite(pages)

        page = context.new_page()
        # what Chromium really put on the wire (cookies and Sec-Fetch-* included), by request id
        cdp = context.new_cdp_session(page)
        sent: dict[str, dict] = {}
        cdp.on("Network.requestWillBeSent", lambda e: sent.setdefault(e["requestId"], {}).update(
            url=e["request"]["url"], method=e["request"]["method"]))
        cdp.on("Network.requestWillBeSentExtraInfo", lambda e: sent.setdefault(e["requestId"], {}).update(
            headers={k.lower(): v for k, v in e["headers"].items()}))
        cdp.send("Network.enable")

        def wire_headers(url: str) -> dict:
            """The headers of the POST to url, as sent (Chromium reports them within 30 s)."""
            deadline = time.time() + 30
            while time.time() < deadline:
                posts = [r for r in sent.values() if r.get("url") == url and r.get("method") == "POST"]
                if posts and "headers" in posts[-1]:
                    return posts[-1]["headers"]
                page.wait_for_timeout(50)
            raise TimeoutError(f"no headers reported for POST {url}")

        # the victim has awrscope open: its browser holds the session cookie (SameSite=Strict, HttpOnly)
        page.goto(base + "/", timeout=30_000)
        assert any(c["name"] == "awrscope_session" for c in context.cookies(base))

        # 127.0.0.1:<other port> is another origin but the same site (the cookie goes along: only the
        # server's checks stand in the way); localhost:<other port> is another site
        seen = []
        for evil_host in ("127.0.0.1", "localhost"):
            for name, (js, path) in attacks.items():
                sent.clear()
                with page.expect_response(lambda r, path=path: r.url == base + path and r.request.method == "POST",
                                          timeout=30_000) as got:
                    page.goto(f"http://{evil_host}:{evil.port}/{name}.html", wait_until="commit", timeout=30_000)
                resp = got.value
                headers = wire_headers(base + path)
                if js is FETCH_JS:  # the page stays; its fetch ends with an opaque response
                    page.wait_for_function("() => window.__sent", timeout=30_000)
                    assert page.evaluate("window.__sent") == "response:opaque"
                    body = ""  # an opaque response's body is not kept by the browser
                else:  # the form navigated the tab to awrscope: the refusal is what the user sees
                    page.wait_for_url(base + path, timeout=30_000)
                    body = resp.text()
                seen.append((evil_host, name, resp.status, headers.get("sec-fetch-site"), headers.get("origin"),
                             "awrscope_session=" in headers.get("cookie", "")))
                what = f"{name} from http://{evil_host}:{evil.port}: {resp.status} {body[:300]!r}, sent {headers}"
                assert resp.status == 403, what
                assert headers.get("sec-fetch-site") in ("same-site", "cross-site"), what
                # refused by Fetch Metadata (or, behind it, by the form token): either way the store must not move
                assert not body or "cross-site request refused" in body or "session token" in body, what
                assert exists(rid), what
                assert count() == 1, what
        assert {f"/{n}.html" for n in attacks} <= set(evil.served)
        print("\ncross-site requests (evil host, attack, status, Sec-Fetch-Site, Origin, session cookie sent):")
        for s in seen:
            print("  ", *s)

        # controls: the same requests from awrscope's own pages (same origin, the page's token) do write,
        # so the refusals above are the server's doing, not a broken attack
        page.goto(base + "/", timeout=30_000)
        token = page.input_value("#upload-form input[name=csrf]")
        assert page.evaluate(FETCH_JS, [base + "/api/reports", planted, token]) == "response:basic"
        assert count() == 2
        with page.expect_navigation(url=base + "/upload", timeout=30_000):
            page.evaluate(FILE_FORM_JS, [base + "/upload", (corpus / form_name).read_text(encoding="latin-1"), token])
        assert "analysed, #" in page.inner_text("body")
        assert count() == 3
        page.goto(f"{base}/reports/{rid}", timeout=30_000)
        with page.expect_navigation(url=base + "/", timeout=30_000):
            page.evaluate("document.querySelector('form[action$=\"/delete\"] button').click()")
        assert not exists(rid)
        assert count() == 2
    finally:
        context.close()
        if evil:
            evil.stop()
        srv.stop()
