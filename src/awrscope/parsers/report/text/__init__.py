"""Text reports (AWR ``awrrpt.sql`` text, Statspack ``spreport.sql``) to raw blocks."""
from __future__ import annotations

from ..raw import Block
from ..sections import lookup
from .splitter import RawSection, split_sections
from .tables import read_block

# Summary-page pieces of the Statspack 10g+ header that are underlined with
# tildes like section titles but belong to the header.
# Statspack 12c wraps its host header ('Host  Name  Platform  CPUs' / 'Cores
# Sockets Memory (G)' / '~~~~ ----'): the second line looks like a title cut at
# the 4-tilde underline ('Core'), and the host row under it belonged to no one.
HEADER_TITLES = frozenset({"database", "host", "snapshot", "host name", "instance", "db name", "core", "cores"})


def normalise_lines(text: str) -> list[str]:
    """Split into lines; drop CR, form feeds and SQL*Plus ``OUTPUT`` artefacts
    (spec A.2.8), keeping line numbers stable (dropped lines become blank)."""
    if "\f" in text:
        text = text.replace("\f", "")
    lines = text.splitlines()
    if "OUTPUT" in text:
        for i, line in enumerate(lines):
            if line.strip() == "OUTPUT":
                lines[i] = ""
                if i + 1 < len(lines) and len(lines[i + 1].strip()) >= 70 and not lines[i + 1].strip("- "):
                    lines[i + 1] = ""
    return lines


def blocks_from_text(lines: list[str]) -> tuple[list[str], int, list[Block]]:
    """(header lines, header first line, blocks). Consecutive sections with the
    same title (page breaks) are merged into one block."""
    preamble, raws = split_sections(lines)
    header_lines = list(preamble)
    blocks: list[Block] = []
    last_title = None
    pages: set[int] = set()  # hashes of the page bodies of the last block: a page printed again is a copy
    for raw in raws:
        if " ".join(raw.title.lower().split()) in HEADER_TITLES:
            header_lines.append(lines[raw.line - 1])
            header_lines.extend(raw.lines)
            continue
        if lookup(raw.title) is None:  # not a section awrscope maps: delimit it, do not cut it into cells
            # (the ASH sections an AWR report prints keep their lines for the ASH readers: ash_sections.py)
            kept = list(raw.lines) if _ash_section(raw.title) else []
            blocks.append(Block(raw.title, raw.line, [], [], kept, raw.first_body_line, "text"))
            last_title = raw.title
            continue
        body = _body_lines(raw)
        page = hash(tuple(body))
        if raw.title == last_title and blocks and page in pages and any(l.strip() for l in body):
            blocks[-1].copies += 1  # a page break continues a section; the same page again is a duplicate
            continue
        if raw.title != last_title:
            pages = set()
        pages.add(page)
        tb = read_block(body, raw.first_body_line - (1 if raw.rest_of_title_line else 0))
        if raw.title == last_title and blocks:
            prev = blocks[-1]
            prev.notes.extend(n for n in tb.notes if n not in prev.notes)
            for t in tb.tables:
                if prev.tables and t.columns == prev.tables[-1].columns:
                    prev.tables[-1].raw_rows.extend(t.raw_rows)
                else:
                    prev.tables.append(t)
            prev.lines.extend(body)
            continue
        blocks.append(Block(raw.title, raw.line, tb.notes, tb.tables, body, tb.first_line, "text"))
        last_title = raw.title
    return header_lines, 1, blocks


def _ash_section(title: str) -> bool:
    if not title.lower().startswith(("top ", "activity over")):
        return False
    from ..ash_sections import is_ash_section

    return is_ash_section(title)


def _body_lines(raw: RawSection) -> list[str]:
    """For a summary-page title, the title line's right part is column header
    text (kept in place, title blanked) and the tilde underline may carry
    column dashes (tildes become spaces)."""
    body = list(raw.lines)
    if body:
        body[0] = _untilde(body[0])
    if raw.rest_of_title_line:
        body.insert(0, raw.rest_of_title_line)
    return body


def _untilde(line: str) -> str:
    return line.replace("~", " ") if "~" in line else line
