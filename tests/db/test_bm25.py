"""The BM25 keyword backend: scores, CJK, and statistics kept exact."""

from __future__ import annotations

import math
import random

import psycopg
import psycopg.types.json
import pytest
from _helpers import bank, put, recall, vec

DOCS = [
    "apple banana apple",
    "banana cherry",
    "cherry cherry cherry date",
    "apple date elderberry fig",
    "grape",
]


def hand_bm25(query: list[str], docs: list[list[str]], k1: float = 1.2, b: float = 0.75) -> list[float]:
    n = len(docs)
    avgdl = sum(len(d) for d in docs) / n
    scores = []
    for d in docs:
        score = 0.0
        for term in query:
            df = sum(term in x for x in docs)
            tf = d.count(term)
            if tf == 0:
                continue
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            score += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(d) / avgdl))
        scores.append(score)
    return scores


@pytest.mark.parametrize("b", [0.75, 0.0])  # the textbook value, and the default (no length normalisation)
def test_scores_equal_a_hand_computation(db, b):
    bank(db, "five", text_search_config="simple", keyword_backend="bm25", bm25_b=b)
    ids = put(db, "five", [(text, vec(**{f"d{i}": 1})) for i, text in enumerate(DOCS)])
    expected = hand_bm25(["apple", "cherry"], [d.split() for d in DOCS], b=b)
    rows = recall(db, "five", "apple cherry", None, arms=["keyword"])
    got = {str(r["id"]): r["keyword_score"] for r in rows}
    for unit, score in zip(ids, expected, strict=True):
        if score == 0:
            assert unit not in got
        else:
            assert got[unit] == pytest.approx(score, rel=1e-9)
    # by hand: doc 3 "cherry x3 + date" beats doc 1 "apple x2" (cherry and apple both have df 2); with b = 0,
    # "banana cherry" and "apple date elderberry fig" tie exactly and the longer one goes first
    order = [ids[2], ids[0], ids[1], ids[3]] if b else [ids[2], ids[0], ids[3], ids[1]]
    assert [str(r["id"]) for r in rows] == order
    if not b:
        assert got[ids[1]] == got[ids[3]]


def recount(db, bank_id):
    """The statistics recomputed from memory_units, next to the kept ones."""
    kept_terms = db.execute(
        "SELECT term, df FROM hindsight._bm25_terms WHERE bank_id = %s ORDER BY 1", (bank_id,)
    ).fetchall()
    fresh_terms = db.execute(
        """SELECT t.lexeme, count(*) FROM hindsight.memory_units u, unnest(u.search_vector) t
           WHERE u.bank_id = %s GROUP BY 1 ORDER BY 1""",
        (bank_id,),
    ).fetchall()
    kept_postings = db.execute(
        "SELECT term, unit_id, tf, doc_length FROM hindsight._bm25_postings WHERE bank_id = %s ORDER BY 1, 2",
        (bank_id,),
    ).fetchall()
    fresh_postings = db.execute(
        """SELECT t.lexeme, u.id, cardinality(t.positions),
                  (SELECT sum(cardinality(x.positions)) FROM unnest(u.search_vector) x)::int
           FROM hindsight.memory_units u, unnest(u.search_vector) t WHERE u.bank_id = %s ORDER BY 1, 2""",
        (bank_id,),
    ).fetchall()
    kept_counts = db.execute(
        "SELECT unit_count, total_length FROM hindsight._bank_counts WHERE bank_id = %s", (bank_id,)
    ).fetchone()
    fresh_counts = db.execute(
        """SELECT count(*), coalesce(sum((SELECT sum(cardinality(x.positions)) FROM unnest(u.search_vector) x)), 0)
           FROM hindsight.memory_units u WHERE u.bank_id = %s""",
        (bank_id,),
    ).fetchone()
    return (kept_terms, kept_postings, kept_counts), (fresh_terms, fresh_postings, fresh_counts)


