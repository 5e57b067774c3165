"""Every text AWR and Statspack report of the corpus parses, with the basics
right; elapsed time is checked against the header text read independently."""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from awrscope.parsers import parse

from conftest import find_corpus

TEXT_KINDS = ("awr_text", "statspack")


def _text_reports() -> list[str]:
    c = find_corpus()
    if c is None:
        return ["<corpus missing>"]
    with open(c / "manifest.tsv", newline="", encoding="utf-8") as fh:
        return [r["local_file"] for r in csv.DictReader(fh, delimiter="\t") if r["kind"] in TEXT_KINDS]


_ELAPSED = re.compile(r"^\s*Elapsed:\s*([\d,]+\.?\d*)\s*\(mins\)", re.M)


def test_manifest_lists_text_reports(corpus_dir: Path) -> None:
    assert len(_text_reports()) >= 39


@pytest.mark.parametrize("name", _text_reports())
def test_text_report_parses(corpus_dir: Path, name: str) -> None:
    path = corpus_dir / "reports" / name
    assert path.is_file(), path
    rep = parse(str(path))
    h = rep.header
    assert h.db_name and h.db_name.strip() == h.db_name and ":" not in h.db_name, h.db_name
    assert h.dbid and h.dbid > 0
    assert h.instances and h.instances[0].name
    assert h.begin and h.end and h.begin.snap_id < h.end.snap_id
    assert rep.elapsed_s and rep.elapsed_s > 0
    assert rep.db_time_s and rep.db_time_s > 0
    text = path.read_text(encoding="utf-8", errors="replace")
    m = _ELAPSED.search(text)
    assert m, "no 'Elapsed: x (mins)' line in the report"
    printed = float(m.group(1).replace(",", ""))
    assert rep.elapsed_s == pytest.approx(printed * 60, abs=0.01)
    assert not [i for i in rep.issues if i.level == "error"], rep.issues
    for key in ("load_profile", "top_events", "instance_activity"):
        assert key in rep.sections, key
