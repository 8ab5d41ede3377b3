"""The packaged reader (hindsight-reader: our own cross-encoder, hindsight_pg/data/reader) and the rank fusion of
recall_finish: the real model in the driver and inside the database, no stand-ins."""

from __future__ import annotations

import json

import numpy as np
import psycopg
import pytest
from typer.testing import CliRunner

from hindsight_pg import Client, LocalReranker, cli
from hindsight_pg.cli.examples import EXAMPLE_CONVERSATION
from hindsight_pl import providers
from hindsight_pl.errors import ProviderError

READER = {"kind": "local", "model": providers.READER}
TOM = (
    "Tom: Not Saturday daytime - most Saturdays I'm bouldering at the climbing gym on Elm Street, it's how I switch"
    " off from work. Evening works though!"
)
UNWIND = "What does Tom do to unwind on weekends?"


@pytest.fixture(scope="module")
def reader():
    return LocalReranker(providers.READER)


@pytest.mark.parametrize(
    ("question", "answer", "other"),
    [
        (
            "What did Caroline research?",
            "Caroline: Researching adoption agencies, it's been a dream of mine.",
            "Melanie: Thanks for the tip, Caroline. I'll do some research on pottery classes.",
        ),
        (
            "Where is the team offsite?",
            "The offsite is in Valencia, the hotel is booked for the whole team.",
            "The offsite planning spreadsheet is in the shared drive.",
        ),
        (
            "When did Melanie go camping?",
            "Melanie: We went camping at the lake last weekend with the kids.",
            "Melanie: I love camping, it is so relaxing.",
        ),
        (
            "Who is the tech lead of Project Falcon?",
            "Priya is the tech lead for Falcon, Tom owns the payments part.",
            "Project Falcon is the new mobile checkout.",
        ),
        (
            "What pet does Daniel have?",
            "Daniel: Biscuit, my dog, loved the long coastal hike.",
            "Daniel: I had a long week, finally some rest.",
        ),
        (UNWIND, TOM, "Maya: Last weekend before the holidays. Anything fun?"),
    ],
)
def test_the_packaged_reader_puts_the_answer_above_a_near_miss(reader, question, answer, other):
    right, wrong = reader.rerank(question, [answer, other])
    assert right > wrong, (right, wrong)


def test_the_packaged_reader_reads_128_tokens_a_pair(reader):
    model = reader._load()
    assert type(model).__name__ == "_OnnxCrossEncoder" and model.max_length == 128
    long = "Caroline is researching adoption agencies. " + "Unrelated filler about the weather. " * 200
    assert reader.rerank("What did Caroline research?", [long]).shape == (1,)


# Questions up to the 2,000-character limit (query_chars), as agents pass them: prose, one script or another, one
# long word, a single token repeated
LONG = (
    "Before the sprint review I want to check something: what does Tom do to unwind on weekends, and is that still"
    " the climbing gym or did he switch to something else after the office moved? Also remind me who asked. "
)
QUESTIONS = {
    **{f"prose {n}": (LONG * 12)[:n] for n in (1, 64, 127, 300, 728, 1000, 1500, 2000)},
    "chinese 2000": ("汤姆周末做什么放松？他还去攀岩馆吗？" * 120)[:2000],
    "russian 2000": ("Что Том делает по выходным, чтобы отдохнуть? " * 50)[:2000],
    "one long word 2000": ("Donaudampfschifffahrtsgesellschaftskapitän" * 50)[:2000],
    "one token 2000": "x" * 2000,
}


def test_the_reader_reads_a_question_of_any_length_its_start_first(reader):
    model = reader._load()
    for name, question in QUESTIONS.items():
        cut = model._cut_query(question)
        assert question.startswith(cut) and len(model.query_tokenizer.encode(cut, add_special_tokens=False)) <= 62
        assert reader.rerank(question, [TOM, "Maya: I had a long week.", "x " * 3000]).shape == (3,), name
    # a long question keeps its start, whole words of it: the reader scores its cut as it scores the question
    long = (UNWIND + " " + LONG * 12)[:2000]
    cut = model._cut_query(long)
    assert cut.startswith(UNWIND + " Before the sprint review") and cut[-1].isalnum() and len(cut) < 400
    assert reader.rerank(long, [TOM]) == pytest.approx(reader.rerank(cut, [TOM]))


