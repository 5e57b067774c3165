"""Issue 29: detection demands a report's skeleton, not a phrase. `awrscope analyze` on a source tree took
parsers/addm/__init__.py (which quotes 'ADDM Report for Task' in a regex) for an ADDM report and a Jinja
template for an AWR page. Measured here on the project's own files (none is a report) and on every corpus
report (each is the kind its manifest says), and a report cut short is still one."""
from __future__ import annotations

import csv
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from awrscope.errors import NotAReportError
from awrscope.parsers import parse_text
from awrscope.parsers.detect import detect
from awrscope.parsers.source import decode, looks_binary, read_sources

from _corpus import CORPUS, corpus_file

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
MINI = (FIXTURES / "mini_awr_11204.txt").read_text()

# The manifest names a format the detector keeps apart (Detected.format), so its kinds are coarser.
MANIFEST_KINDS = {"awr_text": "awr", "awr_html": "awr", "awr_diff_text": "awr_diff", "awr_diff_html": "awr_diff",
                  "awr_global": "awr_global", "statspack": "statspack", "ash": "ash", "addm": "addm"}


def _own_files() -> list[Path]:
    files = [ROOT / "README.md"]
    for top in ("src", "docs", "tests"):
        files += [p for p in sorted((ROOT / top).rglob("*")) if p.is_file() and FIXTURES not in p.parents]
    return files


def test_no_file_of_the_project_is_taken_for_a_report():
    """Source, templates, documents and tests quote titles, section names and whole report excerpts."""
    files = _own_files()
    assert len(files) > 150  # the walk found the tree, not an empty directory
    taken = []
    for path in files:
        data = path.read_bytes()
        if looks_binary(data):  # refused as binary before detection (compiled bytecode, images)
            continue
        det = detect(path.read_text(encoding="utf-8", errors="replace"))
        if det.kind is not None:
            taken.append(f"{path.relative_to(ROOT)}: {det.kind} ({det.format})")
    assert not taken, "\n".join(taken)


def _manifest() -> list[dict]:
    path = CORPUS.parent / "manifest.tsv"
    if not path.is_file():
        return [{"local_file": "<corpus missing>", "kind": "?"}]  # corpus_file() fails this on CI
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def test_the_manifest_kinds_are_known():
    rows = [r for r in _manifest() if r["local_file"] != "<corpus missing>"]
    if not rows:
        corpus_file("manifest.tsv")
    assert len(rows) >= 130
    assert {r["kind"] for r in rows} <= set(MANIFEST_KINDS), {r["kind"] for r in rows} - set(MANIFEST_KINDS)


@pytest.mark.parametrize("row", _manifest(), ids=lambda r: r["local_file"])
def test_every_corpus_report_is_detected_as_its_kind(row):
    path = corpus_file(row["local_file"])
    src = read_sources(str(path), 10**9)[0]  # .html.gz members are gunzipped as the CLI does
    text, _ = decode(src.data)
    det = detect(text)
    assert det.kind == MANIFEST_KINDS[row["kind"]], (det, row["kind"])
    assert det.format == ("html" if ".html" in path.name else "text")


# -- cut short, quoted, titles with nothing of a report under them --------------------------------------


def test_a_report_cut_short_is_still_one():
    """Cut inside the header, right after it, after one section: the text ends before the skeleton could be
    complete, and what there is fits it."""
    for marker in ("Begin Snap:", "Load Profile", "Instance Efficiency"):
        cut = MINI[:MINI.index(marker)]
        assert detect(cut).kind == "awr", marker
    assert detect("WORKLOAD REPOSITORY report for\n" + " " * 8000).kind == "awr"  # an 8 KiB sniff of a big file
    report = parse_text(MINI[:MINI.index("Load Profile")], "cut.txt")
    assert report.header.db_name == "DEMO"
    assert any("truncated" in i.message for i in report.issues)


def test_line_ends_and_spacing_do_not_hide_the_skeleton():
    """CR LF, lone CRs (the parsers read both), form feeds at SQL*Plus page breaks, blank lines between a
    table's headings and its dashes."""
    for text in (MINI.replace("\n", "\r\n"), MINI.replace("\n", "\r"), MINI.replace("\n", "\f\r"),
                 MINI.replace("\n", "\n\n\n")):
        assert detect(text).kind == "awr", repr(text[:40])


