"""Recall: arms, fusion, scores, filters, packing, errors, trace."""

from __future__ import annotations

import json

import psycopg
import pytest
from _helpers import NO_LINKS, bank, put, recall, vec

from hindsight_pg import BankNotFoundError


def fill(db, bank_id: str, n: int, fact_type: str = "world", seed: float = 0.5) -> None:
    """n units with random vectors, inserted directly (recall's inputs, not retain's path)."""
    db.execute("SELECT setseed(%s)", (seed,))
    db.execute(
        """
        INSERT INTO hindsight.memory_units (bank_id, text, fact_type, embedding, token_count, search_vector)
        SELECT %(b)s, 'filler note ' || g, %(t)s,
               (SELECT array_agg(random() - 0.5) FROM generate_series(1, 384) WHERE g > 0)::vector,
               4, to_tsvector('english', 'filler note ' || g)
        FROM generate_series(1, %(n)s) g
        """,
        {"b": bank_id, "n": n, "t": fact_type},
    )


def test_rrf_of_ranks_one_and_five(db):
    rows = db.execute(
        """SELECT unit_id::text, round(rrf_score::numeric, 6)::float8, semantic_rank, keyword_rank, keyword_score
           FROM hindsight._fuse(ARRAY[
               ('semantic', 'aaaaaaaa-0000-0000-0000-000000000000', 1, 0.9),
               ('keyword', 'aaaaaaaa-0000-0000-0000-000000000000', 5, 0.2),
               ('keyword', 'bbbbbbbb-0000-0000-0000-000000000000', 1, 0.7)]::hindsight._arm_hit[])
           ORDER BY 2 DESC"""
    ).fetchall()
    assert rows == [
        # 1/61 + 1/65 = 0.016393 + 0.015385 = 0.031778 (the "0.031789" is a slip of a digit)
        ("aaaaaaaa-0000-0000-0000-000000000000", 0.031778, 1, 5, 0.2),
        ("bbbbbbbb-0000-0000-0000-000000000000", 0.016393, None, 1, 0.7),  # 1/61
    ]


def test_scores_are_rrf_over_the_best_rrf(db):
    bank(db, "b")
    put(db, "b", [("Plain one.", vec(d0=1)), ("Plain two.", vec(d0=1, d1=1)), ("Plain three.", vec(d1=1))])
    rows = recall(db, "b", "zzzz", vec(d0=1), passthrough="normalized")  # no keyword matches: semantic ranks only
    assert [r["text"] for r in rows] == ["Plain one.", "Plain two.", "Plain three."]
    assert [r["semantic_rank"] for r in rows] == [1, 2, 3]
    assert [r["keyword_rank"] for r in rows] == [None, None, None]
    assert rows[0]["semantic_score"] == pytest.approx(1.0)
    assert rows[1]["semantic_score"] == pytest.approx(0.707107, abs=1e-5)  # cos 45 degrees
    assert rows[2]["semantic_score"] == pytest.approx(0.0, abs=1e-6)
    # rrf = 1/61, 1/62, 1/63; passthrough rerank score = rrf / (1/61)
    assert [round(r["rrf_score"], 6) for r in rows] == [0.016393, 0.016129, 0.015873]
    assert [round(r["rerank_score"], 6) for r in rows] == [1.0, 0.983871, 0.968254]
    # retained just now: recency 1.0 -> boost 1 + 0.1 * (1.0 - 0.5) = 1.05; no window, no proof: neutral
    assert [r["recency"] for r in rows] == [pytest.approx(1.0, abs=1e-6)] * 3
    assert [(r["temporal_proximity"], r["proof"]) for r in rows] == [(None, 0.5)] * 3
    assert [round(r["score"], 6) for r in rows] == [1.05, 1.033065, 1.016667]
    assert [r["rank"] for r in rows] == [1, 2, 3]


