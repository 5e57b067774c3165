"""Where an identifier word is found, and so where it is replaced and where the self-check looks for it.

A name of 4 characters or more is found case-insensitively anywhere inside a word of the report
(``LISTENER_BPSC``, ``bpscXDB``, ``Bpsc.Identity.Api``), except inside a word of Oracle's own vocabulary that
is not the name itself (a database MONIT is not found in MONITOR). A shorter name (a database DVK, NB, an
instance exp) is found only as a whole word, spelled as the report spells it: as a fragment it would be found
in too many of Oracle's words ('db' in 'db file sequential read'). So is a name that is itself a word of
Oracle's vocabulary (a database named ORACLE): found as the whole word 'ORACLE', not in 'Oracle Enterprise
Manager'. All-digit words are figures and never names (the DBID and IP addresses are matched as phrases).
"""
from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from .vocab import COMMON_WORDS, ORACLE_MODULES, ORACLE_NAMES, ORACLE_SCHEMAS, ORACLE_TABLESPACES, SQL_KEYWORDS, WORD
from .. import patterns

#: the shortest name found inside longer words
SUBSTRING_MIN = 4


@lru_cache(maxsize=1)
def oracle_words() -> frozenset[str]:
    """Upper-cased words of Oracle's own text, as awrscope knows it: events, wait classes, statistics, section
    titles, SQL keywords, Oracle-supplied schemas and modules, common path and domain words."""
    from ..oracle.events import EVENT_CLASS, EVENTS
    from ..oracle.sections import SECTION_TITLES
    from ..oracle.statistics import STATISTICS

    words: set[str] = set()
    for s in (list(EVENTS) + list(EVENT_CLASS) + list(EVENT_CLASS.values()) + list(STATISTICS)
              + [d for _, _, d in SECTION_TITLES] + list(SQL_KEYWORDS) + list(COMMON_WORDS)
              + list(ORACLE_SCHEMAS) + list(ORACLE_MODULES)):
        words.update(w.upper() for w in WORD.findall(s))
    return frozenset(words | ORACLE_NAMES)  # Oracle's names by exact name: WRM$_BASELINE holds no database BASE


def case_like(pseudo: str, occurrence: str) -> str:
    """``pseudo`` (upper case) in the letter case of ``occurrence``, character by character."""
    return "".join(p.lower() if o.islower() else p for p, o in zip(pseudo, occurrence))


class Matcher:
    """The identifier words of one report and how each is found (module docstring)."""

    def __init__(self, long: Iterable[str], exact: Iterable[str], protected: Iterable[str] = ()):
        self.long = {w.upper() for w in long if len(w) >= SUBSTRING_MIN and not w.isdigit()}
        self.exact = {w for w in exact if not w.isdigit() and w.upper() not in self.long}
        self.protected = (oracle_words() | {w.upper() for w in protected}) - self.long
        alts = sorted(self.long, key=len, reverse=True)  # the report's names: re.compile, not awrscope.patterns
        self._rx = re.compile("|".join(re.escape(a) for a in alts), re.IGNORECASE) if alts else None

    def __bool__(self) -> bool:
        return bool(self.long or self.exact)

    def _shielded(self, tok: str) -> bool:
        # Oracle's words, not every word with an Oracle prefix: SYS_C0012, WRH$_..._<dbid> are made per site
        up = tok.upper()
        return up in self.protected or bool(ORACLE_TABLESPACES.match(up))

    def found(self, tok: str) -> list[str]:
        """The identifier words found in the word ``tok`` of a report."""
        if tok in self.exact:
            return [tok]
        if self._rx is None or self._shielded(tok):
            return []
        return [m.group(0) for m in self._rx.finditer(tok)]

    def replace(self, tok: str, pseudo: Callable[[str], str]) -> str:
        """``tok`` with each identifier word in it replaced; ``pseudo`` maps an upper-cased long word, or an
        exact word as spelled, to its pseudonym."""
        if tok in self.exact:
            return pseudo(tok)
        if self._rx is None or self._shielded(tok):
            return tok
        return self._rx.sub(lambda m: case_like(pseudo(m.group(0).upper()), m.group(0)), tok)

    def leaks(self, text: str, phrases: Iterable[str] = (), is_html: bool = False) -> list[str]:
        """The identifier words and phrases still in ``text`` (raw, and unescaped when HTML)."""
        texts = [text, html.unescape(text)] if is_html else [text]
        found: set[str] = set()
        for t in texts:
            for tok in set(WORD.findall(t)):
                found.update(x.upper() if x.upper() in self.long else x for x in self.found(tok))
            for p in phrases:
                rx = (rf"(?<!\d){re.escape(p)}(?!\d)" if p.isdigit()
                      else rf"(?<![\w.]){re.escape(p)}(?![\w]|\.\d)" if "." in p
                      else rf"(?<![\w:]){re.escape(p)}(?![\w:])")
                if re.search(rx, t):
                    found.add(p)
        return sorted(found)
