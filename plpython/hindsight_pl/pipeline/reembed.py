"""Re-embedding: every vector of a bank re-made with another model, resumable, the bank answering with its old
model until the end (docs/providers.md, "Changing a bank's model"). The driver runs it (``Client.reembed``); the
database keeps the state (``hindsight.reembed_begin``, ``reembed_store``, ``reembed_finish``)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from ..providers import Embedder
from .database import Database, one
from .recall import vector_text

BEGIN = (
    "SELECT hindsight.bank_config($1::text)->>'embedding_model' AS current,"
    " hindsight.reembed_begin($1::text, $2::text) AS remaining"
)
PENDING = (
    "SELECT id::text AS id, text FROM hindsight.memory_units WHERE bank_id = $1::text AND embedding_next IS NULL"
    " ORDER BY id LIMIT $2::int"
)
STORE = "SELECT hindsight.reembed_store($1::text, $2::text, $3::uuid[], $4::vector[]) AS stored"
MENTAL_MODELS = (
    "SELECT id::text AS id, content FROM hindsight.mental_models WHERE bank_id = $1::text AND embedding IS NOT NULL"
    " ORDER BY id"
)
FINISH = "SELECT hindsight.reembed_finish($1::text, $2::text, $3::uuid[], $4::vector[]) AS units"
ATTEMPTS = 5  # finishes tried: units retained while a run goes on are embedded before each new try


def reembed(
    db: Database,
    bank_id: str,
    model: str,
    embedder: Embedder,
    *,
    transaction: Callable[[], AbstractContextManager[Any]],
    batch_size: int = 64,
    progress: Callable[[int, int], None] | None = None,
) -> int:
    """Re-make every vector of ``bank_id`` with ``embedder`` (which makes ``model``'s vectors) and record ``model``
    as the bank's ``embedding_model``. ``db`` runs each statement in a transaction of its own (autocommit), so
    each batch of ``batch_size`` units is kept as it is stored and a run that stops goes on where it was when
    called again; ``transaction()`` holds the end (``hindsight.reembed_finish``: every vector swapped in, the
    mental models re-embedded, the model recorded). ``progress(done, total)`` follows each batch. Returns the
    units re-embedded, 0 when the bank already uses ``model``.

    The end refuses (HS425) while units retained since the last batch lack a new vector: they are embedded and
    the end tried again, :data:`ATTEMPTS` times at most. Raises what the database raises (HS404 unknown bank,
    HS425 after the last attempt) and ``ProviderError`` when the model fails."""
    begun = one(db, BEGIN, bank_id, model)
    assert begun is not None  # one row, or an error
    if begun["current"] == model:
        return 0
    total, done = int(begun["remaining"]), 0
    for attempt in range(ATTEMPTS):
        while batch := db.rows(PENDING, bank_id, batch_size):
            vectors = embedder.embed([row["text"] for row in batch], kind="passage")
            db.rows(STORE, bank_id, model, [row["id"] for row in batch], [vector_text(v) for v in vectors])
            done += len(batch)
            if progress is not None:
                progress(done, max(total, done))
        try:
            with transaction():
                models = db.rows(MENTAL_MODELS, bank_id)
                vectors = embedder.embed([m["content"] or "" for m in models], kind="passage") if models else []
                finished = one(db, FINISH, bank_id, model, [m["id"] for m in models], [vector_text(v) for v in vectors])
            return int(finished["units"]) if finished else 0
        except Exception as exc:
            if getattr(exc, "sqlstate", None) != "HS425" or attempt == ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable: the last attempt returns or raises")
