"""The retain pipeline end to end: extraction, links, documents, one transaction per call."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import psycopg
import pytest
from _helpers import NO_LINKS, bank, put, vec

from hindsight_pg import ExtractionError, OfflineExtractor
from hindsight_pg._inputs import read_items
from hindsight_pg.cli import EXAMPLE_CONVERSATION


def units(db, bank_id):
    """{text: row} of a bank's memory units."""
    with db.cursor(row_factory=psycopg.rows.dict_row) as cur:
        rows = cur.execute(
            "SELECT u.*, ARRAY(SELECT e.canonical_name FROM hindsight.unit_entities ue JOIN hindsight.entities e"
            "  ON e.bank_id = ue.bank_id AND e.id = ue.entity_id WHERE ue.bank_id = u.bank_id AND ue.unit_id = u.id"
            "  ORDER BY 1) AS names FROM hindsight.memory_units u WHERE u.bank_id = %s",
            (bank_id,),
        ).fetchall()
    return {r["text"]: r for r in rows}


def table_counts(db, bank_id):
    return db.execute(
        "SELECT (SELECT count(*) FROM hindsight.documents WHERE bank_id = %(b)s),"
        " (SELECT count(*) FROM hindsight.chunks WHERE bank_id = %(b)s),"
        " (SELECT count(*) FROM hindsight.memory_units WHERE bank_id = %(b)s),"
        " (SELECT count(*) FROM hindsight.entities WHERE bank_id = %(b)s),"
        " (SELECT count(*) FROM hindsight.unit_entities WHERE bank_id = %(b)s),"
        " (SELECT count(*) FROM hindsight.memory_links WHERE bank_id = %(b)s),"
        " (SELECT count(*) FROM hindsight._entity_cooccurrences WHERE bank_id = %(b)s)",
        {"b": bank_id},
    ).fetchone()


# -- the offline extractor on the demo conversation --------------------------------------


def test_demo_conversation_facts_dates_entities_and_links(client, db):
    client.create_bank("demo")
    items = read_items(str(EXAMPLE_CONVERSATION))
    client.retain_batch("demo", items)
    stored = units(db, "demo")
    turns = {f"{item.speaker}: {item.content}" if item.speaker else item.content for item in items}
    # a turn is one fact, fragments without a verb too ("Tom: in", "Sofia: ramen?": nothing said is dropped), except
    # turns of more than three sentences, which are split
    assert "Tom: in" in stored and "Sofia: ramen?" in stored
    assert {"Daniel: Second billing rehearsal: clean.", "Daniel: Sequences correct, no duplicate rows."} <= set(stored)
    assert len(stored) == 339 and len(turns) == 333
    beta = stored["Priya: Falcon beta plan is final: 500 customers on iOS and Android from April 28th. Sofia is doing "
                  "the in-app feedback prompt."]  # fmt: skip
    # said on 2025-03-24: "April 28th" is the coming one
    assert (beta["occurred_start"], beta["occurred_end"]) == (
        datetime(2025, 4, 28, tzinfo=UTC), datetime(2025, 4, 28, 23, 59, 59, 999999, tzinfo=UTC))  # fmt: skip
    # a coordination is two entities; "Falcon" opening the turn is a name the bank knows by then
    assert beta["names"] == ["Android", "Falcon", "Priya", "Sofia", "iOS"]
    sick = stored["Tom: Out sick today, the flu finally caught me. Slack on and off."]
    assert sick["occurred_start"] == datetime(2025, 3, 3, tzinfo=UTC) and sick["names"] == ["Tom"]
    # "She's" is no name, and "after years in hospital admin" no date: the date is "on Monday" (said on Wednesday
    # 2025-02-12), not the years 2026-2036 that "after years" used to give
    lena = stored["Maya: Small personal news: my sister Lena started at Brightwater Health on Monday. She's working on "
                  "Juniper, their new appointment-booking app. First real software job after years in hospital admin, "
                  "very proud of her."]  # fmt: skip
    assert lena["names"] == ["Brightwater Health", "Juniper", "Lena", "Maya"]
    assert (lena["occurred_start"], lena["occurred_end"]) == (
        datetime(2025, 2, 10, tzinfo=UTC), datetime(2025, 2, 10, 23, 59, 59, 999999, tzinfo=UTC))  # fmt: skip
    # "What's" is no name
    sofia = stored["Sofia: What's everyone up to this weekend? I'm going to a ceramics market. For research."]
    assert sofia["names"] == ["Sofia"]
    # the turns naming Falcon share one entity (some name "Falcon GA" or "Falcon beta" instead)
    falcon = [t for t, u in stored.items() if "Falcon" in u["names"]]
    assert len(falcon) >= 30 and all("Falcon" in t for t in falcon)
    # temporal links: the launch and Sofia's reply are linked both ways, weight 1 - hours apart / 24, measured between
    # the dates they are filed under: the launch's day (it names no hour: 00:00) and the reply's mention, 09:03
    live = stored["Priya: Falcon beta is live for 500 customers on iOS and Android. Dashboards are green. Let's watch "
                  "it closely this week."]["id"]  # fmt: skip
    reply = stored["Sofia: So nervous and excited. Watching every feedback prompt come in."]["id"]
    weights = db.execute(
        "SELECT from_unit_id = %s, weight FROM hindsight.memory_links WHERE link_type = 'temporal'"
        " AND ((from_unit_id = %s AND to_unit_id = %s) OR (from_unit_id = %s AND to_unit_id = %s)) ORDER BY 1",
        (live, live, reply, reply, live),
    ).fetchall()
    assert [w for _, w in weights] == pytest.approx([1 - (9 + 3 / 60) / 24] * 2, abs=1e-9)


