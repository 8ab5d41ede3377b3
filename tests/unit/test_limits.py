"""Bounded work outside the database (hindsight_pl.limits): the one definition, the refusals, the cuts,
the windows and native calls of the real models, the checkpoints between them, and the model server's
limits. (In the database, with statement_timeout and pg_cancel_backend: tests/db/test_bounded_work.py.)"""

from __future__ import annotations

import json
import re
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
import requests
from _models import model_server

from hindsight_pl import limits, providers, tokens
from hindsight_pl.pipeline import retain as retaining
from hindsight_pl.providers import LocalEmbedder, LocalReranker

ROOT = Path(__file__).resolve().parents[2]
SENTENCE = "Dana moved the billing cutover to Friday after the audit. "


class Cancelled(Exception):
    pass


@pytest.fixture
def checkpoints():
    """A checkpoint that counts its calls (and raises Cancelled once ``cancel_after`` is reached)."""

    class Counter:
        calls = 0
        cancel_after: int | None = None

        def __call__(self) -> None:
            self.calls += 1
            if self.cancel_after is not None and self.calls >= self.cancel_after:
                raise Cancelled

    counter = Counter()
    limits.set_checkpoint(counter)
    yield counter
    limits.set_checkpoint(None)


def test_the_json_file_is_the_one_definition_and_docs_list_every_limit():
    rows = json.loads((ROOT / "plpython/hindsight_pl/limits.json").read_text())
    assert {r["name"]: r["value"] for r in rows} == {n: limit.value for n, limit in limits.LIMITS.items()}
    assert limits.value("query_chars") == 2000 and limits.value("content_chars") == 1_000_000
    docs = (ROOT / "docs/reliability.md").read_text()
    for row in rows:  # each limit with its value, in the table of docs/reliability.md
        assert re.search(rf"\| `{row['name']}` \| {row['value']:,} {re.escape(row['unit'])} \|", docs), row["name"]
    built = (ROOT / "sql/functions/common/limits.sql").read_text()
    assert "\n@LIMITS_JSON@\n" in built  # the build puts the file there (Makefile, SQL_FILE)


def test_a_refusal_names_the_limit_and_says_what_to_do():
    with pytest.raises(limits.LimitError) as caught:
        limits.check_query("x" * 2001)
    assert str(caught.value) == "query has 2,001 characters, more than the 2,000 allowed (query_chars)"
    assert caught.value.sqlstate == "54000" and "hindsight.limits()" in caught.value.hint
    assert limits.check_query("x" * 2000) == "x" * 2000
    with pytest.raises(limits.LimitError, match="the call has 10,001 items, more than the 10,000 allowed"):
        limits.check_count("items", "the call", 10_001)


def test_json_is_bounded_in_bytes_and_depth_without_recursing():
    limits.check_json({"a": [[{"b": 1}]]}, "metadata")
    with pytest.raises(limits.LimitError, match=r"metadata has 70,009 bytes, more than the 65,536 allowed"):
        limits.check_json({"a": "x" * 70_000}, "metadata")
    deep: list = []
    for _ in range(33):
        deep = [deep]
    with pytest.raises(limits.LimitError, match=r"more than the 32 allowed \(json_depth\)"):
        limits.check_json(deep, "metadata")
    nested = "[" * 32 + "]" * 32
    assert limits.load_json(nested, "metadata") is not None  # 32 levels pass
    # deeper than Python's parser can go: refused as too deep, with the depth counted from the text
    with pytest.raises(limits.LimitError, match="metadata has 100,000 levels"):
        limits.load_json("[" * 100_000 + "]" * 100_000, "metadata")
    assert limits._text_depth('{"a": "[[[\\"[", "b": [[1]]}') == 3  # brackets in strings do not count


def test_retain_items_are_refused_before_any_work():
    now = datetime(2025, 1, 1, tzinfo=UTC)
    cases = {
        "content_chars": dict(content="a" * 1_000_001),
        "tags": dict(content="ok", tags=[f"t{i}" for i in range(101)]),
        "entities": dict(content="ok", entities=[f"E{i}" for i in range(101)]),
        "name_chars": dict(content="ok", tags=["x" * 201]),
        "json_bytes": dict(content="ok", metadata={"a": "x" * 70_000}),
    }
    for name, arguments in cases.items():
        with pytest.raises(limits.LimitError, match=rf"\({name}\)"):
            retaining.prepare(timestamp=now, label="item 3", **arguments)
    with pytest.raises(limits.LimitError, match=r"^item 3: document_id has 201 characters"):
        retaining.prepare("ok", timestamp=now, document_id="d" * 201, label="item 3")
    with pytest.raises(limits.LimitError, match=r"^item 3: tags: 'xxx.*'... has 201 characters"):
        retaining.prepare("ok", timestamp=now, tags=["x" * 201], label="item 3")
    with pytest.raises(limits.LimitError, match=r"^item 3: context has 10,001 characters"):
        retaining.prepare("ok", timestamp=now, context="c" * 10_001, label="item 3")
    assert retaining.prepare("a" * 1_000_000, timestamp=now).chunks  # at the limit: taken


def test_windows_cut_by_characters_and_cost_before_any_tokenizer():
    assert limits.cost("abc") == 3 and limits.cost("你好") == 10 and limits.cost("Привет") == 18  # 1, 5 and 3 each
    text = SENTENCE * 400  # 23,200 characters
    pieces = limits.windows(text, 2000, 8000)
    assert sum(len(p) for p in pieces) + len(pieces) - 1 <= 8000  # only the first 8,000 characters are read
    assert all(limits.cost(p) <= 2000 for p in pieces) and len(pieces) == 5
    chinese = "我们下周三去杭州开会讨论数据库迁移的计划。" * 100  # 2,100 characters, cost 4 each
    assert all(limits.cost(p) <= 2000 for p in limits.windows(chinese, 2000, 8000))
    assert limits.windows("short", 2000, 8000) == ["short"] and limits.windows("", 2000, 8000) == [""]


