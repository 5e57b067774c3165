"""The format-neutral raw section that the text and HTML front ends both produce.

A section mapper (``parse.sections``) turns a :class:`Block` into a typed
:class:`~awrscope.model.Section`, whatever format the report came in.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .text.tables import RawTable


#: Title of the pseudo-block in which the HTML front end hands over the tables
#: printed before the first section (DB, host, snapshot): the report header.
HTML_HEADER_TITLE = "\x00report header"


@dataclass(slots=True)
class Block:
    title: str
    line: int  # 1-based line of the title in the source
    notes: list[str] = field(default_factory=list)
    tables: list[RawTable] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)  # text body (text reports only)
    first_line: int = 0  # 1-based line number of lines[0]
    format: str = "text"


__all__ = ["Block", "RawTable", "HTML_HEADER_TITLE"]