def test_calibrated_passthrough_combines_normalised_arm_scores(db):
    bank(db, "b")
    put(db, "b", [("Plain one.", vec(d0=1)), ("Plain two.", vec(d0=1, d1=1)), ("Plain three.", vec(d1=1)),
                  ("A kiwi note.", vec(d1=1, d2=1))])  # fmt: skip
    rows = {r["text"]: r for r in recall(db, "b", "kiwi", vec(d0=1))}  # the default passthrough
    # semantic cosines 1, 0.707, 0, 0 -> min-max 1, 0.707, 0, 0; only the kiwi note has a BM25 score (-> 1);
    # rrf: semantic ranks 1..4 (ties by id) plus keyword #1 for the note; no window: the temporal weight is out
    best = max(r["rrf_score"] for r in rows.values())
    for text, cosine_part, keyword_part in [("Plain one.", 1.0, 0.0), ("Plain two.", 0.707107, 0.0),
                                         ("Plain three.", 0.0, 0.0), ("A kiwi note.", 0.0, 1.0)]:  # fmt: skip
        r = rows[text]
        expected = (0.5 * r["rrf_score"] / best + 0.25 * cosine_part + 0.25 * keyword_part) / 1.0
        assert r["rerank_score"] == pytest.approx(expected, abs=1e-5), text
    # the kiwi note: 0.5 * 1 (best rrf: semantic #3 or #4 plus keyword #1) + 0.25 = 0.75; Plain one: 0.5 * (1/61) /
    # best + 0.25, so the keyword match wins, and by a margin the +-10 % recency boost cannot undo
    assert rows["A kiwi note."]["rank"] == 1
    assert rows["A kiwi note."]["rerank_score"] == pytest.approx(0.75, abs=1e-9)


def test_consensus_of_two_arms_beats_one_arm_alone(db):
    bank(db, "b")
    put(
        db,
        "b",
        [
            ("Semantic favourite without the word.", vec(d0=1)),  # semantic #1 only
            ("The kiwi harvest report.", vec(d0=1, d1=0.6)),  # semantic #2 and keyword #1
            ("Unrelated.", vec(d2=1)),
        ],
    )
    rows = recall(db, "b", "kiwi", vec(d0=1))
    assert [r["text"] for r in rows[:2]] == ["The kiwi harvest report.", "Semantic favourite without the word."]
    assert (rows[0]["semantic_rank"], rows[0]["keyword_rank"]) == (2, 1)
    assert rows[0]["rrf_score"] == pytest.approx(1 / 62 + 1 / 61)


def test_keyword_query_with_operators_does_not_raise(db):
    bank(db, "b", keyword_backend="bm25")
    put(db, "b", [("Our infra team policy: deploys freeze on Fridays.", vec(d0=1)), ("Lunch menu.", vec(d1=1))])
    (doc,) = db.execute(
        "SELECT hindsight.recall_json('b', %s, trace => true)", ("What's our policy on team:infra & a|b?",)
    ).fetchone()
    assert doc["results"][0]["text"] == "Our infra team policy: deploys freeze on Fridays."
    assert doc["trace"]["arms"]["keyword"]["terms"] == ["b", "infra", "polici", "team"]
    db.execute("UPDATE hindsight.banks SET config = jsonb_build_object('keyword_backend', 'native')")
    (doc,) = db.execute(
        "SELECT hindsight.recall_json('b', %s, trace => true)", ("What's our policy on team:infra & a|b?",)
    ).fetchone()
    assert doc["trace"]["arms"]["keyword"]["tsquery"] == "'b' | 'infra' | 'polici' | 'team'"
    for query in ["'", "\\", "a:*", "!(x)", "<->", "''' | & !", "team:infra & a|b"]:
        db.execute("SELECT count(*) FROM hindsight.recall('b', %s)", (query,))


def test_stop_words_only_query_skips_the_keyword_arm(db):
    bank(db, "b")
    put(db, "b", [("The note.", vec(d0=1))])
    (doc,) = db.execute(
        "SELECT hindsight.recall_json('b', 'the and of', %s::vector, trace => true)", (str(vec(d0=1)),)
    ).fetchone()
    assert doc["trace"]["arms"]["keyword"]["ran"] is False
    assert doc["trace"]["arms"]["semantic"]["ran"] is True
    assert [r["text"] for r in doc["results"]] == ["The note."]


