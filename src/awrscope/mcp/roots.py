"""Which files the MCP server may read: those under the roots the client grants (MCP roots), else under the
server's ``--root`` directories (default: its working directory). SDK-free, so the rule is tested on its own.

A path outside is refused with one line that is the same whether the file exists or not, so a client cannot
map the machine by asking. Paths are compared after resolving symbolic links (a link inside a root that points
outside is outside), directories and globs after expanding them (what they would list must be inside too).
"""
from __future__ import annotations

import glob
import os
from urllib.parse import unquote, urlparse

#: Longest stretch of a refused path quoted back in the error line
_SHOWN = 200


class OutsideRoots(Exception):
    """A path the server may not read: the message is the tool error line."""


def resolve(dirs: list[str]) -> list[str]:
    """Directories as absolute paths with symbolic links resolved, without duplicates, order kept."""
    out: list[str] = []
    for d in dirs:
        r = os.path.realpath(d)
        if r not in out:
            out.append(r)
    return out


def from_uris(uris: list[str]) -> list[str]:
    """The directories of ``file://`` root URIs (other schemes name nothing on this machine)."""
    out = []
    for u in uris:
        p = urlparse(str(u))
        if p.scheme == "file" and p.netloc in ("", "localhost"):
            path = unquote(p.path)
            if path and "\x00" not in path:
                out.append(path)
    return resolve(out)


def _under(real: str, roots: list[str]) -> bool:
    return any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def _refusal(path: str) -> OutsideRoots:
    shown = path if len(path) <= _SHOWN else path[:_SHOWN] + f"... ({len(path):,} characters)"
    shown = shown.replace("\x00", "\\x00")
    return OutsideRoots(f"awrscope: {shown}: not under a directory this server may read (the client's roots, "
                        "or the server's --root)")


def _glob_base(pattern: str) -> str:
    """The part of a glob before its first wildcard, as a directory: what the pattern can list at most."""
    head = []
    for part in pattern.split(os.sep):
        if glob.has_magic(part):
            break
        head.append(part)
    return os.sep.join(head) or "."


def place(path: str | None, bases: list[str] | None) -> str | None:
    """A relative path of a tool call under the server's ``--root`` directories (``bases``): in the first that
    holds it (for a glob: where it matches), else in the first; an absolute path, '-' and a path with no
    ``bases`` (no --root: the working directory) as given."""
    if not path or path == "-" or not bases or os.path.isabs(path) or "\x00" in path:
        return path
    for base in bases:
        candidate = os.path.join(base, path)
        if os.path.lexists(candidate) or (glob.has_magic(path) and glob.glob(candidate)):
            return candidate
    return os.path.join(bases[0], path)


def check(paths: list[str], allowed: list[list[str]], shown: dict[str, str] | None = None) -> None:
    """OutsideRoots unless every path, and every file a directory or glob among them expands to, is under one
    directory of each list of ``allowed`` (the server's roots, the client's: both must grant it). ``shown``:
    the name a refused path is quoted by (a relative path as the client gave it, not as it was placed)."""
    shown = shown or {}
    from ..parsers.source import expand_inputs

    def inside(p: str) -> bool:
        real = os.path.realpath(p)
        return all(_under(real, roots) for roots in allowed)

    for p in paths:
        if "\x00" in p:
            raise _refusal(shown.get(p, p))
        literal = os.path.lexists(p)
        if not literal and glob.has_magic(p):
            if not inside(_glob_base(p)):
                raise _refusal(shown.get(p, p))
        elif not inside(p):
            raise _refusal(shown.get(p, p))
    # a directory or glob inside may still list a link to a file outside: that file is not read either
    for inp in expand_inputs_safely(paths, expand_inputs):
        if not inside(inp):
            raise _refusal(inp)


def expand_inputs_safely(paths: list[str], expand) -> list[str]:
    try:
        return [i.path for i in expand(list(paths)) if i.path != "-"]
    except Exception:  # noqa: BLE001 - a pattern matching nothing: the tool itself says so, in the CLI's words
        return []
