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
            "'awrscope.rules', 'awrscope.metrics', 'awrscope.change.compare', 'awrscope.parsers.report', 'awrscope.render.text'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_cli_import_does_not_load_the_parsers_or_the_store():
    """Issue 20 (start-up): `awrscope --help` registers every command without loading the model, the parsers,
    the store or a process pool: the size limits live in awrscope.limits, the packages resolve names lazily."""
    code = ("import sys, awrscope.cli; print(','.join(m for m in ('awrscope.model', 'awrscope.parsers', "
            "'awrscope.store.store', 'awrscope.store.backend', 'concurrent.futures.process') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == ""


def test_analyze_of_one_report_loads_only_what_it_uses(corpus):
    """Issue 20 (CLI on one report): `analyze` of one file to stdout loads no process pool, no temporary-file
    module, no TOML reader, none of the other commands' modules (store, redaction, web, MCP), no change analysis
    (no --begin/--end was given) and no dataclasses (issue 30: records are msgspec Structs, ~30x cheaper to define);
    no gzip for a plain file, no _strptime (times are read by patterns)."""
    report = str(corpus / "awr_html_10204_radtek_orass1_dbcont03_46333_46339.html")
    code = ("import sys\nbefore = set(sys.modules)  # a site hook may have loaded some already\n"
            "from awrscope.cli import main\n"
            "try:\n    main(['analyze', '--format', 'json', sys.argv[1]])\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write(','.join(m for m in ('concurrent.futures.process', 'tempfile', 'tomllib', "
            "'awrscope.store.commands', 'awrscope.redact.commands', 'awrscope.web.commands', "
            "'awrscope.mcp.commands', 'awrscope.change.compare', 'dataclasses', 'glob', 'gzip', '_strptime', "
            "'awrscope.analysis') "
            "if m in sys.modules and m not in before))")
    err = subprocess.run([sys.executable, "-c", code, report], capture_output=True, text=True, check=True).stderr
    assert err.strip() == "awrscope.analysis"  # the analysis ran; nothing else on the list loaded
