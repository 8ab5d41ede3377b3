"""What every step reads of a bank first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .database import Database, json_of, one

# a bare call: on Citus the coordinator sends it to the worker holding the bank
BANK_CONFIG = "SELECT hindsight.bank_config($1::text) AS config"
# A caller may keep a bank's config from one call to the next and pass it to recall and retain, which choose their
# models with it; the database compares it with the config it reads (config_seen) and raises this SQLSTATE when it
# went stale, before doing anything: the caller reads it again and runs the call again.
CONFIG_CHANGED = "HS412"
# at most this many banks' configs kept per client (or per session in the database); the oldest kept goes first
KEPT_CONFIGS = 1024


def keep_config(kept: dict[Any, Mapping[str, Any]], key: Any, config: Mapping[str, Any]) -> None:
    """Keep ``config`` under ``key`` in ``kept`` as the newest, at most :data:`KEPT_CONFIGS` entries (the oldest kept
    goes first)."""
    kept.pop(key, None)
    if len(kept) >= KEPT_CONFIGS:
        del kept[next(iter(kept))]
    kept[key] = config


def bank_config(db: Database, bank_id: str) -> dict[str, Any]:
    """The bank's effective config (``hindsight.bank_config``); the database raises HS404 for an unknown bank."""
    row = one(db, BANK_CONFIG, bank_id)
    return (json_of(row["config"]) if row else None) or {}
