"""Issue 30: patterns compiled once per machine (awrscope.patterns). What the cache hands the regular-expression
engine must be what ``re.compile`` would have made, and a missing, damaged or unwritable cache must only cost
time, never change a result."""
from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys

from array import array

from awrscope import patterns

REPORT = "awr_html_10204_radtek_orass1_dbcont03_46333_46339.html"
TEXT_REPORT = "awr_txt_11203_antognini_top2_1830_1845.txt"


def _analyze(path, cache_dir=None, disabled=False, command=("analyze", "--format", "json")) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "AWRSCOPE_CACHE"}
    if cache_dir is not None:
        env["XDG_CACHE_HOME"] = str(cache_dir)
    if disabled:
        env["AWRSCOPE_CACHE"] = "0"
    return subprocess.run([sys.executable, "-m", "awrscope", *command, str(path)],
                          capture_output=True, text=True, env=env, timeout=120)


def _cache_files(cache_home):
    return sorted((cache_home / "awrscope" / "patterns").glob("python*.marshal"))


def test_every_cached_pattern_is_the_one_re_compile_makes(corpus, tmp_path):
    """Run on an HTML and a text report (detection, both readers, the section mappers, the rules): every
    entry written equals ``re.compile`` of its pattern, code words included (``Pattern.__eq__``)."""
    for name in (REPORT, TEXT_REPORT):
        assert _analyze(corpus / name, tmp_path).returncode == 0
    [cache] = _cache_files(tmp_path)
    entries = marshal.loads(cache.read_bytes())
    assert len(entries) > 200  # the project's patterns, not a handful
    for (kind, pattern, flags), entry in entries.items():
        assert kind == ("s" if isinstance(pattern, str) else "b")
        assert patterns._made(pattern, entry) == re.compile(pattern, flags), pattern


def test_a_run_from_the_cache_gives_what_a_run_without_it_gives(corpus, tmp_path):
    report = corpus / REPORT
    without = _analyze(report, disabled=True)
    first = _analyze(report, tmp_path)  # writes the cache
    second = _analyze(report, tmp_path)  # reads it
    assert without.returncode == first.returncode == second.returncode == 0
    assert first.stdout == without.stdout and second.stdout == without.stdout
    assert len(_cache_files(tmp_path)) == 1


