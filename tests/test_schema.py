"""The parse output validates against the published JSON Schema."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from awrscope.parsers import parse_path
from awrscope.serialize import parse_document

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "src/awrscope/schema/parse.schema.json").read_text())
FIXTURES = Path(__file__).parent / "fixtures"


def test_fixture_validates():
    doc = parse_document(parse_path(str(FIXTURES / "mini_awr_11204.txt"))[0])
    jsonschema.validate(doc, SCHEMA)
    assert doc["sections"]["wait_events_fg"]["units"]["time_s"] == "s"


def test_corpus_text_reports_validate(corpus_dir):
    checked = 0
    for path in sorted((corpus_dir / "reports").iterdir()):
        if not path.name.startswith(("awr_txt_", "statspack_txt_")):
            continue
        for report in parse_path(str(path)):
            jsonschema.validate(parse_document(report), SCHEMA)
            checked += 1
    assert checked >= 39
