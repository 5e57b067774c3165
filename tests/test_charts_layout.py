"""Chart layout of the HTML report (issue 17, "What a DBA sees"): one scale per chart (the compare page's rates
drawn as small multiples, each metric on its own scale), histograms whose labels never overlap and whose text
stays the charts' size however many buckets a 12c+ report prints. Geometry read from the SVG itself; the real
rendering is checked in Chromium by tests/test_browser_html.py."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from conftest import CORPUS, parse_path

from awrscope.analysis import analyze
from awrscope.render.html import render_analysis, render_compare
from awrscope.render.html import svg as svgmod

HIST_REPORTS = ("awr_html_19c_pcambell_orcl_17676_17677.html", "awr_html_19c_rac_pcambell_xydb_18192_18193.html",
                "awr_txt_12201_rbogusze_insaas3_4912_4913.txt", "awr_txt_12201_aix_jasmin_bpsc_2668_2669.txt",
                "statspack_txt_11203_antognini_top2_1830_1845.txt")


def _svgs(html: str, kind: str) -> list[ET.Element]:
    return [ET.fromstring(m) for m in re.findall(rf'<svg class="chart" data-chart="{kind}".*?</svg>', html, re.S)]


def _num(e: ET.Element, a: str) -> float:
    return float(e.get(a))


def test_compare_rates_each_metric_on_its_own_scale(corpus):
    from awrscope.change.compare import compare
    # 7 sessions and 393 KiB/s of redo before, 0.01 sessions and 4.5 KiB/s after: no shared axis shows both
    doc = compare(parse_path(CORPUS / "awr_txt_11203_antognini_top2_1830_1845.txt"),
                  parse_path(CORPUS / "awr_html_19c_pcambell_orcl_17676_17677.html"))
    html = render_compare(doc)
    (rates,) = _svgs(html, "cmp_rates")
    panels = rates.findall("g[@class='panel']")
    rate_ids = [k for k, m in doc["metrics"].items() if m["kind"] == "rate" and (m["before"] or m["after"])]
    assert len(panels) == len(rate_ids) >= 6
    assert len({p.get("data-unit") for p in panels}) >= 3  # sessions, s/s, 1/s, B/s
    full = set()
    for p in panels:
        bars = p.findall("rect[@class]")
        bars = [b for b in bars if b.get("class").startswith("bar ")]
        assert [b.get("class") for b in bars] == ["bar pa", "bar pb"]
        vals = [float(b.get("data-value") or 0) for b in bars]
        widths = [_num(b, "width") for b in bars]
        big = max(range(2), key=lambda j: vals[j])
        full.add(round(widths[big], 1))  # the larger value fills its panel: one scale per panel
        if vals[big] and min(vals) > 0:
            small = 1 - big
            assert widths[small] == pytest.approx(max(1.0, widths[big] * vals[small] / vals[big]), abs=0.11)
        frame = p.find("rect[@class='frame']")
        x0, x1 = _num(frame, "x"), _num(frame, "x") + _num(frame, "width")
        for t in p.findall("text"):  # text inside its panel (estimated width)
            w = svgmod.text_width(t.text or "")
            left = _num(t, "x") - (w if t.get("text-anchor") == "end" else 0)
            assert x0 <= left and left + w <= x1 + 1, (t.text, left, w, x0, x1)
    assert len(full) == 1
    # the per-transaction figures (DB time per txn: ms, ~100x the redo latencies) get panels too, not the ms axis
    (per,) = _svgs(html, "cmp_per_txn")
    assert "DB time per transaction" in {p.get("data-label") for p in per.findall("g[@class='panel']")}
    (lat,) = _svgs(html, "cmp_latency")
    assert "DB time per transaction" not in {g.get("data-label") for g in lat.findall("g")}


@pytest.mark.parametrize("name", HIST_REPORTS)
def test_histogram_labels_never_overlap(corpus, name):
    report = parse_path(CORPUS / name)
    html = render_analysis(analyze(report), report)
    charts = _svgs(html, "histogram")
    assert charts
    for s in charts:
        vb = [float(x) for x in s.get("viewBox").split()]
        # drawn at the report's chart scale, never blown up: its px size is its viewBox at ZOOM
        assert float(s.get("width")) == pytest.approx(vb[2] * svgmod.ZOOM, abs=1)
        assert vb[2] in (svgmod.HALF, svgmod.W)
        assert s.get("font-size") == str(svgmod.FONT)
        assert all(t.get("font-size") is None for t in s.iter("text"))  # no text of another size
        cols = s.findall("g[@class='col']")
        slot = (vb[2] - 20) / len(cols)
        boxes = []
        for c in cols:
            for t in c.findall("text"):
                if not t.text:
                    continue
                w, x, y = svgmod.text_width(t.text), _num(t, "x"), _num(t, "y")
                if t.get("transform"):  # upright: as thick as a line, as tall as the text is long
                    assert t.get("transform").startswith("rotate(-90")
                    x0, x1 = x - svgmod.FONT, x + svgmod.FONT * 0.25
                    y0, y1 = (y - w, y) if t.get("text-anchor") == "start" else (y, y + w)
                else:
                    x0 = x - w / 2 if t.get("text-anchor") == "middle" else x
                    x1, y0, y1 = x0 + w, y - svgmod.FONT, y + 3
                assert -1 <= x0 and x1 <= vb[2] + 1 and -1 <= y0 and y1 <= vb[3] + 1, (name, t.text)
                boxes.append((x0, x1, y0, y1, t.text))
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                overlap = min(a[1], b[1]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[2], b[2]) > 0.5
                assert not overlap, (name, a, b, slot)


def test_histogram_of_many_buckets_thins_its_labels():
    # 60 filled buckets: even upright labels would touch; every k-th is labelled, all keep their tooltip
    buckets = [{"label": f"<{2 ** k}us", "pct": 1.0 + k % 3} for k in range(60)]
    out = svgmod.histogram(buckets, label="x", kind="histogram")
    s = ET.fromstring(str(out["svg"]))
    assert out["wide"]
    labels = [t.text for g in s.findall("g") for t in g.findall("text[@class='lbl']")]
    shown = [x for x in labels if x]
    assert 0 < len(shown) < 60 and len(s.findall("g/title")) == 60


def test_trend_axis_ticks_are_round_values_up_to_the_top():
    # issue 27: y axes showed only 0 and the maximum; now round steps of 1, 2 or 5 x 10^k, at most five intervals
    from awrscope.render.html.svg import nice_ticks
    assert nice_ticks(13.7) == [0, 5, 10, 15]
    assert nice_ticks(118.4) == [0, 50, 100, 150]
    assert nice_ticks(0.37) == [0.0, 0.1, 0.2, 0.3, 0.4]
