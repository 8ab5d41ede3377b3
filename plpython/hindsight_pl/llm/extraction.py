"""Fact extraction by a language model: one chunk at a time with the date it was said, answered with
:data:`FACTS_SCHEMA`; a response cut off by the token limit is retried on the two halves of the chunk."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from .. import limits
from ..errors import LLMError
from ..retain import chunking
from ..retain.extract import Fact
from ..retain.sentences import is_fact
from .client import OFF_SCHEMA, LLMClient

FACT_FIELDS = ["what", "when", "where", "who", "why", "fact_kind", "fact_type", "occurred_start", "occurred_end",
               "entities", "causal_relations"]  # fmt: skip


FACTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["facts"],
    "properties": {
        "facts": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": FACT_FIELDS,
                "properties": {
                    "what": {"type": "string"},
                    "when": {"type": ["string", "null"]},
                    "where": {"type": ["string", "null"]},
                    "who": {"type": ["string", "null"]},
                    "why": {"type": ["string", "null"]},
                    "fact_kind": {"type": "string", "enum": ["event", "conversation"]},
                    "fact_type": {"type": "string", "enum": ["world", "assistant"]},
                    "occurred_start": {"type": ["string", "null"]},
                    "occurred_end": {"type": ["string", "null"]},
                    "entities": {"type": "array", "items": {"type": "string"}},
                    "causal_relations": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["target_index", "type"],
                            "properties": {
                                "target_index": {"type": "integer"},
                                "type": {"type": "string", "enum": ["caused_by"]},
                            },
                        },
                    },
                },
            },
        }
    },
}


SYSTEM_PROMPT = """\
You turn a piece of conversation or text into the facts worth remembering about it, for an AI \
assistant's long-term memory.