def test_recall_of_the_keyword_arm_alone_needs_no_embedding(db):
    bank(db, "b")
    put(db, "b", [("Giraffes are tall.", vec(d0=1)), ("Zebras have stripes.", vec(d1=1))])
    rows = recall(db, "b", "zebra stripes", None, arms=["keyword", "temporal"])
    assert [r["text"] for r in rows] == ["Zebras have stripes."]
    assert rows[0]["semantic_rank"] is None and rows[0]["keyword_rank"] == 1


@pytest.mark.slow
@pytest.mark.parametrize("share", ["small", "large"])
def test_bank_filter_fills_the_limit_with_thousands_of_units_in_other_banks(db, share):
    # a bank below a tenth of the table is scanned exactly; above, through the shared HNSW index
    bank(db, "crowd")
    fill(db, "crowd", 5000 if share == "small" else 600, seed=0.1)  # mine: 7 % or 40 % of the table
    bank(db, "mine", hnsw_min_units=300)
    fill(db, "mine", 400, seed=0.2)
    db.execute("ANALYZE hindsight.memory_units")
    path = db.execute("SELECT hindsight._semantic_path('mine')").fetchone()[0]
    assert path == ("exact" if share == "small" else "hnsw")
    query = vec(d0=1, d7=0.5, d100=0.3)
    rows = recall(db, "mine", "zzzz", query, budget="low", max_tokens=100000, max_results=None)
    assert sum(r["semantic_rank"] is not None for r in rows) == 100  # recall budget low = 100
    (doc,) = db.execute(
        "SELECT hindsight.recall_json('mine', 'zzzz', %s::vector, budget => 'low', trace => true)", (str(query),)
    ).fetchone()
    expected = "exact scan" if share == "small" else "hindsight.memory_units_embedding_idx"
    assert doc["trace"]["arms"]["semantic"]["index"] == expected
    # the first scan through the index is a plain one at ef_search = budget / share (100 / 0.4); when its
    # candidates hold fewer than 100 of the bank's units, the iterative scan fills the limit
    assert doc["trace"]["arms"]["semantic"]["ef_search"] == (None if share == "small" else 250)
    # the same 100 nearest units as an exact scan, whichever path
    exact = [r[0] for r in db.execute(
        "SELECT id FROM hindsight.memory_units WHERE bank_id = 'mine'"
        " ORDER BY (embedding <=> %s::vector) + 0 LIMIT 100",
        (str(query),)).fetchall()]  # fmt: skip
    found = {r["id"] for r in rows if r["semantic_rank"] is not None}
    assert len(found & set(exact)) >= (100 if share == "small" else 95)


def explain_semantic_arm(db, bank_id: str, **args) -> str:
    """The plans auto_explain logs for the semantic arm's statements inside hindsight.recall (one, or two when a
    plain scan of the index falls short and the iterative scan goes on), as one text."""
    notices: list[str] = []

    def keep(d: psycopg.errors.Diagnostic) -> None:
        notices.append(d.message_primary or "")

    db.add_notice_handler(keep)
    try:
        db.execute("LOAD 'auto_explain'")
        for setting in ("log_min_duration = 0", "log_nested_statements = on", "log_level = notice"):
            db.execute(f"SET auto_explain.{setting}")
        recall(db, bank_id, "zzzz", vec(d0=1, d3=1), budget="low", **args)
        db.execute("SET auto_explain.log_min_duration = -1")
    finally:
        db.remove_notice_handler(keep)
    plans = [n for n in notices if "embedding <=>" in n and "Query Text" in n]
    assert plans
    return "\n".join(plans)


@pytest.mark.slow
def test_a_large_bank_is_searched_through_the_shared_hnsw_index(db):
    bank(db, "crowd")
    fill(db, "crowd", 2000, seed=0.3)
    bank(db, "big", hnsw_min_units=1000)
    fill(db, "big", 1500, seed=0.4, fact_type="experience")
    fill(db, "big", 1500, seed=0.5, fact_type="world")
    db.execute("ANALYZE hindsight.memory_units")
    assert "Index Scan using memory_units_embedding_idx on memory_units" in explain_semantic_arm(db, "big")
    # a type filter still fills the limit (the iterative scan goes on, or the exact path answers)
    rows = recall(db, "big", "zzzz", vec(d0=1), budget="low", types=["experience"], max_tokens=100000, max_results=None)
    assert len(rows) == 100 and {r["fact_type"] for r in rows} == {"experience"}
    # the small bank is scanned exactly
    bank(db, "small")
    fill(db, "small", 50, seed=0.6)
    assert "memory_units_embedding_idx" not in explain_semantic_arm(db, "small")


