"""Each bank records the model of its vectors; hindsight-pg reembed moves it to another, resumably."""

from __future__ import annotations

import numpy as np
import psycopg
import pytest

from hindsight_pg import Client, EmbeddingModelError, ProviderError
from hindsight_pl.providers import E5, MINILM, LocalEmbedder

FACTS = [
    "Ana adopted a grey cat named Pixel.",
    "Ben rides his red bicycle to work every day.",
    "Chloe is learning to play the cello.",
    "Dev moved to Lisbon in the spring.",
    "Eve bakes sourdough bread on Sundays.",
    "Farid runs the data platform team.",
    "Gia is allergic to peanuts.",
    "Hugo collects vintage film cameras.",
    "Ines speaks Portuguese and Japanese.",
    "Jon is training for a marathon in October.",
]


def model_of(db, bank):
    return db.execute("SELECT config->>'embedding_model', reembed_model FROM hindsight.banks WHERE bank_id = %s",
                      (bank,)).fetchone()  # fmt: skip


def vectors(db, bank):
    rows = db.execute(
        "SELECT text, embedding, embedding_next FROM hindsight.memory_units WHERE bank_id = %s ORDER BY text", (bank,)
    ).fetchall()
    return {text: (v.to_numpy(), None if n is None else n.to_numpy()) for text, v, n in rows}


def test_a_bank_records_the_model_its_provider_gives(db):
    db.execute("SELECT hindsight.create_bank('plain')")
    db.execute("""SELECT hindsight.create_bank('minilm', config => '{"embedding_model": "all-MiniLM-L6-v2"}')""")
    db.execute("""SELECT hindsight.set_setting('embedding_provider',
                  '{"kind": "http", "url": "http://127.0.0.1:8081/", "model": "bge-small"}')""")  # fmt: skip
    db.execute("SELECT hindsight.create_bank('served')")
    db.execute(
        """SELECT hindsight.set_setting('embedding_provider', '{"kind": "http", "url": "http://127.0.0.1:8081/"}')"""
    )
    db.execute("SELECT hindsight.create_bank('unnamed')")
    assert [model_of(db, b)[0] for b in ("plain", "minilm", "served", "unnamed")] == [
        E5, MINILM, "bge-small", "http://127.0.0.1:8081"]  # fmt: skip
    db.execute("SELECT hindsight.set_setting('embedding_provider', NULL)")
    # a bank without a provider of its own runs the database-wide local provider with its own model
    (provider,) = db.execute("SELECT hindsight.provider_config('minilm', 'embedding')").fetchone()
    assert provider == {"kind": "local", "model": MINILM}
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="embedding_model must name a model"):
        db.execute("""SELECT hindsight.create_bank('blank', config => '{"embedding_model": " "}')""")


def test_a_new_model_for_a_bank_that_holds_vectors_is_refused(client, db):
    client.create_bank("empty")
    assert (
        client.configure_bank("empty", {"embedding_model": MINILM}).config["embedding_model"] == MINILM
    )  # no vectors yet
    client.configure_bank("empty", {"embedding_model": E5})
    client.retain("b", FACTS[0], create_bank=True)
    with pytest.raises(EmbeddingModelError) as caught:
        client.configure_bank("b", {"embedding_model": MINILM})
    assert caught.value.sqlstate == "HS409"
    assert str(caught.value).startswith(f'bank "b" holds vectors made with {E5}; they must be re-made with {MINILM}')
    assert "hindsight-pg reembed b --model all-MiniLM-L6-v2" in caught.value.hint
    assert model_of(db, "b") == (E5, None)


