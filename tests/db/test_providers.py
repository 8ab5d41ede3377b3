"""Model providers inside the database (hindsight.embed, hindsight.rerank, recall without an embedding),
the same models from the driver, and the model server in between: identical results on every path."""

from __future__ import annotations

import json
import math

import numpy as np
import psycopg
import pytest
from _models import free_port, model_server
from psycopg import sql

from hindsight_pg import Client, EmbeddingModelError, LocalReranker, ProviderError
from hindsight_pg._errors import from_database
from hindsight_pl import providers

FACTS = [
    "Caroline went to an LGBTQ support group on Monday.",
    "Melanie signed up for a pottery class yesterday.",
    "Caroline is researching adoption agencies.",
    "Melanie took her kids camping at the lake.",
    "The team shipped the Atlas launch plan in March.",
    "Bob painted a sunset over the beach.",
]
QUESTION = "What did Caroline research?"


@pytest.fixture
def bank(client):
    client.create_bank("p")
    client.retain_batch("p", [{"content": f, "timestamp": "2024-05-01T10:00:00Z"} for f in FACTS])
    return "p"


def vectors(db, bank_id, texts, kind):
    (rows,) = db.execute("SELECT hindsight.embed(%s, %s, %s)::text[]", (bank_id, texts, kind)).fetchone()
    return np.array([json.loads(r) for r in rows], dtype=np.float32)


def sql_recall(db, bank_id, query):
    with db.cursor(row_factory=psycopg.rows.dict_row) as cur:
        return cur.execute("SELECT * FROM hindsight.recall(%s, %s)", (bank_id, query)).fetchall()


def test_the_database_and_the_driver_have_one_default_provider_each(db):
    (embedding, reranker) = db.execute(
        "SELECT hindsight._setting('embedding_provider'), hindsight._setting('reranker_provider')"
    ).fetchone()
    assert (embedding, reranker) == (providers.DEFAULT_EMBEDDING, providers.DEFAULT_RERANKER)


def test_the_database_embeds_as_the_driver_does(db, bank, embedder):
    inside = vectors(db, bank, [QUESTION, *FACTS], "query")
    assert inside.shape == (7, 384)
    assert np.allclose(inside, embedder.embed([QUESTION, *FACTS], kind="query"), atol=1e-6)


def test_recall_without_an_embedding_embeds_the_query_in_the_database(db, bank, client):
    inside = sql_recall(db, bank, QUESTION)
    outside = client.recall(bank, QUESTION).results
    assert [r["id"] for r in inside] == [r.id for r in outside]
    assert inside[0]["text"] == "Caroline is researching adoption agencies."
    assert inside[0]["semantic_rank"] == 1  # the semantic arm ran
    assert np.allclose([r["score"] for r in inside], [r.scores.final for r in outside], atol=1e-9)


def test_a_bank_with_e5_embeds_queries_and_passages_with_their_prefixes(db, client):
    client.create_bank("e5", config={"embedding_provider": {"kind": "local", "model": providers.E5}})
    query, passage = vectors(db, "e5", ["pottery class"], "query"), vectors(db, "e5", ["pottery class"], "passage")
    e5 = providers.LocalEmbedder(providers.E5)
    assert np.allclose(query, e5.embed(["pottery class"], kind="query"), atol=1e-6)
    assert not np.allclose(query, passage, atol=1e-3)
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="kind must be query or passage"):
        vectors(db, "e5", ["x"], "document")


