"""hindsight.parse_temporal in SQL, and recall's automatic window."""

from __future__ import annotations

from datetime import UTC, datetime

import psycopg
import pytest
from _helpers import NO_LINKS, bank, put, recall, vec
from psycopg import sql

import hindsight_pg
from hindsight_pl.temporal import parse_temporal

REFERENCE = datetime(2025, 1, 15, 10, 0, tzinfo=UTC)
QUERIES = ["last week", "a couple of days ago", "上周末", "2024年上半年", "la semana pasada", "in 2019",
           "last spring", "yesterday", "Q3 2024", "no time here"]  # fmt: skip


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai", "America/Los_Angeles"])
def test_sql_equals_python(db, query, zone):
    (window,) = db.execute("SELECT hindsight.parse_temporal(%s, %s, %s)", (query, REFERENCE, zone)).fetchone()
    expected = parse_temporal(query, REFERENCE, zone)
    if expected is None:
        assert window is None
    else:
        assert (window.lower, window.upper, window.bounds) == (expected[0], expected[1], "[]")


def test_driver_function_is_the_same_analyzer():
    start, end = hindsight_pg.parse_temporal("last week", REFERENCE)
    assert (start.date().isoformat(), end.date().isoformat()) == ("2025-01-06", "2025-01-12")
    with pytest.raises(hindsight_pg.InvalidInputError, match="unknown time zone"):
        hindsight_pg.parse_temporal("last week", REFERENCE, "Nowhere/Land")


def test_bad_time_zone_is_an_error_in_sql(db):
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="unknown time zone 'Nowhere/Land'"):
        db.execute("SELECT hindsight.parse_temporal('last week', now(), 'Nowhere/Land')")


def test_what_the_automatic_window_cannot_take_is_no_window(db):
    window = "SELECT hindsight._query_window('last week', %s::timestamptz, %s)"
    config = '{"time_zone": "Nowhere/Land", "hemisphere": "north"}'
    assert db.execute(window, ("2026-03-04T12:00Z", config)).fetchone()[0] is None
    assert db.execute(window, ("2026-03-04T12:00Z", '{"hemisphere": "east"}')).fetchone()[0] is None
    for reference in ("infinity", "9999-06-01T00:00Z", "0001-06-01T00:00Z"):
        assert db.execute(window, (reference, "{}")).fetchone()[0] is None
    # and what it can take is a window
    found = db.execute(window, ("2026-03-04T12:00Z", '{"time_zone": "UTC"}')).fetchone()[0]
    assert (found.lower.isoformat(), found.upper.isoformat()) == (
        "2026-02-23T00:00:00+00:00",
        "2026-03-01T23:59:59.999999+00:00",
    )


def test_any_other_error_of_the_automatic_window_raises(db, role):
    # a role that may not run the analysis: before, every error was swallowed as "no window"
    with pytest.raises(psycopg.errors.InsufficientPrivilege), db.transaction():
        db.execute("REVOKE EXECUTE ON FUNCTION hindsight._parse_temporal(text, timestamptz, text, text) FROM PUBLIC")
        db.execute(sql.SQL("SET LOCAL ROLE {}").format(sql.Identifier(role)))
        db.execute("SELECT hindsight._query_window('last week', now(), '{}')")
    assert db.execute("SELECT has_function_privilege('public', 'hindsight._parse_temporal(text, timestamptz, text, "
                      "text)', 'EXECUTE')").fetchone() == (True,)  # fmt: skip


def test_last_spring_ranks_april_above_october(db):
    bank(db, "s", **NO_LINKS)
    april, october = put(db, "s", [
        {"text": "Planted tomatoes in the garden.", "embedding": vec(d0=1, d1=1), "mentioned_at": "2026-04-12T10:00Z"},
        {"text": "Planted garlic in the garden.", "embedding": vec(d0=1, d2=1), "mentioned_at": "2026-10-12T10:00Z"},
    ])  # fmt: skip
    rows = recall(db, "s", "What did I plant last spring?", vec(d0=1), query_timestamp="2026-11-01T00:00Z",
                  trace=True)  # fmt: skip
    assert [str(r["id"]) for r in rows] == [april, october]
    assert rows[0]["semantic_score"] == pytest.approx(rows[1]["semantic_score"])  # equally similar
    assert rows[0]["temporal_rank"] == 1 and rows[1]["temporal_rank"] is None
    trace = rows[0]["trace"]  # on the rank-1 row
    assert trace["temporal_window"]["source"] == "query"
    assert trace["temporal_window"]["start"].startswith("2026-03-01")


def test_bank_time_zone_and_hemisphere(db):
    bank(db, "au", time_zone="Australia/Sydney", hemisphere="south")
    put(db, "au", [("Went skiing.", vec(d0=1))])
    (trace,) = db.execute("SELECT hindsight.recall_json('au', 'what happened last winter',"
                          " query_timestamp => '2026-11-01', trace => true) -> 'trace'").fetchone()  # fmt: skip
    # southern winter: June to August 2026, whole days in Sydney time (UTC+10 in winter)
    assert trace["temporal_window"]["start"].startswith("2026-05-31T14:00:00")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="hemisphere must be north or south"):
        bank(db, "x", hemisphere="east")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='unknown time zone "Mars/Base"'):
        bank(db, "y", time_zone="Mars/Base")