def test_berlin_last_march_and_project_atlas_in_the_graph(client, db):
    client.create_bank("p", config={"graph_seed_limit": 1})  # the graph starts from the best semantic hit only
    client.retain("p", "I moved to Berlin last March.", timestamp="2024-06-10T09:00:00")
    client.retain("p", "Project Atlas ships the new search API in the autumn.", timestamp="2024-06-11T09:00:00Z")
    client.retain("p", "Kim Lee was named tech lead of Project Atlas.", timestamp="2024-06-12T09:00:00Z")
    stored = units(db, "p")
    berlin = stored["I moved to Berlin last March."]
    assert berlin["names"] == ["Berlin"]
    assert (berlin["occurred_start"], berlin["occurred_end"]) == (
        datetime(2024, 3, 1, tzinfo=UTC), datetime(2024, 3, 31, 23, 59, 59, 999999, tzinfo=UTC))  # fmt: skip
    assert stored["Kim Lee was named tech lead of Project Atlas."]["names"] == ["Kim Lee", "Project Atlas"]
    response = client.recall("p", "When does the search API ship?", arms=["semantic", "graph"])
    by_text = {r.text: r for r in response.results}
    lead = by_text["Kim Lee was named tech lead of Project Atlas."]
    assert lead.scores.graph_rank == 1
    link = db.execute(
        "SELECT coalesce(max(weight), 0) FROM hindsight.memory_links WHERE link_type = 'semantic'"
        " AND %s IN (from_unit_id, to_unit_id) AND %s IN (from_unit_id, to_unit_id)",
        (lead.id, by_text["Project Atlas ships the new search API in the autumn."].id),
    ).fetchone()[0]
    assert lead.scores.graph_score == pytest.approx(math.tanh(0.5) + link)  # one shared entity (+ its link)


def test_facts_repeated_in_one_call_are_stored_once(client, db):
    client.create_bank("d")
    result = client.retain_batch("d", [
        {"content": "Ana adopted a grey cat named Pixel.", "entities": ["Ana"]},
        {"content": "ana adopted a grey cat named pixel!", "entities": ["Pixel"]},
        {"content": "Ana adopted a gray cat named Pixel.", "entities": []},
        {"content": "Ben bought a red bicycle for commuting."},
    ])  # fmt: skip
    assert sorted(units(db, "d")) == ["Ana adopted a grey cat named Pixel.", "Ben bought a red bicycle for commuting."]
    assert len(result.document_ids) == 4 and len(result.unit_ids) == 2
    assert units(db, "d")["Ana adopted a grey cat named Pixel."]["names"] == ["Ana", "Pixel"]


def test_the_agents_own_turns_are_experience(client, db):
    client.create_bank("a", config={"agent_name": "Sage"})
    client.retain("a", "User: Please book a table for two.\nSage: I booked a table at Nopa for 7 pm.")
    client.retain("a", "I reminded the user about the dentist.", speaker="sage")
    types = {t: r["fact_type"] for t, r in units(db, "a").items()}
    assert types == {
        "User: Please book a table for two.": "world",
        "Sage: I booked a table at Nopa for 7 pm.": "experience",
        "sage: I reminded the user about the dentist.": "experience",  # the item's speaker: a turn of theirs
    }


