"""Bounded work on the real extension (docs/reliability.md, Bounded work): each limit refused through SQL and
the driver before anything is done or written, and long work ended by statement_timeout, pg_cancel_backend and
pg_terminate_backend within about a second, the server staying up."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import psycopg
import pytest
from typer.testing import CliRunner

from hindsight_pg import LimitExceededError, cli
from hindsight_pl import limits

SENTENCE = "Dana moved the billing cutover to Friday after the audit. "
E5_BANK = {"embedding_model": "multilingual-e5-small"}


def deep(levels: int) -> Any:
    """A JSON value nesting ``levels`` arrays."""
    value: Any = []
    for _ in range(levels - 1):
        value = [value]
    return value


def units(db, bank_id: str = "b") -> int:
    return db.execute("SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %s", (bank_id,)).fetchone()[0]


def vector() -> list[float]:
    return [1.0] + [0.0] * 383


def item(**fields: Any) -> dict[str, Any]:
    return {"units": [{"text": "Ana adopted a cat.", "embedding": vector()}], **fields}


def test_sql_reads_the_one_definition(db):
    rows = db.execute("SELECT name, value, unit, refused, bounds, advice FROM hindsight.limits()").fetchall()
    assert {r[0]: r[1:] for r in rows} == {
        name: (limit.value, limit.unit, limit.refused, limit.bounds, limit.advice)
        for name, limit in limits.LIMITS.items()
    }
    # the same hint from SQL and from Python
    with pytest.raises(psycopg.errors.ProgramLimitExceeded) as caught:
        db.execute("SELECT hindsight._check_limit('content_chars', 'item 0: content', 1000001)")
    refusal = limits.refuse("content_chars", "item 0: content", 1_000_001)
    assert (caught.value.diag.message_primary, caught.value.diag.message_hint) == (str(refusal), refusal.hint)
    assert refusal.hint == (
        "Send at most 1,000,000 characters: split it into documents of at most that size (by chapter or section), "
        "each with its own document_id (SELECT * FROM hindsight.limits(); docs/reliability.md)."
    )


# (statement, its parameters, the start of the message): each past one limit by one
REFUSED_SQL = {
    "query_chars recall": ("SELECT * FROM hindsight.recall('b', %s)", ["x" * 2001],
                           "query has 2,001 characters, more than the 2,000 allowed (query_chars)"),
    "query_chars recall_json": ("SELECT hindsight.recall_json('b', %s)", ["x" * 2001], "query has 2,001 characters"),
    "query_chars reflect": ("SELECT * FROM hindsight.reflect('b', %s)", ["x" * 2001],
                            "the question has 2,001 characters"),
    "tags recall": ("SELECT * FROM hindsight.recall('b', 'x', tags => %s)", [[f"t{i}" for i in range(101)]],
                    "tags has 101 tags, more than the 100 allowed (tags)"),
    "content_chars retain_text": ("SELECT * FROM hindsight.retain_text('b', %s)", ["a" * 1_000_001],
                                  "content has 1,000,001 characters, more than the 1,000,000 allowed"),
    "tags retain_text": ("SELECT * FROM hindsight.retain_text('b', 'ok', tags => %s)", [[f"t{i}" for i in range(101)]],
                         "tags has 101 tags"),
    "entities retain_text": ("SELECT * FROM hindsight.retain_text('b', 'ok', entities => %s)",
                             [[f"E{i}" for i in range(101)]], "entities has 101 names"),
    "name_chars retain_text": ("SELECT * FROM hindsight.retain_text('b', 'ok', speaker => %s)", ["s" * 201],
                               "speaker has 201 characters, more than the 200 allowed (name_chars)"),
    "json_bytes retain_text": ("SELECT * FROM hindsight.retain_text('b', 'ok', metadata => %s)",
                               [json.dumps({"a": "x" * 70_000})], "metadata has 70,009 bytes"),
    "json_depth retain_text": ("SELECT * FROM hindsight.retain_text('b', 'ok', metadata => %s)",
                               [json.dumps({"a": deep(32)})], "metadata has 33 levels, more than the 32 allowed"),
    "items retain": ("SELECT * FROM hindsight.retain('b', %s)", [json.dumps([{}] * 10_001)],
                     "the call has 10,001 items, more than the 10,000 allowed (items)"),
    "units retain": ("SELECT * FROM hindsight.retain('b', %s)", [json.dumps([{"units": [{}] * 10_001}])],
                     "item 0: units has 10,001 memory units"),
    "unit_chars retain": ("SELECT * FROM hindsight.retain('b', %s)",
                          [json.dumps([{"units": [{"text": "a" * 100_001, "embedding": vector()}]}])],
                          "item 0, unit 0: text has 100,001 characters, more than the 100,000 allowed (unit_chars)"),
    "tags retain": ("SELECT * FROM hindsight.retain('b', %s)", [json.dumps([item(tags=["t"] * 101)])],
                    "item 0: tags has 101 tags"),
    "name_chars retain": ("SELECT * FROM hindsight.retain('b', %s)", [json.dumps([item(document_id="d" * 201)])],
                          "item 0: document_id has 201 characters"),
    "content_chars retain": ("SELECT * FROM hindsight.retain('b', %s)",
                             [json.dumps([item(chunks=["a" * 600_000, "b" * 400_001])])],
                             "item 0: chunks has 1,000,001 characters"),
    "entities retain": ("SELECT * FROM hindsight.retain('b', %s)",
                        [json.dumps([{"units": [{"text": "x", "embedding": vector(), "entities": ["E"] * 101}]}])],
                        "item 0, unit 0: entities has 101 names"),
    "json_depth retain": ("SELECT * FROM hindsight.retain('b', %s)", [json.dumps([item(metadata={"a": deep(32)})])],
                          "item 0: metadata (nesting) has 33 levels"),
    "json_bytes unit": ("SELECT * FROM hindsight.retain('b', %s)", [json.dumps([{"units": [
                            {"text": "x", "embedding": vector(), "metadata": {"a": "x" * 70_000}}]}])],
                        "item 0, unit 0: metadata has 70,009 bytes"),
    "json_bytes config": ("SELECT hindsight.configure_bank('b', %s)", [json.dumps({"directives": ["x" * 70_000]})],
                          "config has 70,"),
    "json_depth config": ("SELECT hindsight.create_bank('c', config => %s)", [json.dumps({"directives": deep(33)})],
                          "config (nesting) has 33 levels"),
    "embed_texts": ("SELECT hindsight.embed('b', %s)", [["x"] * 1025], "texts has 1,025 texts"),
    "context_chars retain_text": ("SELECT * FROM hindsight.retain_text('b', 'ok', context => %s)", ["c" * 10_001],
                                  "context has 10,001 characters"),
    "context_chars retain": ("SELECT * FROM hindsight.retain('b', %s)", [json.dumps([item(context="c" * 10_001)])],
                             "item 0: context has 10,001 characters"),
    "name_chars bank id": ("SELECT hindsight.create_bank(%s)", ["b" * 201], "bank_id has 201 characters"),
    "name_chars bank name": ("SELECT hindsight.create_bank('c', %s)", ["n" * 201], "name has 201 characters"),
    "name_chars recall tag": ("SELECT * FROM hindsight.recall('b', 'x', tags => %s)", [["t" * 201]],
                              "a tag has 201 characters"),
    "rerank_texts config": ("SELECT hindsight.configure_bank('b', %s)", [json.dumps({"reranker_max_candidates": 5000})],
                            'bank config "reranker_max_candidates" has 5,000 texts'),
    "rerank_texts": ("SELECT hindsight.rerank('b', 'q', %s)", [["x"] * 1001], "documents has 1,001 texts"),
}  # fmt: skip


@pytest.mark.parametrize("case", REFUSED_SQL)
def test_sql_refuses_each_limit_with_54000_a_hint_and_writes_nothing(db, case):
    statement, params, message = REFUSED_SQL[case]
    db.execute("SELECT hindsight.create_bank('b', config => %s)", (json.dumps(E5_BANK),))
    started = time.perf_counter()
    with pytest.raises(psycopg.errors.ProgramLimitExceeded) as caught:
        db.execute(statement, params)
    assert caught.value.diag.message_primary.startswith(message), caught.value.diag.message_primary
    assert "hindsight.limits()" in caught.value.diag.message_hint
    assert time.perf_counter() - started < 2  # refused before any model ran
    assert units(db) == 0 and db.execute("SELECT count(*) FROM hindsight.banks").fetchone()[0] == 1


def test_the_driver_refuses_before_any_model_reads(client, db):
    client.create_bank("b")
    cases = {
        "query has 2,001 characters": lambda: client.recall("b", "x" * 2001),
        "the question has 2,001 characters": lambda: client.reflect("b", "x" * 2001),
        "item 0: content has 1,000,001 characters": lambda: client.retain("b", "a" * 1_000_001),
        "the call has 10,001 items": lambda: client.retain_batch("b", ["Ana adopted a cat."] * 10_001),
        "item 0: metadata has 33 levels": lambda: client.retain("b", "ok", metadata={"a": deep(32)}),
        "item 0: tags has 101 tags": lambda: client.retain("b", "ok", tags=[f"t{i}" for i in range(101)]),
        "tags has 101 tags": lambda: client.recall("b", "ok", tags=[f"t{i}" for i in range(101)]),
        "source_query has 2,001 characters": lambda: client.create_mental_model("b", "m", "x" * 2001),
    }
    for message, call in cases.items():
        started = time.perf_counter()
        with pytest.raises(LimitExceededError) as caught:
            call()
        assert str(caught.value).startswith(message) and "hindsight.limits()" in caught.value.hint, message
        assert time.perf_counter() - started < 1.5, message
    assert units(db) == 0
    assert client.recall("b", "x" * 2000).results == []  # at the limit: an answer
    # a mental model written in SQL with a longer source query is refused when refreshed
    db.execute("INSERT INTO hindsight.mental_models (bank_id, name, source_query) VALUES ('b', 'long', %s)",
               ("x" * 2001,))  # fmt: skip
    with pytest.raises(psycopg.errors.ProgramLimitExceeded, match="the question has 2,001 characters"):
        db.execute("SELECT hindsight.refresh_mental_model('b', 'long')")


def test_the_cli_prints_the_limit(db, monkeypatch, capsys):
    monkeypatch.setenv("HINDSIGHT_PG_DSN", db.info.dsn)
    db.execute("SELECT hindsight.create_bank('b')")
    monkeypatch.setattr(sys, "argv", ["hindsight-pg", "recall", "b", "release date " * 200])
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code == 1
    assert capsys.readouterr().err.startswith(
        "error: query has 2,600 characters, more than the 2,000 allowed (query_chars) (hint: Send at most 2,000"
    )
    result = CliRunner().invoke(cli.app, ["retain", "b", "-"], input="word " * 250_000)  # main() prints it as above
    assert isinstance(result.exception, LimitExceededError)
    assert str(result.exception).startswith("item 0: content has 1,250,000 characters")


def test_a_text_is_embedded_from_its_first_embed_chars_in_the_database(db, client):
    db.execute("SELECT hindsight.create_bank('b')")
    long = SENTENCE * 400
    rows = db.execute("SELECT (hindsight.embed('b', ARRAY[%s, %s]))::text[]", (long, long[:8000])).fetchone()[0]
    whole, cut = (json.loads(r) for r in rows)
    assert max(abs(a - b) for a, b in zip(whole, cut, strict=True)) < 1e-6  # the rest is never read
    here = client.embedder_for("b").embed([long])[0]  # the driver's embedder reads the same windows
    assert max(abs(a - b) for a, b in zip(whole, here, strict=True)) < 1e-5


def test_count_tokens_of_a_long_text_counts_in_pieces(db):
    text = "hello world  foo 12345 bar. " * 20_000
    assert db.execute("SELECT hindsight.count_tokens(%s)", (text,)).fetchone()[0] == 180_001


def test_what_the_readers_cannot_read_is_refused_at_retain_naming_the_item(db):
    db.execute("SELECT hindsight.create_bank('b', config => %s)", (json.dumps(E5_BANK),))
    unit = {"text": "Zed has a red car.", "embedding": vector()}
    cases = {
        "item 0, unit 0: occurred_start 99999-01-01 is outside the years 1 to 9999": [
            {"units": [{**unit, "occurred_start": "99999-01-01"}]}],
        "item 0, unit 0: mentioned_at next tuesday is not a timestamp (ISO 8601, e.g. 2025-01-13T10:30:00Z)": [
            {"units": [{**unit, "mentioned_at": "next tuesday"}]}],
        "item 0: timestamp must be an ISO 8601 string, not a JSON number": [{"timestamp": 5, "units": [unit]}],
        "item 0, unit 0: embedding must hold 384 numbers": [{"units": [{**unit, "embedding": ["a"] * 384}]}],
        "item 0, unit 0: embedding holds a number out of the range of a 4-byte float": [
            {"units": [{**unit, "embedding": [1e39] + [0.0] * 383}]}],
    }  # fmt: skip
    for message, items in cases.items():
        with pytest.raises(psycopg.errors.InvalidParameterValue) as caught:
            db.execute("SELECT * FROM hindsight.retain('b', %s)", (json.dumps(items),))
        assert caught.value.diag.message_primary == message
    assert units(db) == 0
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="one-dimensional array of text"):
        db.execute("SELECT hindsight.embed('b', ARRAY[['a', 'b'], ['c', 'd']])")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="reference must be a finite timestamp in the"):
        db.execute("SELECT hindsight.parse_temporal('next year', '294276-12-31')")
    with pytest.raises(psycopg.Error) as caught:
        db.execute("SELECT hindsight.bank_config(%s)", ("x" * 1_000_000,))
    assert caught.value.sqlstate == "HS404"
    assert len(caught.value.diag.message_primary) < 250  # the id is quoted up to 200 characters


def test_repeats_of_one_long_text_are_stored_once_whatever_their_number(db):
    db.execute("SELECT hindsight.create_bank('b', config => %s)", (json.dumps(E5_BANK),))
    rows = db.execute(
        "SELECT merged FROM hindsight.retain_text('b', repeat('Bob met Alice in Paris. ', 300))"
    ).fetchall()
    assert len(rows) == 1 and len(rows[0][0]) == 299  # one unit, its 299 repeats reported


@pytest.mark.slow
def test_a_model_load_is_awaited_in_slices(db):
    db.execute("SELECT hindsight.create_bank('m', config => '{\"embedding_model\": \"all-MiniLM-L6-v2\"}')")
    session = psycopg.connect(db.info.dsn, autocommit=True)
    session.execute("SELECT hindsight.count_tokens('load hindsight_pl first')")
    session.execute("SET statement_timeout = '1s'")
    started = time.perf_counter()
    with pytest.raises(psycopg.errors.QueryCanceled):
        session.execute("SELECT hindsight.embed('m', ARRAY['a text'])")  # PyTorch and MiniLM take seconds to load
    assert time.perf_counter() - started < 2
    session.execute("RESET statement_timeout")
    (count,) = session.execute("SELECT cardinality(hindsight.embed('m', ARRAY['a text']))").fetchone()
    assert count == 1  # the same load, ended
    session.close()


# -- timeouts, cancels and terminations -----------------------------------------------------------------


def server_started(db) -> Any:
    return db.execute("SELECT pg_postmaster_start_time()").fetchone()[0]


def ended_within(db, statement: str, params: Any, seconds: float) -> tuple[BaseException, float]:
    """Run ``statement`` under statement_timeout = 2s; the error it ended with and the seconds it took."""
    db.execute("SET statement_timeout = '2s'")
    started = time.perf_counter()
    with pytest.raises(psycopg.Error) as caught:
        db.execute(statement, params)
    took = time.perf_counter() - started
    db.execute("RESET statement_timeout")
    assert took < seconds, (statement[:60], took)
    return caught.value, took


@pytest.mark.slow
def test_a_pathological_recall_ends_within_its_timeout_and_leaves_the_server_up(db):
    db.execute("SELECT hindsight.create_bank('b')")
    db.execute("SELECT * FROM hindsight.retain_text('b', 'Dana moved the billing cutover to Friday.')")
    before = server_started(db)
    error, _ = ended_within(db, "SELECT count(*) FROM hindsight.recall('b', %s)", ("release date " * 20_000,), 4)
    assert isinstance(error, psycopg.errors.ProgramLimitExceeded)
    assert server_started(db) == before and db.execute("SELECT 1").fetchone() == (1,)


@pytest.mark.slow
def test_long_work_in_the_database_ends_within_its_timeout(db):
    db.execute("SELECT hindsight.create_bank('b')")
    before = server_started(db)
    # 1,000 texts of four windows each: minutes of model work, ended at a checkpoint between native calls
    error, took = ended_within(db, "SELECT hindsight.embed('b', %s)", ([SENTENCE * 140] * 1000,), 4)
    assert isinstance(error, psycopg.errors.QueryCanceled) and took >= 2
    # a 900,000-character text: extraction and embedding of thousands of facts, ended between chunks or calls
    error, took = ended_within(db, "SELECT * FROM hindsight.retain_text('b', %s)", (SENTENCE * 15_500,), 4)
    assert isinstance(error, psycopg.errors.QueryCanceled) and took >= 2
    assert units(db) == 0 and server_started(db) == before


class Silent(BaseHTTPRequestHandler):
    """A server that takes a request and does not answer for 20 seconds (then 500)."""

    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        time.sleep(20)
        self.send_response(500)
        self.end_headers()


@pytest.fixture
def silent() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Silent)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.mark.slow
def test_a_model_server_or_language_model_that_does_not_answer_ends_within_the_timeout(db, silent):
    provider = {"kind": "http", "url": silent, "model": "multilingual-e5-small", "retries": 0}
    db.execute("SELECT hindsight.create_bank('b', config => %s)", (json.dumps({"embedding_provider": provider}),))
    error, took = ended_within(db, "SELECT count(*) FROM hindsight.recall('b', 'where is the offsite?')", (), 4)
    assert isinstance(error, psycopg.errors.QueryCanceled) and took >= 2
    config = {**E5_BANK, "llm_base_url": f"{silent}/v1", "llm_model": "m"}
    db.execute("SELECT hindsight.create_bank('r', config => %s)", (json.dumps(config),))
    error, took = ended_within(db, "SELECT * FROM hindsight.reflect('r', 'where is the offsite?')", (), 4)
    assert isinstance(error, psycopg.errors.QueryCanceled) and took >= 2


@pytest.mark.slow
@pytest.mark.parametrize("how", ["pg_cancel_backend", "pg_terminate_backend"])
def test_cancel_and_terminate_take_effect_inside_the_model_within_a_second(db, how):
    db.execute("SELECT hindsight.create_bank('b')")
    before = server_started(db)
    worker = psycopg.connect(db.info.dsn, autocommit=True)
    pid = worker.info.backend_pid
    worker.execute("SELECT hindsight.embed('b', ARRAY['warm up'])")  # the model loaded: the call below embeds
    ended: dict[str, Any] = {}

    def embed() -> None:
        try:
            worker.execute("SELECT hindsight.embed('b', %s)", ([SENTENCE * 140] * 1000,))
        except psycopg.Error as exc:
            ended["error"], ended["at"] = exc, time.perf_counter()

    thread = threading.Thread(target=embed)
    thread.start()
    time.sleep(1.5)  # inside the model's native calls by now
    asked = time.perf_counter()
    assert db.execute(f"SELECT {how}(%s)", (pid,)).fetchone() == (True,)
    thread.join(30)
    assert ended, "the embedding was not stopped"
    assert ended["at"] - asked < 1.5, ended["at"] - asked
    if how == "pg_cancel_backend":
        assert isinstance(ended["error"], psycopg.errors.QueryCanceled)
        assert worker.execute("SELECT 1").fetchone() == (1,)  # the session goes on
    else:
        assert isinstance(ended["error"], psycopg.OperationalError)
    worker.close()
    assert server_started(db) == before  # no crash recovery: the postmaster never restarted
