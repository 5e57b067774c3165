"""``awrscope redact``: a report in its own format with its identifiers replaced by stable pseudonyms
(docs/redact.md). The names resolve on first use, so that registering the command loads nothing heavy."""
from __future__ import annotations

_NAMES = {"Redactor": "core", "Redacted": "core", "KEEP_CHOICES": "core", "keep_word": "core",
          "load_key": "pseudonym"}


def __getattr__(name: str):
    mod = _NAMES.get(name)
    if mod is None:
        raise AttributeError(name)
    import importlib

    return getattr(importlib.import_module(f"{__name__}.{mod}"), name)


__all__ = list(_NAMES)
