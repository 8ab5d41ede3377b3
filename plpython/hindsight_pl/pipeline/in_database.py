"""The bodies of the extension's PL/Python functions: each builds the database (:class:`PlpyDatabase`
over ``plpy``) and the bank's models (providers made once per session in ``GD``; a language model
client that asks ``hindsight._check_llm_endpoint`` before its first request), calls one step of the
pipeline, and raises its errors with their SQLSTATE and hint (:func:`raised`)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

from .. import limits, providers
from ..errors import HindsightPlError, ProviderError
from ..recall import spreading
from .banks import CONFIG_CHANGED, keep_config
from .database import PlpyDatabase, sqlstate_of

if TYPE_CHECKING:
    from ..llm import LLMClient

# Retain, consolidation, reflect and the language model client are imported by the functions that use them: a
# session whose first call is a recall (embed, rerank, temporal_spread) does not pay for their imports (the
# extractor's sentence splitter, the language model client: about 0.3 s of a cold recall; bench/cold.py).

T = TypeVar("T")

TEMPORAL_LINKS = (
    "SELECT * FROM hindsight._temporal_links($1::text, $2::uuid[], $3::tstzrange, $4::text[], $5::text[], $6::text,"
    " $7::int, $8::float8)"
)
CHECK_USE = "SELECT hindsight._check_provider_use($1::jsonb, $2::text)"
PROVIDER_OF_CONFIG = "SELECT hindsight._provider($1::jsonb, 'embedding', $2::text)::text AS c"
PROVIDER_HINT = "Check the provider with SELECT hindsight.provider_config(bank_id, '{what}') (docs/providers.md)."


def raised(plpy: Any, step: Callable[[], T], provider: str = "embedding") -> T:
    """``step()``, with an error of hindsight_pl raised as ``plpy.error`` with its SQLSTATE and hint (a
    provider's failure hints at ``provider``'s config) and any other ValueError as 22023; the database's
    own errors pass through as they are."""
    try:
        return step()
    except HindsightPlError as exc:
        hint = exc.hint or (PROVIDER_HINT.format(what=provider) if isinstance(exc, ProviderError) else None)
        plpy.error(str(exc), sqlstate=exc.sqlstate, hint=hint)
    except ValueError as exc:
        plpy.error(str(exc), sqlstate="22023")
    raise AssertionError("unreachable: plpy.error raises")


def database(plpy: Any, gd: dict[str, Any]) -> PlpyDatabase:
    """The session's database: statements prepared once per session (in ``GD``)."""
    return PlpyDatabase(plpy, gd.setdefault("hindsight_plans", {}))


def llm_for(plpy: Any) -> Callable[[Mapping[str, Any]], LLMClient | None]:
    """The language model client of a bank's config, or None; its first request asks
    ``hindsight._check_llm_endpoint`` (42501 for an endpoint the role may not call)."""
    from ..llm import LLMClient

    plan = plpy.prepare("SELECT hindsight._check_llm_endpoint($1)", ["text"])
    return functools.partial(LLMClient.from_config, before_call=lambda base_url: plpy.execute(plan, [base_url]))


def provider(plpy: Any, gd: dict[str, Any], config: str, what: str) -> Any:
    """The model of provider config ``config`` (JSON, as ``hindsight._provider`` gives it) for ``what``
    (embedding or reranker), made once per session; 42501 for a provider the caller may not run
    (``hindsight._check_provider_use``: the internal functions that take a provider are callable by any role)."""
    database(plpy, gd).rows(CHECK_USE, config, what)
    return providers.cached(gd.setdefault("hindsight_providers", {}), what, json.loads(config))


def embedder_of_config(db: PlpyDatabase, gd: dict[str, Any], bank_id: str, config: Mapping[str, Any]) -> Any:
    """The embedding model of a bank's effective config in hand (retain's, read once): ``hindsight._provider``'s
    rule, the config not read again."""
    row = db.rows(PROVIDER_OF_CONFIG, json.dumps(config), bank_id)
    return provider(db.plpy, gd, row[0]["c"], "embedding")


