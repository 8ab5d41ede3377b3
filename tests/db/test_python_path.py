"""The in-database Python: found through hindsight.python_path, version-checked."""

import psycopg
import pytest

import hindsight_pl

# Each test imports hindsight_pl afresh in its session, so each needs a backend of its own.
pytestmark = pytest.mark.fresh_database


def test_udfs_run_the_installed_package_of_the_same_version(db):
    assert db.execute("SELECT * FROM hindsight._load()").fetchone() == (None, None, None)
    (extversion,) = db.execute("SELECT extversion FROM pg_extension WHERE extname = 'hindsight_pg'").fetchone()
    assert extversion == hindsight_pl.__version__
    assert db.execute("SELECT hindsight.count_tokens('hello world')").fetchone()[0] == 2


def test_a_package_of_another_version_is_refused(db, tmp_path):
    db.execute("SELECT hindsight.create_bank('b')")
    package = tmp_path / "hindsight_pl"
    package.mkdir()
    (package / "__init__.py").write_text('__version__ = "9.9.9"\n')
    db.execute("SELECT set_config('hindsight.python_path', %s, false)", (str(tmp_path),))
    with pytest.raises(psycopg.errors.FeatureNotSupported) as info:
        db.execute("SELECT hindsight.recall_json('b', 'x')")
    assert info.value.diag.message_primary.startswith("hindsight_pl 9.9.9 at ")
    assert info.value.diag.message_primary.endswith(f"does not match extension hindsight_pg {hindsight_pl.__version__}")
    assert "make install" in info.value.diag.message_hint


def test_a_missing_package_says_where_it_looked(db):
    db.execute("SELECT hindsight.create_bank('b')")
    db.execute("SET hindsight.python_path = '/nonexistent/hindsight'")
    with pytest.raises(psycopg.Error) as info:
        db.execute("SELECT * FROM hindsight.retain('b', '[]')")
    assert info.value.sqlstate == "58P01"
    assert info.value.diag.message_primary.startswith("cannot import hindsight_pl from /nonexistent/hindsight")
