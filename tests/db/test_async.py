"""The driver under asyncio: AsyncClient over psycopg's AsyncConnection, alone and on an AsyncConnectionPool, with
the Client's methods, results and errors, and an event loop that stays free while models run."""

from __future__ import annotations

import asyncio
import inspect
import time
from typing import Any

import psycopg
import pytest
from psycopg_pool import AsyncConnectionPool

import hindsight_pg
from hindsight_pg import (
    AsyncClient,
    BankNotFoundError,
    Client,
    InvalidInputError,
    LocalEmbedder,
    MemoryNotFoundError,
    configure_async,
    connect_async,
)
from hindsight_pg._async import METHODS

TEAM = [
    "Maya: The team offsite is in Valencia this year, the hotel is booked for everyone.",
    "Tom: Most Saturdays I go bouldering at the climbing gym on Elm Street.",
    "Priya: The quarterly report is due on Friday, I still need the sales figures.",
    "Daniel: My dog Biscuit loved the long coastal hike.",
]
QUESTIONS = ["Where is the team offsite?", "What does Tom do on Saturdays?", "When is the report due?",
             "What is the name of Daniel's dog?"]  # fmt: skip


def test_every_public_method_of_client_is_a_coroutine_of_async_client():
    public = {name for name, _ in inspect.getmembers(Client, inspect.isfunction) if not name.startswith("_")}
    assert public - {"close"} == set(METHODS)
    assert inspect.signature(AsyncClient(None).recall) == inspect.signature(Client.recall)  # type: ignore[arg-type]


def test_connect_async_retains_recalls_updates_and_raises_as_the_client_does(db, embedder: LocalEmbedder) -> None:
    async def main() -> dict[str, Any]:
        async with await connect_async(db.info.dsn, embedder=embedder) as client:
            await client.create_bank("team")
            stored = await client.retain_batch("team", [{"content": t, "timestamp": "2025-03-03T09:00:00Z"}
                                                        for t in TEAM])  # fmt: skip
            found = await client.recall("team", QUESTIONS[0])
            memory = await client.update_memory("team", found.results[0].id, text="Maya: The offsite moved to Porto.")
            moved = await client.recall("team", "Where is the team offsite?")
            errors = []
            for call in (client.recall("nowhere", "x"), client.recall("team", None),
                         client.update_memory("team", "00000000-0000-0000-0000-000000000000", text="x y")):  # fmt: skip
                try:
                    await call
                except Exception as exc:
                    errors.append(type(exc))
            # a failed retain_batch leaves the bank as it was: the Client's transaction, on the AsyncConnection
            try:
                await client.retain_batch("team", ["Ana flew to Rome.", "   "])
            except InvalidInputError:
                errors.append(InvalidInputError)
            banks = await client.list_banks()
            return {"stored": stored, "found": found, "memory": memory, "moved": moved, "errors": errors,
                    "banks": banks}  # fmt: skip

    out = asyncio.run(main())
    assert len(out["stored"].unit_ids) == len(TEAM)
    assert "Valencia" in out["found"].results[0].text and out["found"].results[0].relevance > 0.2
    assert out["memory"].text == "Maya: The offsite moved to Porto." and "Porto" in out["memory"].entities
    assert out["moved"].results[0].text == "Maya: The offsite moved to Porto."
    assert out["errors"] == [BankNotFoundError, InvalidInputError, MemoryNotFoundError, InvalidInputError]
    assert [(b.bank_id, b.unit_count) for b in out["banks"]] == [("team", len(TEAM))]


def test_a_pool_serves_concurrent_recalls_as_the_client_answers_them(db, embedder: LocalEmbedder) -> None:
    sync = Client(db, embedder=embedder)
    sync.create_bank("team")
    sync.retain_batch("team", [{"content": t, "timestamp": "2025-03-03T09:00:00Z"} for t in TEAM])
    expected = {q: [r.id for r in sync.recall("team", q).results] for q in QUESTIONS}

    async def main() -> tuple[dict[str, list[Any]], int]:
        ticks = 0

        async def ticker() -> None:  # the loop stays free while the models run in worker threads
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        async with AsyncConnectionPool(db.info.dsn, min_size=2, max_size=4, configure=configure_async,
                                       kwargs={"autocommit": True}, open=False) as pool:  # fmt: skip
            beat = asyncio.create_task(ticker())

            async def ask(question: str) -> list[Any]:
                async with pool.connection() as conn:
                    return [r.id for r in (await AsyncClient(conn, embedder=embedder).recall("team", question)).results]

            answers = await asyncio.gather(*(ask(q) for q in QUESTIONS * 2))
            beat.cancel()
        return dict(zip(QUESTIONS * 2, answers, strict=True)), ticks

    started = time.monotonic()
    answers, ticks = asyncio.run(main())
    assert answers == expected
    assert ticks >= (time.monotonic() - started) / 0.01 * 0.3  # a blocked loop would not have ticked


def test_a_database_without_the_extension_is_refused(db) -> None:
    async def main() -> None:
        await connect_async(psycopg.conninfo.make_conninfo(db.info.dsn, dbname="postgres"))

    with pytest.raises(hindsight_pg.ExtensionError, match="does not have the hindsight_pg extension"):
        asyncio.run(main())
