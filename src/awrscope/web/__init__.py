"""The awrscope web app: ``create_app(db_url, token=...)`` (FastAPI), served by ``awrscope serve``."""
from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
