"""The redactor: a report in its own format with its identifiers replaced by stable pseudonyms.

The parser names the identifiers (header, section rows), regular expressions add what rows do not carry
(IP addresses, paths, user@host, TNS strings, domain names); :mod:`.apply` replaces them in the raw text
with same-length pseudonyms (:mod:`.pseudonym`), keeping every number and every Oracle name. docs/redact.md.
"""
from __future__ import annotations

import re

from msgspec import Struct, field

from ..errors import AwrscopeError
from .collect import IPV4, KINDS, PRIMARY, WORD, identifiers, vocabulary
from .match import SUBSTRING_MIN
from .pseudonym import Pseudonyms, load_key
from .vocab import known, oracle_name

#: what --keep may name: the identifier kinds, and SQL text
KEEP_CHOICES = ("hosts", "databases", "dbid", "services", "modules", "users", "segment-names", "tablespaces",
                "files", "ips", "sql-ids", "parameters", "sql-text")
_KEEP_KIND = {"hosts": "host", "databases": "database", "dbid": "dbid", "services": "service", "modules": "module",
              "users": "user", "segment-names": "segment", "tablespaces": "tablespace", "files": "file", "ips": "ip",
              "sql-ids": "sql_id", "parameters": "parameter"}


class RedactionLeak(AwrscopeError):
    """The redacted text still holds an identifier found in the report: it is not written."""

    def __init__(self, message: str, words: list[str] | None = None):
        super().__init__(message)
        self.words = words or []


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


def keep_word(word: str, labels: set[str] | frozenset[str] = frozenset()) -> bool:
    """A word that stays in an identifier position or SQL text: shorter than 3 characters, no letter, in the
    vocabulary (vocab.known: keywords, hints, Oracle names by exact name, Oracle's catalogue), or one of the
    report's own Oracle labels (``labels``, upper-cased: collect.vocabulary)."""
    return known(word, labels)


_CUT_ID = re.compile(r"(?<![\w$#])[0-9a-z]{8,12}(?![\w$#])")


def _cut_sql_ids(text: str, sql_ids: set[str], pseudo) -> dict[str, str]:
    """SQL ids printed cut to their column (11 of 13 characters in 11.2.0.1's text 'SQL ordered by Gets'): the
    same cut of the full id's pseudonym, so that the parser still completes them from the other lists."""
    full = sorted(i for i in sql_ids if len(i) == 13)
    out: dict[str, str] = {}
    if not full:
        return out
    for tok in set(_CUT_ID.findall(text)):
        if not any(c.isdigit() for c in tok) or not any(c.isalpha() for c in tok):
            continue
        owners = [f for f in full if f.startswith(tok)]
        if len(owners) == 1:
            out[tok] = pseudo(owners[0])[:len(tok)]
    return out


class Redactor:
    """One run: one key, one set of pseudonyms shared by every report it redacts."""

    def __init__(self, key: bytes, keep: tuple[str, ...] | list[str] = (), check: bool = True,
                 allow: tuple[str, ...] | list[str] = ()):
        self.pseudonyms = Pseudonyms(key)
        self.check = check  # re-read the output for every identifier found; refuse it when one is left
        self.allow = {w.upper() for w in allow}  # words the independent check lets through on purpose (--allow)
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
                    # a DBID's pseudonym is one a database could have: below 2^32
                    phrases[ident] = self.pseudonyms.get(ident, forbidden, hexdigits=":" in ident,
                                                         below=2 ** 32 if kind == "dbid" else None)
                    continue
                whole = kind in PRIMARY and WORD.fullmatch(ident) is not None
                for w in WORD.findall(ident):
                    if w in kept_words or w.isdigit():
                        continue
                    if kind in PRIMARY:
                        # a name the report introduced wins over words the report prints elsewhere (a service
                        # row, a heading line), not over Oracle's own words and names
                        if oracle_name(w):
                            continue  # (an SQL word is not: a database EXP is a name, EXP() a function)
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
            lambda w: w if w in kept_words or known(w, vocab) else self.pseudonyms.get(w, forbidden))
        words: dict[str, str] = {}
        if "sql_id" not in self.keep_kinds:
            words.update(_cut_sql_ids(text, ids["sql_id"], pseudo))
        eng = Engine(words, phrases, sql_word, lambda s: self.pseudonyms.get(s, forbidden), matcher, pseudo)
        out = eng.html(text) if report.format == "html" else eng.text(text)
        extra = {w: p for w, p in eng.sql_words.items() if not known(w, vocab)}
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
            from .check import unknown_tokens

            # the independent pass: every word of an identifier position or SQL text of the output that is
            # neither in the vocabulary nor a pseudonym, found by its own reading of the output
            # (what --keep shares is let through: the words of the kinds kept, SQL text when it is kept)
            pseudo_words = {w.upper() for p in self.pseudonyms.of.values() for w in WORD.findall(p)}
            allowed = vocab | pseudo_words | {w.upper() for w in kept_words}
            unknown = [(pos, w) for pos, w in unknown_tokens(out, report.format, allowed, sql="sql-text" not in self.keep)
                       if w.upper() not in self.allow]
            if unknown:
                listed = sorted({w for _, w in unknown})
                raise RedactionLeak(f"{name}: {len(listed)} word(s) in identifier positions or SQL text are neither "
                                    f"in the vocabulary nor pseudonyms; nothing written (--allow WORD keeps one): "
                                    + ", ".join(f"{w} ({next(p for p, x in unknown if x == w)})"
                                                for w in listed[:50]) + (" ..." if len(listed) > 50 else ""),
                                    words=listed)
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
        """HTML tag and attribute names and the values of attributes never replaced (class="awrc"), read inside
        tags only: a word followed by '=' in text is SQL (``COL = :b1``) or prose, never markup."""
        import re

        words: set[str] = set()
        for tag in re.finditer(r"<(/?[A-Za-z][A-Za-z0-9]*)([^<>]*)>", text):
            words.add(tag.group(1).lstrip("/"))
            for m in re.finditer(r"\s([A-Za-z-]+)\s*=\s*(?:\"([^\"<>]*)\"|'([^'<>]*)'|([^\s>]*))", tag.group(2)):
                words.add(m.group(1))
                if m.group(1).lower() not in ("href", "name", "id", "title", "alt"):
                    words.update(WORD.findall(m.group(2) or m.group(3) or m.group(4) or ""))
        return words

    def redact_source(self, src) -> Redacted:
        from ..parsers import parse_source
        from ..parsers.source import decode

        report = parse_source(src)
        text, encoding = decode(src.data)
        return self.redact_text(text, report, src.name, encoding)


__all__ = ["KEEP_CHOICES", "Redacted", "RedactionLeak", "Redactor", "keep_word", "load_key"]
