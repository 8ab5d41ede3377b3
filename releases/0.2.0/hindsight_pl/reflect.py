"""Reflect: an answer written from memory by the bank's language model, in the bank's disposition.

An agent loop over tools (OpenAI tool calls): ``recall`` (the full pipeline),
``search_observations`` (recall of observations only), ``search_mental_models`` (the bank's
mental models nearest the query), ``expand`` (the chunk or document a memory came from) and
``done`` (the answer and the memory ids it rests on). Iterations: low 5, mid 10, high 20; the
last one forces ``done``. Cited ids that no tool returned are dropped. The driver
(``Client.reflect``) and the SQL function ``hindsight.reflect`` run the same loop with their own
tools. docs/reflect.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from . import text
from .llm import OFF_SCHEMA, LLMClient, LLMError

ITERATIONS = {"low": 5, "mid": 10, "high": 20}

# One sentence of behaviour per trait and level (1-5), rendered into the system prompt.
DISPOSITION: dict[str, dict[int, str]] = {
    "skepticism": {
        1: "Take what the memories say at face value and answer confidently.",
        2: "Trust the memories, and mention doubt only when they clearly disagree.",
        3: "Weigh the memories as evidence: say so when support is thin or memories disagree.",
        4: "Question claims that lack support, and say what is uncertain or unverified.",
        5: "Treat every claim as unproven until several memories support it; state what is uncertain "
        "and what evidence would settle it.",
    },
    "literalism": {
        1: "Read the question for its intent and answer what the person most likely wants to know.",
        2: "Favour the intent of the question over its exact wording.",
        3: "Answer the question as asked, reading intent where the wording is loose.",
        4: "Stick closely to the wording of the question and the memories.",
        5: "Answer exactly what was asked, in the memories' own terms, and nothing beyond it.",
    },
    "empathy": {
        1: "Be matter-of-fact: report what the memories say without comment on feelings.",
        2: "Be direct, with a brief acknowledgement of feelings where they matter.",
        3: "Be considerate: acknowledge the people involved and how they felt when it matters.",
        4: "Be warm: pay attention to how the people involved feel and say so kindly.",
        5: "Put the people first: acknowledge feelings, be gentle with hard news, and offer support.",
    },
}

SYSTEM_PROMPT = """\
You answer a question from an AI assistant's long-term memory. Use the tools to look things up: \
recall (memories that answer a query), search_observations (consolidated observations), \
search_mental_models (named summaries kept for this memory), expand (the text a memory came \
from). When you know enough, or when told to, call done with your answer in Markdown and the ids \
of the memories it rests on. Answer only from what the tools returned; \
say so when memory has no answer.

