"""Input handling and bad input through the real CLI: exit codes, one-line errors, no tracebacks."""
from __future__ import annotations

import gzip
import json
import os
import stat
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    src = str(Path(__file__).resolve().parents[1] / "src")
    env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "awrscope", *args], input=stdin, capture_output=True, env=env)


def one_line_error(p: subprocess.CompletedProcess) -> str:
    err = p.stderr.decode()
    assert "Traceback" not in err
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1, err
    return lines[0]


@pytest.fixture
def report_text() -> str:
    return (FIXTURES / "mini_awr_11204.txt").read_text()


def test_parse_fixture_header(report_text, tmp_path):
    p = run("parse", str(FIXTURES / "mini_awr_11204.txt"))
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    r = doc["report"]
    assert r["db_name"] == "DEMO" and r["dbid"] == 1234567890
    assert r["version"] == "11.2.0.4.0" and r["instance_names"] == ["DEMO1"]
    assert r["begin"]["snap_id"] == 100 and r["end"]["snap_id"] == 101
    assert r["begin"]["time"] == "2021-02-01 10:00:00"
    assert r["elapsed_s"] == pytest.approx(3600.0)
    assert r["db_time_s"] == pytest.approx(7200.0)  # Time Model 'DB time' (7,200.0 s)
    assert doc["source"]["bytes"] == len((FIXTURES / "mini_awr_11204.txt").read_bytes())


@pytest.mark.parametrize("content,needle", [
    (b"", "empty"),
    (bytes(range(256)) * 40, "binary"),
    (b"just some notes about the database\nnothing else\n", "not an AWR or Statspack report"),
])
def test_unusable_input_exits_2_with_one_line(tmp_path, content, needle):
    f = tmp_path / "input.txt"
    f.write_bytes(content)
    p = run("parse", str(f))
    assert p.returncode == 2
    assert needle in one_line_error(p)
    assert p.stdout == b""


def test_a_sql_trace_given_to_analyze_points_to_awrscope_trace(tmp_path):
    """Issue 41: `awrscope analyze x.trc` said "not an AWR or Statspack report". A real 12.2 extended SQL trace
    (its first records: 'WAIT #140176600483248: nam='SQL*Net message to client' ela= 1 ...') is named as one, with
    the command that reads it, in one line and with an exit code of its own (4), also under a name a shell must
    quote; beside a report that is analysed, the exit code is still 4; in a directory it is skipped."""
    trace = FIXTURES / "trace" / "js122a1_ora_9854.trc"
    odd = tmp_path / "my trace.trc"
    odd.write_bytes(trace.read_bytes())
    for command in ("analyze", "parse", "trend"):
        p = run(command, str(trace))
        assert p.returncode == 4, (command, p.stderr)
        line = one_line_error(p)
        assert "an Oracle SQL trace file" in line and f"read it with `awrscope trace {trace}`" in line
    p = run("analyze", str(odd))
    assert p.returncode == 4 and f"`awrscope trace '{odd}'`" in one_line_error(p)
    p = run("analyze", str(trace), str(FIXTURES / "mini_awr_11204.txt"))
    assert p.returncode == 4 and b"DEMO" in p.stdout
    p = run("parse", "--format", "text", str(FIXTURES / "trace"), str(FIXTURES / "mini_awr_11204.txt"))
    assert p.returncode == 0 and "SQL trace: see awrscope trace" in p.stderr.decode()
    # not every file without a report header is a trace
    notes = tmp_path / "notes.txt"
    notes.write_text("EXEC dbms_stats.gather_table_stats\nWAIT for it\n")
    assert run("analyze", str(notes)).returncode == 2


def test_missing_file(tmp_path):
    p = run("parse", str(tmp_path / "nope.txt"))
    assert p.returncode == 2
    assert "no such file" in one_line_error(p)


