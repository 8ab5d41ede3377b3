"""The TEMPR stages: graph and temporal arms, fusion options, boosts, rerank stage, scoring, chunks."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime

import psycopg
import pytest
from _helpers import NO_LINKS, bank, put, recall, vec

from hindsight_pg import Client


def link(db, bank_id, source, target, link_type, weight):
    db.execute(
        "INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)"
        " VALUES (%s, %s, %s, %s, %s)",
        (bank_id, source, target, link_type, weight),
    )


def unit(text, embedding, **fields):
    return {"text": text, "embedding": embedding, **fields}


def recall_json(db, bank_id, query, embedding, **args):
    names = "".join(f", {k} => %({k})s" for k in args)
    params = {"b": bank_id, "q": query, "e": None if embedding is None else str(embedding), **args}
    return db.execute(f"SELECT hindsight.recall_json(%(b)s, %(q)s, %(e)s::vector{names})", params).fetchone()[0]


def one(db, sql, *params):
    return db.execute(sql, params).fetchone()[0]


# -- graph arm --------------------------------------------------------------------------


def test_graph_activation_is_tanh_of_shared_entities_plus_link_weights(db):
    bank(db, "g")
    seed, u1, u2, u3, effect, near, far = put(db, "g", [
        unit("Seed fact.", vec(d0=1), entities=["E1", "E2", "E3"]),
        unit("Shares one.", vec(d5=1), entities=["E1"]),
        unit("Shares two.", vec(d6=1), entities=["E1", "E2"]),
        unit("Shares three.", vec(d7=1), entities=["E1", "E2", "E3"]),
        unit("An effect.", vec(d8=1)),
        unit("Semantically linked, close to the query.", vec(d0=0.5, d9=1)),  # cosine 0.447
        unit("Semantically linked, far from the query.", vec(d0=0.2, d10=1)),  # cosine 0.196
    ])  # fmt: skip
    link(db, "g", seed, effect, "causes", 0.6)
    link(db, "g", near, seed, "semantic", 0.7)  # semantic links count in both directions
    link(db, "g", seed, far, "semantic", 0.9)
    doc = recall_json(db, "g", "zzzz", vec(d0=1), trace=True, arms=["graph"])
    hits = {h["id"]: h for h in doc["trace"]["arms"]["graph"]["hits"]}
    # seeds: semantic hits with cosine >= 0.3 (the seed itself and `near`), excluded from the arm
    assert seed not in hits
    assert hits[u1]["score"] == pytest.approx(math.tanh(0.5))  # 0.462
    assert hits[u2]["score"] == pytest.approx(math.tanh(1.0))  # 0.762
    assert hits[u3]["score"] == pytest.approx(math.tanh(1.5))  # 0.905
    assert hits[effect]["score"] == pytest.approx(0.6)
    # `far` has no shared entity or causal link and its cosine to the query is below the 0.3 floor
    assert far not in hits
    assert [hits[u]["rank"] for u in (u3, u2, effect, u1)] == [1, 2, 3, 4]


def test_common_entities_are_not_followed(db):
    bank(db, "g", graph_common_entity_min_units=2)
    ids = put(
        db, "g", [unit(f"Turn {i} by the speaker.", vec(d0=1, d1=i / 10), entities=["Speaker"]) for i in range(8)]
    )
    rare = put(db, "g", [unit("Mentions Orion.", vec(d50=1), entities=["Orion"]),
                         unit("Orion again.", vec(d51=1), entities=["Orion", "Speaker"])])  # fmt: skip
    # Speaker is linked to 9 of 10 units: more than max(2, 0.1 * 10) -> common, not followed
    assert one(db, "SELECT unit_count FROM hindsight._bank_counts WHERE bank_id = 'g'") == 10
    assert one(db, "SELECT mention_count FROM hindsight.entities WHERE canonical_name = 'Speaker'") == 9
    doc = recall_json(db, "g", "zzzz", vec(d50=1), trace=True, arms=["graph"])
    assert [h["id"] for h in doc["trace"]["arms"]["graph"]["hits"]] == [rare[1]]  # through Orion only
    assert ids  # the speaker's turns were not reached


def test_a_hop_reads_its_budget_of_entity_rows_rarest_entities_first(db):
    bank(db, "h", graph_common_entity_min_units=100, **NO_LINKS)
    seed, *rest = put(db, "h", [unit("Seed.", vec(d0=1), entities=["Rare", "Mid", "Wide"])]
                      + [unit(f"Rare {i}.", vec(d1=1, d2=i), entities=["Rare"]) for i in range(2)]
                      + [unit(f"Mid {i}.", vec(d1=1, d3=i), entities=["Mid"]) for i in range(3)]
                      + [unit(f"Wide {i}.", vec(d1=1, d4=i), entities=["Wide"]) for i in range(5)])  # fmt: skip
    rare, mid, wide = rest[:2], rest[2:5], rest[5:]
    expand = ("SELECT unit_id::text FROM hindsight._graph_expand('h', %s::uuid[], %s::uuid[], NULL, NULL, 'any', 10,"
              " 2, 100, %s)")  # fmt: skip
    # mention counts (the seed included) 3, 4, 6; each entity may read entity_fanout (2): the budget of 3 rows goes
    # to Rare (2), then 1 to Mid, none to Wide; an entity's units come in id order
    assert {r[0] for r in db.execute(expand, ([seed], [seed], 3)).fetchall()} == {*rare, min(mid)}
    assert {r[0] for r in db.execute(expand, ([seed], [seed], 1000)).fetchall()} == {
        *rare, *sorted(mid)[:2], *sorted(wide)[:2]}  # fmt: skip
    # the config's budget reaches the arm: a hop of 1 row follows the rarest entity only
    db.execute("SELECT hindsight.configure_bank('h', '{\"graph_hop_entity_rows\": 1, \"graph_max_hops\": 1}')")
    doc = recall_json(db, "h", "zzzz", vec(d0=1), trace=True, arms=["graph"])
    assert [h["id"] for h in doc["trace"]["arms"]["graph"]["hits"]] == [min(rare)]


def test_multi_hop_scenario_finds_the_outage_through_the_graph(client, db):
    client.create_bank("ops")
    client.retain("ops", "Alice is the tech lead on Project Atlas.", entities=["Alice", "Project Atlas"])
    client.retain("ops", "Project Atlas uses Kubernetes.", entities=["Project Atlas", "Kubernetes"])
    outage = client.retain("ops", "The Kubernetes cluster had an outage on Tuesday.", entities=["Kubernetes"])
    distractors = [
        "The cafeteria serves soup on Mondays.",
        "Bob prefers tabs over spaces.",
        "The office plants need water.",
        "Quarterly taxes are due in April.",
        "The printer on floor two is jammed.",
        "Marketing ordered new banners.",
    ]
    for sentence in distractors:
        client.retain("ops", sentence)
    response = client.recall("ops", "Was Alice affected by recent issues?", trace=True)
    by_text = {r.text: r for r in response.results}
    hit = by_text["The Kubernetes cluster had an outage on Tuesday."]
    assert hit.id == outage.unit_ids[0]
    # hop 1 reaches "Project Atlas uses Kubernetes." (Project Atlas); hop 2 the outage (Kubernetes),
    # with the hop decay: 0.5 * tanh(0.5 * 1)
    assert hit.scores.graph_score == pytest.approx(0.5 * math.tanh(0.5))
    assert by_text["Project Atlas uses Kubernetes."].scores.graph_score == pytest.approx(math.tanh(0.5))
    assert all(by_text[d].scores.graph_rank is None for d in distractors)
    assert hit.rank < min(by_text[d].rank for d in distractors)


# -- temporal arm ---------------------------------------------------------------------


def test_time_scenario_window_march_to_may(client):
    # in the default configuration (the reader, retain's links), inside a window every in-window fact among the
    # first 30 ranks above every out-of-window one; spreading along the temporal links reaches October, and must not
    # lift it
    window = (datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 5, 31, 23, 59, 59, tzinfo=UTC))
    for bank_id, config in (("t", {}), ("a", {"reranker_provider": {"kind": "none"}, "window_first": False})):
        client.create_bank(bank_id, config=config)
        client.retain(bank_id, "Alice started the microservices migration.", timestamp="2024-03-12T10:00:00Z")
        client.retain(bank_id, "Alice completed the auth service.", timestamp="2024-04-20T10:00:00Z")
        client.retain(bank_id, "Alice is focusing on performance.", timestamp="2024-10-08T10:00:00Z")
    response = client.recall("t", "What did Alice work on?", temporal_window=window,
                             query_timestamp="2024-11-01T00:00:00Z")  # fmt: skip
    texts = [r.text for r in response.results]
    assert texts[2] == "Alice is focusing on performance."
    assert set(texts[:2]) == {"Alice started the microservices migration.", "Alice completed the auth service."}
    assert [r.scores.final for r in response.results] == sorted((r.scores.final for r in response.results),
                                                                reverse=True)  # fmt: skip
    # without window_first (and without the reader, whose rank would join the score) the boosts alone decide: the
    # recency boost (October is the most recent) does not count under the window, October's boost is the temporal
    # one alone
    response = client.recall("a", "What was Alice working on?", temporal_window=window,
                             query_timestamp="2024-11-01T00:00:00Z")  # fmt: skip
    texts = [r.text for r in response.results]
    assert texts[0] == "Alice completed the auth service."  # in the window, near its middle
    october = next(r for r in response.results if r.text == "Alice is focusing on performance.")
    assert october.scores.temporal_rank == 3 and october.scores.temporal_proximity == 0.0
    assert october.scores.recency > max(r.scores.recency for r in response.results if r is not october)
    assert october.scores.final == pytest.approx(october.scores.rerank * (1 + 0.2 * (0.0 - 0.5)) * (1 + 0.1 * 0))
    assert october.scores.final < response.results[0].scores.final


def test_an_in_window_unit_past_window_reach_keeps_its_rank(client):
    # 40 notes said in March (in the window) and the answer said in June: under the window the first window_reach
    # (30) of the notes rank above the answer, the rest stay below it; without the reach every note does
    client.create_bank("r", config={"reranker_provider": {"kind": "none"}, "update_candidates": 0})
    client.retain_batch("r", [{"content": f"Note {i}: the printer on floor {i} is out of toner.",
                               "timestamp": f"2024-03-{1 + i % 28:02d}T10:00:00Z"} for i in range(40)])  # fmt: skip
    client.retain("r", "The printer on floor 3 was replaced by a new laser printer.", timestamp="2024-06-10T10:00:00Z")
    window = (datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 3, 31, 23, 59, 59, tzinfo=UTC))

    def answer_rank(reach: int) -> int:
        client.conn.execute("UPDATE hindsight.banks SET config = config || %s WHERE bank_id = 'r'",
                            (json.dumps({"window_reach": reach}),))  # fmt: skip
        results = client.recall("r", "Which printer was replaced by a laser printer?", temporal_window=window,
                                query_timestamp="2024-07-01T00:00:00Z", max_tokens=100_000,
                                max_results=None).results  # fmt: skip
        return next(r.rank for r in results if r.text.startswith("The printer on floor 3 was replaced"))

    assert answer_rank(30) <= 31  # at most the 30 first notes above it
    assert answer_rank(1_000_000) == 41  # every in-window note above it
    # the trace says which units the window rule lifted, from where to where; the answer it did not lift
    traced = client.recall("r", "Which printer was replaced by a laser printer?", temporal_window=window,
                           query_timestamp="2024-07-01T00:00:00Z", max_tokens=100_000, max_results=None,
                           trace=True)  # fmt: skip
    moves = {r["id"]: r["moved"] for r in traced.trace["scoring"]["results"]}
    answer = next(r for r in traced.results if r.text.startswith("The printer on floor 3 was replaced"))
    lifted = [m[0] for m in moves.values() if m]
    assert moves[str(answer.id)] is None and lifted
    assert all(m["by"] == "window" and m["to"] < m["from"] for m in lifted)


def test_coverage_takes_entry_points_round_robin_over_the_window(db):
    bank(db, "c", temporal_entry_points=4, **NO_LINKS)
    day = "2024-01-0{}T12:00:00Z"
    # window 2024-01-01 .. 2024-01-09 (8 days, one bucket a day); bucket 0 holds five close matches
    dense = put(db, "c", [unit(f"Busy day {i}.", vec(d0=1, d1=i / 20), mentioned_at=day.format(1)) for i in range(5)])
    sparse = put(db, "c", [unit(f"Quiet day {d}.", vec(d0=1, d2=1), mentioned_at=day.format(d)) for d in (4, 6, 8)])
    put(db, "c", [unit("A later note.", vec(d5=1), mentioned_at="2024-02-01T12:00:00Z")])  # the window is not all
    doc = recall_json(db, "c", "zzzz", vec(d0=1), trace=True, arms=["temporal"],
                      temporal_window="[2024-01-01 00:00Z, 2024-01-09 00:00Z)")  # fmt: skip
    hits = [h["id"] for h in doc["trace"]["arms"]["temporal"]["hits"]]
    # the best of bucket 0, then the only unit of buckets 3, 5 and 7: not the five busy units
    assert set(hits) == {dense[0], *sparse}
    proximity = {h["id"]: h["score"] for h in doc["trace"]["arms"]["temporal"]["hits"]}
    # window midpoint 2024-01-05 00:00, half-length 4 days: noon of the 4th is 0.5 days away
    assert proximity[sparse[0]] == pytest.approx(1 - 0.5 / 4)
    assert proximity[dense[0]] == pytest.approx(1 - 3.5 / 4)


def test_a_window_past_the_scan_budget_is_read_in_date_order_a_slice_at_a_time(db):
    # one bucket: 8 slices of the 8-day window, a day each; five units a day, at 00:00, 01:00, ... 04:00
    bank(db, "w", temporal_buckets=1, temporal_pool_size=100, temporal_entry_points=100, **NO_LINKS)
    hours = [(d, h) for d in range(8) for h in range(5)]
    ids = put(db, "w", [unit(f"Day {d} hour {h}.", vec(d0=1, **{f"d{1 + d * 5 + h}": 0.5}),
                             mentioned_at=f"2024-01-{d + 1:02d}T{h:02d}:00:00Z") for d, h in hours])  # fmt: skip
    put(db, "w", [unit("A later note.", vec(d50=1), mentioned_at="2024-02-01T12:00:00Z")])  # the window is not all
    at = dict(zip(hours, ids, strict=True))
    window = "[2024-01-01 00:00Z, 2024-01-09 00:00Z)"

    def hits():
        doc = recall_json(db, "w", "zzzz", vec(d0=1), trace=True, arms=["temporal"], temporal_window=window)
        return {h["id"] for h in doc["trace"]["arms"]["temporal"]["hits"]}

    assert hits() == set(ids)  # 40 dated units, within the default budget (1000): the window is read whole
    db.execute("SELECT hindsight.configure_bank('w', '{\"temporal_scan_budget\": 40}')")
    assert hits() == set(ids)  # exactly at the budget: still whole
    db.execute("SELECT hindsight.configure_bank('w', '{\"temporal_scan_budget\": 16}')")
    # past it: each day's slice gives its ceil(16 / 8) = 2 earliest units
    assert hits() == {at[d, h] for d in range(8) for h in (0, 1)}


def test_spreading_follows_a_causal_link_out_of_the_window(db):
    bank(db, "s", **NO_LINKS)
    cause, effect, unrelated = put(db, "s", [
        unit("The deploy broke the cache.", vec(d0=1), mentioned_at="2024-06-15T12:00:00Z"),
        unit("Customers saw slow pages.", vec(d1=1), mentioned_at="2024-09-01T12:00:00Z"),
        unit("Something else entirely.", vec(d2=1), mentioned_at="2024-09-01T12:00:00Z"),
    ])  # fmt: skip
    link(db, "s", cause, effect, "causes", 0.5)
    doc = recall_json(db, "s", "zzzz", vec(d0=1), trace=True, arms=["temporal"],
                      temporal_window="[2024-06-01 00:00Z, 2024-06-30 00:00Z]")  # fmt: skip
    hits = {h["id"]: h["score"] for h in doc["trace"]["arms"]["temporal"]["hits"]}
    # cause: at the window's midpoint (June 15, 12:00), proximity 1
    assert hits[cause] == pytest.approx(1.0)
    # effect: outside the window (proximity 0), reached through causes: 1.0 * 0.5 * 2.0 (boost) * 0.7 (decay)
    assert hits[effect] == pytest.approx(0.7)
    assert unrelated not in hits


# -- scoring --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("unit_dates", "query_ts", "method", "expected"),
    [
        (("2024-06-01", None, None), "2024-06-01", "linear", 1.0),  # today
        (("2024-06-01", None, None), "2024-09-01", "linear", 1 - 92 / 365),
        ((None, None, "2020-01-01"), "2024-06-01", "linear", 0.1),  # floor
        ((None, None, "2024-12-01"), "2024-06-01", "linear", 1.0),  # future
        ((None, None, None), "2024-06-01", "linear", 0.5),  # no date
        ((None, None, "2024-03-03"), "2024-06-01", "exponential", 0.5),  # 90 days: one half-life
        ((None, None, "2024-03-03"), "2024-06-01", "none", 0.5),
        (("2015-01-01", "2015-12-31", None), "2015-06-01", "linear", 0.5),  # running period: capped
        (("2024-01-01", "2024-01-31", None), "2024-03-01", "linear", 0.5),  # 30-day period: aged from its end
        (("2024-05-30", "2024-05-31", None), "2024-06-01", "linear", 1 - 2 / 365),  # short span: from start
    ],
)
def test_recency(db, unit_dates, query_ts, method, expected):
    value = one(db, "SELECT hindsight._recency(%s, %s, %s, %s, %s)", *unit_dates, query_ts, method)
    assert value == pytest.approx(expected)


@pytest.mark.parametrize(("count", "expected"), [(None, 0.5), (1, 0.5), (3, 0.60986), (10, 0.73026), (150, 1.0)])
def test_proof(db, count, expected):
    assert one(db, "SELECT hindsight._proof(%s)", count) == pytest.approx(expected, abs=1e-5)


def test_boost_extremes(db):
    best = one(db, "SELECT hindsight._boost(1, 0.2) * hindsight._boost(1, 0.2) * hindsight._boost(1, 0.1)")
    worst = one(db, "SELECT hindsight._boost(0, 0.2) * hindsight._boost(0, 0.2) * hindsight._boost(0, 0.1)")
    assert (best, worst) == (pytest.approx(1.2705), pytest.approx(0.7695))
    assert one(db, "SELECT hindsight._boost(NULL, 0.2)") == 1.0


def test_proximity(db):
    window = "[2024-03-01 00:00Z, 2024-05-31 00:00Z]"  # 91 days, midpoint 2024-04-15 12:00
    assert one(db, "SELECT hindsight._proximity('2024-04-15 12:00Z', %s)", window) == pytest.approx(1.0)
    assert one(db, "SELECT hindsight._proximity('2024-03-01 00:00Z', %s)", window) == pytest.approx(0.0)
    assert one(db, "SELECT hindsight._proximity('2024-04-01 00:00Z', %s)", window) == pytest.approx(1 - 14.5 / 45.5)
    assert one(db, "SELECT hindsight._proximity('2023-01-01 00:00Z', %s)", window) == 0.0
    assert one(db, "SELECT hindsight._proximity(NULL, %s)", window) == 0.5
    assert one(db, "SELECT hindsight._proximity('2024-04-01 00:00Z', NULL)") is None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ([0.2, 0.9, 0.0], [0.2, 0.9, 0.0]),  # calibrated: kept
        ([-2.0, 0.0, 3.0], [1 / (1 + math.exp(2)), 0.5, 1 / (1 + math.exp(-3))]),  # logits: sigmoid
        ([math.nan, 0.5], [0.0, 0.5]),  # NaN does not decide the case
        ([math.nan, 5.0], [0.0, 1 / (1 + math.exp(-5))]),
        ([-1000.0, 1000.0], [0.0, 1.0]),
    ],
)
def test_normalize_rerank(db, raw, expected):
    assert one(db, "SELECT hindsight._normalize_rerank(%s::float8[])", raw) == pytest.approx(expected)


def test_rerank_text(db):
    text = "SELECT hindsight._rerank_text('Shipped v2.', %s, %s)"
    assert (
        one(db, text, "release notes", "2022-06-05 10:00Z")
        == "[Date: June 05, 2022 (2022-06-05)] release notes: Shipped v2."
    )
    assert one(db, text, None, None) == "Shipped v2."


@pytest.mark.parametrize(
    ("budget", "max_tokens", "expected"),
    [("mid", 4096, 307), ("low", 4096, 102), ("high", 4096, 1024), ("low", 100, 20), ("high", 100000, 2000)],
)
def test_adaptive_budget(db, budget, max_tokens, expected):
    config = json.dumps(
        {**json.loads(one(db, "SELECT hindsight._default_config()::text")), "budget_function": "adaptive"}
    )
    assert one(db, "SELECT hindsight._recall_budget(%s::jsonb, %s, %s)", config, budget, max_tokens) == expected


# -- fusion options -------------------------------------------------------------------


def arm_bank(db):
    """Semantic ranks A, B; keyword ranks C, A."""
    bank(db, "f")
    return put(db, "f", [
        ("Alpha note about kiwis.", vec(d0=1)),  # semantic #1, keyword #2 (one 'kiwi')
        ("Beta note.", vec(d0=1, d1=1)),  # semantic #2
        ("Gamma kiwi kiwi note.", vec(d2=1)),  # keyword #1; semantic #3 (cosine 0)
    ])  # fmt: skip


def test_interleave_fusion(db):
    a, b, c = arm_bank(db)
    rows = recall(db, "f", "kiwi", vec(d0=1), fusion="interleave", arms=["semantic", "keyword"])
    # round-robin: semantic #1 (A), keyword #1 (C), semantic #2 (B); fused = 1 / (60 + position)
    assert [str(r["id"]) for r in rows] == [a, c, b]
    assert [round(r["rrf_score"], 6) for r in rows] == [round(1 / 61, 6), round(1 / 62, 6), round(1 / 63, 6)]


def test_cap_per_source_keeps_each_arms_top(db):
    a, _, c = arm_bank(db)
    rows = recall(db, "f", "kiwi", vec(d0=1), cap_per_source=1, arms=["semantic", "keyword"])
    assert sorted(str(r["id"]) for r in rows) == sorted([a, c])


def test_arm_weights_multiply_contributions(db):
    _, _, c = arm_bank(db)
    db.execute("UPDATE hindsight.banks SET config = '{\"arm_weights\": {\"keyword\": 3.0}}' WHERE bank_id = 'f'")
    rows = recall(db, "f", "kiwi", vec(d0=1), arms=["semantic", "keyword"], passthrough="normalized")
    top = {str(r["id"]): r["rrf_score"] for r in rows}
    assert top[c] == pytest.approx(1 / 63 + 3 / 61)  # semantic #3, keyword #1 weighted 3
    assert str(rows[0]["id"]) == c


def test_strategy_boosts_divide_ranks_and_add_a_bonus(db):
    _, b, c = arm_bank(db)
    config = {"strategy_boosts": {"keyword": "high"}, "reranker_provider": {"kind": "none"}}
    db.execute("UPDATE hindsight.banks SET config = %s WHERE bank_id = 'f'", (json.dumps(config),))
    rows = recall(db, "f", "kiwi", vec(d0=1), arms=["semantic", "keyword"], query_timestamp="2100-01-01")
    by_id = {str(r["id"]): r for r in rows}
    assert by_id[c]["rrf_score"] == pytest.approx(1 / 63 + 1 / (60 + 1 / 8))  # high: rank divisor 8
    assert by_id[b]["rrf_score"] == pytest.approx(1 / 62)
    # + 0.5 after scoring for units the boosted arm found (recency: far future query -> 0.1 for all)
    expected = by_id[c]["rerank_score"] * (1 + 0.1 * (0.1 - 0.5)) + 0.5
    assert by_id[c]["score"] == pytest.approx(expected)
    assert by_id[b]["score"] == pytest.approx(by_id[b]["rerank_score"] * 0.96)


def test_unknown_strategy_tier_or_arm_is_an_error(db):
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='strategy_boosts entry "graph": "huge"'):
        bank(db, "x", strategy_boosts={"graph": "huge"})
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='"vibes": "high"'):
        bank(db, "y", strategy_boosts={"vibes": "high"})


@pytest.mark.parametrize("key", ["arm_weights", "passthrough_weights", "strategy_boosts"])
def test_a_config_naming_the_bm25_arm_is_told_its_new_name(db, key):
    value = "high" if key == "strategy_boosts" else 2.0
    with pytest.raises(psycopg.errors.InvalidParameterValue, match=f'"{key}" names the arm "bm25"') as raised:
        bank(db, "old", **{key: {"bm25": value}})
    assert raised.value.diag.message_hint == (
        f'Write "keyword": {json.dumps(value)} instead of "bm25": {json.dumps(value)}'
        " (BM25 stays the keyword arm's default keyword_backend)."
    )


def test_prefilter_keeps_reranker_max_candidates(db):
    bank(db, "p", reranker_max_candidates=2)
    put(db, "p", [(f"Note {i}.", vec(d0=1, d1=i / 10)) for i in range(6)])
    doc = recall_json(db, "p", "zzzz", vec(d0=1), trace=True)
    assert len(doc["results"]) == 2
    prefilter = doc["trace"]["prefilter"]
    assert (prefilter["cap"], prefilter["kept"], prefilter["dropped"]) == (2, 2, 4)
    assert prefilter["composition"] == {"semantic": 2, "keyword": 0, "graph": 0, "temporal": 0}


def test_rank_linear_passthrough(db):
    arm_bank(db)
    rows = recall(db, "f", "zzzz", vec(d0=1), passthrough="rank_linear", arms=["semantic"])
    assert [round(r["rerank_score"], 6) for r in rows] == [1.0, 0.55, 0.1]


# -- the rerank hook: candidates, caller scores, finish ---------------------------------


def test_caller_supplied_rerank_scores_decide_the_order(db):
    a, b, c = arm_bank(db)
    (state,) = db.execute(
        "SELECT hindsight.recall_candidates('f', 'kiwi', %s::vector)::text", (str(vec(d0=1)),)
    ).fetchone()  # the recall's state, as a client holds it between the calls
    rows = db.execute(
        "SELECT c.candidate_rank, c.unit_id::text, c.rerank_text"
        " FROM unnest((%s::hindsight.recall_state).candidates) c",
        (state,),
    ).fetchall()
    assert [r[2] for r in rows] == ["Alpha note about kiwis.", "Gamma kiwi kiwi note.", "Beta note."]
    (to_read,) = db.execute("SELECT hindsight.texts_to_rerank(%s::hindsight.recall_state)", (state,)).fetchone()
    assert to_read == [r[2] for r in rows]  # here the passthrough keeps the fused order
    finished = db.execute(
        "SELECT id::text, rerank_score FROM hindsight.recall_finish(%s::hindsight.recall_state, ARRAY[-3.0, 0.0, 4.0])",
        (state,),
    ).fetchall()
    # logits -> sigmoid; Beta (4.0) first, Gamma (0.0 -> 0.5), Alpha (-3.0) last
    assert [f[0] for f in finished] == [b, c, a]
    assert [round(f[1], 4) for f in finished] == [
        round(1 / (1 + math.exp(-4)), 4),
        0.5,
        round(1 / (1 + math.exp(3)), 4),
    ]


def test_recall_is_candidates_then_finish(db):
    arm_bank(db)
    emb = str(vec(d0=1))
    direct = db.execute(
        "SELECT id, score FROM hindsight.recall('f', 'kiwi', %s::vector, query_timestamp => '2030-01-01')", (emb,)
    ).fetchall()
    composed = db.execute(
        """SELECT id, score FROM hindsight.recall_finish(
               hindsight.recall_candidates('f', 'kiwi', %s::vector, query_timestamp => '2030-01-01'))""",
        (emb,),
    ).fetchall()
    assert direct == composed and len(direct) == 3


def test_rerank_scores_may_not_outnumber_the_candidates(db):
    arm_bank(db)
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="rerank_scores has 4 scores for 3 candidates"):
        db.execute(
            """SELECT * FROM hindsight.recall_finish(hindsight.recall_candidates('f', 'kiwi', %s::vector),
                                                     ARRAY[1.0, 2.0, 3.0, 4.0])""",
            (str(vec(d0=1)),),
        )


def test_reader_scores_of_the_best_by_boosted_score_fuse_with_the_passthrough_by_weighted_rrf(db):
    bank(db, "o")
    # semantic only ("zzzz" matches no word): fused order Delta, Echo, Foxtrot; the passthrough almost ties the
    # first two and recency (Echo said the day before, Delta ten months before) puts Echo first once boosted
    (d,) = put(db, "o", [("Delta.", vec(d0=1))], timestamp="2029-03-01T00:00:00Z")
    (e,) = put(db, "o", [("Echo.", vec(d0=1, d1=0.1))], timestamp="2029-12-31T00:00:00Z")
    (f,) = put(db, "o", [("Foxtrot.", vec(d1=1))], timestamp="2029-12-31T00:00:00Z")
    emb = str(vec(d0=1))
    state = "hindsight.recall_candidates('o', 'zzzz', %s::vector, query_timestamp => '2030-01-01')"
    fused = db.execute(f"SELECT c.unit_id::text, c.rerank_text FROM unnest(({state}).candidates) c", (emb,)).fetchall()
    assert [unit for unit, _ in fused] == [d, e, f]
    text = dict(fused)
    passthrough = db.execute(
        f"SELECT id::text, score FROM hindsight.recall_finish({state})",
        (emb,),
    ).fetchall()
    assert [unit for unit, _ in passthrough] == [e, d, f]
    boosted_rank = {unit: n for n, (unit, _) in enumerate(passthrough, 1)}
    # what a reader reads, in the order recall_finish takes its scores: the passthrough's best first
    to_read = f"SELECT hindsight.texts_to_rerank({state})"
    assert db.execute(to_read, (emb,)).fetchone()[0] == [text[e], text[d], text[f]]
    db.execute("""UPDATE hindsight.banks SET config = config || '{"reranker_candidates": {"mid": 2}}'""")
    assert db.execute(to_read, (emb,)).fetchone()[0] == [text[e], text[d]]
    # the reader read Echo and Delta and prefers Delta
    read = db.execute(
        f"SELECT id::text, score, rerank_score FROM hindsight.recall_finish({state}, ARRAY[-1.0, 2.0])",
        (emb,),
    ).fetchall()
    reader_rank = {d: 1, e: 2}
    want = {
        unit: 61 * ((0.7 / (60 + reader_rank[unit]) if unit in reader_rank else 0) + 0.3 / (60 + boosted_rank[unit]))
        for unit in boosted_rank
    }
    assert [r[0] for r in read] == [d, e, f]  # what it did not read ranks below what it read
    assert [r[1] for r in read] == pytest.approx([want[d], want[e], want[f]])
    assert read[0][2] == pytest.approx(1 / (1 + math.exp(-2.0)))
    db.execute("UPDATE hindsight.banks SET config = config || '{\"reranker_weight\": 0.0}' WHERE bank_id = 'o'")
    only_passthrough = db.execute(
        f"SELECT id::text FROM hindsight.recall_finish({state}, ARRAY[-1.0, 2.0])",
        (emb,),
    ).fetchall()
    assert [r[0] for r in only_passthrough] == [r[0] for r in passthrough]
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="reranker_weight must be in"):
        db.execute("UPDATE hindsight.banks SET config = config || '{\"reranker_weight\": 1.5}' WHERE bank_id = 'o'")


# -- chunks, trace, arguments -----------------------------------------------------------


def test_include_chunks_packs_and_truncates(client, db):
    client.create_bank("k")
    long_doc = "\n\n".join(f"Section {i}. " + "The rollout plan covers every region in detail. " * 40 for i in range(3))
    client.retain("k", long_doc, document_id="plan")  # three chunks of ~400 tokens
    client.retain("k", "A short note about the rollout.", document_id="note")
    emb = str(client.embedder.embed(["rollout plan"], kind="query")[0].tolist())
    doc = one(db, "SELECT hindsight.recall_json('k', 'rollout plan', %s::vector, include_chunks => true,"
                  " max_chunk_tokens => 500)", emb)  # fmt: skip
    chunks = doc["chunks"]
    assert sum(c["tokens"] for c in chunks) == 500
    assert [c["truncated"] for c in chunks] == [False] * (len(chunks) - 1) + [True]
    assert len({c["chunk_id"] for c in chunks}) == len(chunks)  # distinct
    first_ranked = next(r["chunk_id"] for r in doc["results"])
    assert chunks[0]["chunk_id"] == first_ranked  # rank order


def test_trace_has_every_phase_and_component(db):
    arm_bank(db)
    put(db, "f", [{"text": "An old note.", "embedding": vec(d9=1), "mentioned_at": "2019-06-01T00:00Z"}])
    doc = recall_json(db, "f", "kiwi", vec(d0=1), trace=True, temporal_window="[2020-01-01, 2030-01-01]")
    trace = doc["trace"]
    assert trace["temporal_window"]["source"] == "argument"
    assert set(trace["arms"]) == {"semantic", "keyword", "graph", "temporal"}
    assert trace["arms"]["temporal"]["ran"] is True
    phases = trace["phases_ms"]
    assert set(phases) == {"candidates", "finish", "trace"} and min(phases.values()) > 0
    # the total is the recall's work: building the trace itself is counted apart
    assert trace["total_ms"] == pytest.approx(phases["candidates"] + phases["finish"])
    component = trace["scoring"]["results"][0]
    assert set(component) >= {"id", "final", "rerank", "rerank_raw", "rrf", "recency", "temporal", "proof"}
    first = trace["prefilter"]["candidates"][0]["source_ranks"]
    assert (first["semantic"], first["keyword"]) == (1, 2) and "temporal" in first  # the window holds A, B, C


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"arms": ["semantic", "psychic"]}, 'unknown arm "psychic"'),
        ({"fusion": "borda"}, 'unknown fusion "borda"'),
        ({"cap_per_source": 0}, "cap_per_source must be >= 1, got 0"),
        ({"temporal_window": "[2024-01-01,)"}, "temporal_window must be a non-empty range with both bounds"),
        ({"passthrough": "raw"}, 'unknown passthrough "raw"'),
    ],
)
def test_bad_tempr_arguments(db, args, message):
    arm_bank(db)
    with pytest.raises(psycopg.errors.InvalidParameterValue, match=message):
        recall(db, "f", "kiwi", vec(d0=1), **args)


def test_the_old_arm_name_bm25_is_an_error_naming_keyword(db):
    arm_bank(db)
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='unknown arm "bm25"') as raised:
        recall(db, "f", "kiwi", vec(d0=1), arms=["semantic", "bm25"])
    assert raised.value.diag.message_hint == (
        "The bm25 arm is called keyword since 0.3.0 (BM25 is its default keyword_backend): arms => '{keyword}'."
    )


@pytest.mark.slow
def test_semantic_arm_uses_hnsw_on_a_20000_unit_bank(db):
    bank(db, "large")
    db.execute("SELECT setseed(0.42)")
    db.execute(
        """INSERT INTO hindsight.memory_units (bank_id, text, embedding, token_count, search_vector)
           SELECT 'large', 'unit ' || g,
                  (SELECT array_agg(random() - 0.5) FROM generate_series(1, 384) WHERE g > 0)::vector,
                  2, to_tsvector('english', 'unit ' || g)
           FROM generate_series(1, 20000) g"""
    )
    db.execute("ANALYZE hindsight.memory_units")
    assert one(db, "SELECT hindsight._semantic_path('large')") == "hnsw"  # 20,000 >= hnsw_min_units (5,000)
    index = "memory_units_embedding_idx"
    plan = "\n".join(
        row[0]
        for row in db.execute(
            "EXPLAIN (ANALYZE, COSTS OFF) SELECT id FROM hindsight.memory_units WHERE bank_id = 'large'"
            " ORDER BY embedding <=> %s::vector LIMIT 300",
            (str(vec(d0=1)),),
        ).fetchall()
    )
    assert f"Index Scan using {index} on memory_units" in plan
    doc = recall_json(db, "large", "zzzz", vec(d0=1), trace=True)
    assert doc["trace"]["arms"]["semantic"]["index"] == f"hindsight.{index}"
    assert len(doc["trace"]["arms"]["semantic"]["hits"]) == 300


def test_client_passes_tempr_arguments(client):
    client.create_bank("c")
    client.retain("c", "Deployed the search service.", timestamp="2024-04-02T09:00:00Z")
    client.retain("c", "Deployed the billing service.", timestamp="2024-08-02T09:00:00Z")
    response = client.recall(
        "c", "What was deployed?", temporal_window=("2024-04-01", "2024-04-30"), arms=["temporal"], trace=True
    )
    assert [r.text for r in response.results] == ["Deployed the search service."]
    assert response.results[0].scores.temporal_rank == 1
    assert response.trace["temporal_window"]["start"].startswith("2024-04-01")
    assert isinstance(Client, type)