How to answer:
{disposition}"""

TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {
        "name": "recall", "description": "Memories (facts and observations) that answer a query, best first.",
        "parameters": {"type": "object", "additionalProperties": False, "required": ["query"],
                       "properties": {"query": {"type": "string"}}}}},
    {"type": "function", "function": {
        "name": "search_observations", "description": "Consolidated observations that answer a query.",
        "parameters": {"type": "object", "additionalProperties": False, "required": ["query"],
                       "properties": {"query": {"type": "string"}}}}},
    {"type": "function", "function": {
        "name": "search_mental_models", "description": "The bank's mental models (named summaries) nearest a query.",
        "parameters": {"type": "object", "additionalProperties": False, "required": ["query"],
                       "properties": {"query": {"type": "string"}}}}},
    {"type": "function", "function": {
        "name": "expand", "description": "The chunk of text a memory was extracted from.",
        "parameters": {"type": "object", "additionalProperties": False, "required": ["memory_id"],
                       "properties": {"memory_id": {"type": "string"}}}}},
]  # fmt: skip


NO_LLM_HINT = (
    "Set llm_base_url and llm_model in its config: hindsight-pg config BANK llm_base_url=http://localhost:11434/v1 "
    "llm_model=llama3.1:8b, or client.configure_bank, or SELECT hindsight.configure_bank(bank_id, "
    """'{"llm_base_url": ..., "llm_model": ...}') (docs/retain.md lists servers)."""
)


def check_budget(budget: str) -> None:
    """Raises ValueError unless ``budget`` is low, mid or high."""
    if budget not in ITERATIONS:
        raise ValueError(f'unknown budget "{budget}": use one of low, mid, high')


def check_response_schema(schema: Any) -> None:
    """Raises ValueError unless ``schema`` is None or a JSON schema (an object valid under its draft)."""
    if schema is None:
        return
    import jsonschema

    if not isinstance(schema, Mapping):
        raise ValueError(f"response_schema must be a JSON object, got {type(schema).__name__}")
    try:
        jsonschema.validators.validator_for(dict(schema)).check_schema(dict(schema))
    except jsonschema.SchemaError as exc:
        raise ValueError(f"response_schema is not a JSON schema: {exc.message}") from None


class Memory(Protocol):
    """What the tools read, given by the caller (the driver over psycopg, ``hindsight.reflect`` over plpy).

    ``search(query, types)``: recall's results, best first, as ``(id, text, fact_type, date)`` (date: when it
    happened or was said, a datetime or ISO 8601 string, or None); ``types`` None for every fact type.
    ``source(memory_id)``: ``(id, text)`` of the chunk or document the memory came from, or None.
    ``mental_models(query)``: the nearest refreshed mental models as ``(id, name, content)``.
    """

    def search(self, query: str, types: list[str] | None) -> Sequence[tuple[Any, str, str, Any]]: ...

    def source(self, memory_id: str) -> tuple[Any, str] | None: ...

    def mental_models(self, query: str) -> Sequence[tuple[Any, str, str]]: ...


def _memory(memory_id: Any, text_: str, fact_type: str, when: Any = None) -> dict[str, Any]:
    """A tool result as the model sees it and ``based_on`` lists it."""
    date = when.isoformat() if hasattr(when, "isoformat") else when
    return {"id": str(memory_id), "text": text_, "fact_type": fact_type, "date": date}


def run_tool(memory: Memory, name: str, arguments: Mapping[str, Any], query: str) -> list[dict[str, Any]] | None:
    """One tool call's results (dicts with id, text, fact_type, date), or None for an unknown tool. A
    missing or blank query argument falls back to the question; expand of an unknown id finds nothing."""
    cue = str(arguments.get("query") or "").strip()
    cue = cue if text.is_meaningful(cue) else query
    if name in ("recall", "search_observations"):
        found = memory.search(cue, ["observation"] if name == "search_observations" else None)
        return [_memory(*row) for row in found]
    if name == "search_mental_models":
        return [_memory(i, f"{n}: {c}", "mental_model") for i, n, c in memory.mental_models(cue)]
    if name == "expand":
        row = memory.source(str(arguments.get("memory_id") or ""))
        return [_memory(row[0], row[1], "source")] if row else []
    return None


def done_tool(response_schema: Mapping[str, Any] | None) -> dict[str, Any]:
    """The ``done`` tool: the answer (Markdown, or an object of ``response_schema``) and the cited ids."""
    answer = dict(response_schema) if response_schema else {"type": "string", "description": "Markdown"}
    cited = {"type": "array", "items": {"type": "string"}}
    return {"type": "function", "function": {
        "name": "done", "description": "Finish with the answer and the ids of the memories it rests on.",
        "parameters": {"type": "object", "additionalProperties": False, "required": ["answer", "memory_ids"],
                       "properties": {"answer": answer, "memory_ids": cited}}}}  # fmt: skip


def render_system_prompt(config: Mapping[str, Any]) -> str:
    """The system prompt for a bank: a sentence per disposition trait at its level, then the active
    directives in priority order (highest first, then by name)."""
    disposition = {"skepticism": 3, "literalism": 3, "empathy": 3, **dict(config.get("disposition") or {})}
    lines = [f"- {DISPOSITION[trait][int(disposition[trait])]}" for trait in ("skepticism", "literalism", "empathy")]
    directives = sorted(
        (d for d in config.get("directives") or [] if d.get("active", True)),
        key=lambda d: (-float(d.get("priority", 0)), str(d.get("name", ""))),
    )
    prompt = SYSTEM_PROMPT.format(disposition="\n".join(lines))
    if directives:
        prompt += "\n\nRules of this memory bank, most important first:\n" + "\n".join(
            f"- {d['name']}: {d['content']}" for d in directives
        )
    return prompt


@dataclass(frozen=True)
class ReflectResult:
    """An answer from memory: ``answer`` (Markdown, or the object of ``response_schema``), ``based_on``
    (the cited memories that a tool returned: id, text, fact type), token ``usage`` per call, and the
    ``trace`` of tool calls (name, arguments, how many results)."""

    answer: Any
    based_on: list[dict[str, Any]] = field(default_factory=list)
    usage: list[dict[str, Any]] = field(default_factory=list)
    trace: list[dict[str, Any]] = field(default_factory=list)


def reflect_loop(
    llm: LLMClient,
    config: Mapping[str, Any],
    query: str,
    *,
    budget: str,
    memory: Memory,
    response_schema: Mapping[str, Any] | None = None,
) -> ReflectResult:
    """Answer ``query`` with ``llm`` in the disposition and directives of the bank ``config``, looking things
    up in ``memory``. Raises ValueError for a bad budget or response_schema and :class:`LLMError` when
    the model fails or its structured answer breaks ``response_schema``; the caller's errors pass through."""
    check_budget(budget)
    check_response_schema(response_schema)
    if not text.is_meaningful(query):
        raise ValueError(f"the question is blank or has only punctuation: {query[:40]!r}")
    usage_start = len(llm.usage)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": render_system_prompt(config)},
        {"role": "user", "content": query},
    ]
    offered = [*TOOLS, done_tool(response_schema)]
    seen: dict[str, dict[str, Any]] = {}
    trace: list[dict[str, Any]] = []
    for iteration in range(ITERATIONS[budget]):
        last = iteration == ITERATIONS[budget] - 1
        choice: Any = {"type": "function", "function": {"name": "done"}} if last else "auto"
        message = llm.chat(messages, tools=offered, tool_choice=choice, purpose="reflect")
        calls = list(message.tool_calls or [])
        if not calls:  # a plain answer: take it as done without citations
            trace.append({"tool": None, "content": message.content})
            return _finish(llm, usage_start, message.content or "", [], seen, trace, response_schema)
        messages.append({"role": "assistant", "content": message.content, "tool_calls": [
            {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": c.function.arguments}}
            for c in calls]})  # fmt: skip
        for call in calls:
            try:
                arguments = json.loads(call.function.arguments or "{}")
            except ValueError:
                arguments = {}
            if not isinstance(arguments, dict):  # e.g. a bare string: the tool runs on its defaults
                arguments = {}
            if call.function.name == "done":
                trace.append({"tool": "done", "arguments": arguments})
                return _finish(llm, usage_start, arguments.get("answer"), arguments.get("memory_ids") or [], seen,
                               trace, response_schema)  # fmt: skip
            results = run_tool(memory, call.function.name, arguments, query)
            for r in results or []:
                seen.setdefault(r["id"], r)
            trace.append({"tool": call.function.name, "arguments": arguments, "results": len(results or [])})
            content = json.dumps({"results": results} if results is not None else {"error": "unknown tool"})
            messages.append({"role": "tool", "tool_call_id": call.id, "content": content})
    raise LLMError(f"{llm.model} did not call done within {ITERATIONS[budget]} iterations",
                   hint="A model that makes tool calls is needed; a higher budget allows more of them.")  # fmt: skip


def _finish(
    llm: LLMClient, usage_start: int, answer: Any, cited: Sequence[Any], seen: Mapping[str, dict[str, Any]],
    trace: list[dict[str, Any]], response_schema: Mapping[str, Any] | None,
) -> ReflectResult:  # fmt: skip
    if response_schema is not None:
        import jsonschema

        try:
            jsonschema.validate(answer, dict(response_schema))
        except jsonschema.ValidationError as exc:
            raise LLMError(f"{llm.model}'s answer does not follow response_schema: {exc.message}",
                           hint=OFF_SCHEMA) from None  # fmt: skip
    based_on = [seen[str(i)] for i in dict.fromkeys(str(i) for i in cited) if str(i) in seen]
    return ReflectResult(answer, based_on, list(llm.usage[usage_start:]), trace)
