"""Renderers: an Analysis (or compare/trend document) to text, Markdown, JSON or one HTML page.

Pure string building from the JSON-ready documents. The names below load on first use (PEP 562),
so a command pays only for the renderer it prints with, and ``render.html`` (Jinja2) only when it
writes HTML: ``import awrscope.render.json`` stays as cheap as the CLI's start-up needs.
"""
from __future__ import annotations

import importlib

_WHERE = {"to_json": "json", "fmt_num": "numbers",
          "render_markdown": "markdown", "compare_markdown": "markdown", "trend_markdown": "markdown",
          "render_text": "text", "compare_text": "text", "trend_text": "text", "fleet_text": "text"}

__all__ = sorted(_WHERE)


def __getattr__(name: str):
    if name in _WHERE:
        return getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