def test_a_bank_under_a_tenth_of_the_table_takes_the_index_once_an_exact_scan_costs_more(db):
    # 100 of 1,100 units (9 %): through the index when units * share (100 * 100 / 1,100 = 9.1) reaches 8 times
    # the mid recall budget, so at a budget of 1 (8) and not at 2 (16); the table's size from ANALYZE
    bank(db, "crowd")
    fill(db, "crowd", 1000, seed=0.1)
    bank(db, "mine", hnsw_min_units=50, recall_budgets={"low": 1, "mid": 1, "high": 1})
    fill(db, "mine", 100, seed=0.2)
    db.execute("ANALYZE hindsight.memory_units")
    assert db.execute("SELECT hindsight._semantic_path('mine')").fetchone()[0] == "hnsw"
    db.execute("""SELECT hindsight.configure_bank('mine', '{"recall_budgets": {"low": 1, "mid": 2, "high": 2}}')""")
    assert db.execute("SELECT hindsight._semantic_path('mine')").fetchone()[0] == "exact"
    db.execute("""SELECT hindsight.configure_bank('mine', '{"hnsw_min_units": 101, "recall_budgets": {"mid": 1}}')""")
    assert db.execute("SELECT hindsight._semantic_path('mine')").fetchone()[0] == "exact"  # below hnsw_min_units


def test_a_plain_scan_takes_ef_search_of_budget_over_share_up_to_pgvectors_ceiling(db):
    bank(db, "crowd")
    fill(db, "crowd", 800, seed=0.1)
    bank(db, "mine")
    fill(db, "mine", 200, seed=0.2)  # 20 % of the table's 1,000 units
    db.execute("ANALYZE hindsight.memory_units")

    def ef(bank_id: str, budget: int) -> int | None:
        return db.execute("SELECT hindsight._plain_ef_search(%s, %s)", (bank_id, budget)).fetchone()[0]

    assert (ef("mine", 100), ef("mine", 199), ef("mine", 200), ef("mine", 201)) == (500, 995, 1000, None)
    assert (ef("crowd", 300), ef("crowd", 800), ef("crowd", 801)) == (375, 1000, None)
    assert ef("nobody", 10) is None  # no units counted: no plain scan


def test_no_index_is_built_as_banks_grow_and_deleting_a_bank_leaves_the_one_index(db):
    bank(db, "b", hnsw_min_units=3)
    put(db, "b", [("One.", vec(d0=1)), ("Two.", vec(d1=1))])
    assert db.execute("SELECT hindsight._semantic_path('b')").fetchone()[0] == "exact"
    put(db, "b", [("Three.", vec(d2=1))])
    assert db.execute("SELECT hindsight._semantic_path('b')").fetchone()[0] == "hnsw"
    indexes = "SELECT indexname FROM pg_indexes WHERE tablename = 'memory_units' AND indexdef LIKE '%USING hnsw%'"
    assert db.execute(indexes).fetchall() == [("memory_units_embedding_idx",)]
    assert db.execute("SELECT hindsight.delete_bank('b')").fetchone()[0] is True
    assert db.execute(indexes).fetchall() == [("memory_units_embedding_idx",)]


def test_top_memory_longer_than_max_tokens_is_skipped(db):
    bank(db, "b")
    long_text = "The complete minutes of the planning meeting, " * 10  # 90 tokens
    put(db, "b", [(long_text, vec(d0=1)), ("Short note one.", vec(d0=1, d1=0.5)), ("Short note two.", vec(d0=1, d1=1))])
    rows = recall(db, "b", "zzzz", vec(d0=1), max_tokens=20)
    assert [r["text"] for r in rows] == ["Short note one.", "Short note two."]
    assert [r["tokens"] for r in rows] == [4, 4]
    assert [r["semantic_rank"] for r in rows] == [2, 3]  # the long #1 was skipped
    assert [r["rank"] for r in rows] == [1, 2]