def test_the_head_of_a_big_html_report_is_recognised():
    """source.py reads the first 8 KiB of a file over the size limit to tell a report (an error: raise
    --max-size) from a file to skip. An AWR page cut inside its style sheet holds its <title> and nothing
    of the skeleton yet: a report cut short."""
    data = corpus_file("awr_html_11204_pcambell_xydb_36006_36007.html").read_bytes()
    for size in (1024, 4000, 8192):
        head = data[:size].decode("utf-8", errors="replace")
        assert detect(head).kind == "awr", size
    assert "DB Name" not in data[:4000].decode()


def test_a_report_quoted_in_source_code_is_not_one():
    quoted = 'EXAMPLE = """\\\n' + MINI + '"""\n\n\ndef test():\n    pass\n'
    assert detect(MINI).kind == "awr"
    assert detect(quoted).kind is None
    fenced = "An example:\n\n```\n" + MINI + "```\n"
    assert detect(fenced).kind is None
    html = (FIXTURES / "fuzz" / "init_ora_row_without_value.html").read_text()
    assert detect(html).kind == "awr"
    assert detect("PAGE = '''\n" + html + "'''\n").kind is None
    assert detect("page = " + repr(html)).kind is None


def test_a_title_with_prose_under_it_is_not_a_report():
    for title in ("WORKLOAD REPOSITORY report for", "STATSPACK report for", "ASH Report For DB1/db1",
                  "          ADDM Report for Task 'TASK_1'"):
        text = f"{title}\nis what the first line says; this note explains\nhow to read one\nand what to do next\n"
        det = detect(text)
        assert det.kind is None and det.claimed, title
        with pytest.raises(NotAReportError, match="without the header and sections"):
            parse_text(text, "note.txt")


def test_a_header_without_sections_is_not_a_report():
    """The header table and snapshots, then far more lines than a report prints before its first sections.
    (Fewer lines and the end of the text read as a report cut short: data rows and prose look alike.)"""
    head = MINI[:MINI.index("Load Profile")]
    assert detect(head + "\n".join(f"line {k} of some notes" for k in range(500))).kind is None


def test_a_jinja_template_naming_awr_is_not_a_report():
    template = ('<!doctype html>\n<html><head><title>AWR Report for {{ db }}</title></head><body>\n'
                '{% for r in rows %}<table><tr><td>{{ r.name }}</td></tr></table>{% endfor %}\n'
                + "<p>{{ note }}</p>\n" * 50 + "</body></html>\n")
    assert detect(template).kind is None


def test_many_quoted_titles_stay_cheap():
    """A file quoting titles on every line: detection tries a bounded number of them in a bounded head."""
    text = "WORKLOAD REPOSITORY report for\nsome prose\nmore prose\nand more\n" * 50_000
    start = time.perf_counter()
    assert detect(text).kind is None
    assert time.perf_counter() - start < 1.0


# -- through the CLI ------------------------------------------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "awrscope", *args], capture_output=True, env=env, cwd=ROOT)


@pytest.mark.parametrize("path", ["src/awrscope/parsers/addm/__init__.py", "src/awrscope/web/templates/trend.html"])
def test_analyze_on_a_source_file_is_one_line_and_exit_2(path):
    p = _run("analyze", path)
    err = [line for line in p.stderr.decode().splitlines() if line.strip()]
    assert p.returncode == 2, p.stderr.decode()
    assert len(err) == 1 and "not an AWR or Statspack report" in err[0], err
    assert p.stdout == b""


def test_a_report_converted_to_markdown_is_named_as_such(tmp_path):
    # found in a public repository: an AWR HTML page passed through an HTML-to-Markdown converter ('|' tables,
    # '#' before the title); refused in one line that says what to give instead
    from click.testing import CliRunner
    from awrscope.cli import main
    md = tmp_path / "awr.md"
    md.write_text("#  WORKLOAD REPOSITORY report for \n\nDB Name| DB Id| Instance| Inst num| Startup Time| Release| RAC  \n"
                  "---|---|---|---|---|---|---  \nORCL| 1539058184| orcl2| 2| 02-Feb-21 02:02| 11.2.0.4.0| YES  \n",
                  encoding="utf-8")
    res = CliRunner().invoke(main, ["analyze", str(md)])
    assert res.exit_code == 2 and "converted to Markdown" in res.output and len(res.output.strip().splitlines()) == 1


