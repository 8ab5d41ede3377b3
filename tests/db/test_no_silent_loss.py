"""No silent loss: facts that differ in a number, a date, a negation or an entity are never merged,
names keep their numbers through the default pipeline, and every merge retain makes is reported."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import anyio
import numpy as np
import psycopg
import pytest
from _helpers import bank, put, vec
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from typer.testing import CliRunner

from hindsight_pg import MergedFact
from hindsight_pg.cli import app

DAY = "2024-05-01T09:00:00Z"
CLI = str(Path(sys.executable).parent / "hindsight-pg")


def names(db, bank_id):
    rows = db.execute("SELECT canonical_name FROM hindsight.entities WHERE bank_id = %s ORDER BY 1", (bank_id,))
    return [r[0] for r in rows.fetchall()]


def texts(db, bank_id):
    rows = db.execute("SELECT text FROM hindsight.memory_units WHERE bank_id = %s ORDER BY text", (bank_id,))
    return [r[0] for r in rows.fetchall()]


def cosine(embedder, a, b):
    va, vb = embedder.embed([a, b], kind="passage")
    return float(np.dot(va, vb))


@pytest.mark.slow
def test_the_300_tulip_batch_keeps_300_units(client, db):
    client.create_bank("garden")
    start = datetime(2024, 4, 1, 8, tzinfo=UTC)
    items = [{"content": f"Item {i}: Mara planted {i} tulips in the Oslo garden on a rainy day.",
              "timestamp": start + timedelta(hours=i)} for i in range(300)]  # fmt: skip
    result = client.retain_batch("garden", items)
    # before the guard: 149 units, the facts of the same day within cosine 0.95 stored as one
    assert len(result.unit_ids) == 300 and result.merged == []
    stored = texts(db, "garden")
    assert len(stored) == 300
    assert "Item 2: Mara planted 2 tulips in the Oslo garden on a rainy day." in stored
    assert "Item 3: Mara planted 3 tulips in the Oslo garden on a rainy day." in stored


APART = [
    ("The rent is $1,200 a month.", "The rent is $1,300 a month."),  # an amount
    ("Ana paid 40 euros for the concert tickets.", "Ana paid 40 dollars for the concert tickets."),  # a currency
    ("Ana is staying in Room 101 at the Hotel Astoria.", "Ana is staying in Room 102 at the Hotel Astoria."),
    ("We deployed version 2.3.1 of the billing service.", "We deployed version 2.3.2 of the billing service."),
    ("Ticket 4512 is assigned to Ben.", "Ticket 4513 is assigned to Ben."),  # an id
    ("Mara planted two tulips in the Oslo garden.", "Mara planted three tulips in the Oslo garden."),  # words
    ("Ana likes jazz.", "Ana does not like jazz."),  # a negation
    ("Ana met Bo at the café.", "Ana met Cy at the café."),  # an entity
]


def test_facts_that_differ_in_what_tells_facts_apart_stay_apart(client, db, embedder):
    # at dedupe_similarity 0.75 every pair is close enough to be merged by its embedding alone
    client.create_bank("apart", config={"dedupe_similarity": 0.75})
    assert min(cosine(embedder, a, b) for a, b in APART) > 0.75
    items = [{"content": text, "timestamp": DAY} for pair in APART for text in pair]
    result = client.retain_batch("apart", items)
    assert len(result.unit_ids) == 16 and result.merged == []
    assert texts(db, "apart") == sorted(text for pair in APART for text in pair)


def test_true_repeats_still_merge_and_are_reported(client, db, embedder):
    client.create_bank("cats")
    result = client.retain_batch("cats", [
        {"content": "Ana adopted a grey cat named Pixel.", "timestamp": DAY, "entities": ["Ana"]},
        {"content": "ana adopted a grey cat named pixel!", "timestamp": DAY, "entities": ["Pixel"]},
        {"content": "Ana adopted a gray cat named Pixel.", "timestamp": DAY},
        {"content": "Ben bought a red bicycle for commuting.", "timestamp": DAY},
    ])  # fmt: skip
    assert texts(db, "cats") == ["Ana adopted a grey cat named Pixel.", "Ben bought a red bicycle for commuting."]
    (cat,) = db.execute("SELECT id FROM hindsight.memory_units WHERE text LIKE 'Ana%'").fetchone()
    grey, gray = "Ana adopted a grey cat named Pixel.", "Ana adopted a gray cat named Pixel."
    similarity = round(cosine(embedder, grey, gray), 4)
    assert similarity >= 0.95
    assert result.merged == [
        MergedFact(1, "ana adopted a grey cat named pixel!", cat, "same text", None),
        MergedFact(2, gray, cat, "similar embedding", pytest.approx(similarity, abs=2e-4)),
    ]
    # 4 facts given: 2 units + 2 merged, none unaccounted for
    assert len(result.unit_ids) + len(result.merged) == 4


def test_merges_across_groups_name_the_unit_stored_in_an_earlier_group(client, db):
    client.create_bank("groups")
    items = [{"content": f"Note {i} is about the garden.", "timestamp": DAY} for i in range(64)]
    items.append({"content": "note 7 is about the garden", "timestamp": DAY})  # item 64: the second group
    result = client.retain_batch("groups", items)
    (seven,) = db.execute("SELECT id FROM hindsight.memory_units WHERE text = 'Note 7 is about the garden.'").fetchone()
    assert len(result.unit_ids) == 64
    assert result.merged == [MergedFact(64, "note 7 is about the garden", seven, "same text", None)]


def test_retain_text_and_retain_return_the_merges(db):
    bank(db, "sql")
    with db.cursor(row_factory=psycopg.rows.dict_row) as cur:
        rows = cur.execute(
            "SELECT * FROM hindsight.retain_text('sql', 'Ana adopted a cat. Ana adopted two dogs. ana adopted a cat!')"
        ).fetchall()
    by_text = {r[0]: r[1] for r in db.execute("SELECT text, id FROM hindsight.memory_units WHERE bank_id = 'sql'")}
    assert sorted(by_text) == ["Ana adopted a cat.", "Ana adopted two dogs."]
    merged = {r["unit_id"]: r["merged"] for r in rows}
    assert merged == {
        by_text["Ana adopted a cat."]: [{"item_index": 0, "text": "ana adopted a cat!", "reason": "same text",
                                         "similarity": None}],
        by_text["Ana adopted two dogs."]: [],
    }  # fmt: skip
    # hindsight.retain returns a unit's "merged" as the caller gave it, [] without
    repeat = [{"item_index": 0, "text": "Kim waters the ficus!", "reason": "same text"}]
    items = [{"units": [{"text": "Kim waters the ficus.", "embedding": vec(d0=1), "merged": repeat},
                        {"text": "Lee waters the ficus.", "embedding": vec(d1=1)}]}]  # fmt: skip
    rows = db.execute("SELECT merged FROM hindsight.retain('sql', %s::jsonb)", (json.dumps(items),)).fetchall()
    assert [r[0] for r in rows] == [repeat, []]
    items[0]["units"][1]["merged"] = [{"reason": "same text"}]
    with pytest.raises(psycopg.errors.InvalidParameterValue, match=r'item 0, unit 1: "merged" must be an array'):
        db.execute("SELECT * FROM hindsight.retain('sql', %s::jsonb)", (json.dumps(items),))


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("Room 101 at the Hotel Astoria is booked.", "Room 102 at the Hotel Astoria is booked.",
         ["Hotel Astoria", "Room 101", "Room 102"]),
        ("Flight UA123 to the Hotel Astoria is booked.", "Flight UA124 to the Hotel Astoria is booked.",
         ["Flight UA123", "Flight UA124", "Hotel Astoria"]),
        ("The 2023 Tax Return of the Hotel Astoria is filed.", "The 2024 Tax Return of the Hotel Astoria is filed.",
         ["2023 Tax Return", "2024 Tax Return", "Hotel Astoria"]),
        ("Ana bought an iPhone 15 at the Hotel Astoria.", "Ana bought an iPhone 16 at the Hotel Astoria.",
         ["Ana", "Hotel Astoria", "iPhone", "iPhone 15", "iPhone 16"]),  # both versions of one product
    ],
)  # fmt: skip
def test_names_keep_their_numbers_through_client_retain(client, db, first, second, expected):
    # the second name shares a companion (Hotel Astoria) and the day with the first: similar enough to merge
    # (0.5 * name similarity + 0.3 + 0.2 > 0.6) but for the digit guard, which now sees the digits
    client.create_bank("rooms")
    client.retain("rooms", first, timestamp=DAY)
    client.retain("rooms", second, timestamp=DAY)
    assert names(db, "rooms") == expected


def test_names_keep_their_numbers_through_retain_text(db):
    bank(db, "sql")
    db.execute("SELECT * FROM hindsight.retain_text('sql', 'The meeting moved from Room 101 to Room 102.')")
    db.execute("SELECT * FROM hindsight.retain_text('sql', 'Room 103 at the Hotel Astoria is booked.')")
    db.execute("SELECT * FROM hindsight.retain_text('sql', 'Room 104 at the Hotel Astoria is booked.')")
    assert names(db, "sql") == ["Hotel Astoria", "Room 101", "Room 102", "Room 103", "Room 104"]


def test_the_cli_summary_counts_the_merges(db, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("Ana adopted a cat. Ana adopted two dogs. ana adopted a cat!")
    result = CliRunner().invoke(app, ["retain", "cli", str(notes), "--dsn", db.info.dsn])
    assert result.exit_code == 0, result.output
    assert "retained 1 item(s) as 2 memory unit(s) in bank 'cli'; 1 repeated fact(s) merged into kept units" in (
        " ".join(result.output.split())
    )


@pytest.mark.slow
def test_the_mcp_retain_tool_says_what_it_merged(db):
    params = StdioServerParameters(command=CLI, args=["mcp", "--dsn", db.info.dsn])

    async def session() -> dict:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as mcp:
            await mcp.initialize()
            content = "Ana adopted a cat. ana adopted a cat!"
            answer = await mcp.call_tool("retain", {"bank_id": "agent", "content": content})
            return answer.structured_content

    answer = anyio.run(session)
    (cat,) = db.execute("SELECT id::text FROM hindsight.memory_units WHERE bank_id = 'agent'").fetchone()
    assert answer["units"] == 1
    assert answer["merged"] == [{"text": "ana adopted a cat!", "into": cat, "reason": "same text"}]


def test_observations_that_differ_in_a_name_or_a_number_do_not_merge(db):
    # as in test_observations' merge: two pairs of facts make two observations within 0.97 (cosine 0.989)
    bank(db, "obs")
    a, b = vec(d0=1, d1=0.02), vec(d0=1, d2=0.15)
    put(db, "obs", [
        {"text": "Kim waters the ficus.", "embedding": a, "entities": ["Kim"]},
        {"text": "Kim waters the ficus daily.", "embedding": a, "entities": ["Kim"]},
        {"text": "Lee waters the ficus.", "embedding": b, "entities": ["Lee"]},
        {"text": "Lee waters the ficus daily.", "embedding": b, "entities": ["Lee"]},
    ], timestamp=DAY)  # fmt: skip
    done = db.execute("SELECT action FROM hindsight.consolidate('obs')").fetchall()
    assert sorted(d[0] for d in done) == ["created", "created"]  # Kim's and Lee's: two observations
    bank(db, "tulips")
    put(db, "tulips", [
        {"text": "Mara planted 2 tulips.", "embedding": a, "entities": ["Mara"]},
        {"text": "Mara planted 2 tulips again.", "embedding": a, "entities": ["Mara"]},
        {"text": "Mara planted 3 tulips.", "embedding": b, "entities": ["Tulips"]},
        {"text": "Mara planted 3 tulips again.", "embedding": b, "entities": ["Tulips"]},
    ], timestamp=DAY)  # fmt: skip
    done = db.execute("SELECT action FROM hindsight.consolidate('tulips')").fetchall()
    assert sorted(d[0] for d in done) == ["created", "created"]
    compatible = "SELECT hindsight._facts_compatible(%s, %s, %s, %s)"
    two, three, again = "Mara planted 2 tulips.", "Mara planted 3 tulips.", "mara planted 3 tulips!"
    assert db.execute(compatible, (two, ["Mara"], three, ["Tulips"])).fetchone()[0] is False
    assert db.execute(compatible, (three, ["Mara"], again, ["Tulips"])).fetchone()[0] is True
