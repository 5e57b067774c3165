"""Reports whose sections repeat (issue 28: "a 200 MB report of repeated sections is read without a
warning"): a report concatenated with itself, one section duplicated 1,000 times. Each is read as its
first report / first printing, with a warning saying so, never merged silently. Inputs stay CI-sized
(a few MB); the 200 MB case is built on demand:

    python tests/test_repeated_sections.py REPORT 200 /tmp/repeated.txt   # one section repeated to 200 MB
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from _corpus import corpus_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
from awrscope.parsers import parse_text  # noqa: E402

TEXT_SEED = "awr_txt_10204_radtek_oradb1_base01_54977_54986.txt"
HTML_SEED = "awr_html_19c_pcambell_orcl_17676_17677.html"
STATSPACK_SEED = "statspack_txt_11203_antognini_top2_1830_1845.txt"


def repeat_section(text: str, times: int) -> str:
    """The first 'SQL ordered by' section printed ``times`` times in a row (its pages too, in text)."""
    if "<h3" in text:
        start = re.search(r"<h3[^>]*>\s*SQL ordered by", text).start()
        end = text.index("<h3", start + 3)
    else:
        lines = text.splitlines(keepends=True)
        i = next(k for k, l in enumerate(lines) if l.startswith("SQL ordered by") and "DB/Inst:" in l)
        title = lines[i].split("DB/Inst:")[0]
        j = next(k for k in range(i + 1, len(lines)) if "DB/Inst:" in lines[k] and not lines[k].startswith(title))
        start, end = sum(map(len, lines[:i])), sum(map(len, lines[:j]))
    return text[:end] + text[start:end] * (times - 1) + text[end:]


def _warnings(report, words: str) -> list:
    return [i for i in report.issues if i.level == "warning" and words in i.message]


@pytest.mark.parametrize("seed", [TEXT_SEED, HTML_SEED, STATSPACK_SEED])
def test_a_report_concatenated_three_times_is_read_as_its_first(seed):
    text = corpus_file(seed).read_text(errors="replace")
    once = parse_text(text)
    thrice = parse_text(text * 3)
    said = _warnings(thrice, "this file holds 3 reports one after the other: only the first is read")
    assert len(said) == 1 and said[0].line > 1, thrice.issues
    assert not _warnings(once, "reports one after the other")
    # the first report's rows, not three reports' rows merged into one
    for key, sec in once.sections.items():
        assert len(thrice.sections[key].rows) == len(sec.rows), key
    assert thrice.header.begin == once.header.begin and thrice.elapsed_s == once.elapsed_s


@pytest.mark.parametrize("seed", [TEXT_SEED, HTML_SEED])
def test_a_section_repeated_a_thousand_times_is_read_once_with_a_warning(seed):
    text = corpus_file(seed).read_text(errors="replace")
    once = parse_text(text)
    many = parse_text(repeat_section(text, 1000))
    said = _warnings(many, "is printed")
    assert len(said) == 1 and "SQL ordered by" in said[0].message, many.issues
    assert said[0].message.endswith("only its first printing is read"), said[0].message
    if "<h3" in text:  # each HTML copy is a section of its own
        assert "is printed 1,000 times" in said[0].message, said[0].message
    else:  # the text copies follow each other: pages of one section, 999 of them printed again
        assert f"with {999 * _pages(text):,} identical pages again" in said[0].message, said[0].message
    key = said[0].section
    assert [r.name for r in many.sections[key].rows] == [r.name for r in once.sections[key].rows]
    assert not _warnings(once, "is printed")


def _pages(text: str) -> int:
    """Pages of the repeated text section: each page break prints its title again."""
    lines = text.splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith("SQL ordered by") and "DB/Inst:" in l)
    title = lines[i].split("DB/Inst:")[0]
    k = i
    while k + 1 < len(lines) and not ("DB/Inst:" in lines[k + 1] and not lines[k + 1].startswith(title)):
        k += 1
    return sum(1 for l in lines[i:k + 1] if l.startswith(title) and "DB/Inst:" in l)


def test_page_breaks_are_still_merged_without_a_warning(corpus_dir):
    """Every corpus text report: a title repeated by page breaks is one section and no 'printed N times'."""
    for path in sorted((corpus_dir / "reports").glob("*.txt")):
        if path.name.startswith(("ash_", "addm_")):
            continue
        rep = parse_text(path.read_text(errors="replace"))
        assert not _warnings(rep, "is printed"), path.name
        assert not _warnings(rep, "one after the other"), path.name


if __name__ == "__main__":
    src, mb, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    base = Path(src).read_text(errors="replace")
    once = len(repeat_section(base, 2)) - len(base)
    Path(out).write_text(repeat_section(base, max(2, int((mb * 1e6 - len(base)) // once) + 1)))
