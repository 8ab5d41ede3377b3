"""The language model: one client (:class:`LLMClient`) for every use, fact extraction
(:class:`LLMExtractor`), observation writing (:func:`write_observation`) and reflect
(:mod:`hindsight_pl.reflect`), in the driver and inside PostgreSQL alike.

Any OpenAI-compatible chat-completions endpoint (the ``openai`` package): a bank's
``llm_base_url`` and ``llm_model``, the API key from the environment variable its
``llm_api_key_env`` names (default ``OPENAI_API_KEY``). Answers are JSON that follows a
schema (``response_format`` of type ``json_schema``), temperature 0.1, with the
openai client's retries and backoff on connection errors, 429 and 5xx, one more
request when an answer is not JSON of the schema, and a token usage record per call.

Extraction sends one chunk at a time with the date it was said and answers with
:data:`FACTS_SCHEMA`; a response cut off by the token limit (``finish_reason ==
"length"``) is retried on the two halves of the chunk.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, cast

from . import chunking
from .extract import Fact, is_fact


class LLMError(Exception):
    """A language model call failed: the endpoint erred, or answered twice with something that is
    not JSON of the schema, or wrote nothing usable. The message names the model; ``hint`` (or
    None) says what to do. The driver raises it as ``hindsight_pg.ExtractionError``; SQL
    functions as SQLSTATE HS503."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


OFF_SCHEMA = "A model that follows JSON schemas (structured outputs, tool calls) is needed; small local models may not."

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


class LLMClient:
    """JSON-schema chat completions against an OpenAI-compatible endpoint, with a usage record.

    ``base_url`` like ``https://api.openai.com/v1``; ``api_key_env`` names the environment
    variable holding the key (an empty key is sent when it is unset, which local servers
    accept); ``retries``: the openai client's retries with exponential backoff. ``usage``
    holds one ``{"purpose", "model", "prompt_tokens", "completion_tokens"}`` per call.
    ``before_call(base_url)`` runs once, before the first request (inside the database: the
    endpoint check, :func:`in_database`). Raises :class:`LLMError` when the endpoint fails or
    answers twice with something that is not JSON of the schema.
    """

    def __init__(
        self, *, base_url: str, model: str, api_key_env: str = "OPENAI_API_KEY", timeout: float = 120.0,
        retries: int = 2, before_call: Callable[[str], Any] | None = None,
    ) -> None:  # fmt: skip
        import openai  # imported only when a bank uses a language model

        self._before_call = before_call
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.model = model
        self.usage: list[dict[str, Any]] = []
        self._client = openai.OpenAI(
            base_url=base_url, api_key=os.environ.get(api_key_env) or "none", timeout=timeout, max_retries=retries
        )
        self._api_error: type[Exception] = openai.OpenAIError

    @classmethod
    def from_config(
        cls, config: Mapping[str, Any], *, before_call: Callable[[str], Any] | None = None
    ) -> LLMClient | None:
        """The client a bank's config names (``llm_base_url`` and ``llm_model``), or None without one."""
        if not config.get("llm_base_url") or not config.get("llm_model"):
            return None
        return cls(base_url=str(config["llm_base_url"]), model=str(config["llm_model"]),
                   api_key_env=str(config.get("llm_api_key_env") or "OPENAI_API_KEY"),
                   before_call=before_call)  # fmt: skip

    def _create(self, purpose: str, **request: Any) -> Any:
        """One chat completion at temperature 0.1, recorded in ``usage``."""
        if self._before_call is not None:
            check, self._before_call = self._before_call, None
            check(self.base_url)
        try:
            response = self._client.chat.completions.create(model=self.model, temperature=0.1, **request)
        except self._api_error as exc:
            raise self._failed(purpose, exc) from exc
        self._record(purpose, response.usage)
        return response

    def chat(
        self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]], tool_choice: Any, purpose: str,
        max_tokens: int = 2048,
    ) -> Any:  # fmt: skip
        """One turn of a tool-using conversation: the assistant's message (``content``, ``tool_calls``)."""
        response = self._create(purpose, messages=cast(Any, messages), tools=cast(Any, tools),
                                tool_choice=tool_choice, max_tokens=max_tokens)  # fmt: skip
        return response.choices[0].message

    def _failed(self, purpose: str, exc: Exception) -> LLMError:
        hint = (
            f"The endpoint is {self.base_url} (the bank's llm_base_url); the API key comes from the environment "
            f"variable {self.api_key_env} of the process that calls the model."
        )
        return LLMError(f"{purpose} by {self.model} failed: {exc}", hint=hint)

    def _record(self, purpose: str, usage: Any) -> None:
        self.usage.append({
            "purpose": purpose, "model": self.model,
            "prompt_tokens": usage.prompt_tokens if usage else None,
            "completion_tokens": usage.completion_tokens if usage else None,
        })  # fmt: skip

    def json(
        self, system: str, user: str, schema: dict[str, Any], *, name: str, purpose: str, max_tokens: int = 4096
    ) -> dict[str, Any] | None:
        """The model's answer as a JSON object of ``schema``, or None when the answer was cut off by the
        token limit (``finish_reason`` length). An answer that is not a JSON object is asked for once more."""
        for attempt in range(2):
            response = self._create(
                purpose,
                messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
                max_tokens=max_tokens,
                response_format={"type": "json_schema",
                                 "json_schema": {"name": name, "strict": True, "schema": schema}},
            )  # fmt: skip
            choice = response.choices[0]
            if choice.finish_reason == "length":
                return None
            content = choice.message.content or ""
            try:
                document = json.loads(content)
                if not isinstance(document, dict):
                    raise TypeError("the answer is not a JSON object")
                return document
            except (ValueError, TypeError) as exc:
                if attempt == 1:
                    raise LLMError(
                        f"{self.model} answered without the {name} schema: {exc}: {content[:200]!r}", hint=OFF_SCHEMA
                    ) from None
        raise AssertionError("unreachable")


def in_database(plpy: Any, config: Mapping[str, Any]) -> LLMClient | None:
    """Inside PostgreSQL (``plpy`` is PL/Python's module): the client of the bank ``config``, or None, which
    asks ``hindsight._check_llm_endpoint`` before its first request, so the database calls only the
    endpoints the role may have it call (42501 otherwise) and only when a model is called at all."""
    plan = plpy.prepare("SELECT hindsight._check_llm_endpoint($1)", ["text"])
    return LLMClient.from_config(config, before_call=lambda base_url: plpy.execute(plan, [base_url]))


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