@pytest.mark.parametrize("export", ["pytorch", "onnx"])
def test_driver_and_database_rerank_paths_agree(db, bank, embedder, request, export):
    """The same bank and query: the bank's cross-encoder inside the database, and the same model in the
    driver between recall_candidates and recall_finish, give the same ids in the same order and scores; for
    the sentence-transformers folder and its ONNX export (onnxruntime, no PyTorch) alike."""
    tiny_cross_encoder = request.getfixturevalue(
        "tiny_cross_encoder" if export == "pytorch" else "tiny_onnx_cross_encoder"
    )
    db.execute(
        "UPDATE hindsight.banks SET config = config || %s WHERE bank_id = %s",
        (json.dumps({"reranker_provider": {"kind": "local", "model": tiny_cross_encoder}}), bank),
    )
    inside = sql_recall(db, bank, QUESTION)
    reranker = LocalReranker(tiny_cross_encoder)
    outside = Client(db, embedder=embedder, reranker=reranker).recall(bank, QUESTION).results
    assert [r["id"] for r in inside] == [r.id for r in outside] and len(outside) == len(FACTS)
    assert np.allclose([r["score"] for r in inside], [r.scores.final for r in outside], atol=1e-6)
    assert np.allclose([r["rerank_score"] for r in inside], [r.scores.rerank for r in outside], atol=1e-6)
    # the tiny model's logits reach recall_finish raw and leave it through a sigmoid
    texts = dict(db.execute(
        "SELECT c.unit_id, c.rerank_text FROM unnest((hindsight.recall_candidates(%s, %s)).candidates) c",
        (bank, QUESTION),
    ).fetchall())  # fmt: skip
    logits = reranker.rerank(QUESTION, [texts[r.id] for r in outside])
    assert (np.abs(logits) > 1).any()
    assert np.allclose([r.scores.rerank for r in outside], 1 / (1 + np.exp(-logits)), atol=1e-6)
    if export == "pytorch":  # the keyword arm alone ranks its hits otherwise than the whole pipeline here
        without = Client(db, embedder=embedder).recall(bank, QUESTION, arms=["keyword"]).results
        assert [r.scores.rerank for r in without] != [r.scores.rerank for r in outside[: len(without)]]


def test_a_nan_score_from_the_cross_encoder_counts_as_zero(db, bank, embedder, tiny_cross_encoder):
    class Flaky:
        """The tiny cross-encoder, failing (NaN) on texts about pottery."""

        def __init__(self):
            self.model = LocalReranker(tiny_cross_encoder)

        def rerank(self, query, documents):
            scores = self.model.rerank(query, documents)
            scores[["pottery" in d for d in documents]] = math.nan
            return scores

    response = Client(db, embedder=embedder, reranker=Flaky()).recall(bank, "pottery class", trace=True)
    results = response.results
    pottery = [r for r in results if "pottery" in r.text]
    assert pottery and all(r.scores.rerank == 0 for r in pottery)
    assert all(r.scores.rerank > 0 for r in results if "pottery" not in r.text)
    # last in the reader's order (the passthrough, which ranks it first, still has its say in the fusion)
    read = response.trace["rerank"]["read"]
    ranks = {x["id"]: x["rerank_rank"] for x in response.trace["scoring"]["results"]}
    assert read == len(FACTS) and ranks[str(pottery[0].id)] == read


def test_the_model_server_gives_the_database_the_local_scores(db, bank, embedder, tiny_cross_encoder):
    reranker = LocalReranker(tiny_cross_encoder)
    local_inside = sql_recall(db, bank, QUESTION)  # the local model in the database, no cross-encoder
    with model_server(embedder, reranker) as url:
        # the server runs the bank's model, and says so
        remote_config = json.dumps({"kind": "http", "url": url, "model": embedder.model})
        db.execute("SELECT hindsight.set_setting('embedding_provider', %s)", (remote_config,))
        db.execute("SELECT hindsight.set_setting('reranker_provider', %s)", (remote_config,))
        assert np.allclose(vectors(db, bank, FACTS, "query"), embedder.embed(FACTS), atol=1e-5)
        remote = sql_recall(db, bank, QUESTION)
    expected = Client(db, embedder=embedder, reranker=reranker).recall(bank, QUESTION).results
    assert [r["id"] for r in remote] == [r.id for r in expected]
    assert np.allclose([r["rerank_score"] for r in remote], [r.scores.rerank for r in expected], atol=1e-5)
    assert {r["id"] for r in remote} == {r["id"] for r in local_inside}


def test_a_provider_that_fails_raises_hs502_naming_the_url(db, bank):
    url = f"http://127.0.0.1:{free_port()}"
    db.execute(
        "SELECT hindsight.set_setting('embedding_provider', %s)",
        (json.dumps({"kind": "http", "url": url, "retries": 0, "timeout": 2, "model": "multilingual-e5-small"}),),
    )
    with pytest.raises(psycopg.Error) as caught:
        sql_recall(db, bank, QUESTION)
    assert caught.value.sqlstate == "HS502"
    error = from_database(caught.value)  # what the driver raises
    assert isinstance(error, ProviderError)
    assert str(error).startswith(f"model server {url}/embed failed after 1 attempts (ConnectionError")
    assert "hindsight.provider_config" in (error.hint or "")
    # arms that need no embedding still run
    (top,) = db.execute("SELECT text FROM hindsight.recall(%s, 'pottery', arms => ARRAY['keyword']) LIMIT 1", (bank,))
    assert top == ("Melanie signed up for a pottery class yesterday.",)