def test_statistics_stay_exact_through_retain_replace_update_and_delete(db):
    bank(db, "s", text_search_config="simple")
    bank(db, "other", text_search_config="simple")
    put(db, "other", [("apple pie", vec(d9=1))])
    put(db, "s", [(text, vec(d0=1)) for text in DOCS], document_id=None)
    put(db, "s", [("apple again and again", vec(d1=1))], document_id="doc")
    kept, fresh = recount(db, "s")
    assert kept == fresh and kept[2] == (6, 18)  # 14 words in DOCS + 4 ('simple': no stop words)
    put(db, "s", [("a completely new text", vec(d2=1))], document_id="doc")  # replaces the document
    kept, fresh = recount(db, "s")
    assert kept == fresh and kept[2] == (6, 18)
    db.execute("UPDATE hindsight.memory_units SET search_vector = to_tsvector('simple', 'grape grape')"
               " WHERE bank_id = 's' AND text = 'grape'")  # fmt: skip
    kept, fresh = recount(db, "s")
    assert kept == fresh and kept[2] == (6, 19)
    db.execute("DELETE FROM hindsight.memory_units WHERE bank_id = 's' AND text LIKE 'cherry%'")
    kept, fresh = recount(db, "s")
    assert kept == fresh and kept[2] == (5, 15)
    assert recount(db, "other")[0] == recount(db, "other")[1]  # the other bank untouched
    db.execute("SELECT hindsight.delete_bank('s')")
    assert db.execute("SELECT count(*) FROM hindsight._bm25_postings WHERE bank_id = 's'").fetchone()[0] == 0
    assert db.execute("SELECT count(*) FROM hindsight._bm25_terms WHERE bank_id = 's'").fetchone()[0] == 0


@pytest.mark.parametrize("backend", ["bm25", "native"])
def test_cjk_substrings_match(db, backend):
    bank(db, "zh", keyword_backend=backend)
    target, other = put(db, "zh", [("我们上周讨论了新的推荐算法方案", vec(d0=1)), ("今天天气很好", vec(d1=1))])
    for query in ["推荐算法", "算法", "推荐", "讨论"]:
        rows = recall(db, "zh", query, None, arms=["keyword"])
        assert [str(r["id"]) for r in rows] == [target], query
    rows = recall(db, "zh", "天", None, arms=["keyword"])  # one character: matched as a single character
    assert [str(r["id"]) for r in rows] == [other]


@pytest.mark.parametrize("backend", ["bm25", "native"])
def test_mixed_chinese_and_english(db, backend):
    bank(db, "mix", keyword_backend=backend)
    target, _ = put(db, "mix", [("The PostgreSQL 迁移计划 was approved by the team", vec(d0=1)),
                                ("Lunch plans for Friday", vec(d1=1))])  # fmt: skip
    assert [str(r["id"]) for r in recall(db, "mix", "迁移", None, arms=["keyword"])] == [target]
    assert [str(r["id"]) for r in recall(db, "mix", "approve postgresql", None, arms=["keyword"])] == [target]
    terms = db.execute("SELECT hindsight._query_terms('数据库 migrations', 'english')").fetchone()[0]
    assert sorted(terms) == ["migrat", "据库", "数据"]


def test_exact_ties_go_by_text_not_by_unit_id(db):
    """Units with the same terms, counts and length tie exactly under BM25 without length normalisation;
    they are ranked by text (as the native backend does), so the order is the same in any database that
    holds the same memories, whatever ids it gave them."""
    bank(db, "ties")
    words = ["zulu", "mike", "alpha", "tango", "bravo", "lima", "golf", "echo", "kilo", "delta", "romeo", "hotel"]
    texts = [f"kiwi note {w}" for w in words]  # three lexemes each, one of them "kiwi" once
    put(db, "ties", [(t, vec(**{f"d{i}": 1})) for i, t in enumerate(texts)])
    rows = recall(db, "ties", "kiwi", None, arms=["keyword"], max_tokens=100000, max_results=None)
    assert len({r["keyword_score"] for r in rows}) == 1
    assert [r["text"] for r in rows] == sorted(texts)


def test_keyword_ties_do_not_depend_on_unit_ids(db):
    bank(db, "b")  # the native backend, ts_rank_cd
    put(db, "b", [("A much longer note about the kiwi harvest this year.", vec(d1=1)),
                  ("Short kiwi note.", vec(d2=1)), ("Another kiwi note.", vec(d3=1))])  # fmt: skip
    rows = recall(db, "b", "kiwi", None)
    # equal ts_rank_cd: the longer text first, then alphabetical
    assert [r["text"] for r in rows] == ["A much longer note about the kiwi harvest this year.",
                                         "Another kiwi note.", "Short kiwi note."]  # fmt: skip