def test_a_verbatim_bank_stores_each_turn_whole_without_dates(client, db):
    client.create_bank("v", config={"extractor": "verbatim"})
    turn = "Caroline: I went to the LGBTQ support group yesterday. I told Melanie about it."
    client.retain_batch("v", [{"content": turn, "timestamp": "2023-05-08T13:56:00Z"}])
    ((text, row),) = units(db, "v").items()
    assert text == turn and row["occurred_start"] is None and row["occurred_end"] is None
    assert row["mentioned_at"] == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert row["names"] == ["Caroline", "LGBTQ", "Melanie"]


def test_naive_and_aware_timestamps_are_stored_in_utc(client, db):
    client.create_bank("t")
    client.retain("t", "The naive note was written.", timestamp="2024-06-10T12:00:00")
    client.retain("t", "The aware note was written.", timestamp="2024-06-10T12:00:00+02:00")
    stored = units(db, "t")
    assert stored["The naive note was written."]["mentioned_at"] == datetime(2024, 6, 10, 12, tzinfo=UTC)
    assert stored["The aware note was written."]["mentioned_at"] == datetime(2024, 6, 10, 10, tzinfo=UTC)


# -- links -------------------------------------------------------------------------------


def test_semantic_links_keep_neighbours_at_similarity_0_7_or_more(db):
    bank(db, "s", temporal_link_neighbours=0)
    a, b, c = put(db, "s", [("A.", vec(d0=1)), ("B.", vec(d0=1, d1=0.75)), ("C.", vec(d0=1, d1=1.5))])
    links = db.execute(
        "SELECT from_unit_id::text, to_unit_id::text, round(weight::numeric, 3) FROM hindsight.memory_links"
        " WHERE link_type = 'semantic' ORDER BY 3 DESC, 1, 2"
    ).fetchall()
    # cos(A, B) = 0.8, cos(B, C) = 0.943, cos(A, C) = 0.55 (no link); each new unit links to earlier
    # and to units of its own call
    pairs = {frozenset((x, y)): float(w) for x, y, w in links}
    assert pairs == {frozenset((a, b)): 0.8, frozenset((b, c)): 0.943}


def test_temporal_links_weight_by_hours_apart_with_a_floor(db):
    bank(db, "t", semantic_link_top_k=0)
    ids = put(db, "t", [{"text": f"Event {h}.", "embedding": vec(d0=1), "mentioned_at": f"2024-01-0{1 + h // 24}T"
                        f"{h % 24:02d}:00:00Z"} for h in (0, 6, 30)])  # fmt: skip
    weights = dict(
        ((f, t), w)
        for f, t, w in db.execute(
            "SELECT from_unit_id::text, to_unit_id::text, weight FROM hindsight.memory_links"
        ).fetchall()
    )
    assert weights[(ids[0], ids[1])] == weights[(ids[1], ids[0])] == pytest.approx(1 - 6 / 24)
    assert weights[(ids[0], ids[2])] == pytest.approx(0.3)  # 30 hours: the floor
    assert weights[(ids[1], ids[2])] == pytest.approx(0.3)  # 24 hours: max(0.3, 0)


def test_temporal_links_stay_within_a_fact_type(db):
    bank(db, "t", semantic_link_top_k=0)
    put(
        db,
        "t",
        [
            {"text": "World.", "embedding": vec(d0=1), "mentioned_at": DAY},
            {"text": "Mine.", "embedding": vec(d0=1), "fact_type": "experience", "mentioned_at": DAY},
        ],
    )
    assert db.execute("SELECT count(*) FROM hindsight.memory_links").fetchone() == (0,)


def test_caused_by_makes_causal_links_both_ways(db):
    bank(db, "c", **NO_LINKS)
    rows = db.execute(
        "SELECT unit_id::text FROM hindsight.retain('c', %s::jsonb)",
        (psycopg.types.json.Jsonb([{"units": [
            {"text": "The deploy broke the cache.", "embedding": vec(d0=1)},
            {"text": "Pages were slow.", "embedding": vec(d1=1), "caused_by": [0]}]}]),),
    ).fetchall()  # fmt: skip
    cause, effect = (r[0] for r in rows)
    links = db.execute(
        "SELECT from_unit_id::text, to_unit_id::text, link_type, weight FROM hindsight.memory_links ORDER BY 3"
    ).fetchall()
    assert links == [(effect, cause, "caused_by", 1.0), (cause, effect, "causes", 1.0)]
    with pytest.raises(psycopg.errors.InvalidParameterValue, match=r"item 0, unit 0: caused_by \[0\] must list"):
        db.execute(
            "SELECT * FROM hindsight.retain('c', %s::jsonb)",
            (psycopg.types.json.Jsonb([{"units": [{"text": "x", "embedding": vec(d0=1), "caused_by": [0]}]}]),),
        )