def test_truncated_report_is_partial_with_warning(tmp_path, report_text):
    f = tmp_path / "cut.txt"
    f.write_text(report_text[: len(report_text) // 3])
    p = run("parse", str(f))
    assert p.returncode == 0
    doc = json.loads(p.stdout)
    assert doc["report"]["db_name"] == "DEMO"
    assert any("truncated" in i["message"] for i in doc["issues"])


def test_restart_between_snapshots_is_flagged(tmp_path, report_text):
    f = tmp_path / "restart.txt"
    f.write_text(report_text.replace("Load Profile", "***  RESULTS ARE INVALID  ***\n\nLoad Profile", 1))
    doc = json.loads(run("parse", str(f)).stdout)
    assert any(i["level"] == "error" and "restarted" in i["message"] for i in doc["issues"])


def test_one_bad_file_does_not_stop_the_others(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("not a report\n")
    p = run("parse", str(bad), str(FIXTURES / "mini_awr_11204.txt"))
    assert p.returncode == 2  # some input was unusable
    docs = json.loads(p.stdout)
    assert [("error" in d) for d in docs] == [True, False]
    assert docs[1]["report"]["db_name"] == "DEMO"


def test_gzip_zip_stdin_crlf_latin1(tmp_path, report_text):
    gz = tmp_path / "r.txt.gz"
    gz.write_bytes(gzip.compress(report_text.encode()))
    zp = tmp_path / "r.zip"
    with zipfile.ZipFile(zp, "w") as z:
        z.writestr("a.txt", report_text)
        z.writestr("b.txt", report_text.replace("\n", "\r\n"))
    latin = tmp_path / "latin.txt"
    latin.write_bytes(report_text.replace("dbhost01", "dbh\u00f3st01").replace("\n", "\r\n").encode("latin-1"))
    for args, expect in [((str(gz),), 1), ((str(zp),), 2), ((str(latin),), 1)]:
        p = run("parse", *args)
        assert p.returncode == 0, p.stderr
        doc = json.loads(p.stdout)
        docs = doc if isinstance(doc, list) else [doc]
        assert len(docs) == expect
        assert all(d["report"]["elapsed_s"] == pytest.approx(3600.0) for d in docs)
    assert json.loads(run("parse", str(latin)).stdout)["report"]["host"] == "dbh\u00f3st01"
    p = run("parse", "-", stdin=report_text.encode())
    assert json.loads(p.stdout)["source"]["path"] == "<stdin>"


def test_directory_and_glob(tmp_path, report_text):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "one.txt").write_text(report_text)
    (tmp_path / "a" / "two.lst").write_text(report_text)
    p = run("parse", str(tmp_path / "a"))
    assert len(json.loads(p.stdout)) == 2
    p = run("parse", str(tmp_path / "a" / "*.txt"))
    assert json.loads(p.stdout)["report"]["db_name"] == "DEMO"


def test_sqlplus_output_artefacts_are_dropped(tmp_path, report_text):
    # AWR_REPORT_TEXT spooled without SET HEADING OFF repeats 'OUTPUT' + dashes, even inside tables
    noisy = report_text.replace("log file sync", "OUTPUT\n" + "-" * 80 + "\nlog file sync", 1)
    f = tmp_path / "noisy.txt"
    f.write_text("OUTPUT\n" + "-" * 80 + "\n" + noisy)
    doc = json.loads(run("parse", str(f)).stdout)
    assert doc["report"]["db_name"] == "DEMO"
    assert doc["report"]["elapsed_s"] == pytest.approx(3600.0)


def test_gzip_bomb_refused(tmp_path):
    f = tmp_path / "bomb.txt.gz"
    f.write_bytes(gzip.compress(b"A" * (3 * 1024 * 1024)))
    p = run("parse", "--max-size", "1", str(f))
    assert p.returncode == 2
    assert "--max-size" in one_line_error(p)


def test_addm_recognised_not_analysed(tmp_path):
    f = tmp_path / "addm.txt"
    f.write_text("          ADDM Report for Task 'TASK_23'\n          ------\n")
    p = run("parse", str(f))
    assert p.returncode == 2
    assert "ADDM" in one_line_error(p)


def test_text_summary(report_text):
    p = run("parse", "--format", "text", str(FIXTURES / "mini_awr_11204.txt"))
    out = p.stdout.decode()
    assert "kind: awr (text), version 11.2.0.4.0" in out
    assert "load_profile" in out


def test_output_never_overwrites_an_input(tmp_path):
    """`analyze in.txt -o in.txt` used to replace a report by its analysis (exit 0); also through a link."""
    from click.testing import CliRunner

    from awrscope.cli import main

    src = Path(__file__).parent.parent / "examples" / "ault_fig4_awr_disk.txt"
    report = tmp_path / "in.txt"
    report.write_bytes(src.read_bytes())
    link = tmp_path / "link.txt"
    link.symlink_to(report)
    before = report.read_bytes()
    for args in (["analyze", str(report), "-o", str(report)], ["analyze", str(report), "-o", str(link)],
                 ["parse", str(report), "-o", str(report)], ["compare", str(report), str(src), "-o", str(report)],
                 ["trend", str(report), "-o", str(link)]):
        res = CliRunner().invoke(main, args)
        assert res.exit_code == 2 and "refusing to write over a report" in res.output, args
        assert report.read_bytes() == before
    out = tmp_path / "a.json"
    assert CliRunner().invoke(main, ["analyze", str(report), "-o", str(out)]).exit_code == 0
    assert out.read_text().startswith("{") and not list(tmp_path.glob(".awrscope-*"))  # written whole, no temp left


def test_devices_pipes_links_and_unwritable_outputs(tmp_path, report_text):
    """Issue 16 items 5, 7 and 8: a device is refused (never read until memory runs out), a named pipe
    is read as a bounded stream, a symbolic link loop inside a directory is one error line while the
    good report is still analysed, and -o into a missing directory is one line, exit 2."""
    p = run("analyze", "--max-size", "1", "/dev/zero")
    assert p.returncode == 2 and "not a regular file" in one_line_error(p)
    d = tmp_path / "d"
    d.mkdir()
    (d / "good.txt").write_text(report_text)
    os.symlink(tmp_path / "loopB", tmp_path / "loopA")
    os.symlink(tmp_path / "loopA", tmp_path / "loopB")
    os.symlink(tmp_path / "loopA", d / "loop.txt")
    p = run("analyze", "--format", "json", str(d))
    assert p.returncode == 2 and "loop.txt: cannot be read (Too many levels of symbolic links)" in one_line_error(p)
    assert json.loads(p.stdout)["report"]["db_name"]  # the good report was analysed
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"cat '{FIXTURES / 'mini_awr_11204.txt'}' > '{fifo}'"])
    p = run("parse", "--format", "json", str(fifo))
    writer.wait(timeout=30)
    assert p.returncode == 0 and json.loads(p.stdout)["report"]["kind"] == "awr"
    p = run("analyze", str(d / "good.txt"), "-o", str(tmp_path / "missing" / "out.txt"))
    assert p.returncode == 2 and "cannot write" in one_line_error(p)


