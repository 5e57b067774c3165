"""Reading the ``--config`` TOML file: bounded in size, never a device or a pipe, every value type-checked.

A config file is chosen by the user but may be anything the path names: /dev/zero would be read without end,
a FIFO without a writer would block the run at open(), and a value of the wrong type (``lgwr_ms = "4"``)
would surface as a TypeError deep inside a rule. Each of those is one ``ValueError`` line here instead.
"""
from __future__ import annotations

import math
import os
import stat
from typing import Any

from .limits import MAX_CONFIG_BYTES

_TOP = ("rules", "metrics", "severity", "redo_on_flash")


def read_small_file(path: str, max_bytes: int) -> bytes:
    """The bytes of a small regular file, or ValueError/OSError. Opened without blocking (a FIFO with no
    writer would wait at open() forever) and checked on the open descriptor, so the file checked is the one
    read; read to at most ``max_bytes + 1`` bytes whatever its size claims (a file may grow while read)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise ValueError("is a directory")
        if not stat.S_ISREG(st.st_mode):
            kind = "a named pipe" if stat.S_ISFIFO(st.st_mode) else "a device or socket"
            raise ValueError(f"not a regular file ({kind}): not read")
        if st.st_size > max_bytes:
            raise ValueError(f"{st.st_size:,} bytes, more than the {max_bytes:,} a config file may hold")
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 16, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:
            raise ValueError(f"more than the {max_bytes:,} bytes a config file may hold")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_config(path: str) -> dict:
    """The checked config of the TOML file at ``path``; ValueError (one line) or OSError when it cannot be used."""
    try:
        import tomllib as toml
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        try:
            import tomli as toml  # type: ignore[no-redef]
        except ModuleNotFoundError as e:
            raise ValueError("reading a TOML config needs Python 3.11+ or the 'tomli' package") from e
    data = read_small_file(path, MAX_CONFIG_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f"not UTF-8 text (byte {e.start})") from None
    try:
        config = toml.loads(text)
    except toml.TOMLDecodeError as e:
        raise ValueError(str(e)) from None
    except RecursionError:  # arrays nested thousands deep: the parser recurses per level
        raise ValueError("values nested too deeply") from None
    check_config(config)
    return config


def _kind(v: Any) -> str:
    names = {bool: "true/false", str: "a string", int: "an integer", float: "a number", list: "an array",
             dict: "a table"}
    return next((n for t, n in names.items() if isinstance(v, t)), type(v).__name__)


def _number(where: str, v: Any, positive: bool = False) -> None:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        shown = repr(v) if isinstance(v, str) and len(v) <= 40 else ""
        raise ValueError(f"{where}: expected a number, got {_kind(v)}" + (f" ({shown})" if shown else ""))
    if not math.isfinite(v) or v < 0 or (positive and v == 0):
        raise ValueError(f"{where}: expected a {'positive' if positive else 'non-negative'} finite number, got {v}")


def _table(where: str, v: Any) -> dict:
    if not isinstance(v, dict):
        raise ValueError(f"{where}: expected a table ([{where.strip('[]')}]), got {_kind(v)}")
    return v


def check_config(config: dict) -> None:
    """ValueError naming the first key whose name or value the rules cannot use."""
    from .ledger.scale import SEVERITY_AAS, SEVERITY_THRESHOLDS
    from .rules import RULES

    unknown = sorted(set(config) - set(_TOP))
    if unknown:
        raise ValueError(f"unknown setting(s) {', '.join(unknown)} (known: {', '.join(_TOP)})")
    if "redo_on_flash" in config and not isinstance(config["redo_on_flash"], bool):
        raise ValueError(f"redo_on_flash: expected true or false, got {_kind(config['redo_on_flash'])}")
    metrics = _table("[metrics]", config.get("metrics", {}))
    for k, v in metrics.items():
        if k != "alpha":
            raise ValueError(f"[metrics] {k}: unknown setting (known: alpha)")
        _number("[metrics] alpha", v, positive=True)
    severity = _table("[severity]", config.get("severity", {}))
    known = {**SEVERITY_THRESHOLDS, **SEVERITY_AAS}
    for k, v in severity.items():
        if k not in known:
            raise ValueError(f"[severity] {k}: unknown threshold (known: {', '.join(known)})")
        _number(f"[severity] {k}", v)
    by_slug = {r.slug: r for r in RULES.values()}
    for name, table in _table("[rules]", config.get("rules", {})).items():
        rule = RULES.get(name) or by_slug.get(name)
        if rule is None:
            raise ValueError(f"[rules.{name}]: no such rule (`awrscope rules` lists them)")
        for k, v in _table(f"[rules.{name}]", table).items():
            if k == "enabled":
                if not isinstance(v, bool):
                    raise ValueError(f"[rules.{name}] enabled: expected true or false, got {_kind(v)}")
            elif k in rule.thresholds:
                _number(f"[rules.{name}] {k}", v)
            # an unknown threshold is named by the rule engine, with all the others of that rule at once
