"""What the machine refuses is said in one line with exit 2, never exit 3 "internal error ... please report it"
(issue 28): files named by options that are devices, FIFOs or huge; wrong-typed config values; a full disk, a
read-only directory, stdout on /dev/full or a closed pipe; filters of 50,000+ characters; a NUL in a name.

Every run is a real `python -m awrscope` process under a memory cap (RLIMIT_AS) and a timeout: a reader that
does not bound itself fails here by MemoryError or by the timeout, not by filling the test machine.

The full disk is a 1 MiB tmpfs when this process may mount one (root); otherwise the run is held to a file
size (RLIMIT_FSIZE, SIGXFSZ ignored), which makes every write past it fail with EFBIG as a full disk would
(the read-only cases need the mount and are skipped without it).
"""
from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(REPO / "src"), "AWRSCOPE_DEBUG": ""}
AWR = CORPUS / "awr_txt_10204_radtek_oradb1_base01_54977_54986.txt"
HTML = CORPUS / "awr_html_11203_antognini_top2_1830_1845.html"
MEMORY = 1 << 30  # far above what one report needs, far below what /dev/zero read whole would take
RUN_S = 120


def _limits(fsize: int | None = None):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
        if fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return apply


def run(*args: str, fsize: int | None = None, cwd: Path | None = None, stdout=subprocess.PIPE,
        timeout: float = RUN_S) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "awrscope", *args], stdout=stdout, stderr=subprocess.PIPE,
                          env=ENV, cwd=cwd or REPO, timeout=timeout, preexec_fn=_limits(fsize), check=False)


def refused(p: subprocess.CompletedProcess, *words: str) -> str:
    """Exit 2 with the cause said in one line (the last of stderr), no traceback, no 'please report it'."""
    err = p.stderr.decode(errors="replace")
    assert p.returncode == 2, (p.returncode, err[-2000:])
    assert "internal error" not in err and "Traceback" not in err, err[-2000:]
    last = err.strip().splitlines()[-1]
    assert last.startswith("awrscope:") or " failed" in last, last
    for w in words:
        assert w in err, (w, err[-2000:])
    return err


@pytest.fixture(autouse=True)
def _corpus(corpus):  # every test reads corpus reports
    return corpus


# -- files named by options: bounded, never a device or a pipe --------------------------------------------------

@pytest.fixture
def fifo(tmp_path) -> str:
    path = tmp_path / "fifo.toml"
    os.mkfifo(path)  # no writer ever comes: opening it for reading blocks unless the reader is careful
    return str(path)


@pytest.fixture
def huge(tmp_path) -> str:
    path = tmp_path / "huge.toml"
    with open(path, "wb") as fh:  # sparse: 8 GiB claimed, nothing on disk
        fh.truncate(8 << 30)
    return str(path)


