"""Recall of a bank retained under 0.2.0, before ALTER EXTENSION UPDATE and after it.

The update changes recall only as docs/integrations.md ("Upgrades") says: the BM25 keyword arm, the reader,
the calibrated passthrough, the recency boost's alpha and, under a time window, window_first and the recency
boost. With the first five turned off by the bank's config (``OLD_RANKING``) a question without a time window
recalls the same top 10 with the same scores; a window that holds no unit of the bank only no longer scales
every score by the temporal boost of 0 (0.9); under a window that narrows the bank, the recency boost no longer
counts. A bank
of another model than all-MiniLM-L6-v2 keeps the cosine thresholds 0.2.0 gave it (the update pins them).
"""

from __future__ import annotations

import json
from typing import Any

import psycopg
import pytest
from psycopg import sql
from test_upgrade import BANK, LOCOMO, TURNS, Conversation, databases, needs_locomo, retain
from test_upgrade import conversation as retained  # noqa: F401  (a fixture: conv-26's first 150 turns, as items)

from hindsight_pg._inputs import load_locomo
from hindsight_pl.providers import MINILM, LocalEmbedder

PREVIOUS = "0.2.0"
QUESTIONS = 26  # conv-26's first 26 questions (categories 1-4) whose evidence lies in the retained turns
# questions that name a period of the retained sessions (8 May to 15 July 2023), asked on 15 July 2023
WINDOWED = ["What happened on 25 May 2023?", "What did Caroline and Melanie talk about in June 2023?"]
# 0.3.0's new ranking turned off: keyword arm ts_rank_cd, no reader, the passthrough fused / best (the
# calibrated passthrough with the fused score alone is 0.2.0's normalized one), no window-first order, the
# recency boost of 0.2.0 (alpha 0.2)
OLD_RANKING = {
    "keyword_backend": "native",
    "reranker_provider": {"kind": "none"},
    "passthrough_weights": {"rrf": 1, "semantic": 0, "keyword": 0, "temporal": 0},
    "window_first": False,
    "recency_alpha": 0.2,
}
# the cosine thresholds of 0.2.0 (all-MiniLM-L6-v2's; 0.3.0's defaults are multilingual-e5-small's)
THRESHOLDS_0_2_0 = {
    "dedupe_similarity": 0.95,
    "observation_merge_similarity": 0.97,
    "observation_similarity": 0.85,
    "semantic_link_min_similarity": 0.7,
    "graph_seed_min_similarity": 0.3,
    "graph_semantic_floor": 0.3,
    "temporal_min_similarity": 0.1,
}
# a bank embedded by an HTTP provider under 0.2.0 (its vectors here are all-MiniLM-L6-v2's all the same:
# only the thresholds its model name selects differ); nothing calls it, every vector is given
HTTP_PROVIDER = {"kind": "http", "url": "http://127.0.0.1:9/embed", "model": "text-embedding-3-small"}

Hit = tuple[str, str, float, float | None, float]  # document id, text, score, temporal_proximity, recency


@pytest.fixture(scope="module")
def questions() -> list[tuple[str, list[float]]]:
    """conv-26's first QUESTIONS questions whose evidence was retained, then WINDOWED, with their
    all-MiniLM-L6-v2 query embeddings."""
    (conv,) = [c for c in load_locomo(LOCOMO) if c.sample_id == BANK]
    in_bank = {t.metadata["dia_id"] for t in conv.items[:TURNS]}
    asked = [
        q["question"] for q in conv.questions
        if q.get("category") in (1, 2, 3, 4) and q.get("evidence") and set(q["evidence"]) <= in_bank
    ][:QUESTIONS]  # fmt: skip
    asked += WINDOWED
    embedded = LocalEmbedder(MINILM).embed(asked, kind="query")
    return [(q, [float(x) for x in v]) for q, v in zip(asked, embedded, strict=True)]


