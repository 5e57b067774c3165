"""The identifiers of one report, by kind: from what the parser read (header, section rows) and from
regular-expression scans of the raw text for what rows do not carry (IP addresses, file paths,
user@host, TNS strings, domain names). Also the report's own vocabulary: the words that must stay."""
from __future__ import annotations

import html
import re

from ..model import Report
from .vocab import ORACLE_MODULES, WORD, known, oracle_name
from .. import patterns

#: identifier kinds, in the order the summary prints them (docs/redact.md)
KINDS = ("host", "domain", "database", "dbid", "service", "module", "user", "replication", "segment",
         "tablespace", "file", "ip", "sql_id", "parameter", "name")
#: kinds whose names the report itself introduces: such a name is replaced even where it also spells a word the
#: report prints elsewhere (a service row, a heading line), as that word is the name again, not Oracle's
PRIMARY = frozenset({"host", "database", "service", "user", "replication"})

IPV4 = patterns.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w]|\.\d)")
IPV6 = patterns.compile(r"(?<![\w:])(?=[0-9A-Fa-f:]*[A-Fa-f])(?:[0-9A-Fa-f]{1,4}:){3,7}[0-9A-Fa-f]{1,4}(?![\w:])"
                        r"|(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{1,4})*::(?:[0-9A-Fa-f]{1,4}:)*[0-9A-Fa-f]{1,4}(?![\w:])")
UNIX_PATH = patterns.compile(r"(?<![\w.$#/\\])/(?:[\w.$#+-]+/)+[\w.$#+-]*")
WIN_PATH = patterns.compile(r"(?<![\w])[A-Za-z]:\\[\w.$#\\ -]*[\w$#]")
ASM_PATH = patterns.compile(r"(?<![\w+/])\+[A-Z][A-Z0-9_]*/[\w./+-]+")
USER_AT_HOST = patterns.compile(r"([A-Za-z][\w.$#-]*)@([A-Za-z][\w-]*(?:\.[\w-]+)*)")  # what user_at_host finds
_HOST_AFTER_AT = patterns.compile(r"[A-Za-z][\w-]*(?:\.[\w-]+)*")
_ASCII_LETTER = patterns.compile(r"[A-Za-z]")


def user_at_host(text: str):
    """(user, host) of each USER_AT_HOST.finditer match, in linear time: that search tries every letter of a
    long run of word characters with no '@' after it, each to the run's end (a 95,000-letter run took a minute).
    Here each '@' looks back over the run before it once; the user starts at the run's first letter."""
    last = 0
    at = text.find("@")
    while at >= 0:
        start = at
        while start > last and (text[start - 1].isalnum() or text[start - 1] in "_.$#-"):
            start -= 1
        letter = _ASCII_LETTER.search(text, start, at)
        host = _HOST_AFTER_AT.match(text, at + 1) if letter else None
        if host:
            yield text[letter.start():at], host.group(0)
            last = host.end()
        at = text.find("@", max(at + 1, last))
TNS = patterns.compile(r"\(\s*(HOST|SERVICE_NAME|SERVICE|SID|SERVER_NAME|INSTANCE_NAME|GLOBAL_DBNAME)\s*=\s*([^)\s]+)\s*\)",
                 re.IGNORECASE)
DOMAIN = patterns.compile(r"(?<![\w.$#@])[A-Za-z][\w-]*(?:\.[A-Za-z0-9][\w-]*)+\.[A-Za-z]{2,10}(?![\w.])")
_VERSIONISH = patterns.compile(r"(release|version|\brel\b|\bver\b|oracle|database\s+\d)", re.IGNORECASE)

_PARAM_IDS = patterns.compile(r"^(db_name|db_unique_name|instance_name|service_names|db_domain|.*_dest(_\d+)?|control_files|"
                              r"spfile|local_listener|remote_listener|dispatchers|log_archive_config|fal_server|fal_client|"
                              r"dg_broker_config_file\d|utl_file_dir|.*file_name_convert|instance_groups|"
                              r"parallel_instance_group|cluster_interconnects|db_create_online_log_dest_\d|"
                              r"core_dump_dest|audit_file_dest|diagnostic_dest|ifile|pdb_file_name_convert|log_archive_format|"
                              r"asm_diskstring|asm_diskgroups|resource_manager_plan|db_recovery_file_dest|"
                              r"log_archive_config|standby_archive_dest|cell_offloadgroup_name|"
                              r"plsql_ccflags|xml_db_events|os_authent_prefix|java_jit_enabled_for)$", re.IGNORECASE)
