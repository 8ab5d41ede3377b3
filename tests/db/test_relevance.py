"""Relevance: each result's probability of answering, the same across recalls (the packaged reader's logit, else the
cosine of an E5 bank, each through its calibration), and min_relevance, which keeps what is plainly unrelated out of
a spare budget: in SQL, the driver, the CLI and MCP."""

from __future__ import annotations

import json
import math
from typing import Any

import psycopg
import pytest
from typer.testing import CliRunner

from hindsight_pg import Client, InvalidInputError, cli

TEAM = [
    "Maya: The team offsite is in Valencia this year, the hotel is booked for everyone.",
    "Tom: Most Saturdays I go bouldering at the climbing gym on Elm Street.",
    "Priya: The quarterly report is due on Friday, I still need the sales figures.",
    "Daniel: My dog Biscuit loved the long coastal hike.",
    "Sofia: I switched the office coffee machine to oat milk.",
    "Lena: The printer on the third floor is out of toner again.",
]
OFFSITE = "Where is the team offsite?"


def sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


@pytest.fixture
def team(client: Client) -> str:
    client.create_bank("team")
    client.retain_batch("team", [{"content": text, "timestamp": "2025-03-03T09:00:00Z"} for text in TEAM])
    return "team"


def test_each_result_carries_its_calibrated_probability(client: Client, team: str) -> None:
    response = client.recall(team, OFFSITE, max_results=None, max_tokens=100_000, trace=True)
    by_id = {r["id"]: r for r in response.trace["scoring"]["results"]}
    lowest = min(r.scores.semantic_score for r in response.results if r.scores.semantic_score is not None)
    read = 0
    for r in response.results:
        logit = by_id[str(r.id)]["rerank_raw"]
        if logit is not None:  # the packaged reader read it: its logit, calibrated
            expected = sigmoid(0.3597 * logit - 1.7333)
            read += 1
        else:  # the cosine of an E5 bank (the semantic arm's last one for a unit it did not return)
            expected = sigmoid(60.847 * (r.scores.semantic_score or lowest) - 55.0159)
        assert r.relevance == pytest.approx(expected, abs=1e-9)
        assert by_id[str(r.id)]["relevance"] == pytest.approx(r.relevance)
        assert 0 <= r.relevance <= 1
    assert read == 6  # a mid recall's reader reads its best 10: the six units
    first = response.results[0]
    assert "Valencia" in first.text and first.relevance > 0.5
    assert all(r.relevance < 0.1 for r in response.results[1:])


def test_the_same_memory_keeps_its_relevance_when_the_bank_grows(client: Client, team: str) -> None:
    before = client.recall(team, OFFSITE).results[0]
    client.retain_batch(
        team, [f"Lena: Note {i}: the meeting room {i} needs a new whiteboard marker." for i in range(30)]
    )
    after = client.recall(team, OFFSITE).results[0]
    assert after.id == before.id
    # the same to within the int8 reader's own noise (its dynamic quantisation scales each batch it reads)
    assert after.relevance == pytest.approx(before.relevance, abs=0.02)


def test_min_relevance_keeps_the_unrelated_out_of_a_spare_budget(client: Client, team: str, db: Any) -> None:
    every = client.recall(team, OFFSITE, max_tokens=100_000).results
    assert len(every) == len(TEAM)
    floor = client.recall(team, OFFSITE, max_tokens=100_000, min_relevance=0.2).results
    assert [r.id for r in floor] == [every[0].id]
    # SQL says the same, as rows and as JSON
    rows = db.execute("SELECT id, relevance FROM hindsight.recall('team', %s, min_relevance => 0.2)", (OFFSITE,))
    assert [r[0] for r in rows.fetchall()] == [every[0].id]
    (document,) = db.execute("SELECT hindsight.recall_json('team', %s, min_relevance => 0.2)", (OFFSITE,)).fetchone()
    assert [r["id"] for r in document["results"]] == [str(every[0].id)]
    assert document["results"][0]["relevance"] == pytest.approx(every[0].relevance)
    # nothing relevant: no results, rather than the least unrelated
    assert client.recall(team, "What is the capital of Mongolia?", min_relevance=0.5).results == []


def test_a_bank_without_a_calibration_leaves_relevance_unknown_and_never_drops_for_it(client: Client) -> None:
    client.create_bank("mini", config={"embedding_model": "all-MiniLM-L6-v2", "reranker_provider": {"kind": "none"}})
    own = Client(client.conn)  # each bank's own model: MiniLM here
    own.retain_batch("mini", TEAM)
    results = own.recall("mini", OFFSITE, max_tokens=100_000, min_relevance=0.9).results
    assert len(results) == len(TEAM) and all(r.relevance is None for r in results)


def test_a_bad_floor_is_refused(client: Client, team: str, db: psycopg.Connection[Any]) -> None:
    with pytest.raises(InvalidInputError, match=r"min_relevance must be within \[0, 1\]"):
        client.recall(team, OFFSITE, min_relevance=1.5)
    with pytest.raises(InvalidInputError, match="min_relevance must be float or int"):
        client.recall(team, OFFSITE, min_relevance="high")  # type: ignore[arg-type]
    with pytest.raises(psycopg.errors.InvalidParameterValue, match=r"min_relevance must be within \[0, 1\]"):
        db.execute("SELECT * FROM hindsight.recall('team', %s, min_relevance => -0.1)", (OFFSITE,))


def test_the_cli_prints_relevance_and_takes_a_floor(team: str, db: psycopg.Connection[Any], monkeypatch) -> None:
    monkeypatch.setenv("HINDSIGHT_PG_DSN", db.info.dsn)
    result = CliRunner().invoke(cli.app, ["recall", team, OFFSITE, "--min-relevance", "0.2", "--json"],
                                env={"COLUMNS": "200"})  # fmt: skip
    assert result.exit_code == 0, result.output
    (only,) = json.loads(result.output)["results"]
    assert "Valencia" in only["text"] and only["relevance"] > 0.2
    result = CliRunner().invoke(cli.app, ["recall", team, OFFSITE, "--limit", "2"], env={"COLUMNS": "200"})
    first = result.output.splitlines()[0]
    assert "Valencia" in first and "relevance 0." in first