def test_reembed_stops_and_resumes_then_swaps_every_vector_in(client, db):
    client.retain_batch("b", [{"content": f} for f in FACTS], create_bank=True)
    before = vectors(db, "b")
    seen: list[tuple[int, int]] = []

    def stop_after_two_batches(done: int, total: int) -> None:
        seen.append((done, total))
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        client.reembed("b", MINILM, batch_size=4, progress=stop_after_two_batches)
    assert seen == [(4, 10), (8, 10)]
    # two batches kept beside the vectors in use; the bank still answers with E5
    half = vectors(db, "b")
    assert sum(n is not None for _, n in half.values()) == 8
    assert all(np.allclose(half[t][0], before[t][0]) for t in FACTS)
    assert model_of(db, "b") == (E5, MINILM)
    assert client.recall("b", "Who has a pet?").results[0].text == FACTS[0]
    # a fact retained meanwhile (with the old model) is re-embedded too
    client.retain("b", "Kim plays chess online at night.")
    seen.clear()
    assert client.reembed("b", MINILM, batch_size=4, progress=lambda d, n: seen.append((d, n))) == 11
    assert seen == [(3, 3)]  # only what was left
    after = vectors(db, "b")
    minilm = LocalEmbedder(MINILM)
    texts = sorted(after)
    assert np.allclose(np.stack([after[t][0] for t in texts]), minilm.embed(texts, kind="passage"), atol=1e-6)
    assert all(n is None for _, n in after.values())
    assert model_of(db, "b") == (MINILM, None)
    # the bank now answers with MiniLM: the driver embeds with the bank's model, and refuses another
    fresh = Client(db)
    assert fresh.embedder_for("b").model == MINILM  # type: ignore[attr-defined]
    assert fresh.recall("b", "Who has a pet?").results[0].text == FACTS[0]
    with pytest.raises(EmbeddingModelError, match=f"holds vectors made with {MINILM}; this client's embedder makes"):
        client.recall("b", "Who has a pet?")  # the fixture's client was given E5
    # and inside the database
    assert db.execute("SELECT text FROM hindsight.recall('b', 'Who has a pet?') LIMIT 1").fetchone() == (FACTS[0],)
    # again with the same model: nothing to do
    assert fresh.reembed("b", MINILM) == 0


def test_reembed_towards_another_model_discards_a_stopped_run(client, db):
    client.retain_batch("b", [{"content": f} for f in FACTS[:3]], create_bank=True)
    assert db.execute("SELECT hindsight.reembed_begin('b', 'all-MiniLM-L6-v2')").fetchone() == (3,)
    db.execute("UPDATE hindsight.memory_units SET embedding_next = embedding WHERE bank_id = 'b'")
    assert db.execute("SELECT hindsight.reembed_begin('b', 'other-model')").fetchone() == (3,)  # started over
    assert model_of(db, "b") == (E5, "other-model")
    assert db.execute("SELECT hindsight.reembed_begin('b', 'multilingual-e5-small')").fetchone() == (0,)  # cancelled
    assert model_of(db, "b") == (E5, None)
    with pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState, match='bank "b" is not being re-embedded'):
        db.execute("SELECT hindsight.reembed_finish('b', 'all-MiniLM-L6-v2')")


def test_reembed_finish_needs_every_unit_and_mental_model(client, db):
    client.retain_batch("b", [{"content": f} for f in FACTS[:2]], create_bank=True)
    db.execute("SELECT hindsight.reembed_begin('b', 'all-MiniLM-L6-v2')")
    with pytest.raises(psycopg.Error, match='2 memory units of bank "b" have no') as missing:
        db.execute("SELECT hindsight.reembed_finish('b', 'all-MiniLM-L6-v2')")
    assert missing.value.sqlstate == "HS425"  # its own code: the driver stores them and finishes again
    db.execute("UPDATE hindsight.memory_units SET embedding_next = embedding WHERE bank_id = 'b'")
    db.execute("""INSERT INTO hindsight.mental_models (bank_id, name, source_query, content, embedding)
                  SELECT 'b', 'pets', 'Who has pets?', 'Ana has a cat.', embedding
                  FROM hindsight.memory_units WHERE bank_id = 'b' LIMIT 1""")  # fmt: skip
    with pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState, match="every mental model"):
        db.execute("SELECT hindsight.reembed_finish('b', 'all-MiniLM-L6-v2')")
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="unit_ids has 1 ids for 0 embeddings"):
        db.execute("SELECT hindsight.reembed_store('b', 'all-MiniLM-L6-v2', ARRAY[gen_random_uuid()], '{}')")
    with pytest.raises(psycopg.Error) as caught:
        db.execute("SELECT hindsight.reembed_store('nobank', 'm', '{}', '{}')")
    assert caught.value.sqlstate == "HS404"