_IDENT_SECTION = patterns.compile(r"^(segments_by_|tablespace_io|file_io|sql_|ash_top_sql|ash_top_sessions|ash_top_modules|"
                                  r"ash_top_objects|ash_top_blockers|init_parameters|addm_findings|rollback_stats)")
#: sections whose row names are Oracle's labels (events, statistics, latches, parameter names, ...): allowed by
#: name, not by being no identifier section (ASH Top DB Objects rows are object names)
LABEL_SECTIONS = patterns.compile(r"^(top_events|wait_classes|wait_events|wait_histogram|time_model|instance_activity|"
                                  r"load_profile|instance_efficiency|latch_activity|enqueue_activity|os_stats|host_cpu|"
                                  r"instance_cpu|io_profile|iostat_|memory_stats|pga_|sga_|shared_pool_advisory|"
                                  r"buffer_pool|buffer_waits|cache_sizes|checkpoint_activity|instance_recovery|"
                                  r"resource_limits|undo_summary|thread_activity|memory_target_advisory|"
                                  r"ash_top_bg_events|ash_activity_events|init_parameters)")
_TEXT_KIND = {"tablespace_name": "tablespace", "tablespace": "tablespace", "object_name": "segment",
              "subobject_name": "segment", "name_subobject_name": "segment", "module": "module", "action": "module",
              "program": "module", "service": "service", "user": "user", "sql_id": "sql_id", "instance": "database",
              "pdb_name": "database"}
_TITLE_TAIL = patterns.compile(r"DB/Inst|\bfor DB:|\bDB:|Snaps?:")  # what follows names the database
_SQL_ID = patterns.compile(r"^[0-9a-z]{13}$")


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
    """The report's own Oracle labels (upper-cased words), kept in identifier positions and SQL text beside the
    static vocabulary (vocab.static_vocabulary): section titles; the row names of its Oracle-label sections
    (LABEL_SECTIONS: events, statistics, latches, parameter names, ... named one by one, so that a section of
    names such as ASH Top DB Objects never shields them) and those rows' wait classes; the fragments a text line
    prints of a cut event name; column headings. Never markup, never a cell's value, never SQL text."""
    words: set[str] = set()
    lines = text.replace("\f", "").splitlines()  # numbered as the text parser numbers them (row.line)
    for r in _all(report):
        for key, sec in list(r.sections.items()) + list(r.diff.items()):
            words.update(WORD.findall(_TITLE_TAIL.split(sec.title or "", 1)[0]))
            if not LABEL_SECTIONS.match(key):
                continue
            for row in sec.rows:
                words.update(WORD.findall(row.name or ""))
                if row.name and r.format == "text":
                    words.update(WORD.findall(_printed_part(row.name, lines, row.line)))
                words.update(WORD.findall(row.text.get("wait_class") or ""))
    for i, line in enumerate(lines):  # column headings: the lines above a text table's dashes
        # '---' then dashes or spaces: '-{3,}[ -]*' tried every split of a long dashed line (197,000 dashes with one
        # other character: a minute of CPU)
        if i and re.match(r"^\s*---[ -]*$", line) and not re.match(r"^\s{4,}-{30,}\s*$", line):
            for j in range(max(0, i - 2), i):
                if _HEADING_LINE.match(lines[j]) and not re.match(r"^\s*---", lines[j]):
                    words.update(WORD.findall(_TITLE_TAIL.split(lines[j], 1)[0]))
    for words_of in _headings_and_summaries(text):
        if re.search(r"<t[rd]\b", words_of, re.IGNORECASE):
            continue  # a heading cell closed by a broken tag ('</\nth>') runs over data rows: not a heading
        words.update(WORD.findall(html.unescape(re.sub(r"<[^>]*>", " ", words_of))))
    return {w.upper() for w in words}


# a heading line: no figure with a decimal point or a thousands separator (a data row above a dashed rule is none)
_HEADING_LINE = patterns.compile(r"^(?!.*\d[.,]\d)(?!\s*$)")


_TH_OR_SUMMARY = patterns.compile(r"<th\b[^>]*>|\ssummary=\"([^\"]*)\"", re.IGNORECASE)
_TH_CLOSE = patterns.compile(r"</th>", re.IGNORECASE)