Rules:
- One fact per thing that happened, was said, decided, felt or planned. Each fact stands on its own: \
name people instead of "he" or "she", and keep numbers, names and places exactly.
- Skip greetings, thanks, filler and anything with no content.
- Write every fact in the language of the input.
- "what": the fact in one sentence. "when": the time it is about, in words, or null. "where": the \
place, or null. "who": the people involved, comma-separated, or null. "why": the reason or purpose \
if one is stated, or null.
- "fact_kind": "event" for something that happened or will happen at a time; "conversation" for \
what was said, thought or felt without a time of its own.
- "fact_type": "assistant" when the assistant itself did or said it, else "world".
- "occurred_start" / "occurred_end": for an event, the ISO 8601 dates (YYYY-MM-DD) of its first and \
last day. Resolve relative times ("yesterday", "last week", "next month") against the date the \
text was said. null for a conversation fact or when no time is given.
- "entities": the proper names in the fact (people, places, organisations, products, titles).
- "causal_relations": for a fact caused by an earlier fact of your list, \
{"target_index": that fact's 0-based index, "type": "caused_by"}; otherwise [].
Answer with JSON only."""


def fact_text(fact: dict[str, Any]) -> str:
    """The stored text of an extracted fact: what, then " | When: ...", " | Involving: ...", " | why"."""
    parts = [str(fact.get("what") or "").strip()]
    if fact.get("when"):
        parts.append(f"When: {str(fact['when']).strip()}")
    if fact.get("who"):
        parts.append(f"Involving: {str(fact['who']).strip()}")
    if fact.get("why"):
        parts.append(str(fact["why"]).strip())
    return " | ".join(p for p in parts if p)


class LLMExtractor:
    """Extraction by a chat model behind an OpenAI-compatible API, through ``llm`` (an
    :class:`LLMClient`, e.g. ``LLMClient.from_config(bank_config)``). Raises
    :class:`LLMError` when the endpoint fails or answers with anything but the schema.
    """

    def __init__(self, llm: LLMClient, *, max_tokens: int = 4096, max_splits: int = 3) -> None:
        self.llm = llm
        self.max_tokens = max_tokens
        self.max_splits = max_splits

    def extract(
        self,
        chunks: Sequence[str],
        *,
        timestamp: datetime,
        entities: Sequence[str] = (),
        speaker: str | None = None,
    ) -> list[Fact]:
        facts: list[Fact] = []
        for index, chunk in enumerate(chunks):
            limits.checkpoint()  # a cancel takes effect between chunks (docs/reliability.md)
            raws = self._chunk_facts(chunk, timestamp, speaker, self.max_splits)
            made = [self._fact(raw, index, entities) for raw in raws]
            position: dict[int, int] = {}  # the model's index -> index among the item's facts
            for raw_index, fact in enumerate(made):
                if fact is not None:
                    position[raw_index] = len(facts) + len(position)
            for raw_index, fact in enumerate(made):
                if fact is not None:
                    fact.caused_by = [position[t] for t in fact.caused_by if t in position and t != raw_index]
                    facts.append(fact)
        return facts

    def _chunk_facts(self, chunk: str, timestamp: datetime, speaker: str | None, splits: int) -> list[dict[str, Any]]:
        said = timestamp.astimezone(UTC).strftime("%Y-%m-%d (%A)")
        user = f"Said on: {said}\n" + (f"Narrator: {speaker}\n" if speaker else "") + f"\n{chunk}"
        document = self.llm.json(SYSTEM_PROMPT, user, FACTS_SCHEMA, name="facts", purpose="fact extraction",
                                 max_tokens=self.max_tokens)  # fmt: skip
        if document is None:  # cut off by the token limit: the two halves, each on its own
            halves = _halves(chunk)
            if splits <= 0 or len(halves) < 2:
                raise LLMError(
                    f"the extraction of a {len(chunk)}-character chunk overflowed {self.max_tokens} tokens",
                    hint="Retain shorter content, or raise the model's output limit.",
                )
            first = self._chunk_facts(halves[0], timestamp, speaker, splits - 1)
            second = self._chunk_facts(halves[1], timestamp, speaker, splits - 1)
            for fact in second:  # causal indexes of the second half count after the first half
                for relation in fact.get("causal_relations") or []:
                    relation["target_index"] = int(relation.get("target_index", -1)) + len(first)
            return first + second
        facts = document.get("facts")
        if not isinstance(facts, list) or not all(isinstance(f, dict) for f in facts):
            raise LLMError(f"{self.llm.model} answered without the facts schema: facts is not a list of objects",
                           hint=OFF_SCHEMA)  # fmt: skip
        return list(facts)

    def _fact(self, raw: dict[str, Any], index: int, entities: Sequence[str]) -> Fact | None:
        stored = fact_text(raw)
        if not is_fact(stored):
            return None
        names: dict[str, str] = {}
        for name in [*entities, *(str(e) for e in raw.get("entities") or [])]:
            if name.strip():
                names.setdefault(name.strip().lower(), name.strip())
        fact = Fact(
            text=stored,
            chunk_index=index,
            fact_type="experience" if raw.get("fact_type") == "assistant" else "world",
            entities=list(names.values()),
            caused_by=[  # the model's indexes; extract() maps them to the item's facts
                int(r["target_index"])
                for r in raw.get("causal_relations") or []
                if isinstance(r, dict) and r.get("type") == "caused_by" and isinstance(r.get("target_index"), int)
            ],
        )
        if raw.get("fact_kind") == "event":
            fact.occurred_start = _date(raw.get("occurred_start"), end=False)
            fact.occurred_end = _date(raw.get("occurred_end"), end=True) or (
                _date(raw.get("occurred_start"), end=True) if fact.occurred_start else None
            )
            if fact.occurred_start and fact.occurred_end and fact.occurred_end < fact.occurred_start:
                fact.occurred_start, fact.occurred_end = None, None
        return fact


def _date(value: Any, *, end: bool) -> datetime | None:
    """An ISO date or date-time as an aware UTC datetime (a bare date: its first or last instant)."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if len(value.strip()) == 10 and end:
        parsed = parsed.replace(hour=23, minute=59, second=59, microsecond=999999)
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def _halves(chunk: str) -> list[str]:
    """A chunk cut in two near its middle, at a paragraph, sentence or word boundary."""
    pieces = chunking.chunk_text(chunk, max_chars=max(1, len(chunk) // 2 + len(chunk) // 10))
    if len(pieces) < 2:
        return pieces
    middle = len(pieces) // 2
    return [" ".join(pieces[:middle]), " ".join(pieces[middle:])]
