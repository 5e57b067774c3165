"""The redactor: a report in its own format with its identifiers replaced by stable pseudonyms.

The parser names the identifiers (header, section rows), regular expressions add what rows do not carry
(IP addresses, paths, user@host, TNS strings, domain names); :mod:`.apply` replaces them in the raw text
with same-length pseudonyms (:mod:`.pseudonym`), keeping every number and every Oracle name. docs/redact.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .collect import IPV4, KINDS, WORD, identifiers, vocabulary
from .pseudonym import Pseudonyms, load_key
from .vocab import SQL_KEYWORDS, oracle_name

#: what --keep may name: the identifier kinds, and SQL text
KEEP_CHOICES = ("hosts", "databases", "dbid", "services", "modules", "users", "segment-names", "tablespaces",
                "files", "ips", "sql-ids", "parameters", "sql-text")
_KEEP_KIND = {"hosts": "host", "databases": "database", "dbid": "dbid", "services": "service", "modules": "module",
              "users": "user", "segment-names": "segment", "tablespaces": "tablespace", "files": "file", "ips": "ip",
              "sql-ids": "sql_id", "parameters": "parameter"}


@dataclass
class Redacted:
    name: str
    text: str  # the redacted report
    encoding: str
    format: str  # text | html
    replaced: dict[str, dict[str, str]] = field(default_factory=dict)  # kind -> original -> pseudonym

    def summary(self) -> str:
        parts = [f"{len(v)} {k}" for k, v in self.replaced.items() if v]
        return f"{self.name}: " + (", ".join(parts) if parts else "nothing replaced")


def keep_word(word: str, vocab: set[str] = frozenset()) -> bool:
    """A word that stays: shorter than 3 characters, all digits, an SQL keyword, an Oracle-supplied or
    dictionary name, or a word of Oracle's vocabulary (``vocab``: events, statistics, titles, headings)."""
    return (len(word) < 3 or not any(c.isalpha() for c in word) or word.upper() in SQL_KEYWORDS
            or oracle_name(word) or word in vocab)


class Redactor:
    """One run: one key, one set of pseudonyms shared by every report it redacts."""

    def __init__(self, key: bytes, keep: tuple[str, ...] | list[str] = ()):
        self.pseudonyms = Pseudonyms(key)
        self.keep = set(keep)
        self.keep_kinds = {_KEEP_KIND[k] for k in self.keep if k in _KEEP_KIND}

    def redact_text(self, text: str, report, name: str = "<text>", encoding: str = "utf-8") -> Redacted:
        from .apply import Engine

        vocab = vocabulary(report, text)
        ids = identifiers(report, text)
        forbidden = set(WORD.findall(text))
        kept_words = {w for k in self.keep_kinds for x in ids[k] for w in WORD.findall(x)}
        words: dict[str, str] = {}
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
                for w in WORD.findall(ident):
                    if w in words or w in kept_words or keep_word(w, vocab):
                        continue
                    words[w] = self.pseudonyms.get(w, forbidden)
        sql_word = None if "sql-text" in self.keep else (
            lambda w: w if w in kept_words or w in vocab and not w.islower() else self.pseudonyms.get(w, forbidden))
        eng = Engine(words, phrases, sql_word, lambda s: self.pseudonyms.get(s, forbidden))
        out = eng.html(text) if report.format == "html" else eng.text(text)
        extra = {w: p for w, p in eng.sql_words.items() if w not in words and not keep_word(w, vocab)}
        if extra:  # a word of SQL text printed elsewhere too (a truncated excerpt, a hint): replaced there as well
            words.update(extra)
            sql_words, literals = eng.sql_words, eng.literals
            eng = Engine(words, phrases, sql_word, lambda s: self.pseudonyms.get(s, forbidden))
            eng.sql_words, eng.literals = sql_words, literals
            out = eng.html(text) if report.format == "html" else eng.text(text)
        replaced: dict[str, dict[str, str]] = {}
        for kind in KINDS:
            if kind in self.keep_kinds:
                continue
            m = {x: eng.plain(x) for x in sorted(ids[kind])}
            replaced[kind] = {k: v for k, v in m.items() if k != v}
        replaced["sql_word"] = dict(sorted(eng.sql_words.items()))
        replaced["sql_literal"] = dict(sorted(eng.literals.items()))
        return Redacted(name, out, encoding, report.format, replaced)

    def redact_source(self, src) -> Redacted:
        from ..parsers import parse_source
        from ..parsers.source import decode

        report = parse_source(src)
        text, encoding = decode(src.data)
        return self.redact_text(text, report, src.name, encoding)


__all__ = ["KEEP_CHOICES", "Redacted", "Redactor", "keep_word", "load_key"]
