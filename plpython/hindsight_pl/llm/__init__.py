"""The language model, by role: one client for every use (:mod:`.client`, :class:`LLMClient`), fact
extraction (:mod:`.extraction`, :class:`LLMExtractor`), observation writing (:mod:`.observations`)
and reflect (:mod:`hindsight_pl.reflect`), in the driver and inside PostgreSQL alike.

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

from ..errors import LLMError
from .client import OFF_SCHEMA, LLMClient
from .extraction import FACTS_SCHEMA, SYSTEM_PROMPT, LLMExtractor, fact_text
from .observations import rewrite_observations, write_observation

__all__ = ["FACTS_SCHEMA", "OFF_SCHEMA", "SYSTEM_PROMPT", "LLMClient", "LLMError", "LLMExtractor", "fact_text",
           "rewrite_observations", "write_observation"]  # fmt: skip
