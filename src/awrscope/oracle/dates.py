"""Month names as Oracle prints them in a time stamp, in the session's NLS_DATE_LANGUAGE: the parsers read snapshot
times with them, the ADDM comparison its tasks' times."""
from __future__ import annotations

import unicodedata

_MONTHS = {
    # English
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
    "sep": 9, "oct": 10, "nov": 11, "dec": 12,
    # Portuguese / Spanish / French / German / Italian / Dutch abbreviations that differ
    "fev": 2, "abr": 4, "mai": 5, "ago": 8, "set": 9, "out": 10, "dez": 12,
    "ene": 1, "dic": 12, "janv": 1, "fevr": 2, "mars": 3, "avr": 4, "juin": 6, "juil": 7,
    "aout": 8, "sept": 9, "mrz": 3, "mar.": 3, "okt": 10, "gen": 1, "mag": 5, "giu": 6,
    "lug": 7, "ott": 10, "mei": 5, "maa": 3, "maj": 5,
    # Russian (folded: 'май' -> 'маи'), Turkish, Polish
    "янв": 1, "фев": 2, "мар": 3, "апр": 4, "маи": 5, "июн": 6, "июл": 7, "авг": 8, "сен": 9, "окт": 10, "ноя": 11,
    "дек": 12, "oca": 1, "sub": 2, "nis": 4, "haz": 6, "tem": 7, "agu": 8, "eyl": 9, "eki": 10, "kas": 11, "ara": 12,
    "sty": 1, "lut": 2, "kwi": 4, "cze": 6, "sie": 8, "wrz": 9, "paz": 10, "gru": 12,
    # not Polish 'lip' (July) nor 'lis' (November): Croatian prints them for June and October, and a wrong month is
    # worse than none
}


def month_number(token: str) -> int | None:
    """A month as a report prints it: 'Mar', 'Dez', 'Дек', 'janv.', '12月', '1月 ' (Oracle pads it), '12월' (1-12),
    else None."""
    token = token.strip()
    if token[-1:] in ("月", "월"):  # Chinese, Japanese, Korean (not folded: Hangul decomposes)
        n = token[:-1]
        return int(n) if n.isdecimal() and 1 <= int(n) <= 12 else None
    mon = _fold(token).rstrip(".")
    return _MONTHS.get(mon) or _MONTHS.get(mon[:3])


def _fold(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", s.lower()) if not unicodedata.combining(c))


def full_year(yy: int) -> int:
    """A two-digit year as Oracle's RR and strptime's %y read it: 69-99 the 1900s, 00-68 the 2000s."""
    return yy + (2000 if yy < 69 else 1900) if yy < 100 else yy
