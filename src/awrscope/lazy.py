"""Package names resolved on first use (PEP 562), so that registering the commands at start-up loads nothing
heavy: `awrscope --help` imports no parser, store or redactor."""
from __future__ import annotations

import importlib
from typing import Any, Callable


def lazy_exports(package: str, where: dict[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: ``name`` is imported from its submodule ``where[name]`` when
    first asked for, then kept in the package's ``namespace``."""
    def __getattr__(name: str) -> Any:
        sub = where.get(name)
        if sub is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{sub}"), name)
        namespace[name] = value
        return value

    return __getattr__