def test_output_into_a_pipe_or_through_a_link_replaces_neither(tmp_path):
    """-o onto a device or a pipe writes into it: the atomic rename over the output replaced /dev/null with a
    regular file (as root, for every process on the machine). Tested on a FIFO, never on /dev/null. -o onto a
    symbolic link writes through it (as the shell's > does) and keeps the link; -o /dev/stdout writes to the
    descriptor, so a file stdout appends to keeps what it held."""
    report = str(FIXTURES / "mini_awr_11204.txt")
    fifo = tmp_path / "out.pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    p = run("analyze", "--format", "json", report, "-o", str(fifo))
    got, _ = reader.communicate(timeout=60)
    assert p.returncode == 0, p.stderr
    assert json.loads(got)["report"]["kind"] == "awr"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the pipe
    (tmp_path / "real.json").write_text("old")
    os.symlink(tmp_path / "real.json", tmp_path / "link.json")
    p = run("analyze", "--format", "json", report, "-o", str(tmp_path / "link.json"))
    assert p.returncode == 0, p.stderr
    assert os.path.islink(tmp_path / "link.json")
    assert json.loads((tmp_path / "real.json").read_text())["report"]["kind"] == "awr"
    # -o /dev/stdout while stdout appends to a file: written to the descriptor, the file is not reopened
    log = tmp_path / "log.txt"
    log.write_text("previous line\n")
    with open(log, "ab") as out:
        env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1] / "src"))
        p = subprocess.run([sys.executable, "-m", "awrscope", "analyze", "--format", "json", report, "-o", "/dev/stdout"],
                           stdout=out, stderr=subprocess.PIPE, env=env)
    assert p.returncode == 0, p.stderr
    head, rest = log.read_text().split("\n", 1)
    assert head == "previous line" and json.loads(rest)["report"]["kind"] == "awr"