def _headings_and_summaries(text: str):
    """What ``re.finditer(r'<th\\b[^>]*>(.*?)</th>|\\ssummary="([^"]*)"', text, DOTALL | IGNORECASE)`` gives
    (the text of each <th> cell, each summary attribute), in linear time: that search looked for '</th>' to the
    end of the text from every unclosed <th> (15,000 of them took minutes). Once one has no '</th>' after it,
    none later has: <th> starts are then passed over, as the search passed over them."""
    pos, closes = 0, True
    while True:
        m = _TH_OR_SUMMARY.search(text, pos)
        if m is None:
            return
        if m.group(1) is not None:
            yield m.group(1)
            pos = m.end()
            continue
        close = _TH_CLOSE.search(text, m.end()) if closes else None
        if close is None:
            closes = False
            pos = m.start() + 1  # a summary attribute may stand inside this tag
            continue
        yield text[m.end():close.start()]
        pos = close.end()


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


_ORACLE_INSTANCES = patterns.compile(r"^[+-]?(ASM|APX|MGMTDB)\d*$", re.IGNORECASE)


def _kept_whole(kind: str, s: str) -> bool:
    if kind == "module" and s in ORACLE_MODULES:
        return True
    if kind == "database" and _ORACLE_INSTANCES.match(s):
        return True  # Oracle's own instances (+ASM1, -MGMTDB), not a name the site chose
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
            elif key == "ash_top_objects":
                out["segment"].add(row.name or "")  # 'OWNER.TABLE.PARTITION (TYPE)'
            elif key == "rollback_stats":
                if row.name and not row.name.isdigit():
                    out["name"].add(row.name)
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
    for user, host in user_at_host(text):
        out["user"].add(user)
        out["host"].add(host)
    for m in TNS.finditer(text):
        out["host" if m.group(1).upper() == "HOST" else "service"].add(m.group(2))
    # a dotted name is a host's as often as a package's (perfstat.statspack.snap): its words are replaced where
    # they stand whole, not inside longer words as a host name's are
    out["domain"].update(m.group(0) for m in DOMAIN.finditer(text) if not _looks_like_file(m.group(0)))
    for m in _QUOTED_SCHEMA.finditer(text):  # "LMS_PD"."MV_..." in SQL text, wherever the SQL is printed
        if not oracle_name(m.group(1)):
            out["user"].add(m.group(1))
    for m in _DB_INST.finditer(text):  # section titles of text and ASH reports name the database on every page
        out["database"].update(x for x in m.groups() if x)
    _html_columns(text, out)
    _html_parameters(text, out)
    _text_services(text, out)
    _text_name_sections(text, out)
    for m in _SQL_ID_TEXT.finditer(text):  # SQL ids anywhere: ADDM and ASH text name them in sentences
        tok = m.group(0)
        if any(c.isdigit() for c in tok) and any(c.isalpha() for c in tok) and not known(tok):
            out["sql_id"].add(tok)
    for m in _WR_DBID.finditer(text):  # WRH$_ACTIVE_<dbid>_<n>: a DBID (the CDB's, not the header's, in a PDB)
        out["dbid"].add(m.group(1))
    for m in _DBID_TEXT.finditer(text):  # ADDM: 'in container PDB1 with database ID 1427182925' (a PDB's DBID)
        out["dbid"].add(m.group(1))


_DBID_TEXT = patterns.compile(r"\b(?:database ID|DB ID|DBID)[:\s]+(\d{6,10})\b", re.IGNORECASE)
_SQL_ID_TEXT = patterns.compile(r"(?<![\w$#])[0-9a-z]{13}(?![\w$#])")
_WR_DBID = patterns.compile(r"\bWR[HMI]\$_[A-Za-z0-9_]*?_(\d{6,10})_\d+(?![\w$#])")

# text sections of names (ASH's Top DB Objects, Top PL/SQL, Top Sessions, ...; Exadata's cells): every word of their
# rows that is not in the vocabulary is a name (deny by default), as their rows are not all parsed
_NAME_TITLE = patterns.compile(r"^(Top DB Objects|Top PL/SQL Procedures|Top Sessions|Top Blocking Sessions|"
                               r"Top Service/Module|Top Client IDs|Top DB Files|Top Sessions running PQs|Top Java Workload|"
                               r"Top Remote Instances|Top Cell|Exadata Cell|Cell Server|"
                               r"Top Databases|ASM Disk|Top Segments|Top Objects|Top PL/SQL)\b")
_ANY_TITLE = patterns.compile(r"^[A-Z][\w/()&,.' -]+?\s+(DB/Inst:|DB:|Snaps?:)")
_SECTION_END = patterns.compile(r"^\s{4,}-{20,}\s*$")


