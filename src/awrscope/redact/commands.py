"""``awrscope redact``: each report written in its own format with its identifiers pseudonymised."""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import click

from ..errors import EXIT_UNUSABLE

_KEEP = ("hosts", "databases", "dbid", "services", "modules", "users", "segment-names", "tablespaces", "files",
         "ips", "sql-ids", "parameters", "sql-text")


_EXTENSIONS = (".txt", ".html", ".htm", ".lst", ".log", ".out", ".text")


def _out_name(name: str, fmt: str, number: int) -> str:
    """``report-NNN.redacted.EXT``: the input's extension, never its name (which often holds the database or host
    name: awrrpt_1_BPSC_2668_2669.html)."""
    base = re.split(r"[/\\:]", name)[-1].removesuffix(".gz")
    ext = os.path.splitext(base)[1].lower()
    if ext not in _EXTENSIONS:
        ext = ".html" if fmt == "html" else ".txt"
    return f"report-{number:03d}.redacted{ext}"


def default_key_file() -> Path:
    """The key where a user's own data lives (platformdirs: ~/.local/share/awrscope/redact.key on Linux), so the
    same key serves every run and never lands among the files that are shared."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("awrscope", appauthor=False)) / "redact.key"


def _same(target: Path, inp: Path) -> bool:
    """Whether ``target`` is the input ``inp`` or a file inside the input directory ``inp`` under the same name."""
    try:
        if inp.is_dir():
            return any(os.path.samefile(target, f) for f in inp.rglob(target.name))
        return os.path.samefile(target, inp)
    except OSError:
        return False


def _write_new(target: Path, data: bytes) -> None:
    """Write through a temporary file in the target directory, renamed only when complete: a full disk leaves the
    old file (or none), never a truncated one."""
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@click.command("redact")
@click.argument("reports", nargs=-1, required=True)
@click.option("-o", "--output", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Directory for the redacted reports (created when missing).")
@click.option("--key-file", type=click.Path(dir_okay=False), default=None,
              help="The secret key (hex); created with a random key (mode 0600) when missing. The same key gives the "
                   "same pseudonyms across reports and runs. Default: redact.key in your awrscope data directory "
                   "(on Linux ~/.local/share/awrscope/), never the current or the output directory.")
@click.option("--keep", multiple=True, type=click.Choice(_KEEP),
              help="An identifier kind to leave as it is (repeatable): what you choose to share.")
@click.option("--allow", "allow", multiple=True, metavar="WORD",
              help="A word the self-check may let through on purpose (repeatable): one it listed as neither in the "
                   "vocabulary nor a pseudonym, which you know names no one.")
@click.option("--map", "write_map", is_flag=True,
              help="Also write redaction-map.json (original -> pseudonym, per kind) beside the key file, never among "
                   "the reports you share. Keep it to yourself.")
def redact_cmd(reports: tuple[str, ...], out_dir: str, key_file: str | None, keep: tuple[str, ...],
               allow: tuple[str, ...], write_map: bool) -> None:
    """Write each REPORT in its own format (text, HTML, Statspack) with host, database, instance, service,
    module, user, schema, segment, tablespace and file names, GoldenGate/Streams names, DBIDs, IP addresses,
    SQL ids, SQL text and its literals replaced by same-length pseudonyms, keeping every number and Oracle
    name (docs/redact.md).

    \b
    Outputs are named DIR/report-001.redacted.html, report-002.redacted.txt, ... in the order of the inputs
    (the input's extension, not its name, which often holds the database or host name); one line per report
    says which input it came from. Each output is re-read before it is written: if any identifier found in
    the report is still in it, or an independent pass finds a word in an identifier position or SQL text that
    is neither in the vocabulary nor a pseudonym, that report is refused (one line listing them, exit status
    2) and nothing is written for it; --allow WORD lets one such word through.
    The key stays in your data directory unless --key-file says otherwise: keep it to map answers back, and
    do not send it with the reports."""
    from ..errors import AwrscopeError
    from ..parsers.source import expand_inputs, iter_sources
    from .core import Redactor
    from .pseudonym import load_key

    from .core import RedactionLeak

    if key_file is None:
        path = default_key_file()
        try:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as e:
            click.echo(f"awrscope: {path.parent}: cannot create the key directory ({e}); give --key-file", err=True)
            sys.exit(EXIT_UNUSABLE)
        key_file = str(path)
    try:
        key = load_key(key_file)
    except (OSError, ValueError) as e:
        click.echo(f"awrscope: {key_file}: cannot use the key file ({e})", err=True)
        sys.exit(EXIT_UNUSABLE)
    redactor = Redactor(key, keep, allow=allow)
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:  # a file where a directory should be, a read-only or full disk: the user's to fix
        click.echo(f"awrscope: {out_dir}: cannot create the output directory ({e.strerror or e})", err=True)
        sys.exit(EXIT_UNUSABLE)
    number = 0
    merged: dict[str, dict[str, str]] = {}
    failed = 0
    inputs = [Path(r) for r in reports if r != "-"]
    for inp in expand_inputs(list(reports)):
        try:
            items = list(iter_sources(inp))
        except AwrscopeError as e:
            click.echo(f"awrscope: {e}", err=True)
            failed += 1
            continue
        for src in items:
            if isinstance(src, Exception):
                click.echo(f"awrscope: {src}", err=True)
                failed += 1
                continue
            number += 1
            try:
                red = redactor.redact_source(src)
            except RedactionLeak as e:
                click.echo(f"awrscope: {e}", err=True)  # the self-check: an identifier would have been shared
                failed += 1
                continue
            except AwrscopeError as e:
                click.echo(f"awrscope: {e}", err=True)
                failed += 1
                continue
            target = out / _out_name(src.name, red.format, number)
            while target.exists() and any(_same(target, i) for i in inputs):
                # an input named like an output (a redacted report redacted again): never replace an original
                number += 1
                target = out / _out_name(src.name, red.format, number)
            try:
                _write_new(target, red.text.encode(red.encoding, errors="replace"))
            except OSError as e:
                click.echo(f"awrscope: {target}: cannot write ({e.strerror or e})", err=True)
                failed += 1
                continue
            click.echo(f"{target} (from {src.name}): " + red.summary().split(": ", 1)[1])
            for kind, m in red.replaced.items():
                merged.setdefault(kind, {}).update(m)
    if write_map:
        # beside the key (the private side), not in DIR: the directory that is sent is exactly the reports
        path = Path(key_file).resolve().parent / "redaction-map.json"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(merged, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
        click.echo(f"{path}: the mapping (keep it local)")
    if failed:
        sys.exit(EXIT_UNUSABLE)