def test_max_tokens_below_every_memory_returns_the_top_memory_whole(db):
    bank(db, "b")
    put(db, "b", [("The first and best memory.", vec(d0=1)), ("The second memory.", vec(d1=1))])
    rows = recall(db, "b", "zzzz", vec(d0=1), max_tokens=2)
    assert [(r["text"], r["tokens"]) for r in rows] == [("The first and best memory.", 6)]


def test_max_tokens_zero_returns_nothing(db):
    bank(db, "b")
    put(db, "b", [("Something.", vec(d0=1))])
    assert recall(db, "b", "something", vec(d0=1), max_tokens=0) == []


def test_max_results_keeps_the_best_ten_by_default(db):
    bank(db, "b", **NO_LINKS)
    put(db, "b", [(f"Note {i}.", vec(d0=1, d1=i / 10)) for i in range(14)])
    every = recall(db, "b", "zzzz", vec(d0=1), max_results=None)
    assert len(every) == 14 and [r["rank"] for r in every] == list(range(1, 15))
    ten = recall(db, "b", "zzzz", vec(d0=1))
    assert [r["id"] for r in ten] == [r["id"] for r in every[:10]]
    assert [r["id"] for r in recall(db, "b", "zzzz", vec(d0=1), max_results=3)] == [r["id"] for r in every[:3]]
    assert recall(db, "b", "zzzz", vec(d0=1), max_results=0) == []
    (doc,) = db.execute(
        "SELECT hindsight.recall_json('b', 'zzzz', %s::vector, max_results => 4)", (str(vec(d0=1)),)
    ).fetchone()
    assert [r["id"] for r in doc["results"]] == [str(r["id"]) for r in every[:4]]
    (doc,) = db.execute("SELECT hindsight.recall_json('b', 'zzzz', %s::vector)", (str(vec(d0=1)),)).fetchone()
    assert len(doc["results"]) == 10
    # the driver gives the best 10 as SQL does, or every packed result, on either of its paths (recall_json, or its
    # own reader's scores)
    from hindsight_pg import Client

    class Passthrough:
        """A reader of the driver's own that scores every candidate alike."""

        def rerank(self, query: str, texts: list[str]) -> list[float]:
            return [0.5] * len(texts)

    for reranker in (None, Passthrough()):
        driver = Client(db, reranker=reranker)
        all_packed = [r.id for r in driver.recall("b", "zzzz", max_results=None).results]
        assert len(all_packed) == 14, reranker
        assert [r.id for r in driver.recall("b", "zzzz").results] == all_packed[:10], reranker
        assert len(driver.recall("b", "zzzz", max_results=0).results) == 0, reranker


def test_the_interfaces_take_sql_recalls_default_number_of_results_and_floor(db):
    from hindsight_pg._client import DEFAULT_MAX_RESULTS, DEFAULT_MIN_RELEVANCE

    defaults = dict(db.execute(
        "SELECT p.proname, pg_get_function_arguments(p.oid) FROM pg_proc p"
        " WHERE p.pronamespace = 'hindsight'::regnamespace AND p.proname IN ('recall', 'recall_json', 'recall_finish')"
    ).fetchall())  # fmt: skip
    assert len(defaults) == 3
    for name, arguments in defaults.items():
        floor = "NULL::double precision" if DEFAULT_MIN_RELEVANCE is None else DEFAULT_MIN_RELEVANCE
        assert f"min_relevance double precision DEFAULT {floor}" in arguments, (name, arguments)
        if name != "recall_finish":  # it returns every packed row
            assert f"max_results integer DEFAULT {DEFAULT_MAX_RESULTS}" in arguments, (name, arguments)


def test_packing_considers_only_twice_the_recall_budget(db):
    bank(db, "b", recall_budgets={"low": 2}, **NO_LINKS)
    put(db, "b", [(f"Note {i}.", vec(d0=1, d1=i / 10)) for i in range(8)])
    rows = recall(db, "b", "zzzz", vec(d0=1), budget="low")
    assert len(rows) == 2  # the semantic arm returns 2 (recall budget), packing sees at most 4