def test_an_excerpt_pasted_without_the_header_is_named_as_such(tmp_path):
    """Seen in web pages and tickets: a report's Top 5 without its title and header (Oracle Forums 'Long waits on log
    file sync while log parallel write is fine', 9.2.0.8, columns as the forum printed them). It was refused as 'no
    report header found', which does not tell the DBA that the rest of the report is what is missing."""
    from click.testing import CliRunner
    from awrscope.cli import main
    txt = tmp_path / "forum.txt"
    txt.write_text("Top 5 Timed Events\n~~~~~~~~~~~~~~~~~~ % Total\nEvent Waits Time (s) Ela Time\n"
                   "-------------------------------------------- ------------ ----------- --------\n"
                   "log file sync 401,608 18,448 59.94\ndb file parallel write 124,044 3,404 11.06\n", encoding="utf-8")
    res = CliRunner().invoke(main, ["analyze", str(txt)])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert "an excerpt of an AWR or Statspack report (Top 5 Timed Events) without the report's title and header" \
        in res.output


def test_report_markup_without_its_html_document_is_named_as_such(tmp_path):
    """Seen in a public AWR parser's source: a report's body (title, header tables) kept in a string without its
    <html> document. It was refused as 'the title of an AWR report, without the header and sections a report
    prints under it', though the header is there."""
    from click.testing import CliRunner
    from awrscope.cli import main
    frag = tmp_path / "part.html"
    frag.write_text('<h1 class="awr">\nWORKLOAD REPOSITORY report for\n\n</h1>\n<p />\n<table border="0" width="600" '
                    'class="tdiff" summary="This table displays database instance information">\n<tr><th class="awrbg" '
                    'scope="col">DB Name</th><th class="awrbg" scope="col">DB Id</th></tr>\n<tr><td scope="row" '
                    "class='awrnc'>ZJDQ</td><td align=\"right\" class='awrnc'>833766800</td></tr>\n</table>\n",
                    encoding="utf-8")
    res = CliRunner().invoke(main, ["analyze", str(frag)])
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert "the markup of an AWR report without the HTML document around it (no <html> start)" in res.output


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet='<>tdhrTDHRx "/=\n', max_size=60))
def test_tag_substitution_leaves_the_text_after_the_last_gt(h):
    """detect._sub_tags is rx.sub for the markup-to-lines patterns, which all end in '[^>]*>': no match can
    start after the last '>', so that text is not searched (each '<' there scanned to the end: quadratic)."""
    import importlib

    detect = importlib.import_module("awrscope.parsers.detect")  # the module: the package exports a function of its name
    for rx, repl in ((detect._CELL, "\t"), (detect._TITLE_TAG, "\n#"), (detect._BREAK, "\n"), (detect._TAG, "")):
        assert detect._sub_tags(rx, repl, h) == rx.sub(repl, h)


def test_a_file_of_unclosed_cell_tags_is_refused_at_once():
    """300,000 '<td "' after an HTML start (1.5 MB, no report): refused in one line, not 10 s of regex."""
    with pytest.raises(NotAReportError):
        parse_text("<html>\n<title>x</title>" + '<td "' * 300_000, "hostile.html")


@pytest.mark.parametrize("pad", [15_000, 16_000, 16_300, 60_000, 65_000])
def test_a_skeleton_across_the_first_slices_is_still_found(pad):
    """Detection reads the first 16 KB of an HTML report, then 64 KB, then the head, while the skeleton is
    undecided: a report whose title and first tables straddle either boundary (a long style block before them)
    is the same report."""
    text = decode(read_sources(str(corpus_file("awr_html_11203_antognini_top2_1830_1845.html")))[0].data)[0]
    at = text.lower().index("<body")
    padded = text[:at] + "<style>" + "p { margin: 0 }\n" * (pad // 16) + "</style>" + text[at:]
    assert detect(padded).kind == detect(text).kind == "awr"
    assert detect(padded).format == "html"
