"""The names a report introduces, found without the redactor (tests/test_redact.py checks that none survives
redaction). Written apart from awrscope.redact.collect on purpose: a name both miss is not caught, but a
name the redactor's collector forgets is. Only the parser's header and section rows are shared with it."""
from __future__ import annotations

import html
import re
from pathlib import Path

# printed by Oracle, not chosen by a site: found in every report whatever the database is called
GENERIC = {
    "oracle", "orcl", "localhost", "localdomain", "local", "com", "net", "org", "asm", "sys", "system",
    "sysaux", "users", "undotbs1", "undotbs2", "temp", "sys$users", "sys$background", "dbsnmp", "sysman", "xdb",
    "outln", "perfstat", "public", "cdb$root", "pdb$seed", "unnamed", "sqlplus", "others", "mdsys",
    "home", "app", "product", "admin", "oradata", "diag", "rdbms", "trace", "dbs", "arch", "archive", "data",
    "redo", "log", "logs", "fra", "u01", "u02", "db_1", "dbhome_1", "grid", "audit", "adump", "bdump", "cdump",
    "udump", "datafile", "onlinelog", "controlfile", "tempfile", "archivelog", "flashback", "backup",
    "other", "others", "total", "instance", "unavailable", "missing", "not found", "tmp", "ora", "report",
}
# Oracle-supplied schemas and modules, and names Oracle makes (SYS_LOB..., WRH$_...)
ORACLE_OWN = re.compile(r"^(SYS|SYSTEM|SYSMAN|DBSNMP|XDB|MDSYS|CTXSYS|ORDSYS|ORDDATA|WMSYS|EXFSYS|OLAPSYS|AUDSYS|"
                        r"LBACSYS|DVSYS|OJVMSYS|GSMADMIN_INTERNAL|APPQOSSYS|OUTLN|PERFSTAT|PUBLIC|APEX_\w+|"
                        r"SYS_\w+|SYS\$\w+|KUPC\$\w*|\w+\$\d*|WR[HIM]\$\w*|"
                        r"JDBC Thin Client|SQL\*Plus|DBMS_SCHEDULER|MMON_SLAVE|EM_PING|"
                        r"Oracle Enterprise Manager.*|GoldenGate|GGSYS|Data Pump \w+|Automatic Report Flush)$")
# words of Oracle's that hold a site's name as letters by chance, e.g. a database MONIT in MONITOR
ORACLE_HOSTS_OF = {"MONITOR", "MONITORING", "NOMONITORING", "MONITORED", "RESOURCE", "TESTING",
                   "TEST"}  # insaas3's schema TEST, and its latch 'test excl. parent l0'; TEST is checked whole below

_DB_INST = re.compile(r"DB/Inst:\s*([\w$#.-]+)/([\w$#.-]+)|\bDB:\s+([\w$#.-]+),?\s+Inst(?:ance)?:\s+([\w$#.-]+)")
_IP = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d]|\.\d)")
_PATH = re.compile(r"(?:^|[\s(='\">])((?:/[\w.$#-]+){2,}/?)")
_QUOTED_SCHEMA = re.compile(r"\"([A-Z][A-Z0-9_$#]{2,})\"\.\"")
_NAME_COLUMNS = {"service name", "owner", "user", "user name", "username", "replicat name", "apply name",
                 "capture name", "host", "host name", "instance", "db name", "pdb name", "container name"}


def _cells(text: str):
    """(heading, cell text) of the HTML tables whose heading row has no merged cells."""
    for table in re.findall(r"<table.*?</table>", text, re.S | re.I):
        heads = None
        for row in re.split(r"<tr\b", table, flags=re.I)[1:]:
            ths = re.findall(r"<th\b([^>]*)>(.*?)</th>", row, re.S | re.I)
            tds = re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S | re.I)
            if ths and not tds:
                heads = None if any("colspan" in a for a, _ in ths) else [_plain(h).lower() for _, h in ths]
            elif heads and len(tds) == len(heads):
                yield from zip(heads, (_plain(c) for c in tds))