def test_zip_total_size_is_capped(tmp_path, monkeypatch):
    from awrscope.errors import InputError
    from awrscope.parsers import source
    f = tmp_path / "many.zip"
    with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
        for k in range(3):
            z.writestr(f"r{k}.txt", b"A" * 4000)
    monkeypatch.setattr(source, "ZIP_TOTAL_MAX", 10_000)  # 3 x 4,000 bytes in all: over
    with pytest.raises(InputError, match="12.0 kB|decompress to"):
        source.read_sources(str(f), max_bytes=5000)


def test_internal_errors_have_their_own_exit_code(tmp_path, monkeypatch):
    """Issue 16 item 12: a bug exits 3 with one line, never 1 (findings) or 2 (bad input), whether it
    hits one report (the others still analysed) or the command itself."""
    from click.testing import CliRunner

    import awrscope.analysis
    import awrscope.render.text
    from awrscope.cli import main

    report = Path(__file__).parent.parent / "examples" / "ault_fig4_awr_disk.txt"
    assert CliRunner().invoke(main, ["analyze", str(report), "--fail-on", "info"]).exit_code == 1

    def broken(*a, **k):
        raise KeyError("a bug")

    monkeypatch.setattr(awrscope.analysis, "analyze", broken)
    res = CliRunner().invoke(main, ["analyze", "-j", "1", str(report)])
    assert res.exit_code == 3 and "internal error (KeyError: 'a bug'); please report it" in res.output
    monkeypatch.undo()
    monkeypatch.setattr(awrscope.render.text, "render_text", broken)  # analyze imports its format's renderer
    res = CliRunner().invoke(main, ["analyze", str(report)])
    assert res.exit_code == 3 and res.output.strip().splitlines() == [
        "awrscope: analyze: internal error (KeyError: 'a bug'); please report it"]
    missing = CliRunner().invoke(main, ["analyze", str(tmp_path / "nope.txt")])
    assert missing.exit_code == 2


def test_directories_are_read_by_content(tmp_path, report_text):
    """Issue 17: every file in a directory is read by its content, whatever its name (a report named
    awr.txt.128 is analysed); what is not a report is skipped and summed up in one line; a file the
    user names is still an error, naming the file."""
    d = tmp_path / "reports"
    (d / "sub").mkdir(parents=True)
    (d / "awr.txt.128").write_text(report_text)
    (d / "sub" / "night.lst").write_text(report_text.replace("DEMO", "NIGHT"))
    (d / "notes.md").write_text("the reports of last night\n")
    (d / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40)
    (d / "empty.txt").write_bytes(b"")
    (d / ".hidden.txt").write_text(report_text)
    p = run("analyze", "--format", "json", str(d))
    assert p.returncode == 0, p.stderr
    assert sorted(x["report"]["db_name"] for x in json.loads(p.stdout)) == ["DEMO", "NIGHT"]
    assert one_line_error(p) == ("awrscope: skipped 3 files: 1 empty (empty.txt); "
                                 "1 not a report (notes.md); 1 binary (pic.png)")
    p = run("analyze", str(d / "notes.md"))
    assert p.returncode == 2 and one_line_error(p).endswith("notes.md: not an AWR or Statspack report (no report "
                                                            "header found)")
    for name in ("awr.txt.128", "sub/night.lst"):
        (d / name).unlink()
    p = run("trend", str(d))
    assert p.returncode == 2 and "no report found" in p.stderr.decode()


