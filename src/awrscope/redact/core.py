"""The redactor: a report in its own format with its identifiers replaced by stable pseudonyms.

The parser names the identifiers (header, section rows), regular expressions add what rows do not carry
(IP addresses, paths, user@host, TNS strings, domain names); :mod:`.apply` replaces them in the raw text
with same-length pseudonyms (:mod:`.pseudonym`), keeping every number and every Oracle name. docs/redact.md.
"""
from __future__ import annotations

from msgspec import Struct, field

from ..errors import AwrscopeError
from .collect import IPV4, KINDS, PRIMARY, WORD, identifiers, vocabulary
from .match import SUBSTRING_MIN
from .pseudonym import Pseudonyms, load_key
from .vocab import COMMON_WORDS, SQL_KEYWORDS, oracle_name

#: what --keep may name: the identifier kinds, and SQL text
KEEP_CHOICES = ("hosts", "databases", "dbid", "services", "modules", "users", "segment-names", "tablespaces",
                "files", "ips", "sql-ids", "parameters", "sql-text")
_KEEP_KIND = {"hosts": "host", "databases": "database", "dbid": "dbid", "services": "service", "modules": "module",
              "users": "user", "segment-names": "segment", "tablespaces": "tablespace", "files": "file", "ips": "ip",
              "sql-ids": "sql_id", "parameters": "parameter"}


_COMMON_UP = frozenset(w.upper() for w in COMMON_WORDS)


class RedactionLeak(AwrscopeError):
    """The redacted text still holds an identifier found in the report: it is not written."""


class Redacted(Struct):
    name: str
    text: str  # the redacted report
    encoding: str
    format: str  # text | html
    replaced: dict[str, dict[str, str]] = field(default_factory=dict)  # kind -> original -> pseudonym
    matcher: object = None  # the identifier words and how they are found (match.Matcher)
    phrases: dict[str, str] = field(default_factory=dict)  # DBIDs and IP addresses -> pseudonym

    def summary(self) -> str:
        parts = [f"{len(v)} {k}" for k, v in self.replaced.items() if v]
        return f"{self.name}: " + (", ".join(parts) if parts else "nothing replaced")


def keep_word(word: str, vocab: set[str] = frozenset()) -> bool:
    """A word that stays: shorter than 3 characters, all digits, an SQL keyword, an Oracle-supplied or
    dictionary name, or a word of Oracle's vocabulary (``vocab``: events, statistics, titles, headings)."""
    return (len(word) < 3 or not any(c.isalpha() for c in word) or word.upper() in SQL_KEYWORDS
            or oracle_name(word) or word in vocab or word.upper() in _COMMON_UP)