@pytest.mark.parametrize("which", ["/dev/zero", "/dev/full", "fifo", "huge", "deep"])
def test_config_that_is_no_config_file(which, fifo, huge, tmp_path):
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 50_000 + "]" * 50_000 + "\n")  # small, but nested past the parser's stack
    path = {"fifo": fifo, "huge": huge, "deep": str(deep)}.get(which, which)
    for command in (["analyze"], ["trend"], ["compare"], ["db", "import", "--db", str(tmp_path / "s.db")]):
        err = refused(run(*command, "--config", path, str(AWR), timeout=60), path)
        assert len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("toml, says", [
    ('[rules.R01]\nlgwr_ms = "4"\n', "[rules.R01] lgwr_ms: expected a number, got a string ('4')"),
    ("[rules.R01]\nlgwr_ms = true\n", "[rules.R01] lgwr_ms: expected a number, got true/false"),
    ("[rules.R01]\nlgwr_ms = [4]\n", "[rules.R01] lgwr_ms: expected a number, got an array"),
    ("[rules.R01]\nlgwr_ms = nan\n", "[rules.R01] lgwr_ms: expected a non-negative finite number"),
    ("[rules.R16]\nenabled = 0\n", "[rules.R16] enabled: expected true or false"),
    ("rules = 3\n", "[rules]: expected a table"),
    ("[rules]\nR01 = 4\n", "[rules.R01]: expected a table"),
    ("[rules.R99]\nx = 1\n", "[rules.R99]: no such rule"),
    ('redo_on_flash = "yes"\n', "redo_on_flash: expected true or false"),
    ('[metrics]\nalpha = "1.5"\n', "[metrics] alpha: expected a number"),
    ("[metrics]\nalpha = 0\n", "[metrics] alpha: expected a positive finite number"),
    ("[severity]\ncritical = {a = 1}\n", "[severity] critical: expected a number, got a table"),
    ("[severity]\ncritcal = 30\n", "[severity] critcal: unknown threshold"),
    ("[sevrity]\ncritical = 30\n", "unknown setting(s) sevrity"),
    ("x = \xff\n", "not UTF-8"),
])
def test_config_values_are_type_checked(toml, says, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_bytes(toml.encode("utf-8") if "\xff" not in toml else b"x = \xff\n")
    refused(run("analyze", "--config", str(cfg), str(AWR)), says)
    refused(run("db", "import", "-q", "--db", str(tmp_path / "s.db"), "--config", str(cfg), str(AWR)), says)


def test_a_well_typed_config_still_works(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("redo_on_flash = true\n[metrics]\nalpha = 1.5\n[severity]\ncritical = 30\nquiet_aas = 0.1\n"
                   "[rules.R01]\nlgwr_ms = 4\n[rules.redo-write-io-latency]\ntarget_ms = 0.3\n[rules.R16]\n"
                   "enabled = false\n")
    p = run("analyze", "--format", "json", "--config", str(cfg), str(AWR))
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["findings"]


@pytest.mark.parametrize("which", ["/dev/zero", "/dev/full", "huge"])
def test_report_inputs_are_bounded(which, huge):
    path = huge if which == "huge" else which
    refused(run("analyze", path, timeout=60), path)


def test_redact_key_file_that_is_no_key_file(fifo, huge, tmp_path):
    for key in ("/dev/zero", "/dev/full", fifo, huge):
        refused(run("redact", "-o", str(tmp_path / "out"), "--key-file", key, str(AWR), timeout=60), key)


# -- output the machine will not take -----------------------------------------------------------------------

def test_stdout_on_a_full_device():
    with open("/dev/full", "wb") as full:
        err = refused(run("analyze", str(AWR), stdout=full), "No space left on device")
    assert len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("args", [["analyze", str(AWR)], ["analyze", "--format", "html", str(HTML)],
                                  ["parse", str(AWR)], ["trend", str(AWR), str(HTML)], ["rules", "--markdown"]])
def test_a_reader_that_stops_early(args):
    """`awrscope ... | head -1`: the reader closing the pipe ends the run quietly, exit 0."""
    p = subprocess.Popen([sys.executable, "-m", "awrscope", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=ENV, cwd=REPO, preexec_fn=_limits())
    try:
        assert p.stdout.readline()
        p.stdout.close()
        err = p.stderr.read().decode()
        assert p.wait(timeout=RUN_S) == 0, err
    finally:
        if p.poll() is None:
            p.kill()
    assert "Traceback" not in err and "internal error" not in err and "Broken pipe" not in err, err


def _mount(where: Path, options: str) -> bool:
    try:
        return subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True,
                              check=False, timeout=30).returncode == 0
    except OSError:  # no mount command
        return False


@pytest.fixture
def small_disk(tmp_path):
    """(directory, room): ``room(n)`` leaves about n bytes writable there and returns the file size limit to run
    with: None on a 1 MiB tmpfs mounted for the test and filled, else n itself (RLIMIT_FSIZE)."""
    mnt = tmp_path / "small"
    mnt.mkdir()
    mounted = _mount(mnt, "size=1m")

    def room(leave: int) -> int | None:
        if not mounted:
            return leave
        st = os.statvfs(mnt)
        free = st.f_bavail * st.f_frsize
        if free > leave:
            (mnt / "filler").write_bytes(b"\0" * (free - leave))
        return None

    try:
        yield mnt, room
    finally:
        if mounted:
            subprocess.run(["umount", str(mnt)], check=False, timeout=30)


@pytest.fixture
def read_only(tmp_path):
    mnt = tmp_path / "ro"
    mnt.mkdir()
    if not _mount(mnt, "size=1m,ro"):
        pytest.skip("cannot mount a read-only tmpfs here (root only); chmod does not stop root")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", str(mnt)], check=False, timeout=30)


def test_output_on_a_full_disk_leaves_no_partial_file(small_disk):
    folder, room = small_disk
    fsize = room(64 << 10)
    out = folder / "page.html"
    out.write_text("the previous page\n")
    refused(run("analyze", "--format", "html", "-o", str(out), str(HTML), fsize=fsize), "No space left on device"
            if fsize is None else "cannot write")
    assert out.read_text() == "the previous page\n"  # the old output kept whole, not truncated to the new one
    assert not [p.name for p in folder.iterdir() if p.name.startswith(".awrscope")]  # no temporary file left
    new = folder / "new.json"
    refused(run("analyze", "--format", "json", "-o", str(new), str(HTML), str(AWR), fsize=fsize))
    assert not new.exists()


def test_redact_on_a_full_disk_leaves_no_partial_file(small_disk, tmp_path):
    folder, room = small_disk
    fsize = room(64 << 10)
    out = folder / "redacted"
    refused(run("redact", "-o", str(out), "--key-file", str(tmp_path / "k.key"), str(HTML), fsize=fsize))
    left = [(p.name, p.stat().st_size) for p in out.rglob("*") if p.is_file()] if out.exists() else []
    assert all(size > 0 for _, size in left) and not [n for n, _ in left if n.endswith(".html")], left


def test_db_import_on_a_full_disk(small_disk):
    folder, room = small_disk
    fsize = room(1 << 20)
    many = sorted(CORPUS.glob("awr_html_1*.html"))[:40]
    db = folder / "store.db"
    p = run("db", "import", "-q", "-j", "1", "--db", str(db), *map(str, many), fsize=fsize, timeout=600)
    err = refused(p)
    summary = err.strip().splitlines()[-1]
    added = int(summary.split(" added")[0])
    failed = int(summary.split(" already stored, ")[1].split(" failed")[0])
    assert added >= 1 and failed >= 1 and added + failed == len(many), summary
    assert "failed: " in summary and "full" in summary.split("failed: ")[1], summary  # the reason, counted
    # what was stored is whole: the store opens and lists exactly the reports said to be added
    listed = subprocess.run([sys.executable, "-m", "awrscope", "db", "list", "--format", "json", "--db", str(db)],
                            capture_output=True, env=ENV, cwd=REPO, timeout=RUN_S, check=False)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)["total"] == added


def test_db_import_into_a_new_store_on_a_full_disk_leaves_no_file(small_disk):
    folder, room = small_disk
    fsize = room(4 << 10)
    db = folder / "store.db"
    refused(run("db", "import", "-q", "-j", "1", "--db", str(db), str(AWR), fsize=fsize))
    assert not [p.name for p in folder.iterdir() if p.name.startswith("store.db")]


def test_read_only_directories(read_only, tmp_path):
    refused(run("analyze", "-o", str(read_only / "a.txt"), str(AWR)), "Read-only file system")
    refused(run("db", "import", "--db", str(read_only / "s.db"), str(AWR)), "s.db")
    refused(run("redact", "-o", str(read_only / "out"), "--key-file", str(tmp_path / "k.key"), str(AWR)),
            "Read-only file system")
    refused(run("redact", "-o", str(tmp_path / "out"), "--key-file", str(read_only / "k.key"), str(AWR)),
            "Read-only file system")


def test_db_import_goes_on_past_a_failed_input(tmp_path):
    db = str(tmp_path / "s.db")
    good = [str(AWR), str(HTML)]
    bad = [str(tmp_path / "missing.txt"), "/dev/zero", str(REPO / "README.md")]
    err = refused(run("db", "import", "-j", "1", "--db", db, bad[0], good[0], bad[1], good[1], bad[2]))
    summary = err.strip().splitlines()[-1]
    assert summary.startswith("2 added, 0 already stored, 3 failed in "), summary
    assert "; failed: " in summary and "no such file (1)" in summary, summary


# -- arguments no store or parser should see whole -------------------------------------------------------------

@pytest.mark.parametrize("option", ["--database", "--instance", "--finding", "--since", "--until"])
def test_a_filter_of_50000_characters(option, tmp_path):
    db = str(tmp_path / "s.db")
    assert run("db", "import", "-q", "--db", db, str(AWR)).returncode == 0
    value = "x " * 30_000
    err = refused(run("db", "list", "--db", db, option, value), "at most")
    assert len(err) < 500  # the value is not echoed back


def test_a_time_filter_of_50000_characters():
    err = refused(run("trend", "--begin", "2" * 60_000, str(AWR)), "--begin/--end")
    assert len(err) < 500


def test_a_nul_in_a_name():
    """argv cannot carry a NUL: the library entry points (the MCP tools, the web app) can."""
    from awrscope.errors import InputError
    from awrscope.parsers.source import iter_sources
    from awrscope.store import Store

    with pytest.raises(InputError, match="NUL"):
        iter_sources(str(AWR) + "\x00.txt")
    with Store(":memory:") as store, pytest.raises(InputError, match="NUL"):
        store.list(db="A\x00B")


@pytest.mark.parametrize("args, code, quick", [
    (["analyze", "--format", "json", str(HTML)], 0, True),
    (["analyze", "--fail-on", "info", str(HTML)], 1, True),
    (["parse", str(HTML)], 0, True),
    (["analyze", str(CORPUS / "no such report.html")], 2, True),
    (["analyze", "--format", "nonsense", str(HTML)], 2, True),
    (["--version"], 0, False),  # no command ran
    (["db", "--help"], 0, False),  # a command that may leave a database open ends by the interpreter's exit
])
def test_a_command_that_leaves_nothing_open_ends_without_the_teardown(args, code, quick):
    """Issue 30: `analyze`, `parse`, `compare`, `trend` and `rules` end by os._exit once atexit's functions have run
    and the streams are flushed (the interpreter's teardown frees every object of the run: 14 ms of a 1 MB
    report's 120). The output is whole and the exit status the command's; other commands tear down as usual. An
    object freed at teardown says whether there was one."""
    code_text = ("import sys\nfrom awrscope.cli import run\n"
                 "class Witness:\n    def __del__(self):\n        sys.stderr.write('torn down')\n"
                 "witness = Witness()\nrun()\n")
    run = subprocess.run([sys.executable, "-c", code_text, *args], capture_output=True, text=True, env=ENV,
                         timeout=120)
    assert run.returncode == code, run.stderr[-2000:]
    assert ("torn down" not in run.stderr) == quick
    if args[:3] == ["analyze", "--format", "json"]:
        assert json.loads(run.stdout)["report"]["format"] == "html"
