"""``awrscope redact``: a report in its own format with its identifiers replaced by stable pseudonyms
(docs/redact.md). The names resolve on first use, so that registering the command loads nothing heavy."""
from __future__ import annotations

from ..lazy import lazy_exports

_NAMES = {"Redactor": "core", "Redacted": "core", "KEEP_CHOICES": "core", "keep_word": "core",
          "load_key": "pseudonym"}


__getattr__ = lazy_exports(__name__, _NAMES, globals())
__all__ = list(_NAMES)
