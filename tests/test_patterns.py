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