def _plain(s: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", s)).split())


def site_names(report, text: str) -> dict[str, set[str]]:
    """kind -> names: what a DBA would not send a vendor."""
    out: dict[str, set[str]] = {k: set() for k in ("database", "host", "service", "user", "ip", "path", "module")}

    def reports(r):
        yield r
        for p in getattr(r, "periods", ()) or ():
            yield from reports(p)

    for r in reports(report):
        h = r.header
        out["database"].update(x for x in (h.db_name, h.unique_name) if x)
        out["host"].update(x for x in [h.host] + [i.host for i in h.instances] if x)
        out["database"].update(i.name for i in h.instances if i.name)
        for key, sec in r.sections.items():
            for row in sec.rows:
                if key.startswith("segments_by_") and row.name:
                    out["user"].add(row.name)  # the segment's owner
                if key.startswith("sql_") and row.text.get("module"):
                    out["module"].add(row.text["module"])
    for m in _DB_INST.finditer(text):
        out["database"].update(x for x in m.groups() if x)
    for m in _QUOTED_SCHEMA.finditer(text):
        out["user"].add(m.group(1))
    for head, cell in _cells(text):
        if (head in _NAME_COLUMNS and cell and not re.fullmatch(r"[\d.,:%*# -]*", cell)
                and not cell.startswith("**") and cell.lower() not in GENERIC):
            out["service" if "service" in head else "user" if head in ("owner", "user", "user name", "username")
                else "host" if "host" in head else "database" if head != "replicat name" and "name" in head
                or head == "instance" else "user"].add(cell.lstrip("*"))
    version = getattr(report, "version", None) or ""
    for line in text.splitlines():
        if re.search(r"release|version|\brel\b", line, re.I):
            continue
        for m in _IP.finditer(line):
            ip = m.group(1)
            if all(int(o) < 256 for o in ip.split(".")) and not (version and version.startswith(ip[:4])):
                out["ip"].add(ip)
        if re.fullmatch(r"[A-Za-z0-9+/=]{40,}", line.strip()):
            continue  # base64 (an embedded image), not paths
        for m in _PATH.finditer(line):
            out["path"].add(m.group(1))
    return out


def names_to_look_for(found: dict[str, set[str]]) -> tuple[set[str], set[str]]:
    """The words to look for in a redacted report: (names looked for inside any word, in any case: a database,
    instance, service, user or host name that is one word; words looked for whole, as spelled: the parts of a
    dotted host, of a path, of a module), each long enough to say something and not Oracle's."""
    words: set[str] = set()
    inside: set[str] = set()
    for kind, names in found.items():
        for name in names:
            if ORACLE_OWN.match(name) or _allowed(name, set()):
                continue  # Oracle's, or a word of the vocabulary (SCHEDULER$_EVENT_LOG quoted in SQL)
            if kind in ("ip", "module"):
                # a module as printed: its words are often plain words (Identity, Api); one made only of words
                # that identify no one (Admin Connection) is kept by design (deny by default, issue 40)
                if kind == "ip" or not all(_allowed(w, set()) for w in _WORD.findall(name)):
                    words.add(name)
                continue
            parts = [p for p in re.findall(r"[A-Za-z0-9_$#]+", name) if not ORACLE_OWN.match(p)]
            whole = len(parts) == 1
            for p in parts:
                if p.lower() in GENERIC or p.isdigit() or (not whole and _allowed(p, set())):
                    continue  # a vocabulary word inside a compound name (<i>host</i>) identifies no one
                if kind in ("path", "module") and (len(p) < 4 or p.lower() == p and not whole):
                    continue  # a path's or a module's plain lower-case words: 'datafile', 'api', 'prod'
                if whole and kind not in ("path", "module") and len(p) >= 4:
                    inside.add(p)
                    words.add(p)
                elif len(p) >= 3 or whole:
                    words.add(p)
    return inside, words


def left_in(redacted: str, names: tuple[set[str], set[str]], is_html: bool) -> list[str]:
    """The names still in ``redacted``: those looked for inside words anywhere inside another, in any case
    (LISTENER_BPSC, bpscXDB) unless that other is one of Oracle's words above; the others as whole words."""
    inside, whole = names
    if is_html:  # text and the attributes that carry names, not markup: <TD WIDTH=...> is no SQL column WIDTH
        redacted = re.sub(r"<[^<>]*>", lambda m: " " + " ".join(re.findall(
            r"""\b(?:href|name|id|title|alt)\s*=\s*["']?([^"'\s>]*)""", m.group(0), re.I)) + " ", redacted)
    texts = [redacted, html.unescape(redacted)] if is_html else [redacted]
    left = set()
    for t in texts:
        tokens = set(re.findall(r"[A-Za-z0-9_$#]+", t))
        blob = "\n".join({tok.upper() for tok in tokens} - ORACLE_HOSTS_OF)  # '\n' is in no name: one search
        for w in whole:
            if re.fullmatch(r"[\d.]+", w):
                if re.search(rf"(?<![\d.]){re.escape(w)}(?![\d]|\.\d)", t):
                    left.add(w)
            elif w in tokens or (" " in w or "." in w) and w in t:
                left.add(w)
        left.update(w for w in inside if w.upper() in blob)
    return sorted(left)


# ---- issue 40: deny by default, checked word by word -----------------------------------------------------------
# The words of a report's identifier positions and SQL text that no vocabulary vouches for, found by this helper's
# own reading of the original (never awrscope.redact): none may be left in the redacted copy. The vocabulary is
# read from its data files (src/awrscope/redact/vocabulary/), the Oracle catalogue from awrscope.oracle.

_VOCAB_DIR = Path(__file__).resolve().parents[1] / "src" / "awrscope" / "redact" / "vocabulary"
_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_$#]*")
_ID_COLUMNS = {"owner", "object name", "subobject name", "tablespace", "tablespace name", "sql module", "module",
               "action", "program", "service", "service name", "user", "user name", "username", "cell name",
               "disk name", "file name", "filename", "plsql entry subprogram", "plsql current subprogram",
               "object name (type)", "sql text", "client id", "pdb name", "container name", "db name", "host",
               "host name", "instance", "replicat name", "apply name", "capture name", "queue name"}
_ID_PARAMS = re.compile(r"^(db_name|db_unique_name|instance_name|service_names|db_domain|\w*_dest(_\d+)?|control_files|"
                        r"spfile|local_listener|remote_listener|dispatchers|log_archive_format|log_archive_config|"
                        r"fal_server|fal_client|\w*file_name_convert)$")
# a statement's first line, in upper or lower case as SQL is written (not 'With respect to' of a note)
_SQL_LINE = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|MERGE|BEGIN|DECLARE|WITH|CALL|select|insert|update|delete|"
                       r"merge|begin|declare|with|call)\s")