DAY = "2024-05-01T10:00:00Z"


# -- documents ---------------------------------------------------------------------------


def doc_item(document_id, chunks, unit_chunks, mode="replace"):
    """An item with the given chunks and one unit (text = its chunk) per index in unit_chunks."""
    return {"document_id": document_id, "update_mode": mode, "content": "\n\n".join(chunks), "chunks": chunks,
            "units": [{"text": chunks[i], "chunk_index": i, "embedding": vec(**{f"d{i}": 1}),
                       "entities": [chunks[i].split()[0]]} for i in unit_chunks]}  # fmt: skip


def retain_items(db, bank_id, items):
    rows = db.execute(
        "SELECT unit_id::text FROM hindsight.retain(%s, %s::jsonb)", (bank_id, psycopg.types.json.Jsonb(items))
    ).fetchall()
    return [r[0] for r in rows]


def chunk_units(db, bank_id):
    return db.execute(
        "SELECT c.chunk_id, c.chunk_text, u.id::text FROM hindsight.chunks c"
        " LEFT JOIN hindsight.memory_units u USING (bank_id, chunk_id) WHERE c.bank_id = %s ORDER BY c.chunk_index",
        (bank_id,),
    ).fetchall()


def test_replace_keeps_the_memories_of_unchanged_chunks(db):
    bank(db, "r", **NO_LINKS)
    a, b = retain_items(db, "r", [doc_item("doc", ["Alpha stays.", "Beta goes."], [0, 1])])
    # the new version: a new first chunk, then the unchanged one (without units: keep its memories)
    (c,) = retain_items(db, "r", [doc_item("doc", ["Gamma comes.", "Alpha stays."], [0])])
    assert chunk_units(db, "r") == [("doc#0", "Gamma comes.", c), ("doc#1", "Alpha stays.", a)]
    assert db.execute("SELECT original_text FROM hindsight.documents").fetchone() == ("Gamma comes.\n\nAlpha stays.",)
    # Beta's unit and its now unmentioned entity are gone
    names = db.execute("SELECT canonical_name FROM hindsight.entities ORDER BY 1").fetchall()
    assert [n for (n,) in names] == ["Alpha", "Gamma"] and b not in {r[2] for r in chunk_units(db, "r")}


def test_append_adds_chunks_after_the_last_and_skips_known_ones(db):
    bank(db, "r", **NO_LINKS)
    (a,) = retain_items(db, "r", [doc_item("doc", ["Alpha stays."], [0])])
    (c,) = retain_items(db, "r", [doc_item("doc", ["Alpha stays.", "Gamma comes."], [1], mode="append")])
    assert chunk_units(db, "r") == [("doc#0", "Alpha stays.", a), ("doc#1", "Gamma comes.", c)]
    assert db.execute("SELECT original_text FROM hindsight.documents").fetchone() == (
        "Alpha stays.\n\nAlpha stays.\n\nGamma comes.",
    )


