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


def test_cli_import_does_not_load_the_parsers_or_the_store():
    """Issue 20 (start-up): `awrscope --help` registers every command without loading the model, the parsers,
    the store or a process pool: the size limits live in awrscope.limits, the packages resolve names lazily."""
    code = ("import sys, awrscope.cli; print(','.join(m for m in ('awrscope.model', 'awrscope.parsers', "
            "'awrscope.store.store', 'awrscope.store.backend', 'concurrent.futures.process') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""