_LABEL_KEYS = re.compile(r"^(top_events|wait_|time_model|instance_activity|load_profile|latch_|enqueue_|os_stats|"
                         r"init_parameters|iostat_|buffer_|pga_|sga_|memory_|cache_sizes|host_cpu|instance_cpu)")
_FIGURE_WORD = re.compile(r"\d[\d.]*(?:E[+-]?\d*|[KMGTP]|us|ms|s)?")


def _vocabulary() -> set[str]:
    words: set[str] = set()
    generated = []
    for f in sorted(_VOCAB_DIR.glob("*.txt")):
        for line in f.read_text().splitlines():
            if line.startswith("#") or not line.strip():
                continue
            if f.name == "generated.txt":
                generated.append(line.strip())
            else:
                words.update(w.upper() for w in _WORD.findall(line))
    from awrscope.oracle.events import EVENT_CLASS, EVENTS
    from awrscope.oracle.sections import SECTION_TITLES
    from awrscope.oracle.statistics import STATISTICS
    for s in list(EVENTS) + list(EVENT_CLASS) + list(EVENT_CLASS.values()) + list(STATISTICS) + [
            d for _, _, d in SECTION_TITLES]:
        words.update(w.upper() for w in _WORD.findall(s))
    words.add("__GENERATED__:" + "|".join(generated))
    return words


_VOCAB: set[str] | None = None


def _allowed(word: str, labels: set[str]) -> bool:
    global _VOCAB
    if _VOCAB is None:
        _VOCAB = _vocabulary()
    if len(word) < 3 or not any(c.isalpha() for c in word) or _FIGURE_WORD.fullmatch(word):
        return True
    u = word.upper()
    if u in _VOCAB or u in labels:
        return True
    gen = next(w for w in _VOCAB if w.startswith("__GENERATED__:")).split(":", 1)[1]
    return re.fullmatch(f"(?:{gen})", u) is not None


