"""Renderers: an Analysis (or compare/trend document) to text, Markdown, JSON or one HTML page.

Pure string building from the JSON-ready documents. ``render.html`` (Jinja2) is imported only
by the commands that write HTML, so the text path never pays for it.
"""
from __future__ import annotations

from .json import to_json
from .markdown import compare_markdown, render_markdown, trend_markdown
from .numbers import fmt_num
from .text import compare_text, fleet_text, render_text, trend_text

__all__ = ["render_text", "render_markdown", "compare_text", "compare_markdown", "trend_text", "trend_markdown",
           "fleet_text", "to_json", "fmt_num"]