@pytest.mark.parametrize(
    ("wanted", "mode", "expected"),
    [
        (["a"], "any", {"none", "a", "ab"}),
        (["a", "b"], "all", {"none", "ab"}),
        (["a"], "any_strict", {"a", "ab"}),
        (["a", "b"], "all_strict", {"ab"}),
        (["a"], "exact", {"a"}),
        (["b", "a"], "exact", {"ab"}),
        (None, "any", {"none", "a", "b", "ab"}),
    ],
)
def test_tags_filter_every_arm(db, wanted, mode, expected):
    bank(db, "b")
    for name, tags in [("none", []), ("a", ["a"]), ("b", ["b"]), ("ab", ["a", "b"])]:
        put(db, "b", [(f"Memo {name} about lunch.", vec(d0=1))], tags=tags)
    rows = recall(db, "b", "lunch memo", vec(d0=1), tags=wanted, tags_match=mode)
    assert {r["text"].split()[1] for r in rows} == expected
    assert all(r["semantic_rank"] and r["keyword_rank"] for r in rows)  # both arms filtered alike


def test_types_filter(db):
    bank(db, "b")
    put(
        db,
        "b",
        [
            {"text": "I booked the flight.", "embedding": vec(d0=1), "fact_type": "experience"},
            {"text": "The flight leaves at nine.", "embedding": vec(d0=1), "fact_type": "world"},
        ],
    )
    rows = recall(db, "b", "flight", vec(d0=1), types=["experience"])
    assert [(r["text"], r["fact_type"]) for r in rows] == [("I booked the flight.", "experience")]


@pytest.mark.parametrize(
    ("args", "sqlstate", "message"),
    [
        ({"budget": "huge"}, "22023", 'unknown budget "huge"'),
        ({"max_tokens": -1}, "22023", "max_tokens must be an integer >= 0, got -1"),
        ({"max_results": -1}, "22023", "max_results must be an integer >= 0 or NULL (every packed result), got -1"),
        ({"tags_match": "some"}, "22023", 'unknown tags_match "some"'),
        ({"types": ["opinion"]}, "22023", 'unknown fact type "opinion"'),
    ],
)
def test_bad_arguments_are_named(db, args, sqlstate, message):
    bank(db, "b")
    with pytest.raises(psycopg.Error) as info:
        recall(db, "b", "x", vec(d0=1), **args)
    assert (info.value.sqlstate, info.value.diag.message_primary) == (sqlstate, message)


def test_wrong_query_embedding_size_is_an_error(db):
    bank(db, "b")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="query_embedding has 3 dimensions"):
        db.execute("SELECT * FROM hindsight.recall('b', 'x', '[1,2,3]')")


def test_unknown_bank_error_names_the_bank(db, client):
    with pytest.raises(psycopg.Error) as info:
        recall(db, "ghost-bank", "x", vec(d0=1))
    assert info.value.sqlstate == "HS404"
    assert info.value.diag.message_primary == 'unknown bank "ghost-bank"'
    with pytest.raises(BankNotFoundError, match='unknown bank "ghost-bank"'):
        client.recall("ghost-bank", "Where is it?")


def test_recall_json_and_trace(db):
    bank(db, "b")
    put(db, "b", [("Apples are red.", vec(d0=1)), ("Bananas are yellow.", vec(d1=1))])
    (doc,) = db.execute(
        "SELECT hindsight.recall_json('b', 'red apples', %s::vector, budget => 'low', trace => true)",
        (str(vec(d0=1)),),
    ).fetchone()
    assert [r["text"] for r in doc["results"]] == ["Apples are red.", "Bananas are yellow."]
    assert doc["results"][0]["rank"] == 1 and doc["results"][0]["tags"] == []
    trace = doc["trace"]
    assert (trace["recall_budget"], trace["budget"], trace["max_tokens"]) == (100, "low", 4096)
    assert [h["rank"] for h in trace["arms"]["semantic"]["hits"]] == [1, 2]
    assert len(trace["arms"]["keyword"]["hits"]) == 1
    assert trace["fusion"] == trace["fusion"] | {"method": "rrf", "k": 60, "fused": 2}
    assert trace["packing"] == {"candidates": 2, "kept": 2, "tokens": 10, "max_tokens": 4096}
    assert trace["total_ms"] >= trace["arms"]["semantic"]["ms"]
    (plain,) = db.execute("SELECT hindsight.recall_json('b', 'red apples', arms => ARRAY['keyword'])").fetchone()
    assert plain["trace"] is None and len(plain["results"]) == 1


