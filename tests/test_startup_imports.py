"""Every CLI run pays the imports of awrscope.cli: the web framework, the HTML
templates and the database driver must load only when a command needs them."""
from __future__ import annotations

import subprocess
import sys


def test_cli_import_does_not_load_heavy_modules():
    code = ("import sys, awrscope.cli; "
            "print(','.join(m for m in ('fastapi', 'uvicorn', 'jinja2', 'psycopg') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_cli_import_does_not_load_the_analysis():
    """Parsing, metrics, rules and the renderers load when a command runs, not for `awrscope --help`
    (the render package resolves its names on first use)."""
    code = ("import sys, awrscope.cli; print(','.join(m for m in sys.modules if m.startswith(("
            "'awrscope.rules', 'awrscope.metrics', 'awrscope.compare', 'awrscope.parsers.report', 'awrscope.render.text'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
