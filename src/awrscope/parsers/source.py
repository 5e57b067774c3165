"""Reading report files: paths, globs, directories, stdin, .gz and .zip, encodings.

This is the only part of parsing that touches the file system.
"""
from __future__ import annotations

import hashlib
import io
import os
import stat
import sys
import zlib
from msgspec import Struct
from typing import Iterator

from ..errors import AwrscopeError, InputError, SkippedInput

from ..limits import DEFAULT_MAX_BYTES, ZIP_TOTAL_MAX  # noqa: F401 - re-exported: callers import them from here
_REPORT_SUFFIXES = (".txt", ".lst", ".log", ".out", ".html", ".htm", ".gz", ".zip", ".text", ".rpt", ".sql")


class Source(Struct, frozen=True):
    name: str  # path as given, or "<stdin>", or "archive.zip:member"
    data: bytes  # decompressed bytes
    sha256: str
    size: int  # bytes of the decompressed content
    found: bool = False  # found in a directory, a glob or an archive rather than named: not a report is skipped


class Input(Struct, frozen=True):
    """One path to read: named by the user, or found by walking a directory or matching a glob."""
    path: str
    found: bool = False


#: Bytes read first from a found file: binary content is skipped without reading the rest
_SNIFF_BYTES = 8192


def expand_inputs(args: list[str]) -> list[Input]:
    """Files, directories (walked, sorted) and globs to the inputs to read; '-' is stdin. Every regular
    file in a directory is an input whatever its name (its content decides: awr.txt.128 is a report, a
    .png is skipped); hidden files are not. Unreadable subdirectories become inputs of their own, each
    one error line when read."""
    out: list[Input] = []
    for a in args:
        if a == "-":
            out.append(Input(a))
            continue
        if os.path.isdir(a):
            unreadable: list[str] = []
            for root, dirs, files in os.walk(a, onerror=lambda e: unreadable.append(e.filename)):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                out.extend(Input(os.path.join(root, f), True) for f in sorted(files) if not f.startswith("."))
            out.extend(Input(u) for u in unreadable if u)
        elif os.path.exists(a):
            out.append(Input(a))
        elif any(ch in a for ch in "*?["):
            import glob  # only for a pattern the shell left unexpanded

            matches = sorted(glob.glob(a, recursive=True))
            if not matches:
                raise InputError(f"{a}: no file matches this pattern")
            out.extend(Input(m, True) for m in matches if os.path.isfile(m))
        else:
            out.append(Input(a))  # reported as missing when read, so other inputs still run
    return out