def test_recall_works_in_a_lateral_join(db):
    bank(db, "b")
    put(db, "b", [("Apples are red.", vec(d0=1)), ("Bananas are yellow.", vec(d1=1))])
    rows = db.execute(
        """SELECT q.question, r.text
           FROM (VALUES ('apples'), ('bananas')) AS q(question)
           CROSS JOIN LATERAL hindsight.recall('b', q.question, arms => ARRAY['keyword']) AS r
           ORDER BY 1"""
    ).fetchall()
    assert rows == [("apples", "Apples are red."), ("bananas", "Bananas are yellow.")]


def test_client_recall_returns_typed_results_and_trace(client):
    client.create_bank("b", config={"reranker_provider": {"kind": "none"}})  # the passthrough's scores are checked
    client.retain("b", "Priya is the tech lead of Project Falcon.", timestamp="2025-01-13T10:30:00+00:00")
    client.retain("b", "Tom goes bouldering on Saturdays.")
    response = client.recall("b", "Who leads Falcon?", trace=True, query_timestamp="2025-01-13T10:30:00Z")
    top = response.results[0]
    assert top.text == "Priya is the tech lead of Project Falcon."
    # the top passthrough score is 1.0; recalled the moment it was said: recency 1.0, boost 1.05
    assert (top.rank, top.fact_type, top.scores.rerank, top.scores.recency) == (1, "world", 1.0, 1.0)
    assert top.scores.final == pytest.approx(1.05)
    assert top.scores.semantic_rank == 1 and top.scores.keyword_rank == 1
    assert top.mentioned_at.isoformat() == "2025-01-13T10:30:00+00:00"
    assert response.trace["query"] == "Who leads Falcon?"
    assert response.total_tokens == sum(r.tokens for r in response.results)
    assert client.recall("b", " ?? ").results == []  # a query with nothing to search finds nothing, as in SQL
    assert json.dumps(response.trace)  # plain JSON


def test_each_recall_of_a_batch_keeps_its_own_trace(db):
    """The README's batch pattern (one recall per row of a table, in one statement): each recall's trace comes
    back on its own rank-1 row, not through the session."""
    bank(db, "b")
    kiwi, plum = put(db, "b", [("A note about kiwis.", vec(d0=1)), ("A note about plums.", vec(d1=1))])
    rows = db.execute(
        """SELECT q.text, r.rank, r.id::text, r.trace
           FROM (VALUES (1, 'kiwis', %(kiwi)s::vector), (2, 'plums', %(plum)s::vector)) AS q(n, text, embedding)
           CROSS JOIN LATERAL hindsight.recall('b', q.text, q.embedding, trace => true) AS r
           ORDER BY q.n, r.rank""",
        {"kiwi": str(vec(d0=1)), "plum": str(vec(d1=1))},
    ).fetchall()
    firsts = {text: (unit, trace) for text, rank, unit, trace in rows if rank == 1}
    assert {text: unit for text, (unit, _) in firsts.items()} == {"kiwis": kiwi, "plums": plum}
    for text, (unit, trace) in firsts.items():
        assert trace["query"] == text  # its own query's trace
        assert trace["scoring"]["results"][0]["id"] == unit
        assert trace["arms"]["keyword"]["hits"][0]["id"] == unit
    assert [trace for _, rank, _, trace in rows if rank > 1] == [None, None]  # the other rows carry none
    # without trace => true, no row carries one
    assert {r["trace"] for r in recall(db, "b", "kiwis", vec(d0=1))} == {None}


def test_sql_recall_of_punctuation_returns_nothing(db):
    bank(db, "b")
    put(db, "b", [("A note.", vec(d0=1))])
    assert recall(db, "b", "?!?", None) == []  # nothing to embed, no keyword: nothing recalled
    assert json.loads(json.dumps(recall(db, "b", "note", None, arms=["keyword"])[0]["tags"])) == []
