"""Observation writing by a language model: the text of an observation from its facts, and the facts
that contradict it (consolidation, docs/observations.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import LLMError
from ..retain.sentences import is_fact
from .client import OFF_SCHEMA, LLMClient

OBSERVATION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["observation", "contradicting"],
    "properties": {
        "observation": {"type": "string"},
        "contradicting": {"type": "array", "items": {"type": "integer"}},
    },
}


OBSERVATION_PROMPT = """\
You consolidate an AI assistant's long-term memory. You get numbered facts that were grouped \
because they say much the same thing about the same people or things.

Rules:
- "observation": one sentence that states what the facts show together (a habit, a preference, a \
state that holds), in the language of the facts. Use only what the facts say: add no new claims, \
keep names and numbers exactly.
- "contradicting": the numbers (as given, starting at 0) of the facts that contradict what the \
others show; leave them out of the sentence. [] when none does.
Answer with JSON only."""


def rewrite_observations(
    llm: LLMClient,
    rows: Sequence[tuple[Any, str, int | None]],
    *,
    facts_of: Callable[[Any], Sequence[tuple[Any, str]]],
    write: Callable[[Any, str, list[Any]], int | None],
) -> list[tuple[Any, str, int | None]]:
    """LLM consolidation after the offline pass: ``rows`` are its ``(observation_id, action, proof_count)``;
    for each created or updated observation the model writes the text from ``facts_of(observation_id)``
    (``(unit_id, text)`` oldest first) and ``write(observation_id, text, contradicting_unit_ids)`` stores it
    and returns the new proof count (None when the observation is gone). Returns the rows with the new
    proof counts, action ``removed`` for the gone. Raises :class:`LLMError` on a failed call."""
    done = []
    for observation_id, action, proof in rows:
        if action != "merged":
            facts = facts_of(observation_id)
            written, bad = write_observation(llm, [t for _, t in facts])
            proof = write(observation_id, written, [facts[i][0] for i in bad])
            action = action if proof is not None else "removed"
        done.append((observation_id, action, proof))
    return done


def write_observation(llm: LLMClient, facts: Sequence[str]) -> tuple[str, list[int]]:
    """An observation's text written by the model from its supporting facts (oldest first), and the
    indexes of the facts it found contradicting. Raises :class:`LLMError` on a failed call."""
    user = "\n".join(f"{i}. {fact}" for i, fact in enumerate(facts))
    document = llm.json(OBSERVATION_PROMPT, user, OBSERVATION_SCHEMA, name="observation",
                        purpose="observation writing", max_tokens=512)  # fmt: skip
    text = str((document or {}).get("observation") or "").strip()
    if not is_fact(text):
        raise LLMError(f"{llm.model} wrote no observation for {len(facts)} facts", hint=OFF_SCHEMA)
    bad = (document or {}).get("contradicting") or []
    return text, sorted({int(i) for i in bad if isinstance(i, int) and 0 <= i < len(facts)})
