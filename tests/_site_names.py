"""The names a report introduces, found without the redactor (tests/test_redact.py checks that none survives
redaction). Written apart from awrscope.redact.collect on purpose: a name both miss is not caught, but a
name the redactor's collector forgets is. Only the parser's header and section rows are shared with it."""
from __future__ import annotations

import html
import re

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
            if ORACLE_OWN.match(name):
                continue
            if kind in ("ip", "module"):
                words.add(name)  # a module as printed: its words are often plain words (Identity, Api)
                continue
            parts = [p for p in re.findall(r"[A-Za-z0-9_$#]+", name) if not ORACLE_OWN.match(p)]
            whole = len(parts) == 1
            for p in parts:
                if p.lower() in GENERIC or p.isdigit():
                    continue
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
