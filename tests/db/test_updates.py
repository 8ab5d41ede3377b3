"""Updates win: retain links a fact that revises an older one (supersedes, weighted by the update judge), recall
ranks the superseded unit right below the one that supersedes it when the link is confident, a question about the
past leaves them be, and a deleted update gives the older unit back its place."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from update_chains import CHAINS, Chain

from hindsight_pg import Client, MemoryItem
from hindsight_pl.updates import Pair, link_confidence


def said(day: str, minute: int = 0) -> datetime:
    return datetime.fromisoformat(day).replace(hour=9, minute=minute, tzinfo=UTC)


def retain_chains(client: Client, bank_id: str, chains: list[Chain], config: dict[str, Any] | None = None) -> None:
    """Every message of the chains into one bank, in the order they were said (one document each)."""
    client.create_bank(bank_id, config=config)
    messages = sorted(
        ((said(day, n), speaker, text) for c, chain in enumerate(chains) for n, (day, speaker, text)
         in enumerate(chain.messages)),
        key=lambda m: m[0],
    )  # fmt: skip
    client.retain_batch(bank_id, [MemoryItem(f"{who}: {text}", timestamp=at) for at, who, text in messages])


def ranks(results: list[Any], phrase: str) -> list[int]:
    return [r.rank for r in results if phrase.lower() in r.text.lower()]


def asked_after(chain: Chain) -> datetime:
    return said(chain.messages[-1][0]) + timedelta(days=3)


def test_the_current_value_ranks_above_every_value_it_replaced(client: Client) -> None:
    retain_chains(client, "chains", CHAINS)
    linked = client.conn.execute(
        "SELECT count(*) FROM hindsight.memory_links WHERE bank_id = 'chains' AND link_type = 'supersedes'"
    ).fetchone()[0]
    wins, misses = 0, []
    for chain in CHAINS:
        results = client.recall(
            "chains", chain.question, query_timestamp=asked_after(chain), max_tokens=100_000
        ).results
        current = ranks(results, chain.current)
        replaced = [r for phrase in chain.replaced for r in ranks(results, phrase)]
        if current and all(min(current) < r for r in replaced):
            wins += 1
        else:
            misses.append((chain.question, current[:1], replaced[:2]))
    # at least 40 chains
    assert len(CHAINS) >= 40
    assert wins / len(CHAINS) >= 0.9, f"{wins}/{len(CHAINS)}, {linked} supersedes links; misses: {misses}"


def test_retain_links_an_update_and_records_when_the_older_unit_was_superseded(client: Client) -> None:
    retain_chains(client, "u", [CHAINS[0], CHAINS[1]])
    rows = client.conn.execute(
        """SELECT n.text, o.text, o.superseded_at, n.mentioned_at
           FROM hindsight.memory_links l
           JOIN hindsight.memory_units n ON n.bank_id = l.bank_id AND n.id = l.from_unit_id
           JOIN hindsight.memory_units o ON o.bank_id = l.bank_id AND o.id = l.to_unit_id
           WHERE l.bank_id = 'u' AND l.link_type = 'supersedes' ORDER BY n.mentioned_at"""
    ).fetchall()
    pairs = {(new.split(":")[0], "after all" in new or "Valencia" in new, "planned" in old or "booked" in old)
             for new, old, _, _ in rows}  # fmt: skip
    assert pairs == {("Omar", True, True), ("Lena", True, True)}
    for _, _, superseded_at, mentioned_at in rows:
        assert superseded_at == mentioned_at
    # the units nobody revised carry no date
    left = client.conn.execute(
        "SELECT count(*) FROM hindsight.memory_units WHERE bank_id = 'u' AND superseded_at IS NULL"
    ).fetchone()[0]
    assert left == 2


def test_the_superseded_unit_ranks_right_below_its_update_and_the_trace_says_why(client: Client) -> None:
    retain_chains(client, "p", [CHAINS[0]])
    asked = asked_after(CHAINS[0])
    response = client.recall("p", "Which payment provider are we using?", query_timestamp=asked, trace=True)
    texts = [r.text for r in response.results]
    assert "after all" in texts[0] and "planned" in texts[1]
    newer, older = response.results[0].id, response.results[1].id
    scoring = {str(r["id"]): r for r in response.trace["scoring"]["results"]}
    assert scoring[str(older)]["superseded_by"] == [str(newer)]
    assert scoring[str(newer)]["superseded_by"] is None
    assert response.results[0].scores.final >= response.results[1].scores.final


def test_a_question_about_the_past_still_finds_the_old_plan_first(client: Client) -> None:
    retain_chains(client, "h", [CHAINS[1]])
    asked = asked_after(CHAINS[1])
    before = client.recall("h", "Where was the team offsite booked before?", query_timestamp=asked).results
    now = client.recall("h", "Where is the team offsite booked?", query_timestamp=asked).results
    assert "Valencia" in now[0].text
    # without the reordering the older unit keeps its own place: it is first when it scores higher
    first_before = [r.text for r in before]
    older = next(i for i, t in enumerate(first_before) if "booked in Porto" in t)
    newer = next(i for i, t in enumerate(first_before) if "Valencia" in t)
    scores = {r.text: r.scores.final for r in before}
    assert (older < newer) == (scores[first_before[older]] > scores[first_before[newer]])


def test_deleting_the_update_gives_the_older_unit_back(client: Client) -> None:
    retain_chains(client, "d", [CHAINS[0]])
    newer = client.conn.execute(
        "SELECT document_id FROM hindsight.memory_units WHERE bank_id = 'd' AND text LIKE '%after all%'"
    ).fetchone()[0]
    client.conn.execute("SELECT hindsight.delete_document('d', %s)", (newer,))
    assert (
        client.conn.execute(
            "SELECT count(*) FROM hindsight.memory_units WHERE bank_id = 'd' AND superseded_at IS NOT NULL"
        ).fetchone()[0]
        == 0
    )
    assert (
        client.conn.execute(
            "SELECT count(*) FROM hindsight.memory_links WHERE bank_id = 'd' AND link_type = 'supersedes'"
        ).fetchone()[0]
        == 0
    )


def test_update_links_can_be_turned_off(client: Client) -> None:
    client.create_bank("off", config={"update_candidates": 0})
    for day, who, text in CHAINS[0].messages:
        client.retain("off", f"{who}: {text}", timestamp=said(day))
    assert (
        client.conn.execute(
            "SELECT count(*) FROM hindsight.memory_links WHERE bank_id = 'off' AND link_type = 'supersedes'"
        ).fetchone()[0]
        == 0
    )
    with pytest.raises(psycopg.Error, match="update_min_similarity"):
        client.conn.execute("SELECT hindsight.create_bank('bad', config => '{\"update_min_similarity\": 1.5}')")


def test_observations_follow_the_latest_value(client: Client) -> None:
    # the old value, said on two days, becomes an observation (consolidation); the update supersedes both its facts, so
    # the observation ranks below the update
    old = Chain([("2025-02-10", "Ines", "Carlos leads the data platform team."),
                 ("2025-02-11", "Ines", "Carlos leads the data platform team.")], "", "", [])  # fmt: skip
    new = Chain([("2025-07-01", "Ines", "Carlos is no longer leading the data platform team, Aisha took over.")],
                "Who leads the data platform team?", "Aisha took over", ["Carlos leads"])  # fmt: skip
    retain_chains(client, "o", [old, new])
    client.consolidate("o", use_llm=False)
    (observation,) = client.conn.execute(
        "SELECT text FROM hindsight.memory_units WHERE bank_id = 'o' AND fact_type = 'observation'"
    ).fetchone()
    assert "Carlos leads" in observation
    results = client.recall("o", new.question, query_timestamp=asked_after(new)).results
    ranks = {r.fact_type if "Carlos leads" in r.text else "update": r.rank for r in results if r.rank}
    assert ranks["update"] < ranks["observation"], [(r.rank, r.fact_type, r.text) for r in results]


def supersedes(client: Client, bank_id: str) -> set[tuple[str, str]]:
    return set(client.conn.execute(
        """SELECT n.text, o.text FROM hindsight.memory_links l
           JOIN hindsight.memory_units n ON n.bank_id = l.bank_id AND n.id = l.from_unit_id
           JOIN hindsight.memory_units o ON o.bank_id = l.bank_id AND o.id = l.to_unit_id
           WHERE l.bank_id = %s AND l.link_type = 'supersedes'""", (bank_id,)).fetchall())  # fmt: skip


def test_link_updates_finds_what_retain_would_have_found(client: Client) -> None:
    # a bank retained without update links (as before 0.3.0), then hindsight.link_updates
    retain_chains(client, "r", CHAINS[:8])
    retain_chains(client, "l", CHAINS[:8], config={"update_candidates": 0})
    assert supersedes(client, "l") == set()
    client.conn.execute("UPDATE hindsight.banks SET config = config - 'update_candidates' WHERE bank_id = 'l'")
    (added,) = client.conn.execute("SELECT hindsight.link_updates('l')").fetchone()
    assert added == len(supersedes(client, "r")) >= 7
    assert supersedes(client, "l") == supersedes(client, "r")
    assert client.conn.execute("SELECT hindsight.link_updates('l')").fetchone() == (0,)  # found once
    with pytest.raises(psycopg.Error, match=r"HS404|unknown bank"):
        client.conn.execute("SELECT hindsight.link_updates('nope')")


def test_a_link_carries_the_judges_confidence_and_only_a_confident_one_moves(client: Client) -> None:
    retain_chains(client, "w", [CHAINS[0]])
    ((weight, newer, older),) = client.conn.execute(
        """SELECT l.weight, n.text, o.text FROM hindsight.memory_links l
           JOIN hindsight.memory_units n ON n.bank_id = l.bank_id AND n.id = l.from_unit_id
           JOIN hindsight.memory_units o ON o.bank_id = l.bank_id AND o.id = l.to_unit_id
           WHERE l.bank_id = 'w' AND l.link_type = 'supersedes'"""
    ).fetchall()
    # the weight is what the judge gives the pair as retain stored it (the cosine of the stored vectors)
    (cosine,) = client.conn.execute(
        "SELECT 1 - (n.embedding <=> o.embedding) FROM hindsight.memory_units n, hindsight.memory_units o"
        " WHERE n.bank_id = 'w' AND o.bank_id = 'w' AND n.text = %s AND o.text = %s", (newer, older)
    ).fetchone()  # fmt: skip
    days = (said(CHAINS[0].messages[1][0]) - said(CHAINS[0].messages[0][0])).total_seconds() / 86400
    (expected,) = link_confidence([Pair(newer, older, cosine, days, shared_entities=["Lena"])])
    assert weight == pytest.approx(expected, abs=1e-4) and 0.5 <= weight < 1  # vectors stored as float4
    question, asked = CHAINS[0].question, asked_after(CHAINS[0])

    def texts(config: dict[str, Any]) -> list[str]:
        client.conn.execute("UPDATE hindsight.banks SET config = config || %s WHERE bank_id = 'w'",
                            (json.dumps(config),))  # fmt: skip
        try:
            return [r.text for r in client.recall("w", question, query_timestamp=asked).results]
        finally:
            client.conn.execute("UPDATE hindsight.banks SET config = config - %s::text[] WHERE bank_id = 'w'",
                                (list(config),))  # fmt: skip

    moved, off = texts({}), texts({"updates_win": "off"})
    assert "after all" in moved[0] and "after all" not in off[0]  # the link moved the older unit below the newer
    # a link below update_move_confidence moves nothing
    assert texts({"update_move_confidence": round(weight + 0.01, 3)}) == off
    with pytest.raises(psycopg.Error, match="updates_win must be confident or off"):
        client.conn.execute("SELECT hindsight.create_bank('bad', config => '{\"updates_win\": \"always\"}')")
    with pytest.raises(psycopg.Error, match="update_move_confidence must be a probability in"):
        client.conn.execute("SELECT hindsight.create_bank('bad', config => '{\"update_move_confidence\": 1.5}')")


def test_a_link_never_moves_a_unit_of_the_first_three_below_one_past_the_thirtieth(client: Client) -> None:
    # a unit of the first 3 and one past the 30th, linked by hand as if the judge were sure: the guard keeps the order
    messages = [("2025-03-01", "Rosa", f"Note {i}: the parking garage code is {1000 + i}.") for i in range(40)]
    retain_chains(client, "g", [Chain(messages, "", "", [])])
    client.retain("g", "Rosa: The parking garage code changed to 7391 today.", timestamp="2025-03-05T12:00:00Z")
    # the judge's own links between the notes (each note revises the code) would chain with the hand-made ones
    client.conn.execute("DELETE FROM hindsight.memory_links WHERE bank_id = 'g' AND link_type = 'supersedes'")
    ranked = client.recall("g", "What is the parking garage code now?", query_timestamp="2025-03-06",
                           max_tokens=100_000, max_results=None).results  # fmt: skip
    top, low = ranked[0], ranked[35]
    client.conn.execute(
        "INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)"
        " VALUES ('g', %s, %s, 'supersedes', 0.99) ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type)"
        " DO UPDATE SET weight = 0.99", (low.id, top.id))  # fmt: skip
    again = client.recall("g", "What is the parking garage code now?", query_timestamp="2025-03-06",
                          max_tokens=100_000, max_results=None).results  # fmt: skip
    assert again[0].id == top.id and again[35].id == low.id
    # the same link from a unit ranked within 30 moves the superseded one below it
    near = ranked[5]
    client.conn.execute(
        "INSERT INTO hindsight.memory_links (bank_id, from_unit_id, to_unit_id, link_type, weight)"
        " VALUES ('g', %s, %s, 'supersedes', 0.99) ON CONFLICT (bank_id, from_unit_id, to_unit_id, link_type)"
        " DO UPDATE SET weight = 0.99", (near.id, top.id))  # fmt: skip
    moved = [r.id for r in client.recall("g", "What is the parking garage code now?", query_timestamp="2025-03-06",
                                         max_tokens=100_000).results]  # fmt: skip
    assert moved.index(near.id) == moved.index(top.id) - 1