def test_bm25_prefers_the_shorter_unit_for_the_same_term_frequency(db):
    bank(db, "b", keyword_backend="bm25", bm25_b=0.75)
    put(db, "b", [("A much longer note about the kiwi harvest this year.", vec(d1=1)),
                  ("Short kiwi note.", vec(d2=1)), ("Another kiwi note.", vec(d3=1))])  # fmt: skip
    rows = recall(db, "b", "kiwi", None, arms=["keyword"])
    # same tf; BM25 normalises by length: the two 3-lexeme units (an exact tie) before the 6-lexeme one
    assert {r["text"] for r in rows[:2]} == {"Another kiwi note.", "Short kiwi note."}
    assert rows[2]["text"] == "A much longer note about the kiwi harvest this year."
    assert rows[0]["keyword_score"] == rows[1]["keyword_score"] > rows[2]["keyword_score"]


def test_bm25_by_default_prefers_the_longer_unit_for_the_same_term_frequency(db):
    bank(db, "b")  # the default: keyword_backend bm25 with bm25_b = 0, no length normalisation
    put(db, "b", [("Short kiwi note.", vec(d2=1)),
                  ("A much longer note about the kiwi harvest this year.", vec(d1=1))])  # fmt: skip
    rows = recall(db, "b", "kiwi", None, arms=["keyword"])
    assert rows[0]["text"] == "A much longer note about the kiwi harvest this year."
    assert rows[0]["keyword_score"] == rows[1]["keyword_score"] > 0


EXHAUSTIVE = """
    SELECT p.unit_id::text, round(sum(q.weight * p.tf / (p.tf + q.base + q.per_length * p.doc_length)) * 1e12) / 1e12,
           max(p.doc_length)
    FROM unnest(%(terms)s::text[], %(weights)s::float8[], %(bases)s::float8[], %(per_lengths)s::float8[])
         AS q(term, weight, base, per_length)
    JOIN hindsight._bm25_postings p ON p.bank_id = %(bank)s AND p.term = q.term
    GROUP BY p.unit_id
"""
SCORES = "SELECT unit_id::text, score, doc_length FROM hindsight._bm25_scores(%(bank)s, %(terms)s, %(weights)s, " \
         "%(bases)s, %(per_lengths)s, %(k)s)"  # fmt: skip


def best_first(rows):
    """Score descending, then doc_length descending, then unit id (as uuid order: the text form sorts alike)."""
    return sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))


def test_the_c_scorer_equals_the_exhaustive_sql_scorer_on_random_banks(db):
    """hindsight._bm25_scores (a merge of the terms' postings, a heap of the k best) against the plain
    aggregate over every posting, on random banks with repeated words (tf > 1), random lengths, random
    constants (b = 0 and b > 0) and random queries: the same units, scores and order, to the last bit."""
    rng = random.Random(20261205)
    vocabulary = [f"w{i:02d}" for i in range(40)]
    for n_bank in range(4):
        bank_id = f"rand-{n_bank}"
        bank(db, bank_id, text_search_config="simple")
        texts = [" ".join(rng.choices(vocabulary[: rng.randint(8, 40)], k=rng.randint(1, 12))) for _ in range(150)]
        put(db, bank_id, [(t, vec(**{f"d{i % 384}": 1})) for i, t in enumerate(texts)])
        # a deleted unit's postings stay in the index until a VACUUM: the scorer must not see them
        db.execute("DELETE FROM hindsight.memory_units WHERE bank_id = %s AND text = %s", (bank_id, texts[0]))
        for _ in range(15):
            terms = rng.sample(vocabulary, rng.randint(1, 6))
            args = {
                "bank": bank_id,
                "terms": terms,
                "weights": [rng.uniform(0.1, 5) for _ in terms],
                "bases": [rng.uniform(0, 1.2)] * len(terms),
                "per_lengths": [rng.choice([0.0, rng.uniform(0, 0.3)])] * len(terms),
            }
            everything = db.execute(EXHAUSTIVE, args).fetchall()
            assert everything, terms
            for k in [1, 7, 300]:
                assert db.execute(SCORES, {**args, "k": k}).fetchall() == best_first(everything)[:k], (terms, k)
            assert sorted(db.execute(SCORES, {**args, "k": None}).fetchall()) == sorted(everything)