def test_a_damaged_cache_only_costs_time(corpus, tmp_path):
    """Garbage, a cut file, and entries the engine refuses (code words that are not valid): the run falls
    back to re.compile and its output is unchanged."""
    report = corpus / REPORT
    expected = _analyze(report, disabled=True).stdout
    assert _analyze(report, tmp_path).returncode == 0
    [cache] = _cache_files(tmp_path)
    good = cache.read_bytes()
    entries = marshal.loads(good)
    refused = {key: (entry[0], array("I", [99999] * (len(entry[1]) // 4)).tobytes(), *entry[2:])
               for key, entry in entries.items()}
    for damaged in (b"\x00garbage" * 100, good[: len(good) // 2], marshal.dumps(refused), marshal.dumps([1, 2])):
        cache.write_bytes(damaged)
        run = _analyze(report, tmp_path)
        assert run.returncode == 0, run.stderr
        assert run.stdout == expected
        assert "Traceback" not in run.stderr


def test_an_unwritable_cache_directory_is_not_used(corpus, tmp_path):
    """A cache that can never be kept is not filled: the run compiles with re.compile and writes nothing."""
    blocked = tmp_path / "file"
    blocked.write_text("not a directory")
    run = _analyze(corpus / REPORT, blocked)
    assert run.returncode == 0 and run.stdout == _analyze(corpus / REPORT, disabled=True).stdout
    assert blocked.read_text() == "not a directory"


def test_the_cache_holds_no_report_content(corpus, tmp_path):
    """Redaction builds patterns of the report's own names: they must not reach the file that outlives the run."""
    report = corpus / REPORT
    out = tmp_path / "out"
    out.mkdir()
    env_home = tmp_path / "cache"
    run = subprocess.run([sys.executable, "-m", "awrscope", "redact", str(report), "-o", str(out)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path,
                         env={**os.environ, "XDG_CACHE_HOME": str(env_home), "XDG_DATA_HOME": str(tmp_path / "data")})
    assert run.returncode == 0, run.stderr
    [cache] = _cache_files(env_home)
    data = cache.read_bytes()
    for name in (b"ORASS1", b"dbcont03", b"orass1", b"DBCONT03"):  # the database and instance it names
        assert name in report.read_bytes() and name not in data


def test_the_cache_does_not_grow_from_run_to_run(corpus, tmp_path):
    """Every pattern must be the same text at every run: one made of a set's words in the set's order (which
    changes with the hash seed) was a new entry each time, and the file grew to 1,104 entries and 2.2 MB. Two
    runs under different hash seeds over a text and an HTML report: the second adds nothing."""
    def run(seed):
        for name in (REPORT, TEXT_REPORT):
            env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONHASHSEED": seed}
            env.pop("AWRSCOPE_CACHE", None)
            done = subprocess.run([sys.executable, "-m", "awrscope", "analyze", "--format", "json", str(corpus / name)],
                                  capture_output=True, env=env, timeout=120)
            assert done.returncode == 0
        [cache] = _cache_files(tmp_path)
        return set(marshal.loads(cache.read_bytes()))
    first = run("1")
    assert run("2") == first and run("3") == first


_RECORD_PATTERNS = r"""
import importlib, pkgutil, re, sys
seen = set()
_compile = re._compile
def _recording(pattern, flags):
    if isinstance(pattern, (str, bytes)):
        seen.add((pattern, int(flags)))
    return _compile(pattern, flags)
re._compile = _recording
import awrscope
for info in pkgutil.walk_packages(awrscope.__path__, "awrscope."):
    if info.name.endswith("__main__"):  # runs the command line
        continue
    try:
        importlib.import_module(info.name)
    except ImportError:  # an optional extra not installed
        pass
from awrscope.cli import main
for path in sys.argv[1:]:
    try:
        main(["trace" if path.endswith(".trc") else "analyze", "--format", "json", path])
    except SystemExit:
        pass
sys.stdout = sys.__stdout__
print(repr(sorted(seen, key=repr)))
"""

_ONE_CHARACTER = {"LITERAL", "NOT_LITERAL", "IN", "ANY", "CATEGORY"}


def _possessive_repeats_that_backtrack(tree) -> list:
    """POSSESSIVE_REPEAT nodes of a parsed pattern whose repeated item is more than one character class:
    the ones CPython before 3.11.5 matched wrongly (gh-106052)."""
    from re import _parser
    found = []
    for op, av in tree:
        name = str(op)
        if name == "POSSESSIVE_REPEAT":
            item = av[2]
            if not (len(item) == 1 and str(item[0][0]) in _ONE_CHARACTER):
                found.append(av)
        children = []
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            children = [av[2]]
        elif name == "SUBPATTERN":
            children = [av[-1]]
        elif name in ("ATOMIC_GROUP",):
            children = [av]
        elif name == "BRANCH":
            children = av[1]
        elif name in ("ASSERT", "ASSERT_NOT"):
            children = [av[1]]
        elif name == "GROUPREF_EXISTS":
            children = [c for c in av[1:] if c is not None]
        for child in children:
            found.extend(_possessive_repeats_that_backtrack(child if isinstance(child, (list, _parser.SubPattern))
                                                            else [child]))
    return found


def test_no_pattern_depends_on_the_interpreter_patch_release(corpus, tmp_path):
    """Issue 41: a possessive repeat of a subpattern that can backtrack ('(?:a|"b"){0,256}+') matched under
    CPython 3.11.0-3.11.4 where the greedy repeat does not (gh-106052): the HTML cutter found a cell in
    '<td\xa0=">' under Debian's 3.11.2 and none under 3.11.7. Every pattern awrscope compiles, on importing
    each module and analysing an HTML report, a text report and a trace, writes such a repeat as an atomic
    group around a greedy one, which every 3.11 matches alike."""
    from re import _parser
    trace = os.path.join(os.path.dirname(__file__), "fixtures", "trace", "js122a1_ora_9854.trc")
    run = subprocess.run([sys.executable, "-c", _RECORD_PATTERNS, str(corpus / REPORT), str(corpus / TEXT_REPORT), trace],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "AWRSCOPE_CACHE": "0"})
    assert run.returncode == 0, run.stderr[-2000:]
    import ast
    seen = ast.literal_eval(run.stdout.strip().splitlines()[-1])
    assert len(seen) > 300
    bad = [p for p, flags in seen if _possessive_repeats_that_backtrack(_parser.parse(p, flags))]
    assert bad == []
    assert _possessive_repeats_that_backtrack(_parser.parse(r"""((?:[^<>"']++|"[^"]*+"){0,256}+)>"""))
    assert not _possessive_repeats_that_backtrack(_parser.parse(r"""((?>(?:[^<>"']++|"[^"]*+"){0,256}))>"""))


def test_a_tag_cut_off_inside_a_quoted_value_is_no_cell():
    """The case that told the interpreters apart: '<td' + no-break space + '=">' has no end to its quoted
    value, so it is no tag; the Python cutter and the compiled one both find no row."""
    from awrscope.parsers.report.html import cells, tables
    for own in ('<td\xa0=">', '<td =">', '<tr><td\xa0=">'):
        assert tables._CELL.search(own) is None and cells._TAG.search(own, own.find("<td")) is None
        budget = tables._Budget(0, [])
        budget.rows = budget.total_rows = 5
        budget.cells = 10
        assert tables._cut_rows(own, 1, False, False, budget) == ([], [])
