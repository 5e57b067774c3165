"""The report store on SQLite and PostgreSQL: corpus import, idempotent re-import,
filters, trends, delete, re-analysis, and crash consistency."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from _store import BACKENDS, make_url
from awrscope.documents import all_findings
from awrscope.store import Store
from awrscope.store.backend import connect, default_url
from awrscope.store.ingest import prepare_path

HERE = Path(__file__).parent
CORPUS = HERE.parents[1] / "shared" / "corpus" / "reports"
SP1 = "statspack_txt_11203_antognini_top2_1930_1945.txt"
SP2 = "statspack_txt_11203_antognini_top2_1830_1845.txt"


@pytest.fixture(params=BACKENDS)
def empty_store(request, tmp_path):
    url, cleanup = make_url(request.param, tmp_path)
    store = Store(url)
    yield store
    store.close()
    cleanup()


@pytest.fixture(scope="module")
def prepared_corpus(corpus_dir):
    """The corpus parsed and analysed once, written to each backend."""
    from concurrent.futures import ProcessPoolExecutor

    from awrscope.parsers.source import expand_inputs

    paths = expand_inputs([str(corpus_dir / "reports")])
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return [item for batch in pool.map(prepare_path, paths) for item in batch]


@pytest.fixture(scope="module", params=BACKENDS)
def corpus_store(request, tmp_path_factory, prepared_corpus):
    url, cleanup = make_url(request.param, tmp_path_factory.mktemp("corpus"))
    store = Store(url)
    results = [store.add_prepared(item) for item in prepared_corpus]
    yield store, results, url
    store.close()
    cleanup()


def _file(corpus: Path, name: str) -> str:
    p = corpus / name
    if not p.exists():
        pytest.skip(f"{name} not in the corpus")
    return str(p)


def test_import_corpus(corpus_store, corpus_dir):
    store, results, _ = corpus_store
    manifest = [l.split("\t") for l in (corpus_dir / "manifest.tsv").read_text().splitlines()[1:] if l.strip()]
    ash_addm = {row[0] for row in manifest if row[4] in ("ash", "addm")}
    assert not [r.name for r in results if r.status == "error"]  # every corpus report is stored, ASH and ADDM too
    assert ash_addm <= {Path(r.name).name for r in results if r.status in ("added", "duplicate")}
    added = [r for r in results if r.status == "added"]
    assert store.count() == len(added) == len({r.id for r in results if r.id})
    # byte-identical copies in the corpus are stored once
    dups = [r for r in results if r.status == "duplicate"]
    assert all(r.id in {a.id for a in added} for r in dups)


def test_reimport_adds_nothing(corpus_store, corpus_dir):
    store, first, _ = corpus_store
    before = store.count()
    again = store.import_paths([str(corpus_dir / "reports")], jobs=1)
    assert store.count() == before
    assert {r.status for r in again} == {"duplicate"}
    assert {r.id for r in again if r.id} == {r.id for r in first if r.id}


def test_list_and_filters(corpus_store):
    store, _, _ = corpus_store
    rows = store.list(db="DBM11203", kind="statspack")
    assert {r["source_name"].rsplit("/", 1)[-1] for r in rows} >= {SP1, SP2}
    assert [r["begin_time"] for r in rows] == sorted(r["begin_time"] for r in rows)
    one = next(r for r in rows if r["source_name"].endswith(SP1))
    # read by hand from the report header: snaps 552-553, 11.2.0.3.0
    assert (one["begin_snap"], one["end_snap"], one["version"]) == (552, 553, "11.2.0.3.0")
    # the User I/O class (db file sequential read + read by other session, both User I/O in
    # V$EVENT_NAME) outweighs its largest event alone (G01)
    assert one["top_finding_id"] == "G06" and one["top_severity"] == "critical"
    assert one["dbid"] and store.list(db=str(one["dbid"]), kind="statspack")
    # time range: the 19:30 report only
    late = store.list(db="DBM11203", kind="statspack", since="2014-04-23 19:30:00", until="2014-04-23 19:45:00")
    assert [r["id"] for r in late] == [one["id"]]
    # by instance name (case-insensitive, whole name)
    assert one["id"] in {r["id"] for r in store.list(instance="dbm11203")}
    assert not store.list(instance="dbm1120")
    # by finding: every listed report holds it
    r04 = store.list(finding="R04", limit=1000)
    # (a compare-period report holds its findings per period)
    assert r04 and all(any(f["id"] == "R04" for f in all_findings(store.get(r["id"])["analysis"])) for r in r04)
    assert store.count(finding="R04") == len(r04)
    crit = store.list(severity="critical", limit=1000)
    assert crit and all(any(f["severity"] == "critical" for f in all_findings(store.get(r["id"])["analysis"]))
                        for r in crit)
    assert store.list(limit=5, offset=0) != store.list(limit=5, offset=5)


def test_show_returns_analysis_json(corpus_store):
    store, _, _ = corpus_store
    rec = store.get(store.list(db="DBM11203", kind="statspack")[0]["id"])
    assert rec["analysis"]["schema_version"] == "1.0"
    assert rec["analysis"]["report"]["db_name"] == "DBM11203"
    name, sha, data = store.raw(rec["id"])
    assert sha == rec["sha256"] and b"STATSPACK" in data.upper()


def test_trend_series(corpus_store):
    store, _, _ = corpus_store
    t = store.trend("DBM11203", ["aas", "db_cpu_s"])
    aas = t["series"][0]
    assert aas["metric"] == "aas" and aas["unit"] == "sessions"
    assert len(aas["points"]) >= 2
    times = [p["begin_time"] for p in aas["points"]]
    assert times == sorted(times)
    for p in aas["points"]:
        doc = store.get(p["report_id"])["analysis"]
        assert p["value"] == pytest.approx(doc["metrics"]["aas"]["value"])
    assert "aas" in store.metric_names("DBM11203")
    dbs = {d["db_name"] for d in store.databases()}
    assert "DBM11203" in dbs


def test_delete(empty_store, corpus):
    s = empty_store
    res = s.import_paths([_file(corpus, SP1), _file(corpus, SP2)])
    ids = [r.id for r in res]
    assert s.count() == 2
    assert s.delete(ids[0]) is True
    assert s.delete(ids[0]) is False
    assert s.count() == 1 and s.get(ids[0]) is None and s.raw(ids[0]) is None
    for table in ("metrics", "findings", "report_sources"):
        assert s.conn.execute(f"SELECT COUNT(*) FROM {table} WHERE report_id = ?", (ids[0],))[0][0] == 0
    # deleted content can be imported again
    again = s.import_paths([_file(corpus, SP1)])
    assert again[0].status == "added" and s.count() == 2


def test_reanalyze_with_changed_rules(empty_store, corpus):
    s = empty_store
    rid = s.import_paths([_file(corpus, SP1)])[0].id
    assert s.get(rid)["top_finding_id"] == "G06"
    res = s.reanalyze({"rules": {"G06": {"enabled": False}}})
    assert [r.status for r in res] == ["reanalyzed"]
    rec = s.get(rid)
    assert rec["top_finding_id"] != "G06"
    assert all(f["id"] != "G06" for f in rec["analysis"]["findings"])
    assert not s.list(finding="G06")
    s.reanalyze()
    assert s.get(rid)["top_finding_id"] == "G06" and s.list(finding="G06")


def test_failed_write_leaves_no_half_report(empty_store, corpus, monkeypatch):
    s = empty_store
    path = _file(corpus, SP1)

    def boom(self, rid, p):
        raise RuntimeError("disk full")

    monkeypatch.setattr(Store, "_write_children", boom)
    with pytest.raises(RuntimeError):
        s.import_paths([path])
    monkeypatch.undo()
    for table in ("reports", "report_sources", "findings", "metrics"):
        assert s.conn.execute(f"SELECT COUNT(*) FROM {table}")[0][0] == 0
    assert s.import_paths([path])[0].status == "added"


def test_process_killed_mid_import_leaves_store_consistent(empty_store, corpus):
    """A hard crash (os._exit, no rollback handler runs) inside the write transaction."""
    s = empty_store
    s.import_paths([_file(corpus, SP2)])
    script = textwrap.dedent(f"""
        import os
        from awrscope.store import Store
        s = Store({s.url!r})
        def die(self, rid, p):
            self.conn.execute("INSERT INTO findings (report_id, rank, rule_id, severity, title) VALUES (?, 0, 'X', 'info', 'x')", (rid,))
            os._exit(9)
        Store._write_children = die
        s.import_paths([{_file(corpus, SP1)!r}])
    """)
    env = dict(os.environ, PYTHONPATH=str(HERE.parent / "src"))
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, timeout=120)
    assert proc.returncode == 9, proc.stderr.decode()
    fresh = Store(s.url)
    try:
        assert fresh.count() == 1
        for table in ("report_sources", "findings", "metrics"):
            orphans = fresh.conn.execute(f"SELECT COUNT(*) FROM {table} WHERE report_id NOT IN (SELECT id FROM reports)")
            assert orphans[0][0] == 0
        assert fresh.import_paths([_file(corpus, SP1)])[0].status == "added"
        assert fresh.count() == 2
    finally:
        fresh.close()


def test_migrations_apply_once(empty_store):
    s = empty_store
    again = Store(s.url)
    rows = again.conn.execute("SELECT version, name FROM schema_migrations ORDER BY version")
    again.close()
    assert rows == [(1, "001_initial.sql"), (2, "002_trend_windows.sql"), (3, "003_rendered_pages.sql")]


def test_rendered_pages_kept_per_renderer_and_dropped_with_the_report(empty_store, corpus):
    s = empty_store
    rid = s.import_paths([_file(corpus, SP1)])[0].id
    assert s.rendered(rid, "analysis", "v1") is None
    s.keep_rendered(rid, "analysis", "v1", "<p>drawn ü</p>")
    s.keep_rendered(rid, "analysis", "v1", "<p>drawn again ü</p>")  # replaces, no duplicate key
    assert s.rendered(rid, "analysis", "v1") == "<p>drawn again ü</p>"
    assert s.rendered(rid, "analysis", "v2") is None  # another renderer draws anew
    s.reanalyze(ids=[rid])
    assert s.rendered(rid, "analysis", "v1") is None  # a new analysis, a new page
    s.keep_rendered(rid, "analysis", "v1", "<p>x</p>")
    assert s.delete(rid)
    assert s.conn.execute("SELECT COUNT(*) FROM rendered_pages")[0][0] == 0
    s.keep_rendered(rid, "analysis", "v1", "<p>x</p>")  # the report is gone: nothing kept
    assert s.conn.execute("SELECT COUNT(*) FROM rendered_pages")[0][0] == 0


def test_upgrade_from_first_migration_fills_trend_windows(empty_store, corpus):
    """A store made before migration 002: the migration runs on open, and the trend windows
    of old rows are built from their stored bytes when first asked for."""
    s = empty_store
    rid = s.import_paths([_file(corpus, SP1)])[0].id
    with s.conn.transaction():
        s.conn.execute("ALTER TABLE reports DROP COLUMN trend_windows")
        s.conn.execute("DELETE FROM schema_migrations WHERE version = 2")
    upgraded = Store(s.url)
    try:
        assert upgraded.conn.execute("SELECT trend_windows FROM reports WHERE id = ?", (rid,)) == [(None,)]
        [w] = upgraded.trend_windows("DBM11203")
        assert w["report_id"] == rid and w["db_name"] == "DBM11203"
        assert upgraded.conn.execute("SELECT trend_windows IS NOT NULL FROM reports WHERE id = ?", (rid,))[0][0]
        from awrscope.change.trend import trend
        doc = trend(upgraded.trend_windows("DBM11203"))
        assert doc["kind"] == "trend" and len(doc["windows"]) == 1
    finally:
        upgraded.close()


def test_prepare_path_reports_bad_input(tmp_path):
    p = tmp_path / "notes.txt"
    p.write_text("hello, this is not a report\n")
    [r] = prepare_path(str(p))
    assert "not an AWR or Statspack report" in r.message


def test_urls(tmp_path, monkeypatch):
    monkeypatch.setenv("AWRSCOPE_DB", str(tmp_path / "x.db"))
    assert default_url() == str(tmp_path / "x.db")
    monkeypatch.delenv("AWRSCOPE_DB")
    assert default_url().endswith("awrscope.sqlite3")
    c = connect(f"sqlite:///{tmp_path}/y.db")
    c.close()
    assert (tmp_path / "y.db").exists()
    from awrscope.store import StoreError
    with pytest.raises(StoreError):
        connect("mysql://nope")


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_processes_opening_a_fresh_store_at_once(backend, tmp_path):
    """Issue 16 item 9: two processes migrating one fresh database at once: both succeed, every
    migration is applied once (PostgreSQL died with UniqueViolation in 2 of 10 rounds before)."""
    for k in range(5):
        (tmp_path / str(k)).mkdir()
        url, cleanup = make_url(backend, tmp_path / str(k))
        try:
            code = f"from awrscope.store import Store; Store({url!r}).close()"
            procs = [subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE) for _ in range(2)]
            errs = [p.communicate(timeout=120)[1].decode() for p in procs]
            assert [p.returncode for p in procs] == [0, 0], errs
            c = connect(url)
            try:
                versions = [r[0] for r in c.execute("SELECT version FROM schema_migrations ORDER BY version")]
            finally:
                c.close()
            assert versions == sorted(set(versions)) and len(versions) >= 2
        finally:
            cleanup()