class CountingExtractor(OfflineExtractor):
    """The real offline extractor, counting the chunks it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []

    def extract(self, chunks, **kwargs):  # type: ignore[no-untyped-def]
        self.chunks.extend(chunks)
        return super().extract(chunks, **kwargs)


def test_the_driver_does_not_extract_unchanged_chunks_again(client, db):
    client.create_bank("r")
    client.extractor = counting = CountingExtractor()
    first = "Ada wrote the parser. " * 100  # 2,200 characters: one chunk
    second = "Bo tested the parser thoroughly. " * 60  # the two paragraphs make two chunks
    client.retain("r", first.strip() + "\n\n" + second.strip(), document_id="notes")
    kept = {r[2] for r in chunk_units(db, "r")}
    assert len(counting.chunks) == 2
    counting.chunks.clear()
    third = "Cy deployed the parser today. " * 40  # the paragraphs stay two chunks
    client.retain("r", first.strip() + "\n\n" + third.strip(), document_id="notes")
    assert counting.chunks == [third.strip()]
    after = chunk_units(db, "r")
    assert after[0][2] in kept and after[1][1].startswith("Cy deployed")


def test_delete_document_removes_memories_links_and_orphan_entities(client, db):
    client.create_bank("x")
    client.retain("x", "Ada met Bo in Paris.", document_id="one", timestamp="2024-01-01T10:00:00Z")
    client.retain("x", "Ada flew to Rome.", document_id="two", timestamp="2024-01-01T11:00:00Z")
    assert table_counts(db, "x")[5] > 0
    assert client.delete_document("x", "one") is True
    assert client.delete_document("x", "one") is False
    assert table_counts(db, "x") == (1, 1, 1, 2, 2, 0, 2)  # Ada and Rome remain, co-occurring once
    assert [(e.canonical_name, e.mention_count, e.co_occurring) for e in client.list_entities("x")] == [
        ("Ada", 1, {"Rome": 1}), ("Rome", 1, {"Ada": 1})]  # fmt: skip


# -- one transaction per call --------------------------------------------------------------


class FailingExtractor(OfflineExtractor):
    """The offline extractor, failing on content that contains a marker."""

    def extract(self, chunks, **kwargs):  # type: ignore[no-untyped-def]
        if any("FAIL" in c for c in chunks):
            raise ExtractionError("extraction failed on purpose")
        return super().extract(chunks, **kwargs)


def test_a_failed_item_leaves_the_bank_exactly_as_it_was(client, db):
    client.create_bank("f")
    client.retain("f", "Ada met Bo in Paris.", document_id="kept")
    before = table_counts(db, "f")
    snapshot = db.execute("SELECT id, text FROM hindsight.memory_units ORDER BY id").fetchall()
    client.extractor = FailingExtractor()
    items = [{"content": f"Item {i} was written by Cy.", "document_id": f"i{i}"} for i in range(5)]
    items[2]["content"] = "Item 2 will FAIL here."
    items[0]["document_id"] = "kept"  # would replace the existing document
    with pytest.raises(ExtractionError, match="on purpose"):
        client.retain_batch("f", items)
    assert table_counts(db, "f") == before
    assert db.execute("SELECT id, text FROM hindsight.memory_units ORDER BY id").fetchall() == snapshot


def test_a_failure_inside_sql_retain_writes_nothing(db):
    bank(db, "f")
    put(db, "f", [("Existing.", vec(d0=1))])
    before = table_counts(db, "f")
    items = [{"units": [{"text": f"Item {i}.", "embedding": vec(d0=1, d1=i)}], "entities": ["X"]} for i in range(5)]
    items[2]["units"][0] |= {"occurred_start": "2024-02-01", "occurred_end": "2024-01-01"}  # fails the CHECK
    with pytest.raises(psycopg.errors.CheckViolation):
        retain_items(db, "f", items)
    assert table_counts(db, "f") == before


def test_semantic_links_through_the_hnsw_index_leave_the_planner_settings_alone(db):
    bank(db, "h", hnsw_min_units=3, temporal_link_neighbours=0)
    put(db, "h", [("A.", vec(d0=1)), ("B.", vec(d0=1, d1=0.75)), ("C.", vec(d2=1))])
    assert db.execute("SELECT hindsight._semantic_path('h')").fetchone()[0] == "hnsw"  # 3 units, the whole table
    db.execute("BEGIN")
    (d,) = put(db, "h", [("D.", vec(d0=1, d1=0.5))])  # searched through the index
    db.execute("SELECT count(*) FROM hindsight.recall('h', 'a', %s::vector)", (str(vec(d0=1)),))
    settings = db.execute(
        "SELECT current_setting('enable_seqscan'), current_setting('enable_sort'), current_setting('hnsw.ef_search'),"
        " current_setting('hnsw.iterative_scan')"
    ).fetchone()
    db.execute("COMMIT")
    assert settings == ("on", "on", "40", "off")  # retain and recall changed them for their own calls only
    linked = db.execute(
        "SELECT u.text, round(l.weight::numeric, 3) FROM hindsight.memory_links l JOIN hindsight.memory_units u"
        " ON u.id = l.to_unit_id WHERE l.from_unit_id = %s ORDER BY 1",
        (d,),
    ).fetchall()
    assert [(t, float(w)) for t, w in linked] == [("A.", 0.894), ("B.", 0.984)]