def test_recall_reads_every_question_up_to_the_limit_in_sql_the_driver_and_the_cli(db, client, weekend, monkeypatch):
    for name, question in QUESTIONS.items():
        (doc,) = db.execute(
            "SELECT hindsight.recall_json('w', %s, query_timestamp => '2025-12-19', trace => true)", (question,)
        ).fetchone()
        assert doc["results"], name  # the semantic arm answers even "x" * 2000
        # the default reader read them; a script it was not trained on falls back to the passthrough
        latin = name not in ("chinese 2000", "russian 2000")
        assert doc["trace"]["rerank"]["method"] == ("cross-encoder" if latin else "passthrough:calibrated"), name
        why = doc["trace"]["rerank"]["why_passthrough"]
        assert why is None if latin else "Latin script only" in why, name
    longest = QUESTIONS["prose 2000"]
    assert client.recall("w", longest, query_timestamp="2025-12-19").results
    monkeypatch.setenv("HINDSIGHT_PG_DSN", db.info.dsn)
    result = CliRunner().invoke(cli.app, ["recall", "w", longest, "--max-tokens", "200"])
    assert result.exit_code == 0 and "Tom" in result.output, result.output


def test_the_packaged_reader_scores_the_same_in_the_database_and_the_driver(db, client, reader):
    client.create_bank("r", config={"reranker_provider": READER})
    texts = [
        TOM,
        "Maya: Any plans for the weekend?",
        "Daniel: Walked the dog in -6 this morning.",
        "数据库迁移完成了。",
    ]
    (inside,) = db.execute("SELECT hindsight.rerank('r', %s, %s)", (UNWIND, texts)).fetchone()
    assert np.allclose(inside, reader.rerank(UNWIND, texts), atol=1e-5)
    assert int(np.argmax(inside)) == 0


@pytest.fixture
def weekend(client, bank_snapshots):
    """The demo's first 120 messages (hindsight_pg/data/team_chat.json), one memory each: other people's weekend
    plans share the question's words, Tom's answer does not. No knowledge updates (update_candidates 0): recall's
    order without a reader is then the boosted passthrough's, which the reader reads first."""
    turns = json.loads(EXAMPLE_CONVERSATION.read_text())[:120]

    def build() -> None:
        client.create_bank("w", config={"extractor": "verbatim", "update_candidates": 0})
        client.retain_batch("w", [{"content": f"{t['speaker']}: {t['text']}", "timestamp": t["timestamp"]}
                                  for t in turns])  # fmt: skip

    bank_snapshots.restore(client.conn, "weekend", build)
    return "w"


def _texts(db, bank):
    rows = db.execute(
        "SELECT text FROM hindsight.recall(%s, %s, query_timestamp => '2025-12-19', max_tokens => 100000,"
        " max_results => NULL)"
        " ORDER BY rank",
        (bank, UNWIND),
    ).fetchall()
    return [r[0] for r in rows]


OFF = json.dumps({"reranker_provider": {"kind": "none"}})


def test_the_reader_lifts_the_answer_the_passthrough_ranks_low(db, client, weekend):
    with_reader = _texts(db, weekend)  # the default
    db.execute("UPDATE hindsight.banks SET config = config || %s WHERE bank_id = %s", (OFF, weekend))
    without = _texts(db, weekend)
    assert sorted(without) == sorted(with_reader)
    assert with_reader.index(TOM) == 0 and without.index(TOM) > 2, (without.index(TOM), with_reader[:3])
    # the driver's own reader gives the same order
    db.execute("UPDATE hindsight.banks SET config = config - 'reranker_provider' WHERE bank_id = %s", (weekend,))
    driver = Client(db, reranker=LocalReranker(providers.READER)).recall(
        weekend, UNWIND, query_timestamp="2025-12-19", max_tokens=100000, max_results=None
    )
    assert [r.text for r in driver.results] == with_reader


def test_a_new_bank_reads_with_the_packaged_reader_the_passthroughs_best_ten(db, client, weekend):
    (doc,) = db.execute(
        "SELECT hindsight.recall_json('w', %s, query_timestamp => '2025-12-19', trace => true)", (UNWIND,)
    ).fetchone()
    assert (doc["trace"]["rerank"]["method"], doc["trace"]["rerank"]["read"]) == ("cross-encoder", 10)
    # what it read: the ten the passthrough ranks first, which are not the ten first by fused rank here
    read = {r["id"] for r in doc["trace"]["scoring"]["results"] if r["rerank_raw"] is not None}
    db.execute("UPDATE hindsight.banks SET config = config || %s WHERE bank_id = %s", (OFF, weekend))
    (plain,) = db.execute(
        "SELECT hindsight.recall_json('w', %s, query_timestamp => '2025-12-19', trace => true)", (UNWIND,)
    ).fetchone()
    passthrough_best = [r["id"] for r in plain["trace"]["scoring"]["results"][:10]]
    fused_best = [c["id"] for c in sorted(plain["trace"]["prefilter"]["candidates"], key=lambda c: c["rank"])[:10]]
    assert read == set(passthrough_best) and set(fused_best) != set(passthrough_best)