def test_the_c_scorer_reads_all_visible_pages_from_the_index_alone(db):
    """After a VACUUM the visibility map marks the pages all-visible, and the scorer takes its index-only path
    (elsewhere in these tests nothing is vacuumed, so every posting is checked in the heap); the scores stay
    those of the exhaustive aggregate."""
    bank(db, "vac", text_search_config="simple")
    put(db, "vac", [(f"kiwi {'apple ' * (i % 3)}note {i}", vec(**{f"d{i}": 1})) for i in range(50)])
    db.execute("VACUUM (ANALYZE) hindsight._bm25_postings")
    args = {"bank": "vac", "terms": ["kiwi", "apple"], "weights": [1.5, 2.5], "bases": [1.2, 1.2],
            "per_lengths": [0.0, 0.0]}  # fmt: skip
    assert db.execute(SCORES, {**args, "k": 10}).fetchall() == best_first(db.execute(EXHAUSTIVE, args).fetchall())[:10]


def test_the_c_scorer_refuses_mismatched_arguments(db):
    bank(db, "args", text_search_config="simple")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="weights has 1 elements, terms has 2"):
        db.execute("SELECT * FROM hindsight._bm25_scores('args', '{a,b}', '{1}', '{1,1}', '{0,0}', 5)")
    for k in (-1, 1_000_001):
        with pytest.raises(psycopg.errors.InvalidParameterValue, match=r"k must be within \[0, 1000000\]"):
            db.execute("SELECT * FROM hindsight._bm25_scores('args', '{a}', '{1}', '{1}', '{0}', %s)", (k,))
    # a configuration whose denominator reaches zero fails as the SQL form does, not with a NaN that would rank
    put(db, "args", [("kiwi", vec(d0=1))])
    with pytest.raises(psycopg.errors.DivisionByZero):
        db.execute("SELECT * FROM hindsight._bm25_scores('args', '{kiwi}', '{1}', '{-1}', '{0}', 5)")
    with pytest.raises(psycopg.errors.NullValueNotAllowed, match=r"bases\[1\] is NULL"):
        db.execute("SELECT * FROM hindsight._bm25_scores('args', '{a}', '{1}', '{NULL}', '{0}', 5)")
    with pytest.raises(psycopg.errors.NullValueNotAllowed):
        db.execute("SELECT * FROM hindsight._bm25_scores(NULL, '{a}', '{1}', '{1}', '{0}', 5)")
    assert db.execute("SELECT count(*) FROM hindsight._bm25_scores('args', '{}', '{}', '{}', '{}', 5)").fetchone() == (
        0,
    )


def test_filters_apply_before_the_keyword_arms_limit(db):
    """With a fact type filter the scorer returns every unit scored and the filter runs before the LIMIT:
    a budget of 2 is filled from the kept type, though the other type scores higher."""
    bank(db, "f", text_search_config="simple", keyword_backend="bm25")
    put(db, "f", [{"text": "kiwi kiwi kiwi", "embedding": vec(d0=1), "fact_type": "experience"},
                  {"text": "kiwi kiwi pie", "embedding": vec(d1=1), "fact_type": "experience"},
                  {"text": "kiwi one", "embedding": vec(d2=1), "fact_type": "world"},
                  {"text": "kiwi two", "embedding": vec(d3=1), "fact_type": "world"}])  # fmt: skip
    cfg = db.execute("SELECT hindsight.bank_config('f')").fetchone()[0]
    hits = db.execute(
        "SELECT (h).unit_id::text FROM unnest(hindsight._bm25_arm('f', '{kiwi}', '{world}', NULL, 'any', 2, %s)) h",
        (psycopg.types.json.Jsonb(cfg),),
    ).fetchall()
    world = db.execute(
        "SELECT id::text FROM hindsight.memory_units WHERE bank_id = 'f' AND fact_type = 'world'"
    ).fetchall()
    assert sorted(hits) == sorted(world)