def embed(plpy: Any, gd: dict[str, Any], config: str, texts: list[str | None] | None, kind: str) -> list[str]:
    """hindsight._embed_with: one vector (as text) per text, by the embedding provider of config ``config``."""

    def step() -> list[str]:
        if kind not in providers.KINDS:
            raise ValueError(f"kind must be query or passage, got {kind!r}")
        limits.check_count("embed_texts", "texts", len(texts or []))
        if any(t is not None and not isinstance(t, str) for t in texts or []):
            raise ValueError("texts must be a one-dimensional array of text")
        vectors = provider(plpy, gd, config, "embedding").embed([t or "" for t in texts or []], kind)
        return ["[" + ",".join(map(repr, row)) + "]" for row in vectors.tolist()]

    return raised(plpy, step)


def _unread(plpy: Any, gd: dict[str, Any], config: str, query: str) -> tuple[Any, str | None, str | None]:
    """(the cross-encoder of reranker provider config ``config`` or None, why it does not read ``query`` (None when
    it does), and why the packaged reader cannot load when that is the reason)."""
    model = provider(plpy, gd, config, "reranker")
    if model is None:
        return None, "the bank has no reader (reranker_provider kind none)", None
    if not providers.reads(model, query):
        return model, ("the reader reads questions in Latin script only, and this one is in another (a "
                       "multilingual cross-encoder's config says \"multilingual\": true)"), None  # fmt: skip
    missing = providers.reader_missing(model)
    if missing is not None:
        return model, f"the packaged reader cannot load here: {missing}", missing
    return model, None, None


def rerank(plpy: Any, gd: dict[str, Any], config: str, query: str | None, documents: list[str | None] | None) -> Any:
    """hindsight._rerank_with: raw scores by the cross-encoder of reranker provider config ``config``, or None when
    it is none, it does not read the query's script (:func:`hindsight_pl.providers.reads`), or it is the packaged
    reader and that cannot load here (:func:`hindsight_pl.providers.reader_missing`: one WARNING a session says
    why)."""

    def step() -> Any:
        limits.check_count("rerank_texts", "documents", len(documents or []))
        if any(d is not None and not isinstance(d, str) for d in documents or []):
            raise ValueError("documents must be a one-dimensional array of text")
        model, why, missing = _unread(plpy, gd, config, query or "")
        if why is not None:  # recall then uses its passthrough
            if missing is not None and not gd.get("hindsight_reader_warned"):
                gd["hindsight_reader_warned"] = True
                plpy.warning(f"recall runs without the packaged reader: {missing}",
                             hint="Install it (make install), or turn it off: hindsight.set_setting("
                                  "'reranker_provider', '{\"kind\": \"none\"}') (docs/providers.md).")  # fmt: skip
            return None
        return model.rerank(query or "", [d or "" for d in documents or []]).tolist()

    return raised(plpy, step, provider="reranker")


def unread(plpy: Any, gd: dict[str, Any], config: str, query: str | None) -> str | None:
    """hindsight._unread: why the cross-encoder of reranker provider config ``config`` does not read ``query``
    (recall's trace says it), or None when it does."""
    return raised(plpy, lambda: _unread(plpy, gd, config, query or "")[1], provider="reranker")


def retain_text(
    plpy: Any, gd: dict[str, Any], bank_id: str, content: str | None, document_id: str | None,
    mentioned_at: str | None, context: str | None, tags: list[str | None] | None, metadata: str | None,
    entities: list[str | None] | None, speaker: str | None, update_mode: str | None,
) -> list[tuple[str, str | None, str]]:  # fmt: skip
    """hindsight.retain_text: (document_id, unit_id, merged JSON) per new memory unit."""
    from . import retain as retaining

    db = database(plpy, gd)
    now = db.rows("SELECT extract(epoch FROM coalesce($1::timestamptz, now()))::float8 AS t, current_user::text AS r",
                  mentioned_at)[0]  # fmt: skip
    said = now["t"]
    # each bank's config as this session's last retain_text read it, per role: the models are chosen with it and
    # hindsight.retain checks it against the config it reads (HS412: read again, once), so a call reads it once
    kept = gd.setdefault("hindsight_bank_configs", {})
    key = (now["r"], bank_id)

    def step() -> list[tuple[str, str | None, str]]:
        item = retaining.prepare(
            content or "", timestamp=datetime.fromtimestamp(said, UTC), document_id=document_id, context=context,
            tags=tags, metadata=limits.load_json(metadata, "metadata") if metadata else None, entities=entities,
            speaker=speaker,
            update_mode=update_mode or "",
        )  # fmt: skip
        embedder = functools.partial(embedder_of_config, db, gd, bank_id)

        def store(config: Mapping[str, Any] | None) -> Any:
            return retaining.retain(db, bank_id, [item], llm_for=llm_for(plpy), embedder_of_config=embedder,
                                    config=config)  # fmt: skip

        try:
            stored = store(kept.get(key))
        except plpy.SPIError as exc:  # the statement alone is undone (PL/Python runs each in a subtransaction)
            if sqlstate_of(exc) != CONFIG_CHANGED:
                raise
            kept.pop(key, None)
            stored = store(None)
        keep_config(kept, key, stored.config)
        return [(r["document_id"], r["unit_id"], json.dumps(r["merged"])) for r in stored.rows]

    return raised(plpy, step)


