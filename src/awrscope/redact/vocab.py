"""The redaction vocabulary: the words that identify no one (SQL and PL/SQL keywords, hint names,
Oracle-supplied schemas, objects and packages by exact name, names Oracle generates from digits, common path
and connect-string words, units). Data with its sources in ``vocabulary/`` (README.md there); this module only
loads it. Anything not in it is replaced in identifier positions and SQL text (docs/redact.md)."""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from .. import patterns

#: A word of a report or of SQL text (an Oracle name never starts with $ or #)
WORD = patterns.compile(r"[A-Za-z0-9_][A-Za-z0-9_$#]*")

VOCABULARY_DIR = Path(__file__).with_name("vocabulary")


def _words(name: str) -> frozenset[str]:
    """The upper-cased words of one vocabulary file (``#`` starts a comment line)."""
    out: set[str] = set()
    for line in (VOCABULARY_DIR / name).read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            out.update(w.upper() for w in WORD.findall(line))
    return frozenset(out)


SQL_KEYWORDS = _words("sql_keywords.txt")
HINTS = _words("hints.txt")
ORACLE_NAMES = _words("oracle_names.txt")
COMMON_WORDS = _words("common_words.txt")
REPORT_WORDS = _words("report_words.txt")
_GENERATED = re.compile("(?:" + "|".join(
    line.strip() for line in (VOCABULARY_DIR / "generated.txt").read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")) + r")\Z")

# Oracle-supplied schemas (their segment and object names are Oracle's too, and are kept)
ORACLE_SCHEMAS = frozenset("""
SYS SYSTEM SYSMAN DBSNMP OUTLN XDB MDSYS CTXSYS ORDSYS ORDPLUGINS ORDDATA WMSYS EXFSYS OLAPSYS AUDSYS LBACSYS DVSYS
DVF OJVMSYS GSMADMIN_INTERNAL GSMCATUSER GSMUSER GGSYS SI_INFORMTN_SCHEMA PUBLIC APPQOSSYS DBSFWUSER ORACLE_OCM
XS$NULL ANONYMOUS MGMT_VIEW TSMSYS SYSBACKUP SYSDG SYSKM SYSRAC REMOTE_SCHEDULER_AGENT DIP MDDATA SPATIAL_CSW_ADMIN_USR
SPATIAL_WFS_ADMIN_USR FLOWS_FILES APEX_PUBLIC_USER PERFSTAT SYS$UMF OWBSYS OWBSYS_AUDIT
""".split())

ORACLE_TABLESPACES = patterns.compile(r"^(SYSTEM|SYSAUX|USERS|EXAMPLE|TOOLS|TEMP\d*|UNDOTBS\d*|UNDO|RBS\d*|ROLLBACK\d*)$")
ORACLE_SERVICES = frozenset({"SYS$BACKGROUND", "SYS$USERS"})

ORACLE_MODULES = frozenset({"SQL*Plus", "JDBC Thin Client", "DBMS_SCHEDULER", "MMON_SLAVE", "UNNAMED", "EM_PING",
                            "Oracle Enterprise Manager.Metric Engine", "sqlplus", "rman", "emagent", "OEM",
                            "Automatic Report Flush", "Data Pump Worker", "Data Pump Master"})

SQL_STARTS = patterns.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|MERGE|BEGIN|DECLARE|WITH|CALL|CREATE|ALTER|DROP|TRUNCATE|"
                              r"LOCK|COMMIT|ROLLBACK|SAVEPOINT|SET|ANALYZE|EXPLAIN|GRANT|REVOKE|/\*)\b", re.I)


#: a figure with its unit or exponent, as reports print them ('260.52ms' is read as 260 and 52ms; 240M, 1E6)
_FIGURE_WITH_UNIT = re.compile(r"\d+(?:[KMGTP]B?|[mun]s|s|E[+-]?\d*|[KMGT])", re.IGNORECASE)


def oracle_name(word: str) -> bool:
    """An Oracle-supplied name by exact name (SYS, WRH$_SQLSTAT, DBMS_STATS, V$SESSION), or one Oracle generates
    from a fixed prefix and digits (SYS_C0012345). Never by prefix: USER_BANK_ADDRESS is a site's name."""
    u = word.upper()
    return (u in ORACLE_NAMES or u in ORACLE_SCHEMAS or u in ORACLE_SERVICES or bool(ORACLE_TABLESPACES.match(u))
            or _GENERATED.match(u) is not None)


@lru_cache(maxsize=1)
def static_vocabulary() -> frozenset[str]:
    """Upper-cased words that identify no one, whatever position they stand in: the vocabulary files, and the
    words of awrscope's Oracle catalogue (events, wait classes, statistics, section titles)."""
    from ..oracle.events import EVENT_CLASS, EVENTS
    from ..oracle.sections import SECTION_TITLES
    from ..oracle.statistics import STATISTICS

    words: set[str] = set(SQL_KEYWORDS | HINTS | ORACLE_NAMES | COMMON_WORDS | REPORT_WORDS | ORACLE_SCHEMAS)
    for s in (list(EVENTS) + list(EVENT_CLASS) + list(EVENT_CLASS.values()) + list(STATISTICS)
              + [d for _, _, d in SECTION_TITLES] + list(ORACLE_MODULES)):
        words.update(w.upper() for w in WORD.findall(s))
    return frozenset(words)


def known(word: str, extra: frozenset[str] | set[str] = frozenset()) -> bool:
    """A word that stays in an identifier position or SQL text: shorter than 3 characters, no letter (a
    figure), in the vocabulary, an Oracle name, or in ``extra`` (upper-cased: a report's own Oracle labels)."""
    if len(word) < 3 or not any(c.isalpha() for c in word) or _FIGURE_WITH_UNIT.fullmatch(word):
        return True
    u = word.upper()
    return u in static_vocabulary() or u in extra or oracle_name(u)