def test_settings_are_validated_and_reset(db):
    reader = {"kind": "local", "model": "hindsight-reader"}  # the default
    assert db.execute("SELECT hindsight.provider_config(NULL, 'reranker')").fetchone() == (reader,)
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='unknown setting "colour"'):
        db.execute("SELECT hindsight.set_setting('colour', '{}')")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="reranker_provider http needs a url"):
        db.execute("""SELECT hindsight.set_setting('reranker_provider', '{"kind": "http"}')""")
    (value,) = db.execute(
        """SELECT hindsight.set_setting('reranker_provider', '{"kind": "local", "model": "/models/ce"}')"""
    ).fetchone()
    assert value == {"kind": "local", "model": "/models/ce"}
    assert db.execute("SELECT hindsight.set_setting('reranker_provider', NULL)").fetchone() == (reader,)
    assert db.execute("SELECT count(*) FROM hindsight.settings").fetchone() == (0,)


def test_only_a_superuser_chooses_what_the_server_loads_or_calls(db, role):
    db.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(role)))
    http = json.dumps({"kind": "http", "url": "http://169.254.169.254"})
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only a superuser may change embedding_provider"):
        db.execute("SELECT hindsight.set_setting('embedding_provider', %s)", (http,))
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only a superuser may set a bank's reranker"):
        db.execute("SELECT hindsight.create_bank('mine', config => %s)",
                   (json.dumps({"reranker_provider": {"kind": "local", "model": "/tmp/any"}}),))  # fmt: skip
    # turning the bank's reader off runs nothing in the server: anyone who may configure the bank may
    db.execute("""SELECT hindsight.create_bank('mine', config => '{"reranker_provider": {"kind": "none"}}')""")
    assert db.execute("SELECT hindsight.provider_config('mine', 'reranker')").fetchone() == ({"kind": "none"},)
    with pytest.raises(psycopg.errors.InsufficientPrivilege, match="only a superuser may set a bank's embedding"):
        db.execute(
            "UPDATE hindsight.banks SET config = config || %s WHERE bank_id = 'mine'",
            (json.dumps({"embedding_provider": json.loads(http)}),),
        )
    with pytest.raises(psycopg.errors.InvalidParameterValue, match='unknown bank config key "colour"'):
        db.execute("""UPDATE hindsight.banks SET config = '{"colour": 1}' WHERE bank_id = 'mine'""")


CONVERSATION = (
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.\n"
    "Melanie: That's great! I just signed up for a pottery class last week.\n"
    "assistant: Noted: Melanie started pottery and Caroline joined a support group."
)


def stored_units(db, bank_id):
    return db.execute(
        "SELECT u.text, u.fact_type, u.occurred_start, u.mentioned_at, u.embedding::text,"
        " ARRAY(SELECT e.canonical_name FROM hindsight.unit_entities ue JOIN hindsight.entities e"
        "  ON e.bank_id = ue.bank_id AND e.id = ue.entity_id WHERE ue.bank_id = u.bank_id AND ue.unit_id = u.id"
        "  ORDER BY 1) FROM hindsight.memory_units u WHERE u.bank_id = %s ORDER BY u.text",
        (bank_id,),
    ).fetchall()


def test_retain_text_stores_what_the_driver_stores(db, client):
    client.create_bank("driver")
    client.create_bank("sql")
    when = "2024-05-08T13:56:00+00:00"
    client.retain("driver", CONVERSATION, timestamp=when, document_id="chat", entities=["LGBTQ"])
    rows = db.execute(
        "SELECT * FROM hindsight.retain_text('sql', %s, document_id => 'chat', mentioned_at => %s, entities => %s)",
        (CONVERSATION, when, ["LGBTQ"]),
    ).fetchall()
    assert len(rows) == 3 and {r[0] for r in rows} == {"chat"}
    driver, inside = stored_units(db, "driver"), stored_units(db, "sql")
    assert [r[:4] + r[5:] for r in inside] == [r[:4] + r[5:] for r in driver]
    assert inside[0][0] == "Caroline: I went to a LGBTQ support group yesterday and it was so powerful."
    assert str(inside[0][2].date()) == "2024-05-07"  # "yesterday" against the item's time
    assert [r[1] for r in inside] == ["world", "world", "experience"]
    for a, b in zip(inside, driver, strict=True):
        assert np.allclose(json.loads(a[4]), json.loads(b[4]), atol=1e-6)
    # the same text again: every chunk is unchanged, nothing is extracted or added
    again = db.execute("SELECT * FROM hindsight.retain_text('sql', %s, document_id => 'chat')", (CONVERSATION,))
    assert again.fetchall() == [("chat", None, [])] and len(stored_units(db, "sql")) == 3  # nothing merged either


