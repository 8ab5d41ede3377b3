"""The one language model client: JSON-schema chat completions against any OpenAI-compatible endpoint
(the ``openai`` package), with retries, one more request for an off-schema answer, and a token usage
record per call."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import Any, cast

from .. import limits
from ..errors import LLMError

OFF_SCHEMA = "A model that follows JSON schemas (structured outputs, tool calls) is needed; small local models may not."


class LLMClient:
    """JSON-schema chat completions against an OpenAI-compatible endpoint, with a usage record.

    ``base_url`` like ``https://api.openai.com/v1``; ``api_key_env`` names the environment
    variable holding the key (an empty key is sent when it is unset, which local servers
    accept); ``retries``: the openai client's retries with exponential backoff. ``usage``
    holds one ``{"purpose", "model", "prompt_tokens", "completion_tokens"}`` per call.
    ``before_call(base_url)`` runs once, before the first request (inside the database: the
    endpoint check, :func:`hindsight_pl.pipeline.in_database.llm_for`). Raises :class:`LLMError`
    when the endpoint fails or answers twice with something that is not JSON of the schema.
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
            # awaited in slices: inside the database a cancel or timeout takes effect within WAIT_SLICE
            response = limits.wait(self._client.chat.completions.create, model=self.model, temperature=0.1, **request)
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