def test_batches_keep_each_native_call_within_the_budget():
    assert [(s.start, s.stop) for s in limits.batches([500, 500, 1500, 3000, 10, 10], 2000, 32)] == [
        (0, 2), (2, 3), (3, 4), (4, 6),
    ]  # fmt: skip
    assert [(s.start, s.stop) for s in limits.batches([1] * 70, 2000, 32)] == [(0, 32), (32, 64), (64, 70)]
    assert list(limits.batches([], 2000, 32)) == []


def test_e5_reads_a_long_text_in_windows_with_a_checkpoint_between_native_calls(checkpoints):
    e5 = LocalEmbedder(providers.E5)
    long = SENTENCE * 400
    vectors = e5.embed([long, "a short fact"])
    assert checkpoints.calls == 5  # four windows of the long text, then the last window with the short fact
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    # what is read is the first 8,000 characters: the rest changes nothing
    assert np.allclose(e5.embed([long[:8000]])[0], vectors[0], atol=1e-6)
    assert not np.allclose(e5.embed([long[:4000]])[0], vectors[0], atol=1e-3)


def test_a_checkpoint_that_raises_stops_the_model_between_calls(checkpoints):
    e5 = LocalEmbedder(providers.E5)
    checkpoints.cancel_after = 2
    started = time.perf_counter()
    with pytest.raises(Cancelled):
        e5.embed([SENTENCE * 200] * 50)  # 50 texts of four windows each: 200 native calls
    assert checkpoints.calls == 2 and time.perf_counter() - started < 3


def test_the_cross_encoder_reads_at_most_rerank_chars(tiny_cross_encoder, checkpoints):
    reranker = LocalReranker(tiny_cross_encoder)
    query, long = "what class did melanie take", "melanie went to a pottery class " * 300
    scores = reranker.rerank(query, [long, long[:2000], "the lake"])
    assert scores[0] == pytest.approx(scores[1], abs=1e-5)  # the rest of the document is never read
    assert reranker.rerank(query + " x" * 2000, ["the lake"])[0] == pytest.approx(
        reranker.rerank((query + " x" * 2000)[:2000], ["the lake"])[0], abs=1e-5
    )
    checkpoints.calls = 0
    reranker.rerank(query, [long] * 10)  # pairs of cost 2,027: one to a native call of at most 4,000
    assert checkpoints.calls == 10
    checkpoints.calls = 0
    reranker.rerank(query, ["the lake at sunset"] * 100)  # pairs of cost 45: 32 (the batch size) to a call
    assert checkpoints.calls == 4


def test_token_counts_of_long_text_are_encoded_in_pieces(checkpoints):
    text = "hello world  foo 12345 bar. " * 20_000  # 560,000 characters
    whole = len(tokens._encoding().encode_ordinary(text))
    assert tokens.count_tokens(text) == whole and checkpoints.calls == 6
    assert tokens.count_tokens("") == 0


def test_wait_checks_while_a_network_call_is_awaited(checkpoints):
    assert limits.wait(lambda x: x + 1, 1) == 2
    checkpoints.cancel_after = 3
    started = time.perf_counter()
    with pytest.raises(Cancelled):
        limits.wait(time.sleep, 5)
    assert time.perf_counter() - started < 1.0  # three slices of 0.2 s, not the 5 s sleep


def test_without_a_checkpoint_wait_calls_straight_through():
    assert limits.wait(time.sleep, 0) is None


@pytest.fixture(scope="module")
def server():  # the tests that use it are slow: a model server started, requests left to time out
    with model_server(LocalEmbedder(providers.E5), None) as url:
        yield url


@pytest.mark.slow
def test_the_model_server_refuses_a_body_over_request_bytes_with_413(server):
    big = json.dumps({"inputs": ["x" * 1_000_000] * 17})  # 17 MB
    answer = requests.post(f"{server}/embed", data=big, headers={"Content-Type": "application/json"}, timeout=30)
    assert answer.status_code == 413
    assert answer.json()["error"] == (
        "the body has 17,000,080 bytes, more than the 16,777,216 allowed (request_bytes) (hint: Send at most "
        "16,777,216 bytes: send several requests (SELECT * FROM hindsight.limits(); docs/reliability.md).)"
    )

    def chunks():  # no Content-Length: the server stops reading past the limit
        for _ in range(20):
            yield b" " * 1_000_000

    answer = requests.post(f"{server}/embed", data=chunks(), timeout=30)
    assert answer.status_code == 413 and "the body (read so far) has 1" in answer.json()["error"]


@pytest.mark.slow
def test_the_model_server_embeds_what_a_text_holds_within_embed_chars(server):
    long = SENTENCE * 400
    answer = requests.post(f"{server}/embed", json={"inputs": [long, long[:8000]]}, timeout=60).json()
    assert np.allclose(answer[0], answer[1], atol=1e-6)


@pytest.mark.slow
def test_the_model_server_stops_a_request_whose_client_went_away_and_serves_the_next(server):
    long = [SENTENCE * 140] * 200  # 200 texts of 8,000 characters: minutes of model work
    with pytest.raises(requests.Timeout):
        requests.post(f"{server}/embed", json={"inputs": long}, timeout=1)
    started = time.perf_counter()
    answer = requests.post(f"{server}/embed", json={"inputs": ["one short text"]}, timeout=30)
    assert answer.status_code == 200 and time.perf_counter() - started < 8  # after one part, not minutes
