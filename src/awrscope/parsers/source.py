"""Reading report files: paths, globs, directories, stdin, .gz and .zip, encodings.

This is the only part of parsing that touches the file system.
"""
from __future__ import annotations

import glob
import gzip
import hashlib
import io
import os
import stat
import sys
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputError

#: Refuse inputs (after decompression) larger than this unless told otherwise.
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
_REPORT_SUFFIXES = (".txt", ".lst", ".log", ".out", ".html", ".htm", ".gz", ".zip", ".text", ".rpt", ".sql")


@dataclass(frozen=True, slots=True)
class Source:
    name: str  # path as given, or "<stdin>", or "archive.zip:member"
    data: bytes  # decompressed bytes
    sha256: str
    size: int  # bytes of the decompressed content


#: The most an archive may decompress to in all (each member is also held to --max-size)
ZIP_TOTAL_MAX = 1 << 30


def expand_inputs(args: list[str]) -> list[str]:
    """Files, directories (walked, sorted) and globs to a list of paths; '-' is stdin."""
    out: list[str] = []
    for a in args:
        if a == "-":
            out.append(a)
            continue
        p = Path(a)
        if p.is_dir():
            unreadable: list[str] = []
            for root, dirs, files in os.walk(p, onerror=lambda e: unreadable.append(e.filename)):
                dirs.sort()
                for f in sorted(files):
                    if f.startswith("."):
                        continue
                    if f.lower().endswith(_REPORT_SUFFIXES) or "." not in f:
                        out.append(os.path.join(root, f))
            out.extend(u for u in unreadable if u)  # each reported as one error line when read
        elif p.exists():
            out.append(a)
        elif any(ch in a for ch in "*?["):
            matches = sorted(glob.glob(a, recursive=True))
            if not matches:
                raise InputError(f"{a}: no file matches this pattern")
            out.extend(m for m in matches if os.path.isfile(m))
        else:
            out.append(a)  # reported as missing when read, so other inputs still run
    return out


def read_sources(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Source]:
    """One path to its report sources (a zip may hold several). Regular files are read up to the
    size limit; a named pipe is read as a stream, bounded the same way; a device, socket or
    unreadable entry is one clear error, never an endless read or a traceback."""
    if path == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
        return [_source("<stdin>", _maybe_gunzip(data, "<stdin>", max_bytes), max_bytes)]
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise InputError(f"{path}: is a directory" + ("" if os.access(path, os.R_OK | os.X_OK) else
                                                          " that cannot be read (permission denied)"))
        if stat.S_ISFIFO(st.st_mode):
            with open(path, "rb") as fh:
                return _from_bytes(path, _read_bounded(fh, max_bytes), max_bytes)
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"{path}: not a regular file (a device or socket): not read")
        with open(path, "rb") as fh:
            head = fh.read(4)
            fh.seek(0)
            if head[:2] == b"\x1f\x8b":
                return [_source(path, _gunzip_stream(fh, path, max_bytes), max_bytes)]
            if head == b"PK\x03\x04":
                return _read_zip(fh, path, max_bytes)
            size = os.fstat(fh.fileno()).st_size
            if size > max_bytes:
                raise InputError(f"{path}: {size / 1e6:.0f} MB is larger than the limit of "
                                 f"{max_bytes / 1e6:.0f} MB (raise it with --max-size)")
            return [_source(path, fh.read(size + 1) if size else _read_bounded(fh, max_bytes), max_bytes)]
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as e:  # a symbolic link loop, an I/O error: this input only
        raise InputError(f"{path}: cannot be read ({e.strerror or e})") from None


def _read_bounded(fh, max_bytes: int) -> bytes:
    """At most max_bytes + 1 bytes, in chunks: read(n) would allocate n bytes up front."""
    out = bytearray()
    while len(out) <= max_bytes:
        chunk = fh.read(min(1 << 22, max_bytes + 1 - len(out)))
        if not chunk:
            break
        out += chunk
    return bytes(out)