def test_open_ends_close_at_the_reference_instant(db):
    reference = datetime(2025, 11, 1, 12, 0, tzinfo=UTC)
    (window,) = db.execute("SELECT hindsight.parse_temporal('since January', %s)", (reference,)).fetchone()
    assert (window.lower, window.upper) == (datetime(2025, 1, 1, tzinfo=UTC), reference)
    (window,) = db.execute("SELECT hindsight.parse_temporal('周一鹏提到的方案', %s)", (reference,)).fetchone()
    assert window is None  # a person (周一鹏), not a Monday
    (window,) = db.execute("SELECT hindsight.parse_temporal('around Christmas', %s)", (reference,)).fetchone()
    assert (window.lower.date().isoformat(), window.upper.date().isoformat()) == ("2024-12-22", "2024-12-28")


def test_a_window_that_covers_the_bank_or_holds_none_of_it_runs_no_temporal_arm(db):
    bank(db, "w")
    put(db, "w", [
        {"text": "Alice started the migration.", "embedding": vec(d0=1, d1=1), "mentioned_at": "2024-03-12T10:00Z"},
        {"text": "Alice finished the auth service.", "embedding": vec(d0=1, d2=1), "mentioned_at": "2024-04-20T10:00Z"},
        {"text": "Alice is tuning performance.", "embedding": vec(d0=1, d3=1), "mentioned_at": "2024-10-08T10:00Z"},
    ])  # fmt: skip
    asked = {"query_timestamp": "2024-11-01T00:00Z", "trace": True}

    def ranked(**args):
        rows = recall(db, "w", "What was Alice doing?", vec(d0=1), **asked, **args)
        trace = rows[0]["trace"]
        return [(str(r["id"]), round(r["score"], 9)) for r in rows], trace

    without, _ = ranked()
    # "since 2020" holds every mention of the bank (March to October 2024): it narrows nothing
    covering, trace = ranked(temporal_window="[2020-01-01, 2024-11-01]")
    assert trace["temporal_window"]["narrows"] is False
    assert trace["arms"]["temporal"]["ran"] is False
    assert trace["arms"]["temporal"]["skipped"] == "the window covers the bank"
    assert covering == without  # the same ranking as with no window: recency counts again
    # a window in which no unit lies narrows nothing either
    empty, trace = ranked(temporal_window="[2023-01-01, 2023-12-31]")
    assert trace["arms"]["temporal"]["skipped"] == "the window holds no unit of the bank"
    assert empty == without
    # a window that leaves October out runs the arm and ranks March and April first
    narrowing, trace = ranked(temporal_window="[2024-03-01, 2024-05-31]")
    assert trace["temporal_window"]["narrows"] is True and trace["arms"]["temporal"]["ran"] is True
    assert trace["arms"]["temporal"]["skipped"] is None
    assert narrowing[-1][0] == without[0][0]  # October: first without a window, last under March-May
    # the same from the query text: "since 2020" is parsed, covers the bank, and runs no arm
    trace = recall(db, "w", "What was Alice doing since 2020?", vec(d0=1), **asked)[0]["trace"]
    assert trace["temporal_window"]["source"] == "query" and trace["temporal_window"]["narrows"] is False
    assert trace["arms"]["temporal"]["ran"] is False


def test_null_and_odd_arguments(db):
    reference = datetime(2025, 11, 1, 12, 0, tzinfo=UTC)
    (window,) = db.execute("SELECT hindsight.parse_temporal('yesterday', %s, NULL, NULL)", (reference,)).fetchone()
    assert window.lower == datetime(2025, 10, 31, tzinfo=UTC)  # NULL: the defaults, UTC and north
    (window,) = db.execute("SELECT hindsight.parse_temporal('yesterday', %s, 'europe/berlin', 'South')",
                           (reference,)).fetchone()  # fmt: skip
    assert window.lower.astimezone(UTC) == datetime(2025, 10, 30, 23, 0, tzinfo=UTC)  # any case, as PostgreSQL
    (window,) = db.execute("SELECT hindsight.parse_temporal('yesterday', %s, '+02:00')", (reference,)).fetchone()
    assert window.lower.astimezone(UTC) == datetime(2025, 10, 30, 22, 0, tzinfo=UTC)  # an offset ahead of UTC
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="reference must be a finite timestamp"):
        db.execute("SELECT hindsight.parse_temporal('yesterday', 'infinity')")
    assert db.execute("SELECT hindsight.parse_temporal(NULL)").fetchone()[0] is None
    long = "in 2019 " * 2000  # 16,000 characters: the first 2,000 are read, in well under a second
    (window,) = db.execute("SELECT hindsight.parse_temporal(%s, %s)", (long, reference)).fetchone()
    assert window.lower == datetime(2019, 1, 1, tzinfo=UTC)
    bank(db, "tz", time_zone="utc")  # PostgreSQL and the analyzer both take it
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='unknown time zone "PST"'):
        bank(db, "tz2", time_zone="PST")  # PostgreSQL knows the abbreviation; the analyzer does not
