"""What every step reads of a bank first."""

from __future__ import annotations

from typing import Any

from .database import Database, json_of, one

# a bare call: on Citus the coordinator sends it to the worker holding the bank
BANK_CONFIG = "SELECT hindsight.bank_config($1::text) AS config"


def bank_config(db: Database, bank_id: str) -> dict[str, Any]:
    """The bank's effective config (``hindsight.bank_config``); the database raises HS404 for an unknown bank."""
    row = one(db, BANK_CONFIG, bank_id)
    return (json_of(row["config"]) if row else None) or {}