def test_retain_text_refuses_bad_input_and_writes_nothing(db, client):
    with pytest.raises(psycopg.Error) as caught:
        db.execute("SELECT * FROM hindsight.retain_text('nobody', 'Ana moved to Lisbon.')")
    assert caught.value.sqlstate == "HS404"
    client.create_bank("t")
    with pytest.raises(psycopg.errors.InvalidParameterValue) as caught:
        db.execute("SELECT * FROM hindsight.retain_text('t', ' ?! ')")
    assert caught.value.diag.message_primary == "content is blank or has only punctuation: ' ?! '"  # no plpy prefix
    with pytest.raises(psycopg.errors.InvalidParameterValue) as caught:
        db.execute("SELECT hindsight.embed('t', ARRAY['x'], 'document')")
    assert caught.value.diag.message_primary == "kind must be query or passage, got 'document'"
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="update_mode must be replace or append"):
        db.execute("SELECT * FROM hindsight.retain_text('t', 'Ana moved.', update_mode => 'merge')")
    assert db.execute("SELECT count(*) FROM hindsight.documents").fetchone() == (0,)


def test_a_provider_of_another_model_than_the_banks_vectors_is_refused(db, bank):
    # the bank was created under the built-in local E5; a server that names no model is known by its URL
    db.execute("SELECT hindsight.set_setting('embedding_provider', %s)",
               (json.dumps({"kind": "http", "url": "http://127.0.0.1:9/"}),))  # fmt: skip
    with pytest.raises(psycopg.Error) as caught:
        sql_recall(db, bank, QUESTION)
    assert caught.value.sqlstate == "HS409"
    error = from_database(caught.value)
    assert isinstance(error, EmbeddingModelError)
    assert error.args[0] == (f'bank "{bank}" holds vectors made with multilingual-e5-small, but its embedding '
                             "provider gives http://127.0.0.1:9")  # fmt: skip
    assert f"hindsight-pg reembed {bank} --model http://127.0.0.1:9 " in error.hint
    # a recall that embeds nothing still runs
    (top,) = db.execute("SELECT text FROM hindsight.recall(%s, 'pottery', arms => ARRAY['keyword']) LIMIT 1", (bank,))
    assert top == ("Melanie signed up for a pottery class yesterday.",)


def test_a_query_in_another_script_is_not_reranked_unless_the_reranker_is_multilingual(
    db, bank, embedder, tiny_onnx_cross_encoder
):
    english = {"kind": "local", "model": tiny_onnx_cross_encoder}
    db.execute("UPDATE hindsight.banks SET config = config || %s WHERE bank_id = %s",
               (json.dumps({"reranker_provider": english}), bank))  # fmt: skip

    def methods(query: str) -> tuple[str, str]:
        """How the database's recall and the driver's own reranker scored the candidates of ``query``."""
        (inside,) = db.execute("SELECT hindsight.recall_json(%s, %s, trace => true)->'trace'->'rerank'->>'method'",
                               (bank, query)).fetchone()  # fmt: skip
        driver = Client(db, embedder=embedder, reranker=LocalReranker(tiny_onnx_cross_encoder))
        return inside, driver.recall(bank, query, trace=True).trace["rerank"]["method"]

    assert methods(QUESTION) == ("cross-encoder", "cross-encoder")
    for query in ("卡罗琳研究了什么？", "Что изучала Кэролайн?"):
        assert methods(query) == ("passthrough:calibrated", "passthrough:calibrated"), query
    (why,) = db.execute("SELECT hindsight.recall_json(%s, %s, trace => true)->'trace'->'rerank'->>'why_passthrough'",
                        (bank, "卡罗琳研究了什么？")).fetchone()  # fmt: skip
    assert "Latin script only" in why
    multilingual = {**english, "multilingual": True}
    db.execute("UPDATE hindsight.banks SET config = config || %s WHERE bank_id = %s",
               (json.dumps({"reranker_provider": multilingual}), bank))  # fmt: skip
    assert methods("卡罗琳研究了什么？")[0] == "cross-encoder"
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="multilingual must be true or false"):
        db.execute("UPDATE hindsight.banks SET config = config || %s WHERE bank_id = %s",
                   (json.dumps({"reranker_provider": {**english, "multilingual": "yes"}}), bank))  # fmt: skip
