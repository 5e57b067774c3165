"""The awrscope web app: ``create_app(db_url, token=...)`` (FastAPI), served by ``awrscope serve``.

FastAPI is imported on first use only, so that every other CLI command starts fast."""
from __future__ import annotations

__all__ = ["create_app"]


def __getattr__(name: str):
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(name)