def test_zip_members_one_at_a_time(tmp_path, report_text, monkeypatch):
    """Issue 16 item 6: an archive's members are decompressed as they are used, never all at once, and a
    member that cannot be read is one error while the others still come."""
    from awrscope.errors import AwrscopeError
    from awrscope.parsers import source

    f = tmp_path / "night.zip"
    with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
        for k in range(3):
            z.writestr(f"r{k}.txt", report_text)
        z.writestr("big.txt", "WORKLOAD REPOSITORY report for\n" + " " * (len(report_text) + 10))
    opened: list[str] = []
    real_open = zipfile.ZipFile.open
    monkeypatch.setattr(zipfile.ZipFile, "open", lambda self, info, *a, **k: (
        opened.append(info.filename), real_open(self, info, *a, **k))[1])
    items = source.iter_sources(str(f), max_bytes=len(report_text.encode()) + 5)
    assert opened == []  # nothing decompressed before it is asked for
    first = next(items)
    assert first.name.endswith("night.zip:r0.txt") and first.found and opened == ["r0.txt"]
    rest = list(items)
    assert [x.name.rsplit(":", 1)[1] for x in rest[:2]] == ["r1.txt", "r2.txt"]
    assert isinstance(rest[2], AwrscopeError) and rest[2].source_name.endswith("night.zip:big.txt")
    assert "night.zip:big.txt: 0 MB uncompressed is larger than the limit" in str(rest[2])  # a report's head


def test_output_says_what_it_wrote_and_refuses_foreign_formats(tmp_path):
    """Issue 17: -o says what it wrote; -o x.pdf is refused with a way to get a PDF, never text in a .pdf."""
    report = str(Path(__file__).parent.parent / "examples" / "ault_fig4_awr_disk.txt")
    out = tmp_path / "a.md"
    p = run("analyze", report, "-o", str(out))
    size = out.stat().st_size
    assert p.returncode == 0 and one_line_error(p) == f"awrscope: wrote {out} ({size / 1024:,.0f} KiB)"
    assert out.read_text().startswith("# awrscope analysis")
    for name in ("a.pdf", "a.PDF", "b.docx"):
        p = run("analyze", report, "--format", "html", "-o", str(tmp_path / name))
        assert p.returncode == 2 and "awrscope does not write" in one_line_error(p)
        assert not (tmp_path / name).exists()
    assert "print it to PDF from the browser" in one_line_error(run("compare", report, report, "-o", str(tmp_path / "c.pdf")))


def test_an_awr_sql_report_is_named(tmp_path):
    """An AWR SQL report (awrsqrpt.sql, found in a public repository's notes) is not an instance report: it is
    recognised and named, one line, exit 2; in a directory it is summed up among the skipped files."""
    text = ("\nWORKLOAD REPOSITORY SQL Report\n\nSnapshot Period Summary\n\n"
            "DB Name         DB Id    Instance     Inst Num Startup Time    Release     RAC\n"
            "------------ ----------- ------------ -------- --------------- ----------- ---\n"
            "EDUALL         236423250 EDUALL              1 17-Mar-20 10:26 11.2.0.4.0  NO\n")
    f = tmp_path / "sql_test.lst"
    f.write_text(text)
    p = run("analyze", str(f))
    assert p.returncode == 2 and "an AWR SQL report (awrsqrpt.sql" in one_line_error(p)
    (tmp_path / "awr.txt").write_text((FIXTURES / "mini_awr_11204.txt").read_text())
    p = run("analyze", "--format", "json", str(tmp_path))
    assert p.returncode == 0 and "1 awr_sql report (not read) (sql_test.lst)" in p.stderr.decode()