def _text_name_sections(text: str, out: dict[str, set[str]]) -> None:
    if "Top " not in text and "Cell" not in text:
        return
    lines = text.splitlines()
    n = len(lines)
    i = 0
    while i < n:
        if not _NAME_TITLE.match(lines[i]):
            i += 1
            continue
        j = i + 1
        seen_dashes = False
        while j < n:
            cur = lines[j]
            if j > i + 1 and (cur[:1].strip() and _ANY_TITLE.match(cur) or _SECTION_END.match(cur)):
                break
            if re.match(r"^\s*-{3,}[ -]*$", cur):
                seen_dashes = True
            elif seen_dashes and cur.strip() and not cur.lstrip().startswith("->") and not (
                    j + 1 < n and re.match(r"^\s*-{3,}[ -]*$", lines[j + 1])):
                for w in WORD.findall(cur):
                    if not known(w):
                        out["name"].add(w)
            j += 1
        i = j


# 'DB/Inst: BPSC/bpsc  Snaps: ...' (AWR, ASH text), 'DB: ORACLE  Instance: orcl  Snaps: ...' (Statspack),
# '<title>AWR Report for DB: FXIO4, Inst: FXIO4, Snaps: ...' (HTML)
_DB_INST = patterns.compile(r"\bDB/Inst:\s*([^\s/]+)/([^\s/]+)|\bDB:\s+(\S+)\s+Instance:\s+(\S+)"
                            r"|\bDB:\s*([\w$#.-]+),\s*Inst:\s*([\w$#.-]+)")  # the last: an HTML report's <title>

# a schema in SQL text; not Oracle's own aliases of a materialized view refresh ("JV$", "MAS$0")
_QUOTED_SCHEMA = patterns.compile(r"(?:&quot;|\")([A-Za-z][A-Za-z0-9_#]*[A-Za-z0-9_#])(?:&quot;|\")\.(?:&quot;|\")")


# HTML columns whose cells are names the site chose, by heading (lower case, single spaces)
_COLUMN_KIND = {
    "db name": "database", "instance": "database", "inst name": "database", "instance name": "database",
    "container name": "database", "pdb name": "database", "db unique name": "database", "unique name": "database",
    "host": "host", "host name": "host", "machine": "host",
    "service name": "service", "service": "service",
    "user": "user", "user name": "user", "username": "user", "owner": "user", "schema": "user",
    "schema name": "user", "parsing schema name": "user",
    "apply name": "replication", "replicat name": "replication", "capture name": "replication",
    "extract name": "replication", "propagation name": "replication", "streams name": "replication",
    "queue name": "replication", "subscriber/queue": "replication", "queue schema and name": "replication",
    "object name": "segment", "subobject name": "segment",
    "module": "module", "sql module": "module", "session module": "module", "program": "module",
    "action": "module", "client id": "module", "pl/sql entry subprogram": "module",
    "pl/sql current subprogram": "module",
    "tablespace": "tablespace", "tablespace name": "tablespace", "filename": "file", "file name": "file",
    "cell name": "host", "cell": "host", "cell hash": "host", "disk name": "file", "disk": "file", "path": "file",
    "failgroup": "file", "disk group": "file", "diskgroup": "file", "asm disk": "file", "ip address": "ip",
    "object name (type)": "segment", "object name": "segment", "plsql entry subprogram": "module",
    "plsql current subprogram": "module", "client id": "module", "sql module": "module", "event caused": "name",
    "queue": "replication", "consumer group": "name", "consumer group name": "name", "plan name": "name",
    "job name": "name", "edition": "name", "db link": "name", "location": "file",
}
_TABLE = patterns.compile(r"<table\b.*?</table\s*>", re.DOTALL | re.IGNORECASE)  # what _tables finds
_TABLE_OPEN = patterns.compile(r"<table\b", re.IGNORECASE)
_TABLE_CLOSE = patterns.compile(r"</table\s*>", re.IGNORECASE)


def _tables(text: str):
    """The texts of ``_TABLE.finditer(text)`` in linear time: that search looked for '</table>' to the end of
    the text from every unclosed <table> (15,000 of them: half a minute). Once one has no '</table>' after it,
    none later has."""
    pos = 0
    while True:
        m = _TABLE_OPEN.search(text, pos)
        if m is None:
            return
        close = _TABLE_CLOSE.search(text, m.end())
        if close is None:
            return
        yield text[m.start():close.end()]
        pos = close.end()
