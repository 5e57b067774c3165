"""`awrscope db` commands end to end on a SQLite file (the PostgreSQL path is the same code, see test_store)."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from awrscope.cli import main

SP = "statspack_txt_11203_antognini_top2_1930_1945.txt"


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.delenv("AWRSCOPE_DB", raising=False)
    return str(tmp_path / "cli.sqlite3")


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_import_list_show_delete(db, corpus, tmp_path):
    path = corpus / SP
    if not path.exists():
        pytest.skip("corpus report missing")
    r = run("db", "import", "--db", db, "-j", "1", str(path))
    assert r.exit_code == 0, r.output
    assert "1 added, 0 already stored, 0 failed" in r.output
    r = run("db", "import", "--db", db, str(path))
    assert r.exit_code == 0 and "0 added, 1 already stored" in r.output

    bad = tmp_path / "bad.txt"
    bad.write_text("hello\n")
    r = run("db", "import", "--db", db, str(bad), "-q")
    assert r.exit_code == 2 and "not an AWR or Statspack report" in r.output

    listed = json.loads(run("db", "list", "--db", db, "--format", "json").stdout)
    assert listed["total"] == 1
    rid = listed["reports"][0]["id"]
    assert listed["reports"][0]["db_name"] == "DBM11203"
    assert "DBM11203" in run("db", "list", "--db", db).output
    assert json.loads(run("db", "list", "--db", db, "--format", "json", "--database", "NOPE").stdout)["total"] == 0

    shown = run("db", "show", str(rid), "--db", db, "--format", "json")
    assert json.loads(shown.stdout)["report"]["db_name"] == "DBM11203"
    # the stored analysis printed as analyze prints it: its verdict is the headline of the JSON document
    headline = json.loads(shown.stdout)["verdict"]["headline"]["line"]
    assert f"verdict: {headline}" in run("db", "show", str(rid), "--db", db).output
    assert run("db", "show", "999", "--db", db).exit_code == 2

    r = run("db", "reanalyze", "--db", db)
    assert r.exit_code == 0 and "1 reanalysed, 0 failed" in r.output

    assert run("db", "delete", str(rid), "--db", db).exit_code == 0
    assert run("db", "delete", str(rid), "--db", db).exit_code == 2
    assert json.loads(run("db", "list", "--db", db, "--format", "json").stdout)["total"] == 0


def test_env_selects_the_store(tmp_path, monkeypatch, corpus):
    path = corpus / SP
    if not path.exists():
        pytest.skip("corpus report missing")
    monkeypatch.setenv("AWRSCOPE_DB", str(tmp_path / "env.sqlite3"))
    assert run("db", "import", str(path), "-q").exit_code == 0
    assert (tmp_path / "env.sqlite3").exists()


def test_bad_url_is_a_clear_error(tmp_path):
    r = run("db", "list", "--db", "mysql://x/y")
    assert r.exit_code == 2 and "unsupported store URL" in r.output
    r = run("db", "list", "--db", "postgresql://nobody:pw@127.0.0.1:1/none")
    assert r.exit_code == 2 and "cannot connect to PostgreSQL" in r.output and "pw@" not in r.output


def test_list_has_a_header_and_the_full_end_date(tmp_path, corpus):
    """Issue 17: a 6-day window reads 2017-10-21 00:00:14 .. 2017-10-27 09:00:57 (the report's header
    snapshot times), not '.. 09:00:57'; a window within one day keeps the short end."""
    db = str(tmp_path / "l.db")
    run("db", "import", "--db", db, str(corpus / "awr_html_11204_tanjie_dquito_6day.html"),
        str(corpus / "awr_txt_11203_antognini_top2_1830_1845.txt"))
    lines = run("db", "list", "--db", db).output.splitlines()
    assert lines[0].split()[:4] == ["id", "database", "instance", "window"]
    assert any("2017-10-21 00:00:14 .. 2017-10-27 09:00:57" in l for l in lines)
    assert any("2014-04-23 18:30:05 .. 18:45:06 " in l for l in lines)