def test_a_name_wider_than_its_header_column(tmp_path):
    """A real 11.2.0.3 RAC report's header (askmaclean.com, published in a public repository's notes): the instance
    name 'askmaclean.com' is wider than its 12-character column, which pushes every later cell right. The
    column cut read the release as '16:49 11.2.0.3.0'; the row is read by its tokens when the release cell is
    not a version: DB MAC, DBID 2629627371, instance askmaclean.com #1, started 22-Jan-13 16:49, 11.2.0.3.0, RAC."""
    from awrscope.parsers import parse_text

    text = ("WORKLOAD REPOSITORY report for\n\n"
            "DB Name         DB Id    Instance     Inst Num Startup Time    Release     RAC\n"
            "------------ ----------- ------------ -------- --------------- ----------- ---\n"
            "MAC           2629627371 askmaclean.com            1 22-Jan-13 16:49 11.2.0.3.0  YES\n\n"
            "              Snap Id      Snap Time      Sessions Curs/Sess\n"
            "            --------- ------------------- -------- ---------\n"
            "Begin Snap:      5853 23-Jan-13 15:00:56     3,520       1.8\n"
            "  End Snap:      5854 23-Jan-13 15:30:41     3,765       1.9\n"
            "   Elapsed:               29.75 (mins)\n   DB Time:            7,633.76 (mins)\n\nEnd of Report\n")
    r = parse_text(text)
    h = r.header
    assert (h.db_name, h.dbid, h.version, h.rac) == ("MAC", 2629627371, "11.2.0.3.0", True)
    assert (h.instances[0].name, h.instances[0].number, str(h.instances[0].startup_time)) == (
        "askmaclean.com", 1, "2013-01-22 16:49:00")
    assert (h.begin.snap_id, h.end.snap_id, r.elapsed_s, round(r.db_time_s, 6)) == (5853, 5854, 1785.0, 458025.6)


def test_utf16_and_utf32_reports_with_a_bom_are_read(tmp_path):
    # issue 28: Windows PowerShell writes UTF-16 with a BOM by default; such reports were refused as binary data
    from click.testing import CliRunner
    from awrscope.cli import main
    text = (Path(__file__).resolve().parents[1] / "examples" / "ault_fig4_awr_disk.txt").read_text(encoding="utf-8")
    for codec in ("utf-16", "utf-32"):
        p = tmp_path / f"{codec}.txt"
        p.write_bytes(text.encode(codec))
        res = CliRunner().invoke(main, ["analyze", "--format", "json", str(p)])
        assert res.exit_code == 0, res.output
        # DB time is the report's own 9,653 s (its SQL section's Total DB Time, agreeing with DB CPU's share), as in UTF-8
        assert '"db_name": "AULTDB"' in res.output and '"db_time_s": 9653.0' in res.output


def test_output_file_mode_follows_the_umask_and_keeps_an_existing_mode(tmp_path):
    # -o is written through a private temporary file; the result must be what '>' makes: 0666 less the umask
    # for a new file (a report analysis holds no secret), the old mode for a file that exists
    from click.testing import CliRunner
    from conftest import SEEDS
    from awrscope.cli import main
    src = str(SEEDS / "ault_fig4_awr_disk.txt")
    old = os.umask(0o022)
    try:
        new = tmp_path / "a.txt"
        assert CliRunner().invoke(main, ["analyze", "-o", str(new), src]).exit_code == 0
        assert stat.S_IMODE(os.stat(new).st_mode) == 0o644
        os.umask(0o077)
        kept = tmp_path / "b.txt"
        kept.write_text("x")
        os.chmod(kept, 0o640)
        assert CliRunner().invoke(main, ["analyze", "-o", str(kept), src]).exit_code == 0
        assert stat.S_IMODE(os.stat(kept).st_mode) == 0o640
        other = tmp_path / "c.txt"
        assert CliRunner().invoke(main, ["analyze", "-o", str(other), src]).exit_code == 0
        assert stat.S_IMODE(os.stat(other).st_mode) == 0o600
    finally:
        os.umask(old)


def test_a_report_without_a_database_name_says_so_without_none(corpus, tmp_path):
    """A STATSPACK report may print its Database column blank (antognini's 11.2.0.3 report, line 6; a 12.1.0.2
    'TESTING' header in a study note): where no section title names the database either ('DB/Inst: X/Y'), the
    text, Markdown and parse summaries said 'db None'. The report cut after its header has no title left."""
    text = (corpus / "statspack_txt_11203_antognini_top2_1830_1845.txt").read_text(errors="replace")
    cut = tmp_path / "header_only.txt"
    cut.write_text(text[:text.index("Load Profile")])
    from click.testing import CliRunner

    from awrscope.cli import main

    for args, says in ((["analyze", str(cut)], "  db ?  "), (["analyze", "--format", "markdown", str(cut)], "db **?**"),
                       (["parse", "--format", "text", str(cut)], "database: ? (DBID 2532911053)")):
        out = CliRunner().invoke(main, args).output
        assert says in out and "None" not in out, (args, out[:500])