def top10s(conn: psycopg.Connection[Any], questions: list[tuple[str, list[float]]], asked_at: str) -> list[list[Hit]]:
    """For each question, the top 10 of hindsight.recall (the installed version's defaults, budget mid),
    asked at ``asked_at``: (document id, text, score, temporal_proximity, recency) by rank."""
    return [
        conn.execute(
            "SELECT document_id, text, score, temporal_proximity, recency FROM hindsight.recall(%s, %s, %s::vector,"
            " max_tokens => 100000, query_timestamp => %s::timestamptz) WHERE rank <= 10 ORDER BY rank",
            (BANK, question, str(embedding), asked_at),
        ).fetchall()
        for question, embedding in questions
    ]


def same(before: list[list[Hit]], after: list[list[Hit]]) -> tuple[int, int]:
    """(questions whose first result is the same, questions whose top 10 is the same in order), by unit text."""
    first = sum(1 for b, a in zip(before, after, strict=True) if b[0][:2] == a[0][:2])
    top = sum(1 for b, a in zip(before, after, strict=True) if [h[:2] for h in b] == [h[:2] for h in a])
    return first, top


def recall_across_the_update(
    db: psycopg.Connection[Any], conversation: Conversation, questions: list[tuple[str, list[float]]],
    config: dict[str, Any],
) -> tuple[list[list[Hit]], list[list[Hit]], list[list[Hit]], dict[str, Any]]:  # fmt: skip
    """A database at 0.2.0 whose bank (``config`` on test_upgrade's) holds the conversation: the top 10s
    before the update, after it with 0.3.0's defaults, after it with OLD_RANKING; and the bank's own
    config after the update."""
    with databases(db, "upgraded") as dbs, psycopg.connect(**dbs["upgraded"]) as conn:
        conn.execute(sql.SQL("CREATE EXTENSION hindsight_pg VERSION {} CASCADE").format(PREVIOUS))
        retain(conn, conversation)
        conn.execute("UPDATE hindsight.banks SET config = config || %s::jsonb WHERE bank_id = %s",
                     (json.dumps(config), BANK))  # fmt: skip
        before = top10s(conn, questions, conversation.asked_at)
        conn.execute("ALTER EXTENSION hindsight_pg UPDATE")
        (own,) = conn.execute("SELECT config FROM hindsight.banks WHERE bank_id = %s", (BANK,)).fetchone()
        defaults = top10s(conn, questions, conversation.asked_at)
        conn.execute("SELECT hindsight.configure_bank(%s, %s::jsonb)", (BANK, json.dumps(OLD_RANKING)))
        old_ranking = top10s(conn, questions, conversation.asked_at)
    return before, defaults, old_ranking, own


def assert_recalls_as_before(before: list[list[Hit]], after: list[list[Hit]]) -> None:
    """The documented differences only: the same top 10 of every question without a window that
    narrows the bank, with the same scores, or with every score over 0.9 where the question's window
    holds no unit (temporal proximity 0 for every result before, none after); under a window that
    narrows the bank, each unit's score before is its score after times its recency boost (alpha 0.2)."""
    for hits_before, hits_after in zip(before[:QUESTIONS], after[:QUESTIONS], strict=True):
        assert [h[:2] for h in hits_after] == [h[:2] for h in hits_before]
        for b, a in zip(hits_before, hits_after, strict=True):
            idle_window = b[3] == 0 and a[3] is None
            assert a[2] == pytest.approx(b[2] / 0.9 if idle_window else b[2], rel=1e-9)
    for hits_before, hits_after in zip(before[QUESTIONS:], after[QUESTIONS:], strict=True):
        assert hits_before[0][3] > 0  # the window narrows the bank
        scores_before = {h[1]: h[2] for h in hits_before}
        in_both = [h for h in hits_after if h[1] in scores_before]
        assert len(in_both) >= 8
        for text, score, _, recency in (h[1:] for h in in_both):
            assert score * (1 + 0.2 * (recency - 0.5)) == pytest.approx(scores_before[text], rel=1e-9)


