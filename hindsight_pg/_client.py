"""The client: a psycopg 3 connection plus an embedder, over the extension's SQL API.

The client prepares what the database should not do (chunking, embeddings)
and calls ``hindsight.retain`` / ``hindsight.recall``; it never re-implements
the pipeline. Beside it: connecting (``_connect``), errors and retries (``_retry``), argument checks
(``_checks``) and the rows as the driver's types (``_rows``).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg.types.range import Range

from hindsight_pl import limits, providers
from hindsight_pl.llm import LLMClient, LLMExtractor
from hindsight_pl.pipeline import consolidate as consolidating
from hindsight_pl.pipeline import recall as recalling
from hindsight_pl.pipeline import reembed as reembedding
from hindsight_pl.pipeline import reflect as reflecting
from hindsight_pl.pipeline import retain as retaining
from hindsight_pl.pipeline.banks import bank_config, keep_config
from hindsight_pl.providers import Embedder, LocalEmbedder, Reranker
from hindsight_pl.reflect import ReflectResult
from hindsight_pl.retain.extract import Extractor
from hindsight_pl.retain.units import Item

from ._checks import _memory_id, _names, _typed, _utc
from ._database import PsycopgDatabase
from ._errors import (
    EmbeddingModelError,
    InvalidInputError,
)
from ._retry import _errors, _read_retried, _retried
from ._rows import _from_json, _memory, _result
from ._types import (
    Bank,
    Entity,
    Memory,
    MemoryItem,
    MentalModel,
    MergedFact,
    RecallResponse,
    RetainResult,
)

# How many entities a listing gives unless told otherwise, in every interface: the driver's list_entities, the
# CLI's entities, MCP's list_entities and the inspector's graph (docs/reference.md, Defaults every interface shares).
DEFAULT_ENTITY_LIMIT = 20
# a MentalModel's fields, as the row of hindsight.mental_models or of hindsight.create_mental_model gives them
MENTAL_MODEL_COLUMNS = "SELECT id, name, source_query, tags, max_tokens, content, based_on, last_refreshed_at, history"
# How many results a recall gives unless told otherwise: hindsight.recall's and recall_json's max_results default,
# which the CLI's recall --limit and MCP's recall limit take (tests/db/test_recall.py checks that the two agree).
DEFAULT_MAX_RESULTS = 10
# The relevance below which recall drops a candidate unless told otherwise (None: no floor): hindsight.recall's,
# recall_json's and recall_finish's min_relevance default, which the CLI and MCP take too (tests/db/test_recall.py
# checks them; docs/recall.md, "Relevance", says why there is none).
DEFAULT_MIN_RELEVANCE: float | None = None
_PROVIDERS: dict[str, Any] = {}  # the banks' own embedding providers, made once per process (Client.embedder_for)


class Client:
    """Retain and recall against one database. Use :func:`connect` to make one.

    Not thread-safe (one psycopg connection); use one client per thread.
    """

    def __init__(
        self,
        conn: psycopg.Connection[Any],
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        reranker: Reranker | None = None,
    ) -> None:
        self.conn = conn
        # the embedder the caller chose, else each bank's own provider (embedder_for)
        self.embedder: Embedder = embedder or LocalEmbedder()
        self._own_embedder = embedder is not None
        self.extractor = extractor
        self.reranker = reranker
        self.llm_usage: list[dict[str, Any]] = []  # one record per language-model call (docs/retain.md)
        # transactions run again after a deadlock or serialization failure (docs/reliability.md), and recalls
        # after a Citus worker failed (WorkerError, docs/scale-out.md)
        self.retries = 0
        # each bank's effective config as the last call read it: recall and retain choose their models with it and
        # the database checks it against the config it reads (config_seen), so a call reads the config once
        self._configs: dict[str, Mapping[str, Any]] = {}

    def _config(self, bank_id: str) -> Mapping[str, Any]:
        """The bank's effective config as kept from an earlier call, else read (and kept). Raises
        :class:`BankNotFoundError`."""
        if bank_id not in self._configs:
            with _errors():
                keep_config(self._configs, bank_id, bank_config(PsycopgDatabase(self.conn), bank_id))
        return self._configs[bank_id]

    def embedder_for(self, bank_id: str) -> Embedder:
        """The embedder that makes ``bank_id``'s vectors (:meth:`embedder_of` its config). Raises
        :class:`BankNotFoundError` for an unknown bank and :class:`EmbeddingModelError` (see there)."""
        with _errors():
            config = bank_config(PsycopgDatabase(self.conn), bank_id)
        return self.embedder_of(bank_id, config)

    def embedder_of(self, bank_id: str, config: Mapping[str, Any]) -> Embedder:
        """The embedder that makes the vectors of a bank whose effective config is ``config``: the one given
        to :func:`connect` after checking that its ``model`` is the bank's ``embedding_model``, else the
        bank's own ``embedding_provider`` or its local ``embedding_model``, made once per process. Raises
        :class:`EmbeddingModelError` when that embedder makes another model's vectors."""
        model = config.get("embedding_model")
        if self._own_embedder:
            embedder = self.embedder
        else:
            provider = config.get("embedding_provider") or {"kind": "local", "model": model}
            embedder = providers.cached(_PROVIDERS, "embedding", provider)  # once per process, for every client
        given = getattr(embedder, "model", None)
        if given is not None and model is not None and given != model:
            raise EmbeddingModelError(
                f"bank {bank_id!r} holds vectors made with {model}; this client's embedder makes {given}",
                hint=f"Connect without embedder= (the bank's own model is used), or re-make the bank's vectors: "
                f"hindsight-pg reembed {bank_id} --model {given}.",
            )
        return embedder

    def reembed(
        self,
        bank_id: str,
        model: str,
        *,
        embedder: Embedder | None = None,
        batch_size: int = 64,
        progress: Callable[[int, int], None] | None = None,
    ) -> int:
        """Re-make every vector of ``bank_id`` with ``model`` and record it as the bank's ``embedding_model``.

        Resumable: each batch of ``batch_size`` memory units is committed beside the vectors in use
        (``hindsight.reembed_store``), so a run that stops goes on where it was when called again with the
        same model; until the end the bank answers with its old model. The end (``hindsight.reembed_finish``)
        swaps every vector in, re-embeds the mental models and records the model, in one transaction.
        ``embedder`` makes the new vectors (default: the database-wide provider when it gives ``model``, e.g.
        a model server whose config names it, else the local ``model``, e.g. ``multilingual-e5-small``);
        ``progress(done, total)`` follows each batch. Returns the number of units re-embedded (0 when the bank
        already uses ``model``). Semantic links keep the weights the old model gave them.

        Raises :class:`BankNotFoundError` for an unknown bank, :class:`InvalidInputError` for a blank model,
        a batch size below 1 or an embedder of another model, and :class:`ProviderError` when the model
        cannot be loaded.
        """
        if batch_size < 1:
            raise InvalidInputError(f"batch_size must be at least 1, got {batch_size}")
        if not isinstance(model, str) or not model.strip():
            raise InvalidInputError("model must name an embedding model", hint=f"e.g. {providers.E5}")
        if embedder is None:
            # the database-wide provider when it gives that model (a model server), else the local model
            with _errors():
                setting, name = self.conn.execute(
                    "SELECT p, hindsight.embedding_model_name(p) FROM hindsight.provider_config(NULL, 'embedding') p"
                ).fetchone()  # type: ignore[misc]
            embedder = providers.embedder(setting if name == model else {"kind": "local", "model": model})
        target = embedder
        with _errors():
            target.embed(["warm-up"], kind="passage")  # a model that cannot load fails before the run starts
        if getattr(target, "model", model) != model:
            raise InvalidInputError(f"the embedder makes {target.model} vectors, not {model}")  # type: ignore[attr-defined]
        self._configs.pop(bank_id, None)  # its embedding_model changes at the end
        with _errors():
            return reembedding.reembed(
                PsycopgDatabase(self.conn), bank_id, model, target, transaction=self.conn.transaction,
                batch_size=batch_size, progress=progress,
            )  # fmt: skip

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- banks ---------------------------------------------------------------------

    def create_bank(
        self,
        bank_id: str,
        *,
        name: str | None = None,
        config: Mapping[str, Any] | None = None,
        exist_ok: bool = False,
    ) -> Bank:
        """Create a bank (``config`` overrides the defaults, see ``hindsight.bank_config``) and return it.
        With ``exist_ok`` an existing bank is returned as it is: its config is not changed
        (:meth:`configure_bank` changes it).

        Raises :class:`BankExistsError` when it exists and not ``exist_ok``,
        :class:`InvalidInputError` for a bad id or config.
        """
        with _errors():
            self.conn.execute(
                "SELECT hindsight.create_bank(bank_id => %s, name => %s, config => %s, if_not_exists => %s)",
                (bank_id, name, Jsonb(dict(config or {})), exist_ok),
            )
        return self.get_bank(bank_id)

    def configure_bank(self, bank_id: str, config: Mapping[str, Any]) -> Bank:
        """Change an existing bank's config (``hindsight.configure_bank``): the keys of ``config`` replace the
        bank's own, a key set to None goes back to its default. Returns the bank with its effective config.

        Raises :class:`BankNotFoundError`, :class:`InvalidInputError` for a bad key or value, and
        :class:`HindsightError` (SQLSTATE 42501) when this role is not an admin of the bank.
        """
        if not isinstance(config, Mapping):
            raise InvalidInputError(f"config must be a mapping of keys to values, not {type(config).__name__}")
        self._configs.pop(bank_id, None)
        with _errors():
            self.conn.execute("SELECT hindsight.configure_bank(%s, %s)", (bank_id, Jsonb(dict(config))))
        return self.get_bank(bank_id)

    def get_bank(self, bank_id: str) -> Bank:
        """The bank with its effective config. Raises :class:`BankNotFoundError`."""
        with _errors():
            self.conn.execute("SELECT hindsight.bank_config(%s)", (bank_id,))  # raises HS404 naming the bank
        return self._banks(bank_id)[0]

    def list_banks(self) -> list[Bank]:
        """Every bank, by id."""
        return self._banks(None)

    def _banks(self, bank_id: str | None) -> list[Bank]:
        with _errors(), self.conn.cursor(row_factory=dict_row) as cur:
            cur.execute("SELECT * FROM hindsight.list_banks(%s)", (bank_id,))
            return [Bank(**row) for row in cur.fetchall()]

    @_retried
    def delete_bank(self, bank_id: str) -> bool:
        """Delete a bank and everything in it. Returns False when there was no such bank."""
        self._configs.pop(bank_id, None)
        with _errors():
            row = self.conn.execute("SELECT hindsight.delete_bank(%s)", (bank_id,)).fetchone()
        return bool(row and row[0])

    # -- retain --------------------------------------------------------------------

    def retain(
        self,
        bank_id: str,
        content: str,
        *,
        timestamp: datetime | str | None = None,
        context: str | None = None,
        document_id: str | None = None,
        tags: Sequence[str] = (),
        metadata: Mapping[str, Any] | None = None,
        entities: Sequence[str] = (),
        speaker: str | None = None,
        update_mode: str = "replace",
        create_bank: bool = False,
    ) -> RetainResult:
        """Retain one piece of content; see :meth:`retain_batch` and :class:`MemoryItem`."""
        item = MemoryItem(content, timestamp, context, document_id, tags, metadata, entities, speaker, update_mode)
        return self.retain_batch(bank_id, [item], create_bank=create_bank)

    @_retried
    def retain_batch(
        self,
        bank_id: str,
        items: Iterable[MemoryItem | Mapping[str, Any] | str],
        *,
        progress: Callable[[int], None] | None = None,
        create_bank: bool = False,
    ) -> RetainResult:
        """Retain many items in one transaction: all are stored, or none.

        Each item (a :class:`MemoryItem`, a mapping with its fields, or a string: its
        content) is cleaned
        (NUL bytes dropped, lone surrogates replaced by U+FFFD) and split into
        chunks of at most 3,000 characters (paragraph, sentence, then word
        boundaries). The bank's extractor (config ``extractor``: ``offline`` by
        default, or ``llm``; or the client's own) turns each chunk into facts with
        their dates, entities and fact type; facts repeated within the call about
        the same day (same normalised text, or cosine similarity >= the bank's
        ``dedupe_similarity``) with the same numbers, dates, negation and entities
        are stored once, and the result's ``merged`` lists each repeat with the unit
        it was stored as. Each fact becomes a memory unit with its MiniLM
        embedding; ``hindsight.retain`` then resolves entities and links the
        units (docs/retain.md). For an existing ``document_id``, chunks whose
        text did not change are not extracted again. ``progress(n)`` is called
        after every group of items with the number just stored. With
        ``create_bank``, a missing bank is created in the same transaction (so a
        failed retain leaves no bank). A transaction that fails with a deadlock or a
        serialization failure is run again, up to 5 attempts (``client.retries``
        counts them; ``progress`` then counts again from the start), except inside
        a transaction of the caller's own (docs/reliability.md).

        Naive timestamps are UTC; aware ones are converted to UTC.

        Raises :class:`BankNotFoundError` for an unknown bank,
        :class:`InvalidInputError` (naming the item) for blank or
        punctuation-only content, a bad timestamp or update mode, and
        :class:`ExtractionError` when the LLM extractor fails.
        """
        _typed(bank_id, str, "bank_id")
        if isinstance(items, str | bytes | Mapping | MemoryItem) or not isinstance(items, Iterable):
            raise InvalidInputError(f"items must be a list of items, not {type(items).__name__}",
                                    hint="Retain one item with client.retain(bank_id, content), or give a list: "
                                         "retain_batch(bank_id, [item, ...]).")  # fmt: skip
        items = list(items)
        with _errors():
            limits.check_count("items", "the call", len(items))  # before any item is read
        prepared = [self._prepare(i, item) for i, item in enumerate(items)]
        with _errors(), self.conn.transaction():
            if isinstance(self.extractor, LLMExtractor):
                self.extractor.llm.usage = self.llm_usage  # its calls are recorded on this client
            stored = retaining.retain(
                PsycopgDatabase(self.conn), bank_id, prepared, llm_for=self._llm, extractor=self.extractor,
                embedder_of_config=lambda config: self.embedder_of(bank_id, config), create_bank=create_bank,
                config=self._configs.get(bank_id), progress=progress,
            )  # fmt: skip
        keep_config(self._configs, bank_id, stored.config)
        document_ids = list(dict.fromkeys(r["document_id"] for r in stored.rows))
        unit_ids = [UUID(r["unit_id"]) for r in stored.rows if r["unit_id"] is not None]
        merged = [MergedFact(item, repeat, UUID(unit), reason, similarity)
                  for item, repeat, unit, reason, similarity in stored.merges]  # fmt: skip
        return RetainResult(bank_id, document_ids, unit_ids, merged)

    def _llm(self, config: Mapping[str, Any]) -> LLMClient | None:
        """The language model a bank's config names (or None), its calls recorded in ``llm_usage``."""
        llm = LLMClient.from_config(config)
        if llm is not None:
            llm.usage = self.llm_usage
        return llm

    def _prepare(self, index: int, item: MemoryItem | Mapping[str, Any] | str) -> Item:
        """One item of retain_batch as the pipeline takes it (:func:`hindsight_pl.pipeline.retain.prepare`)."""
        if isinstance(item, str):
            item = MemoryItem(item)
        elif isinstance(item, Mapping):
            try:
                item = MemoryItem(**item)
            except TypeError as exc:
                fields = ", ".join(f.name for f in dataclasses.fields(MemoryItem))
                raise InvalidInputError(f"item {index}: {exc}", hint=f"An item's fields: {fields}.") from None
        elif not isinstance(item, MemoryItem):
            raise InvalidInputError(
                f"item {index}: expected a MemoryItem, a mapping of its fields or a string, not {type(item).__name__}"
            )
        label = f"item {index}"
        if not isinstance(item.content, str):
            raise InvalidInputError(f"{label}: content must be a string, not {type(item.content).__name__}")
        with _errors():
            return retaining.prepare(
                item.content, timestamp=_utc(item.timestamp, label) or datetime.now(UTC),
                document_id=item.document_id, context=item.context, tags=_names(item.tags, f"{label}: tags"),
                metadata=item.metadata, entities=_names(item.entities, f"{label}: entities"), speaker=item.speaker,
                update_mode=item.update_mode, label=label,
            )  # fmt: skip

    @_retried
    def delete_document(self, bank_id: str, document_id: str) -> bool:
        """Delete a document: its chunks, memory units, their links and entity references, and entities
        nothing mentions any more. Returns False when the bank has no such document.

        Raises :class:`BankNotFoundError` for an unknown bank.
        """
        with _errors():
            row = self.conn.execute("SELECT hindsight.delete_document(%s, %s)", (bank_id, document_id)).fetchone()
        return bool(row and row[0])

    @_retried
    def update_memory(
        self,
        bank_id: str,
        memory_id: UUID | str,
        *,
        text: str | None = None,
        occurred_start: datetime | str | None = None,
        occurred_end: datetime | str | None = None,
        mentioned_at: datetime | str | None = None,
        tags: Sequence[str] | None = None,
        metadata: Mapping[str, Any] | None = None,
        context: str | None = None,
        entities: Sequence[str] | None = None,
    ) -> Memory:
        """Change one memory (a fact; ``hindsight.update_memory``) and return it as it is now. None keeps a field;
        ``tags`` and ``metadata`` replace the memory's. A new ``text`` is embedded with the bank's model, indexed,
        and read again as retain reads a fact: its entities (``entities`` when given, else the names the memory had
        that the text still holds and the names it gives) and its dates as of ``mentioned_at`` (unless dates are
        given); a new text or date links the memory again (what it revises, what revises it), and the observations
        citing it are refreshed (docs/retain.md, "One memory at a time"). Naive timestamps are UTC.

        Raises :class:`BankNotFoundError`, :class:`MemoryNotFoundError` (no such memory), and
        :class:`InvalidInputError` for a blank text, an observation (it follows its facts), occurred_end before
        occurred_start or a wrong type; nothing is changed then.
        """
        _typed(bank_id, str, "bank_id")
        memory = _memory_id(memory_id)
        _typed(text, str, "text", optional=True)
        _typed(context, str, "context", optional=True)
        _typed(metadata, Mapping, "metadata", optional=True)
        dates = [_utc(occurred_start, "occurred_start"), _utc(occurred_end, "occurred_end"),
                 _utc(mentioned_at, "mentioned_at")]  # fmt: skip
        tags, entities = _names(tags, "tags"), _names(entities, "entities")
        vector = None
        if text is not None and text.strip():
            with _errors():
                vector = self.embedder_for(bank_id).embed([text], kind="passage")[0]
        with _errors():
            row = self.conn.execute(
                "SELECT (m).* FROM (SELECT hindsight.update_memory(%s, %s, text => %s, occurred_start => %s,"
                " occurred_end => %s, mentioned_at => %s, tags => %s, metadata => %s, context => %s,"
                " entities => %s, embedding => %s::vector) AS m) x",
                (bank_id, memory, text, *dates, tags, None if metadata is None else Jsonb(dict(metadata)), context,
                 entities, vector),
            ).fetchone()  # fmt: skip
        assert row is not None  # update_memory raises rather than return no row
        return _memory(row)

    @_retried
    def delete_memory(self, bank_id: str, memory_id: UUID | str) -> bool:
        """Delete one memory (``hindsight.delete_memory``): its links in both directions and entity references go
        with it, what it superseded is current again, the observations citing it are refreshed (deleted when it
        was their last fact), entities nothing mentions any more are deleted, and so is a document left without
        memories. Returns False when the bank holds no such memory.

        Raises :class:`BankNotFoundError` for an unknown bank, :class:`InvalidInputError` for an id that is no UUID.
        """
        _typed(bank_id, str, "bank_id")
        memory = _memory_id(memory_id)
        with _errors():
            row = self.conn.execute("SELECT hindsight.delete_memory(%s, %s)", (bank_id, memory)).fetchone()
        return bool(row and row[0])

    @_retried
    def consolidate(self, bank_id: str, *, use_llm: bool = True) -> list[tuple[UUID, str, int | None]]:
        """Consolidate the facts no consolidation has seen yet into observations (``hindsight.consolidate``,
        offline and deterministic; docs/observations.md). When the bank has a language model
        (``llm_base_url`` and ``llm_model``), the model then writes each created or updated observation's
        text from its facts and may find facts that contradict it: those leave its proof and its
        metadata ``history`` records them. Returns ``(observation_id, action, proof_count)`` per
        observation touched, action ``created``, ``updated``, ``merged`` or ``removed`` (those two are gone);
        running it again with no new facts returns nothing. All in one transaction. ``use_llm=False``
        stays offline for a bank that has a model.

        Raises :class:`BankNotFoundError` for an unknown bank and :class:`ExtractionError` when the
        model fails (nothing is kept then).
        """
        with _errors(), self.conn.transaction():
            rows = consolidating.consolidate(PsycopgDatabase(self.conn), bank_id, self._llm if use_llm else None)
        return [(UUID(observation), action, proof) for observation, action, proof in rows]

    def reflect(
        self,
        bank_id: str,
        query: str,
        *,
        budget: str = "low",
        max_tokens: int = 4096,
        tags: Sequence[str] | None = None,
        tags_match: str = "any",
        response_schema: Mapping[str, Any] | None = None,
        query_timestamp: datetime | str | None = None,
    ) -> ReflectResult:
        """Answer ``query`` from the bank's memory with its language model (``llm_base_url``,
        ``llm_model``), in its disposition and directives: an agent loop over recall,
        search_observations, search_mental_models, expand and done (5 / 10 / 20 iterations for
        budget low / mid / high; docs/reflect.md), the loop ``hindsight.reflect`` runs in SQL. Tools
        recall with ``max_tokens``, ``tags`` and ``query_timestamp``, preferring observations to the
        facts they cite. ``response_schema`` (a JSON schema) makes the answer a validated object.

        Raises :class:`BankNotFoundError`, :class:`InvalidInputError` when the bank has no language
        model (with a hint on configuring one) or for a bad argument, and :class:`ExtractionError`
        when the model fails.
        """
        with _errors():
            return reflecting.reflect(
                PsycopgDatabase(self.conn), bank_id, query, llm_for=self._llm, budget=budget, max_tokens=max_tokens,
                tags=_names(tags, "tags"), tags_match=tags_match, response_schema=response_schema,
                query_timestamp=_utc(query_timestamp, "query_timestamp"), embedder=self.embedder_for(bank_id),
                reranker=self.reranker,
            )  # fmt: skip

    # -- mental models ---------------------------------------------------------------

    def create_mental_model(
        self, bank_id: str, name: str, source_query: str, *, tags: Sequence[str] = (), max_tokens: int = 2048
    ) -> MentalModel:
        """Create a mental model: a named summary that :meth:`refresh_mental_model` writes by reflecting
        on ``source_query`` (with ``tags`` and ``max_tokens``). Raises :class:`BankNotFoundError`, and
        :class:`InvalidInputError` for a blank name or query or a name the bank already has
        (:class:`LimitExceededError` for a query over 2,000 characters or a name or tag over 200)."""
        with _errors(), self.conn.cursor(row_factory=dict_row) as cur:
            row = cur.execute(
                MENTAL_MODEL_COLUMNS + " FROM hindsight.create_mental_model(%s, %s, %s, %s, %s)",
                (bank_id, name, source_query, list(tags), max_tokens),
            ).fetchone()
        assert row is not None  # a row, or an error
        return MentalModel(**row)

    def refresh_mental_model(self, bank_id: str, name: str) -> MentalModel:
        """Answer the model's source query with :meth:`reflect` and store the answer as its content (with
        its embedding, the memory ids it rests on and the time); the previous content goes to
        ``history``. Raises as :meth:`get_mental_model` and :meth:`reflect` do."""
        with _errors():
            reflecting.refresh_mental_model(PsycopgDatabase(self.conn), bank_id, name, reflect_with=functools.partial(
                self.reflect, bank_id), embedder=self.embedder_for(bank_id))  # fmt: skip
        return self.get_mental_model(bank_id, name)

    def get_mental_model(self, bank_id: str, name: str) -> MentalModel:
        """The bank's mental model of that name. Raises :class:`BankNotFoundError` and
        :class:`InvalidInputError` when there is none."""
        found = self._mental_models(bank_id, name)
        if not found:
            raise InvalidInputError(f'bank "{bank_id}" has no mental model named "{name}"')
        return found[0]

    def list_mental_models(self, bank_id: str) -> list[MentalModel]:
        """The bank's mental models, by name. Raises :class:`BankNotFoundError`."""
        return self._mental_models(bank_id, None)

    def _mental_models(self, bank_id: str, name: str | None) -> list[MentalModel]:
        with _errors(), self.conn.cursor(row_factory=dict_row) as cur:
            cur.execute("SELECT hindsight.bank_config(%s)", (bank_id,))  # HS404 for an unknown bank
            rows = cur.execute(
                MENTAL_MODEL_COLUMNS
                + " FROM hindsight.mental_models WHERE bank_id = %s AND (%s::text IS NULL OR name = %s) ORDER BY name",
                (bank_id, name, name),
            ).fetchall()
        return [MentalModel(**row) for row in rows]

    def delete_mental_model(self, bank_id: str, name: str) -> bool:
        """Delete the bank's mental model of that name; False when there was none. Raises
        :class:`BankNotFoundError` for an unknown bank."""
        with _errors():
            row = self.conn.execute("SELECT hindsight.delete_mental_model(%s, %s)", (bank_id, name)).fetchone()
        return bool(row and row[0])

    def list_entities(self, bank_id: str, *, limit: int = DEFAULT_ENTITY_LIMIT) -> list[Entity]:
        """The bank's entities, most mentioned first (then by name), at most ``limit`` (default 20).

        Raises :class:`BankNotFoundError` for an unknown bank.
        """
        with _errors(), self.conn.cursor(row_factory=dict_row) as cur:
            cur.execute("SELECT hindsight.bank_config(%s)", (bank_id,))
            cur.execute(
                "SELECT entity_id AS id, canonical_name, mention_count, first_seen, last_seen, co_occurring"
                " FROM hindsight.entity_stats WHERE bank_id = %s"
                " ORDER BY mention_count DESC, canonical_name LIMIT %s",
                (bank_id, limit),
            )
            return [Entity(**row) for row in cur.fetchall()]

    # -- recall --------------------------------------------------------------------

    @_read_retried
    def recall(
        self,
        bank_id: str,
        query: str,
        *,
        budget: str = "mid",
        max_tokens: int = 4096,
        types: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        tags_match: str = "any",
        query_timestamp: datetime | str | None = None,
        temporal_window: tuple[datetime | str, datetime | str] | None = None,
        fusion: str = "rrf",
        cap_per_source: int | None = None,
        arms: Sequence[str] | None = None,
        passthrough: str = "calibrated",
        prefer_observations: bool = False,
        min_relevance: float | None = DEFAULT_MIN_RELEVANCE,
        max_results: int | None = DEFAULT_MAX_RESULTS,
        trace: bool = False,
    ) -> RecallResponse:
        """Recall the memories of a bank that answer ``query``, best first, within ``max_tokens``: the best
        ``max_results`` packed results (10, as ``hindsight.recall`` gives; None: every packed result).

        Embeds the query and runs ``hindsight.recall`` (docs/recall.md describes
        every stage). ``budget`` is low | mid | high (100 / 300 / 1000 candidates
        per arm unless the bank's config says otherwise); ``tags_match`` is any |
        all | any_strict | all_strict | exact; ``temporal_window`` = (start, end)
        runs the temporal arm over that span (naive datetimes are UTC); ``arms``
        picks a subset of semantic, keyword, graph, temporal; ``fusion`` is rrf or
        interleave; ``passthrough`` is calibrated, normalized or rank_linear; ``prefer_observations``
        drops a fact that an observation among the results cites. Each result's ``relevance`` is the probability
        that it answers the query, the same across recalls (None when it cannot be told: docs/recall.md,
        "Relevance"); ``min_relevance`` (0 to 1; None, the default: no floor) drops every candidate below it before
        packing, so the results may be fewer, or none. With ``trace``,
        ``response.trace`` holds every stage's figures.

        A query without a letter or digit (``""``, blanks, punctuation) has nothing to search for: no results,
        as ``hindsight.recall`` gives, after the same checks (docs/reference.md, An empty query).

        Raises :class:`BankNotFoundError` (naming the bank) and
        :class:`InvalidInputError` for a bad argument or query.
        """
        _typed(bank_id, str, "bank_id")
        _typed(query, str, "query")
        _typed(budget, str, "budget")
        _typed(max_tokens, int, "max_tokens")
        _typed(max_results, int, "max_results", optional=True)
        _typed(min_relevance, (float, int), "min_relevance", optional=True)
        _typed(cap_per_source, int, "cap_per_source", optional=True)
        window = None
        if temporal_window is not None:
            start, end = (_utc(v, "temporal_window") for v in temporal_window)
            window = Range(start, end, "[]")
        arguments = {
            "budget": budget, "max_tokens": max_tokens, "types": _names(types, "types"), "tags": _names(tags, "tags"),
            "tags_match": tags_match, "query_timestamp": _utc(query_timestamp, "query_timestamp"), "trace": trace,
            "temporal_window": window, "fusion": fusion, "cap_per_source": cap_per_source,
            "arms": _names(arms, "arms"), "passthrough": passthrough, "prefer_observations": prefer_observations,
            "min_relevance": min_relevance, "max_results": max_results,
        }  # fmt: skip
        with _errors():
            found = recalling.recall(
                PsycopgDatabase(self.conn), bank_id, query, embedder=None, reranker=self.reranker,
                embedder_of_config=lambda config: self.embedder_of(bank_id, config), config=self._config(bank_id),
                **arguments,
            )  # fmt: skip
        return RecallResponse([_result(_from_json(r)) for r in found["results"]], found["trace"])
