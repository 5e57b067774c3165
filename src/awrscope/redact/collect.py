"""The identifiers of one report, by kind: from what the parser read (header, section rows) and from
regular-expression scans of the raw text for what rows do not carry (IP addresses, file paths,
user@host, TNS strings, domain names). Also the report's own vocabulary: the words that must stay."""
from __future__ import annotations

import re

from ..model import Report
from ..oracle.events import EVENT_CLASS, EVENTS
from ..oracle.statistics import STATISTICS
from .vocab import COMMON_WORDS, ORACLE_MODULES, SQL_KEYWORDS, WORD, oracle_name

#: identifier kinds, in the order the summary prints them (docs/redact.md)
KINDS = ("host", "database", "dbid", "service", "module", "user", "segment", "tablespace", "file", "ip",
         "sql_id", "parameter")

IPV4 = re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)")
IPV6 = re.compile(r"(?<![\w:])(?=[0-9A-Fa-f:]*[A-Fa-f])(?:[0-9A-Fa-f]{1,4}:){3,7}[0-9A-Fa-f]{1,4}(?![\w:])"
                  r"|(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{1,4})*::(?:[0-9A-Fa-f]{1,4}:)*[0-9A-Fa-f]{1,4}(?![\w:])")
UNIX_PATH = re.compile(r"(?<![\w.$#/\\])/(?:[\w.$#+-]+/)+[\w.$#+-]*")
WIN_PATH = re.compile(r"(?<![\w])[A-Za-z]:\\[\w.$#\\ -]*[\w$#]")
ASM_PATH = re.compile(r"(?<![\w+/])\+[A-Z][A-Z0-9_]*/[\w./+-]+")
USER_AT_HOST = re.compile(r"([A-Za-z][\w.$#-]*)@([A-Za-z][\w-]*(?:\.[\w-]+)*)")
TNS = re.compile(r"\(\s*(HOST|SERVICE_NAME|SID|SERVER_NAME|INSTANCE_NAME)\s*=\s*([^)\s]+)\s*\)", re.IGNORECASE)
DOMAIN = re.compile(r"(?<![\w.$#@])[A-Za-z][\w-]*(?:\.[A-Za-z0-9][\w-]*)+\.[A-Za-z]{2,10}(?![\w.])")
_VERSIONISH = re.compile(r"(release|version|rel\b|ver\b|oracle|database\s+\d)", re.IGNORECASE)

_PARAM_IDS = re.compile(r"^(db_name|db_unique_name|instance_name|service_names|db_domain|.*_dest(_\d+)?|control_files|"
                        r"spfile|local_listener|remote_listener|dispatchers|log_archive_config|fal_server|fal_client|"
                        r"dg_broker_config_file\d|utl_file_dir|.*file_name_convert|instance_groups|"
                        r"parallel_instance_group|cluster_interconnects|db_create_online_log_dest_\d|"
                        r"core_dump_dest|audit_file_dest|diagnostic_dest|ifile|pdb_file_name_convert)$", re.IGNORECASE)
_IDENT_SECTION = re.compile(r"^(segments_by_|tablespace_io|file_io|sql_|ash_top_sql|ash_top_sessions|ash_top_modules|"
                            r"init_parameters|addm_findings)")
_TEXT_KIND = {"tablespace_name": "tablespace", "tablespace": "tablespace", "object_name": "segment",
              "subobject_name": "segment", "name_subobject_name": "segment", "module": "module", "action": "module",
              "program": "module", "service": "service", "user": "user", "sql_id": "sql_id", "instance": "database",
              "pdb_name": "database"}
_TITLE_TAIL = re.compile(r"DB/Inst|\bfor DB:|\bDB:|Snaps?:")  # what follows names the database
_SQL_ID = re.compile(r"^[0-9a-z]{13}$")


def _printed_part(name: str, lines: list[str], line: int | None) -> str:
    """The part of a row name its line prints: a text report cuts names to their column, mid-word ('gcs drm
    freeze in enter serv'), and the parser completes them from the event catalogue, so the fragment as printed
    is Oracle's word too. Only what the line holds: a prefix of every word would keep identifiers that happen
    to begin an Oracle word (a database DBW, a host sca...)."""
    if not line or line > len(lines):
        return ""
    printed = lines[line - 1].lower()
    low = name.lower()
    if low in printed:
        return ""  # printed whole: its words are in the vocabulary already
    k = len(low) - 1
    while k >= 3 and low[:k] not in printed:
        k -= 1
    return name[:k] if k >= 3 else ""


