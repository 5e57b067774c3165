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


def _out_name(name: str, fmt: str, used: set[str]) -> str:
    base = re.split(r"[/\\:]", name)[-1] or "report"
    base = base.removesuffix(".gz")
    if "." not in base:
        base += ".html" if fmt == "html" else ".txt"
    stem, ext = os.path.splitext(base)
    out, n = base, 1
    while out in used:
        n += 1
        out = f"{stem}-{n}{ext}"
    used.add(out)
    return out


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
@click.option("--key-file", type=click.Path(dir_okay=False), default="awrscope-redact.key", show_default=True,
              help="The secret key (hex); created with a random key when missing. The same key gives the same "
                   "pseudonyms across reports and runs.")
@click.option("--keep", multiple=True, type=click.Choice(_KEEP),
              help="An identifier kind to leave as it is (repeatable): what you choose to share.")
@click.option("--map", "write_map", is_flag=True,
              help="Also write DIR/redaction-map.json (original -> pseudonym, per kind). Keep it to yourself.")
def redact_cmd(reports: tuple[str, ...], out_dir: str, key_file: str, keep: tuple[str, ...], write_map: bool) -> None:
    """Write each REPORT in its own format (text, HTML, Statspack) with host, database, instance, service,
    module, user, schema, segment, tablespace and file names, DBIDs, IP addresses, SQL ids, SQL text and its
    literals replaced by same-length pseudonyms, keeping every number and Oracle name (docs/redact.md)."""
    from ..errors import AwrscopeError
    from ..parsers.source import expand_inputs, iter_sources
    from .core import Redactor
    from .pseudonym import load_key

    try:
        key = load_key(key_file)
    except (OSError, ValueError) as e:
        click.echo(f"awrscope: {key_file}: cannot use the key file ({e})", err=True)
        sys.exit(EXIT_UNUSABLE)
    redactor = Redactor(key, keep)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    used: set[str] = set()
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
            try:
                red = redactor.redact_source(src)
            except AwrscopeError as e:
                click.echo(f"awrscope: {e}", err=True)
                failed += 1
                continue
            target = out / _out_name(src.name, red.format, used)
            if target.exists() and any(_same(target, i) for i in inputs):
                # -o onto the inputs' own directory: never replace an original with its redacted copy
                target = out / _out_name(Path(src.name).stem + ".redacted" + Path(target.name).suffix, red.format, used)
            _write_new(target, red.text.encode(red.encoding, errors="replace"))
            click.echo(f"{target}: " + red.summary().split(": ", 1)[1])
            for kind, m in red.replaced.items():
                merged.setdefault(kind, {}).update(m)
    if write_map:
        path = out / "redaction-map.json"
        path.write_text(json.dumps(merged, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        os.chmod(path, 0o600)
        click.echo(f"{path}: the mapping (keep it local)")
    if failed:
        sys.exit(EXIT_UNUSABLE)