def test_reembed_refuses_bad_arguments(client):
    client.create_bank("b")
    with pytest.raises(ValueError, match="batch_size must be at least 1"):
        client.reembed("b", MINILM, batch_size=0)
    with pytest.raises(ValueError, match="model must name an embedding model"):
        client.reembed("b", " ")
    with pytest.raises(ValueError, match="the embedder makes multilingual-e5-small vectors, not all-MiniLM-L6-v2"):
        client.reembed("b", MINILM, embedder=LocalEmbedder(E5))


def test_a_run_towards_another_model_cannot_store_into_or_finish_this_one(client, db):
    client.retain_batch("b", [{"content": f} for f in FACTS[:2]], create_bank=True)
    db.execute("SELECT hindsight.reembed_begin('b', 'all-MiniLM-L6-v2')")
    db.execute("SELECT hindsight.reembed_begin('b', 'other-model')")  # a second run, started since
    for statement in ("SELECT hindsight.reembed_store('b', 'all-MiniLM-L6-v2', '{}', '{}')",
                      "SELECT hindsight.reembed_finish('b', 'all-MiniLM-L6-v2')"):  # fmt: skip
        with pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState,
                           match='bank "b" is being re-embedded with other-model, not all-MiniLM-L6-v2'):  # fmt: skip
            db.execute(statement)
    assert model_of(db, "b") == (E5, "other-model")


def test_a_model_that_cannot_load_starts_no_run(client, db):
    client.retain("b", FACTS[0], create_bank=True)
    with pytest.raises(ProviderError):
        client.reembed("b", "/nonexistent/model")
    assert model_of(db, "b") == (E5, None)


class RetainingMeanwhile(LocalEmbedder):
    """MiniLM that, when the run's last step embeds the mental models, has another session retain a fact
    first: a writer between the last batch and reembed_finish."""

    def __init__(self, writer: Client) -> None:
        super().__init__(MINILM)
        self.writer, self.wrote = writer, False

    def embed(self, texts, kind="passage"):
        if texts == ["Ana has a cat."] and not self.wrote:
            self.wrote = True
            self.writer.retain("b", "Kim plays chess online at night.")
        return super().embed(texts, kind=kind)


def test_reembed_embeds_a_unit_retained_before_finish_and_finishes_again(client, db, postgresql_proc, embedder):
    client.retain_batch("b", [{"content": f} for f in FACTS[:3]], create_bank=True)
    db.execute("""INSERT INTO hindsight.mental_models (bank_id, name, source_query, content, embedding)
                  SELECT 'b', 'pets', 'Who has pets?', 'Ana has a cat.', embedding
                  FROM hindsight.memory_units WHERE bank_id = 'b' LIMIT 1""")  # fmt: skip
    other = psycopg.connect(host=postgresql_proc.host, port=postgresql_proc.port, user=postgresql_proc.user,
                            dbname=db.info.dbname, autocommit=True)  # fmt: skip
    with other:
        meanwhile = RetainingMeanwhile(Client(other, embedder=embedder))
        # 3 units, then the fourth after finish refused the run (HS425): embedded, and finish again
        assert client.reembed("b", MINILM, embedder=meanwhile) == 4
    assert meanwhile.wrote
    assert model_of(db, "b") == (MINILM, None)
    after = vectors(db, "b")
    assert np.allclose(after["Kim plays chess online at night."][0],
                       LocalEmbedder(MINILM).embed(["Kim plays chess online at night."])[0], atol=1e-6)  # fmt: skip
