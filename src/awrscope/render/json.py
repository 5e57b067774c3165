"""JSON output of every document (analysis, parse, compare, trend): one spelling for every command."""
from __future__ import annotations

import json
from typing import Any


def to_json(payload: Any, indent: int | None = 1) -> str:
    """The document as UTF-8-ready JSON text; values JSON cannot hold (datetimes) as strings."""
    return json.dumps(payload, indent=indent, ensure_ascii=False, default=str)