def read_sources(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> list[Source]:
    """Every report source of one path, at once (the first unreadable archive member raises): for callers
    holding one report. Many inputs go through :func:`iter_sources`, one member in memory at a time."""
    out = []
    for item in iter_sources(Input(path), max_bytes):
        if isinstance(item, Exception):
            raise item
        out.append(item)
    return out


def iter_sources(inp: Input | str, max_bytes: int = DEFAULT_MAX_BYTES) -> Iterator[Source | AwrscopeError]:
    """One input to its report sources, one at a time (a zip may hold thousands). The input itself is
    checked at once: a missing, unreadable or oversized file, a device or a socket raises InputError (a
    found one that is not worth reading raises SkippedInput). Regular files are read up to the size limit;
    a named pipe is read as a stream, bounded the same way. An archive member that cannot be read is
    yielded as its error, so the other members still come."""
    if isinstance(inp, str):
        inp = Input(inp)
    path, found = inp.path, inp.found
    if "\x00" in str(path):  # no file system names one; os.stat would raise ValueError, not an OSError
        raise InputError(f"{path!r}: a file name cannot hold a NUL character")
    if path == "-":
        data = sys.stdin.buffer.read(max_bytes + 1)
        return iter([_source("<stdin>", _maybe_gunzip(data, "<stdin>", max_bytes), max_bytes)])
    try:
        st = os.stat(path)
        if stat.S_ISDIR(st.st_mode):
            raise InputError(f"{path}: is a directory" + ("" if os.access(path, os.R_OK | os.X_OK) else
                                                          " that cannot be read (permission denied)"))
        if stat.S_ISFIFO(st.st_mode):
            if found:  # opening a pipe blocks until a writer comes: only one the user names is read
                raise SkippedInput(f"{path}: a named pipe found in a directory: not read", "not a regular file")
            return _from_bytes(path, _read_pipe(path, max_bytes), max_bytes, found)
        if not stat.S_ISREG(st.st_mode):
            if found:
                raise SkippedInput(f"{path}: not a regular file", "not a regular file")
            raise InputError(f"{path}: not a regular file (a device or socket): not read")
        fh = open(path, "rb")
        try:
            head = fh.read(_SNIFF_BYTES)
            fh.seek(0)
            if head[:2] == b"\x1f\x8b":
                with fh:
                    return iter([_source(path, _gunzip_stream(fh, path, max_bytes), max_bytes, found)])
            if head[:4] == b"PK\x03\x04":
                return _zip_members(fh, path, max_bytes)  # closes fh when done
            if found and looks_binary(head):
                fh.close()
                raise SkippedInput(f"{path}: binary data", "binary")
            size = os.fstat(fh.fileno()).st_size
            if size > max_bytes:
                fh.close()
                raise _too_large(path, f"{size / 1e6:.0f} MB", max_bytes, head, found)
            with fh:
                return iter([_source(path, fh.read(size + 1) if size else _read_bounded(fh, max_bytes), max_bytes,
                                     found)])
        except BaseException:
            fh.close()
            raise
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory") from None
    except PermissionError:
        raise InputError(f"{path}: permission denied") from None
    except OSError as e:  # a symbolic link loop, an I/O error: this input only
        raise InputError(f"{path}: cannot be read ({e.strerror or e})") from None


#: Seconds a named pipe may go without a byte before it is given up (its writer is stuck or gone)
PIPE_IDLE_S = 30.0
#: Seconds a named pipe with no writer is waited for before it reads as empty
PIPE_WRITER_WAIT_S = 3.0


def _read_pipe(path: str, max_bytes: int, idle_s: float | None = None) -> bytes:
    """A named pipe read without blocking on it: open(2) of a FIFO waits for a writer, for ever when none comes
    (the CLI hung, an MCP tool call hung and kept the server alive after its client left). Opened non-blocking,
    a pipe with no writer reads as empty after PIPE_WRITER_WAIT_S; one whose writer sends nothing for ``idle_s`` is refused."""
    import select

    import time

    idle = PIPE_IDLE_S if idle_s is None else idle_s
    writer_s, waited = PIPE_WRITER_WAIT_S, 0.0
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    out = bytearray()
    try:
        while len(out) <= max_bytes:
            try:
                chunk = os.read(fd, min(1 << 22, max_bytes + 1 - len(out)))
            except BlockingIOError:  # a writer is there, nothing written yet
                if not select.select([fd], [], [], idle)[0]:
                    raise InputError(f"{path}: a named pipe that sent nothing for {idle:.0f} s: not read") from None
                continue
            if not chunk:
                if out:
                    break  # no writer any more: the end
                if waited >= writer_s:
                    raise InputError(f"{path}: a named pipe no process writes to (none came in {writer_s:.0f} s): "
                                     "not read")
                time.sleep(0.05)  # no writer yet: one started beside the reader opens it in a moment
                waited += 0.05
                continue
            out += chunk
    finally:
        os.close(fd)
    return bytes(out)


def _read_bounded(fh, max_bytes: int) -> bytes:
    """At most max_bytes + 1 bytes, in chunks: read(n) would allocate n bytes up front."""
    out = bytearray()
    while len(out) <= max_bytes:
        chunk = fh.read(min(1 << 22, max_bytes + 1 - len(out)))
        if not chunk:
            break
        out += chunk
    return bytes(out)


def sources_of_bytes(name: str, data: bytes, max_bytes: int = DEFAULT_MAX_BYTES,
                     found: bool = False) -> Iterator[Source | AwrscopeError]:
    """Sources from bytes already in memory (a named pipe, an upload): gzip and zip recognised by their magic."""
    return _from_bytes(name, data, max_bytes, found)


def _from_bytes(name: str, data: bytes, max_bytes: int, found: bool = False) -> Iterator[Source | AwrscopeError]:
    if data[:4] == b"PK\x03\x04":
        return _zip_members(io.BytesIO(data), name, max_bytes)
    return iter([_source(name, _maybe_gunzip(data, name, max_bytes), max_bytes, found)])


def _source(name: str, data: bytes, max_bytes: int, found: bool = False) -> Source:
    if len(data) > max_bytes:
        raise InputError(f"{name}: larger than the limit of {max_bytes / 1e6:.0f} MB (raise it with --max-size)")
    return Source(name, data, hashlib.sha256(data).hexdigest(), len(data), found)


def _maybe_gunzip(data: bytes, name: str, max_bytes: int) -> bytes:
    if data[:2] == b"\x1f\x8b":
        return _gunzip_stream(io.BytesIO(data), name, max_bytes)
    return data


def _gunzip_stream(fh, name: str, max_bytes: int) -> bytes:
    """Decompress with a size cap, so a gzip bomb is refused, not inflated."""
    import gzip  # here, not at the top: most inputs are plain files

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


def _zip_members(fh, name: str, max_bytes: int) -> Iterator[Source | AwrscopeError]:
    """The members of an archive, decompressed one at a time as the caller asks for them. The archive is
    opened and its total size checked at once (raising InputError); a member that cannot be read is
    yielded as its error. Members are found, not named: one that is not a report is skipped."""
    import zipfile  # here: 1 ms of imports that reading a plain report never needs

    try:
        zf = zipfile.ZipFile(fh)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        fh.close()
        raise InputError(f"{name}: not a readable zip file ({e})") from None
    members = [i for i in zf.infolist() if not i.is_dir() and not i.filename.startswith("__MACOSX/")]
    total = sum(i.file_size for i in members)
    if total > ZIP_TOTAL_MAX:
        zf.close()
        fh.close()
        raise InputError(f"{name}: its members decompress to {total / 1e9:.1f} GB in all, more than the "
                         f"{ZIP_TOTAL_MAX / 1e9:.0f} GB awrscope reads from one archive: unzip it and give the directory")
    if not members:
        zf.close()
        fh.close()
        raise InputError(f"{name}: the zip archive holds no file")
    return _each_member(zf, fh, members, name, max_bytes)


def _each_member(zf, fh, members, name: str, max_bytes: int) -> Iterator[Source | AwrscopeError]:
    import zipfile

    with fh, zf:
        for info in members:
            label = f"{name}:{info.filename}"
            try:
                if info.file_size > max_bytes:
                    with zf.open(info) as member:
                        head = member.read(_SNIFF_BYTES)
                    yield _named(_too_large(label, f"{info.file_size / 1e6:.0f} MB uncompressed", max_bytes, head,
                                            True), label)
                    continue
                with zf.open(info) as member:
                    data = member.read(max_bytes + 1)
                yield _source(label, _maybe_gunzip(data, label, max_bytes), max_bytes, found=True)
            except AwrscopeError as e:
                yield _named(e, label)
            except (zipfile.BadZipFile, OSError, EOFError, zlib.error, NotImplementedError, RuntimeError) as e:
                # a damaged member, an unknown compression method, an encrypted member
                yield _named(InputError(f"{label}: cannot be read from the archive ({e})"), label)


def _too_large(name: str, size: str, max_bytes: int, head: bytes, found: bool) -> AwrscopeError:
    """A file over the limit: an error when named, or when its first bytes show a report; a found file
    that is not one (a datafile, a core dump beside the reports) is skipped."""
    from .detect import detect

    if found and looks_binary(head):
        return SkippedInput(f"{name}: binary data", "binary")
    if found and detect(decode(head)[0]).kind is None:
        return SkippedInput(f"{name}: not a report ({size})", "not a report")
    return InputError(f"{name}: {size} is larger than the limit of {max_bytes / 1e6:.0f} MB (raise it with --max-size)")


def _named(e: AwrscopeError, name: str) -> AwrscopeError:
    e.source_name = name  # type: ignore[attr-defined]  # which member, for the caller's row
    return e


def decode(data: bytes) -> tuple[str, str]:
    """Bytes to text: UTF-8 (with or without BOM), UTF-16 by BOM, else Latin-1 (cp1252).

    Returns (text, encoding)."""
    if data[:3] == b"\xef\xbb\xbf":
        return data[3:].decode("utf-8", errors="replace"), "utf-8-sig"
    codec = bom_codec(data)
    if codec:
        return data.decode(codec, errors="replace"), codec
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"


def bom_codec(data: bytes) -> str | None:
    """'utf-32' or 'utf-16' when the data starts with that encoding's byte-order mark (Windows PowerShell writes
    UTF-16 with a BOM by default), else None. UTF-32's mark begins like UTF-16's little-endian one: tested first."""
    if data[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        return "utf-32"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    return None


def looks_binary(data: bytes) -> bool:
    """NUL bytes or a high share of control characters in the first 8 KiB (of the decoded characters for
    UTF-16/32 with a byte-order mark, whose every character holds NUL bytes)."""
    head = data[:8192]
    if not head:
        return False
    codec = bom_codec(head)
    if codec:
        text = head[:len(head) - len(head) % 4].decode(codec, errors="replace")
        return sum(1 for c in text if ord(c) < 9 or 13 < ord(c) < 32 and ord(c) != 27) > len(text) * 0.05
    if b"\x00" in head:
        return True
    ctrl = sum(1 for b in head if b < 9 or 13 < b < 32 and b != 27)
    return ctrl > len(head) * 0.05
