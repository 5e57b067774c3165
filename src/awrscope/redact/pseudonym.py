"""Same-length, class-preserving pseudonyms from an HMAC of the identifier under a secret key.

Upper case stays upper, lower stays lower, digits stay digits (a leading non-zero digit stays non-zero),
every other character ('.', '_', '/', '$', '#', '-', ...) is kept. Letters come from the HMAC of the
upper-cased word, so 'SOE' and 'soe' get the same letters in their own case. A word holding TEMP or UNDO
keeps that part (awrscope classifies tablespaces by it), and a pseudonym never gains it, never is an Oracle
keyword, never is a word the report already holds, and never is another word's pseudonym in the same run.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

from .vocab import SQL_KEYWORDS, WORD
from .. import patterns

_MARKERS = patterns.compile(r"TEMP|UNDO", re.IGNORECASE)
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LOWER = _UPPER.lower()
_DIGITS = "0123456789"


#: A key file holds 64 hex digits and a newline; anything much larger is not one.
MAX_KEY_BYTES = 4096


def load_key(path: str | os.PathLike) -> bytes:
    """The secret key in ``path`` (hex); a new random key is written there (mode 0600) when it is missing."""
    import stat

    p = Path(path)
    if p.exists():
        st = os.stat(p)
        # a device (/dev/zero, /dev/full) or a FIFO would be read without end: a key is a small regular file
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{p}: not a regular file")
        if st.st_size > MAX_KEY_BYTES:
            raise ValueError(f"{p}: {st.st_size:,} bytes, more than a key file holds ({MAX_KEY_BYTES:,} at most)")
        with open(p, "rb") as fh:
            text = fh.read(MAX_KEY_BYTES + 1).decode("ascii")
        key = bytes.fromhex(text.strip())
        if len(key) < 16:
            raise ValueError(f"{p}: the key is shorter than 16 bytes")
        return key
    key = secrets.token_bytes(32)
    fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as fh:
        fh.write(key.hex() + "\n")
    return key


def _stream(key: bytes, word: str, attempt: int) -> bytes:
    out = b""
    block = 0
    while len(out) < 2 * len(word) + 8:
        out += hmac.new(key, f"{attempt}:{block}:{word.upper()}".encode(), hashlib.sha256).digest()
        block += 1
    return out


def _bad(word: str, cand: str, forbidden) -> bool:
    if cand == word or cand.upper() in SQL_KEYWORDS or cand in forbidden:
        return True
    # a pseudonym of several words (a string literal) must not make a word of the report by chance either: a
    # random 'SID' in a literal read as the original column name SID left unredacted
    if len(WORD.findall(word)) > 1 and any(c != w and c in forbidden
                                           for c, w in zip(WORD.findall(cand), WORD.findall(word))):
        return True
    # nor keep one of its words by chance: 'Mundo' keeps its UNDO, and its M one time in 26
    pairs = zip(WORD.findall(cand), WORD.findall(word))
    if any(c == w and re.search("[A-Za-z]", _MARKERS.sub("", w)) for c, w in pairs):
        return True
    return len(_MARKERS.findall(cand)) != len(_MARKERS.findall(word)) or (
        cand.upper().startswith(("RBS", "ROLLBACK")) and not word.upper().startswith(("RBS", "ROLLBACK")))


def derive(key: bytes, word: str, attempt: int = 0, hexdigits: bool = False) -> str:
    keep = [False] * len(word)
    for m in _MARKERS.finditer(word):
        for i in range(m.start(), m.end()):
            keep[i] = True
    rnd = _stream(key, word, attempt)
    out = []
    for i, c in enumerate(word):
        b = rnd[i]
        if keep[i]:
            out.append(c)
        elif hexdigits and c in "abcdefABCDEF":
            out.append(("abcdef" if c.islower() else "ABCDEF")[b % 6])
        elif "A" <= c <= "Z":
            out.append(_UPPER[b % 26])
        elif "a" <= c <= "z":
            out.append(_LOWER[b % 26])
        elif "0" <= c <= "9":
            out.append(_DIGITS[1 + b % 9] if (i == 0 and c != "0") else _DIGITS[b % 10])
        else:
            out.append(c)
    return "".join(out)


class Pseudonyms:
    """One run's pseudonyms: deterministic per key, injective within the run."""

    def __init__(self, key: bytes):
        self.key = key
        self.of: dict[str, str] = {}
        self.taken: set[str] = set()

    def get(self, word: str, forbidden=frozenset(), hexdigits: bool = False, below: int | None = None) -> str:
        """``below``: for an all-digit word, a pseudonym whose value is under it (a DBID: under 2^32)."""
        p = self.of.get(word)
        if p is not None:
            return p
        for attempt in range(2000):
            cand = derive(self.key, word, attempt, hexdigits)
            if below is not None and cand.isdigit() and int(cand) >= below:
                continue
            if not _bad(word, cand, forbidden) and cand not in self.taken:
                break
        self.of[word] = cand
        self.taken.add(cand)
        return cand