def test_a_bank_with_the_reader_turned_off_keeps_the_passthrough_order(db, client, weekend):
    db.execute("SELECT hindsight.set_setting('reranker_provider', %s)", (json.dumps({"kind": "none"}),))
    try:
        before = _texts(db, weekend)
    finally:
        db.execute("SELECT hindsight.set_setting('reranker_provider', NULL)")  # the reader, database-wide
    assert _texts(db, weekend) != before
    db.execute("UPDATE hindsight.banks SET config = config || %s WHERE bank_id = %s", (OFF, weekend))
    assert _texts(db, weekend) == before


def test_the_trace_shows_what_the_reader_read_and_its_ranks(db, client, weekend):
    db.execute("UPDATE hindsight.banks SET config = config || %s WHERE bank_id = %s",
               (json.dumps({"reranker_candidates": {"mid": 4}}), weekend))  # fmt: skip
    (doc,) = db.execute(
        "SELECT hindsight.recall_json('w', %s, query_timestamp => '2025-12-19', trace => true)", (UNWIND,)
    ).fetchone()
    stage = doc["trace"]["rerank"]
    assert (stage["method"], stage["read"], stage["weight"]) == ("cross-encoder", 4, 0.7)
    results = doc["trace"]["scoring"]["results"]
    read = [r for r in results if r["rerank_raw"] is not None]
    assert sorted(r["rerank_rank"] for r in read) == [1, 2, 3, 4]
    assert all(r["rerank_rank"] is None for r in results if r["rerank_raw"] is None)
    by_raw = sorted(read, key=lambda r: -r["rerank_raw"])
    assert [r["rerank_rank"] for r in by_raw] == [1, 2, 3, 4]
    assert results[: len(read)] == sorted(results[: len(read)], key=lambda r: -r["final"])
    assert {r["id"] for r in results[:4]} == {r["id"] for r in read}  # every unit read ranks above the rest


def test_the_inspector_shows_the_readers_rank_and_score(db, client, weekend):
    import html
    import re

    from starlette.testclient import TestClient

    from hindsight_pg.ui import create_app

    ui = TestClient(create_app(db.info.dsn), base_url="http://127.0.0.1")
    page = ui.get("/banks/w/recall?q=What+does+Tom+do+to+unwind+on+weekends%3F&dropped=on").text
    assert "which read the best 10 of" in page and "at weight 0.7" in page
    header = re.search(r'<table id="results">\s*<thead><tr>(.*?)</tr>', page, re.S)[1]
    columns = [html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<th>(.*?)</th>", header)]
    first = re.search(r'<table id="results">.*?<tbody>\s*<tr>(.*?)</tr>', page, re.S)[1]
    cells = [
        " ".join(html.unescape(re.sub(r"<[^>]+>", " ", c)).split())
        for c in re.findall(r"<td[^>]*>(.*?)</td>", first, re.S)
    ]
    reader = cells[columns.index("reader")]
    assert re.fullmatch(r"#\d+ -?\d+\.\d\d", reader), reader
    assert TOM[:40] in cells[1]
    # a question the reader does not read: the page says the passthrough ranked, and why
    page = html.unescape(ui.get("/banks/w/recall?q=汤姆周末做什么？").text)
    assert "Rerank: passthrough:calibrated: the reader reads questions in Latin script only" in page


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"reranker_weight": -1}, 'bank config "reranker_weight" must be a number in \\[0, 1\\], got -1'),
        ({"reranker_weight": 2}, "reranker_weight must be in \\[0, 1\\], got 2"),
        ({"reranker_candidates": {"mid": 0}}, "reranker_candidates must map each of low, mid, high it names"),
        ({"reranker_candidates": {"mid": 1.5}}, "reranker_candidates must map each of low, mid, high it names"),
        ({"reranker_candidates": {"mid": "a"}}, 'bank config "reranker_candidates" has a bad entry "mid"'),
    ],
)
def test_bad_reader_settings_are_refused_naming_the_range(db, config, message):
    with pytest.raises(psycopg.errors.InvalidParameterValue, match=message) as refused:
        db.execute("SELECT hindsight.create_bank('bad', config => %s)", (json.dumps(config),))
    assert (
        refused.value.diag.message_hint is None
        or "integers >= 1" in refused.value.diag.message_hint
        or ("0.7 is the default" in refused.value.diag.message_hint)
    )
    assert db.execute("SELECT count(*) FROM hindsight.banks WHERE bank_id = 'bad'").fetchone()[0] == 0


def test_a_misspelled_reader_name_says_what_was_looked_for():
    with pytest.raises(ProviderError, match="no such folder, and no model of that name in the local model cache; "
                       "'hindsight-reader' is the packaged reader"):  # fmt: skip
        LocalReranker("hindsight-readr").rerank("q", ["d"])