def _labels(report, text: str = "") -> set[str]:
    """The report's own Oracle labels: section titles, its label sections' row names, its column headings
    (HTML <th> cells and table summaries, the text lines right above a dashed rule)."""
    out: set[str] = set()
    for m in re.finditer(r"<th\b[^>]*>(.*?)</th\s*>|\ssummary=\"([^\"]*)\"", text, re.S | re.I):
        cell = m.group(1) if m.group(1) is not None else m.group(2)
        if not re.search(r"<t[dr]\b", cell, re.I):
            out.update(w.upper() for w in _WORD.findall(_plain(cell)))
    lines = text.replace("\f", "").splitlines()  # as the parser numbers them (row.line); '\f' splits a line
    for i, line in enumerate(lines[1:], 1):
        if re.match(r"^\s*---[ -]*$", line) and not re.match(r"^\s{4,}-{30,}\s*$", line):
            for prev in lines[max(0, i - 2):i]:
                if not re.search(r"\d[.,]\d", prev):
                    out.update(w.upper() for w in _WORD.findall(prev.split("DB/Inst")[0]))
    stack = [report]
    while stack:
        r = stack.pop()
        stack.extend(getattr(r, "periods", ()) or ())
        for key, sec in list(r.sections.items()) + list(r.diff.items()):
            out.update(w.upper() for w in _WORD.findall((sec.title or "").split("DB/Inst")[0]))
            if _LABEL_KEYS.match(key):
                for row in sec.rows:
                    out.update(w.upper() for w in _WORD.findall(row.name or ""))
                    if row.line and row.line <= len(lines):  # the label as its line prints it (cut: 'enter serv')
                        out.update(w.upper() for w in _WORD.findall(re.split(r"\s\d", lines[row.line - 1])[0]))
    return out


def unvouched_words(report, text: str, is_html: bool) -> dict[str, str]:
    """word -> where it stands, for the words of the original's identifier positions and SQL text that no
    vocabulary vouches for."""
    labels = _labels(report, text)
    out: dict[str, str] = {}

    def add(where: str, s: str, sql: bool = False) -> None:
        if sql:
            s = re.sub(r":(?:\d+|B\d+|SYS_B_\d+)\b|'[^']*'", " ", s)  # system binds; literals are checked whole
        for w in _WORD.findall(s):
            if not _allowed(w, labels):
                out.setdefault(w, where)

    if is_html:
        for head, cell in _cells(text):
            if head in _ID_COLUMNS:
                add(head, cell, head == "sql text")
        for m in re.finditer(r"<td\b[^>]*>\s*([a-z_0-9]+)\s*</td>\s*<td\b[^>]*>(.*?)</td>", text, re.S | re.I):
            if _ID_PARAMS.match(m.group(1)):
                add(m.group(1), _plain(m.group(2)))
    else:
        in_sql = False  # inside a section of SQL statements (a note's 'with the given ...' is no statement)
        for line in text.splitlines():
            if re.match(r"^(SQL ordered by|Complete List of SQL Text|Top SQL with Top|Top SQL using literals|"
                        r"Top SQL Statements|SQL Statistics|Top (?:\d+ )?SQL Comparison by)", line):
                in_sql = True
            elif re.match(r"^[A-Z][^\n]*\s(DB/Inst:|DB:)\s", line) or re.match(r"^[A-Z][a-z]+( [A-Za-z/]+)+\s*$", line):
                in_sql = False
            if in_sql and _SQL_LINE.match(line):
                add("sql line", line, True)
            m = re.match(r"^([a-z_0-9]+)\s+(\S.*)$", line)
            if m and _ID_PARAMS.match(m.group(1)):
                add(m.group(1), m.group(2).split("  ")[0])
    for m in re.finditer(r"SQL_ID\s+\"?([0-9a-z]{13})\b", text):
        out.setdefault(m.group(1), "sql id in text")
    for m in re.finditer(r"\bWR[HMI]\$_\w+?_(\d{6,10})_\d+\b", text):
        out.setdefault(m.group(1), "dbid in a repository name")
    return out


def words_left(words: dict[str, str], redacted: str, is_html: bool) -> list[str]:
    """The words still in the redacted copy, whole (digits: as a whole number)."""
    if is_html:  # text and the attributes that carry names, not markup: <TD WIDTH=...> is no SQL column WIDTH
        redacted = re.sub(r"<[^<>]*>", lambda m: " " + " ".join(re.findall(
            r"""\b(?:href|name|id|title|alt)\s*=\s*["']?([^"'\s>]*)""", m.group(0), re.I)) + " ", redacted)
    texts = [redacted, html.unescape(redacted)] if is_html else [redacted]
    tokens: set[str] = set()
    for t in texts:
        tokens.update(_WORD.findall(t))
        tokens.update(re.findall(r"\d+", t))
    return sorted(f"{w} ({where})" for w, where in words.items() if w in tokens)