@needs_locomo
@pytest.mark.locomo
@pytest.mark.slow
def test_a_bank_from_0_2_0_recalls_as_before_but_for_the_documented_changes(db, retained, questions):  # noqa: F811
    before, defaults, old_ranking, own = recall_across_the_update(db, retained, questions, {})
    assert own["embedding_model"] == MINILM and not set(THRESHOLDS_0_2_0) & set(own)  # its model's defaults
    assert all(len(hits) == 10 for hits in before)
    # 0.3.0's defaults (BM25 keyword arm, the reader, the calibrated passthrough) change the order
    first, top = same(before, defaults)
    assert first < QUESTIONS and top < QUESTIONS // 2
    assert_recalls_as_before(before, old_ranking)


@needs_locomo
@pytest.mark.locomo
@pytest.mark.slow
def test_a_bank_of_another_model_keeps_its_thresholds(db, retained, questions):  # noqa: F811
    """0.2.0 used all-MiniLM-L6-v2's thresholds for every model; without the pins, 0.3.0 would give a bank
    of an HTTP provider's model multilingual-e5-small's (graph seeds at cosine 0.79 instead of 0.3, ...):
    before the fix, the same first result in 21 of these 26 questions and the same top 10 in 2."""
    before, _, old_ranking, own = recall_across_the_update(
        db, retained, questions, {"embedding_provider": HTTP_PROVIDER}
    )
    assert own["embedding_model"] == "text-embedding-3-small"
    assert {k: own[k] for k in THRESHOLDS_0_2_0} == THRESHOLDS_0_2_0
    assert_recalls_as_before(before, old_ranking)


def test_the_update_pins_the_thresholds_of_banks_of_other_models(db):
    """Which banks get 0.2.0's thresholds written into their config, and that their own keys win."""
    with databases(db, "upgraded") as dbs, psycopg.connect(**dbs["upgraded"]) as conn:
        conn.execute(sql.SQL("CREATE EXTENSION hindsight_pg VERSION {} CASCADE").format(PREVIOUS))
        banks = {
            "local": {},
            "http": {"embedding_provider": HTTP_PROVIDER},
            "http_own_seed": {"embedding_provider": HTTP_PROVIDER, "graph_seed_min_similarity": 0.5},
        }
        for bank_id, config in banks.items():
            conn.execute("SELECT hindsight.create_bank(%s, config => %s::jsonb)", (bank_id, json.dumps(config)))
        conn.execute("ALTER EXTENSION hindsight_pg UPDATE")
        own = dict(conn.execute("SELECT bank_id, config FROM hindsight.banks").fetchall())
        effective = {b: conn.execute("SELECT hindsight.bank_config(%s)", (b,)).fetchone()[0] for b in banks}
        # a key set to null takes the model's 0.3.0 default (multilingual-e5-small's for an unknown model)
        conn.execute("SELECT hindsight.configure_bank('http', '{\"graph_seed_min_similarity\": null}')")
        (released,) = conn.execute("SELECT hindsight.bank_config('http')->'graph_seed_min_similarity'").fetchone()
    assert own["local"] == {"embedding_model": MINILM}
    assert own["http"] == {"embedding_model": "text-embedding-3-small", "embedding_provider": HTTP_PROVIDER,
                           **THRESHOLDS_0_2_0}  # fmt: skip
    assert own["http_own_seed"] == own["http"] | {"graph_seed_min_similarity": 0.5}
    for bank_id, config in banks.items():  # every bank recalls with 0.2.0's thresholds, or its own
        expected = THRESHOLDS_0_2_0 | {k: v for k, v in config.items() if k in THRESHOLDS_0_2_0}
        assert {k: effective[bank_id][k] for k in THRESHOLDS_0_2_0} == expected, bank_id
    assert released == 0.79