_ROW = patterns.compile(r"<tr\b.*?(?=<tr\b|</table)", re.DOTALL | re.IGNORECASE)
_CELL = patterns.compile(r"<(t[dh])\b([^>]*)>(.*?)(?=<t[dh]\b|</tr|$)", re.DOTALL | re.IGNORECASE)
_NO_NAME = patterns.compile(r"\*\*|MISSING|^\((unknown|none)\)$|^(Others?|UNKNOWN|UNNAMED|Total)$", re.IGNORECASE)
_FIGURE_CELL = patterns.compile(r"^[-+]?[\d.,]+\s*[%KMGTPkmgtp]?$|^(N/A|null|\*+|-+)$", re.IGNORECASE)


def _cell_text(raw: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]*>", " ", raw)).replace("\xa0", " ").split())


def _html_columns(text: str, out: dict[str, set[str]]) -> None:
    """Cells under a heading that names a site's names (Replicat Name, Owner, Service Name, ...), in any table
    the parser reads or not: a GoldenGate apply, a queue, a session's user are named nowhere else. A cell that
    is a word of Oracle's (a subtotal row's 'Instance') is a label there."""
    from .match import oracle_words

    if "<t" not in text[:200000].lower() and "<T" not in text[:200000]:
        return
    for table in _tables(text):
        headings: list[str] | None = None
        for r in _ROW.finditer(table):
            cells = [(m.group(1).lower(), m.group(2), _cell_text(m.group(3))) for m in _CELL.finditer(r.group(0))]
            if not cells:
                continue
            if all(tag == "th" for tag, _, _ in cells):
                if any("colspan" in attrs.lower() for _, attrs, _ in cells):
                    headings = None  # a two-row heading: columns cannot be told apart safely
                else:
                    headings = [c.lower() for _, _, c in cells]
                continue
            if headings is None or len(cells) != len(headings):
                continue
            for h, (_, _, value) in zip(headings, cells):
                kind = _COLUMN_KIND.get(h)
                if (kind and value and not _FIGURE_CELL.match(value) and not _NO_NAME.search(value)
                        and value.lower() not in headings and value.upper() not in oracle_words()):
                    out[kind].add(value.lstrip("*"))


_PARAM_ROW = patterns.compile(r"<tr\b[^>]*>\s*<td\b[^>]*>\s*([a-z_0-9]+)\s*</td>(.*?)</tr>", re.DOTALL | re.IGNORECASE)


def _html_parameters(text: str, out: dict[str, set[str]]) -> None:
    """Identifier parameters' values in any HTML table whose rows start with a parameter name: the parser does
    not read every generation's init.ora table."""
    if "<td" not in text and "<TD" not in text:
        return
    for m in _PARAM_ROW.finditer(text):
        if _PARAM_IDS.match(m.group(1)):
            for cell in re.findall(r"<td\b[^>]*>(.*?)</td>", m.group(2), re.DOTALL | re.IGNORECASE):
                v = _cell_text(cell)
                if v and v not in ("*", "TRUE", "FALSE") and not re.fullmatch(r"[\d.,]+", v):
                    out["parameter"].add(v)


_TEXT_SERVICE_TITLE = patterns.compile(r"^Service (Statistics|Wait Class Stats)\b")


def _text_services(text: str, out: dict[str, set[str]]) -> None:
    """Service names: the rows of a text report's Service Statistics sections, a name at the margin followed by
    figures on its line or alone above a line of figures (a heading line is neither)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not _TEXT_SERVICE_TITLE.match(line):
            continue
        for j in range(i + 1, min(len(lines), i + 200)):
            cur = lines[j]
            if re.match(r"^\s{4,}-{20,}\s*$", cur) or (j > i + 1 and _TITLE_LINE.match(cur)):
                break
            toks = cur.split()
            if not toks or not cur[:1].strip() or cur.startswith(("-", "->")):
                continue
            rest = toks[1:] if len(toks) > 1 else (lines[j + 1].split() if j + 1 < len(lines) else [])
            if rest and all(_FIGURE_CELL.match(t) for t in rest) and not _FIGURE_CELL.match(toks[0]):
                out["service"].add(toks[0])


_TITLE_LINE = patterns.compile(r"^\S.*\s(DB/Inst:|DB:)\s")


def _looks_like_file(s: str) -> bool:
    return s.rsplit(".", 1)[-1].lower() in {"dbf", "log", "ctl", "arc", "trc", "ora", "sql", "html", "txt", "lst",
                                            "xml", "dat", "rdo", "tmp", "exe", "bak", "aud"}
