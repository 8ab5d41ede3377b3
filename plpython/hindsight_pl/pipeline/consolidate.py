"""Consolidation: the offline pass in SQL (``hindsight.consolidate(..., use_llm => false)``), then, when
the bank has a language model, the model writes each created or updated observation's text
(:func:`hindsight_pl.llm.rewrite_observations`). docs/observations.md."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..llm import LLMClient, rewrite_observations
from .banks import bank_config
from .database import Database, one

OFFLINE = "SELECT observation_id, action, proof_count FROM hindsight.consolidate($1::text, use_llm => false)"
FACTS = "SELECT unit_id::text AS unit_id, text FROM hindsight.observation_facts($1::text, $2::uuid)"
WRITE = "SELECT hindsight.write_observation($1::text, $2::uuid, $3::text, $4::uuid[], $5::text) AS proof"


def consolidate(
    db: Database, bank_id: str, llm_for: Callable[[Mapping[str, Any]], LLMClient | None] | None
) -> list[tuple[str, str, int | None]]:
    """Consolidate the bank's new facts; ``llm_for(config)`` gives the language model to write the
    observations with (None, or ``llm_for`` None: offline only). Returns ``(observation_id, action,
    proof_count)`` per observation touched (action created, updated, merged or removed). Raises
    ``LLMError`` when the model fails; the caller's transaction then keeps nothing."""
    rows = [(str(r["observation_id"]), r["action"], r["proof_count"]) for r in db.rows(OFFLINE, bank_id)]
    llm = llm_for(bank_config(db, bank_id)) if llm_for is not None else None
    if llm is None:
        return rows

    def facts_of(observation_id: str) -> list[tuple[str, str]]:
        return [(f["unit_id"], f["text"]) for f in db.rows(FACTS, bank_id, observation_id)]

    def write(observation_id: str, written: str, contradicting: list[str]) -> int | None:
        found = one(db, WRITE, bank_id, observation_id, written, contradicting, llm.model)
        return found["proof"] if found else None

    return rewrite_observations(llm, rows, facts_of=facts_of, write=write)