def vocabulary(report: Report, text: str) -> set[str]:
    """Words that stay whatever identifier they also spell: Oracle's names (awrscope's event and statistic
    vocabulary, the report's section titles and the row names and values of its non-identifier sections),
    SQL keywords, column headings."""
    words: set[str] = set(COMMON_WORDS) | set(SQL_KEYWORDS)
    lines = text.replace("\f", "").splitlines()  # numbered as the text parser numbers them (row.line)
    for s in list(EVENTS) + list(EVENT_CLASS) + list(EVENT_CLASS.values()) + list(STATISTICS):
        words.update(WORD.findall(s))
    for r in _all(report):
        for key, sec in list(r.sections.items()) + list(r.diff.items()):
            words.update(WORD.findall(_TITLE_TAIL.split(sec.title or "", 1)[0]))
            ident = bool(_IDENT_SECTION.match(key))
            for row in sec.rows:
                if not ident or key == "init_parameters" or key == "addm_findings":
                    words.update(WORD.findall(row.name or ""))
                if not ident and row.name and r.format == "text":
                    words.update(WORD.findall(_printed_part(row.name, lines, row.line)))
                if not ident:
                    for k, v in row.text.items():
                        if k != "instance":
                            words.update(WORD.findall(v or ""))
    for i, line in enumerate(lines):  # column headings: the lines above a text table's dashes
        if i and re.match(r"^\s*-{3,}[ -]*$", line) and not re.match(r"^\s{4,}-{30,}\s*$", line):
            for j in range(max(0, i - 3), i):
                words.update(WORD.findall(_TITLE_TAIL.split(lines[j], 1)[0]))
    for m in re.finditer(r"<th\b[^>]*>(.*?)</th>|\ssummary=\"([^\"]*)\"", text, re.DOTALL | re.IGNORECASE):
        words.update(WORD.findall(m.group(1) or m.group(2) or ""))
    for m in re.finditer(r"</?([A-Za-z][A-Za-z0-9]*)|\s([A-Za-z-]+)\s*=", text):  # HTML markup
        words.add(m.group(1) or m.group(2))
    for m in re.finditer(r"\s(?!(?:href|name|id|title|alt)\b)[A-Za-z-]+\s*=\s*[\"']([^\"'<>]*)[\"']", text, re.I):
        words.update(WORD.findall(m.group(1)))  # class="awrc" scope="col": markup values are never replaced
    return words


def _all(report: Report):
    yield report
    for p in report.periods:
        yield from _all(p)


def identifiers(report: Report, text: str) -> dict[str, set[str]]:
    """kind -> the identifiers of that kind in the report (whole strings, as printed)."""
    out: dict[str, set[str]] = {k: set() for k in KINDS}
    for r in _all(report):
        _from_model(r, out)
    _scan(report, text, out)
    for k in out:
        out[k] = {x.strip() for x in out[k] if x and x.strip() and not _kept_whole(k, x.strip())}
    return out


def _kept_whole(kind: str, s: str) -> bool:
    if kind == "module" and s in ORACLE_MODULES:
        return True
    return kind in ("user", "tablespace", "service", "segment") and oracle_name(s)


def _from_model(r: Report, out: dict[str, set[str]]) -> None:
    h = r.header
    for v in (h.db_name, h.unique_name, h.container):
        if v:
            out["database"].add(v)
    if h.dbid:
        out["dbid"].add(str(h.dbid))
    if h.host:
        out["host"].add(h.host)
    for inst in h.instances:
        if inst.name:
            out["database"].add(inst.name)
        if inst.host:
            out["host"].add(inst.host)
    for key, sec in list(r.sections.items()) + list(r.diff.items()):
        if not _IDENT_SECTION.match(key):
            for row in sec.rows:
                if row.text.get("instance"):
                    out["database"].add(row.text["instance"])
            continue
        for row in sec.rows:
            t = row.text
            if key.startswith("segments_by_"):
                if oracle_name(row.name or ""):
                    continue  # an Oracle-supplied schema's segments are Oracle's names
                out["user"].add(row.name or "")
            elif key == "tablespace_io":
                out["tablespace"].add(row.name or "")
            elif key == "file_io" and row.name:
                ts, _, path = row.name.partition(" ")
                out["tablespace"].add(ts)
                out["file"].add(path.strip())
            elif key == "ash_top_modules":
                out["module"].add(row.name or "")
            elif key == "init_parameters":
                if row.name and _PARAM_IDS.match(row.name):
                    for v in (t.get("begin"), t.get("end")):
                        if v and v not in ("*", "TRUE", "FALSE") and not re.fullmatch(r"[\d.,]+", v):
                            out["parameter"].add(v)
                continue
            elif key.startswith("sql_") and row.name and _SQL_ID.match(row.name):
                out["sql_id"].add(row.name)
            elif key == "addm_findings":
                continue
            for k, v in t.items():
                kind = _TEXT_KIND.get(k)
                if kind and v:
                    out[kind].add(v)


def _scan(report: Report, text: str, out: dict[str, set[str]]) -> None:
    for m in IPV4.finditer(text):
        ip = m.group(0)
        before = text[max(0, m.start() - 40):m.start()].rsplit("\n", 1)[-1]
        if (report.version and (report.version.startswith(ip) or ip.startswith(report.version))) \
                or _VERSIONISH.search(before) or not all(int(x) < 256 for x in ip.split(".")):
            continue
        out["ip"].add(ip)
    out["ip"].update(m.group(0) for m in IPV6.finditer(text))
    for rx in (UNIX_PATH, WIN_PATH, ASM_PATH):
        out["file"].update(m.group(0) for m in rx.finditer(text) if m.group(0).count("/") + m.group(0).count("\\") >= 2
                           or rx is not UNIX_PATH)
    for m in USER_AT_HOST.finditer(text):
        out["user"].add(m.group(1))
        out["host"].add(m.group(2))
    for m in TNS.finditer(text):
        out["host" if m.group(1).upper() == "HOST" else "service"].add(m.group(2))
    out["host"].update(m.group(0) for m in DOMAIN.finditer(text) if not _looks_like_file(m.group(0)))


def _looks_like_file(s: str) -> bool:
    return s.rsplit(".", 1)[-1].lower() in {"dbf", "log", "ctl", "arc", "trc", "ora", "sql", "html", "txt", "lst",
                                            "xml", "dat", "rdo", "tmp", "exe", "bak", "aud"}