def consolidate(plpy: Any, gd: dict[str, Any], bank_id: str) -> list[tuple[str, str, int | None]]:
    """hindsight.consolidate with the bank's language model: (observation_id, action, proof_count) rows."""
    from . import consolidate as consolidating

    return raised(plpy, lambda: consolidating.consolidate(database(plpy, gd), bank_id, llm_for(plpy)))


def reflect(
    plpy: Any, gd: dict[str, Any], bank_id: str, query: str | None, budget: str, max_tokens: int,
    tags: list[str] | None, tags_match: str, response_schema: str | None, query_timestamp: str | None,
) -> list[tuple[Any, ...]]:  # fmt: skip
    """hindsight.reflect: one row (answer, structured_answer, based_on, usage, trace), JSON as text."""
    from . import reflect as reflecting

    schema = json.loads(response_schema) if response_schema else None
    result = raised(plpy, lambda: reflecting.reflect(
        database(plpy, gd), bank_id, query or "", llm_for=llm_for(plpy), budget=budget, max_tokens=max_tokens,
        tags=tags, tags_match=tags_match, response_schema=schema, query_timestamp=query_timestamp,
    ))  # fmt: skip
    structured = None if schema is None else json.dumps(result.answer)
    answer = result.answer if schema is None else structured
    return [(answer, structured, json.dumps(result.based_on), json.dumps(result.usage), json.dumps(result.trace))]


def refresh_mental_model(plpy: Any, gd: dict[str, Any], bank_id: str, name: str) -> None:
    """hindsight.refresh_mental_model: reflect on the model's source query and store the answer."""
    from . import reflect as reflecting

    db = database(plpy, gd)

    def reflect_with(query: str, **arguments: Any) -> Any:
        return reflecting.reflect(db, bank_id, query, llm_for=llm_for(plpy), **arguments)

    raised(plpy, lambda: reflecting.refresh_mental_model(db, bank_id, name, reflect_with=reflect_with))


def temporal_spread(
    plpy: Any, gd: dict[str, Any], bank_id: str, entry_ids: list[str], entry_scores: list[float],
    temporal_window: str | None, types: list[str] | None, tags: list[str] | None, tags_match: str,
    max_nodes: int, config: str,
) -> list[tuple[str, float, int]]:  # fmt: skip
    """hindsight._temporal_spread: every unit reached from the entry points along temporal and causal links
    (:func:`hindsight_pl.recall.spreading.spread`), with its score and the order it was reached in."""
    db = database(plpy, gd)
    params = spreading.SpreadParams.from_config(json.loads(config))

    def fetch(frontier: Sequence[str]) -> list[spreading.Link]:
        rows = db.rows(TEMPORAL_LINKS, bank_id, list(frontier), temporal_window, types, tags, tags_match,
                       params.links_per_node, params.min_link_weight)  # fmt: skip
        return [spreading.Link(r["from_unit_id"], r["to_unit_id"], r["link_type"], r["weight"], r["proximity"])
                for r in rows]  # fmt: skip

    scores = spreading.spread(dict(zip(entry_ids, entry_scores, strict=True)), fetch, params, max_nodes)
    return [(unit, score, order) for order, (unit, score) in enumerate(scores.items(), start=1)]