class Redactor:
    """One run: one key, one set of pseudonyms shared by every report it redacts."""

    def __init__(self, key: bytes, keep: tuple[str, ...] | list[str] = (), check: bool = True):
        self.pseudonyms = Pseudonyms(key)
        self.check = check  # re-read the output for every identifier found; refuse it when one is left
        self.keep = set(keep)
        self.keep_kinds = {_KEEP_KIND[k] for k in self.keep if k in _KEEP_KIND}
        if "host" in self.keep_kinds:
            self.keep_kinds.add("domain")

    def redact_text(self, text: str, report, name: str = "<text>", encoding: str = "utf-8") -> Redacted:
        from .apply import Engine
        from .match import Matcher, oracle_words

        vocab = vocabulary(report, text)
        ids = identifiers(report, text)
        forbidden = set(WORD.findall(text))
        forbidden_up = {w.upper() for w in forbidden}
        kept_words = {w for k in self.keep_kinds for x in ids[k] for w in WORD.findall(x)}
        ora = oracle_words()
        long: set[str] = set()
        exact: set[str] = set()
        phrases: dict[str, str] = {}
        for kind in KINDS:
            if kind in self.keep_kinds:
                continue
            for ident in ids[kind]:
                if kind == "dbid" or (kind == "ip" and (IPV4.fullmatch(ident) or ":" in ident)):
                    if ident.isdigit() and len(ident) < 3:
                        continue
                    phrases[ident] = self.pseudonyms.get(ident, forbidden, hexdigits=":" in ident)
                    continue
                whole = kind in PRIMARY and WORD.fullmatch(ident) is not None
                for w in WORD.findall(ident):
                    if w in kept_words or w.isdigit():
                        continue
                    if kind in PRIMARY:
                        # a name the report introduced wins over words the report prints elsewhere (a service
                        # row, a heading line), not over Oracle's own words and names
                        if oracle_name(w) or w.upper() in SQL_KEYWORDS:
                            continue
                        if w.upper() in ora or len(w) < SUBSTRING_MIN:
                            if whole or (len(w) >= 3 and w.upper() not in ora):
                                exact.add(w)  # a database ORACLE, DVK, NB: the whole word as spelled
                            continue
                        long.add(w)
                    elif not keep_word(w, vocab):
                        exact.add(w)  # a word of a path, a segment, a module: often a plain word (DATA, HOST)
        matcher = Matcher(long, exact, self._markup(text) if report.format == "html" else ())

        def pseudo(w: str) -> str:
            return self.pseudonyms.get(w, forbidden_up if w.isupper() or not w.isalpha() and w == w.upper()
                                       else forbidden)

        sql_word = None if "sql-text" in self.keep else (
            lambda w: w if w in kept_words or w in vocab and not w.islower() else self.pseudonyms.get(w, forbidden))
        words: dict[str, str] = {}
        eng = Engine(words, phrases, sql_word, lambda s: self.pseudonyms.get(s, forbidden), matcher, pseudo)
        out = eng.html(text) if report.format == "html" else eng.text(text)
        extra = {w: p for w, p in eng.sql_words.items() if not keep_word(w, vocab)}
        if extra:  # a word of SQL text printed elsewhere too (a truncated excerpt, a hint): replaced there as well
            words.update(extra)
            sql_words, literals = eng.sql_words, eng.literals
            eng = Engine(words, phrases, sql_word, lambda s: self.pseudonyms.get(s, forbidden), matcher, pseudo)
            eng.sql_words, eng.literals = sql_words, literals
            out = eng.html(text) if report.format == "html" else eng.text(text)
        if self.check:
            left = matcher.leaks(out, phrases, report.format == "html")
            if left:
                raise RedactionLeak(f"{name}: {len(left)} identifier(s) would remain after redaction "
                                    f"(e.g. {left[0][:2]}{'*' * max(0, len(left[0]) - 2)}); nothing written")
        replaced: dict[str, dict[str, str]] = {}
        for kind in KINDS:
            if kind in self.keep_kinds:
                continue
            m = {x: eng.plain(x) for x in sorted(ids[kind])}
            replaced[kind] = {k: v for k, v in m.items() if k != v}
        replaced["sql_word"] = dict(sorted(eng.sql_words.items()))
        replaced["sql_literal"] = dict(sorted(eng.literals.items()))
        red = Redacted(name, out, encoding, report.format, replaced)
        red.matcher, red.phrases = matcher, phrases
        return red

    @staticmethod
    def _markup(text: str) -> set[str]:
        """HTML tag and attribute names and the values of attributes never replaced (class="awrc")."""
        import re

        words = {m.group(1) or m.group(2) for m in re.finditer(r"</?([A-Za-z][A-Za-z0-9]*)|\s([A-Za-z-]+)\s*=", text)}
        for m in re.finditer(r"\s(?!(?:href|name|id|title|alt)\b)[A-Za-z-]+\s*=\s*[\"']([^\"'<>]*)[\"']", text, re.I):
            words.update(WORD.findall(m.group(1)))
        return words

    def redact_source(self, src) -> Redacted:
        from ..parsers import parse_source
        from ..parsers.source import decode

        report = parse_source(src)
        text, encoding = decode(src.data)
        return self.redact_text(text, report, src.name, encoding)


__all__ = ["KEEP_CHOICES", "Redacted", "RedactionLeak", "Redactor", "keep_word", "load_key"]