def _from_bytes(name: str, data: bytes, max_bytes: int) -> list[Source]:
    """Sources from bytes read as a stream (a named pipe): gzip and zip recognised by their magic."""
    if data[:4] == b"PK\x03\x04":
        return _read_zip(io.BytesIO(data), name, max_bytes)
    return [_source(name, _maybe_gunzip(data, name, max_bytes), max_bytes)]


def _source(name: str, data: bytes, max_bytes: int) -> Source:
    if len(data) > max_bytes:
        raise InputError(f"{name}: larger than the limit of {max_bytes / 1e6:.0f} MB (raise it with --max-size)")
    return Source(name, data, hashlib.sha256(data).hexdigest(), len(data))


def _maybe_gunzip(data: bytes, name: str, max_bytes: int) -> bytes:
    if data[:2] == b"\x1f\x8b":
        return _gunzip_stream(io.BytesIO(data), name, max_bytes)
    return data


def _gunzip_stream(fh, name: str, max_bytes: int) -> bytes:
    """Decompress with a size cap, so a gzip bomb is refused, not inflated."""
    out = bytearray()
    try:
        with gzip.GzipFile(fileobj=fh) as gz:
            while True:
                chunk = gz.read(1 << 20)
                if not chunk:
                    break
                out += chunk
                if len(out) > max_bytes:
                    raise InputError(f"{name}: decompresses to more than {max_bytes / 1e6:.0f} MB "
                                     "(raise the limit with --max-size)")
    except (OSError, EOFError, zlib.error) as e:
        if out:
            return bytes(out)  # truncated archive: keep what was readable, the parser warns
        raise InputError(f"{name}: not a readable gzip file ({e})") from None
    return bytes(out)


def _read_zip(fh, name: str, max_bytes: int) -> list[Source]:
    try:
        zf = zipfile.ZipFile(fh)
    except zipfile.BadZipFile as e:
        raise InputError(f"{name}: not a readable zip file ({e})") from None
    sources = []
    total = sum(i.file_size for i in zf.infolist() if not i.is_dir())
    if total > ZIP_TOTAL_MAX:
        raise InputError(f"{name}: its members decompress to {total / 1e9:.1f} GB in all, more than the "
                         f"{ZIP_TOTAL_MAX / 1e9:.0f} GB awrscope reads from one archive: unzip it and give the directory")
    with zf:
        for info in zf.infolist():
            if info.is_dir() or info.filename.startswith("__MACOSX/"):
                continue
            if info.file_size > max_bytes:
                raise InputError(f"{name}:{info.filename}: {info.file_size / 1e6:.0f} MB uncompressed is larger "
                                 f"than the limit of {max_bytes / 1e6:.0f} MB (raise it with --max-size)")
            with zf.open(info) as member:
                data = member.read(max_bytes + 1)
            data = _maybe_gunzip(data, info.filename, max_bytes)
            sources.append(_source(f"{name}:{info.filename}", data, max_bytes))
    if not sources:
        raise InputError(f"{name}: the zip archive holds no file")
    return sources


def decode(data: bytes) -> tuple[str, str]:
    """Bytes to text: UTF-8 (with or without BOM), UTF-16 by BOM, else Latin-1 (cp1252).

    Returns (text, encoding)."""
    if data[:3] == b"\xef\xbb\xbf":
        return data[3:].decode("utf-8", errors="replace"), "utf-8-sig"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", errors="replace"), "utf-16"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def looks_binary(data: bytes) -> bool:
    """NUL bytes or a high share of control characters in the first 8 KiB."""
    head = data[:8192]
    if not head:
        return False
    if b"\x00" in head and not (head[:2] in (b"\xff\xfe", b"\xfe\xff")):
        return True
    ctrl = sum(1 for b in head if b < 9 or 13 < b < 32 and b != 27)
    return ctrl > len(head) * 0.05
